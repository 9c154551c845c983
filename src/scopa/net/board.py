"""The leaderboard of a room server, and the day's daily deal, each asked over one short
connection (``scopa leaderboard``, ``scopa daily``)."""
from __future__ import annotations

import ssl

from .client import QUIET_LOG, UNREACHABLE, Problem, tls_problem
from .messages import (
    MAX_RECORD_MESSAGE,
    DailyAnswer,
    DailyRequest,
    ErrorMessage,
    Leaderboard,
    LeaderboardRequest,
    ProtocolError,
    encode,
    parse_server_message,
)

TIMEOUT = 10.0


def fetch_board(server: str, top: int, player_key: str | None, tls: ssl.SSLContext | None = None,
                timeout: float = TIMEOUT) -> Leaderboard | Problem:
    """The server's top ``top`` players and, with the key, this player's place; or the problem."""
    answer = _ask(server, LeaderboardRequest(top, player_key), tls, timeout)
    return answer if isinstance(answer, (Leaderboard, Problem)) else Problem(UNREACHABLE, {})


def fetch_daily(server: str, day: str | None, player_key: str | None, tls: ssl.SSLContext | None = None,
                timeout: float = TIMEOUT) -> DailyAnswer | Problem:
    """The daily deal of ``day`` (None: today): its commitments, its seed once revealed, its board
    and, with the key, this player's place and scores; or the problem."""
    answer = _ask(server, DailyRequest(day, player_key), tls, timeout)
    return answer if isinstance(answer, (DailyAnswer, Problem)) else Problem(UNREACHABLE, {})


def _ask(server: str, request: LeaderboardRequest | DailyRequest, tls: ssl.SSLContext | None,
         timeout: float) -> object:
    """One request's answer over a connection of its own, or the problem."""
    from websockets.exceptions import InvalidURI, WebSocketException
    from websockets.sync.client import connect
    context = tls if server.lower().startswith("wss:") else None
    try:
        with connect(server, open_timeout=timeout, max_size=MAX_RECORD_MESSAGE, close_timeout=1, ssl=context,
                     logger=QUIET_LOG) as ws:
            ws.send(encode(request))
            message = parse_server_message(ws.recv(timeout=timeout))
    except InvalidURI:
        return Problem("bad_server", {})
    except ssl.SSLError as error:
        return Problem(tls_problem(error), {})
    except (OSError, TimeoutError, WebSocketException, ProtocolError):
        return Problem(UNREACHABLE, {})
    if isinstance(message, ErrorMessage):
        return Problem(message.code, dict(message.values))
    return message
