"""What the variants sound like (issue 32), in English and Italian: captures that make fifteen, the
first table taken, Cirulla's claims said to everyone with the cards, and the redeal for aces."""
from __future__ import annotations

import pytest

from scopa.engine import Card, CardsCaptured, DealStarted, HandClaimed, OpeningTableTaken, Rules, new_match, parse_cards
from scopa.narration import Narrator


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text.split())


def said(narrator: Narrator, *events: object) -> list[str]:
    return [a.text for a in narrator.events(list(events))]  # type: ignore[arg-type]


@pytest.mark.parametrize("lang, theirs, mine, full", [
    ("en", "Robin plays seven of clubs, takes jack of diamonds, fifteen.",
     "You play seven of clubs, take jack of diamonds, fifteen.",
     "Robin plays the seven of clubs and takes the jack of diamonds, to make fifteen."),
    ("it", "Robin gioca sette di fiori, prende fante di quadri, quindici.",
     "Giochi sette di fiori, prendi fante di quadri, quindici.",
     "Robin gioca il sette di fiori e prende il fante di quadri, per fare quindici."),
])
def test_a_capture_that_makes_fifteen_says_so(lang, theirs, mine, full):
    narrator = Narrator(["You", "Robin"], Rules.scopa_15(), 0, lang)
    assert said(narrator, CardsCaptured(1, Card.parse("7C"), cards("JD"))) == [theirs]
    assert said(narrator, CardsCaptured(0, Card.parse("7C"), cards("JD"))) == [mine]
    narrator.verbosity = "full"
    assert said(narrator, CardsCaptured(1, Card.parse("7C"), cards("JD"))) == [full]
    plain = Narrator(["You", "Robin"], Rules(), 0, lang)  # Scopa's captures never make fifteen
    assert "15" not in said(plain, CardsCaptured(1, Card.parse("7C"), cards("4D 3S")))[0]


def test_the_capture_menu_says_each_group_makes_fifteen():
    narrator = Narrator(["You", "Robin"], Rules.scopa_15(), 0, "en")
    one = narrator.capture_choice(0, Card.parse("7C"), [cards("JD")], cards("JD 2S"))
    assert one[0].text.startswith("Seven of clubs takes jack of diamonds, to make fifteen.")
    assert one[0].private_to == 0
    many = narrator.capture_choice(0, Card.parse("3C"), [cards("2S KD"), cards("AS 2H QD")], cards("KD 2S QD AS 2H"))
    assert [a.text for a in many[1:]] == ["1, two of spades and king of diamonds, to make fifteen.",
                                          "2, ace of spades, two of hearts and queen of diamonds, to make fifteen."]
    italian = Narrator(["Tu", "Robin"], Rules.cirulla(), 0, "it")
    menu = italian.capture_choice(0, Card.parse("7C"), [cards("7S"), cards("3H 5S")], cards("3H 5S 6D 7S"))
    assert [a.text for a in menu[1:]] == ["1, sette di picche.",
                                          "2, tre di cuori e cinque di picche, per fare quindici."]


@pytest.mark.parametrize("lang, lines", [
    ("en", ["Fifteen on the table. Robin deals, and takes it for a scopa.",
            "Thirty on the table. You deal, and take it for two scope."]),
    ("it", ["Quindici in tavola. Robin fa le carte e la prende, una scopa.",
            "Trenta in tavola. Fai tu le carte e la prendi, due scope."]),
])
def test_the_first_table_taken_by_the_dealer(lang, lines):
    narrator = Narrator(["You", "Robin"], Rules.scopa_15(), 0, lang)
    assert said(narrator, OpeningTableTaken(1, 1, cards("AC 2S 4S JH"), 1),
                OpeningTableTaken(0, 0, cards("5S 7S JC KD"), 2)) == lines


@pytest.mark.parametrize("lang, lines", [
    ("en", ["Cirulla for Robin, three points. The hand shown is ace of diamonds, two of spades and six of clubs.",
            ("Three of a kind for you, ten points. Your hand is shown, seven of hearts, king of diamonds and king "
             "of spades."),
            "Deal 1. You deal. Two or more aces on the table, so the cards were dealt again."]),
    ("it", ["Cirulla per Robin, tre punti. La mano mostrata è asso di quadri, due di picche e sei di fiori.",
            "Tris per te, dieci punti. La tua mano è scoperta, sette di cuori, re di quadri e re di picche.",
            "Smazzata 1. Dai tu le carte. Due o più assi sul tavolo, carte distribuite di nuovo."]),
])
def test_a_claim_is_said_to_everyone_with_the_cards_shown(lang, lines):
    narrator = Narrator(["You", "Robin"], Rules.cirulla(), 0, lang)
    announced = narrator.events([HandClaimed(1, 1, "cirulla", 3, cards("AD 2S 6C")),
                                 HandClaimed(0, 0, "tris", 10, cards("7H KD KS")), DealStarted(1, 0, 1, 1)])
    assert [a.text for a in announced] == lines
    assert all(a.private_to is None for a in announced)  # public: the hand is shown to the table


def test_the_score_sheet_of_cirulla_has_the_bonus_line():
    for seed in range(300):
        state, _ = new_match(Rules.cirulla(), seed)
        if state.claimable():
            break
    state, _ = state.claim()
    while not state.is_deal_over:
        state, _ = state.apply(state.legal_moves()[0])
    lines = [a.text for a in Narrator(["You", "Robin"], state.rules, 0, "en").score_lines(1, state.deal_score,
                                                                                          state.match_scores)]
    bonus = [line for line in lines if line.startswith("Hand bonuses.")]
    assert len(bonus) == 1 and ("3" in bonus[0] or "10" in bonus[0])
    plain, _ = new_match(Rules(), 1)
    while not plain.is_deal_over:
        plain, _ = plain.apply(plain.legal_moves()[0])
    scopa_lines = Narrator(["You", "Robin"], plain.rules, 0, "en").score_lines(1, plain.deal_score,
                                                                               plain.match_scores)
    assert not any(a.text.startswith("Hand bonuses.") for a in scopa_lines)
