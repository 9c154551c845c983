"""Card names in words: French or Napoletane naming, English or Italian, with articles.

Every word comes from the message catalogue, so each language keeps its own grammar:

* ``rank.{naming}.{rank}`` and ``suit.{naming}.{D|H|S|C}``: the words of a card;
* ``card.name``: how they combine ("{rank} of {suit}", "{rank} di {suit}");
* ``article.{naming}.{rank}``: the name with its definite article, one key per rank because
  Italian articles follow the word ("l'asso", "il sette", "la donna");
* ``article.of.{naming}.{rank}``: the same after "of", where Italian contracts ("dell'asso",
  "del re", "della donna");
* ``article.your.{naming}.{rank}``: with "your", which in Italian agrees with the card
  ("il tuo asso", "la tua donna");
* ``count.{naming}.{rank}.one|other``: how many cards of a value ("one six", "2 sixes",
  "una donna", "2 donne");
* ``card.settebello`` with ``article[.of|.your].settebello``: the seven of
  coins (or diamonds) is the settebello in every naming and language.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from ..engine import SETTEBELLO, Card
from ..engine.cards import RANKS
from .messages import Messages

Naming = Literal["french", "napoletane"]
NAMINGS: tuple[Naming, ...] = ("french", "napoletane")
ARTICLE_FORMS = ("the", "of", "your")


class CardNames:
    """Names cards for one language and naming: ``name(card)``, ``the(card)``, ``of(card)``."""

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

    def the(self, card: Card, form: str = "the") -> str:
        """The name with its definite article: "the seven of diamonds", "l'asso di coppe".

        ``form="of"`` gives the article after "of": "of the ace of cups", "dell'asso di coppe";
        ``form="your"``: "your ace of cups", "il tuo asso di coppe", "la tua donna di cuori".
        """
        if form not in ARTICLE_FORMS:
            raise ValueError(f"Unknown article form {form!r}: choose {', '.join(ARTICLE_FORMS)}.")
        prefix = "article" if form == "the" else f"article.{form}"
        key = f"{prefix}.settebello" if card == SETTEBELLO else f"{prefix}.{self.naming}.{card.rank}"
        return self.messages(key, name=self.name(card))

    def of(self, card: Card) -> str:
        """"of the ace of cups", "dell'asso di coppe", "della donna di cuori", "del settebello"."""
        return self.the(card, "of")

    def count(self, rank: str, n: int) -> str:
        """How many cards of a rank: "one ace", "2 sixes", "un asso", "2 donne"."""
        if rank not in RANKS:
            raise ValueError(f"Unknown rank {rank!r}.")
        return self.messages.plural(f"count.{self.naming}.{rank}", n)

    def join(self, words: Iterable[str], last_key: str = "list.and") -> str:
        """Words joined naturally: "a, b and c"; ``last_key="list.nor"``: "a, b or c", "a, b né c"."""
        words = list(words)
        if not words:
            return ""
        if len(words) == 1:
            return words[0]
        return self.messages(last_key, items=self.messages("list.sep").join(words[:-1]), last=words[-1])

    def suits(self, suits: Iterable[int], last_key: str = "list.nor") -> str:
        """Suit names joined, by default for a negative: "cups or swords", "coppe né spade"."""
        return self.join((self.suit_word(s) for s in suits), last_key)

    def list(self, cards: Iterable[Card], article: bool = False) -> str:
        """Several cards joined naturally: "the three of hearts and the four of clubs".

        The settebello keeps its article even in a bare list ("two of spades and the
        settebello"): it is a name, and "and settebello" sounds clipped."""
        names = [self.the(c) if article or c == SETTEBELLO else self.name(c) for c in cards]
        if not names:
            return self.messages("cards.none")
        return self.join(names)
