"""The leaderboard of a room server, asked over one short connection (``scopa leaderboard``)."""
from __future__ import annotations

import ssl

from .client import UNREACHABLE, Problem, tls_problem
from .messages import (
    MAX_RECORD_MESSAGE,
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
    from websockets.exceptions import InvalidURI, WebSocketException
    from websockets.sync.client import connect
    context = tls if server.lower().startswith("wss:") else None
    try:
        with connect(server, open_timeout=timeout, max_size=MAX_RECORD_MESSAGE, close_timeout=1, ssl=context) as ws:
            ws.send(encode(LeaderboardRequest(top, player_key)))
            message = parse_server_message(ws.recv(timeout=timeout))
    except InvalidURI:
        return Problem("bad_server", {})
    except ssl.SSLError as error:
        return Problem(tls_problem(error), {})
    except (OSError, TimeoutError, WebSocketException, ProtocolError):
        return Problem(UNREACHABLE, {})
    if isinstance(message, ErrorMessage):
        return Problem(message.code, dict(message.values))
    if not isinstance(message, Leaderboard):
        return Problem(UNREACHABLE, {})
    return message
