"""Why a move is illegal, in the player's words: the engine's ``IllegalReason`` as sentences.

The engine says why a move breaks the rules with a code and the cards involved
(``IllegalMoveError.reason``); its own English message is for developers. Here the code picks
the catalogue sentences ``illegal.{code}``, with the cards named in words ("The seven of
diamonds must take a single equal card. A match comes before a sum.").
"""
from __future__ import annotations

from ..engine import ILLEGAL_CODES, IllegalReason
from ..engine.errors import CANNOT_TAKE
from .cards import CardNames
from .messages import capitalised

MOST_NAMED = 6  # a longer capture (only a file can hold one) is counted, not read out card by card


def explain_illegal(reason: IllegalReason, names: CardNames) -> str:
    """One or two whole sentences, capitalised, in the language of ``names``; "" for an unknown code."""
    if reason.code not in ILLEGAL_CODES:
        return ""
    params: dict[str, object] = {"cards": names.list(reason.capture, article=True)}
    if reason.card is not None:
        params["card"] = names.the(reason.card)
    if reason.seat is not None:
        params["seat"] = reason.seat + 1
    key = f"illegal.{reason.code}"
    if reason.code == CANNOT_TAKE and len(reason.capture) > MOST_NAMED:
        key, params["count"] = "illegal.cannot_take_many", len(reason.capture)
    return capitalised(names.messages(key, **params))
