"""``dev.py``, the set-up script of the quick start: Ctrl-C at any moment ends it with code 130 and
no traceback, and the game it starts knows the command that started it.

The first tests run a copy of dev.py beside a stand-in ``.venv/bin/python`` (a shell script that
says "ready" and waits), so the Ctrl-C lands exactly where the test means it to: while pip
installs, or while the game runs. The last ones run the real dev.py and the real game."""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import sys
from pathlib import Path

import pexpect
import pytest

pytestmark = pytest.mark.linux  # dev.py in a pty

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(os.name == "nt" or not (ROOT / "dev.py").exists(),
                                reason="POSIX pseudo-terminals; dev.py beside the tests")

STAND_IN = """#!{python}
# A stand-in for the environment's python. pip: answers the version check, and installs at once
# unless SLOW_INSTALL is set. The game: does what scopa.startup does (a Ctrl-C handler of its
# own, then a byte on dev.py's pipe), after SLOW_START seconds of a start-up that ignores
# Ctrl-C as dev.py asks, then says "ready" and waits.
import os, signal, sys, time
args = " ".join(sys.argv[1:])
if "pip --version" in args:
    sys.exit(0)
if "pip install" in args:
    if os.environ.get("SLOW_INSTALL"):
        signal.signal(signal.SIGINT, lambda signum, frame: os._exit(1))  # pip stops, with its own line
        print("ready to install", flush=True)
        time.sleep(60)
    sys.exit(0)
print("starting", flush=True)
time.sleep(float(os.environ.get("SLOW_START", "0")))
def interrupted(signum, frame):
    os.write(2, b"scopa: Interrupted.\\n")
    os._exit(130)
signal.signal(signal.SIGINT, interrupted)
fd = os.environ.get("SCOPA_STARTED_FD")
if fd:
    os.write(int(fd), b".")
    os.close(int(fd))
os.write(1, ("ready: %s\\n" % os.environ.get("SCOPA_COMMAND")).encode())  # one write: a Ctrl-C never splits it
time.sleep(60)
"""


def stand_in_project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    (project / ".venv" / "bin").mkdir(parents=True)
    shutil.copy(ROOT / "dev.py", project / "dev.py")
    (project / "pyproject.toml").write_text("[project]\nname = 'stand-in'\n")
    python = project / ".venv" / "bin" / "python"
    python.write_text(STAND_IN.format(python=sys.executable))
    python.chmod(0o755)
    return project


def spawn(args: list[str], cwd: Path, **env: str) -> pexpect.spawn:
    return pexpect.spawn(sys.executable, args, cwd=str(cwd), env=dict(os.environ, **env), encoding="utf-8",
                         timeout=60, dimensions=(24, 200))


def interrupted(child: pexpect.spawn) -> str:
    """Ctrl-C as the terminal sends it (to every process of the foreground group); all that followed,
    less the terminal's own echo of it."""
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    return str(child.before).replace("^C", "")


def test_ctrl_c_while_the_game_runs_ends_dev_py_with_130_and_no_traceback(tmp_path: Path) -> None:
    project = stand_in_project(tmp_path)
    child = spawn(["dev.py", "play", "--no-voice"], project)
    child.expect("ready: python3 dev.py play")  # the game is told the command that started it
    after = interrupted(child)
    assert "Traceback" not in after and "KeyboardInterrupt" not in after
    assert child.exitstatus == 130


def test_ctrl_c_while_the_game_starts_reaches_it_once_it_can_say_so(tmp_path: Path) -> None:
    """Python's own start-up in the game's process, before scopa's first line, would print a
    traceback for a Ctrl-C: dev.py starts it with Ctrl-C ignored and passes one on once it is handled."""
    project = stand_in_project(tmp_path)
    child = spawn(["dev.py", "play"], project, SLOW_START="1")
    child.expect("starting")
    after = interrupted(child)
    assert "Traceback" not in after and "KeyboardInterrupt" not in after
    assert [line for line in after.splitlines() if line.strip()][-1] == "scopa: Interrupted."
    assert child.exitstatus == 130


def test_ctrl_c_while_installing_is_one_line_and_130(tmp_path: Path) -> None:
    project = stand_in_project(tmp_path)
    child = spawn(["dev.py", "play"], project, SLOW_INSTALL="1")
    child.expect("ready to install")
    after = interrupted(child)
    assert "Traceback" not in after
    assert [line for line in after.splitlines() if line.strip()] == ["dev.py: Interrupted."]
    assert child.exitstatus == 130
    assert not (project / ".venv" / ".scopa-installed").exists()  # installed again next time


def real_environment_ready() -> bool:
    """Whether dev.py would start the game at once: its .venv installed from this very pyproject
    (else the test would reinstall it, perhaps under the tests running from it)."""
    stamp = ROOT / ".venv" / ".scopa-installed"
    extras = re.search(r'^EXTRAS = "([^"]*)"', (ROOT / "dev.py").read_text("utf-8"), re.MULTILINE)
    if not stamp.exists() or extras is None:
        return False
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + extras[1].encode()).hexdigest()
    return stamp.read_text() == wanted


real_environment = pytest.mark.skipif(not real_environment_ready(),
                                      reason="the real dev.py's .venv is not set up for this pyproject "
                                             "(python3 dev.py test sets it up)")


@real_environment
def test_ctrl_c_in_the_real_game_started_by_dev_py_is_one_line_and_130(tmp_path: Path) -> None:
    child = spawn([str(ROOT / "dev.py"), "play", "--plain", "--no-voice", "--data-dir", str(tmp_path / "data"),
                   "--config-dir", str(tmp_path / "config")], tmp_path)
    child.expect("Choice\\?")  # the game is up, at its main menu
    after = interrupted(child)
    assert "Traceback" not in after
    assert child.exitstatus == 130


@real_environment
def test_ctrl_c_on_the_room_server_started_by_dev_py_stops_it_without_a_traceback(tmp_path: Path) -> None:
    child = spawn([str(ROOT / "dev.py"), "play", "serve", "--port", "0", "--db", str(tmp_path / "rooms.db")],
                  tmp_path)
    child.expect("listening on ws://127.0.0.1:")
    after = interrupted(child)
    assert "Traceback" not in after and "stopped" in after
    assert child.exitstatus == 0


ECHO = """#!{python}
# A stand-in for the environment's python: pip succeeds at once; anything else prints its arguments.
import sys
args = sys.argv[1:]
if args[:2] == ["-m", "pip"]:
    sys.exit(0)
print("args: " + " ".join(args))
"""


def test_the_whole_suite_runs_in_several_processes_and_named_tests_in_one(tmp_path: Path) -> None:
    """``dev.py test`` alone runs pytest-xdist workers (the suite mostly waits on real programs and
    servers); a file named, a -n of one's own or SCOPA_TEST_WORKERS=1 runs in one process."""
    import subprocess
    project = stand_in_project(tmp_path)
    (project / ".venv" / "bin" / "python").write_text(ECHO.format(python=sys.executable))

    outer = {key: value for key, value in os.environ.items() if key != "SCOPA_TEST_WORKERS"}  # the suite's own

    def pytest_args(*args: str, **env: str) -> str:
        done = subprocess.run([sys.executable, "dev.py", *args], cwd=project, capture_output=True, text=True,
                              env=dict(outer, **env), timeout=60, check=True)
        return next(line for line in done.stdout.splitlines() if line.startswith("args: "))

    assert pytest_args("test") == "args: -m pytest -n 3"
    assert pytest_args("test", "-x") == "args: -m pytest -n 3 -x"
    assert pytest_args("test", "tests/test_rules.py") == "args: -m pytest tests/test_rules.py"
    assert pytest_args("test", "-n", "2") == "args: -m pytest -n 2"
    assert pytest_args("test", SCOPA_TEST_WORKERS="1") == "args: -m pytest"
    assert pytest_args("test", SCOPA_TEST_WORKERS="4") == "args: -m pytest -n 4"
