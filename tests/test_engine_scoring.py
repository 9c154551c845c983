"""Scoring a deal and deciding a match (rules.md "Scoring a deal", "Match" and the seed pages' arithmetic)."""
from __future__ import annotations

import pytest

from scopa.engine import (
    ALL_CARDS,
    Category,
    Rules,
    Suit,
    match_result,
    napola_points,
    parse_cards,
    primiera,
    score_deal,
)


def prime(text: str):
    return primiera(parse_cards(text))


def split(side0: str) -> list[tuple]:
    """Two complete piles: these cards for side 0, every other card for side 1."""
    mine = parse_cards(side0)
    return [mine, tuple(c for c in ALL_CARDS if c not in mine)]


# Primiera --------------------------------------------------------------------------------------------
def test_primiera_seven_six_ace_king_is_65():  # rules.md, seed 003
    assert prime("7D 6H AS KC").total == 65


def test_four_sevens_is_84():  # rules.md, seed 003
    assert prime("7D 7H 7S 7C").total == 84


def test_primiera_takes_the_best_card_of_each_suit():
    result = prime("7D 2D 6H 3H AS KS KC JC 5C")
    assert result.total == 21 + 18 + 16 + 15 and result.eligible
    assert [str(c) for c in result.cards] == ["7D", "6H", "AS", "5C"]


def test_primiera_needs_all_four_suits():
    result = prime("7D 7H 7S 6D")
    assert not result.eligible and result.total == 0 and result.missing == (Suit.BATONS,)


def test_primiera_65_loses_to_75():  # seed 001's worked prime
    ours, theirs = parse_cards("7D 6H AS JC"), parse_cards("7H 5D 7S 6C")
    assert primiera(ours).total == 65 and primiera(theirs).total == 75
    score = score_deal([ours, theirs], [0, 0], Rules())
    assert score.awarded[Category.PRIMIERA] == 1
    assert score.awarded[Category.SETTEBELLO] == 0  # the 7 of coins still gives us the settebello


def test_primiera_78_beats_75():  # seed 004: sevens of cups and batons, sixes of coins and swords
    ours, theirs = parse_cards("7H 7C 6D 6S"), parse_cards("7D 7S 6H 5C")
    assert primiera(ours).total == 78 and primiera(theirs).total == 75
    assert score_deal([ours, theirs], [0, 0], Rules()).awarded[Category.PRIMIERA] == 0


def test_primiera_with_one_side_ineligible_goes_to_the_other():
    ours, theirs = parse_cards("7D 7H 7S 7C"), parse_cards("AD 2H 3S")  # theirs lacks batons
    assert score_deal([theirs, ours], [0, 0], Rules()).awarded[Category.PRIMIERA] == 1
    weak = parse_cards("JD JH JS JC")  # 40, but eligible, beats a pile missing a suit
    assert score_deal([weak, parse_cards("7D 7H 7S")], [0, 0], Rules()).awarded[Category.PRIMIERA] == 0


def test_primiera_with_nobody_eligible_is_not_awarded():
    score = score_deal([parse_cards("7D 7H 7S"), parse_cards("7C 6C")], [0, 0], Rules())
    assert score.awarded[Category.PRIMIERA] is None
    assert all(s.points[Category.PRIMIERA] == 0 for s in score.sides)


def test_equal_primiera_scores_nothing():
    score = score_deal([parse_cards("7D 7H 6S 6C"), parse_cards("7S 7C 6D 6H")], [0, 0], Rules())
    assert score.sides[0].primiera.total == score.sides[1].primiera.total == 78
    assert score.awarded[Category.PRIMIERA] is None


# Whole-deal arithmetic -----------------------------------------------------------------------------
def test_ada_and_ben_end_of_hand_arithmetic():  # seed 001
    # Ada: 22 cards, 6 diamonds, the 7 of diamonds, prime 7 6 A 5 = 70.
    # Ben: 4 diamonds, prime 7 7 6 K = 70. (The page also gives Ben 18 cards, but no 40-card
    # pack fits every number: the primes show three sevens, yet whoever held the fourth would
    # count it. So three clubs are left out and Ben has 15 cards; every point is as the page says.)
    ada = parse_cards("7D AD 2D JD QD KD 6H AH 5H 4H 3H 2H JH QH AS 5S 4S 3S 5C 4C 3C 2C")
    ben = parse_cards("6D 5D 4D 3D 7H KH 7S 6S 2S JS QS KS JC QC KC")
    assert (len(ada), len(ben)) == (22, 15) and len(set(ada) | set(ben)) == 37
    score = score_deal([ada, ben], [0, 0], Rules())
    a, b = score.sides
    assert (a.cards, a.coins, a.settebello, a.primiera.total) == (22, 6, True, 70)
    assert (b.coins, b.settebello, b.primiera.total) == (4, False, 70)
    assert [str(c) for c in b.primiera.cards] == ["6D", "7H", "7S", "KC"]
    assert a.points == {Category.CARDS: 1, Category.COINS: 1, Category.SETTEBELLO: 1, Category.PRIMIERA: 0,
                        Category.SCOPE: 0}
    assert score.awarded[Category.PRIMIERA] is None
    assert score.totals == (3, 0)


def test_scope_are_added_on_top():
    ada = parse_cards("7D AD 2D JD QD KD 6H AH 5H 4H 3H 2H JH QH AS 5S 4S 3S 5C 4C 3C 2C")
    ben = parse_cards("6D 5D 4D 3D 7H KH 7S 6S 2S JS QS KS JC QC KC")
    assert score_deal([ada, ben], [2, 1], Rules()).totals == (5, 1)


def test_a_lively_hand_two_scope_plus_cards_plus_diamonds_is_four():  # seed 001
    piles = split("AD 2D 3D 4D 5D 6D " + " ".join(r + s for s in "HSC" for r in "A23456J"[:5]))
    score = score_deal(piles, [2, 0], Rules())
    assert score.sides[0].cards == 21 and score.sides[0].coins == 6
    assert score.awarded[Category.SETTEBELLO] == 1 and score.awarded[Category.PRIMIERA] == 1
    assert score.sides[0].total == 4


def test_ties_in_cards_coins_and_primiera_score_nothing():
    # Each side: 20 cards, 5 coins, primiera 7 7 6 6 = 78.
    side0 = parse_cards("7D 7H 6S 6C AD 3D JD KD 2H 4H QH AH 2S 4S AS QS 2C 4C QC AC")
    side1 = tuple(c for c in ALL_CARDS if c not in side0)
    score = score_deal([side0, side1], [0, 0], Rules())
    assert [s.cards for s in score.sides] == [20, 20] and [s.coins for s in score.sides] == [5, 5]
    assert [s.primiera.total for s in score.sides] == [78, 78]
    assert score.awarded[Category.CARDS] is None and score.awarded[Category.COINS] is None
    assert score.awarded[Category.PRIMIERA] is None
    assert score.totals == (1, 0)  # only the settebello


def test_twenty_one_cards_and_six_coins_win_their_points():
    side0 = parse_cards("7H 7S 6D 6C AD 3D JD KD 2H 4H QH AH 2S 4S AS QS 2C 4C QC AC 2D")
    score = score_deal([side0, tuple(c for c in ALL_CARDS if c not in side0)], [0, 0], Rules())
    assert score.awarded[Category.CARDS] == 0 and score.awarded[Category.COINS] == 0


def test_three_sides_need_strictly_the_most():
    piles = [parse_cards("AD 2D 3D"), parse_cards("AH 2H 3H"), parse_cards("AS 2S")]
    score = score_deal(piles, [0, 0, 0], Rules(players=3))
    assert score.awarded[Category.CARDS] is None and score.awarded[Category.COINS] == 0
    assert len(score.totals) == 3


def test_category_points_add_up_to_the_total():
    piles = split("7D 7H 6S 6C AD 3D JD KD 2H 4H QH AH 2S 4S AS QS 2C 4C QC")
    score = score_deal(piles, [1, 3], Rules(napola=True, re_bello=True))
    for side in score.sides:
        assert side.total == sum(side.points.values())
        assert list(side.points) == list(score.categories)
    assert score.totals == tuple(s.total for s in score.sides)


# Options -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("coins, points", [
    ("AD 2D 3D", 3), ("AD 2D 3D 4D", 4), ("AD 2D 3D 4D 5D", 5), ("AD 2D 3D 5D", 3),
    ("AD 2D 3D 4D 5D 6D 7D JD QD KD", 10), ("AD 2D", 0), ("2D 3D 4D 5D", 0),
])
def test_napola_is_three_points_plus_the_run(coins, points):
    assert napola_points(parse_cards(coins + " 7H KS")) == points


def test_napola_with_four_and_five_makes_five():  # seed 004
    piles = split("AD 2D 3D 4D 5D")
    score = score_deal(piles, [0, 0], Rules(napola=True))
    assert Category.NAPOLA in score.categories
    assert score.sides[0].napola == 5 and score.sides[0].points[Category.NAPOLA] == 5
    assert score.sides[1].points[Category.NAPOLA] == 0
    assert score.sides[0].total == 5  # cards, coins, settebello and primiera all went to side 1


def test_napola_off_scores_nothing_for_the_run():
    score = score_deal(split("AD 2D 3D 4D 5D"), [0, 0], Rules())
    assert Category.NAPOLA not in score.categories and score.sides[0].total == 0


def test_re_bello_scores_the_king_of_coins():
    score = score_deal(split("KD"), [0, 0], Rules(re_bello=True))
    assert score.awarded[Category.RE_BELLO] == 0 and score.sides[0].points[Category.RE_BELLO] == 1
    assert score.totals == (1, 4)
    plain = score_deal(split("KD"), [0, 0], Rules())
    assert Category.RE_BELLO not in plain.categories and plain.totals == (0, 4)


def test_settebello_belongs_to_its_holder_even_when_losing_all_else():
    score = score_deal(split("7D"), [0, 0], Rules())
    assert score.totals == (1, 3)


# Match results ------------------------------------------------------------------------------------
@pytest.mark.parametrize("target", [11, 16, 21])
def test_match_targets(target):
    rules = Rules(target=target)
    assert match_result((target, 0), rules) == (0, True)
    assert match_result((target - 1, target - 1), rules) == (None, False)
    assert match_result((3, target + 2), rules) == (1, True)


def test_tie_at_or_above_target_plays_another_deal():
    assert match_result((11, 11), Rules()) == (None, False)
    assert match_result((14, 14), Rules()) == (None, False)


def test_higher_total_wins_when_both_pass_the_target():
    assert match_result((12, 14), Rules()) == (1, True)
    assert match_result((17, 16), Rules(target=16)) == (0, True)


def test_three_players_tied_leaders_play_on():
    rules = Rules(players=3)
    assert match_result((12, 12, 3), rules) == (None, False)
    assert match_result((11, 12, 13), rules) == (2, True)


def test_single_deal_game_higher_total_wins_or_draws():
    rules = Rules(target=None)
    assert match_result((3, 2), rules) == (0, True)
    assert match_result((2, 2), rules) == (None, True)
