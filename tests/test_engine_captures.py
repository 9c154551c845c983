"""Which table cards a played card may take (rules.md "Capturing" and the seed pages' examples)."""
from __future__ import annotations

from scopa.engine import Card, Rules, legal_captures, parse_cards, sum_groups


def captures(card: str, table: str, **options) -> set[str]:
    """The legal captures as a set of space-joined short notations (order-free)."""
    found = legal_captures(Card.parse(card), parse_cards(table), Rules(**options))
    return {" ".join(map(str, capture)) for capture in found}


# rules.md worked examples ---------------------------------------------------------------------------
def test_six_takes_two_three_ace_all_together():
    assert captures("6C", "2D 3H AS") == {"AS 2D 3H"}


def test_five_must_take_table_five_not_two_plus_three():
    assert captures("5C", "2D 3H 5S") == {"5S"}


def test_five_takes_two_plus_three_without_a_table_five():
    assert captures("5C", "2D 3H KS") == {"2D 3H"}


def test_jack_takes_six_two_or_five_three():
    assert captures("JC", "6D 2H 5S 3C") == {"2H 6D", "3C 5S"}


def test_jack_must_take_a_table_jack_before_any_sum():
    assert captures("JC", "6D 2H 5S 3C JD") == {"JD"}


# Seed pages' examples -----------------------------------------------------------------------------
def test_seven_takes_three_four_or_two_five():  # seed 000
    assert captures("7C", "3D 4H 2S 5C") == {"3D 4H", "2S 5C"}


def test_seven_must_take_a_table_seven_not_four_plus_three():  # seeds 000 and 004
    assert captures("7C", "3D 4H 7S") == {"7S"}


def test_several_single_matches_are_each_a_choice_of_one_card():  # seed 000: choose one, not all
    assert captures("4C", "4D 4H 2S 2C") == {"4D", "4H"}


def test_cavallo_nine_takes_five_four_or_six_two_ace():  # seed 004
    assert captures("QC", "5D 4H 6S 2C AD") == {"4H 5D", "AD 2C 6S"}


def test_king_takes_four_and_six():  # seed 002
    assert captures("KC", "4D 6H") == {"4D 6H"}


def test_king_and_five_on_table_a_four_stays():  # seed 001: no capture, so no sweep
    assert captures("4C", "KD 5H") == set()


def test_nothing_on_the_table_nothing_to_take():  # seed 000: after a sweep the next card stays
    assert all(captures(c, "") == set() for c in ("AD", "7D", "KD"))


def test_by_default_faces_take_sums():  # rules.md: faces are not match-only by default
    assert captures("KC", "6D 4H") == {"4H 6D"}
    assert captures("QC", "5D 4H") == {"4H 5D"}


def test_faces_can_be_part_of_a_sum_for_a_higher_face():
    assert captures("KC", "JD 2H") == {"2H JD"}


def test_a_single_card_of_another_value_is_never_taken_alone():
    assert captures("5C", "4D") == set()
    assert captures("AD", "2D 3H") == set()


# Options --------------------------------------------------------------------------------------------
def test_faces_match_only_jack_cannot_take_a_sum():  # seed 001: "faces never sum"
    assert captures("JC", "5D 3H", faces_match_only=True) == set()
    assert captures("JC", "4D 3H", faces_match_only=True) == set()


def test_faces_match_only_king_cannot_take_six_four():
    assert captures("KC", "6D 4H", faces_match_only=True) == set()
    assert captures("QC", "5D 4H", faces_match_only=True) == set()


def test_faces_match_only_faces_still_take_an_equal_face():
    assert captures("JC", "JD 5H 3S", faces_match_only=True) == {"JD"}
    assert captures("KC", "KD KH 6S 4S", faces_match_only=True) == {"KD", "KH"}


def test_faces_match_only_number_cards_still_sum():
    assert captures("7C", "3D 4H", faces_match_only=True) == {"3D 4H"}


def test_most_cards_the_larger_group_is_the_only_option():  # seed 002
    table = "AH 2H 5H 3D"
    assert captures("JC", table) == {"3D 5H", "AH 2H 5H"}
    assert captures("JC", table, most_cards=True) == {"AH 2H 5H"}


def test_most_cards_king_takes_ace_three_six_rather_than_four_six():
    assert captures("KC", "4D 6H AS 3C", most_cards=True) == {"AS 3C 6H"}


def test_most_cards_keeps_every_group_of_the_largest_size():
    assert captures("7C", "3D 4H 2S 5C", most_cards=True) == {"3D 4H", "2S 5C"}


def test_most_cards_a_single_match_still_comes_first():
    assert captures("5C", "5D 2H 3S AD 4C", most_cards=True) == {"5D"}


def test_cavallo_with_most_cards_takes_six_two_ace():
    assert captures("QC", "5D 4H 6S 2C AD", most_cards=True) == {"AD 2C 6S"}


def test_asso_piglia_tutto_ace_takes_the_whole_table():  # seed 004
    assert captures("AC", "5D KH 3S 7D", asso_piglia_tutto=True) == {"3S 5D 7D KH"}


def test_asso_piglia_tutto_with_an_ace_on_the_table_takes_that_one():
    assert captures("AC", "AD 5H 3S", asso_piglia_tutto=True) == {"AD"}
    assert captures("AC", "AD AH 3S", asso_piglia_tutto=True) == {"AD", "AH"}


def test_asso_piglia_tutto_ace_on_empty_table_stays():
    assert captures("AC", "", asso_piglia_tutto=True) == set()


def test_without_asso_piglia_tutto_an_ace_takes_only_an_ace():
    assert captures("AC", "5D KH 3S") == set()
    assert captures("AC", "AD 5H") == {"AD"}


def test_asso_piglia_tutto_leaves_other_cards_alone():
    assert captures("6C", "AD 2H 3S KD", asso_piglia_tutto=True) == {"AD 2H 3S"}


def test_captures_are_sorted_tuples_of_engine_cards():
    found = legal_captures(Card.parse("QC"), parse_cards("6S 2C AD 5D 4H"), Rules())
    for capture in found:
        assert list(capture) == sorted(capture)
        assert all(type(c) is Card for c in capture)


def test_sum_groups_lists_every_group_of_two_or_more():
    groups = {" ".join(map(str, g)) for g in sum_groups(6, parse_cards("6D AS 2D 3H 4C 5S"))}
    assert groups == {"AS 2D 3H", "2D 4C", "AS 5S"}


def test_sums_may_use_several_cards_of_one_value():
    found = captures("JC", "AD AH AS AC 2D 2H")
    assert "AD AH AS AC 2D 2H" in found  # six cards: 1+1+1+1+2+2
    assert all(sum(Card.parse(c).value for c in group.split()) == 8 for group in found)
    assert len(found) == 1  # the six cards add up to exactly 8, so no smaller group does
