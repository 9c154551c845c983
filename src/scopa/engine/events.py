"""Events: what a transition caused, in order. Every event is public information.

Events are named tuples: cheap to make, since search makes millions of them.

No event ever carries a hand or the stock order, so narration can announce every event
to the whole table. Hands are read from ``state.view(seat)`` after that seat's gate opens.
"""
from __future__ import annotations

from typing import NamedTuple

from .cards import Card
from .scoring import DealScore


class DealStarted(NamedTuple):
    deal_number: int
    dealer: int
    leader: int
    redeals: int  # how many times the table was redealt: three or four kings, or in cirulla two aces


class CardsDealt(NamedTuple):
    """A round of cards went to every hand; ``table`` is set only on the first round."""

    round: int
    rounds: int
    cards_each: int
    stock_left: int
    table: tuple[Card, ...] | None = None


class OpeningTableTaken(NamedTuple):
    """Scopa a 15 and Cirulla: the first table was worth ``scope`` scopas (15: one, 30: two, and in
    Cirulla under ``table_nine`` 9 or less: three); the dealer took it, or under Scopa a 15's
    ``opening_to_leader`` the leader (``dealer`` is the seat that took it)."""

    dealer: int
    side: int
    cards: tuple[Card, ...]
    scope: int


class HandClaimed(NamedTuple):
    """Cirulla: ``seat`` showed its hand, ``cards``, to claim a bonus; from now on everyone sees it."""

    seat: int
    side: int
    kind: str  # "cirulla" (worth 9 or less, 3 points) or "tris" (three of a kind, 10)
    points: int
    cards: tuple[Card, ...]


class CardPlayed(NamedTuple):
    seat: int
    card: Card


class CardsCaptured(NamedTuple):
    seat: int
    card: Card
    cards: tuple[Card, ...]
    whole_table: bool = False  # asso piglia tutto: the ace took the whole table


class CardStaysOnTable(NamedTuple):
    seat: int
    card: Card


class Scopa(NamedTuple):
    seat: int
    side: int
    side_total: int  # this side's scope so far in the deal


class LeftoversTaken(NamedTuple):
    """At the end of a deal the last capturing side takes what is left (never a scopa)."""

    seat: int | None  # None when nobody captured in the whole deal
    side: int | None
    cards: tuple[Card, ...]


class DealScored(NamedTuple):
    deal_number: int
    score: DealScore
    match_scores: tuple[int, ...]


class MatchWon(NamedTuple):
    """The match is over; ``side`` is ``None`` for a drawn single deal."""

    side: int | None
    match_scores: tuple[int, ...]


Event = (DealStarted | CardsDealt | OpeningTableTaken | HandClaimed | CardPlayed | CardsCaptured | CardStaysOnTable
         | Scopa | LeftoversTaken | DealScored | MatchWon)
