"""Silent hands: with the voice on and "N, keep hands silent" chosen, the voice names no card of any hand.

A walker answers every prompt of a match (or a lesson) like a curious player: at each turn it
reads the hand, the table, the last plays, the score and its pile, repeats, picks a card and
cancels it, asks for the suggestion and turns it down, opens the capture menu, repeats at every
step, and plays. A speaker watches each line it is given against the hands of the live position
at that moment, with card names in English and Italian, French and Napoletane naming.
"""
from __future__ import annotations

import io
import random
import re
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

import scopa.console.app as app_module
import scopa.lessons.console as lessons_console
import scopa.record.console as record_console
from helpers.console import request_for
from scopa.config import Settings
from scopa.console.announcer import Announcer
from scopa.console.app import Program
from scopa.console.game import MatchConsole
from scopa.console.terminal import ENTER, ESCAPE, Output
from scopa.console.terminal import write as write_screen
from scopa.engine import ALL_CARDS, SETTEBELLO, Card, Rules, new_match
from scopa.lessons import LESSON_COUNT, tip_for
from scopa.lessons.catalogue import load_catalogue as lessons_catalogue
from scopa.lessons.runner import LessonSession
from scopa.match import MatchRecord, SeatSetup
from scopa.narration import LANGUAGES, NAMINGS, Announcement, CardNames, Messages, Narrator
from scopa.record.text import RecordText
from scopa.speech import NullSpeaker, RecordingSpeaker
from scopa.storage import record_result
from scopa.table.persistence import Persistence

# Every step of a turn; what is left when the card is played is dropped at the next turn.
TURN = ["h", "r", "t", "l", "s", "p", "1", "r", ESCAPE, "r", "i", "r", ESCAPE, "r", "1", "1", "r", ENTER]
FALLBACK = {"card": "1", "capture": "1", "play": ENTER}


def _name_patterns() -> dict[Card, re.Pattern[str]]:
    """Each card's names in every language and naming, as whole words (so "tre di cuori" is no "re di cuori")."""
    names: dict[Card, set[str]] = {card: set() for card in ALL_CARDS}
    for lang in LANGUAGES:
        messages = Messages(lang)
        for naming in NAMINGS:
            cards = CardNames(messages, naming)
            for card in ALL_CARDS:
                plain = messages("card.name", rank=cards.rank_word(card), suit=cards.suit_word(card.suit))
                names[card].add(plain.lower())
                if card == SETTEBELLO:  # the nickname alone is also a public word: "No settebello."
                    names[card].update(cards.the(card, form).lower() for form in ("the", "of", "your"))
                else:
                    names[card].add(cards.name(card).lower())
    return {card: re.compile("|".join(rf"\b{re.escape(n)}\b" for n in sorted(words, key=len, reverse=True)))
            for card, words in names.items()}


PATTERNS = _name_patterns()


class HandWatcher(RecordingSpeaker):
    """A recording speaker that notes every line naming a card held in any hand as it is spoken."""

    def __init__(self) -> None:
        super().__init__()
        self.hands: Callable[[], tuple[tuple[Card, ...], ...]] = lambda: ()
        self.leaks: list[tuple[str, str]] = []

    def say(self, text: str) -> None:
        super().say(text)
        self.check(text)

    def check(self, text: str) -> None:
        lowered = text.lower()
        for hand in self.hands():
            for card in hand:
                if PATTERNS[card].search(lowered):
                    self.leaks.append((str(card), text))


class Walker:
    """Answers prompts: the turn's steps at Card?, Capture? and Play?, the plain answer elsewhere."""

    def __init__(self, lang: str, position: Callable[[], object], turns: int, allow: bool, out: io.StringIO,
                 watcher: HandWatcher, first: Sequence[str] = ()) -> None:
        m = Messages(lang)
        self.kinds = {m(f"prompt.{kind}"): kind for kind in ("card", "capture", "play")}
        self.answers = {m("prompt.open"): ENTER, m("prompt.allow"): ENTER if allow else "n",
                        m("prompt.hide"): ENTER, m("prompt.quit"): ENTER}
        self.position = position
        self.turns = turns
        self.out = out
        self.seen: object = None
        self.played = 0
        self.steps: list[str] = []
        self.watcher = watcher  # a prompt, too, must never name a card of a hand
        self.first = list(first)  # keys before the first turn's steps

    def read(self, prompt: str) -> str:
        write_screen(self.out, prompt + "\n")  # a prompt takes the lines held for it (terminal.held)
        self.watcher.check(prompt)
        words = prompt.strip()
        kind = self.kinds.get(words)
        if kind is None:
            return self.answers.get(words, ESCAPE)  # the lesson's Next? leaves; a match ends by turns
        if self.position() != self.seen:
            self.seen = self.position()
            self.played += 1
            self.steps = self.first + list(TURN)
            self.first = []
        if self.played > self.turns:
            return "q"
        return self.steps.pop(0) if self.steps else FALLBACK[kind]

    def read_text(self, prompt: str) -> str:
        return self.read(prompt)

    def close(self) -> None:
        pass


def _program(tmp_path: Path, lang: str, walker_args: tuple, speaker: HandWatcher, voice: bool = True,
             first: Sequence[str] = ()) -> tuple[Program, io.StringIO]:
    out = io.StringIO()
    walker = Walker(lang, *walker_args, out=out, watcher=speaker, first=first)
    program = Program(walker, Output(out), Settings(voice=voice, tips=True), tmp_path / "config",
                      Persistence(tmp_path / "data"),
                      speaker_factory=lambda on, settings: speaker if on else NullSpeaker(), lang=lang)
    return program, out


def _instances(monkeypatch, module: object, name: str) -> list:
    """Each object the program makes of the class ``module.name`` (a match console, a lesson
    session), so the watcher can read the live position."""
    made: list = []

    class Watched(getattr(module, name)):  # type: ignore[misc]
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(module, name, Watched)
    return made


def _walk_match(tmp_path: Path, monkeypatch, lang: str, seats: str, seed: str, allow: bool = False,
                turns: int = 8, voice: bool = True, first: Sequence[str] = ()) -> tuple[HandWatcher, str]:
    consoles: list[MatchConsole] = _instances(monkeypatch, app_module, "MatchConsole")
    speaker = HandWatcher()
    state = lambda: consoles[-1].table.record.state  # noqa: E731 - the live hands, from the console's table
    speaker.hands = lambda: state().hands if consoles else ()
    position = lambda: (state().deal_number, len(state().history))  # noqa: E731
    program, out = _program(tmp_path, lang, (position, turns, allow), speaker, voice, first)
    program.extras = lessons_console.extras()  # the lessons hand the program its tips, as the game does
    program.run(request_for("--seed", seed, "--seats", seats))
    return speaker, out.getvalue()


def _walk_lesson(tmp_path: Path, monkeypatch, lang: str, allow: bool = False) -> tuple[HandWatcher, str]:
    sessions: list[LessonSession] = _instances(monkeypatch, lessons_console, "LessonSession")
    speaker = HandWatcher()

    def state():
        return sessions[-1].state if sessions and sessions[-1].state is not None else None

    speaker.hands = lambda: state().hands if state() is not None else ()
    position = lambda: len(state().history) if state() is not None else None  # noqa: E731
    program, out = _program(tmp_path, lang, (position, 40, allow), speaker)
    program.extras = lessons_console.extras()
    assert program.run_lesson(LESSON_COUNT) == 0  # the last lesson: a whole deal with hints
    return speaker, out.getvalue()


def _printed(out: str, lang: str, *keys: str) -> None:
    """The walk reached these lines (so the test covers them): each key's opening words were printed."""
    for key in keys:
        assert _words(lang, key) in out, key


def _words(lang: str, key: str) -> str:
    """The longest stretch of a message's own words, between its {fields}."""
    return max(re.split(r"\{[^}]*\}", Messages(lang)(key)), key=len).strip()


MATCHES = {"pass_and_play": ("human,human", "1"), "beginner_tips": ("human,computer:beginner", "1")}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("table", sorted(MATCHES))
def test_silent_hands_are_never_spoken_at_any_prompt_of_a_match(tmp_path, monkeypatch, lang, table):
    seats, seed = MATCHES[table]
    speaker, out = _walk_match(tmp_path, monkeypatch, lang, seats, seed)
    assert speaker.leaks == []
    _printed(out, lang, "voice.hand_silent", "hand.list.short", "choose.cancelled", "hint.suggestion",
             "choose.many.short")
    assert Messages(lang)("voice.hand_silent") in speaker.said  # the voice was on all along
    if table == "beginner_tips":
        tips = [line for line in out.splitlines() if line.startswith(TIP_STARTS[lang])]
        assert tips and not set(tips) & set(speaker.said)


TIP_STARTS = {lang: tuple(lessons_catalogue(lang)[key].split(".")[0] for key in ("tip.scopa", "tip.settebello",
                                                                                  "tip.risk.one"))
              for lang in LANGUAGES}  # "Scopa chance", "Occasione di scopa", ...


@pytest.mark.parametrize("lang", LANGUAGES)
def test_silent_hands_are_never_spoken_in_the_whole_deal_lesson(tmp_path, monkeypatch, lang):
    speaker, out = _walk_lesson(tmp_path, monkeypatch, lang)
    assert speaker.leaks == []
    _printed(out, lang, "voice.hand_silent", "hand.list.short", "choose.cancelled")  # short, as the settings say


def test_allowed_hands_are_read_aloud_at_the_same_prompts(tmp_path, monkeypatch):
    """The same walk with Enter at the warning: the hand, the picked card and the suggestion are heard."""
    speaker, _out = _walk_match(tmp_path, monkeypatch, "en", *MATCHES["pass_and_play"], allow=True)
    heard = " ".join(speaker.said)
    for key in ("hand.list.short", "choose.cancelled", "hint.suggestion", "choose.many.short"):
        assert _words("en", key) in heard, key
    assert speaker.leaks  # the watcher does see hand cards when they are spoken


def test_the_whole_deal_lesson_asks_and_an_allowed_hand_is_read_aloud(tmp_path, monkeypatch):
    speaker, _ = _walk_lesson(tmp_path, monkeypatch, "en", allow=True)
    assert speaker.said.count(Messages("en")("voice.hand_warning")) == 1
    assert _words("en", "hand.list.short") in " ".join(speaker.said)


def test_switching_the_voice_on_in_a_turn_keeps_that_hand_silent_and_asks_at_the_next(tmp_path, monkeypatch):
    """One human, the voice off at the start: V at Card?, then the same walk; the warning comes
    at the next turn, and N keeps every hand line silent from the first key on."""
    speaker, out = _walk_match(tmp_path, monkeypatch, "en", *MATCHES["beginner_tips"], voice=False, first=["v"])
    assert speaker.leaks == []
    assert "Hands stay silent. They are only printed." in speaker.said
    assert out.index("Hands stay silent.") > out.index("Voice on.")


def test_a_hand_line_is_spoken_only_while_that_hand_is_open_and_allowed():
    out = io.StringIO()
    speaker = RecordingSpeaker()
    announcer = Announcer(Output(out), speaker)
    open_seat: list[int | None] = [None]
    announcer.open_seat = lambda: open_seat[0]
    hand = Announcement("Your hand. 1, ace of cups.", private_to=0)
    announcer.say([hand])  # hands not allowed
    announcer.speak_hands = True
    announcer.say([hand])  # allowed, but no hand is open
    open_seat[0] = 1
    announcer.say([hand])  # another player's hand is open
    announcer.repeat()
    assert speaker.said == [] and out.getvalue().count("Your hand.") == 3
    open_seat[0] = 0
    announcer.say([hand])
    assert speaker.said == ["Your hand. 1, ace of cups."]


def test_every_narration_of_a_hand_card_comes_private_to_its_seat():
    """The hand, the card being chosen, the capture picked, the suggestion and the tip: each is an
    announcement private to the seat whose hand it is, so no caller can forget to mark it."""
    for players in (2, 4):
        state, _ = new_match(Rules(players=players), seed=players)
        narrator = Narrator([f"P{i}" for i in range(players)], state.rules, None)
        while not state.is_deal_over:
            seat = state.to_move
            view = state.view(seat)
            lines = [narrator.hand(view), narrator.suggestion(view)[1]]
            tip = tip_for(view, state.rules, narrator)
            lines += [tip] if tip is not None else []
            for card in view.hand:
                options = [m.capture for m in view.legal_moves() if m.card == card and m.capture]
                lines += narrator.capture_choice(seat, card, options, view.table)
                lines += [narrator.picked_option(seat, i + 1, o) for i, o in enumerate(options)]
            assert all(isinstance(line, Announcement) and line.private_to == seat for line in lines)
            state, _ = state.apply(state.legal_moves()[0])


# The review of a finished match ---------------------------------------------------------------

REVIEW_STOP = ["r", "w", "r", "t", ENTER]  # at each stop: repeat, why, repeat, the table, the next


class ReviewWalker:
    """Answers a review: H at the first stop, then every stop's keys; N or Enter at the hand warning."""

    def __init__(self, lang: str, allow: bool, out: io.StringIO, watcher: HandWatcher) -> None:
        self.prompts = {RecordText(lang)("review.prompt"): "review", Messages(lang)("prompt.allow"): "allow",
                        Messages(lang)("prompt.menu"): "seat"}  # pass-and-play: whose seat to review from
        self.allow = allow
        self.out = out
        self.watcher = watcher
        self.keys = ["h"]
        self.asked = 0

    def read(self, prompt: str) -> str:
        write_screen(self.out, prompt + "\n")  # a prompt takes the lines held for it (terminal.held)
        self.watcher.check(prompt)
        kind = self.prompts.get(prompt.strip())
        if kind == "allow":
            self.asked += 1
            return ENTER if self.allow else "n"
        if kind == "seat":
            return "1"
        assert kind == "review", prompt
        if not self.keys:
            self.keys = list(REVIEW_STOP)
        return self.keys.pop(0)

    def read_text(self, prompt: str) -> str:
        return self.read(prompt)

    def close(self) -> None:
        pass


def _finished(seats: tuple[SeatSetup, ...], seed: int) -> MatchRecord:
    record, _ = MatchRecord.start(Rules(target=None), seats, seed)
    rng = random.Random(seed)
    while not record.state.is_match_over:
        record = record.play(rng.choice(record.state.legal_moves()))[0]
    return record


def _hands_at(session) -> tuple[tuple[Card, ...], ...]:
    """The cards still in hands at the review's stop: as dealt at an opening, as the play left them after one."""
    script, at = session.script, session.at
    if at < 0:
        return ()
    item = script.items[at]
    if item.step is None:
        return script.deals[item.deal].steps[0].before.hands
    after = script._after(at)
    return after.hands if after is not None else ()


def _walk_review(tmp_path: Path, monkeypatch, lang: str, seats: tuple[SeatSetup, ...],
                 allow: bool = False) -> tuple[HandWatcher, ReviewWalker, str]:
    record_result(_finished(seats, 4), "2026-05-01T10:00:00+00:00", tmp_path / "data")
    sessions = _instances(monkeypatch, record_console, "ReviewSession")
    speaker = HandWatcher()
    speaker.hands = lambda: _hands_at(sessions[-1]) if sessions else ()
    out = io.StringIO()
    walker = ReviewWalker(lang, allow, out, speaker)
    program = Program(walker, Output(out), Settings(voice=True), tmp_path / "config", Persistence(tmp_path / "data"),
                      speaker_factory=lambda on, settings: speaker if on else NullSpeaker(), lang=lang)
    assert record_console.run_review(program, 1) == 0
    return speaker, walker, out.getvalue()


REVIEWED = {"one_human": (SeatSetup("Ann"), SeatSetup("Bo", "computer", "easy")),
            "pass_and_play": (SeatSetup("Ann"), SeatSetup("Bo"))}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("table", sorted(REVIEWED))
def test_a_review_with_hands_shown_keeps_silent_hands_silent(tmp_path, monkeypatch, lang, table):
    """H in a review shows each hand before its play, and W names the coach's better card: with
    N at the hand warning the voice says none of them, the screen shows them all."""
    speaker, walker, out = _walk_review(tmp_path, monkeypatch, lang, REVIEWED[table])
    assert speaker.leaks == []
    assert walker.asked == 1
    t = RecordText(lang)
    assert t("review.hands_on") in speaker.said  # the voice was on all along
    held = [line for line in out.splitlines() if _words_of(t, "review.hand") in line]
    assert held and not set(held) & set(speaker.said)
    assert any(line.startswith(_words_of(t, "coach.better.play")) or _words_of(t, "coach.better.take") in line
               for line in out.splitlines())  # the coach named a better card, printed


def test_a_review_with_hands_allowed_reads_them_aloud(tmp_path, monkeypatch):
    speaker, walker, _ = _walk_review(tmp_path, monkeypatch, "en", REVIEWED["one_human"], allow=True)
    assert walker.asked == 1 and speaker.leaks
    assert any(text.startswith("You held ") for text in speaker.said)


def _words_of(t: RecordText, key: str) -> str:
    return max(re.split(r"\{[^}]*\}", t(key)), key=len).strip()
