"""The leaderboard of a room server, and the day's daily deal, each asked over one short
connection (``scopa leaderboard``, ``scopa daily``)."""
from __future__ import annotations

import ssl

from ..protocol.client_messages import DailyRequest, LeaderboardRequest
from ..protocol.server_messages import DailyAnswer, Leaderboard
from .client import UNREACHABLE, Problem, ask_once

TIMEOUT = 10.0


def fetch_board(server: str, top: int, player_key: str | None, tls: ssl.SSLContext | None = None,
                timeout: float = TIMEOUT, programs: bool = False) -> Leaderboard | Problem:
    """The server's top ``top`` players and, with the key, this player's place; or the problem.
    ``programs``: the programs' board (bots, docs/protocol.md), apart from the people's."""
    answer = ask_once(server, LeaderboardRequest(top, player_key, programs), tls, timeout)
    return answer if isinstance(answer, (Leaderboard, Problem)) else Problem(UNREACHABLE, {})


def fetch_daily(server: str, day: str | None, player_key: str | None, tls: ssl.SSLContext | None = None,
                timeout: float = TIMEOUT) -> DailyAnswer | Problem:
    """The daily deal of ``day`` (None: today): its commitments, its seed once revealed, its board
    and, with the key, this player's place and scores; or the problem."""
    answer = ask_once(server, DailyRequest(day, player_key), tls, timeout)
    return answer if isinstance(answer, (DailyAnswer, Problem)) else Problem(UNREACHABLE, {})
