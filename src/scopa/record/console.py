"""``scopa --stats``, ``scopa --review last|N``, the Statistics and Review menus, and the line
said when a finished match earns an achievement.

- ``print_stats(data_dir, lang)``: ``scopa --stats``.
- ``statistics(program)``: the main menu's Statistics, then the recent matches to review.
- ``review_menu(program)``: the main menu's Review: the recent matches; the one chosen is reviewed.
- ``run_review(program, which)``: ``scopa --review``: one review, then the exit code.
- ``finish_match(program, record)``: log a finished match, then say what it earned.
- ``log_online(program, table)``: log an online match this seat played to its end; what it earned.

Review keys: Enter or N the next play, P the previous, D the next deal, H show or hide hands,
W why (the coach), T the table, R repeat, ? the keys, Escape leaves.
"""
from __future__ import annotations

import contextlib
import itertools
import os
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import NamedTuple, Protocol

from ..console.announcer import Announcer, ask_hands_aloud
from ..console.menus import choose
from ..console.terminal import ENTER, ESCAPE, Input, InputClosed, Interrupted
from ..engine.shuffle import Seed, seed_text
from ..match import MatchRecord
from ..narration import Announcement, Narrator, run_command
from ..narration.cards import Naming
from ..narration.narrator import Verbosity
from ..speech import Speaker
from ..storage import MatchResult, SaveFileError, iter_results, record_result, recorded_match, result_at
from ..storage.announced import announce_once, read_announced
from .achievements import Earned, earned, newly_earned
from .facts_cache import FactsCache
from .review import ReviewScript
from .stats import MatchFacts, facts_so_far, match_facts
from .text import RecordText
from .words import announcement, history_items, recent, stats_lines


class _Saves(Protocol):
    @property
    def data_dir(self) -> Path | None: ...
    @property
    def clock(self) -> Callable[[], str]: ...  # the date now, as the results log writes it

    def finish(self, record: MatchRecord) -> None: ...


class OnlineSeat(Protocol):
    """What ``log_online`` asks of an online table (``net.client.client.RemoteTable`` is one)."""

    server: str
    code: str
    seat: int

    def finished_record(self) -> MatchRecord | None: ...


class Program(Protocol):
    """What the statistics, reviews and achievements ask of the program (``console.app.Program`` is one).

    Named here so that this module does not import the program, which opens its menus."""

    @property
    def input(self) -> Input: ...
    @property
    def announcer(self) -> Announcer: ...
    @property
    def speaker(self) -> Speaker: ...
    @property
    def persistence(self) -> _Saves: ...
    @property
    def lang(self) -> str: ...
    @property
    def naming(self) -> Naming: ...
    @property
    def verbosity(self) -> Verbosity: ...

    def say(self, *lines: str | Announcement) -> None: ...

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

def logged_facts(data_dir: str | os.PathLike[str] | None) -> tuple[list[MatchFacts], int, SaveFileError | None]:
    """The facts of every logged match that replays, and the number of entries, read a result at
    a time so that only the facts stay in memory; none, and why, when the log cannot be read.

    The facts come from the cache where it has them (a match is replayed once, not at every
    look), and the cache is written back to fit the log as it is now."""
    facts: list[MatchFacts] = []
    count = 0
    cache = FactsCache(data_dir)
    try:
        for index, result in enumerate(iter_results(data_dir)):
            count += 1
            found = cache.facts(result, index)
            if found is not None:
                facts.append(found)
    except SaveFileError as error:
        return [], 0, error
    cache.save(whole_log=True)
    return facts, count, None


class Page(NamedTuple):
    """The Statistics lines and the matches they were worked out from."""

    lines: list[str]
    facts: list[MatchFacts]
    readable: bool = True


def page(data_dir: str | os.PathLike[str] | None, lang: str) -> Page:
    t = RecordText(lang)
    facts, count, problem = logged_facts(data_dir)
    if problem is not None:
        return Page([problem.localised(t)], [], readable=False)
    return Page(stats_lines(facts, count, earned(facts, read_announced(data_dir)), t), facts)


def print_stats(data_dir: str | os.PathLike[str] | None, lang: str) -> int:
    """``scopa --stats``: the page, then how to review a match; 1 when the log cannot be read."""
    found = page(data_dir, lang)
    for line in found.lines:
        print(line)
    if found.facts:
        print(RecordText(lang)("stats.review_hint", command=f"{run_command()} --review"))
    return 0 if found.readable else 1


# The menus -------------------------------------------------------------------------------

def statistics(program: Program) -> None:
    """The Statistics page, then the recent matches: the one picked is reviewed."""
    lines, facts, _ = page(program.persistence.data_dir, program.lang)
    heading = RecordText(program.lang)("stats.recent")
    if heading in lines:  # the recent matches are read as the menu that follows
        lines = lines[:lines.index(heading)]
    program.say(*[Announcement(line) for line in lines])
    if facts:
        _pick_and_review(program, facts)


def review_menu(program: Program) -> None:
    facts = _reviewable(program)
    if facts is not None:
        _pick_and_review(program, facts)


def _reviewable(program: Program) -> list[MatchFacts] | None:
    """The matches the log can replay; None, once it is said why, when there are none."""
    t = RecordText(program.lang)
    facts, _, problem = logged_facts(program.persistence.data_dir)
    if not facts:
        program.say(t("review.none") if problem is None else problem.localised(t))
        return None
    return facts


def _pick_and_review(program: Program, facts: Sequence[MatchFacts]) -> None:
    t = RecordText(program.lang)
    while True:
        index = choose(program.input, program.announcer, t("review.choose"), history_items(facts, t),
                       t("prompt.menu"), default=0, messages=t)
        if index is None:
            return
        _review_listed(program, recent(facts)[index])


def _review_listed(program: Program, chosen: MatchFacts) -> None:
    """Review a match listed a moment ago, read again from the log (which keeps only facts in
    memory); if another copy replaced the log meanwhile and the entry is not that match, say so."""
    try:
        result = result_at(program.persistence.data_dir, chosen.index)
    except SaveFileError:
        result = None
    if result is None or match_facts(result, chosen.index) != chosen:
        program.say(RecordText(program.lang)("review.gone"))
        return
    review(program, result, chosen)


# One review ------------------------------------------------------------------------------

def run_review(program: Program, which: int) -> int:
    """``scopa --review N``: review the Nth latest match, then 0; 1 when there is no such match."""
    t = RecordText(program.lang)
    try:
        program.start_voice()
        found = _reviewable(program)
        if found is None:
            return 1
        if which > len(found):
            program.say(t.plural("review.out_of_range", len(found), asked=which))
            return 1
        _review_listed(program, list(reversed(found))[which - 1])
        return 0
    except InputClosed:
        return 0
    except (Interrupted, KeyboardInterrupt):
        return 130
    finally:
        program.speaker.close()
        program.input.close()


def review(program: Program, result: MatchResult, facts: MatchFacts) -> None:
    """Walk through one logged match with keys; Escape (or the end of the input) leaves."""
    t = RecordText(program.lang)
    record = recorded_match(result)  # facts exist only for a match that replays
    assert record is not None
    humans = record.human_seats
    you = result.seat if result.seat is not None else humans[0] if len(humans) == 1 else None  # online: own seat
    coached = None if result.seat is None else (result.seat,)
    if you is None:  # pass-and-play: told from one player's seat, chosen, coached for that seat alone
        index = choose(program.input, program.announcer, t("review.whose"), [record.seats[s].name for s in humans],
                       t("prompt.menu"), messages=t)
        if index is None:
            program.say(t("review.left"))
            return
        you = humans[index]
        coached = (you,)
    narrator = Narrator([s.name for s in record.seats], record.rules, you, program.lang, program.naming,
                        program.verbosity)
    ReviewSession(program, ReviewScript(record, narrator, t, coached=coached), facts, t).run()


class ReviewSession:
    """The keys of a review, over the stops of a ``ReviewScript``.

    The hand a play came from and the coach's better card are private lines: with the voice on,
    the hand warning is asked before the first of them, and N keeps them printed only. The hand
    open is the one of the play just told."""

    def __init__(self, program: Program, script: ReviewScript, facts: MatchFacts, text: RecordText) -> None:
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

def finish_match(program: Program, record: MatchRecord) -> None:
    """Log a finished match as before, then say each achievement it earned, one line each."""
    program.say(*log_finished(program, record))  # one write, as every announcement


def log_finished(program: Program, record: MatchRecord, played_here: bool = True) -> list[str]:
    """Log a finished match as before; the lines of the achievements it earned, one each, to say.

    The match's table logs it the moment the last card is played, before that play is told, so
    the program says these lines once the match's last lines are said. ``played_here``: its
    deals before the last ended at this table, where ``deal_achievements`` told what they
    earned; an imported match that was over already had nothing told, so everything is new."""
    return _log_and_earn(program, lambda: program.persistence.finish(record), played_here)


def log_online(program: Program, table: OnlineSeat) -> list[str]:
    """An online match this seat played to its end: logged as online, from this seat, once (its
    id names the server, the room and the match's seed, so a reconnection or a client started
    again after the end logs nothing new); the lines of the achievements it earned, to say
    after its result line. Nothing when the server gave no record that checks. Its deals said
    nothing when they ended (the client has no record before the end), so all it earned is new.
    The deals a computer played some of this seat in come marked assisted (``finished_record``),
    so they, and the match, earn this player nothing."""
    record = table.finished_record()
    if record is None:
        return []
    match_id = online_match_id(table.server, table.code, record.seed)

    def log() -> None:
        # The results log is a nicety, as for a match played here.
        with contextlib.suppress(SaveFileError, OSError, ValueError):
            record_result(record, program.persistence.clock(), program.persistence.data_dir, online=True,
                          match_id=match_id, seat=table.seat)

    return _log_and_earn(program, log, played_here=False)


def online_match_id(server: str, code: str, seed: Seed) -> str:
    """The id of an online match in the results log: a room plays one match, and its seed tells
    it from a later room given the same code."""
    return f"online {server} {code} {seed_text(seed)}"


def _log_and_earn(program: Program, log: Callable[[], None], played_here: bool) -> list[str]:
    """``log()`` the finished match; the lines of what it earned if that added it to the log."""
    data_dir = program.persistence.data_dir
    before, _ = _count_and_last(data_dir)
    log()
    after, last = _count_and_last(data_dir)
    if after <= before or last is None:
        return []  # not logged (a disk problem), or logged before: nothing new earned
    cache = FactsCache(data_dir)
    latest = cache.facts(last, after - 1)  # worked out once, as the match is logged
    if latest is None:
        cache.save()
        return []
    earlier = itertools.islice(_logged_facts(data_dir, cache), after - 1)
    told = len(latest.deals) - 1 if played_here else 0
    found = newly_earned(latest, earlier, told)
    cache.save()
    return _announced_once(program, found)


def deal_achievements(program: Program, record: MatchRecord, deal_number: int) -> list[str]:
    """The end of a deal that did not end the match: the achievements that deal earned, a line
    each, to say after its score sheet (what an earlier deal of the match earned was said then)."""
    facts = facts_so_far(record)
    if facts is None or len(facts.deals) != deal_number:
        return []  # the table is past that deal already
    cache = FactsCache(program.persistence.data_dir)
    found = newly_earned(facts, _logged_facts(program.persistence.data_dir, cache), told=deal_number - 1)
    cache.save()
    return _announced_once(program, found)


def _announced_once(program: Program, found: Sequence[Earned]) -> list[str]:
    """The lines of the achievements found that no match, finished or not, announced before;
    they are recorded as announced now."""
    t = RecordText(program.lang)
    keys = set(announce_once(program.persistence.data_dir, [e.key for e in found], program.persistence.clock()))
    return [announcement(item, t) for item in found if item.key in keys]


def _logged_facts(data_dir: str | os.PathLike[str] | None, cache: FactsCache) -> Iterator[MatchFacts | None]:
    """The logged matches' facts, oldest first, read as they are asked for (none from a log that cannot be read)."""
    try:
        for index, result in enumerate(iter_results(data_dir)):
            yield cache.facts(result, index)
    except SaveFileError:
        return


def _count_and_last(data_dir: str | os.PathLike[str] | None) -> tuple[int, MatchResult | None]:
    """How many results the log holds and the latest one; (0, None) when it cannot be read."""
    count, last = 0, None
    try:
        for count, last in enumerate(iter_results(data_dir), 1):  # noqa: B007 -- the loop keeps the last pair
            pass
    except SaveFileError:
        return 0, None
    return count, last
