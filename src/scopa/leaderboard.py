"""``scopa leaderboard [--server URL] [--top N] [--programs]``: the server's best players, then this
player's place; with ``--programs`` the board of the programs (bots), which is kept apart.

One line a player, rank first ("1st, Ann, rating 27.4, 12 matches."), then "You are 42nd of
310, rating 27.4." when this player has a rating there. The server is the last one played on
unless ``--server`` names another. The place heard is kept for ``scopa --stats``.
Exit code 0 when the board was read, 1 when the server could not say it, 2 for a bad command.
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from .console.leaderboard import board_lines
from .narration import LANGUAGES, Messages, system_language
from .net.protocol.server_messages import Leaderboard
from .net.protocol.wire import MAX_TOP
from .storage import default_data_dir
from .storage.player_key import PlayerKeyStore, remember_rating

READ, NOT_READ, USAGE = 0, 1, 2


def _top(text: str) -> int:
    value = int(text)
    if not 1 <= value <= MAX_TOP:
        raise ValueError(text)
    return value


def _help_language(argv: Sequence[str]) -> str:
    """The language of ``--help``: ``--lang`` when given, else the system's."""
    args = list(argv)
    at = args.index("--lang") + 1 if "--lang" in args else 0
    return args[at] if 0 < at < len(args) and args[at] in LANGUAGES else system_language()


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise ValueError(message)


def main(argv: Sequence[str]) -> int:
    """``scopa leaderboard [--server URL] [--top N] [--lang en|it] [--data-dir DIR]``."""
    from .config import default_config_dir, load_settings
    from .console.online import board_problem_line, server_address
    from .net.client.board import fetch_board
    if "--help" in argv or "-h" in argv:
        print(Messages(_help_language(argv))("leaderboard.help", most=MAX_TOP, data_dir="--data-dir",
                                             config_dir="--config-dir", no_voice="--no-voice"))
        return READ
    parser = _Parser(prog="scopa leaderboard", add_help=False)
    parser.add_argument("--server", default=None)
    parser.add_argument("--top", type=_top, default=10)
    parser.add_argument("--programs", action="store_true")
    parser.add_argument("--lang", choices=LANGUAGES, default=None)
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--config-dir", type=Path, default=None)
    for flag in ("--no-voice", "--voice", "--plain"):  # the flags every command takes: the board is only printed
        parser.add_argument(flag, action="store_true")
    try:
        args = parser.parse_args(list(argv))
    except ValueError:
        print(f"scopa: {Messages(system_language())('leaderboard.usage', most=MAX_TOP)}", file=sys.stderr)
        return USAGE
    settings, _ = load_settings(args.config_dir or default_config_dir())
    messages = Messages(args.lang or settings.language or system_language())
    server = server_address(args.server) if args.server else settings.last_server
    if not server:
        print(f"scopa: {messages('online.need_server')}", file=sys.stderr)
        return USAGE
    data_dir = args.data_dir or default_data_dir()
    key = None if args.programs else PlayerKeyStore(data_dir).load()  # a person's place is on the people's board
    answer = fetch_board(server, args.top, key, programs=args.programs)
    if not isinstance(answer, Leaderboard):
        print(board_problem_line(answer.code, answer.values, messages, server).text)
        return NOT_READ
    for line in board_lines(answer, messages, key is not None, args.programs):
        print(line)
    if answer.you is not None:
        remember_rating(data_dir, server, answer.you.rank, answer.you.of, answer.you.rating)
    return READ
