"""Tips for beginners: one line a turn about what is possible, from public information only.

``tip_for(view, rules, narrator)`` looks at the player's own hand, the table and the cards
not yet seen (``view.unseen_cards()``: other hands and the stock together), never at another
hand. It names at most one thing, in this order: a scopa the player can make now; the
settebello the player can take; a card that, played to the table, would leave a table an
unseen card could sweep (only when some safer play exists). Otherwise it returns ``None``.
A tip names a card of the player's hand, so it comes as an announcement private to that seat.
At short verbosity each tip has a short form ("Scopa chance with four of clubs.").
"""
from __future__ import annotations

from collections.abc import Sequence

from ..engine import ALL_CARDS, SETTEBELLO, Card, Move, PlayerView, Rules, legal_captures
from ..engine.captures import is_sweep_capture
from ..narration import Announcement, Narrator, capitalised
from .catalogue import LessonText

_VALUE_CARD = tuple(ALL_CARDS[(v - 1) * 4] for v in range(1, 11))  # one card of each capture value


def sweep_values(table: Sequence[Card], rules: Rules) -> list[int]:
    """The capture values (1 to 10) of a card that would clear this table for a scopa."""
    table = tuple(table)
    if not table:
        return []
    values = []
    for value, card in enumerate(_VALUE_CARD, start=1):
        if any(len(option) == len(table) and is_sweep_capture(card, option, rules)
               for option in legal_captures(card, table, rules)):
            values.append(value)
    return values


def _sweeps(move: Move, table: Sequence[Card], rules: Rules) -> bool:
    return bool(move.capture) and len(move.capture) == len(table) and is_sweep_capture(move.card, move.capture,
                                                                                      rules)


def _left(move: Move, table: Sequence[Card]) -> tuple[Card, ...]:
    if move.capture:
        return tuple(c for c in table if c not in move.capture)
    return (*table, move.card)


def _card_words(the_card: str) -> dict[str, str]:
    """The card with its article, as ``{card}`` mid-sentence and ``{Card}`` starting one."""
    return {"card": the_card, "Card": capitalised(the_card)}


def tip_for(view: PlayerView, rules: Rules, narrator: Narrator) -> Announcement | None:
    """One line about the possibilities of this turn, private to ``view.seat``, or None when there is nothing to say."""
    text = _tip_text(view, rules, narrator)
    return None if text is None else Announcement(text, view.seat)


def _tip_text(view: PlayerView, rules: Rules, narrator: Narrator) -> str | None:
    moves = view.legal_moves()
    if not moves:
        return None
    text = LessonText(narrator.messages.lang)
    tip = (lambda key: f"{key}.short") if narrator.terse else (lambda key: key)  # with bare card names
    plays_left = view.stock_count + sum(view.hand_counts)
    table = view.table
    if plays_left > 1:  # the last play of a deal is never a scopa
        for move in moves:
            if _sweeps(move, table, rules):
                return text(tip("tip.scopa"), **_card_words(narrator.named(move.card)))
    for move in moves:
        if SETTEBELLO in move.capture:
            return text(tip("tip.settebello"), **_card_words(narrator.named(move.card)))
    if plays_left <= 2:  # the next play is the last one: no scopa to fear
        return None
    unseen = view.unseen_cards()
    risks: list[tuple[int, int, Move, int]] = []
    safe = False
    for index, move in enumerate(moves):
        left = _left(move, table)
        values = set(sweep_values(left, rules))
        count = sum(1 for c in unseen if c.value in values)
        if count == 0:
            safe = True
        elif not move.capture:
            risks.append((count, -index, move, sum(c.value for c in left)))
    if not safe or not risks:
        return None
    count, _, move, total = max(risks)
    return text.plural(tip("tip.risk"), count, total=total, **_card_words(narrator.named(move.card)))
