"""A match as the program keeps it: the engine state plus who sits where and every move so far.

``MatchRecord`` is immutable and pure like the engine. The console plays through it, the
autosave stores it, and import replays its move log from the seed to prove it is legal.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field, replace
from typing import Literal

from .engine import DealScored, Event, GameState, Move, Phase, Rules, ScopaError, new_match
from .engine.shuffle import Seed

SeatKind = Literal["human", "computer"]


NAME_LENGTH = 24  # what a player may give as a name: the server, the client, --names, the menus
FILE_NAME_LENGTH = 100  # what a match file may hold, so that files written by earlier versions still load


def is_unsafe_in_name(ch: str) -> bool:
    """Control characters and line or paragraph breaks: they would move the cursor, end a line
    or ring the bell when the name is printed, so no name may hold one."""
    return unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp")


# Characters that turn the direction of the text around them: a name holding one could make
# the line it is printed in read backwards, or show a card or a score that is not there.
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_INVISIBLE = ("Cc", "Cf", "Cs", "Mn", "Me", "Zs", "Zl", "Zp")

NameProblem = Literal["length", "control", "bidi", "invisible", "hidden", "silent"]

# Code points that show nothing and say nothing (Unicode's Default_Ignorable_Code_Point, with the
# Hangul fillers and the blank braille cell, which are letters or symbols that look like nothing):
# zero width space and joiners, word joiner, soft hyphen, combining grapheme joiner, variation
# selectors, tag characters, the Mongolian vowel separator. In a name they let "Ann" and
# "Ann" + one of them be two names that read and sound the same (issue 37).
_HIDDEN_RANGES = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
                  (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x2800, 0x2800),
                  (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8),
                  (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))


def is_hidden(ch: str) -> bool:
    """A code point that shows and says nothing (``_HIDDEN_RANGES``)."""
    point = ord(ch)
    return any(low <= point <= high for low, high in _HIDDEN_RANGES)


def _heard(ch: str) -> bool:
    """A character a voice says: a letter, a digit or a symbol (an emoji), not a hidden one."""
    return (unicodedata.category(ch)[0] in "LN" or unicodedata.category(ch) == "So") and not is_hidden(ch)


def name_problem(name: object, longest: int = NAME_LENGTH, given: bool = False) -> NameProblem | None:
    """The one rule for a player's name, or None when the name may be used: what the server
    takes in ``create_room`` and ``join``, what the client accepts in a room's seats, what a
    save file, an export or an online record may hold (``longest``: ``FILE_NAME_LENGTH`` there).

    A name is text of 1 to ``longest`` characters ("length"), with no control character or line
    break ("control"), no direction override or isolate ("bidi"), and something visible, not
    only spaces or zero-width and combining characters ("invisible"). Punctuation is a name's
    own: "J. Smith", "Dr. Who" and "Ben?" are names. What could make a name pass for a line of
    the game is refused here: a line break (a name would start a line of its own, a false
    "Card?"), a control character (it could move the cursor over the line), a direction change
    (the line would read in another order). Otherwise a name is only ever said inside a
    sentence of the catalogues, on that sentence's line.

    ``given``: a name being given now (the server reading create_room, join, quick, watch and
    daily_deal), which must also hold no hidden code point (``is_hidden``: "hidden") and say
    something, a letter, a digit or a symbol ("silent": "..." is blank to the ear). Names
    already in use (a room stored before this rule, a match file) are read without it."""
    if not isinstance(name, str) or not 1 <= len(name) <= longest:
        return "length"
    if any(is_unsafe_in_name(ch) for ch in name):
        return "control"
    if any(ch in BIDI_CONTROLS for ch in name):
        return "bidi"
    if not any(unicodedata.category(ch) not in _INVISIBLE for ch in name):
        return "invisible"
    if given and any(is_hidden(ch) for ch in name):
        return "hidden"
    if given and not any(_heard(ch) for ch in name):
        return "silent"
    return None


def is_unsafe_in_line(ch: str) -> bool:
    """A character no text from the network may print or speak: a control character, C0 or C1
    (the escapes that set a terminal's title or clipboard begin with ESC, or with the C1 OSC and
    CSI), a lone surrogate (it cannot be written out), a direction override or isolate."""
    return ch in BIDI_CONTROLS or unicodedata.category(ch) in ("Cc", "Cs")


def clean_line(text: str) -> str:
    """The one rule for every string that comes from the network before it is printed, spoken or
    shown (``net.protocol.server_messages.parse_server_message`` applies it to every string of
    every server message, chat and names included): a tab, line break or other break becomes a
    space, every other unsafe character (``is_unsafe_in_line``) goes. Nothing else changes, so a card, a code
    or a name that was clean stays exactly as it was."""
    if text.isprintable() and not any(ch in BIDI_CONTROLS for ch in text):
        return text  # the common case, fast
    return "".join(" " if ch.isspace() else ch for ch in text if ch.isspace() or not is_unsafe_in_line(ch))


def clean_name(text: str) -> str:
    """A typed name fit to print and save: a tab or line break becomes a space, any other unsafe
    character and any direction override goes, runs of spaces become one, at most ``NAME_LENGTH``
    characters. It comes back empty (then use a default) when nothing visible is left."""
    kept = "".join((" " if ch.isspace() else "") if is_unsafe_in_name(ch) else ch for ch in text
                   if ch not in BIDI_CONTROLS and not is_hidden(ch))
    name = " ".join(kept.split())[:NAME_LENGTH].strip()
    return name if name_problem(name) != "invisible" else ""


@dataclass(frozen=True)
class SeatSetup:
    """One seat: a name, human or computer, and the computer's level."""

    name: str
    kind: SeatKind = "human"
    level: str | None = None

    @property
    def is_human(self) -> bool:
        return self.kind == "human"


@dataclass(frozen=True)
class MoveRecord:
    """One move of the match, with the deal it belongs to."""

    deal_number: int
    seat: int
    move: Move
    claim: str | None = None  # Cirulla: the bonus the seat claimed, showing its hand, just before this move


@dataclass(frozen=True)
class Fairness:
    """How an online match's seed was made (docs/fairness.md): the server's seed, which it
    committed to before the match and reveals at its end, and each human seat's contribution."""

    server_seed: bytes
    contributions: tuple[tuple[int, bytes], ...]


@dataclass(frozen=True)
class MatchRecord:
    """Everything needed to save, resume, export and replay a match."""

    rules: Rules
    seats: tuple[SeatSetup, ...]
    seed: Seed  # a whole number: shuffle 1 (short seeds, older records); 32 bytes: shuffle 2
    first_dealer: int
    state: GameState
    moves: tuple[MoveRecord, ...] = ()
    assisted_deals: frozenset[int] = frozenset()
    fairness: Fairness | None = None  # an online match's seed parts, None for a match played here
    # The score of the last deal that ended, kept as the moves are played (a resumed match has
    # been played again from its seed by the load check): B reads it without another replay.
    scored: DealScored | None = field(default=None, compare=False, repr=False)
    # The position it was scored in: the deal's final piles and scope, counted in the open at a
    # real table, which the room server sends a seat taking its place back (no hand is in it).
    scored_in: GameState | None = field(default=None, compare=False, repr=False)

    @classmethod
    def start(cls, rules: Rules, seats: tuple[SeatSetup, ...], seed: Seed,
              first_dealer: int | None = None) -> tuple[MatchRecord, list[Event]]:
        if len(seats) != rules.players:
            raise ValueError(f"{rules.players} seats are needed, not {len(seats)}.")
        state, events = new_match(rules, seed, first_dealer)
        return cls(rules, tuple(seats), seed, state.dealer, state), events

    def claim(self) -> tuple[MatchRecord, list[Event]]:
        """Cirulla: the seat to move shows its hand to claim its bonus (the engine checks it).

        Logged with the seat's next move, which must follow: a claim is made before a hand's first card."""
        state, events = self.state.claim()
        return replace(self, state=state), events

    def play(self, move: Move) -> tuple[MatchRecord, list[Event]]:
        """Apply a move for the seat to move (the engine checks it) and log it."""
        seat = self.state.to_move
        claim = pending_claim(self.state)
        state, events = self.state.apply(move)
        played = state.history[-1] if state.history else None
        logged = Move(played.card, played.capture) if played else Move(*move)
        record = MoveRecord(self.state.deal_number, seat, logged, claim)
        ended = next((e for e in events if isinstance(e, DealScored)), None)
        scored, scored_in = (self.scored, self.scored_in) if ended is None else (ended, state)
        return replace(self, state=state, moves=(*self.moves, record), scored=scored, scored_in=scored_in), events

    def next_deal(self) -> tuple[MatchRecord, list[Event]]:
        state, events = self.state.next_deal()
        return replace(self, state=state), events

    def last_scored(self) -> DealScored | None:
        """The score of the last deal that ended, None before the first one did.

        Kept by ``play``: a resumed match was played again move by move from its seed when it
        was loaded and checked, so its record has it too, with no replay of its own."""
        return self.scored

    def mark_assisted(self) -> MatchRecord:
        """Record that a hint was used in the current deal."""
        return replace(self, assisted_deals=self.assisted_deals | {self.state.deal_number})

    @property
    def assisted(self) -> bool:
        return bool(self.assisted_deals)

    def seat_name(self, seat: int) -> str:
        return self.seats[seat].name

    @property
    def human_seats(self) -> tuple[int, ...]:
        return tuple(i for i, s in enumerate(self.seats) if s.is_human)


def pending_claim(state: GameState) -> str | None:
    """The bonus the seat to move has claimed this round and not yet played a card since, if any."""
    if not state.claims or state.phase is not Phase.PLAYING:
        return None
    last = state.claims[-1]
    seat = state.to_move
    if last.seat == seat and last.round == state.round and len(state.hands[seat]) == state.rules.hand_size:
        return last.kind
    return None


def replay_claim(state: GameState, kind: str | None) -> GameState:
    """The state after the claim a logged move carries (``ScopaError`` if it cannot be claimed)."""
    if kind is None:
        return state
    if state.claimable() != kind:
        raise ScopaError(f"The logged claim of {kind} cannot be made here.")
    return state.claim()[0]
