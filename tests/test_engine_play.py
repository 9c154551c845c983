"""Playing through GameState: sweeps, the end of a deal, illegal moves, dealing, turn order, match flow.

Exact positions are built with ``_replace`` on a state from ``new_match``: the hands, table and
stock are given, and every other card goes to the capture piles so that all 40 are accounted for.
"""
from __future__ import annotations

import pytest

from scopa.engine import (
    ALL_CARDS,
    Card,
    CardPlayed,
    CardsCaptured,
    CardsDealt,
    CardStaysOnTable,
    DealScored,
    DealStarted,
    GameState,
    IllegalMoveError,
    IllegalReason,
    LeftoversTaken,
    MatchWon,
    Move,
    Phase,
    Rules,
    Scopa,
    cards_str,
    check_invariants,
    new_deal,
    new_match,
    next_seat,
    parse_cards,
    score_deal,
)


def position(rules: Rules | None = None, *, hands: list[str], table: str = "", stock: str = "",
             to_move: int | None = None, dealer: int = 0, last_capturer: int | None = None,
             piles: list[str] | None = None, match_scores: tuple[int, ...] | None = None) -> GameState:
    """A position with these hands, table and stock; the other cards are split among the piles.

    Only the cards are consistent: the history stays empty, so ``check_invariants`` would object.
    """
    rules = rules or Rules()
    state, _ = new_match(rules, seed=0, first_dealer=dealer)
    hand_cards = tuple(parse_cards(h) for h in hands)
    table_cards, stock_cards = parse_cards(table), parse_cards(stock)
    placed = [c for h in hand_cards for c in h] + list(table_cards) + list(stock_cards)
    if piles is None:
        rest = [c for c in ALL_CARDS if c not in placed]
        pile_cards = tuple(tuple(rest[side::rules.sides]) for side in range(rules.sides))
    else:
        pile_cards = tuple(parse_cards(p) for p in piles)
    assert sorted(placed + [c for p in pile_cards for c in p]) == list(ALL_CARDS), "a card is missing or twice"
    changes = {}
    if match_scores is not None:  # as if one earlier deal scored exactly this
        changes = {"match_scores": match_scores, "deal_totals": (match_scores,), "deal_number": 2}
    rounds_left = len(stock_cards) // (rules.players * rules.hand_size)
    return state._replace(hands=hand_cards, table=table_cards, stock=stock_cards, piles=pile_cards,
                          round=rules.rounds - rounds_left,
                          to_move=state.to_move if to_move is None else to_move,
                          last_capturer=last_capturer, **changes)


def move(text: str) -> Move:
    return Move.parse(text)


def kinds(events) -> list[str]:
    return [type(e).__name__ for e in events]


# Sweeps ------------------------------------------------------------------------------------------------
def test_six_takes_two_three_ace_and_sweeps():
    state = position(hands=["KD 5S", "6C 4D"], table="2D 3H AS", stock="", to_move=1)
    after, events = state.apply(move("6C takes 2D 3H AS"))
    assert kinds(events) == ["CardPlayed", "CardsCaptured", "Scopa"]
    assert events[1] == CardsCaptured(1, Card.parse("6C"), parse_cards("AS 2D 3H"), False)
    assert events[2] == Scopa(seat=1, side=1, side_total=1)
    assert after.table == () and after.scope == (0, 1)
    assert after.piles[1][-4:] == parse_cards("AS 2D 3H 6C")
    assert after.history[-1].scopa and after.last_capturer == 1 and after.to_move == 0


def test_six_clearing_on_the_last_play_of_the_deal_is_not_a_scopa():
    state = position(hands=["", "6C"], table="2D 3H AS", to_move=1)
    after, events = state.apply(move("6C 2D 3H AS"))
    assert "Scopa" not in kinds(events) and "LeftoversTaken" not in kinds(events)
    assert after.scope == (0, 0) and not after.history[-1].scopa
    assert after.phase is not Phase.PLAYING and "DealScored" in kinds(events)
    assert set(parse_cards("AS 2D 3H 6C")) <= set(after.piles[1])


def test_clearing_on_the_last_play_of_an_earlier_round_is_a_scopa():
    state = position(hands=["", "6C"], table="2D 3H AS", stock="AD 2H 3S 4C 5D 6H", to_move=1)
    after, events = state.apply(move("6C 2D 3H AS"))
    assert kinds(events) == ["CardPlayed", "CardsCaptured", "Scopa", "CardsDealt"]
    assert after.scope == (0, 1) and after.phase is Phase.PLAYING
    assert events[-1].round == after.round == 6 and after.stock == ()
    assert after.to_move == after.leader == 1 and [len(h) for h in after.hands] == [3, 3]


def test_seven_sweeps_three_and_four_then_the_next_card_must_stay():  # seed 000
    state = position(hands=["5S 7H", "7C 4D"], table="3D 4H", stock="AD 2H 3S 4C 5D 6H", to_move=1)
    after, events = state.apply(move("7C 3D 4H"))
    assert "Scopa" in kinds(events) and after.scope == (0, 1)
    assert after.legal_moves() == [Move(Card.parse("5S")), Move(Card.parse("7H"))]
    after, events = after.apply(move("5S"))
    assert kinds(events) == ["CardPlayed", "CardStaysOnTable"] and after.table == parse_cards("5S")


def test_a_card_that_stays_is_not_a_sweep():  # seed 001: a king and a 5, a 4 is played
    state = position(hands=["4C JD", "QS"], table="KD 5H", stock="AD 2H 3S", to_move=0)
    after, events = state.apply(move("4C"))
    assert events == [CardPlayed(0, Card.parse("4C")), CardStaysOnTable(0, Card.parse("4C"))]
    assert after.table == parse_cards("KD 5H 4C") and after.scope == (0, 0)


def test_two_sweeps_in_a_deal_score_two():
    state = position(hands=["KS 5C", "3D 5D"], table="3H", stock="", to_move=1)
    state, first = state.apply(move("3D 3H"))
    state, _ = state.apply(move("5C"))
    state, second = state.apply(move("5D 5C"))
    assert Scopa(1, 1, 1) in first and Scopa(1, 1, 2) in second and state.scope == (0, 2)
    state, last = state.apply(move("KS"))  # the last play: KS stays and goes to seat 2 as leftovers
    assert LeftoversTaken(1, 1, parse_cards("KS")) in last
    assert state.deal_score.sides[1].points["scope"] == 2


def test_partners_share_a_pile_and_their_scope_in_four_player_scopa():
    rules = Rules(players=4)
    # Dealer 0: seat 3 leads, then 2, 1, 0.
    state = position(rules, hands=["AC", "AS", "4C 2C", "AH"], table="4D", stock="", to_move=2, dealer=0)
    state, events = state.apply(move("4C 4D"))
    assert Scopa(seat=2, side=0, side_total=1) in events
    assert state.scope == (1, 0) and state.piles[0][-2:] == parse_cards("4D 4C") and state.to_move == 1


def test_asso_piglia_tutto_ace_takes_the_whole_table_and_it_is_not_a_scopa():
    rules = Rules(asso_piglia_tutto=True)
    state = position(rules, hands=["KS", "AC 4D"], table="5D KH 3S 7D", stock="AD 2H 3C 4S 5H 6C", to_move=1)
    assert move("AC 3S 5D 7D KH") in state.legal_moves()
    after, events = state.apply(move("AC 3S 5D 7D KH"))
    assert events[1] == CardsCaptured(1, Card.parse("AC"), parse_cards("3S 5D 7D KH"), True)
    assert "Scopa" not in kinds(events) and after.table == () and after.scope == (0, 0)
    assert set(parse_cards("AC 3S 5D 7D KH")) <= set(after.piles[1])


def test_asso_piglia_tutto_ace_matching_the_last_table_ace_is_a_plain_sweep():
    rules = Rules(asso_piglia_tutto=True)
    state = position(rules, hands=["KS", "AC 4D"], table="AD", stock="2H 3C 4S 5H 6C 7C", to_move=1)
    _after, events = state.apply(move("AC AD"))
    assert events[1].whole_table is False and Scopa(1, 1, 1) in events


# End of the deal ------------------------------------------------------------------------------------
def test_leftovers_go_to_the_last_capturer_and_are_not_a_scopa():
    state = position(hands=["KD", ""], table="2D 5H", to_move=0, last_capturer=1)
    pile_before = state.piles[1]
    after, events = state.apply(move("KD"))
    assert LeftoversTaken(seat=1, side=1, cards=parse_cards("2D 5H KD")) in events
    assert "Scopa" not in kinds(events) and after.scope == (0, 0)
    assert after.table == () and after.piles[1] == pile_before + parse_cards("2D 5H KD")
    assert sum(len(p) for p in after.piles) == 40


def test_the_last_capture_of_the_deal_takes_the_leftovers_too():
    state = position(hands=["5C", ""], table="2D 5H", to_move=0, last_capturer=1)
    after, events = state.apply(move("5C 5H"))
    assert LeftoversTaken(seat=0, side=0, cards=parse_cards("2D")) in events
    assert after.scope == (0, 0) and after.piles[0][-3:] == parse_cards("5H 5C 2D")


def test_leftovers_stay_when_nobody_captured():
    state = position(hands=["KD", ""], table="2D 5H", to_move=0, last_capturer=None)
    after, events = state.apply(move("KD"))
    assert LeftoversTaken(seat=None, side=None, cards=parse_cards("2D 5H KD")) in events
    assert after.table == parse_cards("2D 5H KD") and sum(len(p) for p in after.piles) == 37


def test_a_finished_deal_is_scored_and_counts_all_forty_cards():
    state, _ = new_deal(Rules(target=None), seed=5)
    while not state.is_deal_over:
        state, events = state.apply(state.legal_moves()[-1])
    assert sum(len(p) for p in state.piles) + len(state.table) == 40
    scored = next(e for e in events if isinstance(e, DealScored))
    assert scored.score == state.deal_score and scored.match_scores == state.match_scores
    assert state.deal_totals == (scored.score.totals,)


# Illegal moves ------------------------------------------------------------------------------------
def illegal(state: GameState, bad, message: str, reason: IllegalReason | None = None) -> IllegalMoveError:
    """``bad`` is refused with ``message`` in its English text and, when given, exactly this reason."""
    snapshot = state.to_dict()
    with pytest.raises(IllegalMoveError) as caught:
        state.apply(bad)
    assert message in str(caught.value)
    assert state.to_dict() == snapshot
    assert isinstance(caught.value, ValueError)
    assert caught.value.reason is not None and caught.value.code == caught.value.reason.code
    if reason is not None:
        assert caught.value.reason == reason
    return caught.value


def c(text: str) -> Card:
    return Card.parse(text)


def sample() -> GameState:
    return position(hands=["KS", "5C 7C 2H"], table="5D 3H 2S 4C", stock="AD AH AS", to_move=1)


def test_a_card_not_in_hand_is_illegal():
    illegal(sample(), move("KS"), "Seat 2 does not hold KS.", IllegalReason("not_in_hand", c("KS"), (), 1))
    illegal(sample(), move("6D"), "Seat 2 does not hold 6D.", IllegalReason("not_in_hand", c("6D"), (), 1))


def test_a_sum_when_a_single_match_exists_is_illegal():
    illegal(sample(), move("5C 2S 3H"), "5C must take a single equal card: a match comes before a sum.",
            IllegalReason("match_first", c("5C"), parse_cards("2S 3H"), 1))


def test_a_capture_the_rules_do_not_allow_is_illegal():
    illegal(sample(), move("7C 2S"), "7C cannot take 2S.", IllegalReason("cannot_take", c("7C"), (c("2S"),), 1))
    illegal(sample(), move("7C 3H 2S 5D"), "7C cannot take",
            IllegalReason("cannot_take", c("7C"), tuple(sorted(parse_cards("3H 2S 5D"))), 1))


def test_playing_without_capturing_when_the_card_can_capture_is_illegal():
    illegal(sample(), move("5C"), "5C must capture: a card that can take must take.",
            IllegalReason("must_capture", c("5C"), (), 1))
    illegal(sample(), move("7C"), "7C must capture", IllegalReason("must_capture", c("7C"), (), 1))


def test_adding_to_the_list_of_legal_moves_does_not_make_a_move_legal():
    state = sample()
    moves = state.legal_moves()
    moves.append(move("7C 2S"))
    illegal(state, move("7C 2S"), "7C cannot take 2S.")
    assert move("7C 2S") not in state.legal_moves()


def test_a_move_legal_in_another_position_is_checked_in_this_one():
    elsewhere = position(hands=["KS", "5C 7C 2H"], table="2S 3H", stock="AD AH AS", to_move=1)
    assert move("5C 2S 3H") in elsewhere.legal_moves()
    illegal(sample(), move("5C 2S 3H"), "5C must take a single equal card")


def test_a_card_that_cannot_capture_takes_nothing():
    state = position(hands=["KS", "6C 7C"], table="KD QH", stock="AD AH AS 2D", to_move=1)
    illegal(state, move("6C KD"), "6C takes nothing here: it stays on the table.",
            IllegalReason("takes_nothing", c("6C"), (c("KD"),), 1))


def test_moving_after_the_deal_is_over_is_illegal():
    state = position(hands=["", "6C"], table="2D 3H AS", to_move=1)
    over, _ = state.apply(move("6C 2D 3H AS"))
    assert over.legal_moves() == []
    illegal(over, move("6C"), "The deal is over: no card can be played until the next deal.",
            IllegalReason("deal_over", seat=over.to_move))


@pytest.mark.parametrize("bad", ["5C", None, 7, ("5C",), ("5C", 5)])
def test_malformed_moves_are_illegal(bad):
    illegal(sample(), bad, "A move is a card from the hand and the table cards it takes.",
            IllegalReason("not_a_move", seat=1))


def test_moves_may_be_given_as_strings_and_unsorted_captures():
    after, _ = sample().apply(("7C", ["4C", "3H"]))
    assert after.history[-1].capture == parse_cards("3H 4C")
    after2, _ = sample().apply(Move(Card.parse("7C"), parse_cards("4C 3H")))
    assert after2 == after


def test_next_deal_while_playing_or_after_the_match_is_illegal():
    state, _ = new_match(Rules(), seed=1)
    with pytest.raises(IllegalMoveError, match="still being played") as playing:
        state.next_deal()
    with pytest.raises(IllegalMoveError, match="The match is over") as over:
        state._replace(phase=Phase.MATCH_OVER).next_deal()
    assert playing.value.reason == IllegalReason("deal_not_over")
    assert over.value.reason == IllegalReason("match_over")


def test_an_illegal_move_error_made_with_a_message_alone_still_works():
    """Older callers raise ``IllegalMoveError("...")``: it has no reason, and pickles with its reason."""
    import pickle
    plain = IllegalMoveError("Not now.")
    assert str(plain) == "Not now." and plain.reason is None and plain.code is None
    assert plain.args == ("Not now.",)
    caught = illegal(sample(), move("5C"), "5C must capture")
    again = pickle.loads(pickle.dumps(caught))
    assert str(again) == str(caught) and again.reason == caught.reason


# Dealing and turn order -------------------------------------------------------------------------
def test_two_players_deal_three_each_four_on_the_table():
    state, events = new_match(Rules(), seed=3, first_dealer=0)
    assert events[0] == DealStarted(deal_number=1, dealer=0, leader=1, redeals=events[0].redeals)
    assert isinstance(events[1], CardsDealt) and events[1].table == state.table
    assert (events[1].round, events[1].rounds, events[1].cards_each, events[1].stock_left) == (1, 6, 3, 30)
    assert [len(h) for h in state.hands] == [3, 3] and len(state.table) == 4 and len(state.stock) == 30
    check_invariants(state)


def test_two_players_non_dealer_leads_and_the_deal_alternates():
    state, _ = new_match(Rules(), seed=3, first_dealer=0)
    assert state.to_move == state.leader == 1
    played, _ = state.apply(state.legal_moves()[0])
    assert played.to_move == 0
    dealers = []
    for _ in range(4):
        state, events = state._replace(phase=Phase.DEAL_OVER).next_deal()
        dealers.append((events[0].dealer, events[0].leader, state.to_move))
    assert dealers == [(1, 0, 0), (0, 1, 1), (1, 0, 0), (0, 1, 1)]


def test_four_players_play_counter_clockwise_from_the_dealers_right():
    state, _ = new_match(Rules(players=4), seed=3, first_dealer=0)
    order = []
    while not state.is_deal_over:
        order.append(state.to_move)
        state, _ = state.apply(state.legal_moves()[0])
    # Seats 1 -> 4 -> 3 -> 2 in a player's numbering; seat 0 dealt, so seat 3 (the right) leads.
    assert order == [3, 2, 1, 0] * 9
    assert [next_seat(s, 4) for s in range(4)] == [3, 0, 1, 2]


def test_four_players_the_deal_passes_to_the_right():
    state, _ = new_match(Rules(players=4), seed=3, first_dealer=0)
    dealers = [state.dealer]
    for _ in range(4):
        state, events = state._replace(phase=Phase.DEAL_OVER).next_deal()
        dealers.append(state.dealer)
        assert events[0].leader == state.to_move == next_seat(state.dealer, 4)
    assert dealers == [0, 3, 2, 1, 0]


def test_four_player_scopa_deals_three_rounds_of_three():
    state, events = new_match(Rules(players=4), seed=9)
    dealt = [e for e in events if isinstance(e, CardsDealt)]
    while not state.is_deal_over:
        state, events = state.apply(state.legal_moves()[0])
        dealt += [e for e in events if isinstance(e, CardsDealt)]
    assert [(e.round, e.rounds, e.cards_each) for e in dealt] == [(r, 3, 3) for r in (1, 2, 3)]
    assert len(state.piles) == 2 and len(state.history) == 36


def test_three_players_play_four_rounds():
    state, events = new_match(Rules(players=3), seed=4, first_dealer=1)
    assert state.to_move == 0 and [len(h) for h in state.hands] == [3, 3, 3] and len(state.stock) == 27
    dealt = [e for e in events if isinstance(e, CardsDealt)]
    order = []
    while not state.is_deal_over:
        order.append(state.to_move)
        state, events = state.apply(state.legal_moves()[-1])
        dealt += [e for e in events if isinstance(e, CardsDealt)]
    assert [e.round for e in dealt] == [1, 2, 3, 4] and all(e.rounds == 4 for e in dealt)
    assert order == [0, 2, 1] * 12
    assert len(state.deal_score.sides) == 3 and len(state.match_scores) == 3


def test_scopone_scientifico_deals_ten_each_to_an_empty_table():
    state, events = new_match(Rules.scopone_scientifico(), seed=2)
    assert state.table == () and state.stock == () and [len(h) for h in state.hands] == [10] * 4
    assert events[1] == CardsDealt(1, 1, 10, 0, ())
    assert all(not m.capture for m in state.legal_moves())  # the first card always stays down
    plays = 0
    while not state.is_deal_over:
        state, _ = state.apply(state.legal_moves()[0])
        plays += 1
    assert plays == 40 and state.rules.target == 21


def test_scopone_classico_deals_nine_each_and_four_on_the_table():
    state, events = new_match(Rules.scopone_classico(), seed=2)
    assert len(state.table) == 4 and state.stock == () and [len(h) for h in state.hands] == [9] * 4
    assert events[1].table == state.table and events[1].cards_each == 9
    check_invariants(state)


def _redealt_seed(rules: Rules) -> int:
    for seed in range(20_000):
        _, events = new_match(rules, seed=seed)
        if events[0].redeals:
            return seed
    raise AssertionError("no seed redeals: the kings rule never fired")


@pytest.mark.parametrize("rules", [Rules(), Rules.scopone_classico()])
def test_three_or_four_kings_on_the_table_are_redealt(rules):
    seed = _redealt_seed(rules)
    state, events = new_match(rules, seed=seed)
    assert isinstance(events[0], DealStarted) and events[0].redeals >= 1 and state.redeals == events[0].redeals
    assert sum(1 for c in state.table if c.rank == "K") < 3
    # Without the rule the same seed keeps the first shuffle, kings and all.
    plain, plain_events = new_match(rules.with_options(kings_redeal=False), seed=seed)
    assert plain_events[0].redeals == 0 and sum(1 for c in plain.table if c.rank == "K") >= 3


def test_two_kings_on_the_table_are_not_redealt():
    for seed in range(2000):
        state, events = new_match(Rules(), seed=seed)
        if sum(1 for c in state.table if c.rank == "K") == 2:
            assert events[0].redeals == 0
            return
    raise AssertionError("no seed dealt two kings")


@pytest.mark.parametrize("rules, seed, dealer, table, hands, stock_start", [
    (Rules(), 1, 1, "JH 5S 4S 7D", ["6C JS QS", "AH 2S QD"], "2H 7S 5H QH 7C 6D"),
    (Rules(players=4), 2024, 1, "7D 3C JS AS", ["3H 6H 6C", "5D 5C KS", "4D 6D KC", "2D JD QC"],
     "AC 4C 7H AD 2H QS"),
    (Rules.scopone_scientifico(), 7, 1, "", ["AS 2C 3S 4C 6D 6C 7S 7C JD JH", "3C 4D 4H 4S 5D 7D JS JC QS KS",
                                             "AH 2H 2S 3D 5H 5S 6H QH KD KH", "AD AC 2D 3H 5C 6S 7H QD QC KC"], ""),
    (Rules(), 176, 1, "7D KC 7S QS", None, None),  # redealt once for three kings
])
def test_a_seed_always_deals_the_same_cards(rules, seed, dealer, table, hands, stock_start):
    # Fixed by the first version of the engine: saved seeds must keep dealing these cards.
    state, _ = new_match(rules, seed=seed)
    assert state.dealer == dealer and state.table == parse_cards(table)
    if hands is not None:
        assert [cards_str(h) for h in state.hands] == hands
        assert state.stock[:6] == parse_cards(stock_start)


def test_first_dealer_is_drawn_from_the_seed_or_given():
    dealers = {new_match(Rules(players=4), seed=s)[0].dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert new_match(Rules(), seed=1, first_dealer=1)[0].dealer == 1
    with pytest.raises(ValueError, match="There is no seat 3 to deal"):
        new_match(Rules(), seed=1, first_dealer=2)


# Match flow ----------------------------------------------------------------------------------------
def final_play(rules: Rules, match_scores: tuple[int, int]) -> tuple[GameState, list]:
    """The last play of a deal that scores exactly 4 to 0: side 0 took all but two spades."""
    rest = " ".join(str(c) for c in ALL_CARDS if str(c) not in {"4C", "KH", "AS", "2S"})
    state = position(rules, hands=["", "4C"], table="KH", to_move=1, last_capturer=0,
                     piles=[rest, "AS 2S"], match_scores=match_scores)
    return state.apply(move("4C"))


def test_each_finished_deal_keeps_its_own_score():
    first, _ = final_play(Rules(), (0, 0))
    state, _ = new_deal(Rules(target=None), seed=4)
    while not state.is_deal_over:
        state, _ = state.apply(state.legal_moves()[0])
    assert state.deal_score.totals == (0, 5)
    assert first.deal_score.totals == (4, 0) and first.deal_score == score_deal(first.piles, first.scope, Rules())


def test_last_deal_scores_four_to_nothing():
    state, _events = final_play(Rules(), (0, 0))
    assert state.deal_totals[-1] == (4, 0) and state.match_scores == (4, 0)


@pytest.mark.parametrize("target", [11, 16, 21])
def test_reaching_the_target_wins_the_match(target):
    state, events = final_play(Rules(target=target), (target - 4, 3))
    assert state.match_scores == (target, 3) and state.phase is Phase.MATCH_OVER and state.winner == 0
    assert events[-1] == MatchWon(0, (target, 3))


@pytest.mark.parametrize("target", [11, 16, 21])
def test_below_the_target_another_deal_follows(target):
    state, events = final_play(Rules(target=target), (target - 5, 3))
    assert state.phase is Phase.DEAL_OVER and state.winner is None
    assert "MatchWon" not in kinds(events)
    following, events = state.next_deal()
    assert following.deal_number == 3 and following.match_scores == (target - 1, 3)
    assert events[0].dealer == next_seat(state.dealer, 2)


def test_a_tie_at_or_above_the_target_plays_another_deal():
    state, _ = final_play(Rules(), (7, 11))
    assert state.match_scores == (11, 11) and state.phase is Phase.DEAL_OVER and state.winner is None
    state, _ = final_play(Rules(), (9, 13))
    assert state.match_scores == (13, 13) and state.phase is Phase.DEAL_OVER


def test_when_both_pass_the_target_the_higher_total_wins():
    state, _events = final_play(Rules(), (9, 12))
    assert state.match_scores == (13, 12) and state.winner == 0 and state.is_match_over


def test_sweeps_never_end_a_match_early():
    state = position(hands=["KS 5S", "3D 4D"], table="3H", stock="AD AH", to_move=1, match_scores=(0, 10))
    state, _events = state.apply(move("3D 3H"))
    assert state.match_scores == (0, 10) and state.scope == (0, 1) and state.phase is Phase.PLAYING


def test_single_deal_game_ends_after_one_deal():
    state, events = final_play(Rules(target=None), (0, 0))
    assert state.is_match_over and events[-1] == MatchWon(0, (4, 0))


def test_single_deal_game_with_equal_points_is_a_draw():
    # 20 cards each; settebello to side 0, coins to side 1; nobody holds all four suits.
    side0 = "7D " + " ".join(r + "H" for r in "A234567JQK") + " " + " ".join(r + "S" for r in "A23567JQK")
    side1 = " ".join(r + "D" for r in "A23456JQK") + " " + " ".join(r + "C" for r in "A23567JQK")
    state = position(Rules(target=None), hands=["", "4C"], table="4S", to_move=1, last_capturer=0,
                     piles=[side0, side1])
    state, events = state.apply(move("4C 4S"))
    assert [len(p) for p in state.piles] == [20, 20] and state.deal_totals[-1] == (1, 1)
    assert events[-1] == MatchWon(None, (1, 1)) and state.winner is None and state.is_match_over


def test_the_same_tie_in_a_match_plays_another_deal():
    side0 = "7D " + " ".join(r + "H" for r in "A234567JQK") + " " + " ".join(r + "S" for r in "A23567JQK")
    side1 = " ".join(r + "D" for r in "A23456JQK") + " " + " ".join(r + "C" for r in "A23567JQK")
    state = position(Rules(), hands=["", "4C"], table="4S", to_move=1, last_capturer=0,
                     piles=[side0, side1], match_scores=(10, 10))
    state, events = state.apply(move("4C 4S"))
    assert state.match_scores == (11, 11) and state.phase is Phase.DEAL_OVER and "MatchWon" not in kinds(events)
