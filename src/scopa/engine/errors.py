"""Errors the engine raises. Each message is a plain English sentence, for developers and logs.

The engine speaks no other language, so its errors also carry their reason as data for the
shells to put into the player's words: ``IllegalMoveError`` an ``IllegalReason``
(``narration.explain_illegal``), ``RulesError`` and the checks of a rebuilt position a ``Reason``
(``narration.explain_invalid``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from .cards import Card


class Reason(NamedTuple):
    """Why rules or a rebuilt position are refused, for the shells to put into the player's words.

    ``code`` is one of ``RULES_CODES`` or ``POSITION_CODES``; ``params`` are its values as
    (name, value) pairs (``values()`` gives them as a dict): whole numbers (seats counted from 1
    as players count them), ``Card`` objects, and names the catalogues know (``field``: a
    ``GameState`` field, ``option``: a rule option, ``where``: a place in the position). Nothing
    in it is text copied from the data that was refused."""

    code: str
    params: tuple[tuple[str, Any], ...] = ()

    def values(self) -> dict[str, Any]:
        return dict(self.params)


def reason(code: str, **params: Any) -> Reason:
    """A ``Reason`` written as ``reason("hand_size", seat=2, expected=3, actual=2)``."""
    return Reason(code, tuple(params.items()))


class ScopaError(ValueError):
    """Base class: every engine error is a ``ValueError`` with a plain English message.

    ``reason`` is the same as data for the shells (a ``Reason``, or an ``IllegalReason`` for an
    ``IllegalMoveError``), or ``None`` when the error was made with a message alone."""

    def __init__(self, message: str, reason: Any = None) -> None:
        super().__init__(message)
        self.reason = reason

    def __reduce__(self) -> tuple[type[ScopaError], tuple[str, Any]]:  # keep the reason when pickled (as by a worker)
        return type(self), (str(self), self.reason)

    @property
    def code(self) -> str | None:
        """The reason's code, or ``None``."""
        return None if self.reason is None else self.reason.code


class RulesError(ScopaError):
    """An impossible combination of rule options (for example scopone with two players)."""


# Why rules are refused (``Rules`` and ``Rules.from_dict``); ``invalid.{code}`` in the catalogues.
RULES_CODES = (
    "rules_not_options",   # not a mapping of named options
    "unknown_option",      # an option the rules do not have
    "unknown_variant",     # a game that is not one of Variant
    "players",             # not 2, 3 or 4 players
    "scopone_players",     # scopone with other than four players
    "target",              # not 11, 16, 21 or a single deal
    "cirulla_target",      # cirulla at another target than 51 or a single deal
    "variant_option",      # an option the variant does not have; params: option, variant
    "win_by_two_single",   # win by two asked of a single deal
    "on_off",              # a house rule that is not true or false; params: option
)

# Why a position rebuilt from data is refused (``state_from_dict``, ``check_invariants``,
# ``check_history``); ``invalid.{code}`` in the catalogues (``invalid.{code}.{where}`` for a place).
POSITION_CODES = (
    "not_fields",          # not a mapping of named fields
    "missing_field",       # params: field
    "rules",               # the position's rules are refused
    "seed",                # the seed is not a whole number
    "phase",               # not playing, deal_over or match_over
    "history_list",        # the plays of the deal are not a list
    "deal_totals_list",    # the deal results are not a list
    "number",              # a whole number out of its range; params: field, low, high
    "seat",                # a seat that is not one of the match's; params: where (dealer, to_move,
                           # last_capturer), count (of seats)
    "winner",              # a winner that is not one of the sides; params: count (of sides)
    "hands_count",         # params: count
    "piles_count",         # params: count
    "not_cards",           # params: where (hand, table, stock, pile, play_card, play_capture), number
    "no_such_card",        # a card that is not in the pack; params: where, number
    "numbers",             # a list of whole numbers of the wrong length or range; params: field, count
    "deal_total",          # params: number, count
    "play_fields",         # params: number
    "play_seat",           # params: number, count (of seats)
    "play_scopa",          # params: number
    "pack_count",          # no card twice, but not 40 of them; params: total
    "pack_repeated",       # a card more than once
    "stock_size",          # params: round, expected, actual
    "history_length",      # params: expected, actual
    "hand_size",           # params: seat, expected, actual
    "to_move",             # params: expected, actual (seats)
    "playing_no_cards",    # every hand empty, yet the deal is being played
    "winner_while_playing",
    "over_with_cards",     # the deal is over, yet cards are in hand or in the stock
    "leftovers",           # the deal is over, yet the leftovers were not given to the last capture
    "deal_results_count",  # the deal results do not fit the deal number
    "scores_sum",          # the match scores are not the sum of the deal results
    "history_order",       # the plays do not follow the order of play
    "history_card",        # params: card, neither on the table nor in a pile
    "no_last_capture",     # captures, yet no last capture is recorded
    "first_table",         # params: count, expected
    "play_not_legal",      # params: number
    "play_had_to_capture",  # params: number
    "play_scopa_wrong",    # params: number
    "last_capture_differs",
    "table_differs",
    "piles_differ",
    "scope_differ",
    "claim_wrong",         # a Cirulla claim the hands and plays do not bear out; params: number
)


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
NO_CLAIM = "no_claim"              # claim() with no Cirulla bonus to claim now
ILLEGAL_CODES = (DEAL_OVER, NOT_A_MOVE, NOT_IN_HAND, TAKES_NOTHING, MUST_CAPTURE, MATCH_FIRST, CANNOT_TAKE,
                 DEAL_NOT_OVER, MATCH_OVER, NO_CLAIM)


class IllegalReason(NamedTuple):
    """Why a move is illegal, for the shells to put into the player's words.

    ``code`` is one of ``ILLEGAL_CODES``; ``card`` is the card played (``None`` when the reason
    names none), ``capture`` the table cards it was said to take, ``seat`` the seat to move."""

    code: str
    card: Card | None = None
    capture: tuple[Card, ...] = ()
    seat: int | None = None


class IllegalMoveError(ScopaError):
    """A move that the rules do not allow in this position. The state is unchanged.

    ``str(error)`` is the engine's English sentence, for developers and logs ("7D must capture:
    a card that can take must take."). ``reason`` is the same as an ``IllegalReason`` (a code
    and the cards involved), or ``None`` when the error was made with a message alone."""

    reason: IllegalReason | None

    def __init__(self, message: str, reason: IllegalReason | None = None) -> None:
        super().__init__(message, reason)
