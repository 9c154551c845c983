"""Every command the README and docs/ show in a code block is read as the game reads it (issue 31:
"every command in the README and docs/ works as written").

Each indented line of a code block that starts with ``scopa`` is split as a shell splits it and
given to the parser of its command, with the checks the game makes before it starts (flags that
go together, rules, seats, the invite link); ``HOST`` becomes 127.0.0.1. Nothing is played and no
server is started, so a line passes when the game would take it and fails when it would answer
with a usage error (exit code 2). ``scopa verify``, ``scopa account`` and ``scopa leaderboard``
are run for real, with an empty data folder and a server that is not there: they must not end
with code 2. ``python3 dev.py`` lines must name one of dev.py's commands (and a bench that
exists). Commands written inside a sentence (with placeholders such as CODE or FILE) are not read.
"""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from scopa.__main__ import COMMANDS
from scopa.bench.__main__ import COMMANDS as BENCHES
from scopa.cli import (
    ONLINE_COMMANDS,
    UsageError,
    budget_from_args,
    build_online_parser,
    build_parser,
    check_flag_combination,
    lesson_from_args,
    online_seats,
    review_from_args,
    rules_from_args,
    seats_from_args,
    settings_from_args,
    wants_new_match,
)
from scopa.config import Settings
from scopa.narration import Messages
from scopa.net.client.invite import parse_invite
from scopa.net.server.server import build_parser as build_serve_parser

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
DEV_COMMANDS = re.search(r'^COMMANDS = \((.*)\)$', (ROOT / "dev.py").read_text("utf-8"), re.MULTILINE)
RUN = ("verify", "account", "leaderboard")  # run for real: their own small readers of argv
ONLINE = ONLINE_COMMANDS
EN = Messages("en")


def shown(prefix: str) -> list[tuple[str, str]]:
    """(page, line) for every line of an indented code block that starts with ``prefix``."""
    found = []
    for page in PAGES:
        if not page.exists():
            continue
        for line in page.read_text("utf-8").splitlines():
            if line.startswith("    ") and (line.strip() == prefix or line.strip().startswith(prefix + " ")):
                found.append((page.name, line.strip()))
    return found


def words(line: str) -> list[str]:
    """The line as a shell splits it, its comment and an input redirection left out."""
    split = shlex.split(line.replace("HOST", "127.0.0.1"), comments=True)
    return split[:split.index("<")] if "<" in split else split


SCOPA = shown("scopa")


def test_the_docs_show_commands_of_every_kind() -> None:
    if not (ROOT / "docs").exists():
        pytest.skip("the docs beside the tests")
    kinds = {words(line)[1] if len(words(line)) > 1 and not words(line)[1].startswith("-") else "match"
             for _, line in SCOPA}
    assert {"match", "serve", "host", "join", "quick", "tables", "verify"} <= kinds


@pytest.mark.parametrize("page, line", [item for item in SCOPA if words(item[1])[1:2] not in ([n] for n in RUN)])
def test_each_scopa_command_shown_is_taken_as_written(page: str, line: str) -> None:
    argv = words(line)[1:]
    try:
        if argv and argv[0] == "serve":
            build_serve_parser().parse_args(argv[1:])
        elif argv and argv[0] in ONLINE:
            args = build_online_parser(argv[0], EN).parse_args(argv[1:])
            settings_from_args(args, Settings())
            if argv[0] in ("host", "quick"):
                online_seats(args, rules_from_args(args).players)
            code = getattr(args, "code", None)
            if code is not None and parse_invite(code) is None:
                assert re.fullmatch(r"[A-Z0-9]{6}", code), f"{code!r} is neither a room code nor an invite link"
        else:
            assert not argv or argv[0] not in COMMANDS
            args = build_parser(EN, tuple(COMMANDS)).parse_args(argv)
            check_flag_combination(args)
            settings_from_args(args, Settings())
            lesson_from_args(args)
            review_from_args(args)
            seats = None
            if wants_new_match(args):
                rules = rules_from_args(args)
                seats = seats_from_args(args, rules, EN)
            budget_from_args(args, seats)
    except SystemExit as refused:  # argparse: an unknown flag or a bad value
        pytest.fail(f"{page}: {line!r} is refused by the parser (exit code {refused.code})")
    except UsageError as refused:
        pytest.fail(f"{page}: {line!r} is refused: {refused.localised(EN)}")


@pytest.mark.parametrize("page, line", [item for item in SCOPA if words(item[1])[1:2] in ([n] for n in RUN)])
def test_each_command_that_reads_its_own_words_is_no_usage_error(page: str, line: str, tmp_path: Path) -> None:
    env = dict(os.environ, HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "data"),
               XDG_CONFIG_HOME=str(tmp_path / "config"))
    argv = [arg.replace("127.0.0.1:8765", "127.0.0.1:1") for arg in words(line)[1:]]  # nobody listens there
    ran = subprocess.run([sys.executable, "-m", "scopa", *argv], cwd=tmp_path, env=env, stdin=subprocess.DEVNULL,
                         capture_output=True, text=True, timeout=60, check=False)
    assert ran.returncode != 2, f"{page}: {line!r}: {ran.stderr}"
    assert "Traceback" not in ran.stderr, ran.stderr


@pytest.mark.parametrize("page, line", shown("python3 dev.py"))
def test_each_dev_py_command_shown_is_one_dev_py_has(page: str, line: str) -> None:
    argv = words(line)[2:]
    assert DEV_COMMANDS is not None, "dev.py names its commands in one COMMANDS line"
    assert f'"{argv[0]}"' in DEV_COMMANDS[1], f"{page}: {line!r}"
    if argv[0] == "bench":
        assert argv[1] in BENCHES, f"{page}: {line!r}: no bench {argv[1]!r}"
