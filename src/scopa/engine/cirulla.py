"""Cirulla's hand bonuses (docs/rules.md, "Cirulla"): the cirulla, three of a kind, and the matta.

A hand of three cards worth 9 or less in all is a *cirulla* (3 points); three cards of one rank
are worth 10. The seven of cups (hearts with French names), the *matta*, counts as whatever
its holder needs: an ace toward a cirulla, the rank of the other two toward three of a kind.
In play it is a plain seven (captures.py never looks at it).

A bonus is claimed by its holder before the hand's first card is played, and is then shown to
everyone: a ``Claim`` holds the whole hand, and every seat's view has it. The claim is the
player's choice (``GameState.claim``); this module only says what a hand is worth.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .cards import Card, Suit

MATTA = Card(6 * 4 + Suit.CUPS)  # the seven of cups
CIRULLA, TRIS = "cirulla", "tris"
BONUS_KINDS = (CIRULLA, TRIS)
BONUS_POINTS = {CIRULLA: 3, TRIS: 10}
CIRULLA_MOST = 9  # a hand worth this much or less is a cirulla


class Claim(NamedTuple):
    """A bonus claimed in round ``round`` of the deal by ``seat``, showing ``cards``, its whole hand."""

    seat: int
    round: int
    kind: str
    cards: tuple[Card, ...]

    @property
    def points(self) -> int:
        return BONUS_POINTS[self.kind]


def bonuses(hand: Sequence[Card]) -> tuple[str, ...]:
    """The bonuses a hand of three cards is worth, in ``BONUS_KINDS`` order (empty: none)."""
    if len(hand) != 3:
        return ()
    others = [c for c in hand if c != MATTA]
    found = []
    if sum((c >> 2) + 1 for c in others) + (len(others) < 3) <= CIRULLA_MOST:  # the matta counts one
        found.append(CIRULLA)
    if len({c >> 2 for c in others}) == 1:  # the matta takes the others' rank
        found.append(TRIS)
    return tuple(found)


def best_bonus(hand: Sequence[Card]) -> str | None:
    """The bonus a hand claims: three of a kind when it is both (three aces, twos or threes)."""
    found = bonuses(hand)
    return found[-1] if found else None


def shown_cards(claims: Sequence[Claim], seat: int, round_: int, played: set[Card]) -> tuple[Card, ...] | None:
    """The cards of ``seat``'s hand everyone has seen by its claim this round and it still holds."""
    for claim in claims:
        if claim.seat == seat and claim.round == round_:
            return tuple(c for c in claim.cards if c not in played)
    return None
