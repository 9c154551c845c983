"""Catalogue checks shared by the tests of both languages."""
from __future__ import annotations

import re
import string

# English words that must never reach an Italian player (matched as whole words, any case).
ENGLISH_WORDS = ("the", "of", "and", "takes", "take", "plays", "play", "played", "your", "you", "table",
                 "card", "cards", "turn", "hand", "score", "deal", "deals", "points", "point", "wins", "win",
                 "match", "nobody", "pile", "coins", "cups", "swords", "batons", "diamonds", "hearts", "spades",
                 "clubs", "ace", "two", "three", "four", "five", "six", "seven", "jack", "queen", "king",
                 "stock", "left", "press", "enter", "escape", "pick", "cancel", "choose", "option", "with",
                 "nothing", "captured", "tied", "eligible", "sweep", "sweeps", "settings", "voice", "saved",
                 "new", "game", "players", "each", "round", "last", "empty", "yet", "so", "far", "stay",
                 "stays", "lead", "leads", "is", "to", "on", "not", "for", "what", "which", "help")


ENGLISH_RE = re.compile(r"\b(" + "|".join(ENGLISH_WORDS) + r")\b", re.IGNORECASE)


def english_in(text: str, allowed: tuple[str, ...] = ()) -> list[str]:
    """The English words in ``text`` once the ``allowed`` names (seats) are taken out."""
    for name in allowed:
        text = text.replace(name, " ")
    return ENGLISH_RE.findall(text)


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}
