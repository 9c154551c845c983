"""Scopa a 15, Cirulla, win by two and scopa a perdere (issue 32): properties and each rule sentence.

The properties walk random matches of each variant and check them against small reference
implementations written here from docs/rules.md (brute force over the table's subsets), not
from the engine's code. The hand-written cases take each sentence of the rules in both
directions: what it allows, and what it refuses.
"""
from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Iterator
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scopa.engine import (
    ALL_CARDS,
    Card,
    CardsCaptured,
    DealScored,
    GameState,
    HandClaimed,
    IllegalMoveError,
    MatchWon,
    OpeningTableTaken,
    Phase,
    Rules,
    RulesError,
    Scopa,
    ScopaError,
    Variant,
    bonuses,
    check_invariants,
    legal_captures,
    match_result,
    new_match,
    parse_cards,
    score_deal,
    state_from_dict,
)
from scopa.engine.scoring import Category
from scopa.engine.state import _start_deal

SCALE = int(os.environ.get("SCOPA_TEST_SCALE", "1"))
FAST = settings(max_examples=30 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**40)


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text.split())


def captures(card: str, table: str, rules: Rules) -> set[tuple[Card, ...]]:
    return set(legal_captures(Card.parse(card), cards(table), rules))


def caps(*groups: str) -> set[tuple[Card, ...]]:
    return {tuple(sorted(cards(g))) for g in groups}


@st.composite
def variant_rules(draw, variant: Variant) -> Rules:
    players = draw(st.sampled_from([2, 3, 4]))
    options = {"napola": draw(st.booleans()), "re_bello": draw(st.booleans()),
               "kings_redeal": draw(st.booleans())}
    target = draw(st.sampled_from([None, 51] if variant is Variant.CIRULLA else [None, 11, 16, 21]))
    if target is not None:
        options["win_by_two"] = draw(st.booleans())
    if variant is Variant.SCOPA_15:
        options["a_perdere"] = draw(st.booleans())
        options |= {name: draw(st.booleans()) for name in ("opening_to_leader", "opening_pairs")}
    if variant is Variant.CIRULLA:
        options |= {name: draw(st.booleans()) for name in ("grande_piccola", "ace_scopa", "matta_table",
                                                           "table_nine", "cappotto")}
        options["napola"] = options["napola"] and not options["grande_piccola"]
    return Rules(players=players, variant=variant, target=target, **options)


# Reference rules, written from docs/rules.md -----------------------------------------------------
def _subsets(table: tuple[Card, ...]) -> Iterator[tuple[Card, ...]]:
    for size in range(1, len(table) + 1):
        yield from (tuple(sorted(g)) for g in combinations(table, size))


def reference_captures(card: Card, table: tuple[Card, ...], rules: Rules) -> set[tuple[Card, ...]]:
    fifteen = {g for g in _subsets(table) if card.value + sum(c.value for c in g) == 15}
    if rules.variant is Variant.SCOPA_15:
        return fifteen
    # Cirulla: an ace takes the whole table unless an ace is on it.
    if card.value == 1 and table and not any(c.value == 1 for c in table):
        return {tuple(sorted(table))}
    singles = {(c,) for c in table if c.value == card.value}
    if singles:
        return singles | fifteen
    sums = {g for g in _subsets(table) if len(g) > 1 and sum(c.value for c in g) == card.value}
    if sums:
        fewest = min(len(g) for g in sums)
        sums = {g for g in sums if len(g) == fewest}
    return sums | fifteen


def reference_opening(table: tuple[Card, ...], rules: Rules | None = None) -> int:
    """What a first table is worth, from the sentences of "Scopa a 15", "Cirulla" and their options."""
    rules = rules or Rules.cirulla()
    matta = Card.parse("7H")
    choices = [table]
    if rules.matta_table and matta in table:  # the matta as any card of the other suits' values
        choices = [(*(c for c in table if c != matta), Card.parse(f"{r}S")) for r in "A234567JQK"]
    worth = 0
    for cards_ in choices:
        total = sum(c.value for c in cards_)
        pairs = any(a.value + b.value == 15 for a, b in combinations(cards_, 2))
        if total == 15:
            worth = max(worth, 1)
        elif total == 30 and (pairs or not rules.opening_pairs):
            worth = max(worth, 2)
        elif total <= 9 and rules.table_nine:
            worth = max(worth, 3)
    return worth


def reference_runs(pile: tuple[Card, ...]) -> tuple[int, int]:
    """Cirulla's grande and piccola of a pile: J, Q, K of coins 5 and A, 2, 3 of coins 3, each one
    more for every next coin in sequence (the grande down to the six, the piccola up to the six)."""
    coins = {c.rank for c in pile if str(c).endswith("D")}
    grande = piccola = 0
    if {"J", "Q", "K"} <= coins:
        grande = 5 + ("7" in coins) + ("7" in coins and "6" in coins)
    if {"A", "2", "3"} <= coins:
        for count, rank in enumerate("456", start=4):
            if rank not in coins:
                break
            piccola = count
        piccola = piccola or 3
    return grande, piccola


def reference_result(totals: tuple[int, ...], rules: Rules, coins: tuple[int, ...] = ()) -> tuple[int | None, bool]:
    """Who wins, straight from the sentences of "Winning the match" and its options (``coins``: each
    side's coins in the deal just played, for Cirulla's cappotto)."""
    if rules.cappotto and 10 in coins:
        return coins.index(10), True
    order = sorted(range(len(totals)), key=lambda s: totals[s], reverse=not rules.a_perdere)
    first, second = order[0], order[1]
    gap = abs(totals[first] - totals[second])
    if rules.target is None:
        return (first if gap else None), True
    needed = 2 if rules.win_by_two else 1
    if max(totals) >= rules.target and gap >= needed:
        return first, True
    return None, False


def walk(rules: Rules, seed: int, move_seed: int, max_deals: int = 2) -> Iterator[tuple[GameState | None, object,
                                                                                      GameState, list]]:
    rng = random.Random(move_seed)
    state, events = new_match(rules, seed=seed)
    yield None, None, state, events
    deals = 1
    while True:
        if state.phase is Phase.PLAYING and state.claimable() and rng.random() < 0.7:
            move = "claim"  # Cirulla: most hands worth a bonus claim it
            after, events = state.claim()
        elif state.phase is Phase.PLAYING:
            moves = state.legal_moves()
            move = moves[rng.randrange(len(moves))]
            after, events = state.apply(move)
        elif state.phase is Phase.DEAL_OVER and deals < max_deals:
            move = None
            after, events = state.next_deal()
            deals += 1
        else:
            return
        yield state, move, after, events
        state = after


# Properties, per variant -----------------------------------------------------------------------------
@pytest.mark.parametrize("variant", [Variant.SCOPA_15, Variant.CIRULLA])
@FAST
@given(data=st.data(), seed=seeds, move_seed=seeds)
def test_every_state_of_a_variant_holds_the_forty_cards_and_round_trips(variant, data, seed, move_seed):
    rules = data.draw(variant_rules(variant))
    for _, _, state, _ in walk(rules, seed, move_seed):
        check_invariants(state)
        held = [c for h in state.hands for c in h] + list(state.table) + list(state.stock)
        held += [c for p in state.piles for c in p]
        assert sorted(held) == list(ALL_CARDS)
        assert state_from_dict(state.to_dict()) == state  # the replayed history agrees


@pytest.mark.parametrize("variant", [Variant.SCOPA_15, Variant.CIRULLA])
@FAST
@given(data=st.data(), seed=seeds, move_seed=seeds)
def test_every_capture_offered_is_legal_under_the_variants_rule(variant, data, seed, move_seed):
    rules = data.draw(variant_rules(variant))
    for before, move, state, events in walk(rules, seed, move_seed, max_deals=1):
        if state.phase is not Phase.PLAYING:
            continue
        moves = state.legal_moves()
        hand = state.hands[state.to_move]
        assert len(set(moves)) == len(moves) and {m.card for m in moves} == set(hand)
        for card in hand:
            offered = {m.capture for m in moves if m.card == card}
            expected = reference_captures(card, state.table, rules)
            assert offered == (expected or {()})  # a card that can take must take
        if move is not None and move != "claim" and move.capture:
            cleared = set(before.table) == set(move.capture)
            last = not state.stock and not any(state.hands)
            ace_all = (variant is Variant.CIRULLA and move.card.value == 1 and not rules.ace_scopa
                       and not any(c.value == 1 for c in before.table))
            assert any(isinstance(e, Scopa) for e in events) == (cleared and not last and not ace_all)


@pytest.mark.parametrize("variant", [Variant.SCOPA_15, Variant.CIRULLA])
@FAST
@given(data=st.data(), seed=seeds, move_seed=seeds)
def test_variant_scores_add_up(variant, data, seed, move_seed):
    rules = data.draw(variant_rules(variant))
    scope_events: Counter[int] = Counter()
    bonus = [0] * rules.sides
    for before, _, state, events in walk(rules, seed, move_seed, max_deals=3):
        for event in events:
            if isinstance(event, HandClaimed):
                assert event.points == {"cirulla": 3, "tris": 10}[event.kind]
                bonus[event.side] += event.points
            if isinstance(event, OpeningTableTaken):
                assert event.scope == reference_opening(event.cards, rules) > 0
                scope_events[event.side] += event.scope
            if isinstance(event, Scopa):
                scope_events[event.side] += 1
            if isinstance(event, DealScored):
                assert [s.scope for s in event.score.sides] == [scope_events[s] for s in range(rules.sides)]
                assert event.score == score_deal(state.piles, state.scope, rules, bonus)
                assert [s.bonus for s in event.score.sides] == list(bonus)
                runs = [reference_runs(p) if rules.grande_piccola else (0, 0) for p in state.piles]
                assert [(s.grande, s.piccola) for s in event.score.sides] == runs
                assert all(s.total == sum(s.points.values()) for s in event.score.sides)
                assert before is not None
                added = zip(before.match_scores, event.score.totals, strict=True)
                assert event.match_scores == tuple(a + b for a, b in added)
                scope_events = Counter()
                bonus = [0] * rules.sides
            if isinstance(event, MatchWon):
                coins = tuple(s.coins for s in state.deal_score.sides)
                assert (event.side, True) == reference_result(state.match_scores, rules, coins)
        if any(isinstance(e, DealScored) for e in events) and state.phase is Phase.DEAL_OVER:
            coins = tuple(s.coins for s in state.deal_score.sides)
            assert reference_result(state.match_scores, rules, coins) == (None, False)
        assert state.match_scores == tuple(sum(t[i] for t in state.deal_totals) for i in range(rules.sides))


@FAST
@given(seed=seeds)
def test_the_first_table_goes_to_the_dealer_exactly_when_it_makes_fifteen_or_thirty(seed):
    for rules in (Rules.scopa_15(), Rules.cirulla(players=4)):
        state, events = new_match(rules, seed)
        taken = [e for e in events if isinstance(e, OpeningTableTaken)]
        dealt = next(e for e in events if getattr(e, "table", None))
        expected = reference_opening(dealt.table, rules)
        assert len(taken) == (expected > 0)
        if expected:
            side = rules.side_of(state.dealer)
            assert state.table == () and sorted(state.piles[side]) == sorted(dealt.table)
            assert state.scope[side] == expected and state.last_capturer == state.dealer
        else:
            assert state.table == dealt.table and state.scope == (0,) * rules.sides
    scopa, _ = new_match(Rules(), seed)  # plain Scopa never does
    assert len(scopa.table) == 4 and not any(scopa.piles)


@FAST
@given(seed=seeds)
def test_cirulla_never_starts_with_two_aces_on_the_table(seed):
    _state, events = new_match(Rules.cirulla(), seed)
    first = next(e for e in events if getattr(e, "table", None) is not None).table
    assert sum(1 for c in first if c.value == 1) < 2


# Hand-written cases: Scopa a 15 ------------------------------------------------------------------
R15 = Rules.scopa_15()


def test_scopa_15_takes_any_group_that_makes_fifteen_with_the_card():
    assert captures("7C", "JD 3H 5S 7D", R15) == caps("JD", "3H 5S")
    assert captures("AC", "4D KH 2S 2H", R15) == caps("4D KH", "KH 2S 2H")  # 1 + 14, with two cards or three


def test_scopa_15_refuses_a_group_that_does_not_make_fifteen():
    state = _position(R15, hand="7C", table="7D 2S")
    with pytest.raises(IllegalMoveError):
        state.apply(("7C", ["7D"]))  # an equal card is no capture here: 7 + 7 is 14
    assert captures("7C", "7D 2S", R15) == set()


def test_scopa_15_has_no_single_card_priority():
    assert captures("5C", "5D KH", R15) == caps("KH")  # Scopa would take the five
    assert captures("5C", "5D KH", Rules()) == caps("5D")
    assert captures("3C", "2D KH QS AS", R15) == caps("2D KH", "QS AS 2D")  # one card or three, the player's choice


def test_scopa_15_face_cards_count_eight_nine_and_ten():
    assert captures("7C", "JD", R15) == caps("JD")
    assert captures("6C", "QD", R15) == caps("QD")
    assert captures("5C", "KD", R15) == caps("KD")
    assert captures("6C", "JD", R15) == set() and captures("5C", "QD", R15) == set()


def test_scopa_15_a_card_that_can_take_must_take_and_one_that_cannot_stays():
    state = _position(R15, hand="7C 2C", table="JD 4S")
    with pytest.raises(IllegalMoveError) as error:
        state.apply(("7C", []))
    assert error.value.code == "must_capture"
    after, _events = state.apply(("2C", []))
    assert set(after.table) == set(cards("JD 4S 2C"))


def test_scopa_15_sweep_is_a_scopa_but_not_on_the_last_play():
    state = _position(R15, hand="7C 2C", table="JD")
    _, events = state.apply(("7C", ["JD"]))
    assert any(isinstance(e, Scopa) for e in events)
    last = _position(R15, hand="7C", table="JD", last=True)
    _after, events = last.apply(("7C", ["JD"]))
    assert not any(isinstance(e, Scopa) for e in events)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_scopa_15_is_played_by_two_three_and_four(players):
    rules = Rules.scopa_15(players=players)
    state, _ = new_match(rules, 3)
    assert rules.sides == (2 if players == 4 else players) and len(state.hands) == players


def test_scopa_15_scoring_is_scopas():
    piles = (cards("7D 6H AS 7C 2D 3D 4D 5D 6D JD QD"), cards("KD 7H"))
    assert score_deal(piles, (1, 0), R15) == score_deal(piles, (1, 0), Rules())


@pytest.mark.parametrize("table, scope", [("AC 2S 4S JH", 1), ("5S 7S JC KD", 2), ("AC 2S 4S QH", 0),
                                          ("AC 2S 4S 7H", 0), ("KC KS KH 5D", 0)])
def test_the_dealer_takes_a_first_table_of_fifteen_or_thirty(table, scope, monkeypatch):
    _deal_first(monkeypatch, table)
    for rules in (R15, Rules.cirulla()):
        state, events = _start_deal(rules, 0, 1, 0, (0, 0), ())
        assert [e.scope for e in events if isinstance(e, OpeningTableTaken)] == ([scope] if scope else [])
        assert state.scope[rules.side_of(state.dealer)] == scope
        assert (state.table == ()) == bool(scope)
        assert state_from_dict(state.to_dict()) == state
    state, events = _start_deal(Rules(kings_redeal=False), 0, 1, 0, (0, 0), ())  # not in Scopa
    assert len(state.table) == 4 and state.scope == (0, 0)


def test_scopa_options_that_change_captures_are_refused_with_the_fifteen_games():
    for name in ("faces_match_only", "most_cards", "asso_piglia_tutto"):
        for factory in (Rules.scopa_15, Rules.cirulla):
            with pytest.raises(RulesError) as error:
                factory(**{name: True})
            assert error.value.code == "variant_option"
    assert Rules.scopa_15(napola=True, re_bello=True).napola


# Hand-written cases: Cirulla -----------------------------------------------------------------------
RC = Rules.cirulla()


def test_cirulla_takes_an_equal_card_or_makes_fifteen_but_not_a_sum_beside_an_equal_card():
    # The example of regoledelgioco.com: a seven on 3, 5, 6 and 7 takes the 7, or 3 and 5 to make 15.
    assert captures("7C", "3H 5S 6D 7D", RC) == caps("7D", "3H 5S")
    assert captures("7C", "2H 5S 7D", RC) == caps("7D")  # 2 + 5 is a sum: the equal card comes first


def test_cirulla_among_sums_only_the_fewest_cards():
    assert captures("KC", "AH 3S 4D 6C", RC) == caps("4D 6C", "AH 4D")  # not A + 3 + 6; A + 4 makes 15
    assert captures("KC", "AH 2S 3D 4C", RC) == caps("AH 2S 3D 4C", "AH 4C", "2S 3D")  # one sum only


def test_cirulla_makes_fifteen_with_the_played_card():
    assert captures("3C", "KH 2S", RC) == caps("KH 2S")
    assert captures("3C", "KH 3S", RC) == caps("3S")  # 3 + 10 + 3 is 16: only the equal card


def test_cirulla_an_ace_takes_the_whole_table_and_that_is_a_scopa():
    state = _position(RC, hand="AC 2C", table="3H KS 7D")
    assert state.legal_moves()[0].capture == tuple(sorted(cards("3H KS 7D")))
    after, events = state.apply(("AC", ["3H", "KS", "7D"]))
    assert after.table == () and sum(isinstance(e, Scopa) for e in events) == 1
    assert next(e for e in events if isinstance(e, CardsCaptured)).whole_table
    assert after.history[-1].scopa
    with pytest.raises(IllegalMoveError):
        state.apply(("AC", ["3H"]))  # only the whole table


def test_cirulla_without_ace_scopa_the_ace_taking_the_whole_table_is_no_scopa():
    state = _position(Rules.cirulla(ace_scopa=False), hand="AC 2C", table="3H KS 7D")
    after, events = state.apply(("AC", ["3H", "KS", "7D"]))
    assert after.table == () and not any(isinstance(e, Scopa) for e in events)
    assert next(e for e in events if isinstance(e, CardsCaptured)).whole_table
    assert not after.history[-1].scopa


@pytest.mark.parametrize("ace_scopa", [True, False])
def test_cirulla_an_ace_on_a_table_worth_fourteen_is_a_scopa_only_as_the_ace_scopa_option_says(ace_scopa):
    # 4 + 10 and the ace make 15, but the ace takes the whole table by its own rule, without counting:
    # a scopa under ace_scopa, as every whole table it takes; never without it, as the Cirulla of
    # older records played it (so their files replay as they were).
    state = _position(Rules.cirulla(ace_scopa=ace_scopa), hand="AC 2C", table="4H KS")
    after, events = state.apply(("AC", ["4H", "KS"]))
    assert (sum(isinstance(e, Scopa) for e in events) == 1) == ace_scopa == after.history[-1].scopa
    assert next(e for e in events if isinstance(e, CardsCaptured)).whole_table
    ace_on_table = _position(Rules.cirulla(ace_scopa=ace_scopa), hand="AC 2C", table="AH 3S KD")  # 1 + 3 + 10
    assert captures("AC", "AH 3S KD", Rules.cirulla(ace_scopa=ace_scopa)) == caps("AH", "AH 3S KD")
    _after, events = ace_on_table.apply(("AC", ["AH", "3S", "KD"]))  # a capture by fifteen: a scopa in both
    assert sum(isinstance(e, Scopa) for e in events) == 1


def test_cirulla_the_ace_taking_the_whole_table_on_the_last_play_is_no_scopa():
    state = _position(RC, hand="AC", table="3H KS 7D", last=True)
    after, events = state.apply(("AC", ["3H", "KS", "7D"]))
    assert not any(isinstance(e, Scopa) for e in events) and after.is_deal_over


def test_cirulla_an_ace_on_the_table_stops_the_ace_taking_all():
    assert captures("AC", "AH 4S KD 7D", RC) == caps("AH", "4S KD")
    state = _position(RC, hand="AC 2C", table="AH")
    _after, events = state.apply(("AC", ["AH"]))
    assert any(isinstance(e, Scopa) for e in events)  # an ace taking an ace is a scopa as any sweep


def test_cirulla_an_ace_on_an_empty_table_stays():
    assert captures("AC", "", RC) == set()


def test_cirulla_two_aces_on_the_first_table_mean_a_redeal_and_scopa_keeps_them():
    redealt = [seed for seed in range(400) if new_match(RC, seed)[0].redeals]
    assert redealt  # some seed dealt two aces first
    seed = redealt[0]
    first = _start_deal(Rules(kings_redeal=False), seed, 1, 0, (0, 0), ())[0]  # the same shuffle in Scopa
    assert first.redeals == 0 and sum(1 for c in first.table if c.value == 1) >= 2


def test_cirulla_is_played_to_fifty_one():
    assert RC.target == 51 and Rules.cirulla(target=None).single_deal
    for target in (11, 21, 50):
        with pytest.raises(RulesError) as error:
            Rules.cirulla(target=target)
        assert error.value.code == "cirulla_target"
    with pytest.raises(RulesError):
        Rules(target=51)  # 51 is Cirulla's
    assert match_result((50, 30), RC) == (None, False) and match_result((51, 30), RC) == (0, True)


# Cirulla's hand bonuses and the matta -------------------------------------------------------------
@pytest.mark.parametrize("hand, found", [
    ("AD 2S 6C", ("cirulla",)), ("3D 3S 3C", ("cirulla", "tris")), ("KD KS KC", ("tris",)),
    ("AD 2S 7C", ()), ("2D 3S 5C", ()),  # 10: one too many
    ("7H 2S 6C", ("cirulla",)), ("7H 3S 6C", ()),  # the matta counts one toward a cirulla
    ("7H QD QS", ("tris",)), ("7H 4D 4S", ("cirulla", "tris")), ("7H QD KS", ()),  # or the others' rank
    ("7D QD KS", ()),  # only the seven of cups is the matta
])
def test_cirulla_bonuses_of_a_hand(hand, found):
    assert bonuses(cards(hand)) == found


def test_the_matta_in_play_is_a_seven():
    assert captures("7H", "7D 3S", RC) == caps("7D")  # an equal seven; 7 + 3 is not 15
    assert captures("7H", "JD", RC) == caps("JD")  # 7 + 8 make 15


def _cirulla_to_claim(kind: str) -> GameState:
    """A new Cirulla match whose seat to move holds a hand worth ``kind``."""
    for seed in range(2000):
        state, _ = new_match(RC, seed)
        if state.claimable() == kind:
            return state
    raise AssertionError(f"no seed deals a {kind}")


@pytest.mark.parametrize("kind, points", [("cirulla", 3), ("tris", 10)])
def test_a_claimed_bonus_is_scored_and_the_hand_is_shown_to_everyone_after_never_before(kind, points):
    state = _cirulla_to_claim(kind)
    seat, other = state.to_move, (state.to_move + 1) % 2
    hand = state.hands[seat]
    assert state.view(other).shown_hand(seat) is None and set(hand) <= state.view(other).unseen_cards()
    after, events = state.claim()
    assert events == [HandClaimed(seat, seat, kind, points, hand)]
    assert after.to_move == seat and after.hands == state.hands  # the claimer plays next
    view = after.view(other)
    assert view.shown_hand(seat) == hand and not set(hand) & view.unseen_cards()
    move = after.legal_moves()[0]
    after, _ = after.apply(move)
    assert after.view(other).shown_hand(seat) == tuple(c for c in hand if c != move.card)
    assert state_from_dict(after.to_dict()) == after
    while not after.is_deal_over:
        after, _ = after.apply(after.legal_moves()[0])
    sheet = after.deal_score
    assert sheet.sides[seat].bonus == points and sheet.sides[seat].points[Category.BONUS] == points
    assert sheet.sides[other].bonus == 0


def test_a_bonus_is_claimed_only_before_the_hands_first_card_and_once():
    state = _cirulla_to_claim("cirulla")
    claimed, _ = state.claim()
    with pytest.raises(IllegalMoveError) as error:
        claimed.claim()
    assert error.value.code == "no_claim"
    seat = state.to_move
    played, _ = state.apply(state.legal_moves()[0])  # not claimed: after a card it is too late
    while played.to_move != seat:
        played, _ = played.apply(played.legal_moves()[0])
    assert played.round == state.round and played.claimable() is None
    with pytest.raises(IllegalMoveError):
        played.claim()


def test_a_hand_worth_no_bonus_and_other_games_cannot_claim():
    for seed in range(50):
        state, _ = new_match(RC, seed)
        if state.claimable() is None:
            with pytest.raises(IllegalMoveError):
                state.claim()
            break
    plain, _ = new_match(Rules(), 0)
    assert plain.claimable() is None and new_match(R15, 0)[0].claimable() is None


def test_a_saved_claim_that_the_hands_do_not_bear_out_is_refused():
    state = _cirulla_to_claim("tris")
    data = state.claim()[0].to_dict()
    data["claims"][0]["kind"] = "cirulla" if "cirulla" not in bonuses(state.hands[state.to_move]) else "tris"
    data["claims"][0]["cards"] = [str(c) for c in state.hands[(state.to_move + 1) % 2]]
    with pytest.raises(ScopaError) as error:
        state_from_dict(data)
    assert error.value.code == "claim_wrong"


# Win by two and scopa a perdere ------------------------------------------------------------------
@pytest.mark.parametrize("variant", list(Variant))
def test_win_by_two_is_an_option_of_every_variant(variant):
    rules = Rules.for_variant(variant, players=4, win_by_two=True)
    target = rules.target
    assert match_result((target, target - 1), rules) == (None, False)  # one ahead: play on
    assert match_result((target + 1, target - 1), rules) == (0, True)
    assert match_result((target + 3, target + 2), rules) == (None, False)
    assert match_result((target + 2, target + 4), rules) == (1, True)
    plain = Rules.for_variant(variant, players=4)
    assert match_result((target, target - 1), plain) == (0, True)


def test_win_by_two_with_three_players_needs_two_over_each_other_player():
    rules = Rules(players=3, win_by_two=True)
    assert match_result((12, 11, 3), rules) == (None, False)
    assert match_result((13, 11, 3), rules) == (0, True)


def test_win_by_two_needs_a_target():
    with pytest.raises(RulesError) as error:
        Rules(target=None, win_by_two=True)
    assert error.value.code == "win_by_two_single"


@pytest.mark.parametrize("factory", [Rules, Rules.scopa_15])
def test_scopa_a_perdere_the_lowest_score_wins(factory):
    rules = factory(a_perdere=True)
    assert match_result((11, 6), rules) == (1, True)
    assert match_result((6, 12), rules) == (0, True)
    assert match_result((10, 6), rules) == (None, False)  # nobody at the target yet
    assert match_result((11, 11), rules) == (None, False)  # tied lowest: another deal
    single = factory(a_perdere=True, target=None)
    assert match_result((3, 5), single) == (0, True) and match_result((4, 4), single) == (None, True)
    both = factory(a_perdere=True, win_by_two=True)
    assert match_result((11, 10), both) == (None, False) and match_result((11, 9), both) == (1, True)


@pytest.mark.parametrize("factory", [Rules.cirulla, Rules.scopone_scientifico, Rules.scopone_classico])
def test_scopa_a_perdere_is_refused_beside_scopa_and_scopa_15(factory):
    with pytest.raises(RulesError) as error:
        factory(a_perdere=True)
    assert error.value.code == "variant_option"


def test_an_older_rules_record_without_the_new_options_still_loads():
    old = {"players": 2, "variant": "scopa", "target": 11, "kings_redeal": True, "faces_match_only": False,
           "most_cards": False, "napola": False, "re_bello": False, "asso_piglia_tutto": False}
    rules = Rules.from_dict(old)
    assert rules == Rules() and not rules.win_by_two and not rules.a_perdere
    assert Rules.from_dict(Rules.cirulla(win_by_two=True).to_dict()) == Rules.cirulla(win_by_two=True)


# Helpers ---------------------------------------------------------------------------------------
def _position(rules: Rules, hand: str, table: str, last: bool = False) -> GameState:
    """Seat 0 to move holding ``hand`` on ``table``; seat 1 holds a card, unless ``last``."""
    held = cards(hand)
    on_table = cards(table)
    rest = [c for c in ALL_CARDS if c not in held and c not in on_table]
    other = () if last else (rest.pop(),)
    state, _ = new_match(rules, 1, first_dealer=1)
    side_piles = (tuple(rest), ()) if rules.sides == 2 else (tuple(rest),) + ((),) * (rules.sides - 1)
    return state._replace(to_move=0, hands=(held, other) + ((),) * (rules.players - 2), table=on_table,
                          stock=(), piles=side_piles, scope=(0,) * rules.sides, history=(), last_capturer=None)


def _deal_first(monkeypatch: pytest.MonkeyPatch, table: str) -> None:
    """Every deal starts with ``table`` as its first four cards (no redeal)."""
    wanted = cards(table)
    deck = list(wanted) + [c for c in ALL_CARDS if c not in wanted]
    monkeypatch.setattr("scopa.engine.state._shuffled_deal", lambda rules, seed, deal: (list(deck), 0))


@FAST
@given(players=st.sampled_from([2, 3, 4]), target=st.sampled_from([11, 16, 21]), by_two=st.booleans(),
       perdere=st.booleans(), seed=seeds, move_seed=seeds)
def test_scopas_matches_end_as_win_by_two_and_a_perdere_say(players, target, by_two, perdere, seed, move_seed):
    rules = Rules(players=players, target=target, win_by_two=by_two, a_perdere=perdere)
    for _, _, state, events in walk(rules, seed, move_seed, max_deals=12):
        if any(isinstance(e, DealScored) for e in events):
            expected = reference_result(state.match_scores, rules)
            assert (state.winner, state.is_match_over) == expected
            assert [e for e in events if isinstance(e, MatchWon)] == (
                [MatchWon(expected[0], state.match_scores)] if expected[1] else [])
