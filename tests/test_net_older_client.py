"""The attack on compatibility: a client from before issue 38, whose parsers refuse any field they
do not know, on this server over loopback. Issue 38 sent two fields to everyone, ``quick_wait`` in
a quick room's welcome and ``join_between_deals`` in the info of a room that allows it, and such a
client could not play a quick match or join such a room. Now both are features (docs/protocol.md,
Versions and features): the older client reads every frame, and a client that asks hears both."""
from __future__ import annotations

import json
import threading
import time
from typing import Any

from helpers.net import SINGLE, Client, contribute, until
from scopa.engine import CardsDealt, Rules
from scopa.net.client.client import OPEN_TIMEOUT
from scopa.net.protocol.client_messages import CreateRoom, Features, Join, Quick, Ready, Start, Watch
from scopa.net.protocol.server_messages import (
    ChangeEnd,
    FeaturesAnswer,
    InfoMessage,
    UpdateMessage,
    Watching,
    Welcome,
    parse_server_message,
)
from scopa.net.protocol.wire import ProtocolError, RoomInfo, RoomSeat, encode
from scopa.table import Notice

# What protocol 2 grew by since the client of before issue 38: today's parsers read everything
# else as it did. Messages it never asks for, and fields, by where they sit.
NEWER_TYPES = frozenset({"features", "contributed"})
NEWER_FIELDS = {"welcome": frozenset({"quick_wait"}), "info": frozenset({"join_between_deals"}),
                "seat": frozenset({"program"})}


def _refuse_newer(data: dict[str, Any], where: str) -> None:
    for name in NEWER_FIELDS.get(where, frozenset()) & set(data):
        raise ProtocolError("unknown_field", field=name)


def older_client_reads(frame: str, rules: Rules | None) -> None:
    """Read ``frame`` as the client of before issue 38 read it: ``ProtocolError`` where it refused
    it (and closed the connection: a client that cannot read its server stops)."""
    parse_server_message(frame, rules)  # whatever is not newer, it read as today
    data = json.loads(frame)
    if data["type"] in NEWER_TYPES:
        raise ProtocolError("unknown_type")
    _refuse_newer(data, data["type"])
    info = data.get("info")
    if isinstance(info, dict):  # welcome, watching, info, resync
        _refuse_newer(info, "info")
        for seat in info["seats"]:
            if seat is not None:
                _refuse_newer(seat, "seat")


class OlderClient(Client):
    """A scripted client of before issue 38: it never sends ``features`` and reads each frame as
    that client did, failing the test on the first it would have refused."""

    def recv(self, timeout: float = 5.0):
        message = super().recv(timeout)
        older_client_reads(self.frames[-1], self.rules)
        return message


def _welcomed(client: Client, first) -> Welcome:
    client.send(first)
    welcome = client.until(lambda m: isinstance(m, Welcome))
    contribute(client)
    return welcome


def _asked(client: Client, *names: str) -> FeaturesAnswer:
    client.send(Features(names))
    return client.until(lambda m: isinstance(m, FeaturesAnswer))


def _dealt(client: Client) -> None:
    client.until(lambda m: isinstance(m, UpdateMessage) and isinstance(m.update.event, CardsDealt))


def test_an_older_client_plays_a_quick_match_and_a_current_one_hears_the_wait(store):
    """Both quick welcomes (the room made, the room joined) carried ``quick_wait`` to everyone."""
    server = store.serve("--quick-wait", "30")
    ann, ben = OlderClient(server.url), Client(server.url)
    _welcomed(ann, Quick("Ann", SINGLE, "easy"))
    welcome = _welcomed(ben, Quick("Ben", SINGLE, "easy"))
    assert welcome.code == ann.code and welcome.quick_wait is None  # the welcome comes before the features
    assert _asked(ben, "quick_wait", "contributed") == FeaturesAnswer(("quick_wait", "contributed"), 30)
    for client in (ann, ben):
        _dealt(client)  # the room full: the match starts, and the older client read every frame of it
    later = Client(server.url)  # a room that is not quick says no wait, even to a client that asks
    _welcomed(later, CreateRoom("Cleo", SINGLE, ("human", "human"), "easy"))
    assert _asked(later, "quick_wait") == FeaturesAnswer(("quick_wait",), None)


def test_a_wait_of_part_of_a_second_is_said_as_one_second_not_zero(store):
    """A wait under a second (tests and impatient operators set one) was rounded to 0 seconds."""
    server = store.serve("--quick-wait", "0.4")
    ann = Client(server.url)
    _welcomed(ann, Quick("Ann", SINGLE, "easy"))
    assert _asked(ann, "quick_wait") == FeaturesAnswer(("quick_wait",), 1)


def test_an_older_client_joins_a_room_that_lets_people_take_computers_seats(store):
    """The host's room allows a person to take a computer's seat between deals: its info said so
    to everyone. The older guest reads the welcome, each info and the start; the host asked."""
    server = store.serve()
    host = Client(server.url)
    _welcomed(host, CreateRoom("Ann", Rules(players=3, target=None), ("human", "human", "easy"), "easy",
                               join_between_deals=True))
    guest = OlderClient(server.url)
    _welcomed(guest, Join(host.code, "Ben"))
    assert _asked(host, "join_between_deals").names == ("join_between_deals",)
    assert host.until(lambda m: isinstance(m, InfoMessage)).info.join_between_deals  # the answer's info
    guest.send(Ready())
    host.until(lambda m: isinstance(m, UpdateMessage) and m.update.event == Notice("ready", 1, "Ben"))
    assert host.info is not None and host.info.join_between_deals
    host.send(Start())
    for client in (host, guest):
        _dealt(client)
    assert host.info.join_between_deals and guest.info is not None and not guest.info.join_between_deals
    spectator = OlderClient(server.url)  # a spectator of before, too
    spectator.send(Watch(host.code, "Dan"))
    assert not spectator.until(lambda m: isinstance(m, Watching)).info.join_between_deals


def test_the_console_client_asks_for_both_and_knows_the_quick_wait_once_open(serve, tables):
    """RemoteTable, the console's and the page's client: the quick wait is known when ``open``
    returns (the console says it at once), and a room's leave to take computers' seats is heard."""
    server = serve("--quick-wait", "45")
    quick = tables(server.url, Quick("Ann", SINGLE, "easy"))
    assert quick.quick_wait == 45
    assert {"quick_wait", "join_between_deals"} <= set(quick.features)
    hosting = tables(server.url, CreateRoom("Ben", Rules(players=3), ("human", "human", "easy"), "easy",
                                            join_between_deals=True))
    until(lambda: hosting.room().join_between_deals)


# And the other way: this client on older servers -------------------------------------------------

def _older_server(frames: list[str], hold: float):
    """A server of protocol 2 that answers a first message with ``frames[0]`` (its welcome) and each
    of the two requests that follow (features, mark_changes) with the next, then keeps the
    connection ``hold`` seconds."""
    from websockets.sync.server import serve as serve_ws

    def older(ws) -> None:  # type: ignore[no-untyped-def]
        ws.recv()
        ws.send(frames[0])
        for answer in frames[1:]:
            ws.recv()
            ws.send(answer)
        time.sleep(hold)

    return serve_ws(older, "127.0.0.1", 0)


def _quick_welcome(wait: int | None = None) -> str:
    return encode(Welcome("ACDEFG", 0, 1, RoomInfo("ACDEFG", "lobby", SINGLE, (RoomSeat("Ann", ready=True), None)),
                          quick_wait=wait))


UNKNOWN_TYPE = json.dumps({"type": "error", "code": "unknown_type", "values": {}})


def test_on_a_server_before_features_a_quick_match_opens_at_once(tables):
    """Its unknown_type to ``features`` is the answer: the client waits for no more. The server
    closes half the open timeout after its answers: a client still waiting then would find the
    connection closed when ``open`` returns; this one returned long before."""
    with _older_server([_quick_welcome(), UNKNOWN_TYPE, UNKNOWN_TYPE], OPEN_TIMEOUT / 2) as old:
        threading.Thread(target=old.serve_forever, daemon=True).start()
        table = tables(f"ws://127.0.0.1:{old.socket.getsockname()[1]}", Quick("Ann", SINGLE, "easy"))
        assert table.connected and table.quick_wait is None and table.features == ()
        table.close()
        old.shutdown()


def test_on_a_server_that_sent_the_wait_in_the_welcome_it_is_still_said(tables):
    """A server of issue 38 said a quick room's wait in its welcome, to everyone."""
    answer = encode(FeaturesAnswer(("contributed", "program")))
    with _older_server([_quick_welcome(25), answer, encode(ChangeEnd())], 1.0) as old:
        threading.Thread(target=old.serve_forever, daemon=True).start()
        table = tables(f"ws://127.0.0.1:{old.socket.getsockname()[1]}", Quick("Ann", SINGLE, "easy"))
        assert table.quick_wait == 25 and table.features == ("contributed", "program")
        table.close()
        old.shutdown()
