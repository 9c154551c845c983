"""A match as the program keeps it: the engine state plus who sits where and every move so far.

``MatchRecord`` is immutable and pure like the engine. The console plays through it, the
autosave stores it, and import replays its move log from the seed to prove it is legal.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass, replace
from typing import Literal

from .engine import Event, GameState, Move, Rules, new_match

SeatKind = Literal["human", "computer"]


NAME_LENGTH = 24  # what a player may type for a name; save files accept up to 100


def is_unsafe_in_name(ch: str) -> bool:
    """Control characters and line or paragraph breaks: they would move the cursor, end a line
    or ring the bell when the name is printed, so no name may hold one."""
    return unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp")


def clean_name(text: str) -> str:
    """A typed name fit to print and save: a tab or line break becomes a space, any other unsafe
    character goes, runs of spaces become one, at most ``NAME_LENGTH`` characters. It may come
    back empty (then use a default)."""
    kept = "".join((" " if ch.isspace() else "") if is_unsafe_in_name(ch) else ch for ch in text)
    return " ".join(kept.split())[:NAME_LENGTH].strip()


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

    @classmethod
    def start(cls, rules: Rules, seats: tuple[SeatSetup, ...], seed: int,
              first_dealer: int | None = None) -> tuple["MatchRecord", list[Event]]:
        if len(seats) != rules.players:
            raise ValueError(f"{rules.players} seats are needed, not {len(seats)}.")
        state, events = new_match(rules, seed, first_dealer)
        return cls(rules, tuple(seats), seed, state.dealer, state), events

    def play(self, move: Move) -> tuple["MatchRecord", list[Event]]:
        """Apply a move for the seat to move (the engine checks it) and log it."""
        seat = self.state.to_move
        state, events = self.state.apply(move)
        played = state.history[-1] if state.history else None
        logged = Move(played.card, played.capture) if played else Move(*move)
        record = MoveRecord(self.state.deal_number, seat, logged)
        return replace(self, state=state, moves=self.moves + (record,)), events

    def next_deal(self) -> tuple["MatchRecord", list[Event]]:
        state, events = self.state.next_deal()
        return replace(self, state=state), events

    def mark_assisted(self) -> "MatchRecord":
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
