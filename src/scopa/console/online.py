"""Online play at the console: the lobby, then this player's seat of the match, through a table.

The console holds only what the seat knows: the table (a ``RemoteTable``) gives the seat's
``PlayerView`` and the numbered public updates. News (an opponent's play, a player leaving)
arrives while the player may be at a prompt: the table raises the input's ``Wake``, the
prompt ends on a line of its own, the news is printed and spoken at once, and the prompt is
asked again after it. When it is another seat's turn the console still reads keys (a
``Waiting?`` prompt), so T, H, L, S, R and the rest work all the time.

What is said together is one announcement, so R repeats it: the plays that came in and the
turn they lead to; or a notice alone ("Ben left the table.").
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Literal, Sequence

from ..engine import CardsDealt, CardPlayed, DealScored, Event, MatchWon, Phase, PlayerView
from ..narration import Announcement, Messages, Narrator
from ..narration.illegal import explain_illegal
from ..table import Notice, Resync, SeatUpdate, SubmitResult
from .announcer import Announcer
from .choosing import MoveChooser
from .keys import command_of
from .terminal import ENTER, ESCAPE, WOKEN, Input, InputClosed, Interrupted, Output, Wake

Outcome = Literal["finished", "left", "closed"]
WAIT_AFTER_REQUEST = 3.0  # seconds to wait for the server to answer ready or start before asking again


class LeaveRoom(Exception):
    """The player chose to leave; the seat stays theirs on the server."""


class RoomGone(Exception):
    """The table cannot go on (the room closed, the key was refused): ``line`` says why."""

    def __init__(self, line: str) -> None:
        super().__init__(line)
        self.line = line


def spelt(code: str) -> str:
    """A room code one character at a time, for the ear: "K, 7, M, Q, 3, T"."""
    return ", ".join(code)


def room_code_line(code: str, messages: Messages) -> Announcement:
    """"Room code K7MQ3T. K, 7, M, Q, 3, T." on screen; the voice says only the spelt code."""
    return Announcement(messages("online.room_code", code=code, spelt=spelt(code)),
                        spoken=messages("online.room_code.spoken", spelt=spelt(code)))


def problem_line(code: str, values: dict, messages: Messages, server: str = "") -> str:
    """One clear line for a refusal of the server (``net.messages.ERROR_CODES``) or a connection problem."""
    key = f"online.error.{code}"
    if code == "cannot_start":
        key = f"online.error.cannot_start.{values.get('reason', 'players')}"
    try:
        return messages(key, server=server, **{k: v for k, v in values.items() if k in ("seconds",)})
    except KeyError:
        return messages("online.error.other")


@dataclass
class OnlineIO:
    """What the online console needs from the program around it."""

    input: Input
    output: Output
    announcer: Announcer
    messages: Messages
    lang: str = "en"
    naming: str = "french"
    verbosity: str = "short"
    toggle_voice: Callable[[], str] | None = None
    hand_warning_needed: Callable[[], bool] = lambda: False
    settings_menu: Callable[[], None] | None = None
    rules_reader: Callable[[], None] | None = None


class OnlineConsole:
    """One seat of an online room, from the lobby to the end of the match."""

    def __init__(self, table, io: OnlineIO, wake: Wake, server: str = "") -> None:
        self.table = table
        self.io = io
        self.wake = wake
        self.server = server
        self.seat = table.seat
        self.after = table.latest()
        self.narrator: Narrator | None = None
        self._table_heard: tuple | None = None
        self._connected = True
        self._hand_asked = False
        io.announcer.open_seat = lambda: self.seat

    @property
    def m(self) -> Messages:
        return self.io.messages

    def say(self, *items: Announcement | str) -> None:
        if items:
            self.io.announcer.say(list(items))

    @property
    def is_host(self) -> bool:
        room = self.table.room()
        return room is not None and room.host == self.seat

    # The whole visit ---------------------------------------------------------------------
    def run(self, opening: Sequence[Announcement | str] = ()) -> Outcome:
        try:
            self.say(*opening, *self._resumed_lines())
            while True:
                self._step()
        except LeaveRoom:
            self.say(self.m("online.left", code=self.table.code))
            return "left"
        except RoomGone as gone:
            self.say(gone.line)
            return "closed"
        except MatchOver:
            return "finished"
        except InputClosed:
            self.say(self.m("online.input_closed", code=self.table.code))
            return "left"

    def _step(self) -> None:
        lines = self._news()
        room = self.table.room()
        if room is None or room.phase == "lobby":
            self.say(*lines)
            self._lobby(room)
            return
        if not self.table.has_view():
            self.say(*lines)
            self._waiting(None)
            return
        view = self.table.view(self.seat)
        if view.phase is Phase.MATCH_OVER:
            self.say(*lines)
            raise MatchOver
        if view.is_my_turn:
            self._my_turn(view, lines)
        elif view.phase is Phase.DEAL_OVER and self.is_host:
            self.say(*lines)
            self._next_deal()
        else:
            self.say(*lines)
            self._waiting(view)

    # News ------------------------------------------------------------------------------------
    def _news(self) -> list[Announcement]:
        """Everything new, as lines: the connection lost or back, refusals, updates, a resync."""
        if self.table.problem is not None:
            raise RoomGone(problem_line(self.table.problem.code, self.table.problem.values, self.m, self.server))
        lines: list[Announcement] = []
        if self.table.connected != self._connected:
            self._connected = self.table.connected
            lines.append(Announcement(self.m("online.back" if self._connected else "online.lost")))
        lines += [Announcement(problem_line(e.code, dict(e.values), self.m)) for e in self.table.take_errors()]
        found = self.table.updates(self.seat, self.after)
        if isinstance(found, Resync):
            self.after = found.number
            return lines + self._resync_lines(found.view)
        if found:
            self.after = found[-1].number
            lines += self._update_lines(found)
        return lines

    def _update_lines(self, updates: Sequence[SeatUpdate]) -> list[Announcement]:
        lines: list[Announcement] = []
        batch: list[Event] = []
        view: PlayerView | None = None
        for update in updates:
            view = update.view or view
            if isinstance(update.event, Notice):
                lines += self._events(batch, view)
                batch = []
                lines.append(Announcement(self._notice_text(update.event)))
            elif isinstance(update.event, DealScored):
                lines += self._events(batch, view)
                batch = []
                lines += self._score_lines(update.event, view)
            else:
                batch.append(update.event)
        return lines + self._events(batch, view)

    def _events(self, events: list[Event], view: PlayerView | None) -> list[Announcement]:
        if not events:
            return []
        narrator = self._narrator()
        dealt = next((e.table for e in events if isinstance(e, CardsDealt) and e.table is not None), None)
        if dealt is not None:
            self._table_heard = tuple(dealt)
        lines = narrator.events(events)
        if (narrator.verbosity == "full" and view is not None and view.phase is Phase.PLAYING
                and any(isinstance(e, CardPlayed) for e in events)):
            lines.append(Announcement(narrator.table_text(view.table)))
            self._table_heard = tuple(view.table)
        return lines

    def _score_lines(self, event: DealScored, view: PlayerView | None) -> list[Announcement]:
        room = self.table.room()
        assisted = room is not None and event.deal_number in room.assisted_deals
        return self._narrator().score_lines(event.deal_number, event.score, event.match_scores, assisted)

    def _notice_text(self, notice: Notice) -> str:
        name = notice.name or self._seat_name(notice.seat)
        if notice.kind == "started":
            self.narrator = None  # the seats are final now
            return self.m("online.notice.started")
        if notice.kind == "closed":
            return self.m("online.notice.closed")
        you = ".you" if notice.seat == self.seat and notice.kind in ("covered", "reclaimed") else ""
        return self.m(f"online.notice.{notice.kind}{you}", name=name, seat=notice.seat + 1)

    def _seat_name(self, seat: int) -> str:
        room = self.table.room()
        taken = room.seats[seat] if room is not None and seat < len(room.seats) else None
        return taken.name if taken is not None else self.m("seat.player", n=seat + 1)

    def _narrator(self) -> Narrator:
        if self.narrator is None:
            room = self.table.room()
            names = [self._seat_name(seat) for seat in range(len(room.seats))]
            self.narrator = Narrator(names, room.rules, self.seat, self.io.lang, self.io.naming, self.io.verbosity)
        return self.narrator

    def _resync_lines(self, view: PlayerView) -> list[Announcement]:
        """Back after missing too much: where the deal stands and the plays since this seat's last one."""
        narrator = self._narrator()
        history = view.history
        last = max((i for i, play in enumerate(history) if play.seat == self.seat), default=-1)
        recent = history[last + 1:]
        lines = [Announcement(self.m("online.caught_up", deal=view.deal_number))]
        lines += narrator.last_plays(recent, len(recent)) if recent else []
        lines.append(Announcement(narrator.table_text(view.table)))
        self._table_heard = tuple(view.table)
        return lines

    def _resumed_lines(self) -> list[Announcement]:
        """On taking a seat back in a match under way: the same catch-up as after a resync."""
        room = self.table.room()
        if room is None or room.phase == "lobby" or not self.table.has_view():
            return []
        view = self.table.view(self.seat)
        return [] if view.phase is Phase.MATCH_OVER else self._resync_lines(view)

    # Reading keys -------------------------------------------------------------------------------
    def _read_or_news(self, prompt_key: str) -> str:
        """A key, or ``WOKEN`` when news came first (the caller goes back to the loop to say it)."""
        while True:
            try:
                return self.io.input.read(self.m(prompt_key) + " ", self.wake)
            except Interrupted:
                self._ask_leave()

    def _read(self, prompt_key: str) -> str:
        """A key at a prompt that stays open through news: the news is said, the prompt asked again."""
        while True:
            token = self._read_or_news(prompt_key)
            if token != WOKEN:
                return token
            self.say(*self._news())

    # The lobby ----------------------------------------------------------------------------------
    def _lobby(self, room) -> None:
        if room is None:
            self._read_or_news("prompt.wait")
            return
        me = room.seats[self.seat]
        if self.is_host:
            if _can_start(room):
                self._lobby_prompt("prompt.start", self.table.start, "online.lobby.status")
            else:
                self._lobby_prompt("prompt.wait", None, "online.lobby.status")
        elif me is not None and not me.ready:
            self._lobby_prompt("prompt.ready", self.table.ready, "online.lobby.press_ready")
        else:
            self._lobby_prompt("prompt.wait", None, "online.lobby.status")

    def _lobby_prompt(self, prompt_key: str, on_enter: Callable[[], bool] | None, enter_says: str) -> None:
        token = self._read_or_news(prompt_key)
        if token == WOKEN:
            return
        if token == ENTER and on_enter is not None:
            on_enter()
            self.table.wait(self.seat, self.after, timeout=WAIT_AFTER_REQUEST)
        elif token == ENTER:
            self.say(*self._lobby_status())
        elif not self._command(token):
            self.say(self.m("error.unknown"))

    def _lobby_status(self) -> list[Announcement]:
        room = self.table.room()
        lines = []
        for seat, taken in enumerate(room.seats):
            if taken is None:
                lines.append(self.m("online.lobby.free", seat=seat + 1))
            elif taken.kind == "computer":
                lines.append(self.m("online.lobby.computer", seat=seat + 1, name=taken.name,
                                    level=self.m(f"level.{taken.level}")))
            else:
                state = "host" if seat == room.host else ("ready" if taken.ready else "not_ready")
                lines.append(self.m(f"online.lobby.{state}", seat=seat + 1, name=taken.name))
        if self.is_host:
            lines.append(self.m("online.lobby.can_start" if _can_start(room) else "online.lobby.wait_players"))
        return [Announcement(line) for line in lines]

    # The match ----------------------------------------------------------------------------------
    def _my_turn(self, view: PlayerView, news: list[Announcement]) -> None:
        narrator = self._narrator()
        lines = news + [Announcement(narrator.turn(self.seat))]
        if tuple(view.table) != self._table_heard:
            lines.append(Announcement(narrator.table_text(view.table)))
            self._table_heard = tuple(view.table)
        self._maybe_ask_hand_aloud(lines)
        lines.append(narrator.hand(view))
        self.say(*lines)
        chooser = MoveChooser(self._read, self.say, narrator, self._command, suggest=lambda: self._suggest(view))
        move = chooser.move(view)
        self._said_refusal(self.table.submit(self.seat, move, self.after))

    def _suggest(self, view: PlayerView):
        """The game's move for this view, said with its reason; the deal is marked assisted for everyone."""
        move, reason = self._narrator().suggestion(view)
        self.table.mark_assisted(self.seat)
        self.say(self.m("hint.suggestion", reason=reason))
        return move

    def _maybe_ask_hand_aloud(self, lines: list[Announcement]) -> None:
        """With the game voice on, ask once before a hand is read aloud (anyone nearby hears it)."""
        if self._hand_asked or not self.io.hand_warning_needed():
            return
        self._hand_asked = True
        self.say(*lines, self.m("voice.hand_warning"))
        lines.clear()
        while True:
            token = self._read("prompt.allow")
            if token in (ENTER, "n", "no", ESCAPE):
                self.io.announcer.speak_hands = token == ENTER
                self.say(self.m("voice.hand_allowed" if token == ENTER else "voice.hand_silent"))
                return
            self.say(self.m("voice.hand_warning_keys"))

    def _said_refusal(self, result: SubmitResult) -> None:
        if result.accepted:
            return
        if result.refusal == "illegal" and result.reason is not None:
            text = explain_illegal(result.reason, self._narrator().cards)
            if text:
                self.say(text)
                return
        self.say(self.m(f"online.refused.{result.refusal or 'unavailable'}"))

    def _next_deal(self) -> None:
        """The host deals the next deal: ``Next?``, Enter."""
        self.say(self.m("deal.next"))
        while True:
            token = self._read_or_news("prompt.next_deal")
            if token == WOKEN:
                return
            if token == ENTER:
                self._said_refusal(self.table.next_deal(self.seat, self.after))
                return
            if not self._command(token):
                self.say(self.m("deal.next"))

    def _waiting(self, view: PlayerView | None) -> None:
        """Another seat's turn (or the host's next deal): keys work until news ends the prompt."""
        token = self._read_or_news("prompt.wait")
        if token == WOKEN:
            return
        if token == ENTER:
            self.say(self._waiting_for(view))
        elif not self._command(token):
            self.say(self.m("error.unknown"))

    def _waiting_for(self, view: PlayerView | None) -> str:
        if view is None:
            return self.m("online.waiting")
        if view.phase is Phase.DEAL_OVER:
            return self.m("online.waiting_next", name=self._seat_name(self.table.room().host))
        return self.m("online.waiting_for", name=self._seat_name(view.to_move))

    # Commands -----------------------------------------------------------------------------------
    def _command(self, token: str) -> bool:
        command = command_of(token)
        if command is None:
            return False
        name = command[0]
        view = self.table.view(self.seat) if self.table.has_view() else None
        if name == "repeat":
            self.io.announcer.repeat()
        elif name == "stop":
            self.io.announcer.stop()
        elif name == "help":
            self.say(*[Announcement(self.m(f"help.{i}")) for i in range(1, 6)], self.m("online.help"))
        elif name == "voice":
            self.say(self.io.toggle_voice() if self.io.toggle_voice else self.m("voice.unavailable"))
        elif name == "quit":
            self._ask_leave()
        elif name in ("settings", "rules"):
            action = self.io.settings_menu if name == "settings" else self.io.rules_reader
            if action is None:
                self.say(self.m("error.unknown"))
            else:
                action()
        elif name in ("verbose", "full", "short"):
            verbosity = "short" if name == "short" else "full"
            self.io.verbosity = verbosity
            if self.narrator is not None:
                self.narrator.verbosity = verbosity
            self.say(self.m(f"verbosity.{verbosity}"))
        elif view is None:
            self.say(*self._lobby_status())
        else:
            self._match_command(name, view)
        return True

    def _match_command(self, name: str, view: PlayerView) -> None:
        narrator = self._narrator()
        if name == "table":
            self.say(narrator.table_text(view.table))
        elif name == "hand":
            self.say(narrator.hand(view) if view.phase is Phase.PLAYING else self.m("hand.closed"))
        elif name == "last":
            self.say(*narrator.last_plays(view.history, 2 * view.rules.players))
        elif name == "score":
            self.say(*narrator.running_score(view))
        elif name == "pile":
            self.say(narrator.pile(view, view.side))
        elif name == "suggest":
            self.say(self.m("hint.not_now"))
        else:  # save, export, import: the server keeps the match
            self.say(self.m("online.not_here"))

    def _ask_leave(self) -> None:
        """Leave on Enter (or a second Ctrl-C); the seat stays, and ``scopa join CODE`` takes it back."""
        self.say(self.m("online.leave_ask", code=self.table.code))
        try:
            token = self.io.input.read(self.m("prompt.leave") + " ")
        except (Interrupted, KeyboardInterrupt):
            raise LeaveRoom from None
        if token == ENTER or token.lower() in {"y", "yes", "s", "si"}:
            raise LeaveRoom
        self.say(self.m("quit.cancelled"))


class MatchOver(Exception):
    """The match ended; its result was said with the last updates."""


def _can_start(room) -> bool:
    """At least two humans seated, and every one but the host ready (the server checks again)."""
    humans = [(seat, s) for seat, s in enumerate(room.seats) if s is not None and s.kind == "human"]
    return len(humans) >= 2 and all(s.ready for seat, s in humans if seat != room.host)


# Starting: host, join, resume ------------------------------------------------------------------

@dataclass(frozen=True)
class OnlineRequest:
    """What ``scopa host``, ``scopa join`` or the menu asked for."""

    mode: Literal["host", "join", "resume"]
    server: str = ""
    name: str = ""
    code: str = ""
    rules: object = None          # host: the engine's Rules
    seats: tuple[str, ...] = ()   # host: "human" or a computer level, one per seat
    level: str | None = None      # host: the level of computers filling seats nobody took (None: ask)


def default_name(messages: Messages) -> str:
    """The login name, capitalised, as a name at the table; "Player 1" when there is none usable."""
    import getpass

    from ..match import clean_name
    try:
        login = getpass.getuser()
    except (OSError, KeyError, ImportError):
        login = ""
    return clean_name(login[:1].upper() + login[1:]) or messages("seat.player", n=1)


def _ask_level(program, rules) -> str | None:
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


def _key_store(program):
    from ..storage import resolve_data_dir
    from ..storage.seat_keys import SeatKeyStore
    return SeatKeyStore(resolve_data_dir(program.persistence.data_dir))


def has_seat_to_resume(program) -> bool:
    return _key_store(program).newest() is not None


def resume_online(program) -> int | None:
    """The main menu's "Resume online match": the seat whose key was kept last. None: back to the menu."""
    play_online(program, OnlineRequest("resume"))
    return None


def online_menu(program) -> int | None:
    """The main menu's "Play online": host or join, the server (Enter for the last one), a name."""
    from .menus import choose
    m = program.m
    index = choose(program.input, program.announcer, m("online.menu.title"),
                   [m("online.menu.host"), m("online.menu.join")], m("prompt.menu"), default=0,
                   messages=program.messages)
    if index is None:
        return None
    server = _ask_server(program)
    if not server:
        return None
    default = default_name(program.messages)
    typed = program.input.read_text(m("online.ask.name", default=default) + " ")
    if typed == ESCAPE:
        return None
    from ..match import clean_name
    name = clean_name(typed) or default
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


def _ask_server(program) -> str:
    last = program.settings.last_server
    m = program.m
    program.say(m("online.ask.server", server=last) if last else m("online.ask.server.none"))
    typed = program.input.read_text(m("prompt.server") + " ")
    if typed == ESCAPE:
        return ""
    return server_address(typed) if typed else (last or "")


def _ask_rules(program):
    """The host's match: how many players and the target, with the new-match questions."""
    from ..engine import Rules
    players = program._ask_players()
    if players is None:
        return None
    return program._ask_target(Rules(players=players))


def play_online(program, request: OnlineRequest) -> int:
    """Connect, take or reclaim the seat, keep its key, and play; an exit code."""
    from ..net.client import RemoteTable, TableClosed
    from ..net.codes import normalise_code
    from ..net.messages import CreateRoom, Hello, Join
    from ..storage.seat_keys import SeatKey

    m = program.messages
    store = _key_store(program)
    saved = store.newest() if request.mode == "resume" else None
    if request.mode == "resume" and saved is None:
        program.say(m("online.none_to_resume"))
        return 1
    server = saved.server if saved is not None else server_address(request.server)
    name = saved.name if saved is not None else request.name
    if request.mode == "host":
        level = request.level or _ask_level(program, request.rules)
        if level is None:
            return 0
        first: CreateRoom | Join | Hello = CreateRoom(name, request.rules, tuple(request.seats), level)
    else:
        code = saved.code if saved is not None else normalise_code(request.code)
        if code is None:
            program.say(m("online.error.bad_code", code=request.code))
            return 2
        saved = saved or store.load(server, code)
        first = Hello(code, saved.key, 0) if saved is not None else Join(code, name)
    program.say(m("online.connecting"))  # no address: Orca spells out "ws colon slash slash"
    wake = Wake()
    table = RemoteTable(server, first, wake)
    try:
        table.open()
    except TableClosed as closed:
        if saved is not None and closed.problem.code in ("wrong_key", "unknown_room", "room_closed"):
            store.forget(saved.server, saved.code)
        program.say(problem_line(closed.problem.code, closed.problem.values, m, server))
        return 1
    try:
        problem = store.save(SeatKey(server, table.code, table.key, table.seat, name))
        if problem is not None:
            program.say(m("online.key_not_kept", code=table.code))
        program.remember_server(server)
        opening = _opening(table, request.mode, saved is not None, m)
        io = OnlineIO(program.input, program.output, program.announcer, m, program.lang, program.naming,
                      program.verbosity, program.toggle_voice, program.voice_is_on, program.settings_menu,
                      getattr(program, "rules_reader", None))
        outcome = OnlineConsole(table, io, wake, server).run(opening)
    finally:
        table.close()
    if outcome in ("finished", "closed"):
        store.forget(server, table.code)
    return 0


def _opening(table, mode: str, reclaimed: bool, m: Messages) -> list[Announcement]:
    if mode == "host":
        return [room_code_line(table.code, m), Announcement(m("online.share", code=table.code))]
    key = "online.reclaimed" if reclaimed else "online.seated"
    return [Announcement(m(key, code=table.code, seat=table.seat + 1))]
