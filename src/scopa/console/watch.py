"""``scopa watch CODE``: a room's match heard as a spectator (issue 28).

The spectator has no seat and no hand: the server sends every public update without a view,
and this says each one as it comes, in the same words as at the table ("Ben plays the seven of
coins."), the score sheet after each deal, the chat of the table. Every line is one
announcement, printed and, when the voice is on, spoken. No prompt is printed while nothing is
pressed: a background thread reads the server and the news is said as it comes. A key pressed
shows ``Watching?``; there C opens ``Message?`` for a chat line (sent where the host lets
spectators chat, else refused in one line, "Not sent. Chat is not allowed here."), Enter says
the room, and Ctrl-C (or Q) ends watching.

What one change to the room says (a play and its capture, a deal's end and its score sheet) is
written at once, as at the table: the spectator asks for ``change_end`` (``mark_changes``) and
holds a change's lines until it comes, so a slow network never splits them into writes a screen
reader may read after the screen scrolled. A server from before it answers unknown_type (not
said), and then each message is said as it comes.
"""
from __future__ import annotations

import queue
import threading
import time
from typing import TYPE_CHECKING, Any

from ..narration import Announcement, Narrator
from .chat import chat_choice, chat_line, chat_text

if TYPE_CHECKING:
    from ..net.client.link import Link
    from ..net.protocol.wire import RoomInfo
    from .online import OnlineProgram, OnlineRequest

POLL = 0.02  # how often the spectator's loop looks for news or a key
_END = object()  # put on the news queue when watching is over: its exit code follows


def watch_room(program: OnlineProgram, request: OnlineRequest) -> int:
    """Watch until the match is won, the room closes or the connection ends; an exit code."""
    from ..net.client.client import TableClosed, open_watch
    from ..net.protocol.codes import normalise_code
    from .online import problem_line, server_address

    m = program.messages
    code = normalise_code(request.code)
    if code is None:
        program.say(problem_line("bad_code", {"code": request.code}, m))
        return 2
    server = server_address(request.server)
    program.say(m("online.connecting"))
    try:
        ws, welcome = open_watch(server, code, request.name, request.tls)
    except TableClosed as closed:
        program.say(problem_line(closed.problem.code, {"code": code, **closed.problem.values}, m, server))
        return 1
    with ws:
        spectator = Spectator(program, request, welcome.info, code, server)
        program.say(m("online.watching", code=code, names=", ".join(spectator.names)))
        if welcome.table:
            program.say(spectator.narrator.table_text(welcome.table))
        news: queue.Queue[Any] = queue.Queue()
        reader = threading.Thread(target=spectator.read_all, args=(ws, news), daemon=True, name="scopa-watch")
        reader.start()
        return spectator.run(ws, news)


def players_here(info: RoomInfo) -> bool:
    """Whether a person sits at the table connected and not covered (the match plays on)."""
    return any(s is not None and s.kind == "human" and s.connected and not s.covered for s in info.seats)


class Spectator:
    """What one spectator hears of the room, and the keys it may press (the chat's C)."""

    def __init__(self, program: OnlineProgram, request: OnlineRequest, info: RoomInfo, code: str,
                 server: str) -> None:
        from .terminal import Wake
        self.program, self.m, self.request, self.code, self.server = program, program.messages, request, code, server
        self.info, self.rules = info, info.rules
        self.names = [s.name if s is not None else self.m("seat.player", n=n + 1) for n, s in enumerate(info.seats)]
        self.narrator = self._narrator()
        self.wake = Wake()
        self.players_here = players_here(info)  # a person connected at the table: the match can go on

    def _narrator(self) -> Narrator:
        p = self.program
        return Narrator(self.names, self.rules, None, p.lang, p.naming, p.verbosity)

    # The reader thread ----------------------------------------------------------------------
    def read_all(self, ws: Link, news: queue.Queue[Any]) -> None:
        """Every frame, as the lines it says, onto ``news``, a change's lines together (one write:
        ``net.client.client.read_changes``); then ``_END`` and the exit code."""
        from ..net.client.client import read_changes
        from ..net.client.link import LinkClosed
        from ..net.protocol.client_messages import MarkChanges
        from ..net.protocol.server_messages import parse_server_message
        from ..net.protocol.wire import ProtocolError, encode
        code: int | None = None
        try:
            ws.send(encode(MarkChanges()))
            for messages in read_changes(ws, lambda raw: parse_server_message(raw, self.rules, spectator=True)):
                lines: list[str | Announcement] = []
                for message in messages:
                    said, code = self.lines(message)
                    lines += said
                    if code is not None:
                        break
                if lines:
                    news.put(lines)
                    self.wake.raise_()
                if code is not None:
                    break
        except (LinkClosed, ProtocolError):
            pass
        news.put(_END)
        news.put(code or 0)
        self.wake.raise_()

    def lines(self, message: object) -> tuple[list[str | Announcement], int | None]:
        """What one server message says, and the exit code when it ends watching (None: it goes on)."""
        from ..engine import DealScored, MatchWon
        from ..net.protocol.server_messages import ChatMessage, ErrorMessage, InfoMessage, UpdateMessage
        from ..table import Notice
        from .online import problem_line
        m = self.m
        if isinstance(message, InfoMessage):
            self.names[:] = [s.name if s is not None else self.names[n] for n, s in enumerate(message.info.seats)]
            self.narrator = self._narrator()
            here, self.players_here = self.players_here, players_here(message.info)
            if here and not self.players_here and message.info.phase == "playing":
                return [m("online.watch.players_gone")], None  # else minutes of silence, nobody playing
        elif isinstance(message, ChatMessage):
            own = message.watcher and message.name == self.request.name
            return [Announcement(m("chat.says.you", text=chat_text(message, m))) if own
                    else chat_line(message, m)], None
        elif isinstance(message, ErrorMessage):
            values = {"code": self.code, **dict(message.values)}
            return [problem_line(message.code, values, m, self.server)], 1 if message.fatal else None
        elif isinstance(message, UpdateMessage):
            event = message.update.event
            if isinstance(event, Notice):
                if event.kind == "watching" and event.name == self.request.name:
                    return [], None  # its own arrival: "Watching room ..." said it
                return [self.narrator.notice(event.kind, event.seat, event.name)], None
            if isinstance(event, DealScored):
                return [*self.narrator.score_lines(event.deal_number, event.score, event.match_scores,
                                                   event.deal_number in self.info.assisted_deals,
                                                   asked=True)], None  # no B here: the sheet whole
            if isinstance(event, MatchWon):
                return [self.narrator.match_result(event.side, event.match_scores)], 0
            return [*self.narrator.events([event])], None
        return [], None

    # The spectator's own thread: the news said, and the keys ------------------------------------
    def run(self, ws: Link, news: queue.Queue[Any]) -> int:
        """Say the news as it comes; a key pressed shows ``Watching?``. The exit code at the end."""
        from .terminal import Interrupted
        try:
            while True:
                ended = self._say_news(news)
                if ended is not None:
                    self.program.say(self.m("online.watch_end"))
                    return ended
                if self._pending():
                    self._key(ws)
                else:
                    time.sleep(POLL)
        except (Interrupted, KeyboardInterrupt):
            self.program.say(self.m("online.watch_end"))
            return 0

    def _say_news(self, news: queue.Queue[Any]) -> int | None:
        lines: list[str | Announcement] = []
        ended = None
        while True:
            try:
                item = news.get_nowait()
            except queue.Empty:
                break
            if item is _END:
                ended = news.get()
                break
            lines += item
        if lines:
            self.program.say(*lines)
        return ended

    def _pending(self) -> bool:
        pending = getattr(self.program.input, "pending", None)
        return bool(pending is not None and pending())

    def _key(self, ws: Link) -> None:
        """One key at ``Watching?`` (news ends the prompt: it is said, and the loop goes on)."""
        from .keys import command_of
        from .terminal import ENTER, ESCAPE, WOKEN, Interrupted
        token = self.program.input.read(self.m("prompt.watch") + " ", self.wake)
        if token == WOKEN:
            return
        if token.lower() in ("c", "chat"):
            self._chat(ws)
        elif token in ("q", ESCAPE) or command_of(token) == ("quit", ""):
            raise Interrupted
        elif token == ENTER:
            self.program.say(self.m("online.watching", code=self.code, names=", ".join(self.names)))

    def _chat(self, ws: Link) -> None:
        """``Message?``: a line, or a phrase's number from 1 to 10, sent to the table."""
        from ..net.client.link import LinkClosed
        from ..net.protocol.client_messages import ChatRequest
        from ..net.protocol.wire import encode
        from .terminal import ESCAPE
        text = self.program.input.read_text(self.m("prompt.chat") + " ")
        chosen = chat_choice("" if text == ESCAPE else text, self.m)
        if isinstance(chosen, Announcement):
            self.program.say(chosen)
            return
        kind, value = chosen
        request = ChatRequest(preset=value) if kind == "preset" else ChatRequest(text=value)
        try:
            ws.send(encode(request))
        except LinkClosed:
            self.program.say(self.m("chat.offline"))

