"""Cards, their notation (engine.md "Cards"), and the rules object (rules.md "The cards", the match, the options)."""
from __future__ import annotations

import pytest

from scopa.engine import (
    ALL_CARDS,
    RE_BELLO,
    SETTEBELLO,
    Card,
    Rules,
    RulesError,
    ScopaError,
    Suit,
    Variant,
    cards_str,
    parse_cards,
)


# Cards ------------------------------------------------------------------------------------------------
def test_pack_has_forty_cards_ace_to_seven_and_three_faces_in_four_suits():
    assert len(ALL_CARDS) == 40 == len(set(ALL_CARDS))
    assert sorted({c.rank for c in ALL_CARDS}) == sorted(["A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"])
    for suit in Suit:
        assert sum(1 for c in ALL_CARDS if c.suit is suit) == 10


@pytest.mark.parametrize("text, rank, suit, value", [
    ("7D", "7", Suit.COINS, 7), ("KC", "K", Suit.BATONS, 10), ("AS", "A", Suit.SWORDS, 1),
    ("JH", "J", Suit.CUPS, 8), ("QD", "Q", Suit.COINS, 9), ("1S", "A", Suit.SWORDS, 1),
    (" 7d ", "7", Suit.COINS, 7), ("q h", "Q", Suit.CUPS, 9),
])
def test_parse_reads_short_notation(text, rank, suit, value):
    card = Card.parse(text)
    assert (card.rank, card.suit, card.value) == (rank, suit, value)


def test_str_and_repr_use_short_notation():
    assert str(Card.parse("7d")) == "7D"
    assert repr(Card.parse("kc")) == "Card('KC')"
    assert [str(c) for c in parse_cards("AS, 2H 3C")] == ["AS", "2H", "3C"]
    assert cards_str(parse_cards(["JD", "QS"])) == "JD QS"
    assert all(Card.parse(str(c)) is c for c in ALL_CARDS)


def test_settebello_is_seven_of_coins_and_re_bello_king_of_coins():
    assert str(SETTEBELLO) == "7D" and str(RE_BELLO) == "KD"


def test_capture_values_ace_one_to_king_ten():
    assert [Card.parse(r + "H").value for r in "A234567JQK"] == list(range(1, 11))


def test_primiera_values_follow_the_table():
    expected = {"7": 21, "6": 18, "A": 16, "5": 15, "4": 14, "3": 13, "2": 12, "J": 10, "Q": 10, "K": 10}
    assert {r: Card.parse(r + "S").primiera_value for r in expected} == expected


def test_faces_are_jack_queen_king():
    assert [c.rank for c in ALL_CARDS if c.is_face] == ["J"] * 4 + ["Q"] * 4 + ["K"] * 4


@pytest.mark.parametrize("text, message", [
    ("8D", "There is no 8 in the Scopa pack: 8s, 9s and 10s are removed."),
    ("10H", "There is no 10 in the Scopa pack"),
    ("9C", "There is no 9 in the Scopa pack"),
    ("", "No card given: write a rank then a suit, like 7D."),
    ("   ", "No card given"),
    ("7X", "Unknown suit 'X': use D for diamonds or coins, H for hearts or cups"),
    ("ZD", "Unknown rank 'Z': ranks are A, 2 to 7, J, Q and K."),
    ("7", "'7' is not a card: write a rank then a suit, like 7D."),
])
def test_parse_rejects_bad_input_with_a_readable_message(text, message):
    with pytest.raises(ValueError) as caught:
        Card.parse(text)
    assert message in str(caught.value)


def test_card_numbers_outside_the_pack_are_rejected():
    assert Card(0) is Card.parse("AD") and Card(39) is Card.parse("KC")
    for bad in (-1, -40, 40, 2.0, "7D"):
        with pytest.raises(ValueError, match="A card number runs from 0 to 39"):
            Card(bad)


# Rules ------------------------------------------------------------------------------------------------
def test_default_rules_are_two_player_scopa_to_eleven_with_kings_redeal():
    rules = Rules()
    assert (rules.players, rules.variant, rules.target) == (2, Variant.SCOPA, 11)
    assert rules.kings_redeal and not (rules.faces_match_only or rules.most_cards or rules.napola
                                       or rules.re_bello or rules.asso_piglia_tutto)
    assert (rules.hand_size, rules.table_size, rules.rounds, rules.sides) == (3, 4, 6, 2)


def test_four_player_scopa_deals_three_rounds_to_two_partnerships():
    rules = Rules(players=4)
    assert (rules.hand_size, rules.table_size, rules.rounds, rules.sides) == (3, 4, 3, 2)
    assert [rules.side_of(s) for s in range(4)] == [0, 1, 0, 1]


def test_three_players_play_four_rounds_each_for_himself():
    rules = Rules(players=3)
    assert (rules.hand_size, rules.table_size, rules.rounds, rules.sides) == (3, 4, 4, 3)
    assert [rules.side_of(s) for s in range(3)] == [0, 1, 2]


def test_scopone_scientifico_is_ten_each_empty_table_to_twenty_one():
    rules = Rules.scopone_scientifico()
    assert (rules.players, rules.hand_size, rules.table_size, rules.rounds, rules.target) == (4, 10, 0, 1, 21)


def test_scopone_classico_is_nine_each_four_on_the_table():
    rules = Rules.scopone_classico()
    assert (rules.players, rules.hand_size, rules.table_size, rules.rounds, rules.target) == (4, 9, 4, 1, 21)


@pytest.mark.parametrize("target", [11, 16, 21, None])
def test_targets_eleven_sixteen_twenty_one_or_single_deal(target):
    assert Rules(target=target).target == target
    assert Rules(target=target).single_deal is (target is None)


@pytest.mark.parametrize("options, message", [
    ({"players": 2, "variant": Variant.SCOPONE_SCIENTIFICO}, "Scopone is a four-player game: set players to 4."),
    ({"players": 3, "variant": "scopone_classico"}, "Scopone is a four-player game"),
    ({"players": 5}, "Scopa is played by 2, 3 or 4 players, not 5."),
    ({"players": 1}, "Scopa is played by 2, 3 or 4 players, not 1."),
    ({"players": True}, "Scopa is played by 2, 3 or 4 players"),
    ({"players": 3.0}, "Scopa is played by 2, 3 or 4 players"),
    ({"target": 12}, "The match target is 11, 16 or 21 points, or a single deal; not 12."),
    ({"target": True}, "The match target is 11, 16 or 21 points"),
    ({"target": 11.0}, "The match target is 11, 16 or 21 points"),
    ({"variant": "briscola"},
     "Unknown variant 'briscola': choose scopa, scopone_scientifico, scopone_classico, scopa_15, cirulla."),
    ({"napola": 1}, "The option napola is on or off (true or false)."),
])
def test_invalid_rules_raise_rules_error_with_clear_text(options, message):
    with pytest.raises(RulesError) as caught:
        Rules(**options)
    assert message in str(caught.value)
    assert isinstance(caught.value, ScopaError) and isinstance(caught.value, ValueError)


def test_rules_round_trip_through_dict_and_reject_unknown_options():
    rules = Rules.scopone_classico(napola=True, re_bello=True, target=None)
    assert Rules.from_dict(rules.to_dict()) == rules
    assert rules.to_dict()["variant"] == "scopone_classico"
    with pytest.raises(RulesError, match="Unknown rule option 'jokers'"):
        Rules.from_dict({"jokers": True})
    with pytest.raises(RulesError, match="set of named options"):
        Rules.from_dict(["players", 2])


def test_enabled_options_names_the_house_rules_that_are_on():
    assert Rules().enabled_options() == ("kings_redeal",)
    assert Rules(kings_redeal=False, napola=True, asso_piglia_tutto=True).enabled_options() == (
        "napola", "asso_piglia_tutto")


def test_parse_of_a_non_string_gives_the_players_message():
    with pytest.raises(ValueError, match="is not a card"):
        Card.parse(5)  # type: ignore[arg-type]
