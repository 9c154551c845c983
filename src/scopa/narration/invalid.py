"""Why rules or a saved position are refused, in the player's words: the engine's ``Reason`` as a sentence.

``RulesError`` and the checks of ``state_from_dict`` carry a ``Reason`` (a code and its
values) beside their English developer message. Here the code picks the catalogue sentence
``invalid.{code}`` (``invalid.{code}.{where}`` for a place in the position), with cards named in
words and fields and options by their catalogue names: "The plays of this deal include the
settebello, which is neither on the table nor in a pile."
"""
from __future__ import annotations

from ..engine import POSITION_CODES, RULES_CODES, Card, Reason
from .cards import CardNames
from .messages import capitalised


def explain_invalid(reason: Reason, names: CardNames) -> str:
    """One or two whole sentences, capitalised, in the language of ``names``; "" for an unknown code."""
    if not isinstance(reason, Reason) or reason.code not in RULES_CODES + POSITION_CODES:
        return ""
    messages = names.messages
    params: dict[str, object] = {}
    key = f"invalid.{reason.code}"
    for name, value in reason.values().items():
        if isinstance(value, Card):
            params[name] = names.the(value)
        elif name == "field":
            params[name] = messages(f"storage.field.{value}")
        elif name == "option":
            params[name] = messages(f"option.{value}")
        elif name == "where":
            key = f"{key}.{value}"
        elif value is not None:
            params[name] = value
    if not messages.has(key):
        return ""
    return capitalised(messages(key, **params))
