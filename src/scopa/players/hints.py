"""Hints: a good move for the seat to move, with one plain sentence saying why.

The move is the hard level's choice; the reason is built from public facts about it (what it
takes, what it leaves on the table, which values could clear that table and how many of them
are still unseen). All wording lives in ``reason_text`` so it can later go through a message
catalogue in one place.
"""
from __future__ import annotations

from scopa.engine import SETTEBELLO, Card, Move, PlayerView

from .heuristic import HardAnalyser, MoveAnalysis, check_view
from .knowledge import table_total, unseen_by_value

_RANK_NAMES = {"A": "ace", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
               "J": "jack", "Q": "queen", "K": "king"}
_PLURALS = {"six": "sixes"}
_SUIT_NAMES = ("diamonds", "hearts", "spades", "clubs")
_VALUE_WORDS = ("", "ace", "two", "three", "four", "five", "six", "seven", "jack", "queen", "king")


def card_name(card: Card) -> str:
    """``seven of diamonds``; the seven of diamonds is called the settebello."""
    if card == SETTEBELLO:
        return "settebello"
    return f"{_RANK_NAMES[card.rank]} of {_SUIT_NAMES[card & 3]}"


def _the(card: Card) -> str:
    return "the " + card_name(card)


def _join(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def _value_plural(value: int, count: int) -> str:
    word = _VALUE_WORDS[value]
    if count == 1:
        return f"one {word}"
    return f"{count} {_PLURALS.get(word, word + 's')}"


def reason_text(view: PlayerView, analysis: MoveAnalysis) -> str:
    """One plain sentence explaining a suggested move, from public information only."""
    move = analysis.move
    left = analysis.table_left
    total = table_total(left)
    counts = unseen_by_value(view.unseen_cards())
    if move.capture:
        action = f"Take {_join([_the(c) for c in move.capture])} with your {card_name(move.card)}"
    else:
        action = f"Play the {card_name(move.card)}"
    if analysis.sweep:
        return f"{action}, it clears the table for a scopa."
    if move.capture and SETTEBELLO in (*move.capture, move.card):
        why = "it wins the settebello, a point on its own"
    elif move.capture and not left:
        why = "it clears the table"
    elif move.capture:
        why = f"it takes {len(move.capture)} card{'' if len(move.capture) == 1 else 's'}"
    elif any(m.capture for m in view.legal_moves()):
        why = "it is safer than any capture you could make"
    else:
        why = "you cannot take anything"
    if not left:
        tail = ""
    elif analysis.sweep_with:
        risky = [v for v in analysis.sweep_with if counts[v]]
        if risky:
            unseen = _join([_value_plural(v, counts[v]) for v in risky])
            tail = f", though it leaves {total} on the table and {unseen} still unseen could sweep it"
        else:
            tail = f", and it leaves {total} on the table that no unseen card can sweep"
    elif total > 10:
        tail = f", and it leaves {total} on the table, too much for one card to sweep"
    else:
        tail = f", and it leaves {total} on the table, which no single card can sweep"
    return f"{action}, {why}{tail}."


def suggest_move(view: PlayerView) -> tuple[Move, str]:
    """A good legal move for the seat to move (the hard level's choice) and a one-line reason."""
    check_view(view)
    moves = view.legal_moves()
    if not moves:
        raise ValueError("It is not this seat's turn: there is no move to suggest.")
    analyser = HardAnalyser(view)
    analyses = analyser.analyse_all(moves)
    best = max(analyses, key=lambda a: round(a.total, 9))  # first of equals: no randomness
    return best.move, reason_text(view, best)
