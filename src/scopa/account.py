"""``scopa account export FILE`` and ``scopa account import FILE``: move the player key.

The player key (``storage.player_key``) is this player's name and rating on every room server.
Both commands say first, before anything is written, that anyone with the file can play as the
player; then one line of what was done. Exit code 0 when done, 1 when not, 2 for a command
that cannot be used.

An import that would replace another key (a name and rating of their own) asks first, at a
terminal; a script (input not a terminal) is refused unless ``--replace`` is given. The key
replaced is kept in a backup file first, named in the line that says it was done, so
``scopa account import`` of that file takes it back (issue 38: Eve's name was lost for good).
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from .narration import LANGUAGES, Messages, system_language
from .storage import default_data_dir
from .storage.player_key import PlayerKeyStore

DONE, NOT_DONE, USAGE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise ValueError(message)


def _parser() -> _Parser:
    parser = _Parser(prog="scopa account", add_help=False)
    parser.add_argument("action", choices=("export", "import"))
    parser.add_argument("file", type=Path)
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--lang", choices=LANGUAGES, default=None)
    parser.add_argument("--replace", action="store_true")
    return parser


def main(argv: Sequence[str]) -> int:
    """``scopa account export|import FILE [--data-dir DIR] [--lang en|it]``."""
    if "--help" in argv or "-h" in argv:
        print(Messages(_help_language(argv))("account.help", data_dir="--data-dir"))
        return DONE
    try:
        args = _parser().parse_args(list(argv))
    except ValueError:
        print(f"scopa: {Messages(system_language())('account.usage')}", file=sys.stderr)
        return USAGE
    messages = Messages(args.lang or system_language())
    store = PlayerKeyStore(args.data_dir or default_data_dir())
    print(messages("account.warning"), flush=True)  # said first, before anything is written
    if args.action == "export":
        problem = store.export(args.file)
        if problem == "none":
            print(messages("account.no_key"))
            return NOT_DONE
        if isinstance(problem, OSError):
            print(messages("account.not_written", file=str(args.file), reason=problem.strerror or str(problem)))
            return NOT_DONE
        print(messages("account.exported", file=str(args.file)))
        return DONE
    if store.replaces(args.file) and not args.replace and not _asked_to_replace(messages):
        return NOT_DONE
    imported = store.import_(args.file)
    if imported == "broken":
        print(messages("account.broken", file=str(args.file)))
        return NOT_DONE
    if isinstance(imported, OSError):
        print(messages("account.not_written", file=str(store.path), reason=imported.strerror or str(imported)))
        return NOT_DONE
    if isinstance(imported, Path):
        print(messages("account.imported.backup", backup=str(imported)))
        return DONE
    print(messages("account.imported"))
    return DONE


def _asked_to_replace(messages: Messages) -> bool:
    """At a terminal: whether the player answers yes to replacing their key. Not at a terminal
    (a script): refused, with what to add. Either way, nothing is written before the answer."""
    if not sys.stdin.isatty():
        print(messages("account.replace_refused"))
        return False
    print(messages("account.replace_ask"), flush=True)
    try:
        answer = input(messages("account.replace_prompt") + " ").strip().lower()
    except (EOFError, KeyboardInterrupt):
        answer = "n"
        print()
    if answer in ("y", "yes", "s", "si", "sì"):
        return True
    print(messages("account.kept"))
    return False


def _help_language(argv: Sequence[str]) -> str:
    """The language of ``--help``: ``--lang`` when given before it, else the system's."""
    args = list(argv)
    if "--lang" in args and args.index("--lang") + 1 < len(args) and args[args.index("--lang") + 1] in LANGUAGES:
        return args[args.index("--lang") + 1]
    return system_language()
