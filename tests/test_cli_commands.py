"""The sub-commands (``scopa serve``, ``host``, ``join``): argparse's, listed in ``--help``, each with
its own ``--help``; and the command the game names, the one that started it."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import scopa.narration
from scopa.__main__ import COMMANDS, main
from scopa.narration import Messages
from scopa.narration.command import command_for

ROOT = Path(__file__).resolve().parents[1]
CATALOGUES = Path(scopa.narration.__file__).parent / "catalogues"
M = Messages("en")


def run_scopa(*flags: str, stdin: str = "", **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "scopa", *flags], input=stdin, capture_output=True, text=True,
                          timeout=60, env=dict(os.environ, **env), check=False)


def test_help_names_the_commands_and_how_to_get_their_options(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-2] == ("The commands are serve, host, join, watch, quick, tables, daily, verify, leaderboard, "
                         "account. "
                         "scopa account --help gives the options of one.")


def test_help_all_lists_each_command_with_its_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help", "all"])
    out = capsys.readouterr().out
    assert "\ncommands, each with its own options\n" in out
    for name in COMMANDS:
        assert any(line.split() == [name, *M(f"cli.command.{name}").split()] for line in out.splitlines()), name


def test_help_is_in_italian_with_the_commands_too(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--lang", "it", "--help"])
    out = capsys.readouterr().out
    assert "I comandi sono serve, host, join, watch, quick, tables, daily, verify, leaderboard, account." in out


@pytest.mark.parametrize("name, usage", [("serve", "usage: scopa serve, then any of the flags below"),
                                         ("host", "usage scopa host followed by any of the options below"),
                                         ("join", "usage scopa join, the room code, then any of the options below"),
                                         ("watch", "usage scopa watch, the room code, then any of the options below"),
                                         ("quick", "usage scopa quick followed by any of the options below"),
                                         ("tables", "usage scopa tables followed by any of the options below"),
                                         ("daily", "usage scopa daily followed by any of the options below"),
                                         ("verify", M("verify.help").splitlines()[0])])
def test_each_command_has_its_own_help(name: str, usage: str) -> None:
    result = run_scopa(name, "--help")
    assert result.returncode == 0 and result.stdout.splitlines()[0] == usage


def test_every_command_has_its_line_in_both_catalogues() -> None:
    for lang in ("en", "it"):
        catalogue = json.loads((CATALOGUES / f"{lang}.json").read_text("utf-8"))
        assert [name for name in COMMANDS if f"cli.command.{name}" not in catalogue] == []


def test_a_word_that_is_no_command_is_one_sentence_and_code_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["srve"])
    assert done.value.code == 2
    assert capsys.readouterr().err == ("scopa: srve is not a scopa command or option. The commands are serve, host, "
                                       "join, watch, quick, tables, daily, verify, leaderboard, account.\n"
                                       "scopa --help all lists every option.\n")


def test_a_flag_before_the_command_is_refused_not_dropped(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--no-voice", "join", "K7MQ3T"]) == 2
    assert capsys.readouterr().err == ("scopa: join comes first, before any option, as in scopa join --no-voice "
                                       "K7MQ3T.\n")


def test_the_commands_keep_their_flags_and_codes() -> None:
    serve = run_scopa("serve", "--port", "70000")
    assert (serve.returncode, serve.stderr) == (2, "scopa serve: --port must be from 0 to 65535\n")
    join = run_scopa("join", "--bogus")
    assert join.returncode == 2 and join.stderr.startswith("scopa join: --bogus is not a scopa option.\n")
    host = run_scopa("host", "--players", "5", "--server", "ws://127.0.0.1:9")
    assert host.returncode == 2 and "--players cannot be 5" in host.stderr


# The command the game names ----------------------------------------------------------------

def test_a_match_saved_at_quit_names_the_command_that_started_it(tmp_path: Path) -> None:
    """After the quick start there is no ``scopa`` command: dev.py tells the game what it was."""
    flags = ("--plain", "--no-voice", "--seed", "1", "--data-dir", str(tmp_path / "d"), "--config-dir", str(tmp_path))
    result = run_scopa(*flags, stdin="q\n\n", SCOPA_COMMAND="python3 dev.py play")
    assert result.stdout.splitlines()[-1] == "Match saved. Run python3 dev.py play again to resume it."


@pytest.mark.linux
def test_the_command_named_is_the_one_that_runs_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "bin"
    folder.mkdir()
    for name in ("scopa", "python3"):
        (folder / name).write_text("#!/bin/sh\n")
        (folder / name).chmod(0o755)
    module = str(ROOT / "src" / "scopa" / "__main__.py")  # sys.argv[0] of python -m scopa
    elsewhere = str(tmp_path / "venv" / "bin" / "python")
    monkeypatch.setenv("PATH", str(folder))
    assert command_for("python3 dev.py play", ["-c"], elsewhere) == "python3 dev.py play"  # dev.py said so
    assert command_for("", [str(folder / "scopa")], elsewhere) == "scopa"  # pipx's, found by its name
    assert command_for("", [".venv/bin/scopa"], elsewhere) == ".venv/bin/scopa"  # not on the PATH: its path
    assert command_for("", [module], str(folder / "python3")) == "python3 -m scopa"
    assert command_for("", [module], elsewhere) == f"{elsewhere} -m scopa"  # a python3 on the PATH is another
    assert command_for("", ["-c"], elsewhere) == "scopa"
