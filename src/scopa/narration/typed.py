"""A card's name typed the way people say it ("six", "seven of coins", "settebello", "re di spade").

Every name comes from the catalogues, in both languages and both namings, so a player can type
the card they hear, or the one they know from another pack, and the name picks it; a rank of
one naming with a suit of the other too ("queen of cups", "re di cuori"), and a card's short
code ("KH", "7D", the ranks A, 2 to 7, J, Q, K and the suits D, H, S, C; issue 38). A rank alone
("six", "sei", "king") names every card of that rank, and the hand says which one it is.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from ..engine import SETTEBELLO, Card
from ..engine.cards import RANKS
from .cards import NAMINGS, CardNames
from .messages import LANGUAGES, Messages

ARTICLES = ("the ", "a ", "an ", "my ", "il ", "lo ", "la ", "l'", "un ", "uno ", "una ", "un'")


def normalised(text: str) -> str:
    """Lower case, no article in front, no punctuation at the end, single spaces."""
    text = re.sub(r"\s+", " ", text.strip().lower()).rstrip(".!?,;").replace("\u2019", "'")  # a typographic apostrophe
    for article in ARTICLES:
        if text.startswith(article):
            return text[len(article):].strip()
    return text


@lru_cache(maxsize=1)
def _names() -> dict[str, frozenset[Card]]:
    names: dict[str, set[Card]] = {}

    def add(name: str, cards: Iterable[Card]) -> None:
        names.setdefault(normalised(name), set()).update(cards)

    for lang in LANGUAGES:
        messages = Messages(lang)
        add(messages("card.settebello"), [SETTEBELLO])
        for naming in NAMINGS:
            words = CardNames(messages, naming)
            for rank in RANKS:
                cards = [Card.parse(f"{rank}{'DHSC'[suit]}") for suit in range(4)]
                add(messages(f"rank.{naming}.{rank}"), cards)
                for card in cards:
                    add(messages("card.name", rank=words.rank_word(card), suit=words.suit_word(card.suit)), [card])
                    add(words.name(card), [card])
                    add(str(card), [card])  # its code, "KH"
                    for other in NAMINGS:  # the rank of one pack with the suit of the other
                        suit = CardNames(messages, other).suit_word(card.suit)
                        add(messages("card.name", rank=words.rank_word(card), suit=suit), [card])
    return {name: frozenset(cards) for name, cards in names.items()}


def cards_named(text: str) -> frozenset[Card] | None:
    """The cards a typed name can mean (one, or every card of a rank named alone); None when the
    text names no card at all."""
    return _names().get(normalised(text))
