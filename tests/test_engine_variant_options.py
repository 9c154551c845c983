"""Cirulla scored as its players score it, and the first tables of Scopa a 15 (issue 43).

Every case is a position written out by hand: the piles of a finished deal, the four cards of a
first table, the last play of a deal. docs/rules.md ("Cirulla", "Scopa a 15", "Rule options")
says each rule, and where it comes from.
"""
from __future__ import annotations

import json
import random

import pytest

from scopa.engine import (
    ALL_CARDS,
    Card,
    DealScored,
    GameState,
    MatchWon,
    OpeningTableTaken,
    Rules,
    RulesError,
    Variant,
    match_result,
    new_match,
    parse_cards,
    score_deal,
    state_from_dict,
)
from scopa.engine.scoring import Category, grande_points, piccola_points
from scopa.engine.state import _start_deal
from scopa.match import MatchRecord, SeatSetup
from scopa.narration import Narrator
from scopa.net.protocol.wire import decode_event, decode_rules, encode_event
from scopa.storage import match_from_json, match_to_json

RC = Rules.cirulla()
R15 = Rules.scopa_15()
# The rules a file or a room held before issue 43, as they were written then.
OLD_KEYS = {"players", "variant", "target", "kings_redeal", "faces_match_only", "most_cards", "napola", "re_bello",
            "asso_piglia_tutto", "win_by_two", "a_perdere"}


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text.split())


def rest_of_pack(*taken: str) -> tuple[Card, ...]:
    held = {c for text in taken for c in cards(text)}
    return tuple(c for c in ALL_CARDS if c not in held)


# 1. Grande and piccola ---------------------------------------------------------------------------------
@pytest.mark.parametrize("pile, grande", [("JD QD KD", 5), ("JD QD KD 7D", 6), ("JD QD KD 7D 6D", 7),
                                          ("JD QD KD 6D", 5), ("JD QD KD 7D 6D 5D 4D", 7), ("JD KD 7D 6D", 0),
                                          ("JH QH KH", 0)])
def test_the_grande_is_five_and_one_more_for_each_next_coin_down_to_the_six(pile, grande):
    assert grande_points(cards(pile)) == grande


@pytest.mark.parametrize("pile, piccola", [("AD 2D 3D", 3), ("AD 2D 3D 4D", 4), ("AD 2D 3D 4D 5D", 5),
                                           ("AD 2D 3D 4D 5D 6D", 6), ("AD 2D 3D 4D 5D 6D 7D", 6),
                                           ("AD 2D 3D 5D 6D", 3), ("AD 2D 4D 5D", 0), ("AH 2H 3H", 0)])
def test_the_piccola_is_three_and_one_more_for_each_next_coin_up_to_the_six(pile, piccola):
    assert piccola_points(cards(pile)) == piccola


def test_cirullas_score_sheet_names_the_grande_and_the_piccola_and_counts_them():
    mine = cards("AD 2D 3D 4D 7H 6S AS 7C")  # the piccola to the four: 4
    theirs = rest_of_pack("AD 2D 3D 4D 7H 6S AS 7C")  # the grande, the seven and the six of coins: 7
    score = score_deal((mine, theirs), (0, 0), RC)
    assert Category.GRANDE in score.categories and Category.PICCOLA in score.categories
    assert (score.sides[0].piccola, score.sides[0].grande) == (4, 0)
    assert (score.sides[1].piccola, score.sides[1].grande) == (0, 7)
    assert score.sides[0].points[Category.PICCOLA] == 4 and score.sides[1].points[Category.GRANDE] == 7
    assert all(s.total == sum(s.points.values()) for s in score.sides)
    assert score.sides[1].total == 1 + 1 + 1 + 1 + 7  # cards, coins, settebello, primiera (78 to 72), grande
    plain = score_deal((mine, theirs), (0, 0), Rules())
    assert Category.GRANDE not in plain.categories and plain.sides[1].total == 4  # plain Scopa has none


def test_a_cirulla_of_older_records_has_no_grande_nor_piccola():
    older = Rules.cirulla(grande_piccola=False)
    score = score_deal((cards("AD 2D 3D JD QD KD"), rest_of_pack("AD 2D 3D JD QD KD")), (0, 0), older)
    assert Category.GRANDE not in score.categories and score.sides[0].grande == score.sides[0].piccola == 0


def test_in_cirulla_the_piccola_takes_the_napolas_place():
    with pytest.raises(RulesError) as error:
        Rules.cirulla(napola=True)
    assert error.value.code == "variant_option"
    assert "napola" not in RC.available_options() and "grande_piccola" in RC.available_options()
    older = Rules.cirulla(grande_piccola=False, ace_scopa=False, napola=True)  # a Cirulla of older records keeps it
    assert older.napola and "napola" in older.available_options()
    assert Rules(napola=True).napola and Rules.scopa_15(napola=True).napola  # napola stays for the others
    for name in ("grande_piccola", "ace_scopa", "matta_table", "table_nine", "cappotto"):
        for factory in (Rules, Rules.scopa_15):
            with pytest.raises(RulesError) as error:
                factory(**{name: True})
            assert error.value.code == "variant_option"


def test_the_sheet_says_grande_and_piccola_in_english_and_italian():
    piles = (cards("AD 2D 3D 4D"), rest_of_pack("AD 2D 3D 4D"))
    score = score_deal(piles, (0, 0), RC)
    english = [a.text for a in Narrator(["You", "Robin"], RC, you=0).score_lines(1, score, score.totals)]
    assert "Grande. You 0, Robin 7." in english and "Piccola. You 4, Robin 0." in english
    nobody = score_deal((cards("AD 2D JD"), rest_of_pack("AD 2D JD")), (0, 0), RC)  # no run: said when asked
    short = [a.text for a in Narrator(["You", "Robin"], RC, you=0).score_lines(1, nobody, nobody.totals)]
    assert not any(line.startswith(("Grande", "Piccola")) for line in short)
    asked = [a.text for a in Narrator(["You", "Robin"], RC, you=0).score_lines(1, nobody, nobody.totals, asked=True)]
    assert "Grande. You 0, Robin 0." in asked and "Piccola. You 0, Robin 0." in asked
    italian = [a.text for a in Narrator(["Tu", "Robin"], RC, you=0, lang="it").score_lines(1, score, score.totals)]
    assert any(line.startswith("Grande.") and "7" in line for line in italian)
    assert any(line.startswith("Piccola.") and "4" in line for line in italian)


def test_a_cirulla_pile_says_its_grande_and_piccola_so_far():
    state, _ = new_match(RC, 1, first_dealer=1)
    view = state._replace(piles=(cards("AD 2D 3D JD QD KD 7D"), rest_of_pack("AD 2D 3D JD QD KD 7D"))).view(0)
    said = Narrator(["You", "Robin"], RC, you=0).pile(view, 0).text
    assert said.endswith("The grande, 6. The piccola, 3.")
    assert "grande" not in Narrator(["You", "Robin"], RC, you=0).pile(view, 1).text
    assert "grande" not in Narrator(["You", "Robin"], Rules(), you=0).pile(view, 0).text


# 2. The ace that takes the whole table (the cases of a table of 14 are in test_engine_variants.py) --------
def test_the_ace_scopa_is_cirullas_default_and_the_other_reading_an_option():
    assert RC.ace_scopa and not Rules.cirulla(ace_scopa=False).ace_scopa
    assert "ace_scopa" in RC.available_options()


# 3. Published Cirulla options --------------------------------------------------------------------------
def _first_table(monkeypatch: pytest.MonkeyPatch, rules: Rules, table: str, dealer: int = 0
                 ) -> tuple[GameState, list]:
    """The first deal, its first four cards ``table`` (no redeal)."""
    wanted = cards(table)
    deck = list(wanted) + [c for c in ALL_CARDS if c not in wanted]
    monkeypatch.setattr("scopa.engine.state._shuffled_deal", lambda rules, seed, deal: (list(deck), 0))
    return _start_deal(rules, 0, 1, dealer, (0,) * rules.sides, ())


def _taken(events: list) -> list[int]:
    return [e.scope for e in events if isinstance(e, OpeningTableTaken)]


@pytest.mark.parametrize("table, plain, wild", [("7H 2S 3C AD", 0, 1),   # 2 + 3 + 1, and the matta as a 9
                                                ("7H KS QC 5D", 0, 2),   # 10 + 9 + 5, and the matta as a 6
                                                ("7H 2S 3C 3D", 1, 1),   # already 15 with the matta a seven
                                                ("7H KS QC KD", 0, 2),   # 29, and the matta as an ace
                                                ("7H KS 5C 2D", 0, 0)])  # 17: no value makes 15 or 30
def test_the_matta_among_the_first_table_cards_counts_as_the_value_that_makes_fifteen_or_thirty(
        monkeypatch, table, plain, wild):
    for rules, expected in ((RC, plain), (Rules.cirulla(matta_table=True), wild)):
        state, events = _first_table(monkeypatch, rules, table)
        assert _taken(events) == ([expected] if expected else [])
        assert state.scope[0] == expected and (state.table == ()) == bool(expected)
        assert state_from_dict(state.to_dict()) == state


def test_the_matta_on_the_first_table_is_said_when_it_made_the_total(monkeypatch):
    rules = Rules.cirulla(matta_table=True)
    _state, events = _first_table(monkeypatch, rules, "7H 2S 3C AD")
    taken = next(e for e in events if isinstance(e, OpeningTableTaken))
    text = Narrator(["You", "Robin"], rules, you=1).opening_text(taken)
    assert text.startswith("Fifteen on the table. You deal") and "matta" in text


@pytest.mark.parametrize("table, nine", [("AS 2C 2D 4H", 3), ("2S 2C 2D 3H", 3), ("AS 2C 3D 4H", 0),
                                         ("AS 2C 5D 7H", 1)])  # 15 stays one scopa
def test_a_first_table_worth_nine_or_less_is_three_scopas_under_its_option(monkeypatch, table, nine):
    state, events = _first_table(monkeypatch, Rules.cirulla(table_nine=True), table)
    assert _taken(events) == ([nine] if nine else []) and state.scope[0] == nine
    assert state_from_dict(state.to_dict()) == state
    _plain, events = _first_table(monkeypatch, RC, table)
    assert _taken(events) == ([1] if nine == 1 else [])
    said = Narrator(["Robin", "You"], Rules.cirulla(table_nine=True), you=1)
    if nine == 3:
        taken = next(e for e in _first_table(monkeypatch, Rules.cirulla(table_nine=True), table)[1]
                     if isinstance(e, OpeningTableTaken))
        assert said.opening_text(taken) == "Nine or less on the table. Robin deals, and takes it for three scopas."


def test_the_matta_makes_nine_or_less_as_an_ace(monkeypatch):
    _state, events = _first_table(monkeypatch, Rules.cirulla(table_nine=True, matta_table=True), "7H 2S 2C 3D")
    assert _taken(events) == [3]  # 1 + 2 + 2 + 3 = 8 is worth more than 15 (the matta as an eight)


def _last_capture(rules: Rules) -> GameState:
    """Seat 0's last card, the two of cups, takes the two of hearts; seat 0's side holds the rest."""
    state, _ = new_match(rules, 1, first_dealer=1)
    rest = rest_of_pack("2C 2H")
    return state._replace(to_move=0, hands=((cards("2C")[0],),) + ((),) * (rules.players - 1),
                          table=cards("2H"), stock=(), piles=(rest,) + ((),) * (rules.sides - 1),
                          scope=(0,) * rules.sides, history=(), last_capturer=None)


def test_cappotto_all_ten_coins_win_the_match_at_once():
    after, events = _last_capture(Rules.cirulla(cappotto=True)).apply(("2C", ["2H"]))
    scored = next(e for e in events if isinstance(e, DealScored))
    assert scored.score.cappotto == 0 and scored.match_scores[0] < 51
    assert next(e for e in events if isinstance(e, MatchWon)).side == 0
    assert after.is_match_over and after.winner == 0
    lines = [a.text for a in Narrator(["You", "Robin"], after.rules, you=0).score_lines(1, scored.score,
                                                                                         scored.match_scores)]
    assert "Cappotto. All ten diamonds to you, and with them the match." in lines
    italian = Narrator(["Tu", "Robin"], after.rules, you=0, lang="it", naming="napoletane")
    said = [a.text for a in italian.score_lines(1, scored.score, scored.match_scores)]
    assert "Cappotto. Tutti e dieci i denari a te, e con loro la partita." in said
    plain, events = _last_capture(RC).apply(("2C", ["2H"]))
    assert not any(isinstance(e, MatchWon) for e in events) and not plain.is_match_over
    assert next(e for e in events if isinstance(e, DealScored)).score.cappotto is None


def test_cappotto_wins_whatever_the_totals_say():
    rules = Rules.cirulla(cappotto=True)
    assert match_result((10, 60), rules, cappotto=0) == (0, True)
    assert match_result((10, 60), rules) == (1, True)
    assert match_result((10, 20), rules) == (None, False)


# 4. Scopa a 15's first table ---------------------------------------------------------------------------
@pytest.mark.parametrize("players, dealer, taker", [(2, 0, 1), (4, 0, 3), (3, 1, 0)])
def test_a_first_table_of_fifteen_goes_to_the_leader_under_opening_to_leader(monkeypatch, players, dealer, taker):
    rules = Rules.scopa_15(players=players, opening_to_leader=True)
    state, events = _first_table(monkeypatch, rules, "AC 2S 4S JH", dealer)
    taken = next(e for e in events if isinstance(e, OpeningTableTaken))
    assert taken.dealer == taker and taken.side == rules.side_of(taker) and state.last_capturer == taker
    assert state.scope[rules.side_of(taker)] == 1 and sorted(state.piles[rules.side_of(taker)]) == sorted(taken.cards)
    assert state_from_dict(state.to_dict()) == state
    _default, events = _first_table(monkeypatch, Rules.scopa_15(players=players), "AC 2S 4S JH", dealer)
    assert next(e for e in events if isinstance(e, OpeningTableTaken)).dealer == dealer
    said = Narrator(["Ann", "Bruno", "Carla", "Dino"][:players], rules, you=None)
    assert said.opening_text(taken).startswith("Fifteen on the table.") and "leads" in said.opening_text(taken)


@pytest.mark.parametrize("table, pairs", [("5S 7S JC KD", True),    # 5 + 10 and 7 + 8
                                          ("KC QS JH 3D", False),   # 30, but no pair makes 15
                                          ("6C 6S QH QD", True)])   # 6 + 9 twice
def test_a_first_table_of_thirty_is_two_scopas_in_scopa_a_15_only_as_two_pairs(monkeypatch, table, pairs):
    _state, events = _first_table(monkeypatch, R15, table)
    assert _taken(events) == ([2] if pairs else [])
    _state, events = _first_table(monkeypatch, Rules.scopa_15(opening_pairs=False), table)
    assert _taken(events) == [2]  # the other reading: any thirty
    _state, events = _first_table(monkeypatch, RC, table)
    assert _taken(events) == [2]  # Cirulla's pages: any thirty


def test_scopa_a_15_has_no_kings_redeal_unless_chosen():
    assert not R15.kings_redeal and Rules.scopa_15(kings_redeal=True).kings_redeal
    kings = next(seed for seed in range(2000) if new_match(Rules(), seed)[0].redeals)
    _state, events = new_match(R15, kings)
    first = next(e for e in events if getattr(e, "table", None) is not None).table
    assert sum(1 for c in first if c.rank == "K") >= 3  # the very table Scopa would have dealt again
    assert new_match(Rules.scopa_15(kings_redeal=True), kings)[0].redeals > 0


# 5. A perdere with three sides ------------------------------------------------------------------------
def test_a_perdere_with_three_sides_ends_when_one_reaches_the_target_and_the_lowest_wins():
    rules = Rules(players=3, a_perdere=True)
    assert match_result((11, 4, 7), rules) == (1, True)  # nobody is put out: the lowest of the three wins
    assert match_result((11, 4, 4), rules) == (None, False)  # the lowest tied: another deal
    assert match_result((10, 4, 7), rules) == (None, False)


# Old records and rooms, and the rules written as before --------------------------------------------
def test_every_rule_set_made_before_the_new_options_is_written_exactly_as_before():
    for rules in (Rules(), Rules(players=4, napola=True), Rules.scopa_15(opening_pairs=False, kings_redeal=True),
                  Rules.cirulla(grande_piccola=False, ace_scopa=False)):
        assert set(rules.to_dict()) == OLD_KEYS
        assert Rules.from_dict(rules.to_dict()) == rules
    assert RC.to_dict()["grande_piccola"] is True and "cappotto" not in RC.to_dict()
    assert Rules.from_dict(RC.to_dict()) == RC


def test_an_old_cirulla_file_still_loads_and_keeps_its_rules():
    older = Rules.cirulla(grande_piccola=False, ace_scopa=False)  # Cirulla as every earlier file has it
    seats = (SeatSetup("Ann"), SeatSetup("Bruno", "computer", "easy"))
    for seed in range(40):  # a match in which an ace took a whole table: no scopa then, none now
        record, _ = MatchRecord.start(older, seats, seed)
        rng = random.Random(seed)
        swept = False
        while not record.state.is_deal_over:
            moves = record.state.legal_moves()
            aces = [m for m in moves if m.card.value == 1 and len(m.capture) == len(record.state.table) > 1]
            move = aces[0] if aces else rng.choice(moves)
            swept = swept or bool(aces)
            record, _ = record.play(move)
        if swept:
            break
    assert swept
    data = json.loads(match_to_json(record))
    assert set(data["rules"]) == OLD_KEYS and set(data["state"]["rules"]) == OLD_KEYS
    loaded = match_from_json(json.dumps(data))
    assert loaded == record and loaded.rules == older and not loaded.rules.grande_piccola


def test_a_room_and_its_events_carry_the_new_options():
    rules = Rules.cirulla(cappotto=True, table_nine=True, matta_table=True)
    assert decode_rules(json.loads(json.dumps(rules.to_dict()))) == rules
    assert decode_rules(Rules.cirulla(grande_piccola=False, ace_scopa=False).to_dict()).variant is Variant.CIRULLA
    event = OpeningTableTaken(0, 0, cards("AS 2C 2D 4H"), 3)  # a first table of nine: three scopas
    assert decode_event(json.loads(json.dumps(encode_event(event))), rules) == event
