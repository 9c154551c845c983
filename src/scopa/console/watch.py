"""``scopa watch CODE``: a room's match heard as a spectator (issue 28).

The spectator has no seat and no hand: the server sends every public update without a view,
and this says each one as it comes, in the same words as at the table ("Ben plays the seven of
coins."), the score sheet after each deal, the chat of the table. Nothing is read from the
keyboard: Ctrl-C ends watching. Every line is one announcement, printed and, when the voice is
on, spoken.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..narration import Narrator
from .chat import chat_line

if TYPE_CHECKING:
    from .online import OnlineProgram, OnlineRequest


def watch_room(program: OnlineProgram, request: OnlineRequest) -> int:
    """Watch until the match is won, the room closes or the connection ends; an exit code."""
    from websockets.exceptions import WebSocketException
    from websockets.sync.client import connect

    from ..engine import DealScored, MatchWon
    from ..net.codes import normalise_code
    from ..net.messages import (
        MAX_RECORD_MESSAGE,
        ChatMessage,
        ErrorMessage,
        InfoMessage,
        ProtocolError,
        UpdateMessage,
        Watch,
        Watching,
        encode,
        parse_server_message,
    )
    from ..table import Notice
    from .online import problem_line, server_address

    m = program.messages
    code = normalise_code(request.code)
    if code is None:
        program.say(problem_line("bad_code", {"code": request.code}, m))
        return 2
    server = server_address(request.server)
    program.say(m("online.connecting"))
    try:
        ws = connect(server, open_timeout=5, max_size=MAX_RECORD_MESSAGE, close_timeout=1, ssl=request.tls)
    except (OSError, TimeoutError, WebSocketException):
        program.say(problem_line("unreachable", {}, m, server))
        return 1
    with ws:
        try:
            ws.send(encode(Watch(code, request.name)))
            welcome = parse_server_message(ws.recv(timeout=5))
        except (OSError, TimeoutError, WebSocketException, ProtocolError):
            program.say(problem_line("unreachable", {}, m, server))
            return 1
        if isinstance(welcome, ErrorMessage) or not isinstance(welcome, Watching):
            values = dict(welcome.values) if isinstance(welcome, ErrorMessage) else {}
            program.say(problem_line(welcome.code if isinstance(welcome, ErrorMessage) else "other",
                                     {"code": code, **values}, m, server))
            return 1
        info = welcome.info
        names = [s.name if s is not None else m("seat.player", n=n + 1) for n, s in enumerate(info.seats)]
        narrator = Narrator(names, info.rules, None, program.lang, program.naming, program.verbosity)
        program.say(m("online.watching", code=code, names=", ".join(names)))
        if welcome.table:
            program.say(narrator.table_text(welcome.table))
        rules = info.rules
        try:
            for raw in ws:
                message = parse_server_message(raw, rules, spectator=True)
                if isinstance(message, InfoMessage):
                    names[:] = [s.name if s is not None else names[n] for n, s in enumerate(message.info.seats)]
                    narrator = Narrator(names, rules, None, program.lang, program.naming, program.verbosity)
                elif isinstance(message, ChatMessage):
                    program.say(chat_line(message, m))
                elif isinstance(message, ErrorMessage) and message.fatal:
                    program.say(problem_line(message.code, {"code": code}, m, server))
                    return 1
                elif isinstance(message, UpdateMessage):
                    event = message.update.event
                    if isinstance(event, Notice):
                        program.say(narrator.notice(event.kind, event.seat, event.name))
                    elif isinstance(event, DealScored):
                        program.say(*narrator.score_lines(event.deal_number, event.score, event.match_scores,
                                                          event.deal_number in info.assisted_deals,
                                                          asked=True))  # no B here: the sheet whole
                    elif isinstance(event, MatchWon):
                        program.say(narrator.match_result(event.side, event.match_scores))
                        program.say(m("online.watch_end"))
                        return 0
                    else:
                        program.say(*narrator.events([event]))
        except (OSError, WebSocketException, ProtocolError):
            pass
    program.say(m("online.watch_end"))
    return 0
