"""``scopa verify FILE``: check the shuffle of a match file, or of every match in a results log.

A match file (a save, an export, or an online match's record) is checked by ``storage.fairness``:
it must replay from its seed, so that the seed deals every card the file shows, and an online
match's seed must be the hash of the server's seed and every human seat's share (one each, none
for a computer). An online match of the results log kept without its seed's parts is "not
checked", never "fair". One line a match, in the player's language; the exit code is 0 when
every match checked fair, 1 otherwise (a failure, or a match that could not be checked), 2 for a
command that cannot be used. The commitment, heard before the match, is checked by the client
that heard it, when the match ends (docs/fairness.md).
"""
from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

from .narration import LANGUAGES, Messages, system_language
from .storage import SaveFileError
from .storage.fairness import check_file
from .storage.files import read_text_file
from .storage.results import RESULTS_FORMAT, RESULTS_MAX_BYTES

CHECKED, FAILED, USAGE = 0, 1, 2


def verdict_lines(data: Any, messages: Messages) -> tuple[list[str], bool]:
    """The lines for a file's data, and whether every match in it checked fair."""
    if isinstance(data, dict) and data.get("format") == RESULTS_FORMAT and isinstance(data.get("results"), list):
        matches = [(entry.get("match"), entry.get("online") is True)
                   for entry in data["results"] if isinstance(entry, dict)]
        matches = [(match, online) for match, online in matches if match is not None]
        if not matches:
            return [messages("verify.no_matches")], False
        lines, fair = [], True
        for number, (match, online) in enumerate(matches, 1):
            line, ok = _line(match, messages, online)
            lines.append(messages("verify.numbered", number=number, count=len(matches), line=line))
            fair = fair and ok
        return lines, fair
    line, ok = _line(data, messages)
    return [line], ok


def _line(data: Any, messages: Messages, online: bool = False) -> tuple[str, bool]:
    verdict, error = check_file(data, online)
    if error is not None:
        return messages("fairness.unreadable", reason=error.localised(messages)), False
    return messages(f"fairness.{verdict}"), verdict == "fair"


def main(argv: Sequence[str]) -> int:
    """``scopa verify FILE [--lang en|it]``."""
    args = list(argv)
    lang = None
    if "--lang" in args:
        at = args.index("--lang")
        lang = args[at + 1].strip().lower() if at + 1 < len(args) else ""
        del args[at:at + 2]
    messages = Messages(lang if lang in LANGUAGES else system_language())
    if args in (["--help"], ["-h"]):  # scopa verify --help, as every command has
        print(messages("verify.help"))
        return CHECKED
    if len(args) != 1 or args[0].startswith("-") or (lang is not None and lang not in LANGUAGES):
        print(f"scopa: {messages('verify.usage')}", file=sys.stderr)
        return USAGE
    try:
        text = read_text_file(args[0], RESULTS_MAX_BYTES)
        data = json.loads(text)
    except SaveFileError as error:
        print(messages("fairness.unreadable", reason=error.localised(messages)))
        return FAILED
    except (ValueError, RecursionError):
        print(messages("fairness.unreadable", reason=SaveFileError("storage.reason.not_json").localised(messages)))
        return FAILED
    lines, fair = verdict_lines(data, messages)
    for line in lines:
        print(line)
    return CHECKED if fair else FAILED
