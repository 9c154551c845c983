"""A match as the program keeps it: the engine state plus who sits where and every move so far.

``MatchRecord`` is immutable and pure like the engine. The console plays through it, the
autosave stores it, and import replays its move log from the seed to prove it is legal.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field, replace
from typing import Literal

from .engine import DealScored, Event, GameState, Move, Rules, new_match

SeatKind = Literal["human", "computer"]


NAME_LENGTH = 24  # what a player may type for a name; save files accept up to 100


def is_unsafe_in_name(ch: str) -> bool:
    """Control characters and line or paragraph breaks: they would move the cursor, end a line
    or ring the bell when the name is printed, so no name may hold one."""
    return unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp")


# Characters that turn the direction of the text around them: a name holding one could make
# the line it is printed in read backwards, or show a card or a score that is not there.
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_INVISIBLE = ("Cc", "Cf", "Cs", "Mn", "Me", "Zs", "Zl", "Zp")
# Sentence marks inside a name, or a question mark (every prompt ends in one), make the name
# read as a line of the game: "Ann. Your turn", "Card?".
_GAME_LINE = re.compile(r"[?:;]|[.!]\s+\S")

NameProblem = Literal["bidi", "invisible", "game_line"]


def name_problem(name: str) -> NameProblem | None:
    """Why a name from a file cannot be shown at the table, beyond control characters, or None:
    a direction override, nothing visible (only zero-width or combining characters), or a name
    that reads like a line of the game."""
    if any(ch in BIDI_CONTROLS for ch in name):
        return "bidi"
    if not any(unicodedata.category(ch) not in _INVISIBLE for ch in name):
        return "invisible"
    if _GAME_LINE.search(name):
        return "game_line"
    return None


def clean_name(text: str) -> str:
    """A typed name fit to print and save: a tab or line break becomes a space, any other unsafe
    character and any direction override goes, runs of spaces become one, at most ``NAME_LENGTH``
    characters. It comes back empty (then use a default) when nothing visible is left."""
    kept = "".join((" " if ch.isspace() else "") if is_unsafe_in_name(ch) else ch for ch in text
                   if ch not in BIDI_CONTROLS)
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


@dataclass(frozen=True)
class MatchRecord:
    """Everything needed to save, resume, export and replay a match."""

    rules: Rules
    seats: tuple[SeatSetup, ...]
    seed: int
    first_dealer: int
    state: GameState
    moves: tuple[MoveRecord, ...] = ()
    assisted_deals: frozenset[int] = frozenset()
    # The score of the last deal that ended, kept as the moves are played (a resumed match has
    # been played again from its seed by the load check): B reads it without another replay.
    scored: DealScored | None = field(default=None, compare=False, repr=False)
    # The position it was scored in: the deal's final piles and scope, counted in the open at a
    # real table, which the room server sends a seat taking its place back (no hand is in it).
    scored_in: GameState | None = field(default=None, compare=False, repr=False)

    @classmethod
    def start(cls, rules: Rules, seats: tuple[SeatSetup, ...], seed: int,
              first_dealer: int | None = None) -> tuple[MatchRecord, list[Event]]:
        if len(seats) != rules.players:
            raise ValueError(f"{rules.players} seats are needed, not {len(seats)}.")
        state, events = new_match(rules, seed, first_dealer)
        return cls(rules, tuple(seats), seed, state.dealer, state), events

    def play(self, move: Move) -> tuple[MatchRecord, list[Event]]:
        """Apply a move for the seat to move (the engine checks it) and log it."""
        seat = self.state.to_move
        state, events = self.state.apply(move)
        played = state.history[-1] if state.history else None
        logged = Move(played.card, played.capture) if played else Move(*move)
        record = MoveRecord(self.state.deal_number, seat, logged)
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
