"""The additions of issue 39 to protocol 2, over loopback with the real server: a share of the seed
acknowledged (``contributed``) to a client that reads it, a start refused for a missing share said
as such, ``too_many_tries`` naming its limit, ``"computer:LEVEL"`` seats, and programs: a seat
played by a program is told to everyone at the table who reads it, and rated on a board of its own.
An older client, which asks for no feature, is sent nothing new (docs/protocol.md, Versions)."""
from __future__ import annotations

import json
import secrets
import time

import pytest

from helpers.net import SINGLE, Client, contribute, error, host, play_out
from scopa.engine import Rules
from scopa.net.protocol.client_messages import (
    Contribute,
    CreateRoom,
    Features,
    Join,
    LeaderboardRequest,
    Ping,
    Quick,
    Ready,
    Start,
    parse_client_message,
)
from scopa.net.protocol.codes import new_code
from scopa.net.protocol.server_messages import (
    Contributed,
    ErrorMessage,
    FeaturesAnswer,
    InfoMessage,
    Leaderboard,
    Pong,
    UpdateMessage,
    Welcome,
)
from scopa.net.protocol.wire import ProtocolError
from scopa.table import Notice


def _seated(url: str, first, features: tuple[str, ...] = ()) -> Client:
    client = Client(url)
    client.send(first)
    client.until(lambda m: isinstance(m, Welcome))
    if features:
        client.send(Features(features))
        assert client.until(lambda m: isinstance(m, FeaturesAnswer)).names == tuple(
            name for name in features if name in ("contributed", "program"))
    return client


def test_a_share_is_acknowledged_with_the_share_kept(store):
    server = store.serve()
    ann = _seated(server.url, CreateRoom("Ann", SINGLE, ("human", "human"), "easy"), ("contributed", "later_one"))
    first, second = secrets.token_bytes(32), secrets.token_bytes(32)
    ann.send(Contribute(first))
    assert ann.until(lambda m: isinstance(m, Contributed)).value == first
    ann.send(Contribute(second))  # ignored: the answer says which one the server keeps
    assert ann.until(lambda m: isinstance(m, Contributed)).value == first


def test_an_older_client_is_sent_nothing_it_would_refuse(store):
    """No ``contributed``, no ``features``, no seat's ``program`` to a client that asked for none,
    even with a program at the table; every frame it gets is one an older client reads."""
    server = store.serve()
    ann = _seated(server.url, CreateRoom("Ann", SINGLE, ("human", "human"), "easy"))
    ann.send(Contribute(secrets.token_bytes(32)))
    ann.send(Ping())
    ann.until(lambda m: isinstance(m, Pong))
    bip = _seated(server.url, Join(ann.code, "Bip", program=True), ("program",))
    ann.until(lambda m: isinstance(m, UpdateMessage) and m.update.event == Notice("joined", 1, "Bip"))
    for frame in ann.frames:
        data = json.loads(frame)
        assert data["type"] not in ("contributed", "features")
        assert '"program"' not in frame
    info = bip.until(lambda m: isinstance(m, InfoMessage)).info  # what it asked for, it got
    assert info.seats[1].program


def test_everyone_who_reads_it_hears_a_seat_is_a_programs(store):
    server = store.serve()
    ann = _seated(server.url, CreateRoom("Ann", SINGLE, ("human", "human"), "easy"), ("program",))
    _seated(server.url, Join(ann.code, "Bip", program=True))
    info = ann.until(lambda m: isinstance(m, InfoMessage) and m.info.seats[1] is not None).info
    assert info.seats[1].program and not info.seats[0].program
    ben = _seated(server.url, CreateRoom("Ben", SINGLE, ("human", "human"), "easy"))  # a room without one
    ben.send(Features(("program",)))
    ben.until(lambda m: isinstance(m, InfoMessage))
    assert not any(seat is not None and seat.program for seat in ben.info.seats)


def test_a_start_refused_for_a_missing_share_says_so(store):
    """A seat that sent ready but no share: the host heard "not ready", the same as for a player
    who had not said ready, and could not tell what to wait for."""
    server = store.serve()
    ann = host(server.url)
    ben = _seated(server.url, Join(ann.code, "Ben"))
    ann.send(Start())
    assert error(ann) == ErrorMessage("cannot_start", {"reason": "not_ready", "seat": 1})
    ben.send(Ready())
    ann.until(lambda m: isinstance(m, UpdateMessage) and m.update.event == Notice("ready", 1, "Ben"))
    ann.send(Start())
    assert error(ann) == ErrorMessage("cannot_start", {"reason": "no_share", "seat": 1})
    contribute(ben)  # and answered: stored before the host starts again
    ann.send(Start())
    ann.until(lambda m: isinstance(m, UpdateMessage) and m.update.event == Notice("started", 0, "Ann"))


def _create(seat: str) -> str:
    return json.dumps({"type": "create_room", "version": 2, "name": "Ann", "rules": {"players": 3},
                       "seats": ["human", seat, "easy"]})


def test_the_command_lines_computer_seats_are_taken(serve) -> None:
    """``--seats human,computer:hard`` is the command line's form: a client that wrote it as it
    read it was refused (bad_field)."""
    assert parse_client_message(_create("computer:hard")).seats == ("human", "hard", "easy")
    for wrong in ("computer:", "computer:wise", "computer", "Computer:hard", "computer:computer:easy"):
        with pytest.raises(ProtocolError) as refused:
            parse_client_message(_create(wrong))
        assert (refused.value.code, refused.value.values) == ("bad_field", {"field": "seats"})
    client = Client(serve().url)
    client.send(_create("computer:hard"))
    welcome = client.until(lambda m: isinstance(m, Welcome))
    assert welcome.info.seats[1] is not None and (welcome.info.seats[1].kind, welcome.info.seats[1].level) == (
        "computer", "hard")


def test_too_many_tries_names_its_limit_and_each_limit_counts_its_own(store):
    """Past the tries at codes, a room can still be made (the docs said nothing was served)."""
    server = store.serve()
    answers = []
    for _ in range(11):
        client = Client(server.url)
        client.send(Join(new_code(), "Eve"))
        answers.append(error(client))
        client.close()
    assert [a.code for a in answers] == ["unknown_room"] * 10 + ["too_many_tries"]
    assert answers[-1].values["limit"] == "codes"
    made = []
    for _ in range(21):
        client = Client(server.url)
        client.send(CreateRoom("Eve", SINGLE, ("human", "easy"), "easy"))
        made.append(client.until(lambda m: isinstance(m, (Welcome, ErrorMessage))))
        client.close()
    assert all(isinstance(m, Welcome) for m in made[:20])
    assert (made[20].code, made[20].values["limit"]) == ("too_many_tries", "rooms")


def _board(url: str, programs: bool) -> Leaderboard:
    client = Client(url)
    client.send(LeaderboardRequest(10, None, programs=programs))
    answer = client.until(lambda m: isinstance(m, (Leaderboard, ErrorMessage)))
    client.close()
    assert isinstance(answer, Leaderboard), answer
    return answer


def test_a_programs_rating_is_on_the_programs_board_never_the_peoples(store):
    server = store.serve()
    bot_key, ann_key = secrets.token_hex(32), secrets.token_hex(32)
    ann = _seated(server.url, CreateRoom("Ann", SINGLE, ("human", "human"), "easy", ann_key))
    ann.send(Contribute(secrets.token_bytes(32)))
    bip = _seated(server.url, Join(ann.code, "Bip", bot_key, program=True))
    bip.send(Contribute(secrets.token_bytes(32)))
    bip.send(Ready())
    ann.until(lambda m: isinstance(m, UpdateMessage) and m.update.event == Notice("ready", 1, "Bip"))
    ann.send(Start())
    play_out([ann, bip], ann)
    for _ in range(40):  # Redis rates in a sweep, a moment after the end
        if _board(server.url, True).rows:
            break
        time.sleep(0.25)
    programs, people = _board(server.url, True), _board(server.url, False)
    assert [row.name for row in programs.rows] == ["Bip"]
    assert [row.name for row in people.rows] == ["Ann"]


def test_a_quick_program_says_so_too(store):
    server = store.serve("--quick-wait", "30")
    first = _seated(server.url, Quick("Bip", Rules(), "easy", program=True))
    second = _seated(server.url, Quick("Ann", Rules(), "easy"), ("program",))
    info = second.until(lambda m: isinstance(m, InfoMessage) and all(m.info.seats)).info
    assert info.seats[first.seat].program and not info.seats[second.seat].program


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_console_says_which_limit_and_a_missing_share_in_its_own_words(lang: str) -> None:
    """Rooms made past the limit were said as "Too many wrong codes", and a missing share as a
    player not ready: neither told the player what to do."""
    from scopa.console.online import problem_line
    from scopa.narration import Messages
    m = Messages(lang)
    codes = problem_line("too_many_tries", {"seconds": 40, "limit": "codes"}, m).text
    rooms = problem_line("too_many_tries", {"seconds": 40, "limit": "rooms"}, m).text
    older = problem_line("too_many_tries", {"seconds": 40}, m).text  # an older server names no limit
    assert codes == older == m("online.error.too_many_tries", seconds=40)
    assert rooms == m("online.error.too_many_tries.rooms", seconds=40) != codes and "40" in rooms
    no_share = problem_line("cannot_start", {"reason": "no_share", "seat": 1}, m).text
    assert no_share == m("online.error.cannot_start.no_share")
    assert no_share != problem_line("cannot_start", {"reason": "not_ready", "seat": 1}, m).text
