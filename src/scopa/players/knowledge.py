"""What a seat can work out from its own view: unseen cards, odds, sweeps, and table history.

Everything here takes a ``PlayerView`` (or public pieces of one) and nothing else, so no
level can learn another hand or the stock order through it.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from math import comb

from scopa.engine import ALL_CARDS, SETTEBELLO, Card, PlayerView, Rules, legal_captures, moves_for_hand
from scopa.engine.captures import is_sweep_capture
from scopa.engine.validation import first_table

# One representative card of each capture value 1..10 (its suit does not change what it may take).
VALUE_CARD = tuple(ALL_CARDS[(v - 1) * 4] for v in range(1, 11))


def value_of(card: Card) -> int:
    return (card >> 2) + 1


def throw_cost(card: Card, keep: float) -> float:
    """What throwing ``card`` gives up, ``keep`` per 10 of its value: a high card takes sums later."""
    return keep * value_of(card) / 10.0


def next_to_move(seat: int, players: int) -> int:
    """Play runs counter-clockwise: after seat s comes seat s - 1."""
    return (seat - 1) % players


def side_of(rules: Rules, seat: int) -> int:
    return seat % 2 if rules.players == 4 else seat


def is_last_play(view: PlayerView) -> bool:
    """True when the card about to be played is the last one of the deal."""
    return view.stock_count == 0 and sum(view.hand_counts) == 1


Takes = tuple[tuple[tuple[Card, ...], bool], ...]  # captures, each with whether it clears the table

_TAKES: dict[tuple[int, tuple[Card, ...]], tuple[Takes, ...]] = {}
_TAKES_LIMIT = 10_000  # some 8 MB at most (about 800 bytes a table met in real play; a move meets about 200 new ones)


def captures_by_value(table: tuple[Card, ...], rules: Rules) -> tuple[Takes, ...]:
    """What a card of each capture value takes from ``table``: index ``v`` (1..10; 0 is unused)
    lists ``legal_captures`` of that value, each capture with whether it clears the table for a
    scopa (``is_sweep_capture``: the suit of the played card never changes either answer).

    The hard level asks this for every value, for every move it reads, and the expert asks the
    hard level at every reply in its search: one memo lookup by table instead of ten. The answer
    depends only on the table and the capture options (``Rules.capture_mode``, which holds asso
    piglia tutto and Cirulla), so the memo is keyed by those. Treat it as read-only.
    """
    key = (rules.capture_mode, table)
    found = _TAKES.get(key)
    if found is None:
        if len(_TAKES) >= _TAKES_LIMIT:
            _TAKES.clear()
        size = len(table)
        by_value: list[list[tuple[tuple[Card, ...], bool]]] = [[] for _ in range(11)]
        # One card of each value as a hand: the engine finds every value's captures at once, as
        # ``legal_captures`` would one by one (in the same order).
        for card, option in moves_for_hand(VALUE_CARD, table, rules):
            if option:
                clears = len(option) == size and is_sweep_capture(card, option, rules)
                by_value[(card >> 2) + 1].append((option, clears))
        found = _TAKES[key] = tuple([tuple(options) for options in by_value])
    return found


def sweep_values(table: Sequence[Card], rules: Rules) -> list[int]:
    """Capture values (1..10) of a card that would clear this table for a scopa."""
    if not table:
        return []
    by_value = captures_by_value(tuple(table), rules)
    return [v for v in range(1, 11) if any(clears for _, clears in by_value[v])]


def unseen_by_value(unseen: Iterable[Card]) -> list[int]:
    """How many unseen cards there are of each capture value; index 0 is unused."""
    counts = [0] * 11
    for c in unseen:
        counts[(c >> 2) + 1] += 1
    return counts


@lru_cache(maxsize=4096)
def chance_holds(unseen: int, copies: int, hand: int) -> float:
    """Chance that a hand of ``hand`` cards drawn from ``unseen`` holds at least one of ``copies``."""
    if copies <= 0 or hand <= 0 or unseen <= 0:
        return 0.0
    if hand >= unseen or copies > unseen - hand:
        return 1.0
    return 1.0 - comb(unseen - copies, hand) / comb(unseen, hand)


def next_hand_size(view: PlayerView, seat: int) -> int:
    """Cards ``seat`` will hold when it next plays (0 when the deal ends first)."""
    count = view.hand_counts[seat]
    if seat == view.seat:
        return count
    if count > 0:
        return count
    # Its hand is empty: it plays next only after a new round is dealt.
    return view.rules.hand_size if view.stock_count > 0 else 0


def table_total(table: Sequence[Card]) -> int:
    return sum((c >> 2) + 1 for c in table)


def initial_table(view: PlayerView) -> set[Card]:
    """The cards that lay on the table when this deal started (public: all were seen)."""
    return first_table(view.table, view.piles, view.history)


def round_start(view: PlayerView) -> int:
    """Index in ``view.history`` of the first play of the current round of dealing."""
    per_round = view.rules.players * view.rules.hand_size
    return max(0, (view.round - 1) * per_round)


def inference_weights(view: PlayerView, strong: float = 0.15, mild: float = 0.6) -> dict[int, dict[Card, float]]:
    """Per other seat, how likely each unseen card is to be in its hand (1.0 = no information).

    A seat that played a card that took nothing, in this round of dealing, while a card of some
    value would have cleared the table or taken the settebello, probably holds no card of that
    value now (weight ``strong``); if that value would have taken anything at all, a milder
    ``mild``. Only plays of the current round count: hands are refilled between rounds.
    """
    weights: dict[int, dict[Card, float]] = {}
    rules = view.rules
    table = set(initial_table(view))
    start = round_start(view)
    for index, play in enumerate(view.history):
        if index >= start and play.seat != view.seat and not play.capture and table:
            board = tuple(sorted(table))
            per_value: dict[int, float] = {}
            for v in range(1, 11):
                options = legal_captures(VALUE_CARD[v - 1], board, rules)
                if not options:
                    continue
                big = any((len(o) == len(board) and is_sweep_capture(VALUE_CARD[v - 1], o, rules))
                          or SETTEBELLO in o for o in options)
                per_value[v] = strong if big else mild
            if per_value:
                seat_weights = weights.setdefault(play.seat, {})
                for v, factor in per_value.items():
                    for suit in range(4):
                        card = ALL_CARDS[(v - 1) * 4 + suit]
                        seat_weights[card] = seat_weights.get(card, 1.0) * factor
        if play.capture:
            table.difference_update(play.capture)
        else:
            table.add(play.card)
    return weights
