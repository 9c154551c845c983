"""The match loop at the terminal, driven through LineInput over text streams (no terminal)."""
from __future__ import annotations

import io
import json
import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from helpers.console import M, Screen, ScriptInput, lines_of, program_for, request_for
from scopa.config import Settings
from scopa.console.announcer import Announcer
from scopa.console.app import Program
from scopa.console.game import MatchConsole, Services
from scopa.console.keys import COMMAND_KEYS
from scopa.console.terminal import CLEAR_ALL, ENTER, ESCAPE, Interrupted, LineInput, Output
from scopa.engine import Card, Rules, parse_cards
from scopa.match import MatchRecord, SeatSetup
from scopa.narration import Messages, Narrator, run_command
from scopa.speech import RecordingSpeaker
from scopa.storage import AutosaveStore, SavedMatches, load_results
from scopa.table import LocalTable, SaveHooks
from scopa.table.persistence import Persistence

# A whole match, piped ------------------------------------------------------------------

def test_a_scripted_match_plays_to_its_end_and_names_the_winner(tmp_path):
    program, out, _ = program_for(tmp_path, "1\n\n" * 600)
    assert program.run(request_for("--seed", "3")) == 0
    [result] = load_results(tmp_path / "data")
    narrator = Narrator(result.players, Rules(), you=0)
    text = out.getvalue()
    assert narrator.match_result(result.winner, result.scores) in text
    assert max(result.scores) >= 11
    assert AutosaveStore(tmp_path / "data").load().record is None  # a finished match leaves no save
    for header in range(1, result.deals + 1):
        assert M("score.header", number=header) in text


def test_a_full_turn_says_your_turn_then_the_numbered_hand_then_prompts(tmp_path):
    program, out, _ = program_for(tmp_path, "", settings=Settings(voice=False, verbosity="full"))
    program.run(request_for("--seed", "3"))
    lines = lines_of(out)
    turn = lines.index(M("turn.yours"))
    assert lines[turn - 2] == "Giulia plays the two of hearts to the table."
    assert lines[turn - 1] == ("On the table, seven of clubs, four of clubs, ace of hearts, jack of diamonds and two "
                               "of hearts.")  # at full each play is followed by the table, not read again
    assert re.fullmatch(r"Your hand\. 1, [a-z ]+, 2, [a-z ]+, 3, [a-z ]+\.", lines[turn + 1])
    assert lines[turn + 2] == "Card? "
    assert lines[-1] == M("app.input_closed")


def test_a_short_turn_says_the_table_and_the_hand_then_prompts(tmp_path):
    """Short: no "Your turn." (the hand and Card? follow anyway); three cards need no numbers."""
    program, out, _ = program_for(tmp_path, "")
    program.run(request_for("--seed", "3"))
    lines = lines_of(out)
    assert M("turn.yours") not in lines
    card = lines.index("Card? ")
    assert lines[card - 3:card] == ["Giulia plays two of hearts.",
                                    ("Table, seven of clubs, four of clubs, ace of hearts, jack of diamonds and two of "
                                     "hearts."),
                                    "Hand, ace of clubs, three of spades, queen of clubs."]
    assert lines[-1] == M("app.input_closed")


def test_the_end_of_deal_sheet_has_one_category_per_line_and_says_what_comes_next(tmp_path):
    program, out, _ = program_for(tmp_path, "1\n\n" * 80)
    program.run(request_for("--seed", "3"))
    lines = lines_of(out)
    start = lines.index(M("score.header", number=1))
    sheet = lines[start:start + 12]
    for label in ("Cards", "Settebello", "Primiera", "Scopas", "Deal points", "Match"):
        assert sum(line.startswith(label) for line in sheet) == 1, label
    assert M("deal.next") in sheet or M("match.tied_leaders") in sheet
    assert M("match.continue") not in lines  # short: "Press Enter for the next deal." says it once
    assert M("deal.next") in lines[start:start + 14]


# Bad input ---------------------------------------------------------------------------------

def test_bad_keys_and_words_get_one_short_line_and_the_same_prompt(tmp_path):
    program, out, _ = program_for(tmp_path, "5\nz\n:frobnicate\n")
    program.run(request_for("--seed", "3"))
    lines = lines_of(out)
    first = lines.index("Card? 5")
    assert lines[first + 1] == "No card 5. Pick a card from 1 to 3."
    assert lines[first + 2] == "Card? z"
    assert lines[first + 3] == M("error.unknown")
    assert lines[first + 4] == "Card? :frobnicate"
    assert lines[first + 5] == M("error.not_card_or_key")  # at Card?, a word that is no card either
    assert lines[first + 6] == "Card? "


def crafted(tmp_path: Path, hand: str, table: str) -> MatchRecord:
    """A fresh two-player match where the human (seat 0) is to move with this hand and table."""
    record, _ = MatchRecord.start(Rules(), (SeatSetup("You"), SeatSetup("Robin", "computer", "easy")), seed=1,
                                  first_dealer=1)
    hands = (parse_cards(hand), *record.state.hands[1:])
    used = set(hands[0]) | set(parse_cards(table)) | set(hands[1])
    stock = tuple(c for c in record.state.stock + record.state.table + record.state.hands[0] if c not in used)
    state = record.state._replace(hands=hands, table=parse_cards(table), stock=stock[:len(record.state.stock)])
    return replace(record, state=state)


def console_for(record: MatchRecord, tokens: Sequence[object], out: io.StringIO,
                tmp_path: Path) -> tuple[MatchConsole, Persistence]:
    """A console at a local table over ``record``, its computer seat played by the table."""
    narrator = Narrator([s.name for s in record.seats], record.rules, you=0)
    persistence = Persistence(tmp_path / "data")
    services = Services(ScriptInput(tokens, out), Output(out), Announcer(Output(out), RecordingSpeaker()),
                        narrator)
    return MatchConsole(LocalTable(record, saves=SaveHooks(save=persistence.save)), services), persistence


def test_escape_in_the_capture_menu_leaves_the_position_untouched(tmp_path):
    record = crafted(tmp_path, "6D KC QS", "AD 2S 3S 4S")
    out = io.StringIO()
    console, _persistence = console_for(record, ["1", "2", ESCAPE, "q", ENTER], out, tmp_path)
    assert console.run() == "quit"
    text = out.getvalue()
    assert "several captures" in text  # the numbered capture menu was offered
    assert M("choose.cancelled") in text
    assert console.table.record == record  # the engine never saw a move


def test_the_capture_menu_picks_by_number_and_plays_on_enter(tmp_path):
    record = crafted(tmp_path, "6D KC QS", "AD 2S 3S 4S")
    out = io.StringIO()
    console, _ = console_for(record, ["1", "3", "2", ENTER], out, tmp_path)
    console.run()
    prompts = console.io.input.prompts
    assert prompts[:4] == ["Card?", "Capture?", "Capture?", "Play?"]
    assert M("error.no_option", count=2) in out.getvalue()
    move = console.table.record.moves[0]  # then the computer played, inside the table
    assert move.seat == 0 and move.move.card == Card.parse("6D") and move.move.capture == parse_cards("2S 4S")


def test_a_card_that_takes_nothing_asks_to_play_or_cancel(tmp_path):
    record = crafted(tmp_path, "6D KC QS", "AD 2S")
    out = io.StringIO()
    console, _ = console_for(record, ["2", ESCAPE, "2", ENTER], out, tmp_path)
    console.run()
    text = out.getvalue()
    narrator = console.io.narrator
    assert narrator.capture_choice(0, Card.parse("KC"), [], record.state.table)[0].text in text
    assert console.table.record.moves[0].move == (Card.parse("KC"), ())


# Commands ------------------------------------------------------------------------------------

def test_commands_work_at_every_prompt_of_a_turn(tmp_path):
    record = crafted(tmp_path, "6D KC QS", "AD 2S 3S 4S")
    out = io.StringIO()
    tokens = ["t", "h", "l", "s", "p", "1", "table", "2", "my pile", "w", "x", "r"]
    console, _persistence = console_for(record, tokens, out, tmp_path)
    console.run()
    text = out.getvalue()
    narrator = console.io.narrator
    table = narrator.table_text(record.state.table)
    # on resuming (not again at the turn), the T key and the typed word, then Repeat's stretch
    assert text.count(table) == 4
    assert text.count(narrator.hand(record.state.view(0)).text) == 3  # the turn, the H key, Repeat
    at = text.index("Play? \nPlay? \n") + len("Play? \nPlay? \n")
    assert text[at:].startswith("Deal 1 resumed.\n")  # Repeat gives what happened, not the commands' answers
    assert M("last.none") in text
    assert M("save.done") in text
    assert console.io.announcer.speaker.stops >= 1
    assert console.table.record == record  # nothing was played


def test_help_lists_every_command_with_its_key(tmp_path):
    program, out, _ = program_for(tmp_path, "?\n")
    program.run(request_for("--seed", "3"))
    lines = lines_of(out)
    start = lines.index("Card? ?") + 1
    help_text = " ".join(lines[start:start + 5])
    for key in COMMAND_KEYS:
        if key == "?":
            assert "Question mark" in help_text
        else:
            assert re.search(rf"\b{key.upper()}\b", help_text), key


def test_repeat_says_what_happened_since_the_last_move_not_the_answer_to_a_command(tmp_path):
    program, out, _ = program_for(tmp_path, "t\nr\n")
    program.run(request_for("--seed", "3"))
    lines = lines_of(out)
    at = lines.index("Card? r")
    assert lines[at + 1:at + 5] == ["Deal 1. You deal.",
                                    ("Three cards each. Table, seven of clubs, four of clubs, ace of hearts and jack "
                                     "of diamonds."),
                                    "Giulia plays two of hearts.",
                                    ("Table, seven of clubs, four of clubs, ace of hearts, jack of diamonds and two of "
                                     "hearts.")]
    assert lines[at + 5] == "Hand, ace of clubs, three of spades, queen of clubs."
    assert lines[at + 6] == "Card? "


# Quitting never loses a match -------------------------------------------------------------------

def test_ctrl_c_asks_to_save_and_quit_and_escape_plays_on(tmp_path):
    program, out, _ = program_for(tmp_path, [Interrupted, ESCAPE, Interrupted, ENTER])
    assert program.run(request_for("--seed", "3")) == 0
    lines = out.getvalue().splitlines()
    ask = M("quit.ask")
    assert lines.count(ask) == 2
    assert lines[lines.index(ask) + 2] == M("quit.cancelled")
    assert lines[lines.index(ask) + 3] == "Card? "  # the same prompt again
    assert lines[-1] == M("quit.saved", command=run_command())
    assert AutosaveStore(tmp_path / "data").load().record is not None


def test_a_second_ctrl_c_at_the_question_saves_and_quits(tmp_path):
    program, out, _ = program_for(tmp_path, [Interrupted, Interrupted])
    assert program.run(request_for("--seed", "3")) == 0
    assert out.getvalue().splitlines()[-1] == M("quit.saved", command=run_command())


def test_the_end_of_piped_input_saves_and_exits_0_with_a_line(tmp_path):
    program, out, _ = program_for(tmp_path, "1\n\n1\n\n")
    assert program.run(request_for("--seed", "3")) == 0
    assert lines_of(out)[-1] == M("app.input_closed")
    saved = AutosaveStore(tmp_path / "data").load().record
    assert saved is not None and sum(1 for m in saved.moves if m.seat == 0) == 2


def _unwritable(tmp_path: Path) -> None:
    """A data folder that cannot be made: its name is taken by a file."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "data").write_text("a file where the data folder should be")


def test_a_save_problem_is_said_once_not_after_every_play(tmp_path):
    _unwritable(tmp_path)
    program, out, _ = program_for(tmp_path, ["1", ENTER] * 4)
    program.run(request_for("--seed", "3"))
    lines = lines_of(out)
    problem = M("save.failed", folder=tmp_path / "data" / "saves", problem=M("problem.not_folder"))
    assert lines.count(problem) == 1
    assert sum(1 for line in lines if line.startswith("Card?")) >= 4  # several plays followed it
    assert lines[-1] == M("app.input_closed_unsaved")


def test_quitting_when_the_save_fails_asks_again_and_escape_plays_on(tmp_path):
    _unwritable(tmp_path)
    program, out, _ = program_for(tmp_path, ["q", ENTER, ESCAPE, "q", ENTER, ENTER])
    assert program.run(request_for("--seed", "3")) == 0
    lines = lines_of(out)
    problem = M("save.failed", folder=tmp_path / "data" / "saves", problem=M("problem.not_folder"))
    ask_again = M("quit.unsaved_ask")
    assert lines.count(ask_again) == 2
    first = lines.index(ask_again)
    assert lines[first - 1] == problem  # the reason, just before the question it explains
    assert lines[first + 2] == M("quit.cancelled")
    assert lines[-1] == M("quit.unsaved")
    assert M("quit.saved", command=run_command()) not in lines


def test_an_import_that_cannot_be_saved_says_so_at_once(tmp_path):
    _unwritable(tmp_path)
    exported = tmp_path / "match.json"
    program, out, _ = program_for(tmp_path, [f"export {exported}", ENTER, f"import {exported}", ENTER])
    program.run(request_for("--seed", "3"))
    lines = lines_of(out)
    problem = M("save.failed", folder=tmp_path / "data" / "saves", problem=M("problem.not_folder"))
    done = M("import.done", path="match.json")  # the name, not the whole path read out
    assert lines.count(problem) == 2  # once for the new match, once for the imported one
    assert lines.index(problem, lines.index(done)) <= lines.index(done) + 3  # after the question to play it


def test_saving_working_again_is_said_once(tmp_path):
    _unwritable(tmp_path)
    persistence = Persistence(tmp_path / "data")
    record, _ = MatchRecord.start(Rules(), (SeatSetup("You"), SeatSetup("Robin", "computer", "easy")), 1)
    first = persistence.autosave(record)
    assert first == M("save.failed", folder=tmp_path / "data" / "saves", problem=M("problem.not_folder"))
    assert first.endswith("not a folder.")  # a full stop, so a screen reader pauses before what follows
    assert persistence.autosave(record) is None
    assert persistence.save(record) == first  # asked for: said every time
    (tmp_path / "data").unlink()
    assert persistence.autosave(record) == M("save.recovered")
    assert persistence.autosave(record) is None
    assert AutosaveStore(tmp_path / "data").load().record is not None


def test_a_quit_match_resumes_from_the_main_menu(tmp_path):
    program, _, _ = program_for(tmp_path, "1\n\nq\n\n")
    program.run(request_for("--seed", "3"))
    saved = AutosaveStore(tmp_path / "data").load().record
    program, out, _ = program_for(tmp_path, "\n")
    assert program.run() == 0
    lines = lines_of(out)
    assert lines[0] == M("app.menu.title")
    assert lines[1].startswith("1, " + M("app.menu.resume_item", item=M("saves.against", names="")))
    assert M("resume.position", deal=saved.state.deal_number) in lines
    table = Narrator([s.name for s in saved.seats], saved.rules, you=0).table_text(saved.state.table)
    assert lines.count(table) == 1  # said on resuming, not again as the turn starts
    assert lines[-2:] == [M("app.input_closed"), M("app.bye")]


# The main menu and the new-match questions ----------------------------------------------------------

def test_the_main_menu_offers_new_match_lessons_settings_online_and_quit(tmp_path):
    program, out, _ = program_for(tmp_path, "6\n")
    assert program.run() == 0
    lines = lines_of(out)
    items = [M("app.menu.new"), M("app.menu.lessons"), M("app.menu.settings"), M("app.menu.online"),
             M("app.menu.quick"), M("app.menu.quit")]
    assert lines[1] == ". ".join(f"{i}, {item}" for i, item in enumerate(items, 1)) + "."
    assert lines[-1] == M("app.bye")


def test_a_new_match_takes_the_defaults_on_enter(tmp_path):
    program, out, _ = program_for(tmp_path, "1\n\n\n\n\n\n")
    program.run()
    summary = [line for line in lines_of(out) if line.startswith("New match.")]
    assert len(summary) == 1
    assert re.fullmatch(r"New match\. You against (\w+)\. \1 is a computer player, level easy\. "
                        r"Playing to 11\. Standard rules\.", summary[0])


def test_the_summary_names_only_what_differs_from_the_games_own_rules(tmp_path):
    # A default Cirulla has grande and piccola and the ace's sweep: that is Cirulla, not an option.
    program, _out, _ = program_for(tmp_path, "")
    seats = [SeatSetup("You"), SeatSetup("Felix", "computer", "easy")]
    assert program._summary(Rules.cirulla(), seats).endswith(M("setup.summary.standard"))
    changed = program._summary(Rules.cirulla(ace_scopa=False, cappotto=True), seats)
    assert changed.endswith(" ".join([M("setup.summary.options", names=M("option.cappotto")),
                                      M("setup.summary.without", names=M("option.ace_scopa"))]))
    assert program._summary(Rules(napola=True), seats).endswith(M("setup.summary.options", names=M("option.napola")))


def test_the_new_match_questions_set_players_seats_names_target_and_options(tmp_path):
    # 3 players; scopa; seat 2 hard computer; seat 3 a human; names; 21 points; napola on; start.
    program, _out, _ = program_for(tmp_path, "1\n3\n\n4\n6\nAlice\nBob\n3\n4\n\n")
    program.run()
    saved = AutosaveStore(tmp_path / "data").load().record
    assert saved.rules.players == 3 and saved.rules.target == 21 and saved.rules.napola
    assert [s.kind for s in saved.seats] == ["human", "computer", "human"]
    assert saved.seats[1].level == "hard"
    assert (saved.seats[0].name, saved.seats[2].name) == ("Alice", "Bob")


@pytest.mark.parametrize("keys, variant, target", [("2", "scopa_15", 11), ("3", "cirulla", 51)])
def test_the_new_match_questions_offer_scopa_a_15_and_cirulla_to_two_players(tmp_path, keys, variant, target):
    program, out, _ = program_for(tmp_path, f"1\n\n{keys}\n\n\n\n")
    program.run()
    saved = AutosaveStore(tmp_path / "data").load().record
    assert saved.rules.variant.value == variant and saved.rules.target == target and saved.rules.players == 2
    assert M(f"setup.variant.{variant}") in out.getvalue()
    summary = next(line for line in lines_of(out) if line.startswith("New match."))
    assert summary.startswith(f"New match. {M(f'setup.game.{variant}')} You against ")


def test_first_start_asks_how_to_hear_the_game_and_remembers(tmp_path):
    program, out, _ = program_for(tmp_path, "1\n4\n", settings=Settings())
    program.voice_override = None
    program.run()
    assert lines_of(out)[0] == M("app.first_start")
    assert '"voice": false' in (tmp_path / "config" / "settings.json").read_text()


# Pass-and-play ---------------------------------------------------------------------------------

def test_pass_and_play_clears_everything_after_each_hand_and_shows_nothing_private_before_the_next(tmp_path):
    screen = Screen()
    script = "\n1\n1\n\n\n" * 4
    program, _out, speaker = program_for(tmp_path, script, screen=screen)
    program.run(request_for("--seed", "5", "--seats", "human,human", "--names", "Alice,Bob"))
    pages = screen.getvalue().split(CLEAR_ALL)
    assert len(pages) >= 5  # a clear after each of the four hands
    for page in pages[:-1]:
        assert page.rstrip().endswith("Hide?")  # cleared right after "Press Enter to hide your hand"
    for page in pages[1:]:
        before_open = page.split("Open? ")[0]
        assert "Your hand" not in before_open and "Pass to" in before_open
        assert before_open.rstrip().endswith(M("gate.pass", name=re.search(r"Pass to (\w+)\.", page).group(1)))
    assert "Your hand" not in "".join(speaker.said)  # the voice is off: hands never reach it


def test_the_first_gate_keeps_the_public_opening_on_the_screen(tmp_path):
    screen = Screen()
    program, _out, _ = program_for(tmp_path, "", screen=screen)
    program.run(request_for("--seed", "5", "--seats", "human,human", "--names", "Alice,Bob"))
    text = screen.getvalue()
    assert CLEAR_ALL not in text  # no hand was ever shown: nothing to clear
    assert text.index("New match.") < text.index("Deal 1.") < text.index("Pass to Alice.")


def test_a_computer_play_between_two_hands_stays_on_the_screen_until_read(tmp_path):
    screen = Screen()
    program, _out, _ = program_for(tmp_path, "\n1\n1\n\n\n" * 3, screen=screen)
    program.run(request_for("--seed", "5", "--seats", "human,human,computer:easy", "--names", "Alice,Bob"))
    pages = screen.getvalue().split(CLEAR_ALL)[1:]
    computer_play = r"^(?!Alice|Bob)\w+(?: plays |'s )"  # short: "Rosa plays four of hearts.", "Rosa's ace takes"
    computer_pages = [page for page in pages if re.search(computer_play, page, re.MULTILINE)]
    assert computer_pages, "the computer played between two hands"
    for page in computer_pages:
        play = re.search(computer_play, page, re.MULTILINE)
        assert play.start() < page.index("Pass to")  # printed after the hide, kept through the gate


def test_pass_and_play_empties_the_repeat_history_at_every_hand_off(tmp_path):
    screen = Screen()
    # Alice: open, play card 1, confirm, hide; then at Bob's gate: repeat.
    program, _out, _ = program_for(tmp_path, "\n1\n1\n\n\nr\n", screen=screen)
    program.run(request_for("--seed", "5", "--seats", "human,human", "--names", "Alice,Bob"))
    last_page = screen.getvalue().split(CLEAR_ALL)[-1]
    assert "Your hand" not in last_page
    assert last_page.count(M("gate.pass", name="Bob")) == 2  # the repeat gives only the gate line
    assert "Alice plays" not in last_page


def test_one_human_has_no_gate(tmp_path):
    screen = Screen()
    program, _out, _ = program_for(tmp_path, "1\n\n", screen=screen)
    program.run(request_for("--seed", "5"))
    assert CLEAR_ALL not in screen.getvalue()
    assert "Pass to" not in screen.getvalue()


def test_the_hand_command_is_refused_at_the_gate(tmp_path):
    screen = Screen()
    program, _out, _ = program_for(tmp_path, "h\n", screen=screen)
    program.run(request_for("--seed", "5", "--seats", "human,human", "--names", "Alice,Bob"))
    page = screen.getvalue().split(CLEAR_ALL)[-1]
    assert M("hand.closed") in page and "Your hand" not in page


# Settings and the voice -------------------------------------------------------------------------

def test_settings_change_the_rate_without_restarting_the_voice_and_save_it(tmp_path):
    from scopa.speech import VoiceInfo
    voices = [VoiceInfo("gmw/en", "English", ("en",)), VoiceInfo("roa/it", "Italian", ("it",))]
    speaker = RecordingSpeaker(voice_list=voices)
    made = []

    def factory(on, voice):
        made.append(on)
        return speaker

    out = io.StringIO()
    program = Program(LineInput(io.StringIO("3\n3\nu\nu\n\n0\n4\n"), out), Output(out),
                      Settings(voice=True), tmp_path / "config", Persistence(tmp_path / "data"),
                      speaker_factory=factory, lang="en")
    assert program.run() == 0
    assert made == [False, True]  # the starting NullSpeaker, then the voice once: never restarted
    assert speaker.configured[-1].rate == 225 and speaker.configured[-1].voice_id == "gmw/en"
    assert '"rate": 225' in (tmp_path / "config" / "settings.json").read_text()


def test_a_language_without_a_voice_is_said_once_at_start(tmp_path):
    from scopa.speech import VoiceInfo
    speaker = RecordingSpeaker(voice_list=[VoiceInfo("gmw/en", "English", ("en",))])
    out = io.StringIO()
    program = Program(LineInput(io.StringIO("4\n"), out), Output(out), Settings(voice=True), tmp_path / "config",
                      Persistence(tmp_path / "data"), speaker_factory=lambda on, voice: speaker, lang="it")
    program.run()
    assert Messages("it")("voice.missing.it") in out.getvalue()


# A saved match is never replaced ----------------------------------------------------------------------

def test_a_new_match_by_flags_is_saved_beside_the_saved_one(tmp_path):
    program, _, _ = program_for(tmp_path, "1\n\nq\n\n")
    program.run(request_for("--seed", "3"))
    first = AutosaveStore(tmp_path / "data").load().record
    program, _out, _ = program_for(tmp_path, "1\n\nq\n\n")
    program.run(request_for("--seed", "4"))
    records = [saved.record for saved in SavedMatches(tmp_path / "data").list().saves]
    assert len(records) == 2 and first in records and records[0].seed == 4


def test_the_new_match_questions_leave_the_saved_match_alone(tmp_path):
    program, _, _ = program_for(tmp_path, "1\n\nq\n\n")
    program.run(request_for("--seed", "3"))
    saved = AutosaveStore(tmp_path / "data").load().record
    program, out, _ = program_for(tmp_path, "2\nesc\n6\n")  # new match, Escape at the first question, quit
    program.run()
    lines = lines_of(out)
    assert lines[lines.index("Choice? 2") + 1] == M("setup.players")  # no word of replacing anything
    assert [s.record for s in SavedMatches(tmp_path / "data").list().saves] == [saved]


# Verbosity ---------------------------------------------------------------------------------------

def _table_lines_after_plays(tmp_path: Path, verbosity: str) -> tuple[int, int, list[str]]:
    program, out, _ = program_for(tmp_path, ["1", ENTER] * 3, settings=Settings(voice=False, verbosity=verbosity))
    program.run(request_for("--seed", "3"))
    lines = lines_of(out)
    plays = [i for i, line in enumerate(lines)
             if " plays " in line or line.startswith("You play ") or re.match(r"^(Scopa! )?\w+'s ", line)]
    def is_table(line: str) -> bool:
        return line.startswith("On the table") or line == M("table.empty")
    def next_line(i: int) -> str:  # skipping the new round's deal that a play may bring on
        return lines[i + 2] if lines[i + 1].startswith("Three new cards") else lines[i + 1]
    after = sum(1 for i in plays if is_table(next_line(i)))
    return len(plays), after, lines


def test_full_verbosity_reads_the_table_after_every_play_and_short_does_not(tmp_path):
    plays, after, lines = _table_lines_after_plays(tmp_path / "full", "full")
    assert plays >= 4 and after == plays
    for i, line in enumerate(lines):  # the turn does not read the same table again
        if line == "Your turn.":
            assert not lines[i + 1].startswith("On the table")
    plays, after, _ = _table_lines_after_plays(tmp_path / "short", "short")
    assert plays >= 4 and after == 0


# Keys in line mode and long hands ------------------------------------------------------------------

def test_line_mode_takes_the_escape_key_itself_as_escape():
    out = io.StringIO()
    source = LineInput(io.StringIO("\x1b\n\x1b\x1b\nesc\n\x1b[A\n"), out)
    assert [source.read("?") for _ in range(4)] == [ESCAPE, ESCAPE, ESCAPE, "\x1b[A"]


def test_the_zero_key_picks_the_tenth_card_of_a_scopone_hand(tmp_path):
    program, out, _ = program_for(tmp_path, ["0", ESCAPE])
    program.run(request_for("--seed", "2", "--variant", "scopone_scientifico",
                            "--seats", "human,computer:easy,computer:easy,computer:easy"))
    lines = lines_of(out)
    hand = next(line for line in lines if line.startswith("Hand, 1, "))  # more than three cards: numbered
    tenth = hand.split(", 10, ")[1].rstrip(".")
    picked = lines[lines.index("Card? ") + 1]
    assert picked == tenth[0].upper() + tenth[1:] + ", no capture. Enter to play, Escape to cancel.", picked


def test_exporting_over_a_file_says_it_will_be_replaced_and_escape_keeps_it(tmp_path):
    target = tmp_path / "old.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("keep me")
    program, out, _ = program_for(tmp_path, [f"export {target}", ESCAPE, f"export {target}", ENTER])
    program.run(request_for("--seed", "3"))
    lines = lines_of(out)
    assert lines.count(M("export.replace_warning", path="old.json")) == 2  # the name, not the path
    assert lines[lines.index(M("export.replace_warning", path="old.json")) + 2] == M("choose.cancelled")
    assert M("export.done", path="old.json") in lines
    assert AutosaveStore(tmp_path / "data").load().record is not None and target.read_text() != "keep me"


def test_pass_and_play_catch_up_tells_of_a_new_round_dealt_since_your_last_turn(tmp_path):
    screen = Screen()
    program, _out, _ = program_for(tmp_path, "\n1\n1\n\n\n" * 8, screen=screen)
    program.run(request_for("--seed", "5", "--seats", "human,human", "--names", "Alice,Bob"))
    pages = screen.getvalue().split(CLEAR_ALL)
    new_round = M("deal.new_round.short")
    dealt_on = next(i for i, page in enumerate(pages) if new_round in page)  # the hand that ended round 1
    following = pages[dealt_on + 1]
    catch_up = following.split("Open? ")[1].split("Hand, ")[0]
    assert new_round in catch_up
    plays = [line for line in catch_up.splitlines() if " played " in line]
    assert plays and catch_up.index(plays[-1]) < catch_up.index(new_round)  # in the order it happened


def test_menus_read_numbers_and_items_apart():
    from scopa.console.menus import menu_listing
    assert menu_listing(["New match", "Lessons", "Quit"]) == "1, New match. 2, Lessons. 3, Quit."
    assert menu_listing(["11 points", "16 points", "a single deal"]) == "1, 11 points. 2, 16 points. 3, a single deal."
    assert menu_listing(["the cards, suits and values, done", "taking"]) == (
        "1, the cards, suits and values, done. 2, taking.")
    assert menu_listing(["voice off", "speech rate 175", "back"]) == "1, voice off. 2, speech rate 175. 3, back."


def test_voice_asked_for_but_unavailable_is_saved_off_and_the_key_still_works(tmp_path):
    speaker = RecordingSpeaker(available=False, unavailable_reason="no sound device")
    out = io.StringIO()
    # main menu 3 settings, 1 voice (on: unavailable), 1 voice again, Escape back, 5 quit
    program = Program(LineInput(io.StringIO("3\n1\n1\n\x1b\n5\n"), out), Output(out), Settings(voice=False),
                      tmp_path / "config", Persistence(tmp_path / "data"),
                      speaker_factory=lambda on, voice: speaker, lang="en")
    assert program.run() == 0
    saved = json.loads((tmp_path / "config" / "settings.json").read_text())
    assert saved["voice"] is False  # what the menu shows
    assert out.getvalue().split("Settings.", 1)[1].count("no sound device") == 2  # each press tries again, says why


def test_settings_say_each_new_value_as_a_sentence_and_name_the_limits(tmp_path):
    out = io.StringIO()
    program = Program(LineInput(io.StringIO("3\n3\n" + "u\n" * 12 + "\n6\n6\n\x1b\n4\n"), out), Output(out),
                      Settings(voice=False), tmp_path / "config", Persistence(tmp_path / "data"),
                      speaker_factory=lambda on, voice: RecordingSpeaker(), lang="en")
    assert program.run() == 0
    lines = lines_of(out)
    assert M("settings.rate.now", value=200) in lines
    assert lines.count(M("settings.rate.now", value=450) + " " + M("settings.at_most")) >= 1
    assert Messages("it")("settings.language.now", value="italiano") in lines
    assert M("settings.language.now", value="English") in lines
    assert M("settings.closed") in lines
    assert not any(re.fullmatch(r"\d+", line) for line in lines)  # no bare number before a prompt


def test_the_voice_menu_says_voice_names_well_and_lists_the_games_language_first(tmp_path):
    """Orca reads "English (Caribbean)" as "English left paren Caribbean right paren": names are
    said with commas, the match language's voices come first, and the menu names the chosen one."""
    from scopa.speech import VoiceInfo
    voices = [VoiceInfo("x/af", "Afrikaans", ("af",)), VoiceInfo("gmw/en", "English (Great Britain)", ("en-gb",)),
              VoiceInfo("roa/it", "Italian", ("it",)),
              VoiceInfo("gmw/en-us-nyc", "English (America, New York City)", ("en-us-nyc",))]
    speaker = RecordingSpeaker(voice_list=voices)
    out = io.StringIO()
    program = Program(LineInput(io.StringIO("3\n2\n2\nr\n\x1b\n4\n"), out), Output(out), Settings(voice=True),
                      tmp_path / "config", Persistence(tmp_path / "data"), speaker_factory=lambda on, voice: speaker,
                      lang="en")
    assert program.run() == 0
    lines = lines_of(out)
    assert ("1, English, Great Britain. 2, English, America, New York City. 3, Afrikaans. 4, Italian." in lines)
    assert speaker.configured[-1].voice_id == "gmw/en-us-nyc"
    listings = [line for line in lines if line.startswith("1, voice on. 2, voice ")]
    assert len(listings) == 2  # the menu once, then after the change only the change, until R reads it
    assert listings[1].startswith("1, voice on. 2, voice English, America, New York City. 3, speech rate")
    assert not [line for line in lines if "(" in line or ")" in line]
