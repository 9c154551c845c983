"""Every line heard right (issue 30): each test fails on the game before its change."""
from __future__ import annotations

import pytest

from helpers.console import lines_of, program_for, request_for
from scopa.console.terminal import ENTER
from scopa.narration import Messages

pytestmark = pytest.mark.linux  # the real program in a pty

M = Messages("en")


def test_repeat_pressed_again_tells_the_players_move_as_past_never_its_preview(tmp_path):
    """Item 3: the second R used to give "Ace of clubs takes ace of hearts. Enter to play, Escape to cancel."."""
    program, out, _ = program_for(tmp_path, ["1", ENTER, "r", "r"])
    program.run(request_for("--seed", "3"))
    lines = lines_of(out)
    second = lines.index("Hand, ace of clubs, three of spades, queen of clubs.", lines.index("Card? ", 10))
    assert lines[second + 1] == "You played the ace of clubs and took the ace of hearts."
    told_again = lines[second - 4:second + 2]
    assert not any("Enter to play" in line for line in told_again)


def test_numbers_are_said_whole_when_whole_fractions_in_the_languages_way_and_scopas_in_english():
    """Item 4: "Per deal 3.0 points and 0.5 scope." was read "three dot zero" and "scope"."""
    import json
    import re
    from importlib import resources

    from scopa.record.stats import Totals
    from scopa.record.text import RecordText
    from scopa.record.words import _group_lines

    group = Totals(played=2, won=1, deals=4, points=12, scope=2, settebello=1, coins=2, primiera=3, best_streak=1)
    assert _group_lines("All", group, RecordText("en"))[2] == "Per deal 3 points and 0 point 5 scopas."
    assert _group_lines("Tutte", group, RecordText("it"))[2] == "A smazzata 3 punti e 0 virgola 5 scope."
    one = Totals(played=1, won=1, deals=2, points=3, scope=2, settebello=1, coins=2, primiera=1, best_streak=1)
    assert _group_lines("All", one, RecordText("en"))[2] == "Per deal 1 point 5 points and 1 scopa."
    assert [RecordText("it").decimal(v) for v in (3.0, 3.5, 0.04, -0.02, -1.8)] == ["3", "3 virgola 5", "0", "0",
                                                                                   "meno 1 virgola 8"]
    for package, path in (("scopa.narration", "catalogues/en.json"), ("scopa.record", "text/en.json"),
                          ("scopa.lessons", "text/en.json")):
        text = " ".join(json.loads(resources.files(package).joinpath(path).read_text("utf-8")).values())
        assert not re.search(r"\b[Ss]cope\b", text.replace("{scope}", "")), path  # English says "scopas"


def test_scopas_is_the_english_plural_in_the_rules_and_the_score_sheet():
    from scopa.narration import Messages as Words
    assert Words("en")("score.scope", counts="You 1, Giulia 0") == "Scopas. You 1, Giulia 0."
    assert Words("it")("score.scope", counts="Tu 1, Giulia 0") == "Scope. Tu 1, Giulia 0."


# Item 5: typed words are never split into key commands --------------------------------------

def test_a_word_typed_at_the_key_input_is_a_word_and_a_lone_letter_still_acts():
    """"six" and Enter used to run S, then I (a suggestion), then Enter played it; a pasted line
    opened Settings through its "o"."""
    import io

    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from scopa.console.terminal import ESCAPE, KeyInput
    with create_pipe_input() as pipe:
        keys = KeyInput(input=pipe, output=DummyOutput(), out=io.StringIO())
        pipe.send_text("six\r")
        assert keys.read("Card? ") == "six"
        pipe.send_text("re di spade\r")
        assert keys.read("Card? ") == "re di spade"
        pipe.send_text("x" * 600 + "o" + "y" * 600 + "\r")
        assert len(keys.read("Card? ")) == 1201
        pipe.send_text("t")  # alone, a letter is its key
        assert keys.read("Card? ") == "t"
        pipe.send_text("T\x1b")  # and a key that is no letter after it waits for the next prompt
        assert [keys.read("Card? "), keys.read("Card? ")] == ["t", ESCAPE]


def _hand_of_seed_3(tmp_path, tokens, lang="en"):
    from scopa.config import Settings
    program, out, _ = program_for(tmp_path, tokens, settings=Settings(voice=False, language=lang))
    program.lang = lang
    program.messages = Messages(lang)
    program.run(request_for("--seed", "3"))
    return lines_of(out)


def test_a_cards_name_typed_at_card_picks_that_card_and_anything_else_gets_one_line(tmp_path):
    # seed 3: the hand is ace of clubs, three of spades, queen of clubs
    lines = _hand_of_seed_3(tmp_path / "a", ["queen of clubs", ENTER])
    at = lines.index("Card? ", 6)
    # what the queen can take: it was picked (short words: "Queen of clubs, several captures.")
    assert lines[at + 1].startswith(("Queen of clubs ", "Queen of clubs,"))
    lines = _hand_of_seed_3(tmp_path / "b", ["six", "the seven of coins", "sixx", "three"])
    assert any(line.startswith("Three of spades ") for line in lines)
    told = [line for line in lines if line.startswith(("That card", "Not a card"))]
    assert told == ["That card is not in your hand.", "That card is not in your hand.",
                    "Not a card or a key. Question mark lists the keys."]
    assert "Suggestion" not in " ".join(lines) and "Cards captured so far" not in " ".join(lines)


def test_a_cards_name_in_italian_picks_it_too(tmp_path):
    lines = _hand_of_seed_3(tmp_path, ["tre di picche", ENTER, "sei"], lang="it")
    assert any(line.startswith("Tre di picche ") for line in lines)
    assert "Quella carta non è nella tua mano." in lines


def test_tips_are_chosen_never_assumed_and_the_first_easy_match_says_once_how(tmp_path):
    """Item 6: tips were on by default, and each tip marked its deal assisted though the player
    never asked for help; every deal of a seeded match ended "Assisted, a hint or a tip was used."."""
    from scopa.config import Settings, load_settings
    from scopa.console.app import Extras
    from scopa.lessons.tips import tip_for
    from scopa.storage import AutosaveStore

    flags = ("--seed", "1", "--seats", "human,computer:beginner")
    tips = ("Scopa chance", "Settebello chance", "Careful")
    said = []
    for match in range(2):  # the same player, two matches: the line comes once
        program, out, _ = program_for(tmp_path, ["1", ENTER] * 8)
        program.settings = load_settings(tmp_path / "config")[0] if match else Settings(voice=False)
        program.extras = Extras(tip_source=tip_for)
        program.run(request_for(*flags))
        lines = lines_of(out)
        assert not [line for line in lines if line.startswith(tips)]
        assert AutosaveStore(tmp_path / "data").load().record.assisted_deals == frozenset()
        said.append(lines.count(M("tips.offer")))
    assert said == [1, 0]
    assert load_settings(tmp_path / "config")[0].tips_offered


def test_a_number_at_next_after_a_wrong_move_is_the_next_answer(tmp_path):
    """It used to say the instructions again ("Enter to try again, N for the next lesson...")."""
    from helpers.lessons import make_program, screen
    program = make_program(tmp_path, ["1", "enter", "2", "enter", "escape"])  # lesson 3: the five is wrong
    program.run_lesson(3)
    out = screen(program)
    assert out.count("Enter to try again") == 1
    assert "Right. With the seven of spades you took the two of spades and the five of hearts" in out


def test_settings_say_saved_only_for_a_change(tmp_path):
    """With the voice off, item 2 (the voice list) said "Settings saved." though nothing changed."""
    # Settings, 2, 9 (card symbols: item 5 is the announcements' own menu now), back, quit
    program, out, _ = program_for(tmp_path, "3\n2\n9\n\x1b\n\x1b\n\n")
    program.run()
    lines = lines_of(out)
    at = lines.index(M("settings.voices.off"))
    assert lines[at + 1].startswith("Choice? ") and lines.count(M("settings.saved")) == 1  # item 9 did change


def test_the_main_menu_help_says_what_escape_does_there_and_r_reads_the_menu(tmp_path):
    program, out, _ = program_for(tmp_path, "?\nr\n\x1b\n\n")
    program.run()
    lines = lines_of(out)
    hint = M("app.invalid")
    assert hint in lines and "Escape quits the game" in hint and "go back" not in hint
    after = lines[lines.index(hint) + 2:]  # the prompt, then what R said
    assert after[0] == M("app.menu.title")  # the menu, not the hint again


def test_ctrl_l_writes_the_prompt_again_on_a_cleared_screen():
    """Ctrl-L used to leave a blank screen until the next key."""
    import io

    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from scopa.console.terminal import KeyInput
    out = io.StringIO()
    with create_pipe_input() as pipe:
        keys = KeyInput(input=pipe, output=DummyOutput(), out=out)
        pipe.send_text("\x0c2")
        assert keys.read("Card? ") == "2"
    assert out.getvalue() == "Card?\x1b[H\x1b[2JCard?"


@pytest.mark.slow
def test_ctrl_z_suspends_and_back_the_game_says_the_position_and_the_prompt(tmp_path):
    """Ctrl-Z used to print ^Z. (A process that leads its own session, as under pexpect, is not
    stopped by the signal, so this checks what follows the return: the table, the hand, Card?.)"""
    import signal

    pexpect = pytest.importorskip("pexpect")
    from helpers.pty import spawn
    child = spawn(tmp_path, "--seed", "3")
    child.expect(r"Card\?")
    child.expect(r"\x1b\[\?2004h")  # the prompt reads keys now: before it, the terminal itself would take ^Z
    child.send("\x1a")
    child.kill(signal.SIGCONT)
    child.expect(r"Table, seven of clubs, [^\r\n]*\r\n")
    child.expect(r"Hand, ace of clubs, three of spades, queen of clubs\.\r\n")
    child.expect(r"Card\?")
    assert "^Z" not in child.before
    child.sendcontrol("c")
    child.expect("Save and quit")
    child.send("\r")
    child.expect(pexpect.EOF)


def test_menu_items_that_are_sentences_end_with_one_full_stop_and_italian_says_ed():
    from scopa.console.menus import menu_listing
    listing = menu_listing(["1 December 2026 against Felix, 11 to 5, won. With hints.",
                            "2 December 2026 against Rosa, 3 to 11, lost."])
    assert ".." not in listing and listing.endswith("lost.")
    it = Messages("it")
    assert it("setup.players.four", a="Tu", b="Elena", c="Giulia", d="Greta") == "Tu ed Elena contro Giulia e Greta."
    assert it("side.you_and", partner="Elena").endswith("ed Elena")


def test_a_suggestion_that_takes_one_card_says_one_card():
    """It said "it takes 2 cards" (the played card counted) for a capture of one."""
    from types import SimpleNamespace

    from scopa.engine import Card, Move, Rules
    from scopa.narration import Narrator
    analysis = SimpleNamespace(move=Move(Card.parse("4C"), (Card.parse("4H"),)), sweep=False,
                               table_left=(Card.parse("5S"),), sweep_with=())
    view = SimpleNamespace(seat=0, rules=Rules())
    reason = Narrator(["You", "Felix"], Rules(), you=0).hint_reason(view, analysis)
    assert "it takes 1 card" in reason.text and "2 cards" not in reason.text
    two = SimpleNamespace(move=Move(Card.parse("5C"), (Card.parse("2H"), Card.parse("3S"))), sweep=False,
                          table_left=(Card.parse("KS"),), sweep_with=())
    reason = Narrator(["You", "Felix"], Rules(), you=0).hint_reason(view, two)
    assert "it takes 2 cards" in reason.text and "3 cards" not in reason.text  # the card played is not counted


def test_a_pass_and_play_review_asks_whose_seat_and_tells_the_match_from_it(tmp_path):
    """It said "Player 1 plays" for every seat, and W named the other player's cards."""
    import random

    from scopa.engine import Rules
    from scopa.match import MatchRecord, SeatSetup
    from scopa.record.console import run_review
    from scopa.record.text import RecordText
    from scopa.storage import record_result
    record, _ = MatchRecord.start(Rules(target=None), (SeatSetup("Ann"), SeatSetup("Ben")), 4)
    rng = random.Random(1)
    while not record.state.is_match_over:
        record = record.next_deal()[0] if record.state.is_deal_over else record.play(
            rng.choice(record.state.legal_moves()))[0]
    record_result(record, "2026-05-01T10:00:00+00:00", tmp_path / "data")
    program, out, _ = program_for(tmp_path, "2\n" + "\n" * 50)  # from Ben's seat
    assert run_review(program, 1) == 0
    lines = lines_of(out)
    assert RecordText("en")("review.whose") in lines
    assert any(line.startswith(("You play ", "Your scopa! You play ")) for line in lines)  # Ben's plays, as his
    assert any(line.startswith(("Ann plays ", "Scopa for Ann! Ann plays ")) for line in lines)
    assert not any(line.startswith("Ben plays ") for line in lines)


def test_who_plays_says_you_in_capitals_only_first_and_after_against_in_the_object_form():
    """An online guest across the table heard "Ann and Bruno against You and Paolo."."""
    from scopa.engine import Rules
    from scopa.narration import Narrator
    names = ["Ann", "Ben", "Bruno", "Paolo"]
    assert Narrator(names, Rules(players=4), 1).players_line() == "Ann and Bruno against you and Paolo."
    assert Narrator(names, Rules(players=4), 1, "it").players_line() == "Ann e Bruno contro te e Paolo."
    assert Narrator(names, Rules(players=4), 0).players_line() == "You and Bruno against Ben and Paolo."
    assert Narrator(names, Rules(players=4), 2, "it").players_line() == "Ann e tu contro Ben e Paolo."
    assert Narrator(["Ann", "Ben"], Rules(), 1, "it").players_line() == "Ann contro te."
    assert Narrator(["Ann", "Ben", "Cy"], Rules(players=3), 1).players_line() == "Ann, you and Cy, each for themselves."


def test_default_names_are_in_the_language_of_the_game(tmp_path):
    """Two people at one keyboard without --names are "Giocatore 1" and "Giocatore 2" in Italian."""
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-m", "scopa", "--plain", "--no-voice", "--lang", "it", "--seats",
                           "human,human", "--seed", "3", "--data-dir", str(tmp_path), "--config-dir", str(tmp_path)],
                          input="q\n\n", capture_output=True, text=True, timeout=60, check=False,
                          env={"NO_COLOR": "1", "TERM": "dumb", "PATH": "/usr/bin:/bin"})
    assert done.stdout.startswith("Nuova partita. Giocatore 1 contro Giocatore 2."), done.stdout[:300]
    assert "Player" not in done.stdout
