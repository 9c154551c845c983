"""Card symbols for sighted players: "7♦ K♣ A♠" printed under the table and the hand, never spoken.

An optional setting, off by default and never used in screen-reader mode (a screen reader
would read "black diamond suit" for every card). The line is made from the printed line it
follows: a table line or a hand line is recognised by the catalogue's templates and its
cards read back from their names, so the symbols can show no card the words did not, and a
closed hand, which is never printed, never gets symbols either. It goes to the screen only,
through the program's output, never to the voice.

Red suits (diamonds and hearts, coins and cups) are red and the others in the terminal's own
colour, unless ``NO_COLOR`` is set or the output is no terminal; a terminal whose encoding has
no suit symbols gets the letters D, H, S and C instead.
"""
from __future__ import annotations

import os
import re
from collections.abc import Callable
from functools import lru_cache
from typing import TextIO

from ..engine import Card
from ..engine.cards import ALL_CARDS
from ..narration import CardNames, Messages, Naming
from ..narration.cues import template_pattern
from .terminal import Output

SUIT_SYMBOLS = "♦♥♠♣"  # the engine's suit order: diamonds or coins, hearts or cups, spades or swords, clubs or batons
SUIT_LETTERS = "DHSC"
RED_SUITS = (0, 1)
RED, PLAIN = "\x1b[31m", "\x1b[0m"


def compact(card: Card, colour: bool = False, symbols: bool = True) -> str:
    """"7♦", red when ``colour``; "7D" without symbols."""
    text = card.rank + (SUIT_SYMBOLS if symbols else SUIT_LETTERS)[card.suit]
    return f"{RED}{text}{PLAIN}" if colour and card.suit in RED_SUITS else text


def wants_colour(stream: TextIO) -> bool:
    """Colour only on a terminal, and never when ``NO_COLOR`` is set to anything (no-color.org)."""
    if os.environ.get("NO_COLOR"):
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def can_write_symbols(stream: TextIO) -> bool:
    try:
        SUIT_SYMBOLS.encode(getattr(stream, "encoding", None) or "utf-8")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


class CardNotation:
    """Finds the table or the hand in a printed line and writes its cards compactly."""

    def __init__(self, messages: Messages, naming: Naming) -> None:
        names = CardNames(messages, naming)
        self._by_name = {names.name(card).casefold(): card for card in ALL_CARDS}
        alternatives = "|".join(re.escape(name) for name in sorted(self._by_name, key=len, reverse=True))
        self._names = re.compile(rf"(?<!\w)({alternatives})(?!\w)", re.IGNORECASE)
        self._shown = [re.compile(template_pattern(messages(key)))
                       for key in ("hand.list", "table.cards", "hand.list.short", "table.cards.short")]

    def cards_shown(self, text: str) -> list[Card]:
        """The cards of the hand or the table this line shows, in order; [] for any other line."""
        for pattern in self._shown:
            found = pattern.search(text)
            if found:
                return [self._by_name[name.casefold()] for name in self._names.findall(found.group(1))]
        return []

    def line_for(self, text: str, colour: bool = False, symbols: bool = True) -> str | None:
        cards = self.cards_shown(text)
        return " ".join(compact(card, colour, symbols) for card in cards) if cards else None


@lru_cache(maxsize=8)
def card_notation(lang: str, naming: Naming) -> CardNotation:
    return CardNotation(Messages(lang), naming)


class CardSymbolsOutput(Output):
    """The program's output: each line as it is, then, while ``notation`` gives one, the symbols
    line for a table or a hand. It writes through the wrapped output, and its stream is that one's."""

    def __init__(self, inner: Output, notation: Callable[[], CardNotation | None]) -> None:
        super().__init__(inner.stream)
        self.inner = inner
        self.notation = notation

    def line(self, text: str) -> None:
        self.inner.line(text)
        notation = self.notation()
        if notation is None:
            return
        stream = self.inner.stream
        extra = notation.line_for(text, wants_colour(stream), can_write_symbols(stream))
        if extra:
            self.inner.line(extra)

    def clear(self) -> None:
        self.inner.clear()
