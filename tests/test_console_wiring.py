"""How the console ties in tips, Italian command words, per-run voice flags and localised seat names."""
from __future__ import annotations

from pathlib import Path

import pytest

from helpers.console import program_for, request_for
from scopa.cli import UsageError, build_parser, human_names, settings_from_args
from scopa.config import Settings
from scopa.console.keys import command_of
from scopa.lessons.console import extras
from scopa.narration import Announcement, Messages


@pytest.mark.parametrize("word, command", [("tavolo", "table"), ("mano", "hand"), ("punti", "score"),
                                           ("prese", "pile"), ("esci", "quit"), ("ripeti", "repeat")])
def test_italian_command_words_name_the_same_commands(word, command):
    assert command_of(word) == (command, "")


def test_italian_export_word_keeps_its_file_argument():
    assert command_of("esporta partita.json") == ("export", "partita.json")


def test_unknown_words_are_no_command():
    assert command_of("tavola rotonda") is None


def test_one_human_is_called_you_in_the_game_language():
    args = build_parser().parse_args(["--seats", "human,computer:easy"])
    assert human_names(args, ["human", "easy"], Messages("it")) == {0: "Tu"}
    assert human_names(args, ["human", "easy"], Messages("en")) == {0: "You"}


def test_voice_flags_override_the_saved_settings_for_this_run():
    args = build_parser().parse_args(["--rate", "250", "--volume", "40", "--voice-id", "roa/it"])
    settings = settings_from_args(args, Settings(voice=True))
    assert (settings.rate, settings.volume, settings.voice_id) == (250, 0.4, "roa/it")


@pytest.mark.parametrize("flags", [["--rate", "20"], ["--volume", "140"]])
def test_voice_flags_out_of_range_are_refused_in_one_line(flags):
    with pytest.raises(UsageError) as error:
        settings_from_args(build_parser().parse_args(flags), Settings())
    assert "\n" not in str(error.value)


def _tipped_lines(tmp_path, level: str) -> list[str]:
    program, out, _ = program_for(tmp_path, "q\n\n", settings=Settings(voice=False, tips=True))  # chosen
    program.extras = extras()  # the lessons hand the program its tips
    program.run(request_for("--seed", "5", "--seats", f"human,computer:{level}"))
    return out.getvalue().splitlines()


def test_easy_tables_may_get_tips_but_hard_tables_never_do(tmp_path, monkeypatch):
    import scopa.lessons.tips as tips
    monkeypatch.setattr(tips, "tip_for", lambda view, rules, narrator: Announcement("TIP for this hand.", view.seat))
    assert "TIP for this hand." in _tipped_lines(tmp_path / "easy", "easy")
    assert "TIP for this hand." not in _tipped_lines(tmp_path / "hard", "hard")


def test_a_table_just_dealt_is_not_read_again_when_you_lead(tmp_path):
    for seed in range(40):  # find a seed where the human leads the first deal
        program, out, _ = program_for(tmp_path / str(seed), "q\n\n")
        program.run(request_for("--seed", str(seed), "--seats", "human,computer:easy"))
        lines = out.getvalue().splitlines()
        first_prompt = next(i for i, line in enumerate(lines) if line.startswith("Card?"))
        before = lines[:first_prompt]
        if not any(" plays " in line for line in before):  # nobody played before you: you lead
            tables = [line for line in before if "Table, " in line]
            assert len(tables) == 1, before
            return
    pytest.fail("no seed among 40 where you lead")


def test_an_unreadable_autosave_is_set_aside_said_once_and_the_new_save_works(tmp_path):
    from scopa.engine import Rules
    from scopa.match import MatchRecord, SeatSetup
    from scopa.table.persistence import Persistence
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "autosave.json").write_text("{ not json")
    persistence = Persistence(tmp_path / "data")
    match, _ = MatchRecord.start(Rules(), (SeatSetup("You"), SeatSetup("Robin", "computer", "easy")), 1)
    assert persistence.start_new(match) is None
    [line] = persistence.notices()
    assert line.startswith("The saved match cannot be read. ") and "\n" not in line
    kept = Path(line[line.rindex(" as ") + 4:-1])
    assert kept.read_text() == "{ not json" and kept.name.endswith(".json.bad")
    assert persistence.notices() == [] and persistence.save(match) is None


@pytest.mark.parametrize("lang, expected", [
    ("en", "Export failed. Part of the path is not a folder."),
    ("it", None),
])
def test_a_failed_export_says_why_in_the_players_language(tmp_path, lang, expected):
    from scopa.engine import Rules
    from scopa.match import MatchRecord, SeatSetup
    from scopa.narration import Messages
    from scopa.table.persistence import Persistence
    messages = Messages(lang)
    persistence = Persistence(tmp_path / "data", messages=lambda: messages)
    match, _ = MatchRecord.start(Rules(), (SeatSetup("You"), SeatSetup("Robin", "computer", "easy")), 1)
    (tmp_path / "a-file").write_text("x")
    line = persistence.export(match, str(tmp_path / "a-file" / "match.json"))
    wanted = messages("export.failed", problem=messages("problem.not_folder"))
    assert line == wanted and (expected is None or line == expected)
    assert "Not a directory" not in line


def test_os_problems_have_sentences_and_rare_ones_keep_the_systems_words():
    import errno

    from scopa.narration import Messages, os_problem
    en, it = Messages("en"), Messages("it")
    assert os_problem(OSError(errno.ENOSPC, "No space left on device"), en) == "The disk is full"
    assert os_problem(OSError(errno.ENOSPC, "No space left on device"), it) == "Il disco è pieno"
    assert os_problem(PermissionError(errno.EACCES, "Permission denied"), it) == "Permesso negato"
    assert os_problem(OSError(errno.EBUSY, "Device or resource busy"), it) == "Device or resource busy"
    assert os_problem(OSError("no code"), en) == "no code"


def test_settings_that_cannot_be_saved_are_reported_in_the_players_language(tmp_path):
    from scopa.config import Settings, save_settings
    from scopa.narration import Messages, os_problem
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    error = save_settings(Settings(), blocker / "config")
    assert isinstance(error, OSError)
    assert os_problem(error, Messages("it")) == "Una parte del percorso non è una cartella"
