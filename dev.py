#!/usr/bin/env python3
"""Set up a private virtual environment and run the game or the tests.

    python3 dev.py play [scopa options]   set up, then start the game (python3 dev.py play serve: the room server)
    python3 dev.py test [pytest options]  set up, then run the whole test suite (in 3 processes:
                                          SCOPA_TEST_WORKERS=1 for one; a file or test named runs in one)
    python3 dev.py test-lowest [pytest options]
                                          the same on the lowest versions pyproject.toml allows
    python3 dev.py lint [ruff options]    set up, then check src and tests with ruff, and src with mypy
    python3 dev.py bench NAME [options]   a benchmark, NAME one of engine, ai, expert, judge, speech, words,
                                          latency, record, saves, crash, server, leaderboard, openings,
                                          encoding

The environment lives in .venv beside this file and is reused; it is reinstalled when
pyproject.toml changes. test-lowest has its own, .venv-lowest, installed with the versions of
.ci/lowest-versions.txt. Ctrl-C at any moment ends with code 130 and no traceback.
"""
from __future__ import annotations

import contextlib
import os
import signal

INTERRUPTED = 130


def _interrupted(signum: int, frame: object) -> None:
    """Ctrl-C while dev.py itself works (its imports, setting up .venv): one line, code 130.

    Nothing is half done that matters: the install's stamp is written only once it finished."""
    with contextlib.suppress(OSError):
        os.write(2, b"dev.py: Interrupted.\n")
    os._exit(INTERRUPTED)


signal.signal(signal.SIGINT, _interrupted)  # first, before the slower imports below

import hashlib  # noqa: E402  (after the Ctrl-C handler on purpose)
import subprocess  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parent
BIN = "Scripts" if os.name == "nt" else "bin"
EXE = "python.exe" if os.name == "nt" else "python"
LOWEST = ROOT / ".ci" / "lowest-versions.txt"
EXTRAS = "test,redis,lint"  # the tests start real Redis-backed servers; lint: ruff and mypy for dev.py lint
LOWEST_EXTRAS = "test,redis"  # test-lowest runs the tests alone: no lint tools in .venv-lowest
TEST_WORKERS = 3  # processes for the whole suite (test_workers): 2 cores do 3 mostly waiting ones well
COMMAND_VARIABLE = "SCOPA_COMMAND"  # how the game names the command that starts it again


class Environment:
    """A virtual environment with scopa installed in it, editable, with its test tools (and extras)."""

    def __init__(self, folder: Path, extras: str = EXTRAS, constraints: Path | None = None) -> None:
        self.folder, self.extras, self.constraints = folder, extras, constraints
        self.python = folder / BIN / EXE
        self.stamp = folder / ".scopa-installed"

    def wanted_stamp(self) -> str:
        inputs = [ROOT / "pyproject.toml"] + ([self.constraints] if self.constraints else [])
        return hashlib.sha256(b"".join(path.read_bytes() for path in inputs) + self.extras.encode()).hexdigest()

    def ensure(self) -> int:
        """Create the environment and install scopa, once per change of what it is made from; 0 when ready."""
        if self.stamp.exists() and self.stamp.read_text() == self.wanted_stamp():
            return 0
        if not self._has_pip():  # none yet, or one whose creation was cut short
            print(f"Setting up a virtual environment in {self.folder.name} ...", flush=True)
            import venv
            venv.EnvBuilder(with_pip=True, clear=True).create(self.folder)
        print("Installing scopa and its dependencies ...", flush=True)
        pip = [str(self.python), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
        if self.constraints:
            pip += ["--constraint", str(self.constraints)]
        code, interrupted = run_child([*pip, "-e", f"{ROOT}[{self.extras}]"])
        if interrupted:
            _interrupted(signal.SIGINT, None)
        if code != 0:
            print(f"dev.py: installing failed (pip ended with code {code}; it said why above).", file=sys.stderr)
            return code
        self.stamp.write_text(self.wanted_stamp())
        return 0

    def _has_pip(self) -> bool:
        if not self.python.exists():
            return False
        found = subprocess.run([str(self.python), "-m", "pip", "--version"], capture_output=True, check=False)
        return found.returncode == 0


def run_child(args: list[str], env: dict[str, str] | None = None) -> tuple[int, bool]:
    """Run pip, the game, the tests or a bench; its exit code, and whether Ctrl-C was pressed meanwhile.

    The child shares the terminal, so a Ctrl-C reaches it too and it ends as it chooses (the
    game with one line and 130). dev.py waits for it, with a handler of its own that only notes
    the Ctrl-C (not SIG_IGN, which the child would inherit), so it never ends before its child."""
    pressed: list[int] = []
    signal.signal(signal.SIGINT, lambda signum, frame: pressed.append(signum))
    try:
        code = subprocess.run(args, cwd=ROOT, env=env, check=False).returncode
    finally:
        signal.signal(signal.SIGINT, _interrupted)
    return (INTERRUPTED if code == -signal.SIGINT else code), bool(pressed)


STARTED_VARIABLE = "SCOPA_STARTED_FD"  # the pipe the game writes to once it handles Ctrl-C itself (scopa.startup)


def run_game(args: list[str], env: dict[str, str]) -> int:
    """Run the game (``python -m scopa``), whose first line handles Ctrl-C, so that no Ctrl-C of
    its first moments prints a traceback.

    Python's own start-up in the child (before scopa's first line) would turn a Ctrl-C into a
    traceback, so the child starts with Ctrl-C ignored, and says through a pipe when its first
    line has put its own handler in place; a Ctrl-C pressed before then is passed on to it at
    that moment, and it ends with its one line and 130 as for any early Ctrl-C. Not on Windows,
    whose consoles deliver Ctrl-C otherwise."""
    if os.name == "nt":
        return run_child(args, env)[0]
    pressed: list[int] = []
    signal.signal(signal.SIGINT, lambda signum, frame: pressed.append(signum))
    started, tell = os.pipe()
    try:
        child = subprocess.Popen(args, cwd=ROOT, env=dict(env, **{STARTED_VARIABLE: str(tell)}), pass_fds=(tell,),
                                 preexec_fn=_ignore_ctrl_c)  # noqa: PLW1509  (dev.py runs no threads)
        os.close(tell)
        os.read(started, 1)  # a byte once the game handles Ctrl-C, or nothing when it ended before
        if pressed:
            child.send_signal(signal.SIGINT)
        code = child.wait()
    finally:
        os.close(started)
        signal.signal(signal.SIGINT, _interrupted)
    return INTERRUPTED if code == -signal.SIGINT else code


def _ignore_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def play_command() -> str:
    """The command that started dev.py, as typed ("python3 dev.py play"): what the game names
    when it says how to start it again ("Run python3 dev.py play again to resume it.")."""
    python = "py" if os.name == "nt" else "python3"
    script = sys.argv[0] if sys.argv and sys.argv[0] else "dev.py"
    return f"{python} {script} play" if " " not in script else f'{python} "{script}" play'


COMMANDS = ("play", "test", "test-lowest", "lint", "bench")


LINT_PLATFORMS = ("linux", "win32", "darwin")  # mypy checks src as each system's Python sees it


def lint(python: str, rest: list[str]) -> int:
    """ruff on src, tests and this file, then mypy (strict, on src: pyproject.toml) once for each of
    Linux, Windows and macOS, so that nothing one of them lacks (termios, SIGKILL, msvcrt) is used
    unguarded; all run whatever the first finds; 1 if any finds anything, 130 after a Ctrl-C."""
    ruff, interrupted = run_child([python, "-m", "ruff", "check", "src", "tests", "dev.py", *rest])
    if interrupted:
        return INTERRUPTED
    failed = bool(ruff)
    for platform in LINT_PLATFORMS:
        print(f"mypy --platform {platform}", flush=True)
        cache = ROOT / ".mypy_cache" / platform  # one each: a cache of another platform is checked again whole
        mypy, interrupted = run_child([python, "-m", "mypy", "--platform", platform, "--cache-dir", str(cache)])
        if interrupted:
            return INTERRUPTED
        failed = failed or bool(mypy)
    return 1 if failed else 0


def test_workers(rest: list[str]) -> list[str]:
    """``-n N`` (pytest-xdist) for a run of the whole suite, which is mostly waiting (real programs
    in pseudo-terminals, real servers): SCOPA_TEST_WORKERS processes, 3 unless set, 0 or 1 for one
    process. Nothing when ``rest`` names tests (a file, a test), its own ``-n``, or ``-p no:xdist``."""
    named = any(not arg.startswith("-") for arg in rest)
    own = any(arg in ("-n", "--numprocesses", "no:xdist") or arg.startswith(("-n", "--numprocesses="))
              for arg in rest)
    workers = os.environ.get("SCOPA_TEST_WORKERS", str(TEST_WORKERS))
    if named or own or not workers.isdigit() or int(workers) < 2:
        return []
    return ["-n", workers]


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in COMMANDS:
        print((__doc__ or "").strip())
        return 2
    if sys.version_info < (3, 11):  # noqa: UP036  (dev.py runs on whichever python3 the player has)
        sys.exit("scopa needs Python 3.11 or newer; this is " + sys.version.split()[0])
    command, rest = argv[0], argv[1:]
    lowest = command == "test-lowest"
    environment = Environment(ROOT / ".venv-lowest", LOWEST_EXTRAS, LOWEST) if lowest else Environment(ROOT / ".venv")
    code = environment.ensure()
    if code != 0:
        return code
    python = str(environment.python)
    if command == "lint":
        return lint(python, rest)
    if command == "play":
        return run_game([python, "-m", "scopa", *rest], dict(os.environ, **{COMMAND_VARIABLE: play_command()}))
    if command in ("test", "test-lowest"):
        args, env = [python, "-m", "pytest", *test_workers(rest), *rest], None
    else:
        args, env = [python, "-m", "scopa.bench", *rest], None
    return run_child(args, env)[0]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
