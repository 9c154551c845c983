"""``scopa --stats``, ``scopa --review last|N``, the Statistics and Review menus, and the line
said when a finished match earns an achievement.

- ``print_stats(data_dir, lang)``: ``scopa --stats``.
- ``statistics(program)``: the main menu's Statistics, then the recent matches to review.
- ``review_menu(program)``: the main menu's Review: the recent matches; the one chosen is reviewed.
- ``run_review(program, which)``: ``scopa --review``: one review, then the exit code.
- ``finish_match(program, record)``: log a finished match, then say what it earned.

Review keys: Enter or N the next play, P the previous, D the next deal, H show or hide hands,
W why (the coach), T the table, R repeat, ? the keys, Escape leaves.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Callable, NamedTuple, Protocol, Sequence

from ..console.announcer import Announcer, ask_hands_aloud
from ..console.menus import choose
from ..console.terminal import ENTER, ESCAPE, Input, InputClosed, Interrupted
from ..match import MatchRecord
from ..narration import Announcement, Narrator
from ..speech import Speaker
from ..storage import MatchResult, SaveFileError, load_results, recorded_match
from .achievements import earned, newly_earned
from .review import ReviewScript
from .stats import MatchFacts, all_facts, match_facts
from .text import RecordText
from .words import announcement, history_items, recent, stats_lines



class _Saves(Protocol):
    data_dir: Path | None

    def finish(self, record: MatchRecord) -> None: ...


class Program(Protocol):
    """What the statistics, reviews and achievements ask of the program (``console.app.Program`` is one).

    Named here so that this module does not import the program, which opens its menus."""

    input: Input
    announcer: Announcer
    speaker: Speaker
    persistence: _Saves
    lang: str
    naming: str
    verbosity: str
    say: Callable[..., None]

    def start_voice(self) -> None: ...

    def voice_is_on(self) -> bool: ...

LAST = "last"


class ReviewChoiceError(ValueError):
    """``--review`` was given something that names no match."""


def review_choice(text: str) -> int:
    """Which match ``--review`` asks for, counted from the latest (1 is the latest, as ``last``)."""
    word = text.strip().lower()
    if word in (LAST, "ultima"):
        return 1
    if word.isascii() and word.isdigit() and 0 < len(word) <= 4 and int(word) >= 1:
        return int(word)
    raise ReviewChoiceError(text)


# Reading the log ------------------------------------------------------------------------

def read_log(data_dir: str | os.PathLike[str] | None) -> tuple[list[MatchResult], SaveFileError | None]:
    """The logged results, or none and why the log cannot be read."""
    try:
        return load_results(data_dir), None
    except SaveFileError as error:
        return [], error


class Page(NamedTuple):
    """The Statistics lines, the matches they were worked out from, and the log itself."""

    lines: list[str]
    facts: list[MatchFacts]
    results: list[MatchResult]
    readable: bool = True


def page(data_dir, lang: str) -> Page:
    t = RecordText(lang)
    results, problem = read_log(data_dir)
    if problem is not None:
        return Page([problem.localised(t)], [], [], readable=False)
    facts = all_facts(results)
    return Page(stats_lines(facts, len(results), earned(facts), t), facts, results)


def print_stats(data_dir, lang: str) -> int:
    """``scopa --stats``: the page, then how to review a match; 1 when the log cannot be read."""
    found = page(data_dir, lang)
    for line in found.lines:
        print(line)
    if found.facts:
        print(RecordText(lang)("stats.review_hint", command="scopa --review"))
    return 0 if found.readable else 1


# The menus -------------------------------------------------------------------------------

def statistics(program: "Program") -> None:
    """The Statistics page, then the recent matches: the one picked is reviewed."""
    lines, facts, results, _ = page(program.persistence.data_dir, program.lang)
    heading = RecordText(program.lang)("stats.recent")
    if heading in lines:  # the recent matches are read as the menu that follows
        lines = lines[:lines.index(heading)]
    program.say(*[Announcement(line) for line in lines])
    if facts:
        _pick_and_review(program, facts, results)


def review_menu(program: "Program") -> None:
    found = _reviewable(program)
    if found is not None:
        _pick_and_review(program, *found)


def _reviewable(program: "Program") -> tuple[list[MatchFacts], list[MatchResult]] | None:
    """The matches the log can replay, and the log; None, once it is said why, when there are none."""
    t = RecordText(program.lang)
    results, problem = read_log(program.persistence.data_dir)
    facts = all_facts(results)
    if not facts:
        program.say(t("review.none") if problem is None else problem.localised(t))
        return None
    return facts, results


def _pick_and_review(program: "Program", facts: Sequence[MatchFacts], results: Sequence[MatchResult]) -> None:
    t = RecordText(program.lang)
    while True:
        index = choose(program.input, program.announcer, t("review.choose"), history_items(facts, t),
                       t("prompt.menu"), default=0, messages=t)
        if index is None:
            return
        chosen = recent(facts)[index]
        review(program, results[chosen.index], chosen)


# One review ------------------------------------------------------------------------------

def run_review(program: "Program", which: int) -> int:
    """``scopa --review N``: review the Nth latest match, then 0; 1 when there is no such match."""
    t = RecordText(program.lang)
    try:
        program.start_voice()
        found = _reviewable(program)
        if found is None:
            return 1
        facts, results = found
        if which > len(facts):
            program.say(t.plural("review.out_of_range", len(facts), asked=which))
            return 1
        chosen = list(reversed(facts))[which - 1]
        review(program, results[chosen.index], chosen)
        return 0
    except InputClosed:
        return 0
    except (Interrupted, KeyboardInterrupt):
        return 130
    finally:
        program.speaker.close()
        program.input.close()


def review(program: "Program", result: MatchResult, facts: MatchFacts) -> None:
    """Walk through one logged match with keys; Escape (or the end of the input) leaves."""
    t = RecordText(program.lang)
    record = recorded_match(result)  # facts exist only for a match that replays
    assert record is not None
    humans = record.human_seats
    narrator = Narrator([s.name for s in record.seats], record.rules, humans[0] if len(humans) == 1 else None,
                        program.lang, program.naming, program.verbosity)
    ReviewSession(program, ReviewScript(record, narrator, t), facts, t).run()


class ReviewSession:
    """The keys of a review, over the stops of a ``ReviewScript``.

    The hand a play came from and the coach's better card are private lines: with the voice on,
    the hand warning is asked before the first of them, and N keeps them printed only. The hand
    open is the one of the play just told."""

    def __init__(self, program: "Program", script: ReviewScript, facts: MatchFacts, text: RecordText) -> None:
        self.program = program
        self.script = script
        self.facts = facts
        self.t = text
        self.at = -1  # the stop last told; -1 before the first
        self.show_hands = False
        self.hands_asked = False

    def say(self, *lines: Announcement | str) -> None:
        if not self.hands_asked and self.program.voice_is_on() and any(
                isinstance(line, Announcement) and line.private for line in lines):
            self.hands_asked = True
            ask_hands_aloud(self.program.announcer, self._read_key, self.script.narrator.messages)
        self.program.say(*lines)

    def _read_key(self, prompt_key: str) -> str:
        try:
            return self.program.input.read(self.script.narrator.messages(prompt_key) + " ")
        except Interrupted:
            return ESCAPE

    def run(self) -> None:
        announcer = self.program.announcer
        kept = announcer.speak_hands, announcer.open_seat
        announcer.speak_hands = False  # until the hand warning of this review allows them
        announcer.open_seat = lambda: self.script.seat_at(self.at)
        try:
            self._run()
        finally:
            announcer.speak_hands, announcer.open_seat = kept

    def _run(self) -> None:
        t = self.t
        self.say(t.plural("review.title", len(self.script.deals), date=t.date(self.facts.when),
                          names=self.script.narrator.cards.join(self.facts.opponents)), t("review.keys"))
        self.tell(0)
        while True:
            try:
                token = self.program.input.read(t("review.prompt") + " ")
            except Interrupted:
                token = ESCAPE
            if not self.key(token):
                self.say(t("review.left"))
                return

    def tell(self, index: int) -> None:
        self.at = index
        self.say(*self.script.lines(index, self.show_hands))
        if index == len(self.script.items) - 1:
            self.say(self.t("review.end"))

    def key(self, token: str) -> bool:
        """Act on one key; False to leave."""
        t, last = self.t, len(self.script.items) - 1
        token = token.lower() if len(token) == 1 else token
        if token == ESCAPE or (token == ENTER and self.at == last):
            return False
        if token in (ENTER, "n"):
            self.tell(self.at + 1) if self.at < last else self.say(t("review.end"))
        elif token == "p":
            self.tell(self.at - 1) if self.at > 0 else self.say(t("review.first"))
        elif token == "d":
            following = self.script.next_deal(self.at)
            self.tell(following) if following is not None else self.say(t("review.last_deal"))
        elif token == "h":
            self.show_hands = not self.show_hands
            self.say(t("review.hands_on" if self.show_hands else "review.hands_off"))
        elif token == "w":
            self.say(self.script.why(self.at))
        elif token == "t":
            self.say(self.script.table_now(self.at))
        elif token == "r":
            self.program.announcer.repeat()
        else:
            self.say(t("review.keys"))
        return True


# The end of a match ----------------------------------------------------------------------

def finish_match(program: "Program", record: MatchRecord) -> None:
    """Log a finished match as before, then say each achievement it earned, one line each."""
    for line in log_finished(program, record):
        program.say(line)


def log_finished(program: "Program", record: MatchRecord) -> list[Announcement]:
    """Log a finished match as before; the lines of the achievements it earned, one each, to say.

    The match's table logs it the moment the last card is played, before that play is told, so
    the program says these lines once the match's last lines are said."""
    data_dir = program.persistence.data_dir
    before, _ = read_log(data_dir)
    program.persistence.finish(record)
    after, _ = read_log(data_dir)
    if len(after) <= len(before):
        return []  # not logged (a disk problem), or logged before: nothing new earned
    latest = match_facts(after[-1], len(after) - 1)
    if latest is None:
        return []
    t = RecordText(program.lang)
    earlier = (match_facts(result, index) for index, result in enumerate(after[:-1]))
    return [announcement(item, t) for item in newly_earned(latest, earlier)]
