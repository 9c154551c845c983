#!/usr/bin/env python3
"""Set up a private virtual environment and run the game or the tests.

    python3 dev.py play [scopa options]   set up, then start the game
    python3 dev.py test [pytest options]  set up, then run the whole test suite
    python3 dev.py lint [ruff options]    set up, then check src and tests with ruff, and src with mypy
    python3 dev.py bench engine|ai|speech [options]

The environment lives in .venv beside this file and is reused; it is
reinstalled when pyproject.toml changes.
"""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".scopa-installed"


def _wanted_stamp() -> str:
    return hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()


def ensure_venv() -> None:
    """Create .venv and install scopa with its test and lint tools, once per pyproject change."""
    if sys.version_info < (3, 11):  # noqa: UP036 -- this file runs under whichever python3 starts it
        sys.exit("scopa needs Python 3.11 or newer; this is " + sys.version.split()[0])
    if not PYTHON.exists():
        print("Setting up a virtual environment in .venv ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    if STAMP.exists() and STAMP.read_text() == _wanted_stamp():
        return
    print("Installing scopa and its dependencies ...", flush=True)
    pip = [str(PYTHON), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    subprocess.run([*pip, "-e", f"{ROOT}[test,lint]"], check=True)
    STAMP.write_text(_wanted_stamp())


def lint(rest: list[str]) -> int:
    """ruff on src, tests and this file, then mypy (strict, on src: pyproject.toml); both run
    whatever the first finds; 1 if either finds anything."""
    ruff = subprocess.run([str(PYTHON), "-m", "ruff", "check", "src", "tests", "dev.py", *rest], check=False,
                          cwd=ROOT).returncode
    mypy = subprocess.run([str(PYTHON), "-m", "mypy"], check=False, cwd=ROOT).returncode
    return 1 if ruff or mypy else 0


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in {"play", "test", "lint", "bench"}:
        print(__doc__.strip())
        return 2
    ensure_venv()
    command, rest = argv[0], argv[1:]
    if command == "lint":
        return lint(rest)
    if command == "play":
        args = [str(PYTHON), "-m", "scopa", *rest]
    elif command == "test":
        args = [str(PYTHON), "-m", "pytest", *rest]
    else:
        args = [str(PYTHON), "-m", "scopa.bench", *rest]
    return subprocess.run(args, check=False, cwd=ROOT).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
