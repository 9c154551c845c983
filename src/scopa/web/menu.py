"""The page's first menu: the console's online menu with the server already known (the page's own).

Every choice is a console function, with the console's words: quick match (``console.finding``),
hosting and joining (``console.online``), the open tables, watching (``console.watch``), the daily
deal (``console.daily``), the leaderboard, and the settings. A page opened at ``/CODE`` joins that
room at once; a page that kept a seat takes it back first.
"""
from __future__ import annotations

from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from ..console.app import Program


class PageSession(Protocol):
    """What the menu needs of the page's session (``session.PageSession``)."""

    server: str
    folder: Path
    sent_seat: dict[str, Any] | None

    def kept(self) -> AbstractContextManager[None]: ...


def page_menu(program: Program, session: PageSession, first: dict[str, Any]) -> int:
    """Take back the seat the page kept, or join the room of its address; then the menu, until the page goes."""
    from ..console.online import OnlineRequest, play_online
    from ..net.protocol.codes import normalise_code
    server = session.server
    with session.kept():
        if session.sent_seat is None and _kept_seat(session):
            play_online(program, OnlineRequest("resume"))
        elif isinstance(first.get("code"), str) and normalise_code(first["code"]) is not None:
            _join(program, server, first["code"])
    while True:  # Escape at the menu has nothing to go back to: the menu is said again (closing the page ends it)
        with session.kept():
            _menu_once(program, server)


def _kept_seat(session: PageSession) -> bool:
    from ..storage.seat_keys import SeatKeyStore
    return SeatKeyStore(session.folder).newest() is not None


def ask_name(program: Program) -> str | None:
    """The player's name at the table; Enter gives "Player" and a number drawn now, such as "Player 4821"
    (the console offers its login name, which here would be the server's; and a name belongs to the first
    player key that used it, so one default for every page would soon be taken)."""
    import secrets

    from ..match import clean_name
    default = program.m("seat.player", n=1000 + secrets.randbelow(9000))
    typed = program.input.read_text(program.m("online.ask.name", default=default) + " ")
    if typed == "escape":
        return None
    return clean_name(typed) or default


def _join(program: Program, server: str, code: str) -> None:
    from ..console.online import OnlineRequest, play_online
    name = ask_name(program)
    if name is not None:
        play_online(program, OnlineRequest("join", server, name, code))


def _menu_once(program: Program, server: str) -> bool | None:
    """One choice of the menu and what it does; None when the player left the menu (Escape)."""
    from ..console.daily import daily_for
    from ..console.finding import quick_for, tables_menu
    from ..console.menus import choose
    from ..console.online import OnlineRequest, _ask_rules, leaderboard_menu, play_online
    from ..console.watch import watch_room
    from ..net.protocol.wire import TURN_TIMES
    m = program.m
    items = [m("online.menu.quick"), m("online.menu.host"), m("online.menu.join"), m("online.menu.tables"),
             m("web.menu.watch"), m("online.menu.daily"), m("online.menu.leaderboard"), m("app.menu.settings")]
    index = choose(program.input, program.announcer, m("online.menu.title"), items, m("prompt.menu"), default=0,
                   messages=program.messages)
    if index is None:
        return None
    if index == 6:
        leaderboard_menu(program, server)
        return True
    if index == 7:
        program.settings_menu()
        return True
    if index in (2, 4):
        program.say(m("online.ask.code"))
        code = program.input.read_text(m("prompt.code") + " ")
        if not code or code == "escape":
            return True
        name = ask_name(program)
        if name is not None:
            mode = "join" if index == 2 else "watch"
            if mode == "watch":
                watch_room(program, OnlineRequest("watch", server, name, code))
            else:
                play_online(program, OnlineRequest("join", server, name, code))
        return True
    name = ask_name(program)
    if name is None:
        return True
    if index == 0:
        quick_for(program, server, name)
    elif index == 3:
        tables_menu(program, server, name)
    elif index == 5:
        daily_for(program, server, name)
    else:
        rules = _ask_rules(program)
        if rules is None:
            return True
        turn_time = choose(program.input, program.announcer, m("online.ask.turn_time"),
                           [m("online.turn_time.none"), *(m("online.turn_time.seconds", n=n) for n in TURN_TIMES)],
                           m("prompt.menu"), default=0, messages=program.messages)
        if turn_time is None:
            return True
        public = choose(program.input, program.announcer, m("online.ask.public"),
                        [m("online.public.no"), m("online.public.yes")], m("prompt.menu"), default=0,
                        messages=program.messages)
        if public is None:
            return True
        play_online(program, OnlineRequest("host", server, name, rules=rules, seats=("human",) * rules.players,
                                           turn_time=TURN_TIMES[turn_time - 1] if turn_time else None,
                                           public=public == 1))
    return True
