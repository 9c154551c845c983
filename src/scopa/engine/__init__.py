"""The Scopa rules engine: pure, deterministic, and the single source of truth for the rules.

Quick tour::

    >>> from scopa.engine import Card, Rules, new_match, legal_captures
    >>> legal_captures(Card.parse("6C"), [Card.parse("2D"), Card.parse("3H"), Card.parse("AS")], Rules())
    [(Card('AS'), Card('2D'), Card('3H'))]
    >>> state, events = new_match(Rules(), seed=7)
    >>> move = state.legal_moves()[0]
    >>> state, events = state.apply(move)

Nothing here prints, reads the clock, or draws randomness other than from the match seed.
"""
from .captures import Capture, legal_captures, sum_groups
from .cards import ALL_CARDS, DECK, RE_BELLO, SETTEBELLO, Card, Suit, cards_str, parse_cards
from .cirulla import BONUS_POINTS, MATTA, Claim, bonuses
from .errors import (
    ILLEGAL_CODES,
    POSITION_CODES,
    RULES_CODES,
    IllegalMoveError,
    IllegalReason,
    Reason,
    RulesError,
    ScopaError,
)
from .events import (
    CardPlayed,
    CardsCaptured,
    CardsDealt,
    CardStaysOnTable,
    DealScored,
    DealStarted,
    Event,
    HandClaimed,
    LeftoversTaken,
    MatchWon,
    OpeningTableTaken,
    Scopa,
)
from .rules import ALL_OPTIONS, CIRULLA_TARGET, TARGETS, Rules, Variant
from .scoring import (
    Category,
    DealScore,
    Primiera,
    SideScore,
    grande_points,
    napola_points,
    piccola_points,
    primiera,
    score_deal,
)
from .state import (
    FORMAT_VERSION,
    GameState,
    Move,
    Phase,
    Play,
    PlayerView,
    match_result,
    moves_for_hand,
    new_deal,
    new_match,
    next_seat,
)
from .validation import check_history, check_invariants, state_from_dict

__all__ = [
    "ALL_CARDS", "ALL_OPTIONS", "BONUS_POINTS", "CIRULLA_TARGET", "DECK", "FORMAT_VERSION", "ILLEGAL_CODES", "MATTA",
    "POSITION_CODES", "RE_BELLO", "RULES_CODES", "SETTEBELLO", "TARGETS", "Capture", "Card", "CardPlayed",
    "CardStaysOnTable", "CardsCaptured", "CardsDealt", "Category", "Claim", "DealScore", "DealScored", "DealStarted",
    "Event", "GameState", "HandClaimed", "IllegalMoveError", "IllegalReason", "LeftoversTaken", "MatchWon", "Move",
    "OpeningTableTaken", "Phase", "Play", "PlayerView", "Primiera", "Reason", "Rules", "RulesError", "Scopa",
    "ScopaError", "SideScore", "Suit", "Variant", "bonuses", "cards_str", "check_history", "check_invariants",
    "grande_points", "legal_captures", "match_result", "moves_for_hand", "napola_points", "new_deal", "new_match",
    "next_seat", "parse_cards", "piccola_points", "primiera", "score_deal", "state_from_dict", "sum_groups",
]
