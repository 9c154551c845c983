"""Odd input found by fuzzing the real program: each gets a short answer, never a traceback."""
from __future__ import annotations

import os

import pytest

from helpers.console import M, lines_of, program_for, request_for
from scopa.cli import UsageError, build_parser, rules_from_args
from scopa.config import Settings, load_settings
from scopa.console.keys import typed_number
from scopa.console.terminal import ENTER
from scopa.engine import Rules
from scopa.match import MatchRecord, SeatSetup, clean_name
from scopa.storage import AutosaveStore
from scopa.table.persistence import Persistence


@pytest.mark.parametrize("token, number", [("7", 7), ("0012", 12), ("²", None), ("٣", None), ("1" * 5000, None),
                                           ("12345", None), ("", None), ("x", None)])
def test_only_short_ascii_digits_are_numbers(token, number):
    assert typed_number(token) == number


def test_odd_digits_at_the_card_prompt_are_refused_and_play_goes_on(tmp_path):
    program, out, _ = program_for(tmp_path, ["²", "1" * 5000, "99999", "1", ENTER])
    assert program.run(request_for("--seed", "3")) == 0
    lines = lines_of(out)
    assert sum(1 for line in lines if line.startswith("Card?")) >= 4  # asked again after each
    # played: the reply came (a capture of another player's is "Giulia's six of clubs takes ...")
    assert any(line.startswith(("Giulia plays ", "Giulia's ")) for line in lines[lines.index("Play? "):])


def test_odd_digits_in_the_main_menu_are_refused(tmp_path):
    program, out, _ = program_for(tmp_path, "²\n" + "9" * 5000 + "\n4\n")
    assert program.run() == 0
    assert lines_of(out).count(M("app.invalid")) == 2


@pytest.mark.parametrize("target", ["²", "1" * 5000])
def test_an_odd_target_is_a_usage_error(target):
    with pytest.raises(UsageError):
        rules_from_args(build_parser().parse_args(["--target", target]))


@pytest.mark.parametrize("path", ["a\x00b", "~nosuchuser_for_scopa/x.json"])
def test_impossible_file_names_fail_in_one_line(tmp_path, monkeypatch, path):
    monkeypatch.chdir(tmp_path)  # "~nosuchuser" stays as typed: a folder here that does not exist
    persistence = Persistence(tmp_path / "data")
    record, _ = MatchRecord.start(Rules(), (SeatSetup("You"), SeatSetup("Robin", "computer", "easy")), 1)
    exported = persistence.export(record, path)
    assert exported.startswith("Export failed. ") and "\n" not in exported
    imported, line = persistence.import_match(path)
    assert imported is None and line.startswith("Import failed. ")
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # nothing was made on the way


def test_export_in_a_match_to_a_name_no_file_can_have(tmp_path):
    program, out, _ = program_for(tmp_path, ["export a\x00b", ENTER])
    program.run(request_for("--seed", "3"))
    assert M("export.failed", problem=M("problem.bad_name")) in lines_of(out)


@pytest.mark.parametrize("content", ['{"language": "xx"}', '{"language": "EN"}', '{"lessons_done": [1e999]}',
                                     '{"lessons_done": "123"}', '{"lessons_done": [true]}', "[" * 100_000])
def test_a_hand_edited_settings_file_falls_back_to_the_defaults(tmp_path, content):
    (tmp_path / "settings.json").write_text(content)
    settings, problem = load_settings(tmp_path)
    assert settings == Settings() and problem


def test_control_characters_never_reach_a_name(tmp_path):
    assert clean_name("A\x01B\tC\u2028D  ") == "AB C D"
    assert clean_name("\x1b[2J") == "[2J"
    assert clean_name("x" * 40) == "x" * 24
    program, out, _ = program_for(tmp_path, ["1", ENTER])
    program.run(request_for("--seed", "1", "--seats", "human,human", "--names", "A\x01,Bob"))
    saved = AutosaveStore(tmp_path / "data").load().record
    assert saved is not None and [s.name for s in saved.seats] == ["A", "Bob"]
    assert not any(line.startswith("Not saved") for line in lines_of(out))


def test_typed_names_lose_their_control_characters(tmp_path):
    program, out, _ = program_for(tmp_path, "1\n2\n\n6\n\x01\x02\nB\x07ob\n\n\n")
    program.run()
    new_match = next(line for line in lines_of(out) if line.startswith("New match."))
    assert new_match.startswith("New match. Player 1 against Bob.")
    saved = AutosaveStore(tmp_path / "data").load().record
    assert saved is not None and [s.name for s in saved.seats] == ["Player 1", "Bob"]


@pytest.mark.parametrize("budget", ["-1", "0", "61"])
def test_a_budget_no_expert_can_keep_is_a_usage_error(budget):
    from scopa.cli import budget_from_args
    with pytest.raises(UsageError) as error:
        budget_from_args(build_parser().parse_args(["--budget", budget]))
    assert str(error.value) == "--budget takes seconds from 0.05 to 60."
    assert budget_from_args(build_parser().parse_args(["--budget", "0.1"])) == 0.1


@pytest.mark.parametrize("budget", ["nan", "inf", "1e3", "\uff12"])
def test_a_budget_that_is_no_plain_number_is_refused_by_the_parser(budget, capsys):
    with pytest.raises(SystemExit) as done:
        build_parser().parse_args(["--budget", budget])
    assert done.value.code == 2
    assert capsys.readouterr().err.startswith(f"scopa: --budget needs a number, not {budget}.")


@pytest.mark.linux
def test_a_pipe_named_settings_json_is_refused_at_once_not_read(tmp_path):
    """A FIFO with no writer would block an ordinary read for ever."""
    os.mkfifo(tmp_path / "settings.json")
    settings, problem = load_settings(tmp_path)
    assert settings == Settings()
    assert problem == "That is not a plain file. It may be a pipe or a device"
