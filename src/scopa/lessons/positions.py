"""Prepared positions for the lessons: real engine states that pass ``check_invariants``.

Seat 0 is the learner, seat 1 the lesson partner. Every position is a two-player single deal
(``Rules(target=None)``). Cards not named by a lesson are spread over the stock and the
capture piles so that the pack always holds its 40 cards.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..engine import ALL_CARDS, Card, GameState, Phase, Play, Rules, check_invariants, new_match, parse_cards

LESSON_RULES = Rules(target=None)


def _cards(text: str | Sequence[Card]) -> tuple[Card, ...]:
    return parse_cards(text) if isinstance(text, str) else tuple(text)


def position(hand: str, table: str, other_hand: str, *, round_number: int = 1, you_lead: bool = True,
             history: Iterable[tuple[int, str, str]] = (), pile_you: str = "", pile_other: str = "",
             last_capturer: int | None = None, rules: Rules = LESSON_RULES) -> GameState:
    """A position with the learner (seat 0) to move.

    ``history`` lists this round's plays so far as (seat, card, captured cards); earlier rounds
    (when ``round_number`` > 1) are filled with plays of cards from the piles so the record of
    play has the right length. The remaining cards go to the stock (as many as the round
    needs) and then to the piles, alternately.
    """
    state, _ = new_match(rules, seed=0, first_dealer=1 if you_lead else 0)
    hands = (_cards(hand), _cards(other_hand))
    table_cards = _cards(table)
    piles = [list(_cards(pile_you)), list(_cards(pile_other))]
    plays = [Play(seat, Card.parse(card), tuple(sorted(_cards(taken))), False) for seat, card, taken in history]
    used = set(hands[0]) | set(hands[1]) | set(table_cards) | set(piles[0]) | set(piles[1])
    for play in plays:  # cards played this round lie on the table or in a pile
        if play.card not in used:
            raise ValueError(f"{play.card} was played but is neither on the table nor in a pile.")
    spare = [c for c in ALL_CARDS if c not in used]
    stock_size = 40 - rules.table_size - round_number * rules.players * rules.hand_size
    stock = tuple(spare[:stock_size])
    for i, card in enumerate(spare[stock_size:]):
        piles[i % 2].append(card)
    earlier = _earlier_plays(state, round_number, piles, plays)
    state = state._replace(hands=hands, table=table_cards, stock=stock,
                           piles=(tuple(piles[0]), tuple(piles[1])), round=round_number,
                           history=tuple(earlier + plays), to_move=0, last_capturer=last_capturer,
                           phase=Phase.PLAYING, scope=(0,) * rules.sides)  # no first table taken
    check_invariants(state)
    return state


def _earlier_plays(state: GameState, round_number: int, piles: list[list[Card]], plays: list[Play]) -> list[Play]:
    """Plays of the rounds before this one: the order of seats is right; the cards come from the piles."""
    count = (round_number - 1) * state.rules.players * state.rules.hand_size
    if not count:
        return []
    this_round = {p.card for p in plays}
    pool = [c for pile in piles for c in pile if c not in this_round]
    seat, out = state.leader, []
    for i in range(count):
        out.append(Play(seat, pool[i], (), False))
        seat = (seat - 1) % state.rules.players
    return out
