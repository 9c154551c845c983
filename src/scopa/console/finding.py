"""Finding a game at the console: the main menu's "Quick match" and the open tables
(``scopa quick``, ``scopa tables`` and the menu; docs/online.md).

The table of rooms is read one room per line, host first, and paged as the other long menus
(``menus.choose``): a number joins that room, Escape goes back.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..engine import Rules
    from ..narration import Messages
    from ..net.protocol.server_messages import OpenTable
    from .online import MenuExtra, OnlineProgram, OnlineRequest


def game_words(rules: Rules, m: Messages) -> str:
    """"2 players, scopa, 11 points": the game a room plays, as the setup questions name it."""
    target = m("setup.target.single") if rules.target is None else m("setup.target.points", n=rules.target)
    return m("online.tables.game", players=rules.players, variant=m(f"setup.variant.{rules.variant.value}"),
             target=target)


def table_row(table: OpenTable, m: Messages) -> str:
    """One open table, the host's name first: "Ann, 3 players, scopa, 11 points, 1 seat free, code K7MQ3T"."""
    return m("online.tables.row", host=table.host, game=game_words(table.rules, m),
             free=m.plural("online.tables.free", table.free), code=table.code)


def open_tables(program: OnlineProgram, request: OnlineRequest) -> int:
    """List the server's open tables; a number joins that room. An exit code."""
    from dataclasses import replace

    from ..net.client.client import TableClosed, list_tables
    from .menus import choose
    from .online import play_online, problem_line, server_address
    m = program.messages
    server = server_address(request.server)
    try:
        rooms = list_tables(server, request.tls)
    except TableClosed as closed:
        program.say(problem_line(closed.problem.code, closed.problem.values, m, server))
        return 1
    program.remember_server(server)
    if not rooms:
        from ..narration import spoken_command
        program.say(m("online.tables.none", command=spoken_command()))  # dev.py's command under dev.py
        return 0
    index = choose(program.input, program.announcer, m("online.tables.title"), [table_row(t, m) for t in rooms],
                   m("prompt.menu"), messages=m, rows=True)
    if index is None:
        return 0
    return play_online(program, replace(request, mode="join", server=server, code=rooms[index].code))


def menu_extras(m: Messages) -> list[MenuExtra]:
    """The "Play online" menu's quick match, open tables and the daily deal, after host and join
    (the leaderboard comes last)."""
    from .daily import daily_for
    return [(m("online.menu.quick"), quick_for), (m("online.menu.tables"), tables_menu),
            (m("online.menu.daily"), daily_for)]


def quick_menu(program: OnlineProgram) -> int | None:
    """The main menu's "Quick match": the server (Enter for the last one), a name, the players,
    the game and the target, the computers' level; then the match. None: back to the menu."""
    from .online import ask_name, ask_server
    server = ask_server(program)
    if not server:
        return None
    name = ask_name(program)
    if name is None:
        return None
    return quick_for(program, server, name)


def quick_for(program: OnlineProgram, server: str, name: str) -> int | None:
    from .online import OnlineRequest, play_online
    rules = ask_rules(program)
    if rules is None:
        return None
    level = ask_quick_level(program)
    if level is None:
        return None
    play_online(program, OnlineRequest("quick", server, name, rules=rules, level=level))
    return None


def tables_menu(program: OnlineProgram, server: str, name: str) -> int | None:
    """The online menu's "Open tables", once the server and name are known."""
    from .online import OnlineRequest
    open_tables(program, OnlineRequest("tables", server, name))
    return None


def ask_rules(program: OnlineProgram) -> Rules | None:
    """The quick match's game: the players, which game (scopa, scopa a 15, cirulla, and the
    scopone for four), the target, as the host's questions ask them. None on Escape."""
    players = program._ask_players()
    if players is None:
        return None
    rules = program._ask_game(players)
    return None if rules is None else program._ask_target(rules)


def ask_quick_level(program: OnlineProgram) -> str | None:
    from ..players import LEVELS
    from .menus import choose
    index = choose(program.input, program.announcer, program.m("online.ask.quick_level"),
                   [program.m(f"level.{level}") for level in LEVELS], program.m("prompt.menu"), default=1,
                   messages=program.messages)
    return None if index is None else LEVELS[index]

