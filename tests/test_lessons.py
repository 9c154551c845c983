"""Lessons, tips, hints and the rules reader, driven through a scripted Input like the game's."""
from __future__ import annotations

import json
import random
import re
import string
from collections.abc import Callable
from pathlib import Path

import pytest

from helpers.lessons import Token, make_program, screen
from scopa.config import Settings, load_settings
from scopa.engine import (
    Card,
    LeftoversTaken,
    Rules,
    ScopaError,
    check_invariants,
    new_deal,
    parse_cards,
    score_deal,
    state_from_dict,
)
from scopa.engine.scoring import Category
from scopa.lessons import LESSON_COUNT, LESSONS, tip_for
from scopa.lessons.catalogue import LessonText, load_catalogue, rules_markdown, split_sections
from scopa.lessons.content import (
    L1_POSITION,
    L2_POSITION,
    L3_POSITION,
    L4_POSITION,
    L7_PILE_OTHER,
    L7_PILE_YOU,
    L7_SCOPE,
    l5_last_play_position,
    l5_sweep_position,
    l6_position,
    l7_score,
)
from scopa.lessons.positions import LESSON_RULES, position
from scopa.lessons.rules_reader import rules_sections
from scopa.narration import Announcement, Narrator
from scopa.players import suggest_move

ROOT = Path(__file__).resolve().parents[1]
TEXT = ROOT / "src" / "scopa" / "lessons" / "text"

FULL = Settings(voice=False, verbosity="full")  # the game's lines in a lesson follow the verbosity: whole here


# Every lesson, played through with a wrong move and then the right one ---------------------------

# (lesson, keys with a wrong move first; each wrong move is followed by Enter to try again)
SCRIPTS = {
    1: ["1", "enter", "3", "enter", "enter",          # quiz: eight is wrong; try again; ten
        "1", "enter", "enter", "2", "enter"],          # the king is wrong; the jack is right
    2: ["1", "1", "enter", "enter",                    # the seven of hearts, not the settebello
        "1", "2", "enter"],                            # the settebello
    3: ["1", "enter", "enter",                         # the five must take the five
        "2", "enter"],                                 # the seven takes the two and the five
    4: ["1", "1", "enter", "enter",                    # three cards, settebello left on the table
        "1", "2", "enter"],                            # the ace and the settebello
    5: ["2", "enter", "enter", "1", "enter",           # the three: no sweep; then the six sweeps
        "enter", "1", "enter", "2",                    # go on; "yes, a scopa" is wrong; no
        "enter", "1", "enter"],                        # go on; play the last card
    6: ["1", "enter", "1", "enter", "enter",           # the four first: Robin makes the last capture
        "2", "enter", "1", "enter"],                   # the six first: the leftovers are yours
    7: ["1", "enter", "3", "enter",                    # coins: a tie, nobody
        "1", "enter", "3", "enter",                    # primiera swords: the ace
        "3", "enter", "1", "enter",                    # primiera point: you (Robin lacks a suit)
        "1", "enter", "2"],                            # deal points: three
}


@pytest.mark.parametrize("number", sorted(SCRIPTS))
def test_each_lesson_explains_a_wrong_move_then_is_done_after_the_right_one(tmp_path: Path, number: int) -> None:
    program = make_program(tmp_path, SCRIPTS[number] + ["escape"])
    assert program.run_lesson(number) == 0
    out = screen(program)
    assert f"Lesson {number} of 8." in out
    assert "Not quite." in out and "Enter to try again, N for the next lesson" in out
    assert "Right." in out
    assert f"Lesson {number} done." in out
    assert program.settings.lessons_done == (number,)
    saved, problem = load_settings(tmp_path / "config")
    assert problem is None and saved.lessons_done == (number,)
    assert "Goodbye." in out


def test_the_last_play_of_a_deal_is_not_called_a_sweep(tmp_path: Path) -> None:
    program = make_program(tmp_path, ["1", "enter", "enter", "2", "enter", "1", "enter", "escape"], settings=FULL)
    program.run_lesson(5)
    out = screen(program)
    assert "The six of clubs takes the ace of clubs, the two of hearts and the three of spades and sweeps" in out
    assert "The six of diamonds takes the ace of spades, the two of clubs and the three of hearts. Enter" in out
    assert "Your scopa! You play the four" not in out and "Your scopa! You play the six of diamonds" not in out
    assert "Lesson 5 done." in out


def test_a_wrong_move_alone_does_not_finish_the_lesson(tmp_path: Path) -> None:
    program = make_program(tmp_path, ["1", "enter", "escape"])  # lesson 3: the five, then leave
    assert program.run_lesson(3) == 0
    out = screen(program)
    assert "Not quite. Together the two of spades and the three of clubs make 5" in out
    assert "Lesson 3 done." not in out
    assert program.settings.lessons_done == ()


@pytest.mark.parametrize("key", ["escape", "q"])
def test_escape_or_q_leaves_a_lesson(tmp_path: Path, key: str) -> None:
    program = make_program(tmp_path, [key])
    assert program.run_lesson(2) == 0
    assert "Lesson left." in screen(program)
    assert program.settings.lessons_done == ()


def test_lesson_keys_repeat_goal_table_hand_and_cancel(tmp_path: Path) -> None:
    program = make_program(tmp_path, ["g", "t", "h", "?", "r", "x", "z", "9", "1", "escape", "1", "2", "enter",
                                      "escape"], settings=FULL)
    program.run_lesson(2)
    out = screen(program)
    assert out.count("Goal. Take the settebello.") >= 2
    assert out.count("On the table, four of clubs, seven of hearts") >= 2
    assert out.count("Your hand. 1, seven of spades, 2, three of hearts, 3, five of clubs.") >= 2
    assert "Keys. Number keys pick a card or an answer." in out
    assert "Unknown key, question mark for help." in out  # the match's own line
    assert "No card 9." in out
    assert "Cancelled." in out
    assert program.test_speaker.stops >= 1
    assert "Lesson 2 done." in out


def test_n_goes_on_to_the_next_lesson_and_the_last_lesson_ends_the_run(tmp_path: Path) -> None:
    program = make_program(tmp_path, ["n", "escape"])  # N at the first question of lesson 7 is no answer
    program.run_lesson(7)
    assert "Pick an answer from 1 to 3." in screen(program)
    program = make_program(tmp_path, SCRIPTS[3] + ["n", "escape"])
    program.run_lesson(3)
    assert "Lesson 4 of 8. Choosing among sums." in screen(program)


def test_lesson_8_at_short_verbosity_reads_the_hand_once_a_round_and_every_turn_at_full(tmp_path: Path) -> None:
    hands = {}
    for verbosity in ("short", "full"):
        program = make_program(tmp_path / verbosity, [], auto=True, settings=Settings(voice=False, verbosity=verbosity))
        program.run_lesson(8)
        out = screen(program)
        assert "Lesson 8 done." in out and out.count("Hint. ") >= 18  # the lesson's own lines, whole at both
        hands[verbosity] = len(re.findall(r"^(Your hand|Hand)\b", out, re.MULTILINE))
    assert hands == {"short": 6, "full": 18}  # a round's three cards; then each of the 18 turns


def test_the_verbosity_changed_in_the_settings_during_a_lesson_applies_at_once(tmp_path: Path) -> None:
    program = make_program(tmp_path, ["h", "o", "5", "1", "escape", "escape", "h", "escape"])  # short, then full
    program.run_lesson(2)
    hands = re.findall(r"^.*hand.*seven of spades.*$", screen(program), re.IGNORECASE | re.MULTILINE)
    assert hands[0].startswith("Hand, seven of spades") and hands[-1].startswith("Your hand. 1, seven of spades")
    assert program.settings.verbosity == "full"


def test_typed_short_and_full_switch_the_lesson_as_they_switch_a_match(tmp_path: Path) -> None:
    program = make_program(tmp_path, ["full", "h", "short", "h", "escape"], settings=Settings(voice=False))
    program.run_lesson(2)
    out = screen(program)
    assert "Full announcements." in out and "Short announcements." in out
    hands = re.findall(r"^.*hand.*seven of spades.*$", out, re.IGNORECASE | re.MULTILINE)
    assert [h.split(".")[0].split(",")[0] for h in hands[-2:]] == ["Your hand", "Hand"]


def test_lesson_8_plays_a_whole_deal_with_a_legal_hint_every_turn(tmp_path: Path) -> None:
    program = make_program(tmp_path, ["9", "i", "l", "s", "p"], auto=True)
    assert program.run_lesson(8) == 0
    out = screen(program)
    assert "Lesson 8 of 8. A whole deal with hints." in out
    assert "No card 9." in out
    turns = out.count("Card?")
    assert turns >= 18  # one prompt or more for each of your 18 cards
    assert out.count("Hint. ") >= 18
    assert "Deal 1 score." in out and "Deal points." in out
    assert "Lesson 8 done." in out
    assert program.settings.lessons_done == (8,)
    after = out.split("Lesson 8 done.")[1]
    assert "Enter to play this one again, Escape to leave." in after and "N for the next" not in after  # the last


def test_lesson_8_hints_are_the_game_suggestions_and_legal() -> None:
    from scopa.lessons.content import l8_start
    for attempt in range(3):
        state, _ = l8_start(attempt)
        rng = random.Random(attempt)
        while not state.is_deal_over:
            if state.to_move == 0:
                move, _ = suggest_move(state.view(0))
                assert move in state.legal_moves()
            state, _ = state.apply(rng.choice(state.legal_moves()))


def test_lesson_run_out_of_range_gives_one_line_and_exit_code_2(tmp_path: Path) -> None:
    for number in (0, 11, -1):
        program = make_program(tmp_path, [])
        assert program.run_lesson(number) == 2
        lines = screen(program).strip().splitlines()
        assert lines == [f"There is no lesson {number}. Lessons run from 1 to 10."]


# The lessons of Scopa a 15 and Cirulla (issue 32) ----------------------------------------------------

def test_lesson_9_teaches_making_fifteen_and_the_first_table(tmp_path: Path) -> None:
    # The seven takes the jack (wrong: the settebello stays), again, the three takes five and settebello.
    program = make_program(tmp_path, ["1", "enter", "enter", "2", "enter", "enter", "2", "enter"])
    assert program.run_lesson(9) == 0
    out = screen(program)
    assert "Lesson 9, scopa a 15. Making fifteen." in out
    assert "Seven of spades takes jack of diamonds, to make fifteen." in out
    assert "Not quite. Your seven took the jack of diamonds to make 15, but the settebello stayed." in out
    assert "Right. With the three of hearts you took the five of clubs and the settebello." in out
    assert "The dealer lays the ace of clubs, the two of spades, the four of hearts and the jack of diamonds" in out
    assert "Right. One, two, four and eight make 15." in out
    assert 9 in program.settings.lessons_done


def test_lesson_10_teaches_the_ace_the_equal_card_or_fifteen_and_the_bonuses(tmp_path: Path) -> None:
    program = make_program(tmp_path, ["1", "enter", "enter", "1", "1", "enter", "enter", "2", "enter", "enter",
                                      "2", "enter"])
    assert program.run_lesson(10) == 0
    out = screen(program)
    assert "Lesson 10, cirulla. The ace, fifteen, the bonuses, grande and piccola." in out
    assert "Right. Your ace took the whole table, the settebello with it, and that is a scopa." in out
    assert "1, the settebello." in out and "2, three of hearts and five of spades, to make fifteen." in out
    assert "Right. Your seven took the settebello, an equal card." in out
    assert "Right. One, two and six make 9, a cirulla." in out
    assert "The grande is the jack, queen and king of diamonds in one pile, worth 5 points." in out
    assert ("Right. The four of diamonds makes the piccola 4, and without the seven of diamonds the grande stays "
            "at 5.") in out
    assert "That was the last lesson." not in out or 10 in program.settings.lessons_done
    assert 10 in program.settings.lessons_done


def test_the_lessons_of_the_other_games_are_the_menus_tenth_item(tmp_path: Path) -> None:
    program = make_program(tmp_path, ["0", "2", "escape", "escape"], lang="it")
    assert program.lessons_menu() is None
    out = screen(program)
    assert "lezioni di scopa a 15 e cirulla" in out
    assert "Lezione 10, cirulla. L'asso, il quindici, i bonus, grande e piccola." in out


def test_the_lessons_of_the_other_games_play_their_own_rules() -> None:
    from scopa.engine import Variant
    from scopa.lessons.content import VARIANT_LESSONS
    assert [lesson.rules.variant for lesson in VARIANT_LESSONS] == [Variant.SCOPA_15, Variant.CIRULLA]
    for lesson in VARIANT_LESSONS:
        for step in lesson.steps:
            if hasattr(step, "start"):
                state, _ = step.start(0)
                assert state.rules == lesson.rules and state.legal_moves()


def test_input_ending_in_a_lesson_exits_quietly(tmp_path: Path) -> None:
    program = make_program(tmp_path, ["1"])
    assert program.run_lesson(1) == 0


# The Lessons menu ---------------------------------------------------------------------------------

def _menu_number(label: str) -> Callable[[str], str]:
    """The number of a main-menu item, read from the listing the screen shows."""
    def pick(shown: str) -> str:
        listing = [line for line in shown.splitlines() if re.match(r"1, \w", line)][-1]
        match = re.search(r"(\d+), " + re.escape(label), listing)
        assert match, listing
        return match.group(1)
    return pick


def test_lessons_menu_from_the_main_menu_marks_done_lessons(tmp_path: Path) -> None:
    tokens: list[Token] = [_menu_number("lessons"), "enter"]        # Enter: the first lesson not done
    tokens += SCRIPTS[1] + ["escape"]                                # lesson 1, then back to the list
    tokens += ["escape", _menu_number("quit")]
    program = make_program(tmp_path, tokens)
    assert program.run() == 0
    out = screen(program)
    assert "Lessons. 0 of 8 done." in out
    assert "1, the cards, suits and capture values. 2, taking an equal card" in out
    assert "Lesson 1 done." in out
    assert "Lessons. 1 of 8 done." in out
    assert "1, the cards, suits and capture values, done. 2, taking an equal card. 3" in out
    assert "9, the rules." in out
    assert load_settings(tmp_path / "config")[0].lessons_done == (1,)


def test_lessons_menu_enter_starts_the_first_lesson_not_done(tmp_path: Path) -> None:
    program = make_program(tmp_path, ["enter", "escape", "escape"],
                           settings=Settings(voice=False, lessons_done=(1, 2)))
    assert program.lessons_menu() is None
    out = screen(program)
    assert "Lessons. 2 of 8 done." in out
    assert "Lesson 3 of 8." in out


def test_lessons_menu_offers_the_rules_and_goes_on_with_n(tmp_path: Path) -> None:
    program = make_program(tmp_path, ["9", "escape", "8", "escape", "escape"])
    assert program.lessons_menu() is None
    out = screen(program)
    assert "Rules. 16 sections." in out and "Rules closed." in out
    assert "Lesson 8 of 8." in out


# The rules reader ----------------------------------------------------------------------------------

def test_rules_reader_pages_through_every_section(tmp_path: Path) -> None:
    _, sections = split_sections(rules_markdown("en"), opening=False)
    count = len(sections)  # this match first, the addresses of the sources (for a browser) left out
    assert count == 16
    tokens = ["enter"] * (count - 1) + ["n", "p", "p", "1", "p", "20", "r", "escape"]
    program = make_program(tmp_path, tokens)
    program.rules_reader()
    out = screen(program)
    assert f"Rules. {count} sections." in out
    assert "The usual rules. Section 1 of 16." in out  # no match running: not "This match"
    for number, section in enumerate(sections[:-1], start=2):
        assert f"{section.title}. Section {number} of {count}." in out
        for line in section.lines:
            assert line in out
    assert "End of the rules." in out
    assert "This is the first section." in out
    assert "There are 16 sections." in out
    assert out.strip().endswith("Rules closed.")


def test_rules_reader_tells_the_options_of_the_running_match(tmp_path: Path) -> None:
    program = make_program(tmp_path, ["escape"])
    program.narrator = Narrator(["You", "Robin"], Rules(target=None, napola=True, asso_piglia_tutto=True), 0)
    program.rules_reader()
    out = screen(program)
    assert "This match. Section 1 of 16." in out
    assert "2 players." in out and "A single deal." in out
    assert "Options on. Redeal for three kings, napola, asso piglia tutto." in out
    assert "Options off. Faces match only, most cards, re bello, scopa a perdere." in out


def test_rules_reader_match_section_for_scopone(tmp_path: Path) -> None:
    sections = rules_sections("en", Rules.scopone_scientifico(kings_redeal=False))
    assert sections[0].lines[:3] == ("Scopone scientifico. Four players, 10 cards each, none on the table.",
                                     "Playing to 21 points.", "No options are on.")


def test_rules_reader_match_section_for_the_fifteen_games(tmp_path: Path) -> None:
    sections = rules_sections("en", Rules.scopa_15(win_by_two=True))
    assert sections[0].lines == ("Scopa a 15, 2 players. A card takes what makes fifteen with it.",
                                 "Playing to 11 points.", "Options on. Thirty only as two pairs, win by two.",
                                 ("Options off. Redeal for three kings, napola, re bello, first table to the leader, "
                                  "scopa a perdere."))
    sections = rules_sections("it", Rules.cirulla(players=4))
    assert sections[0].lines[:3] == (("Cirulla, in 4. Carta uguale, somma o quindici, l'asso piglia tutto, e i bonus "
                                     "della mano."), "Si gioca a 51 punti.",
                                     "Varianti attive. Grande e piccola, l'asso che piglia tutto fa scopa.")
    assert "cappotto" in sections[0].lines[3] and "napola" not in sections[0].lines[3]  # the piccola is its napola
    titles = [s.title for s in rules_sections("en", None)]
    assert {"Scopa a 15", "Cirulla", "Where these rules come from"} <= set(titles)


def test_rules_reader_in_italian(tmp_path: Path) -> None:
    program = make_program(tmp_path, ["enter", "escape"], lang="it")
    program.rules_reader()
    out = screen(program)
    assert "Le regole di base. Sezione 1 di 16." in out
    assert "Le carte. Sezione 2 di 16." in out
    assert "Regole della scopa" not in out  # the document's opening is about the reader itself


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_reader_leaves_out_the_documents_opening_about_itself(lang: str) -> None:
    title, with_opening = split_sections(rules_markdown(lang))
    opening = with_opening[0]
    assert opening.title == title and any(" U," in line for line in opening.lines)  # it names the key
    sections = rules_sections(lang, None)
    assert [s.title for s in sections[1:]] == [s.title for s in with_opening[1:-1]]
    assert all(line not in s.lines for s in sections for line in opening.lines)
    addresses = with_opening[-1]  # the web addresses of the sources: in the document, not read aloud
    assert any("https://" in line for line in addresses.lines)
    assert all(line not in s.lines for s in sections for line in addresses.lines)


# The short card notation of match files and the engine ("7D", "KC", "10S"), and anything a
# screen reader or the game voice would say as a symbol.
CARD_CODE = re.compile(r"\b(10|[1-7]|[JQKA])[CDHS]\b")
SPOKEN_SYMBOLS = re.compile(r"[:;()\[\]{}|*_`#<>=/\\~^&%@]|[^\W\d_]-[^\W_]")  # Orca says "counter dash clockwise"


@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("rules", [None, Rules(), Rules(players=3, target=None, napola=True, re_bello=True),
                                   Rules.scopone_scientifico(), Rules.scopone_classico(asso_piglia_tutto=True),
                                   Rules.scopa_15(players=3, win_by_two=True, a_perdere=True), Rules.cirulla()],
                         ids=["no match", "default", "three players, options", "scientifico", "classico",
                              "scopa a 15", "cirulla"])
def test_every_section_the_reader_speaks_sounds_right(lang: str, rules: Rules | None) -> None:
    """Cards in words, no notation or symbols, whole sentences: each line is heard as it is."""
    sections = rules_sections(lang, rules)
    assert len(sections) == 16
    for section in sections:
        spoken = [section.title, *section.lines]
        assert section.title and not section.title.endswith((".", "?", "!")), section.title  # the reader adds "."
        for line in spoken:
            assert not CARD_CODE.search(line), line
            assert not SPOKEN_SYMBOLS.search(line), line
            assert "  " not in line and line == line.strip() and "\n" not in line, line
        for line in section.lines:
            assert line[:1].isupper() or line[:1].isdigit(), line
            assert line.endswith((".", "?", "!")), line


def test_the_speech_check_catches_notation_and_symbols() -> None:
    for bad in ("For example 7D for the seven of diamonds.", "KC is the king of clubs.", "Take 10S.",
                "Values: seven 21.", "| rank | value |", "Napola (a run of coins).",
                "Play goes counter-clockwise."):
        assert CARD_CODE.search(bad) or SPOKEN_SYMBOLS.search(bad), bad
    for good in ("The seven of coins is the settebello.", "Scopone scientifico. 10 cards each.", "Re bello."):
        assert not CARD_CODE.search(good) and not SPOKEN_SYMBOLS.search(good), good


def test_shipped_rules_are_docs_rules() -> None:
    assert (TEXT / "rules_en.md").read_text("utf-8") == (ROOT / "docs" / "rules.md").read_text("utf-8")
    assert rules_markdown("en") == (ROOT / "docs" / "rules.md").read_text("utf-8")


def test_italian_rules_have_the_same_sections_as_the_english() -> None:
    _, en = split_sections(rules_markdown("en"))
    _, it = split_sections(rules_markdown("it"))
    assert len(en) == len(it)
    assert [len(s.lines) for s in en] == [len(s.lines) for s in it]


def test_rules_text_names_every_option() -> None:
    text = rules_markdown("en").lower()
    for phrase in ("faces match only", "most cards", "napola", "re bello", "asso piglia tutto", "kings redeal",
                   "16 and 21", "single deal", "three players", "four players", "scopone scientifico",
                   "scopone classico", "primiera", "84", "65"):
        assert phrase in text, phrase
    for line in rules_markdown("en").splitlines():
        assert not line.startswith("|"), "no tables: they read badly"


def test_rules_worked_examples_hold_in_the_engine() -> None:
    from scopa.engine import legal_captures, napola_points, primiera
    assert primiera(parse_cards("7D 6H AS KC")).total == 65
    assert primiera(parse_cards("7D 7H 7S 7C")).total == 84
    assert legal_captures(Card.parse("6C"), parse_cards("2D 3H AS"), Rules()) == [parse_cards("AS 2D 3H")]
    assert legal_captures(Card.parse("5C"), parse_cards("2D 3H 5S"), Rules()) == [parse_cards("5S")]
    assert sorted(legal_captures(Card.parse("JC"), parse_cards("6H 2S 5C 3D"), Rules())) == sorted(
        [parse_cards("2S 6H"), parse_cards("3D 5C")])
    assert napola_points(parse_cards("AD 2D 3D 4D")) == 4
    assert napola_points(parse_cards("AD 2D 3D 4D 5D")) == 5
    score = l7_score()  # the scored deal of the worked examples and lesson 7
    assert score.totals == (3, 2)


# Catalogues ---------------------------------------------------------------------------------------

SHARED_WORDS = {"opponent", "jack", "queen", "king", "coins", "cups", "swords", "batons"}  # Ctx.defaults


def _fields(template: str) -> set[str]:
    """The placeholders of a template; {Card} is {card} starting a sentence."""
    return {name.replace("Card", "card") for _, name, _, _ in string.Formatter().parse(template) if name}


def test_lesson_catalogues_have_equal_keys_and_placeholders() -> None:
    en, it = load_catalogue("en"), load_catalogue("it")
    assert set(en) == set(it)
    for key in en:
        assert _fields(it[key]) <= _fields(en[key]) | SHARED_WORDS, key
        assert it[key].strip() and en[key].strip(), key
    raw_en = json.loads((TEXT / "en.json").read_text("utf-8"))
    raw_it = json.loads((TEXT / "it.json").read_text("utf-8"))
    assert list(raw_en) == list(raw_it)


def test_lesson_texts_avoid_parentheses() -> None:
    for lang in ("en", "it"):
        for key, value in load_catalogue(lang).items():
            assert "(" not in value and ")" not in value, (lang, key)


def test_every_lesson_has_a_title_in_both_languages() -> None:
    for lang in ("en", "it"):
        text = LessonText(lang)
        for lesson in LESSONS:
            assert text.has(lesson.title_key)
    assert len(LESSONS) == LESSON_COUNT == 8


@pytest.mark.parametrize("naming", ["french", "napoletane"])
def test_a_lesson_in_italian_uses_italian_card_names(tmp_path: Path, naming: str) -> None:
    program = make_program(tmp_path, SCRIPTS[2] + ["escape"], lang="it", naming=naming)
    assert program.run_lesson(2) == 0
    out = screen(program)
    assert "Lezione 2 di 8. Prendere una carta uguale." in out
    assert "Non proprio." in out and "Giusto." in out and "Lezione 2 completata." in out
    suit = "picche" if naming == "french" else "spade"
    assert f"Con il sette di {suit} hai preso il settebello" in out


def test_napoletane_names_in_an_english_lesson(tmp_path: Path) -> None:
    program = make_program(tmp_path, ["escape"], naming="napoletane")
    program.run_lesson(1)
    out = screen(program)
    assert "The four suits are coins, cups, swords and batons." in out
    assert "the fante, the cavallo and the re" in out


def test_lesson_lines_are_spoken_hands_included(tmp_path: Path) -> None:
    program = make_program(tmp_path, ["escape"], settings=FULL)
    program.run_lesson(2)
    said = program.test_speaker.said
    assert "Goal. Take the settebello." in said
    assert any(line.startswith("Your hand. 1, seven of spades") for line in said)


# Positions ------------------------------------------------------------------------------------------

def test_lesson_positions_are_consistent_states() -> None:
    states = [position(**p) for p in (L1_POSITION, L2_POSITION, L3_POSITION, L4_POSITION)]
    states += [l5_sweep_position(), l5_last_play_position(), l6_position()]
    for state in states:
        check_invariants(state)
        assert state.to_move == 0 and state.rules == LESSON_RULES
        # Earlier rounds are placeholder plays, so a lesson position is never loaded as a save:
        # state_from_dict replays the history and refuses it.
        if state.round == 1:
            assert state_from_dict(state.to_dict()) == state
        else:
            with pytest.raises(ScopaError):
                state_from_dict(state.to_dict())


def test_lesson_positions_teach_what_they_say() -> None:
    l3 = position(**L3_POSITION)
    assert {m.capture for m in l3.legal_moves() if m.card.rank == "5"} == {parse_cards("5H")}
    l4 = position(**L4_POSITION)
    assert len([m for m in l4.legal_moves() if m.card.rank == "J"]) == 2
    last = l5_last_play_position()
    (move,) = last.legal_moves()
    after, events = last.apply(move)
    assert after.is_deal_over and after.scope == (0, 0)
    for first, winner in (("4C", 1), ("6S", 0)):
        state = l6_position()
        state, _ = state.apply(next(m for m in state.legal_moves() if str(m.card) == first))
        events = []
        while not state.is_deal_over:
            state, new = state.apply(state.legal_moves()[0])
            events += new
        assert next(e for e in events if isinstance(e, LeftoversTaken)).seat == winner


def test_lesson_7_piles_are_a_whole_pack_and_score_as_taught() -> None:
    assert sorted(L7_PILE_YOU + L7_PILE_OTHER) == sorted(Card(i) for i in range(40))
    score = score_deal((L7_PILE_YOU, L7_PILE_OTHER), L7_SCOPE, LESSON_RULES)
    assert score.awarded[Category.CARDS] == 0
    assert score.awarded[Category.COINS] is None
    assert score.awarded[Category.SETTEBELLO] == 0
    assert score.awarded[Category.PRIMIERA] == 0
    assert not score.sides[1].primiera.eligible
    assert score.totals == (3, 2)


# Hints and tips -----------------------------------------------------------------------------------

RULE_SETS = [Rules(target=None), Rules(players=3, target=None), Rules(players=4, target=None),
             Rules.scopone_classico(target=None),
             Rules(target=None, faces_match_only=True, most_cards=True, asso_piglia_tutto=True)]


def _random_views(count: int, seed: int = 5):
    rng = random.Random(seed)
    found = 0
    deal = 0
    while found < count:
        rules = RULE_SETS[deal % len(RULE_SETS)]
        state, _ = new_deal(rules, seed=seed * 1000 + deal)
        deal += 1
        while not state.is_deal_over and found < count:
            if rng.random() < 0.35:
                found += 1
                yield state, state.view(state.to_move)
            state, _ = state.apply(rng.choice(state.legal_moves()))


def test_hints_are_always_legal_moves() -> None:
    for state, view in _random_views(250):
        move, reason = suggest_move(view)
        assert move in view.legal_moves()
        assert move in state.legal_moves()
        assert reason


def test_tips_are_one_plain_line_or_none_over_many_positions() -> None:
    narrators = {lang: Narrator(["You", "Robin", "Ann", "Bo"], Rules(players=4), 0, lang=lang)
                 for lang in ("en", "it")}
    said = 0
    for _state, view in _random_views(400, seed=9):
        for narrator in narrators.values():
            tip = tip_for(view, view.rules, narrator)
            if tip is not None:
                said += 1
                assert tip.private_to == view.seat  # it names a card of this hand
                assert "\n" not in tip.text and "{" not in tip.text and "(" not in tip.text
    assert said > 20


def _narrator(lang: str = "en", verbosity: str = "full") -> Narrator:
    return Narrator(["You", "Robin"], LESSON_RULES, 0, lang=lang, verbosity=verbosity)


def test_tip_names_a_scopa_chance() -> None:
    state = l5_sweep_position()
    assert tip_for(state.view(0), state.rules, _narrator()) == Announcement(
        "Scopa chance. The six of clubs takes every card on the table.", 0)
    assert tip_for(state.view(0), state.rules, _narrator("it")).text.startswith("Occasione di scopa. Il sei di fiori")


def test_tips_have_short_forms_with_bare_card_names() -> None:
    short = _narrator(verbosity="short")
    state = l5_sweep_position()
    assert tip_for(state.view(0), state.rules, short) == Announcement("Scopa chance with six of clubs.", 0)
    state = position(**L2_POSITION)
    assert tip_for(state.view(0), state.rules, short).text == "Settebello chance with seven of spades."
    state = position("AH JC 4S", "2D 3H", "6C 6D 5S", pile_you="KC KH")
    assert tip_for(state.view(0), state.rules, short).text == (
        "Careful, ace of hearts to the table leaves 6, and 4 unseen cards could sweep it.")
    assert tip_for(state.view(0), state.rules, _narrator("it", "short")).text == (
        "Attenzione, asso di cuori sul tavolo lascia 6, e 4 carte ancora da uscire potrebbero fare scopa.")


def test_tip_gives_no_scopa_chance_on_the_last_play() -> None:
    state = l5_last_play_position()
    assert tip_for(state.view(0), state.rules, _narrator()) is None


def test_tip_names_a_settebello_chance() -> None:
    state = position(**L2_POSITION)
    tip = tip_for(state.view(0), state.rules, _narrator())
    assert tip.text == "Settebello chance. The seven of spades can take it."


def test_tip_warns_of_a_table_an_unseen_card_could_sweep() -> None:
    # Table 2 and 3. The ace played to the table makes 6 and the four makes 9, which unseen
    # sixes or queens could sweep; the jack would make 13, too much for one card: a safer play.
    state = position("AH JC 4S", "2D 3H", "6C 6D 5S", pile_you="KC KH")
    tip = tip_for(state.view(0), state.rules, _narrator())
    assert tip.text == ("Careful. The ace of hearts played to the table would make the table add up to 6, "
                   "and 4 unseen cards could sweep it.")
    safe = position("JC QD KS", "2D 3H", "6C 6D 5S", pile_you="KC KH")  # nothing safer to play
    assert tip_for(safe.view(0), safe.rules, _narrator()) is None


def test_tips_use_public_information_only() -> None:
    """Two positions that look the same to the learner get the same tip, whatever the hidden cards."""
    a = position("AH JC 4S", "2D 3H", "6C 6D 5S", pile_you="KC KH")
    b = position("AH JC 4S", "2D 3H", "7C 7S 5C", pile_you="KC KH")
    assert a.view(0).unseen_cards() == b.view(0).unseen_cards()
    assert tip_for(a.view(0), a.rules, _narrator()) == tip_for(b.view(0), b.rules, _narrator())


def test_tip_is_none_when_it_is_not_your_turn() -> None:
    state = position(**L1_POSITION)
    assert tip_for(state.view(1), state.rules, _narrator()) is None


@pytest.mark.parametrize("lang", ["en", "it"])
def test_every_first_move_of_every_practice_gets_feedback(lang: str) -> None:
    """Any card the learner may play is judged in words, right or wrong (lesson 4 once crashed here)."""
    from scopa.lessons.content import Ctx, Outcome, Practice
    ctx = Ctx(LessonText(lang), _narrator(lang))
    judged = 0
    for lesson in LESSONS:
        for step in lesson.steps:
            if not isinstance(step, Practice) or step.to_the_end or step.whole_deal:
                continue
            start, _ = step.start(0)
            for move in start.legal_moves():
                final, events = start.apply(move)
                right, lines = step.judge(ctx, Outcome(start, (move,), tuple(events), final))
                assert isinstance(right, bool) and lines and all(line and "{" not in line for line in lines)
                judged += 1
    assert judged >= 15
