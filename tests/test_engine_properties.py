"""Property tests: random seeds, random rule options and random legal play through the public API.

Each test walks random matches and checks one family of properties at every step against small
reference implementations written here from rules.md (not from the engine's code).
"""
from __future__ import annotations

import copy
import json
import os
import random
from collections import Counter
from collections.abc import Iterator
from itertools import combinations
from typing import Any, NamedTuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scopa.engine import (
    ALL_CARDS,
    Card,
    CardsCaptured,
    CardsDealt,
    DealScored,
    DealStarted,
    GameState,
    LeftoversTaken,
    MatchWon,
    Move,
    Phase,
    Rules,
    Scopa,
    ScopaError,
    Variant,
    check_history,
    check_invariants,
    legal_captures,
    match_result,
    new_match,
    next_seat,
    state_from_dict,
)

OPTIONS = ("kings_redeal", "faces_match_only", "most_cards", "napola", "re_bello", "asso_piglia_tutto")
SHAPES = [(2, Variant.SCOPA), (3, Variant.SCOPA), (4, Variant.SCOPA),
          (4, Variant.SCOPONE_SCIENTIFICO), (4, Variant.SCOPONE_CLASSICO)]


@st.composite
def any_rules(draw) -> Rules:
    players, variant = draw(st.sampled_from(SHAPES))
    options = {name: draw(st.booleans()) for name in OPTIONS}
    return Rules(players=players, variant=variant, target=draw(st.sampled_from([None, 11, 16, 21])), **options)


seeds = st.integers(min_value=0, max_value=2**40)
# Example counts stay moderate so the engine suite runs in seconds; SCOPA_TEST_SCALE=20 digs deeper.
SCALE = int(os.environ.get("SCOPA_TEST_SCALE", "1"))
FAST = settings(max_examples=40 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class Step(NamedTuple):
    before: GameState | None  # None: the new match
    move: Move | None  # None: next_deal() or the new match
    after: GameState
    events: list


def walk(rules: Rules, seed: int, move_seed: int, max_deals: int = 2) -> Iterator[Step]:
    """Random legal play from a new match: every transition, through at most ``max_deals`` deals."""
    rng = random.Random(move_seed)
    state, events = new_match(rules, seed=seed)
    yield Step(None, None, state, events)
    deals = 1
    while True:
        if state.phase is Phase.PLAYING:
            moves = state.legal_moves()
            chosen = moves[rng.randrange(len(moves))]
            after, events = state.apply(chosen)
        elif state.phase is Phase.DEAL_OVER and deals < max_deals:
            chosen = None
            after, events = state.next_deal()
            deals += 1
        else:
            return
        yield Step(state, chosen, after, events)
        state = after


def play_to(rules: Rules, seed: int, move_seed: int, plays: int) -> GameState:
    """The state after ``plays`` random transitions (or the match's end)."""
    state = None
    for i, step in enumerate(walk(rules, seed, move_seed, max_deals=3)):
        state = step.after
        if i >= plays:
            break
    return state


# Reference rules, written from rules.md ----------------------------------------------------------
def reference_captures(card: Card, table: tuple[Card, ...], rules: Rules) -> set[tuple[Card, ...]]:
    value = card.value
    if rules.asso_piglia_tutto and value == 1:
        aces = {(c,) for c in table if c.value == 1}
        return aces or ({tuple(sorted(table))} if table else set())
    singles = {(c,) for c in table if c.value == value}
    if singles:
        return singles
    if rules.faces_match_only and card.is_face:
        return set()
    pool = sorted(c for c in table if c.value < value and not (rules.faces_match_only and c.is_face))
    groups = set()
    for size in range(2, len(pool) + 1):
        if sum(c.value for c in pool[:size]) > value:  # even the smallest cards overshoot
            break
        groups |= {g for g in combinations(pool, size) if sum(c.value for c in g) == value}
    if rules.most_cards and groups:
        most = max(len(g) for g in groups)
        groups = {g for g in groups if len(g) == most}
    return groups


PRIMIERA = {"7": 21, "6": 18, "A": 16, "5": 15, "4": 14, "3": 13, "2": 12, "J": 10, "Q": 10, "K": 10}


def reference_points(piles, scope, rules: Rules) -> list[int]:
    def most(values):
        best = max(values)
        return [int(v == best and values.count(best) == 1) for v in values]

    def prime(pile):
        best = {}
        for c in pile:
            best[c.suit] = max(best.get(c.suit, 0), PRIMIERA[c.rank])
        return sum(best.values()) if len(best) == 4 else -1

    n = len(piles)
    points = [0] * n
    primes = [prime(p) for p in piles]
    prime_points = most(primes) if max(primes) >= 0 else [0] * n
    coin_cards = [sum(1 for c in p if c.suit.name == "COINS") for p in piles]
    for side, pile in enumerate(piles):
        names = {str(c) for c in pile}
        points[side] += most([len(p) for p in piles])[side] + most(coin_cards)[side] + prime_points[side]
        points[side] += ("7D" in names) + scope[side]
        if rules.re_bello:
            points[side] += "KD" in names
        if rules.napola and {"AD", "2D", "3D"} <= names:
            run = 3
            for rank in "4567JQK":
                if rank + "D" not in names:
                    break
                run += 1
            points[side] += run
    return points


# Properties -----------------------------------------------------------------------------------------
@FAST
@given(any_rules(), seeds, seeds)
def test_every_state_accounts_for_all_forty_cards(rules, seed, move_seed):
    for step in walk(rules, seed, move_seed):
        check_invariants(step.after)
        state = step.after
        cards = [c for h in state.hands for c in h] + list(state.table) + list(state.stock)
        cards += [c for p in state.piles for c in p]
        assert sorted(cards) == list(ALL_CARDS)


@FAST
@given(any_rules(), seeds, seeds)
def test_legal_moves_follow_the_capture_rules(rules, seed, move_seed):
    for step in walk(rules, seed, move_seed, max_deals=1):
        state = step.after
        if state.phase is not Phase.PLAYING:
            assert state.legal_moves() == []
            continue
        moves = state.legal_moves()
        hand = state.hands[state.to_move]
        assert len(set(moves)) == len(moves) and {m.card for m in moves} == set(hand)
        for card in hand:
            offered = {m.capture for m in moves if m.card == card}
            expected = reference_captures(card, state.table, rules)
            assert offered == (expected or {()})
            assert set(legal_captures(card, state.table, rules)) == expected
            has_single = any(c.value == card.value for c in state.table)
            for capture in offered - {()}:
                assert list(capture) == sorted(capture) and set(capture) <= set(state.table)
                if len(capture) > 1 and not (rules.asso_piglia_tutto and card.value == 1):
                    assert sum(c.value for c in capture) == card.value
                    assert not has_single  # a sum is only offered when no single match exists


@FAST
@given(any_rules(), seeds, seeds)
def test_scopa_exactly_when_the_table_is_cleared_before_the_last_play(rules, seed, move_seed):
    for step in walk(rules, seed, move_seed):
        if step.move is None:
            assert not any(isinstance(e, Scopa) for e in step.events)
            continue
        before, move = step.before, step.move
        last_play = not before.stock and sum(len(h) for h in before.hands) == 1
        ace_takes_all = rules.asso_piglia_tutto and move.card.value == 1 and not any(
            c.value == 1 for c in move.capture)
        cleared = bool(move.capture) and set(before.table) == set(move.capture)
        scopas = [e for e in step.events if isinstance(e, Scopa)]
        expected = cleared and not last_play and not ace_takes_all
        assert len(scopas) == int(expected)
        side = rules.side_of(before.to_move)
        assert step.after.history[-1].scopa is expected
        if step.after.phase is Phase.PLAYING or not last_play:
            assert step.after.scope[side] == before.scope[side] + int(expected)
        for event in step.events:
            if isinstance(event, CardsCaptured):
                assert event.whole_table == ace_takes_all
            if isinstance(event, LeftoversTaken):
                assert last_play and scopas == []


@FAST
@given(any_rules(), seeds, seeds)
def test_deal_scores_add_up_and_match_scores_are_their_sum(rules, seed, move_seed):
    scope_events = Counter()
    for step in walk(rules, seed, move_seed, max_deals=3):
        state = step.after
        for event in step.events:
            if isinstance(event, DealStarted):
                scope_events = Counter()
            if isinstance(event, Scopa):
                scope_events[event.side] += 1
            if isinstance(event, DealScored):
                score = event.score
                for side in score.sides:
                    assert side.total == sum(side.points.values())
                    assert side.scope == scope_events[side.side]
                assert list(score.totals) == reference_points(state.piles, state.scope, rules)
                previous = step.before.match_scores
                assert event.match_scores == tuple(a + b for a, b in zip(previous, score.totals, strict=True))
                assert state.deal_totals[-1] == score.totals and state.deal_score == score
        assert state.match_scores == tuple(sum(t[i] for t in state.deal_totals) for i in range(rules.sides))


@FAST
@given(any_rules(), seeds, seeds)
def test_turns_rounds_and_match_end_follow_the_rules(rules, seed, move_seed):
    n = rules.players
    for step in walk(rules, seed, move_seed, max_deals=4):
        before, after = step.before, step.after
        if before is None:
            assert after.to_move == after.leader == next_seat(after.dealer, n)
            continue
        dealt = [e for e in step.events if isinstance(e, CardsDealt)]
        if step.move is not None and after.phase is Phase.PLAYING:
            if dealt:
                assert after.to_move == after.leader and dealt[0].round == after.round == before.round + 1
            else:
                assert after.to_move == next_seat(before.to_move, n)
        if step.move is None:
            assert after.dealer == next_seat(before.dealer, n) and after.to_move == after.leader
        won = [e for e in step.events if isinstance(e, MatchWon)]
        if any(isinstance(e, DealScored) for e in step.events):
            winner, over = match_result(after.match_scores, rules)
            assert after.phase is (Phase.MATCH_OVER if over else Phase.DEAL_OVER)
            assert won == ([MatchWon(winner, after.match_scores)] if over else [])
            assert after.winner == winner
        else:
            assert won == [] and after.phase is Phase.PLAYING


@FAST
@given(any_rules(), seeds, seeds)
def test_a_legal_move_written_any_way_gives_the_same_result(rules, seed, move_seed):
    for step in walk(rules, seed, move_seed, max_deals=1):
        if step.move is None:
            continue
        card, capture = step.move
        spelt = (str(card), [str(c) for c in reversed(capture)])  # strings, unsorted, in a list
        assert step.before.apply(spelt) == (step.after, step.events)
        assert step.before.apply(Move(int(card), tuple(int(c) for c in capture))) == (step.after, step.events)


@settings(max_examples=25 * SCALE, deadline=None)
@given(any_rules(), seeds, seeds)
def test_the_same_seed_gives_the_same_deal(rules, seed, move_seed):
    first = [(s.after, s.events) for s in walk(rules, seed, move_seed, max_deals=2)]
    second = [(s.after, s.events) for s in walk(rules, seed, move_seed, max_deals=2)]
    assert first == second
    # and the deal depends on the seed alone, not on the moves
    other = [s.after for s in walk(rules, seed, move_seed + 1, max_deals=1)]
    assert other[0] == first[0][0]


@FAST
@given(any_rules(), seeds, seeds)
def test_views_never_show_another_seats_cards(rules, seed, move_seed):
    for step in walk(rules, seed, move_seed, max_deals=1):
        state = step.after
        for seat in range(rules.players):
            view = state.view(seat)
            hidden = {c for s, h in enumerate(state.hands) if s != seat for c in h} | set(state.stock)
            shown = set(view.hand) | set(view.table) | {c for p in view.piles for c in p}
            shown |= {c for play in view.history for c in (play.card, *play.capture)}
            assert not shown & hidden
            assert view.hand == state.hands[seat] and view.unseen_cards() == frozenset(hidden)
            assert view.stock_count == len(state.stock)
            assert view.hand_counts == tuple(len(h) for h in state.hands)
            assert not hasattr(view, "seed") and not hasattr(view, "stock") and not hasattr(view, "hands")
            assert view.legal_moves() == (state.legal_moves() if state.to_move == seat else [])


@FAST
@given(any_rules(), seeds, seeds)
def test_every_state_round_trips_through_json(rules, seed, move_seed):
    for step in walk(rules, seed, move_seed):
        data = json.loads(json.dumps(step.after.to_dict()))
        restored = state_from_dict(data)
        assert restored == step.after
        assert restored.to_dict() == data


# Corrupted save data ---------------------------------------------------------------------------------
CARD_TEXTS = [str(c) for c in ALL_CARDS]
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 45) | st.integers() | st.floats(allow_nan=False)
    | st.sampled_from([2.0, 3.0, 4.0, 11.0, 0.0, 1.0]) | st.sampled_from(CARD_TEXTS)
    | st.sampled_from(["", "8D", "10H", "7X", "playing", "deal_over", "match_over", "scopa",
                       "scopone_scientifico", "scopone_classico", "players", "AD AH"]) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6)


def _paths(value: Any, path: tuple = ()) -> Iterator[tuple]:
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _paths(item, (*path, i))


def _get(value: Any, path: tuple) -> Any:
    for key in path:
        value = value[key]
    return value


@st.composite
def corrupted(draw) -> dict:
    state = play_to(draw(any_rules()), draw(seeds), draw(seeds), draw(st.integers(0, 80)))
    data = json.loads(json.dumps(state.to_dict()))
    for _ in range(draw(st.integers(1, 3))):
        paths = list(_paths(data))
        path = draw(st.sampled_from(paths[1:]))
        parent, key = _get(data, path[:-1]), path[-1]
        action = draw(st.sampled_from(["replace", "delete", "insert", "swap", "duplicate"]))
        if action == "replace":
            parent[key] = draw(json_values)
        elif action == "delete":
            del parent[key]
        elif action == "insert" and isinstance(parent, list):
            parent.insert(key, draw(json_values))
        elif action == "duplicate" and isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))  # a copy: JSON has no shared parts, so no swap makes a cycle
        elif action == "swap":
            other = draw(st.sampled_from(paths[1:]))
            if not (other[:len(path)] == path or path[:len(other)] == other):  # neither holds the other
                other_parent = _get(data, other[:-1])
                parent[key], other_parent[other[-1]] = other_parent[other[-1]], parent[key]
    return data


@settings(max_examples=300 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corrupted())
def test_corrupted_dicts_raise_scopa_error_or_give_a_valid_state(data):
    try:
        state = state_from_dict(data)
    except ScopaError as error:
        assert isinstance(error, ValueError) and str(error)
        return
    check_invariants(state)
    assert state_from_dict(json.loads(json.dumps(state.to_dict()))) == state
    for seat in range(state.rules.players):
        # What a seat cannot see is exactly the other hands and the stock, whatever the file held.
        hidden = {c for s, h in enumerate(state.hands) if s != seat for c in h} | set(state.stock)
        assert state.view(seat).unseen_cards() == frozenset(hidden)
    if state.phase is Phase.PLAYING:
        moves = state.legal_moves()
        assert moves  # an accepted state in play always has a move for the seat to move
        after, events = state.apply(moves[0])
        check_invariants(after)  # the forty cards still there, each once, every count right
        assert events and moves[0].card not in after.hands[state.to_move]
    elif state.phase is Phase.DEAL_OVER:
        after, events = state.next_deal()
        check_invariants(after)
        assert events and after.deal_number == state.deal_number + 1 and after.phase is Phase.PLAYING


@settings(max_examples=60 * SCALE, deadline=None)
@given(st.sampled_from(["rules", "hands", "table", "stock", "piles", "scope", "history", "phase", "round",
                        "to_move", "dealer", "deal_totals", "match_scores", "seed", "winner"]),
       json_values)
def test_any_field_replaced_by_junk_is_rejected_or_valid(field, junk):
    state, _ = new_match(Rules(players=3), seed=11)
    data = json.loads(json.dumps(state.to_dict()))
    data[field] = junk
    try:
        accepted = state_from_dict(data)
    except ScopaError as error:
        assert isinstance(error, ValueError) and str(error)  # refused with a reason to show
        return
    check_invariants(accepted)  # or taken, and then whole: forty cards, each once, every count right


def _tampered(state: GameState, change: str) -> dict:
    """The state's saved form with one change that keeps the 40 cards and every count right."""
    data = json.loads(json.dumps(state.to_dict()))
    if change == "extra scopa":
        data["scope"][0] += 1
    elif change == "pile swap":
        a, b = data["piles"][0], data["piles"][1]
        a[0], b[0] = b[0], a[0]
    elif change == "scopa flag":
        data["history"][0]["scopa"] = not data["history"][0]["scopa"]
    return data


@settings(max_examples=60 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(any_rules(), seeds, seeds, st.integers(1, 60), st.sampled_from(["extra scopa", "pile swap", "scopa flag"]))
def test_a_save_whose_piles_or_scope_disagree_with_its_plays_is_refused(rules, seed, move_seed, plays, change):
    state = play_to(rules, seed, move_seed, plays)
    if not state.history or (change == "pile swap" and not all(state.piles[:2])):
        return
    data = _tampered(state, change)
    try:
        state_from_dict(data)
    except ScopaError as error:
        assert "history" in str(error)
    else:
        raise AssertionError(f"a save with a {change} was accepted")


def test_an_extra_scopa_passes_the_card_counts_but_not_the_replay():
    rules = Rules(target=None)
    state = play_to(rules, 5, 5, 12)
    data = _tampered(state, "extra scopa")
    forged = state._replace(scope=tuple(data["scope"]))
    check_invariants(forged)  # every card and count still fits
    with pytest.raises(ScopaError, match="scope recorded do not match the sweeps in the history"):
        check_history(forged)


def test_a_float_player_count_in_a_save_is_a_scopa_error():
    state, _ = new_match(Rules(players=3), seed=3)
    data = json.loads(json.dumps(state.to_dict()))
    data["rules"]["players"] = 3.0
    try:
        state_from_dict(data)
    except ScopaError as error:
        assert "Scopa is played by 2, 3 or 4 players" in str(error)
    else:
        raise AssertionError("a float player count was accepted")
