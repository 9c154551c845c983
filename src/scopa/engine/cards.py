"""Cards of the 40-card Scopa pack.

A card is an ``int`` from 0 to 39 ordered by capture value, then suit, so that
sorting cards sorts them the way a player reads a hand: ``id = rank * 4 + suit``.
``Card`` is a small ``int`` subclass with cached instances, which keeps the
engine fast (search plays thousands of deals a second) while giving every card
a readable ``str`` (``"7D"``) and named attributes.
"""
from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum


class Suit(IntEnum):
    """The four suits; French letters, Italian meaning. Coins are diamonds."""

    COINS = 0
    CUPS = 1
    SWORDS = 2
    BATONS = 3

    @property
    def letter(self) -> str:
        """The short notation letter: D, H, S or C."""
        return SUIT_LETTERS[self]


SUIT_LETTERS = "DHSC"
RANKS = ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K")
PRIMIERA_VALUES = (16, 12, 13, 14, 15, 18, 21, 10, 10, 10)  # by rank index

_RANK_ALIASES = {r: i for i, r in enumerate(RANKS)} | {"1": 0}
_SUIT_HELP = "D for diamonds or coins, H for hearts or cups, S for spades or swords, C for clubs or batons"


class Card(int):
    """One card. ``Card.parse("7D")``; ``card.rank``, ``card.suit``, ``card.value``."""

    __slots__ = ()

    def __new__(cls, ident: int) -> Card:  # noqa: PYI034 -- always one of the 40 cached cards, never a subclass
        # Checked before indexing: ALL_CARDS[-1] would quietly give the king of batons.
        if isinstance(ident, int) and not isinstance(ident, bool) and 0 <= ident < 40:
            return ALL_CARDS[ident]
        raise ValueError(f"A card number runs from 0 to 39, not {ident!r}.")

    @classmethod
    def of(cls, rank: str, suit: Suit | int) -> Card:
        """The card of this rank ("A", "2".."7", "J", "Q", "K") and suit."""
        return ALL_CARDS[_RANK_ALIASES[rank] * 4 + int(suit)]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read short notation such as ``7D``, ``KC`` or ``AS`` (case and spaces ignored).

        Raises ``ValueError`` with a sentence a player understands.
        """
        cleaned = "".join(str(text).split()).upper()
        if not cleaned:
            raise ValueError("No card given: write a rank then a suit, like 7D.")
        rank, suit = cleaned[:-1], cleaned[-1]
        if len(cleaned) < 2:
            raise ValueError(f"{cleaned!r} is not a card: write a rank then a suit, like 7D.")
        if rank in {"8", "9", "10"}:
            raise ValueError(f"There is no {rank} in the Scopa pack: 8s, 9s and 10s are removed. "
                             "Ranks are A, 2 to 7, J, Q and K.")
        if rank not in _RANK_ALIASES:
            raise ValueError(f"Unknown rank {rank!r}: ranks are A, 2 to 7, J, Q and K.")
        if suit not in SUIT_LETTERS:
            raise ValueError(f"Unknown suit {suit!r}: use {_SUIT_HELP}.")
        return cls.of(rank, SUIT_LETTERS.index(suit))

    @property
    def rank(self) -> str:
        """"A", "2".."7", "J", "Q" or "K"."""
        return RANKS[self >> 2]

    @property
    def rank_index(self) -> int:
        """0 for the ace up to 9 for the king."""
        return self >> 2

    @property
    def value(self) -> int:
        """Capture value: A=1, 2-7 face value, J=8, Q=9, K=10."""
        return (self >> 2) + 1

    @property
    def suit(self) -> Suit:
        return Suit(self & 3)

    @property
    def is_face(self) -> bool:
        return self >= 28

    @property
    def primiera_value(self) -> int:
        return PRIMIERA_VALUES[self >> 2]

    def __str__(self) -> str:
        return RANKS[self >> 2] + SUIT_LETTERS[self & 3]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:  # pickling keeps the cached instance
        return (Card, (int(self),))


ALL_CARDS: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(40))
DECK = ALL_CARDS
VALUES: tuple[int, ...] = tuple((i >> 2) + 1 for i in range(40))
SETTEBELLO = Card.of("7", Suit.COINS)
RE_BELLO = Card.of("K", Suit.COINS)


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse several cards: ``"7D KC AS"`` or ``["7D", "KC"]``."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return tuple(Card.parse(item) for item in items)


def cards_str(cards: Iterable[Card]) -> str:
    """Short notation for several cards, space separated."""
    return " ".join(str(card) for card in cards)
