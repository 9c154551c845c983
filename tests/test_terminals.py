"""Broken terminals, driven through the real command: each ends in one short line on stderr, a
sensible exit code and the save as it was, never a traceback."""
from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from scopa.bench.crash import save_match, saves_on_disk
from scopa.console.terminal import plain_letter
from scopa.engine import Rules
from scopa.match import MatchRecord, SeatSetup
from scopa.narration import Messages
from scopa.narration.problems import os_problem
from scopa.storage import AutosaveStore

M = Messages("en")
HOOK = Path(__file__).parent / "fault_hooks"
C_LOCALE = {"LC_ALL": "C", "LANG": "C", "PYTHONCOERCECLOCALE": "0", "PYTHONUTF8": "0"}
KEYS = "1\n\n" * 6  # the first card and Enter, a few times over


def entry_command() -> list[str]:
    """The ``scopa`` command as pip installs it: the console entry point of the source tree's pyproject
    (the tests' own, beside them, so that an installed, not editable, scopa is tested too)."""
    pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
    module, _, function = tomllib.loads(pyproject.read_text())["project"]["scripts"]["scopa"].partition(":")
    return [sys.executable, "-c", f"import sys; from {module} import {function}; sys.exit({function}())"]


def saved_match(tmp_path: Path) -> dict[str, bytes]:
    """A match three plays in, saved in ``tmp_path/data``; the saves' bytes."""
    record, _ = MatchRecord.start(Rules(), (SeatSetup("You"), SeatSetup("Robin", "computer", "easy")), 7)
    for _ in range(3):
        record, _ = record.play(record.state.legal_moves()[0])
    save_match(tmp_path / "data", record)
    return save_bytes(tmp_path)


def save_bytes(tmp_path: Path) -> dict[str, bytes]:
    saved = saves_on_disk(tmp_path / "data")
    assert saved
    return saved


def scopa_run(tmp_path: Path, *flags: str, shell: str = "", env: dict[str, str] | None = None,
              stdin: str = "", stdout=subprocess.PIPE) -> subprocess.CompletedProcess:
    """The command with its folders in ``tmp_path``; ``shell`` is a redirection such as ``0<&-``."""
    command = [*entry_command(), "--no-voice", "--plain", "--data-dir", str(tmp_path / "data"),
               "--config-dir", str(tmp_path / "config"), *flags]
    if shell:
        command = ["sh", "-c", f'exec "$@" {shell}', "sh", *command]
    full_env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "PYTHONIO"))}
    full_env.update(env or {})
    return subprocess.run(command, input=stdin.encode(), stdout=stdout, stderr=subprocess.PIPE, env=full_env,
                          timeout=60, check=False)


def stderr_lines(done: subprocess.CompletedProcess) -> list[str]:
    text = done.stderr.decode("utf-8", "replace")
    assert "Traceback" not in text and "Exception ignored" not in text, text
    return text.splitlines()


def test_closed_input_is_one_line_and_the_save_is_kept(tmp_path):
    before = saved_match(tmp_path)
    done = scopa_run(tmp_path, "--resume", shell="0<&-")
    assert stderr_lines(done) == ["scopa: " + M("terminal.no_input")]
    assert done.returncode == 1
    assert save_bytes(tmp_path) == before


def test_closed_output_is_one_line_and_the_save_is_kept(tmp_path):
    before = saved_match(tmp_path)
    done = scopa_run(tmp_path, "--resume", shell="1>&-", stdin=KEYS)
    assert stderr_lines(done) == ["scopa: " + M("terminal.no_output")]
    assert done.returncode == 1
    assert save_bytes(tmp_path) == before


@pytest.mark.linux
@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("flags", [("--resume",), ("--help",), ("--version",), ("--stats",)])
def test_output_on_a_full_device_is_one_line_and_the_save_is_kept(tmp_path, flags):
    before = saved_match(tmp_path)
    with open("/dev/full", "w") as full:
        done = scopa_run(tmp_path, *flags, stdin=KEYS, stdout=full)
    full_disk = os_problem(OSError(28, "No space left on device"), M)
    assert stderr_lines(done) == ["scopa: " + M("terminal.output_failed", problem=full_disk)]
    assert done.returncode == 1
    assert save_bytes(tmp_path) == before


def test_an_ascii_terminal_gets_the_same_lines_without_accents(tmp_path):
    """LC_ALL=C: Italian is written with plain letters (è as e), the game plays on and saves."""
    utf8 = scopa_run(tmp_path / "a", "--lang", "it", "--seed", "3", stdin=KEYS, env={"PYTHONIOENCODING": "utf-8"})
    ascii_run = scopa_run(tmp_path / "b", "--lang", "it", "--seed", "3", stdin=KEYS, env=C_LOCALE)
    assert stderr_lines(ascii_run) == [] and ascii_run.returncode == 0
    written = utf8.stdout.decode("utf-8")
    assert any(not c.isascii() for c in written)  # the test means something: Italian has accents
    plain = "".join(c if c.isascii() else plain_letter(c, "ascii") for c in written)
    assert ascii_run.stdout.decode("ascii") == plain
    assert AutosaveStore(tmp_path / "b" / "data").load().record is not None


def test_an_ascii_terminal_gets_usage_errors_and_help_without_accents(tmp_path):
    error = scopa_run(tmp_path, "--lang", "it", "--players", "9", env=C_LOCALE)
    assert error.returncode == 2
    assert stderr_lines(error)[0] == "scopa: --players non puo essere 9. Scegli tra 2, 3, 4."
    shown = scopa_run(tmp_path, "--lang", "it", "--help", "all", env=C_LOCALE)
    assert shown.returncode == 0 and stderr_lines(shown) == []
    assert shown.stdout.decode("ascii").startswith("uso scopa")
    short = scopa_run(tmp_path, "--lang", "it", "--help", env=C_LOCALE)
    assert short.returncode == 0 and stderr_lines(short) == []
    assert "nel terminale" in short.stdout.decode("ascii")


@pytest.mark.parametrize("module", ["scopa.__main__", "scopa.cli", "scopa.narration", "scopa.console.app",
                                    "scopa.storage"])
def test_ctrl_c_while_the_game_loads_is_one_line(tmp_path, module):
    """Ctrl-C as each module starts loading (a test hook sends it at that exact moment)."""
    before = saved_match(tmp_path)
    env = {"PYTHONPATH": f"{HOOK}{os.pathsep}{os.environ.get('PYTHONPATH', '')}",
           "SCOPA_TEST_INTERRUPT": f"import:{module}"}
    done = scopa_run(tmp_path, "--resume", stdin=KEYS, env=env)
    assert stderr_lines(done) == ["scopa: " + M("app.interrupted")]
    assert done.returncode == 130
    assert save_bytes(tmp_path) == before


def test_ctrl_c_while_the_game_exits_is_ignored(tmp_path):
    """Ctrl-C during Python's shutdown, after Goodbye: nothing is left to stop, nothing is printed."""
    before = saved_match(tmp_path)
    env = {"PYTHONPATH": f"{HOOK}{os.pathsep}{os.environ.get('PYTHONPATH', '')}", "SCOPA_TEST_INTERRUPT": "exit"}
    done = scopa_run(tmp_path, stdin="esc\n", env=env)
    assert stderr_lines(done) == []
    assert done.returncode == 0
    assert done.stdout.decode().splitlines()[-1].endswith(M("app.bye"))
    assert save_bytes(tmp_path) == before
