"""Card names in words: French or Napoletane naming, English or Italian, with articles."""
from __future__ import annotations

from typing import Iterable, Literal

from ..engine import SETTEBELLO, Card
from .messages import Messages

Naming = Literal["french", "napoletane"]
NAMINGS: tuple[Naming, ...] = ("french", "napoletane")


class CardNames:
    """Names cards for one language and naming: ``name(card)`` and ``the(card)``."""

    def __init__(self, messages: Messages, naming: Naming = "french") -> None:
        if naming not in NAMINGS:
            raise ValueError(f"Unknown card naming {naming!r}: choose french or napoletane.")
        self.messages = messages
        self.naming = naming

    def rank_word(self, card: Card) -> str:
        return self.messages(f"rank.{self.naming}.{card.rank}")

    def suit_word(self, suit: int) -> str:
        return self.messages(f"suit.{self.naming}.{'DHSC'[suit]}")

    def name(self, card: Card) -> str:
        """"seven of diamonds", "fante of cups", "sette di denari"; the settebello by its name."""
        if card == SETTEBELLO:
            return self.messages("card.settebello")
        return self.messages("card.name", rank=self.rank_word(card), suit=self.suit_word(card.suit))

    def the(self, card: Card) -> str:
        """The name with its definite article: "the seven of diamonds", "l'asso di coppe"."""
        name = self.name(card)
        key = f"article.{self.naming}.{card.rank}"
        if card == SETTEBELLO:
            key = "article.settebello"
        return self.messages(key, name=name)

    def list(self, cards: Iterable[Card], article: bool = False) -> str:
        """Several cards joined naturally: "the three of hearts and the four of clubs"."""
        names = [self.the(c) if article else self.name(c) for c in cards]
        if not names:
            return self.messages("cards.none")
        if len(names) == 1:
            return names[0]
        return self.messages("list.and", items=self.messages("list.sep").join(names[:-1]), last=names[-1])
