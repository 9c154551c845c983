"""Errors the engine raises. Each message is a plain English sentence, for developers and logs.

The engine speaks no other language, so ``IllegalMoveError`` also carries its reason as data
(``IllegalReason``) for the shells to put into the player's words (``narration.explain_illegal``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from .cards import Card


class ScopaError(ValueError):
    """Base class: every engine error is a ``ValueError`` with a plain message."""


class RulesError(ScopaError):
    """An impossible combination of rule options (for example scopone with two players)."""


# Why a move is illegal, as a code the shells turn into words (``illegal.{code}`` in the catalogues).
DEAL_OVER = "deal_over"            # a card played after the deal ended
NOT_A_MOVE = "not_a_move"          # not a card and a list of table cards
NOT_IN_HAND = "not_in_hand"        # the seat to move does not hold the card
TAKES_NOTHING = "takes_nothing"    # the card cannot capture, yet a capture was given
MUST_CAPTURE = "must_capture"      # the card can capture, yet it was left on the table
MATCH_FIRST = "match_first"        # a sum was taken although an equal card is on the table
CANNOT_TAKE = "cannot_take"        # any other capture the rules do not allow
DEAL_NOT_OVER = "deal_not_over"    # next_deal() while the deal is still being played
MATCH_OVER = "match_over"          # next_deal() after the match ended
ILLEGAL_CODES = (DEAL_OVER, NOT_A_MOVE, NOT_IN_HAND, TAKES_NOTHING, MUST_CAPTURE, MATCH_FIRST, CANNOT_TAKE,
                 DEAL_NOT_OVER, MATCH_OVER)


class IllegalReason(NamedTuple):
    """Why a move is illegal, for the shells to put into the player's words.

    ``code`` is one of ``ILLEGAL_CODES``; ``card`` is the card played (``None`` when the reason
    names none), ``capture`` the table cards it was said to take, ``seat`` the seat to move."""

    code: str
    card: "Card | None" = None
    capture: "tuple[Card, ...]" = ()
    seat: int | None = None


class IllegalMoveError(ScopaError):
    """A move that the rules do not allow in this position. The state is unchanged.

    ``str(error)`` is the engine's English sentence, for developers and logs ("7D must capture:
    a card that can take must take."). ``reason`` is the same as an ``IllegalReason`` (a code
    and the cards involved), or ``None`` when the error was made with a message alone."""

    def __init__(self, message: str, reason: IllegalReason | None = None) -> None:
        super().__init__(message)
        self.reason = reason

    def __reduce__(self):  # keep the reason when pickled (as by a worker process)
        return type(self), (str(self), self.reason)

    @property
    def code(self) -> str | None:
        """The reason's code, or ``None``."""
        return None if self.reason is None else self.reason.code
