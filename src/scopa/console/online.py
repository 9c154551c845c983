"""Online play at the console: the lobby, then this player's seat of the match, through a table.

The console holds only what the seat knows: the table (a ``RemoteTable``) gives the seat's
``PlayerView`` and the numbered public updates. The match itself is played by the same
``MatchConsole`` as a local match (``OnlineMatch`` adds what only online play needs), so the
keys, the narration and the prompts are the same.

News (an opponent's play, a player leaving) arrives while the player may be at a prompt: the
table raises the input's ``Wake``, the prompt ends on a line of its own, the news is printed
and spoken at once, and the prompt is asked again after it (never redrawn in place). When it is
another seat's turn the console still reads keys (a ``Waiting?`` prompt), so T, H, L, S, R and
the rest work all the time; each piece of news is one announcement, so R repeats it.

A match played to its end is logged in the player's results, from this seat, with what it
earned said after the result line (``record.console.log_online``).
"""
from __future__ import annotations

import os
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal, Protocol

from ..engine import Event, MatchWon, PlayerView
from ..narration import Announcement, Messages, Narrator, spoken_command
from ..narration.narrator import notice_words, watching_together
from ..table import Notice, SeatUpdate, own_arrival
from .announcer import Announcer
from .chat import Chat, Urgent
from .game import MatchConsole, Services
from .game import Outcome as MatchOutcome
from .keys import command_of
from .terminal import ENTER, ESCAPE, RESUMED, WOKEN, Input, InputClosed, Interrupted, Output, Wake

if TYPE_CHECKING:
    from ..config import Settings
    from ..engine import Rules
    from ..narration import Naming, Verbosity
    from ..net.client.client import RemoteTable
    from ..net.protocol.wire import RoomInfo
    from ..speech import Speaker
    from ..storage.seat_keys import SeatKey, SeatKeyStore
    from ..table import TableInfo
    from ..table.persistence import Persistence


class OnlineProgram(Protocol):
    """What online play asks of the program (``console.app.Program`` is one). Named here because
    the program imports this module; ``record.console.log_online`` asks some of it too."""

    narrator: Narrator | None

    @property
    def input(self) -> Input: ...
    @property
    def output(self) -> Output: ...
    @property
    def announcer(self) -> Announcer: ...
    @property
    def speaker(self) -> Speaker: ...
    @property
    def persistence(self) -> Persistence: ...
    settings: Settings
    @property
    def messages(self) -> Messages: ...
    @property
    def lang(self) -> str: ...
    @property
    def naming(self) -> Naming: ...
    @property
    def verbosity(self) -> Verbosity: ...
    @property
    def rules_reader(self) -> Callable[[], None] | None: ...

    def m(self, key: str, **params: object) -> str: ...
    def say(self, *lines: str | Announcement) -> None: ...
    def settings_menu(self) -> None: ...
    def toggle_voice(self) -> str: ...
    def cycle_profile(self) -> str: ...
    def start_voice(self) -> None: ...
    def voice_is_on(self) -> bool: ...
    def remember_server(self, server: str) -> None: ...
    def share_source(self, commitment: bytes) -> bytes | None: ...
    def table_opened(self, table: RemoteTable) -> None: ...
    def _save_settings(self, quiet: bool = False) -> None: ...
    def _ask_players(self) -> int | None: ...
    def _ask_game(self, players: int) -> Rules | None: ...
    def _ask_target(self, rules: Rules) -> Rules | None: ...

if TYPE_CHECKING:
    import ssl

Outcome = Literal["finished", "left", "closed"]
WAIT_AFTER_REQUEST = 3.0  # seconds to wait for the server to answer ready or start before asking again
# Seconds of another seat's turn before "Waiting?" is printed: a computer's play comes sooner.
# SCOPA_WAITING_DELAY sets another (the tests make it long, so that no prompt depends on timing).
def _waiting_delay(default: float = 2.0) -> float:
    try:
        value = float(os.environ.get("SCOPA_WAITING_DELAY", "") or default)
    except ValueError:
        return default
    return value if 0 <= value < 3600 else default


WAITING_DELAY = _waiting_delay()
WAITING_POLL = 0.02  # how often the quiet wait looks for news or a key
PLAYED_FOR_WAIT = 1.0  # seconds to wait, after "Time." heard at Message?, for the card played for the seat


class LeaveRoom(Exception):
    """The player chose to leave; the seat stays theirs on the server."""


FORGET_SEAT = frozenset({"wrong_key", "unknown_room", "room_closed"})  # problems after which the seat key is useless


class TurnTaken(Exception):
    """The turn being chosen is over: the turn timer played a card for the seat."""


class RoomGone(Exception):
    """The table cannot go on (the room closed, the key was refused, the server did not come
    back): ``line`` says why; ``keep_seat``: the seat key still takes the seat back later."""

    def __init__(self, line: Announcement, keep_seat: bool = False) -> None:
        super().__init__(line.text)
        self.line = line
        self.keep_seat = keep_seat


def spelt(code: str) -> str:
    """A room code one character at a time, for the ear: "K, 7, M, Q, 3, T"."""
    return ", ".join(code)


def room_code_line(code: str, messages: Messages) -> Announcement:
    """"Room code K7MQ3T. K, 7, M, Q, 3, T." on screen; the voice says only the spelt code."""
    return Announcement(messages("online.room_code", code=code, spelt=spelt(code)),
                        spoken=messages("online.room_code.spoken", spelt=spelt(code)))


def problem_line(code: str, values: dict[str, Any], messages: Messages, server: str = "") -> Announcement:
    """One clear line for a refusal of the server (``net.protocol.wire.ERROR_CODES``) or a connection problem.

    A line that prints the server's address says only its host aloud ("Cannot reach the server at
    localhost."): a voice reads "ws://" and the port one character at a time."""
    key = f"online.error.{code}"
    if code in ("cannot_start", "chat_refused"):
        key = f"online.error.{code}.{values.get('reason', 'players' if code == 'cannot_start' else 'other')}"
    elif code == "bad_name" and messages.has(f"{key}.{values.get('reason')}"):
        key = f"{key}.{values['reason']}"
    elif code == "too_many_tries" and messages.has(f"{key}.{values.get('limit')}"):  # rooms made, questions
        key = f"{key}.{values['limit']}"
    try:
        text = messages(key, server=server, command=spoken_command(),
                        **{k: v for k, v in values.items() if k in ("seconds", "code")})
    except KeyError:
        return Announcement(messages("online.error.other"))
    return Announcement(text, spoken=spoken_form(messages, key, server))


def spoken_form(messages: Messages, key: str, server: str) -> str | None:
    """What the voice says for ``key``, a line that prints a server address: ``key.spoken.host``
    with the address's host when it has a plain one and the catalogue has that form, otherwise
    ``key.spoken``; None (say the text) when ``key`` has no spoken form."""
    if not messages.has(f"{key}.spoken"):
        return None
    host = spoken_host(server)
    if host and messages.has(f"{key}.spoken.host"):
        return messages(f"{key}.spoken.host", host=host)
    return messages(f"{key}.spoken")


def spoken_host(server: str) -> str:
    """The host of a server address, as a voice can say it ("ws://localhost:8765" -> "localhost");
    empty when there is none, or it is an IPv6 address full of colons."""
    from urllib.parse import urlsplit
    try:
        host = urlsplit(server.strip()).hostname or ""
    except ValueError:
        return ""
    return host if host and all(c.isascii() and (c.isalnum() or c in ".-") for c in host) else ""


class News:
    """What the table has that this console has not said: the connection, refusals, updates."""

    def __init__(self, table: RemoteTable, messages: Messages, server: str, chat: Chat | None = None) -> None:
        self.table, self.m, self.server = table, messages, server
        self.chat = chat if chat is not None else Chat(table, messages, lambda: True, lambda on: None)
        self._connected = True
        self.programs_said: set[str] = set()  # the names said to be programs' (``program_lines``)

    def check(self) -> None:
        """``RoomGone`` when the table cannot go on."""
        problem = self.table.problem
        if problem is not None:
            values = {"code": self.table.code, **problem.values}
            raise RoomGone(problem_line(problem.code, values, self.m, self.server), problem.code not in FORGET_SEAT)

    def lines(self) -> list[Announcement]:
        """The connection lost (or the server restarting) or back, and the server's refusals since
        last asked. A restart is said once, when its connection drops: the tries that follow are silent."""
        self.check()
        lines: list[Announcement] = []
        if self.table.connected != self._connected:
            self._connected = self.table.connected
            lost = "online.restarting" if getattr(self.table, "restarting", False) else "online.lost"
            lines.append(Announcement(self.m("online.back" if self._connected else lost)))
        room_of = getattr(self.table, "room", None)  # a table of the room (a spectator's has none)
        room = None if room_of is None else room_of()
        if room is not None and room.phase != "lobby":  # in the lobby, said after the seat's arrival (``Lobby``)
            lines += [Announcement(line) for line in program_lines(room, self.table.seat, self.programs_said, self.m)]
        lines += self.warnings()
        lines += self.chat.lines()
        return lines + [problem_line(e.code, dict(e.values), self.m) for e in self.table.take_errors()]

    def warnings(self) -> list[Announcement]:
        """The turn timer's warnings to this seat since last asked ("Ten seconds.")."""
        take = getattr(self.table, "take_warnings", None)
        return [Announcement(self.m(f"clock.warning.{warning.seconds}"))
                for warning in (take() if take is not None else [])  # said to the seat to move only
                if warning.seat == self.table.seat and warning.seconds in (10, 5)]


def notice_line(notice: Notice, messages: Messages, name: str, you: int | None = None) -> str:
    return notice_words(messages, notice.kind, notice.seat, notice.name or name, you)


def program_lines(room: RoomInfo, you: int | None, said: set[str], messages: Messages) -> list[str]:
    """"Bip is a program." for each seat the room's info shows played by a program, not said yet
    (``said``, their names, updated): everyone at the table hears it once, as the seat arrives or,
    for a seat taken before this player came, as soon as the server has told it (the welcome comes
    before the client asks for the feature: docs/protocol.md, Programs at the table)."""
    lines = []
    for seat, taken in enumerate(room.seats):
        if taken is not None and taken.program and seat != you and taken.name not in said:
            said.add(taken.name)
            lines.append(messages("notice.program", name=taken.name))
    return lines


def seat_moved_line(notice: Notice, room: RoomInfo, you: int, messages: Messages) -> str:
    """Who the host moved and where, name first: "Ben moves to seat 3, partner of Ann." In a
    four-player room the partner is said (the seat across), "your partner" when it is you; "You
    move to seat 3." when it is you. Read with the room as it is after the move."""
    seat = notice.seat
    who = "you" if seat == you else "named"
    partner = (seat + 2) % 4 if room.rules.players == 4 and room.rules.sides == 2 else None
    across = None if partner is None else room.seats[partner]
    if across is None or partner is None:
        return messages(f"notice.seat_moved.{who}", name=notice.name, seat=seat + 1)
    if partner == you:
        return messages("notice.seat_moved.your_partner", name=notice.name, seat=seat + 1)
    return messages(f"notice.seat_moved.{who}.partner", name=notice.name, seat=seat + 1, partner=across.name)


class Lobby:
    """Before the match: who sits where, ``Ready?`` for a joining player, ``Start?`` for the host."""

    def __init__(self, table: RemoteTable, input: Input, announcer: Announcer, messages: Messages,  # noqa: A002
                 wake: Wake, news: News, quick: bool = False) -> None:
        self.table, self.input, self.announcer, self.m, self.wake, self.news = (
            table, input, announcer, messages, wake, news)
        self.quick = quick  # a quick match: the server starts it, nobody is asked ready or start
        self.after = table.latest()
        self.keep_seat: Callable[[int], None] = lambda seat: None  # the seat key kept for the new seat
        self._kept_seat = table.seat
        self.started = False  # the match has started: its first deal is on its way, no prompt before it

    @property
    def seat(self) -> int:
        """This player's seat: the table's, which the host may have moved (``net.protocol.server_messages.Moved``)."""
        return self.table.seat

    def say(self, *items: Announcement | str) -> None:
        if items:
            self.announcer.say(list(items))

    def run(self) -> int:
        """Until the match has started and this seat has its view: the number of the last update said."""
        if self.table.room().phase != "lobby" and self.table.has_view():
            oldest: int = self.table.oldest()  # a seat taken back mid-match: the match console tells what it missed
            return oldest
        while True:
            with self.announcer.output.held():  # the news and the prompt after it in one write
                self._say_news()
                room = self.table.room()
                if (room.phase != "lobby" or self.started) and self._view_arrived():
                    return self.after
                self._prompt(room)

    def _view_arrived(self) -> bool:
        """Wait a little for the seat's first view once the match has started, so no lobby prompt
        is asked (and heard) between "The match starts." and the deal; False if it is late."""
        deadline = time.monotonic() + WAIT_AFTER_REQUEST
        while not self.table.has_view():
            if time.monotonic() > deadline:
                return False
            time.sleep(0.02)
        return True

    def _say_news(self) -> None:
        """Notices up to the first game event (the match console says that and what follows)."""
        lines: list[Announcement | str] = [*self.news.lines()]
        if self.table.seat != self._kept_seat:  # moved by the host: the key now takes back the new seat
            self._kept_seat = self.table.seat
            self.keep_seat(self.table.seat)
        found = self.table.updates(self.seat, self.after)
        notices = [u.event for u in found if isinstance(u.event, Notice)] if isinstance(found, list) else []
        together, _ = watching_together(self.m, [(n.kind, n.name) for n in notices])
        for update in found if isinstance(found, list) else []:
            if not isinstance(update.event, Notice):
                break
            if together is not None and update.event.kind == "watching":  # the spectators together, once
                if together:
                    lines.append(together)
                together = ""
                self.after = update.number
                continue
            self.started = self.started or update.event.kind == "started"
            if update.event.kind == "started" and (timer := timer_line(self.table.room(), self.m)):
                lines += [notice_line(update.event, self.m, self._name(update.event.seat), self.seat), timer]
            elif update.event.kind == "seat_moved":
                lines.append(seat_moved_line(update.event, self.table.room(), self.seat, self.m))
            elif not own_arrival(update.event, self.seat):  # "You are in room" said it
                lines.append(notice_line(update.event, self.m, self._name(update.event.seat), self.seat))
                if update.event.kind == "joined":  # "Bip joined the table. Bip is a program."
                    lines += program_lines(self.table.room(), self.seat, self.news.programs_said, self.m)
                if self.quick and update.event.kind in ("joined", "left"):
                    lines.append(waiting_line(self.table.room(), self.m))
            self.after = update.number
        lines += program_lines(self.table.room(), self.seat, self.news.programs_said, self.m)  # there before us
        self.say(*lines)

    def _name(self, seat: int) -> str:
        taken = self.table.room().seats[seat]
        return taken.name if taken is not None else self.m("seat.player", n=seat + 1)

    def _prompt(self, room: RoomInfo) -> None:
        me = room.seats[self.seat]
        if room.phase != "lobby" or self.quick:
            prompt, action = "prompt.wait", None  # started: the view is on its way; quick: the server starts it
        elif room.host == self.seat:
            prompt, action = ("prompt.start", self.table.start) if can_start(room) else ("prompt.wait", None)
        elif me is not None and not me.ready:
            prompt, action = "prompt.ready", self.table.ready
        else:
            prompt, action = "prompt.wait", None
        try:
            token = self.input.read(self.m(prompt) + " ", self.wake)
        except Interrupted:
            raise LeaveRoom from None
        if token == WOKEN:
            return
        if token == ENTER and action is not None:
            action()
            self._wait_answer()
        elif token == ENTER:
            self.say(*self.status())
        elif self.quick and token == ESCAPE:
            raise LeaveRoom  # nothing is lost: the quick match has not started
        elif token in ("q", ESCAPE) or command_of(token) == ("quit", ""):
            self._ask_leave()
        elif command_of(token) == ("repeat", ""):
            self.announcer.repeat()
        elif (change := seat_command(token, len(room.seats))) is not None:
            self._as_host(room, lambda: self.table.set_seat(*change))
        elif (moving := move_command(token, len(room.seats))) is not None:
            self._as_host(room, lambda: self._move(room, moving))
        elif (allowed := watchers_command(token)) is not None:
            self._as_host(room, lambda: self.table.set_watchers_chat(allowed))
        elif command_of(token) == ("last", ""):
            self.say(*(self.news.chat.recent() or [Announcement(self.m("chat.none"))]))
        elif (said := self.news.chat.command(token, self.input, lambda lines: self.say(*lines))) is not None:
            self.say(*said)
        else:
            self.say(*self.status())

    def _wait_answer(self) -> None:
        """Wait for what answers ready or start (up to ``WAIT_AFTER_REQUEST``). This seat's own
        "joined" notice, late on a slow network, is no answer: the prompt would be asked again."""
        deadline, after = time.monotonic() + WAIT_AFTER_REQUEST, self.after
        while (left := deadline - time.monotonic()) > 0:
            found = self.table.wait(self.seat, after, timeout=left)
            if not isinstance(found, list) or not found:
                return  # a resync, or nothing in time
            if not all(own_arrival(update.event, self.seat) for update in found):
                return
            after = found[-1].number

    def _as_host(self, room: RoomInfo, action: Callable[[], object]) -> None:
        """A host's command: done, and its notice waited for a moment; anyone else hears why not."""
        if room.host != self.seat:
            self.say(problem_line("not_host", {}, self.m))
            return
        if action() is not False:
            self.table.wait(self.seat, self.after, timeout=1.0)

    def _move(self, room: RoomInfo, typed: tuple[int, int] | tuple[()]) -> bool:
        """Move a player: the seats typed (``:move 2 3``), or asked in two menus (whom, then where);
        Escape in either leaves everyone where they are. Whether a move was sent."""
        if typed and room.seats[typed[0]] is None:
            self.say(self.m("online.move.nobody", seat=typed[0] + 1))
            return False
        if typed:
            return self.table.move_seat(*typed)
        from .menus import choose
        taken = [seat for seat, s in enumerate(room.seats) if s is not None]
        lines = self.seat_lines(room)
        whom = choose(self.input, self.announcer, self.m("online.move.whom"), [lines[s] for s in taken],
                      self.m("prompt.menu"), messages=self.m)
        if whom is None:
            self.say(self.m("online.move.cancelled"))
            return False
        places = [seat for seat in range(len(room.seats)) if seat != taken[whom]]
        where = choose(self.input, self.announcer, self.m("online.move.where", name=self._name(taken[whom])),
                       [lines[s] for s in places], self.m("prompt.menu"), messages=self.m)
        if where is None:
            self.say(self.m("online.move.cancelled"))
            return False
        return self.table.move_seat(taken[whom], places[where])

    def _ask_leave(self) -> None:
        """Leave on Enter, as in the match; anything else stays in the lobby. News that comes while
        the question is open is said, and the question asked again: it is not dropped, leaving the
        player at ``Ready?``, where the Enter meant for "leave" would say ready."""
        self.say(self.m("online.leave_ask", code=self.table.code, command=spoken_command()))
        while True:
            try:
                token = self.input.read(self.m("prompt.leave") + " ", self.wake)
            except Interrupted:
                raise LeaveRoom from None
            if token != WOKEN:
                break
            self._say_news()
        if token == ENTER or token.lower() in {"y", "yes", "s", "si"}:
            raise LeaveRoom
        self.say(self.m("quit.cancelled"))

    def status(self) -> list[str]:
        """One line a seat, then what the host can do."""
        room = self.table.room()
        if self.quick and room.phase == "lobby":
            return [waiting_line(room, self.m), quick_leave_line(self.table, self.m)]
        lines = self.seat_lines(room)
        if (timer := timer_line(room, self.m)) is not None:
            lines.append(timer)
        if room.watchers_chat:
            lines.append(self.m("online.lobby.watchers_chat"))
        if room.join_between_deals:
            lines.append(self.m("online.lobby.join_between_deals"))
        if room.phase == "lobby" and None in room.seats:
            lines.append(self.m("online.lobby.level", level=self.m(f"level.{room.level}")))
        if room.host == self.seat and room.phase == "lobby":
            lines.append(self.m("online.lobby.can_start" if can_start(room) else "online.lobby.wait_players"))
        return lines

    def seat_lines(self, room: RoomInfo) -> list[str]:
        """One line a seat, from seat 1: who sits there and how ready, or that it is free."""
        lines = []
        for seat, taken in enumerate(room.seats):
            if taken is None:
                lines.append(self.m("online.lobby.free", seat=seat + 1))
            elif taken.kind == "computer":
                lines.append(self.m("online.lobby.computer", seat=seat + 1, name=taken.name,
                                    level=self.m(f"level.{taken.level}")))
            else:
                state = "host" if seat == room.host else ("ready" if taken.ready else "not_ready")
                kind = "program." if taken.program else ""  # "Seat 2, Bip, a program, ready."
                lines.append(self.m(f"online.lobby.{kind}{state}", seat=seat + 1, name=taken.name))
        return lines


class OnlineMatch(MatchConsole):
    """The match console for one online seat: news at any prompt, ``Waiting?`` between own turns,
    only the host deals, Q leaves the room (the server keeps the match and the seat)."""

    # no save, export, import; the chat's keys
    HELP_KEYS = ("help.1", "help.2", "help.3", "help.online.4", "help.online.5", "help.online.6", "help.online.7")

    def __init__(self, table: RemoteTable, services: Services, seen: int, wake: Wake, news: News) -> None:
        super().__init__(table, services, seen)
        self.remote = table  # the table, with what only an online one has (the room, its code)
        self.wake, self.news = wake, news
        # the seat's own turn timer, which ends Message? even while a line is typed (console.chat)
        self.urgent = Urgent(Wake(), self._say_urgent)
        if hasattr(table, "urgent"):
            table.urgent = self.urgent.wake
        self._choosing: tuple[int, int] | None = None  # the turn (deal, plays) being chosen, if any
        self.keep_place: Callable[[int], None] = lambda number: None  # the number after each own move, kept
        self.rejoined = False  # the seat was taken back: "Back at the table." leads what it missed
        self._result_told = False  # the match's result was said, from the update that ended it

    def _narrate(self, updates: Sequence[SeatUpdate], own_move: bool = False) -> None:
        updates = self._seats_taken(updates)
        if self.rejoined and updates and not self.deal_over:
            self.rejoined = False
            self.say(self.m("online.caught_up", deal=self.view.deal_number))
            super()._narrate(updates, own_move)
            if not self.deal_over:  # after the plays missed, the table as it is now
                self._table_heard = self.view.table
                self.say(Announcement(self.io.narrator.table_text(self.view.table)))
            return
        super()._narrate(updates, own_move)

    def _seats_taken(self, updates: Sequence[SeatUpdate]) -> Sequence[SeatUpdate]:
        """A person who took a computer's seat between deals (``join_between_deals``): said as
        "Dan takes Felix's seat.", and the seat is Dan's in every line from now on."""
        taken = [u for u in updates if isinstance(u.event, Notice) and u.event.kind == "joined"
                 and u.event.seat != self.listener and self.io.narrator.seat_names[u.event.seat] != u.event.name]
        if not taken:
            return updates
        for update in taken:
            assert isinstance(update.event, Notice)
            seat = update.event.seat
            self.say(self.m("notice.took_seat", name=update.event.name, old=self.io.narrator.seat_names[seat]))
            names = list(self.io.narrator.seat_names)
            names[seat] = update.event.name
            self.io.narrator.seat_names = tuple(names)
        self.info = self.table.info()
        return [u for u in updates if u not in taken]

    def _human_turn(self, seat: int) -> None:
        super()._human_turn(seat)
        self.keep_place(self.number)

    def read(self, prompt_key: str) -> str:
        while True:
            if self._choosing is not None and self._choosing != self._turn_key():
                self._say_news()  # what waited (a chat line typed as the time ran out, its echo)
                forget = getattr(self.io.input, "forget_unfinished", None)
                if forget is not None:  # a word typed at Card? as the time ran out is not the next turn's
                    forget()
                raise TurnTaken  # the turn timer played for this seat: no prompt of a turn gone
            token = self._read_or_news(prompt_key)
            if token == RESUMED:
                self._say_where()
            elif token != WOKEN:
                return token
            else:
                self._say_news()

    def _turn_key(self) -> tuple[int, int]:
        return self.view.deal_number, len(self.view.history)

    def _read_or_news(self, prompt_key: str) -> str:
        while True:
            try:
                token = self.io.input.read(self.m(prompt_key) + " ", self.wake, self.urgent.wake)
            except Interrupted:
                self._ask_quit()
                continue
            if token != WOKEN:
                self._back_if_away()
            return token

    def _back_if_away(self) -> None:
        """A key pressed by a player the turn timer took as away (covered while connected): back."""
        me = self.remote.room().seats[self.listener]
        if me is not None and me.covered and self.remote.connected:
            self.remote.back()

    def _say_news(self) -> None:
        self.urgent.wake.take()  # what raised it (the seat's turn timer) is said now, with the rest
        lines = self.news.lines()
        if lines:
            self.say(*lines)
        self._narrate(self._take(self.table.updates(self.listener, self.number)))

    def _say_urgent(self) -> None:
        """At ``Message?``, cut short by the seat's own turn timer: the plays since the last news (so
        a warning on a turn that came while typing makes sense), then the warning; or "Time. A card
        is played for you." and that card. Chat and the rest wait for the line, as before. Said as
        news, not as the answer to C: R repeats it."""
        with self.io.announcer.news():
            updates = self._take(self.table.updates(self.listener, self.number))
            last = updates[-1].event if updates else None
            if isinstance(last, Notice) and last.kind == "timed_out" and last.seat == self.listener:
                updates += self._take(self.remote.wait(self.listener, self.number, timeout=PLAYED_FOR_WAIT))
            self._narrate(updates)
            self.say(*self.news.warnings())

    def _step(self) -> None:
        if (self.deal_over and self.remote.room().host == self.listener) or (
                not self.deal_over and self.view.to_move in self.here):
            self._choosing = None if self.deal_over else self._turn_key()
            try:
                super()._step()
            except TurnTaken:
                pass  # said already: the card played for the seat, and what follows
            finally:
                self._choosing = None
        else:
            self._waiting()

    def _waiting(self) -> None:
        """Another seat's turn (or the host's next deal): keys work until news ends the prompt.

        ``Waiting?`` is printed only once the wait has lasted ``WAITING_DELAY``, or as soon as a
        key is pressed: news that comes sooner (a computer's play, about 0.3 s after yours) is
        said with no prompt before it, so the prompt is not printed and read after every play."""
        if self._quiet_wait():
            return
        token = self._read_or_news("prompt.wait")
        if token == WOKEN:
            self._say_news()
        elif token == RESUMED:
            self._say_where()
        elif token == ENTER:
            self.say(self._waiting_for())
        elif not self._command(token):
            self.say(self.m("error.unknown"))

    def _quiet_wait(self) -> bool:
        """Wait up to ``WAITING_DELAY`` for news, printing nothing; True when news came and was said.

        A key pressed meanwhile ends the wait at once (the prompt then reads it), so no key waits
        for the delay; an input that cannot tell (a script, a test's pipe) waits in full."""
        pending = getattr(self.io.input, "pending", None)
        deadline = time.monotonic() + WAITING_DELAY
        while True:
            if self.wake.take():
                self._say_news()
                return True
            if pending is not None and pending():
                return False
            if time.monotonic() >= deadline:
                return False
            time.sleep(WAITING_POLL)

    def _waiting_for(self) -> str:
        room = self.remote.room()
        seat = room.host if self.deal_over else self.view.to_move
        name = self.info.seats[seat].name
        return self.m("online.waiting_next" if self.deal_over else "online.waiting_for", name=name)

    def _say_position(self) -> None:
        """Taking the seat back mid-match: the deal, the plays since this seat's last one, the table."""
        if self.deal_over:
            return
        self.rejoined = False
        lines = [Announcement(self.m("online.caught_up", deal=self.view.deal_number))]
        history = self.view.history  # too much was missed to replay: this deal's plays since the seat's last
        last = max((i for i, play in enumerate(history) if play.seat == self.view.seat), default=-1)
        if last + 1 < len(history):
            lines += self.io.narrator.last_plays(history[last + 1:], len(history) - last - 1)
        lines.append(Announcement(self.io.narrator.table_text(self.view.table)))
        self._table_heard = self.view.table
        self.say_lines(lines)

    def run(self) -> MatchOutcome:
        """The match as the base console plays it; then, if its end came in a fresh view (a
        resync, when more was missed than the server replays) instead of the updates that say it,
        the last deal's score sheet and the result: else a player back after the end, or whose
        connection dropped as it ended, heard nothing of how the match ended."""
        outcome = super().run()
        if outcome == "finished" and not self._result_told:
            with self.io.output.held():
                self._say_result()
        return outcome

    def _narrate_events(self, events: list[Event], view: PlayerView, own_move: bool = False,
                        for_you: bool = False) -> None:
        self._result_told = self._result_told or any(isinstance(event, MatchWon) for event in events)
        super()._narrate_events(events, view, own_move, for_you)

    def _say_result(self) -> None:
        """The last deal's score sheet, as news of a deal's end says it, then the match's result."""
        scored = self.table.last_score()
        lines: list[Announcement] = []
        if scored is not None:
            lines += self._score_sheet(scored, whole=self.io.narrator.news.score)
        lines.append(Announcement(self.io.narrator.match_result(self.view.winner, self.view.match_scores)))
        self.say_lines(lines)

    def _command(self, token: str, allow_private: bool = True) -> bool:
        command = command_of(token)
        if command is not None and command[0] in ("save", "export", "import"):
            self.say(self.m("online.not_here"))
            return True
        if token == "m":  # more time: the notice that follows says it to everyone, this seat too
            after = self.remote.latest()
            if self.remote.more_time():
                self.remote.wait(self.listener, after, timeout=1.0)  # a refusal is no update: not long
            self._say_news()  # the notice, or why not
            return True
        with self.io.announcer.aside():
            said = self.news.chat.command(token, self.io.input, self.say_lines, self.urgent)
        if said is not None:
            if said:
                with self.io.announcer.aside():
                    self.say_lines(said)
            return True
        done = super()._command(token, allow_private)
        if command == ("last", ""):
            with self.io.announcer.aside():
                self.say_lines(self.news.chat.recent())  # L brings chat back too
        return done

    def _ask_quit(self) -> None:
        """Leave on Enter (or a second Ctrl-C); the seat stays, and ``scopa join CODE`` takes it back."""
        self.say(self.m("online.leave_ask", code=self.remote.code, command=spoken_command()))
        try:
            token = self.io.input.read(self.m("prompt.leave") + " ")
        except (Interrupted, KeyboardInterrupt):
            raise LeaveRoom from None
        if token == ENTER or token.lower() in {"y", "yes", "s", "si"}:
            raise LeaveRoom
        self.say(self.m("quit.cancelled"))


def quick_leave_line(table: RemoteTable, m: Messages) -> str:
    """What a quick match waits for, and when computers come: "If nobody comes within 20 seconds,
    computers take the free seats. Escape leaves." (a server that does not say its wait: "soon")."""
    wait = getattr(table, "quick_wait", None)
    return m("online.quick.leave") if wait is None else m("online.quick.leave.seconds", seconds=wait)


def computer_lines(info: TableInfo, m: Messages) -> list[str]:
    """One line a computer at the table, after who plays against whom: "You against Luca." alone
    never said that Luca was a computer (issue 38)."""
    return [m("online.computer_seat", name=seat.name, level=m(f"level.{seat.level or 'easy'}"))
            for seat in info.seats if seat.kind == "computer"]


def timer_line(room: RoomInfo, m: Messages) -> str | None:
    """"Turn timer, 20 seconds." for a room with a turn timer (said at join and at the start, so
    that "Ten seconds." is never the first a player hears of it); None without one."""
    return None if room.turn_time is None else m("online.turn_timer", seconds=room.turn_time)


def waiting_line(room: RoomInfo, m: Messages) -> str:
    """How many are waiting in a quick match: "Quick match: 2 of 4 players here."."""
    here = sum(1 for s in room.seats if s is not None)
    return m("online.quick.waiting", here=here, players=len(room.seats))
SEAT_WORDS = {"open": "open", "libera": "open", "computer": "easy"}


def seat_command(token: str, seats: int) -> tuple[int, str] | None:
    """The host's lobby commands: ``open 3`` (``libera 3``) frees a computer's seat for a person,
    ``computer 3`` (or ``computer 3 medium``) gives a free seat to a computer; seats counted from 1."""
    from ..net.protocol.wire import LEVELS
    words = token.lower().split()
    if len(words) not in (2, 3) or words[0] not in SEAT_WORDS or not words[1].isdigit():
        return None
    seat = int(words[1]) - 1
    kind = SEAT_WORDS[words[0]]
    if len(words) == 3:
        if kind == "open" or words[2] not in LEVELS:
            return None
        kind = words[2]
    return (seat, kind) if 0 <= seat < seats else None


MOVE_WORDS = ("move", "sposta")
WATCHERS_WORDS = {"spectators chat on": True, "spectators chat off": False, "spettatori chat sì": True,
                  "spettatori chat si": True, "spettatori chat no": False}


def move_command(token: str, seats: int) -> tuple[int, int] | tuple[()] | None:
    """The host's ``move`` (``sposta``): () to choose in menus, or ``move 2 3`` (seats from 1) to
    move whoever sits in seat 2 to seat 3 at once; None: not this command (or seats out of range)."""
    words = token.lower().split()
    if not words or words[0] not in MOVE_WORDS:
        return None
    if len(words) == 1:
        return ()
    if len(words) != 3 or not all(word.isascii() and word.isdigit() for word in words[1:]):
        return None
    from_seat, to_seat = int(words[1]) - 1, int(words[2]) - 1
    return (from_seat, to_seat) if from_seat != to_seat and 0 <= from_seat < seats and 0 <= to_seat < seats else None


def watchers_command(token: str) -> bool | None:
    """The host's ``spectators chat on`` or ``off`` (``spettatori chat sì``, ``no``); None: not it."""
    return WATCHERS_WORDS.get(" ".join(token.lower().split()))


def can_start(room: RoomInfo) -> bool:
    """At least two humans seated, and every one but the host ready (the server checks again)."""
    humans = [(seat, s) for seat, s in enumerate(room.seats) if s is not None and s.kind == "human"]
    return len(humans) >= 2 and all(s.ready for seat, s in humans if seat != room.host)


def run_room(program: OnlineProgram, table: RemoteTable, wake: Wake, server: str,
             opening: Sequence[Announcement | str], keep_place: Callable[[int], None] = lambda number: None,
             rejoined: bool = False, quick: bool = False,
             keep_seat: Callable[[int], None] = lambda seat: None) -> Outcome:
    """The lobby, then the match, for the seat of ``table``; how it ended."""
    m = program.messages

    def chat_setting(on: bool) -> None:
        program.settings = program.settings.with_changes(chat=on)
        program._save_settings(quiet=True)

    news = News(table, m, server, Chat(table, m, lambda: program.settings.chat, chat_setting))
    program.say(*opening)
    try:
        lobby = Lobby(table, program.input, program.announcer, m, wake, news, quick)
        lobby.keep_seat = keep_seat
        seen = lobby.run()
        info = table.info()
        narrator = Narrator([s.name for s in info.seats], info.rules, table.seat, program.lang, program.naming,
                            program.verbosity, program.settings.news)
        if lobby.started:  # heard "The match starts.": who sits where, partners together, as a local match says
            program.say(narrator.players_line(), *computer_lines(info, m))  # "Felix is a computer, level easy."
        program.narrator = narrator  # the settings menu updates it in place
        program.announcer.speak_hands = False
        services = Services(program.input, program.output, program.announcer, narrator,
                            settings_menu=program.settings_menu, rules_reader=program.rules_reader,
                            toggle_voice=program.toggle_voice, suggest=narrator.suggestion,
                            hand_warning_needed=program.voice_is_on, cycle_profile=program.cycle_profile)
        match = OnlineMatch(table, services, seen, wake, news)
        match.keep_place, match.rejoined = keep_place, rejoined
        outcome = match.run()
        if outcome != "finished":
            return "left"
        from ..record.console import log_online
        # After the match's result line, as at a table here, then this client's own check of the
        # shuffle (docs/fairness.md): one write.
        program.say(*log_online(program, table), m(f"fairness.{table.shuffle_check()}"))
        return "finished"
    except LeaveRoom:
        quick_left = quick and table.room().phase == "lobby"  # the seat was given up: nothing to take back
        program.say(m("online.quick.left", code=table.code) if quick_left
                    else m("online.left", code=table.code, command=spoken_command()))
        return "left"
    except RoomGone as gone:
        program.say(gone.line)
        return "left" if gone.keep_seat else "closed"
    except InputClosed:
        program.say(m("online.input_closed", code=table.code, command=spoken_command()))
        return "left"
    finally:
        program.narrator = None


# Starting: host, join, resume ------------------------------------------------------------------

@dataclass(frozen=True)
class OnlineRequest:
    """What ``scopa host``, ``scopa join`` or the menu asked for."""

    mode: Literal["host", "join", "resume", "watch", "quick", "tables", "daily"]
    server: str = ""
    name: str = ""
    code: str = ""
    rules: Rules | None = None    # host: the match's rules
    seats: tuple[str, ...] = ()   # host: "human" or a computer level, one per seat
    level: str | None = None      # host, quick: the level of computers filling seats nobody took (None: ask)
    tls: ssl.SSLContext | None = None  # --cafile: the context trusting a private server's certificate
    turn_time: int | None = None  # host: --turn-time, seconds a turn (None: no timer)
    public: bool = False          # host: the room is listed by scopa tables while it waits
    watchers_chat: bool = False   # host: spectators may chat (--watchers-chat)
    join_between_deals: bool = False  # host: a person may take a computer's seat between deals
    deal: int = 0                 # daily: the day's deal to play (from 1)
    deals: int = 0                # daily: how many deals the day has
    day: str = ""                 # daily: the UTC day, as the server named it
    send_day: bool = True         # daily: name the day in daily_deal (False: an older server takes no day)


def default_name(messages: Messages) -> str:
    """The login name, capitalised, as a name at the table; "Player 1" when there is none usable."""
    import getpass

    from ..match import clean_name
    try:
        login = getpass.getuser()
    except (OSError, KeyError, ImportError):
        login = ""
    return clean_name(login[:1].upper() + login[1:]) or messages("seat.player", n=1)


def _ask_level(program: OnlineProgram, rules: Rules) -> str | None:
    """The host's choice of level for seats nobody takes (asked only when there can be such seats)."""
    from ..players import LEVELS
    from .menus import choose
    if rules.players == 2:
        return "easy"
    index = choose(program.input, program.announcer, program.m("online.ask.level"),
                   [program.m(f"level.{level}") for level in LEVELS], program.m("prompt.menu"), default=1,
                   messages=program.messages)
    return None if index is None else LEVELS[index]


def server_address(text: str) -> str:
    """The server as typed, with ``ws://`` put in front when no scheme was given."""
    text = text.strip()
    return text if "://" in text else f"ws://{text}"


def player_key(program: OnlineProgram) -> str | None:
    """This player's key (made now on the first online action), None when it cannot be kept."""
    from ..storage import resolve_data_dir
    from ..storage.player_key import PlayerKeyStore
    return PlayerKeyStore(resolve_data_dir(program.persistence.data_dir)).load_or_make()


def _key_store(program: OnlineProgram) -> SeatKeyStore:
    from ..storage import resolve_data_dir
    from ..storage.seat_keys import SeatKeyStore
    return SeatKeyStore(resolve_data_dir(program.persistence.data_dir))


def has_seat_to_resume(program: OnlineProgram) -> bool:
    return _key_store(program).newest() is not None


def resume_online(program: OnlineProgram) -> int | None:
    """The main menu's "Resume online match": the seat whose key was kept last. None: back to the menu."""
    play_online(program, OnlineRequest("resume"))
    return None


# A further choice of the "Play online" menu: its label, and what it does with the server and name.
MenuExtra = tuple[str, Callable[[OnlineProgram, str, str], int | None]]


def online_menu(program: OnlineProgram, extra: Sequence[MenuExtra] = ()) -> int | None:
    """The main menu's "Play online": host or join, the server (Enter for the last one), a name."""
    from .menus import choose
    m = program.m
    index = choose(program.input, program.announcer, m("online.menu.title"),
                   [m("online.menu.host"), m("online.menu.join"), *(label for label, _ in extra),
                    m("online.menu.leaderboard")], m("prompt.menu"), default=0, messages=program.messages)
    if index is None:
        return None
    server = ask_server(program)
    if not server:
        return None
    if index == 2 + len(extra):  # the leaderboard, last: no name needed
        leaderboard_menu(program, server)
        return None
    name = ask_name(program)
    if name is None:
        return None
    if index >= 2:
        return extra[index - 2][1](program, server, name)
    if index == 1:
        program.say(m("online.ask.code"))
        code = program.input.read_text(m("prompt.code") + " ")
        if code in ("", ESCAPE):
            return None
        play_online(program, OnlineRequest("join", server, name, code))
        return None
    rules = _ask_rules(program)
    if rules is not None:
        play_online(program, OnlineRequest("host", server, name, rules=rules, seats=("human",) * rules.players))
    return None


def board_problem_line(code: str, values: dict[str, Any], messages: Messages, server: str) -> Announcement:
    """Why the board was not said: as any refusal, but asked too often is said as such (not as codes guessed)."""
    if code == "too_many_tries":
        return Announcement(messages("leaderboard.wait", seconds=values.get("seconds", 60)))
    return problem_line(code, values, messages, server)


def leaderboard_menu(program: OnlineProgram, server: str) -> None:
    """The server's board read as a menu, one player an item, rank first, paged like the other
    long menus; the player's own place is its last item. Choosing an item, or Escape, goes back."""
    from ..net.client.board import fetch_board
    from ..net.protocol.server_messages import Leaderboard
    from ..net.protocol.wire import MAX_TOP
    from ..storage import resolve_data_dir
    from ..storage.player_key import PlayerKeyStore, remember_rating
    from .leaderboard import menu_items
    from .menus import choose
    m = program.messages
    data_dir = resolve_data_dir(program.persistence.data_dir)
    key = PlayerKeyStore(data_dir).load()
    program.say(m("online.connecting"))
    answer = fetch_board(server, MAX_TOP, key)
    if not isinstance(answer, Leaderboard):
        program.say(board_problem_line(answer.code, answer.values, m, server))
        return
    if answer.you is not None:
        remember_rating(data_dir, server, answer.you.rank, answer.you.of, answer.you.rating)
    items = menu_items(answer, m, key is not None)  # the listing punctuates
    choose(program.input, program.announcer, m("leaderboard.title"), items, m("prompt.menu"), messages=m)
    program.say(m("leaderboard.closed"))  # an item picked, or Escape: never back at the menu without a word


def ask_name(program: OnlineProgram) -> str | None:
    """The player's name at the table (Enter for the login name); None for Escape."""
    default = default_name(program.messages)
    typed = program.input.read_text(program.m("online.ask.name", default=default) + " ")
    if typed == ESCAPE:
        return None
    from ..match import clean_name
    return clean_name(typed) or default


def ask_server(program: OnlineProgram) -> str:
    last = program.settings.last_server
    m = program.messages
    program.say(server_question(m, last))
    typed = program.input.read_text(m("prompt.server") + " ")
    if typed == ESCAPE:
        return ""
    return server_address(typed) if typed else (last or "")


def server_question(m: Messages, last: str | None) -> Announcement:
    """The server question: printed with an example address, spoken without one (a voice reads
    "ws://localhost:8765" a character at a time) and with the last server's host only."""
    key = "online.ask.server" if last else "online.ask.server.none"
    return Announcement(m(key, server=last), spoken=spoken_form(m, key, last or ""))


def _ask_rules(program: OnlineProgram) -> Rules | None:
    """The host's match: how many players, which game and the target, with the new-match questions."""
    players = program._ask_players()
    if players is None:
        return None
    rules = program._ask_game(players)
    return None if rules is None else program._ask_target(rules)


def play_online(program: OnlineProgram, request: OnlineRequest) -> int:
    """Connect, take or reclaim the seat, keep its key, and play; an exit code."""
    return play_room(program, request)[0]


def play_room(program: OnlineProgram, request: OnlineRequest,
              passed_up: Collection[str] = ()) -> tuple[int, Outcome | None]:
    """``play_online``, and how the room ended (None: it was never entered). A refusal whose code
    is in ``passed_up`` is not said: ``TableClosed`` is raised for the caller to say or act on."""
    from ..net.client.client import RemoteTable, TableClosed
    from ..net.protocol.client_messages import CreateRoom, DailyDeal, Hello, Join, Quick
    from ..net.protocol.codes import normalise_code
    from ..storage.seat_keys import SeatKey, share_bytes

    m = program.messages
    store = _key_store(program)
    keep_key = True  # False: joined as a new player beside a seat whose key this account keeps
    saved = store.newest() if request.mode == "resume" else None
    if request.mode == "resume" and saved is None:
        program.say(m("online.none_to_resume"))
        return 1, None
    server = saved.server if saved is not None else server_address(request.server)
    name = saved.name if saved is not None else request.name
    if request.mode == "host":
        if request.rules is None:
            raise ValueError("hosting a room needs the match's rules")
        level = request.level or _ask_level(program, request.rules)
        if level is None:
            return 0, None
        first: CreateRoom | Join | Hello | Quick | DailyDeal = CreateRoom(
            name, request.rules, tuple(request.seats), level, player_key=player_key(program),
            turn_time=request.turn_time, public=request.public, watchers_chat=request.watchers_chat,
            join_between_deals=request.join_between_deals)
    elif request.mode == "quick":
        if request.rules is None:
            raise ValueError("a quick match needs the match's rules")
        first = Quick(name, request.rules, request.level or "easy", player_key(program), request.turn_time)
    elif request.mode == "daily":
        first = DailyDeal(name, request.deal, player_key(program), (request.day or None) if request.send_day else None)
    else:
        code = saved.code if saved is not None else normalise_code(request.code)
        if code is None:
            program.say(m("online.error.bad_code", code=request.code))
            return 2, None
        saved = saved or store.load(server, code)
        if saved is not None and request.mode == "join" and name and saved.name != name:
            answer = _take_back_or_join(program, saved, name)
            if answer is None:
                return 0, None
            if answer == "new":  # a second player on this account: the kept key stays the first one's
                keep_key = False
                saved = None
        first = (Hello(code, saved.key, saved.last_number) if saved is not None
                 else Join(code, name, player_key(program)))
    if request.mode != "daily":  # a daily deal: said once for the day, before its first deal
        program.say(m("online.connecting"))  # no address: Orca spells out "ws colon slash slash"
    wake = Wake()
    table = RemoteTable(server, first, wake, tls=request.tls, share=share_bytes(saved),
                        share_source=program.share_source)
    try:
        table.open()
    except TableClosed as closed:
        if saved is not None and closed.problem.code in ("wrong_key", "unknown_room", "room_closed"):
            store.forget(saved.server, saved.code)
        if closed.problem.code in passed_up:
            raise
        program.say(problem_line(closed.problem.code, closed.problem.values, m, server))
        return 1, None
    program.table_opened(table)
    heard = table.commitment_heard()
    if request.mode == "daily" and heard is not None:  # checked against the day seed once it is revealed
        from ..storage import resolve_data_dir
        from ..storage.daily_heard import remember_deal
        remember_deal(resolve_data_dir(program.persistence.data_dir), server, request.day, request.deal, heard)
    try:
        kept = SeatKey(server, table.code, table.key, table.seat, name,
                       last_number=saved.last_number if saved is not None else 0, share=table.share.hex())
        problem = store.save(kept) if keep_key else "not kept"
        if problem is not None:
            program.say(m("online.key_not_kept", code=table.code))
        program.remember_server(server)

        def keep_place(number: int) -> None:
            """After each own move: a rejoin from a new terminal replays what followed it."""
            if keep_key:
                store.save(replace(kept, seat=table.seat, last_number=number, saved_at=0.0))

        def keep_seat(seat: int) -> None:
            """The host moved this player: the key kept names the new seat (the key itself is the same)."""
            if keep_key:
                store.save(replace(kept, seat=seat, saved_at=0.0))
        opening = (daily_opening(table, request.deal, request.deals, m) if request.mode == "daily"
                   else _opening(table, request.mode, saved is not None, m, server))
        outcome = run_room(program, table, wake, server, opening,
                           keep_place=keep_place, rejoined=saved is not None,
                           quick=request.mode == "quick", keep_seat=keep_seat)
        given_up = request.mode == "quick" and table.room().phase == "lobby"  # the server freed the seat
    finally:
        table.close()
    if outcome in ("finished", "closed") or given_up:
        store.forget(server, table.code)
    if outcome == "finished" and request.mode != "daily":  # a daily deal is scored against par, never rated
        _say_rating(program, server, request.tls)
    return 0, outcome


def _say_rating(program: OnlineProgram, server: str, tls: ssl.SSLContext | None) -> None:
    """After a finished match, the player's new place and rating on the server (kept for
    ``scopa --stats``); nothing when they have none there or the server cannot say."""
    from ..net.client.board import fetch_board
    from ..net.protocol.server_messages import Leaderboard
    from ..storage import resolve_data_dir
    from ..storage.player_key import PlayerKeyStore, remember_rating
    from .leaderboard import you_line
    data_dir = resolve_data_dir(program.persistence.data_dir)
    key = PlayerKeyStore(data_dir).load()
    if key is None:
        return
    answer = fetch_board(server, 1, key, tls)
    if isinstance(answer, Leaderboard) and answer.you is not None:
        remember_rating(data_dir, server, answer.you.rank, answer.you.of, answer.you.rating)
        program.say(Announcement(you_line(answer.you, program.messages)))


def _take_back_or_join(program: OnlineProgram, saved: SeatKey, name: str) -> str | None:
    """This account keeps a seat of the room under another name (two terminals, one account):
    "back" takes that seat back, "new" joins as a new player, None leaves (Escape)."""
    m = program.messages
    program.say(m("online.ask.take_back", code=saved.code, seat=saved.seat + 1, old=saved.name, new=name))
    while True:
        token = program.input.read(m("prompt.take_back") + " ")
        if token == ENTER:
            return "back"
        if token.lower() in {"n", "new", "nuovo"}:
            return "new"
        if token == ESCAPE:
            return None
        program.say(m("online.ask.take_back.keys", old=saved.name, new=name))


def _opening(table: RemoteTable, mode: str, reclaimed: bool, m: Messages, server: str = "") -> list[Announcement]:
    timer = [Announcement(line) for line in [timer_line(table.room(), m)] if line is not None]
    if mode == "host":  # the command the others type, whole: a joiner needs the server too
        command = spoken_command()
        return [room_code_line(table.code, m), *timer,
                Announcement(m("online.share", code=table.code, command=command, server=server),
                             spoken=m("online.share.spoken", command=command)),
                *invite_lines(server, table.code, m), *page_lines(server, table.code, m)]
    if mode == "quick":
        return [Announcement(m("online.quick.opening")), *timer, Announcement(waiting_line(table.room(), m)),
                Announcement(quick_leave_line(table, m))]
    key = "online.reclaimed" if reclaimed else "online.seated"
    return [Announcement(m(key, code=table.code, seat=table.seat + 1)), *([] if reclaimed else timer)]


def daily_opening(table: RemoteTable, deal: int, deals: int, m: Messages) -> list[Announcement]:
    """"Deal 1 of 2. Against Elena, the expert.": the expert has one name all day (issue 38)."""
    experts = [seat.name for seat in table.room().seats if seat is not None and seat.kind == "computer"]
    return [Announcement(m("daily.deal", n=deal, of=deals)),
            *(Announcement(m("daily.against", name=name)) for name in experts[:1])]


def invite_lines(server: str, code: str, m: Messages) -> list[Announcement]:
    """The invite link on a line of its own, printed whole for copying, after a line that says
    what it is; the voice says only that line (it spells the code in the room's line, never an
    address a character at a time). The link ends with a full stop, so that a screen reader
    pauses before the prompt (a copied stop still joins: ``net.client.invite``)."""
    from ..net.client.invite import invite_link
    return [Announcement(m("online.invite")), Announcement(invite_link(server, code) + ".", spoken="")]


def page_lines(server: str, code: str, m: Messages) -> list[Announcement]:
    """The same room's link for a browser (the page ``scopa serve`` serves), on a line of its own after a
    line that says what it is, as the invite link is; the voice says only that line."""
    from ..net.client.invite import page_link
    return [Announcement(m("online.invite.page")), Announcement(page_link(server, code) + ".", spoken="")]
