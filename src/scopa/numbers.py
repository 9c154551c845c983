"""Numbers typed on a command line, in ASCII digits only.

``int()`` and ``float()`` also take "２", "٣", "nan", "inf" and "1e3"; a flag's value is read
with these instead, by ``scopa`` and ``scopa serve`` alike, so both refuse the same things."""
from __future__ import annotations

import re

WHOLE_NUMBER = re.compile(r"[+-]?[0-9]{1,18}")
DECIMAL_NUMBER = re.compile(r"[+-]?(?:[0-9]{1,9}(?:\.[0-9]{0,9})?|\.[0-9]{1,9})")


def whole_number(text: str) -> int:
    """A whole number in ASCII digits (at most 18 of them); ValueError otherwise."""
    if not WHOLE_NUMBER.fullmatch(text.strip()):
        raise ValueError(text)
    return int(text.strip())


def decimal_number(text: str) -> float:
    """A number such as 2, 0.5 or .25 in ASCII digits; "nan", "inf" and 1e3 are not among them."""
    if not DECIMAL_NUMBER.fullmatch(text.strip()):
        raise ValueError(text)
    return float(text.strip())


def seed_value(text: str) -> int | bytes:
    """A ``--seed``: a whole number as ``whole_number`` reads one (a short seed, shuffle 1), or
    the 64 hex digits of a shuffle 2 seed, spaces, dashes or colons between groups allowed."""
    from .engine.shuffle import parse_seed
    if WHOLE_NUMBER.fullmatch(text.strip()):
        return int(text.strip())
    value = parse_seed(text)  # ValueError for anything else
    if isinstance(value, bytes):
        return value
    raise ValueError(text)  # a number too long for whole_number and too short for a seed
