"""``mark_changes`` and ``change_end``: the server ends each change it sends a connection that asked,
on both stores and across the processes of one Redis; a connection that did not ask (a client
from before them) never gets one; and the game's client, against a server from before them,
says nothing of the unknown_type answer and hands changes to the console as before."""
from __future__ import annotations

import json
import threading
import time

from websockets.sync.server import serve as serve_ws

from helpers.net import Client, changes_are_ended, host, join, play_out, start, until
from scopa.engine import Rules
from scopa.net.client.client import RemoteTable
from scopa.net.protocol.client_messages import (
    Hello,
    Join,
    MarkChanges,
    Ping,
    parse_client_message,
)
from scopa.net.protocol.server_messages import (
    ChangeEnd,
    InfoMessage,
    Pong,
    UpdateMessage,
    Welcome,
    parse_server_message,
)
from scopa.net.protocol.wire import (
    RoomInfo,
    RoomSeat,
    encode,
)
from scopa.table import Notice, SeatUpdate


def marked(client: Client) -> None:
    """Ask for change_end, and wait until the server has read the request."""
    client.send(MarkChanges())
    client.send(Ping())
    client.until(lambda m: isinstance(m, Pong))


def messages_after_the_pong(client: Client) -> list[object]:
    frames = client.frames[max(i for i, frame in enumerate(client.frames) if '"type":"pong"' in frame) + 1:]
    return [parse_server_message(frame, client.rules) for frame in frames]


def test_the_request_and_the_end_are_messages_of_the_protocol():
    assert parse_client_message(encode(MarkChanges())) == MarkChanges()
    assert parse_server_message(encode(ChangeEnd())) == ChangeEnd()
    assert json.loads(encode(ChangeEnd())) == {"type": "change_end"}


def six_plays_with_one_asking(asking: Client, other: Client, hosting: Client) -> None:
    """``asking`` asks for change_end, ``other`` does not; the match starts and six cards are played."""
    marked(asking)
    start(hosting, other if hosting is asking else asking)
    play_out([asking, other], hosting,
             stop=lambda: len(asking.view.history) >= 6 and other.view.history == asking.view.history)
    asking.poll(0.3)
    other.poll(0.3)
    assert changes_are_ended(messages_after_the_pong(asking)) >= 7  # the start and six plays at least
    assert not any('"change_end"' in frame for frame in other.frames)


def test_each_change_is_ended_for_a_client_that_asked_and_never_for_one_that_did_not(store):
    server = store.serve()
    ann = host(server.url)
    six_plays_with_one_asking(ann, join(server.url, ann.code), ann)


def test_another_process_passes_the_end_on_only_to_a_client_that_asked(processes):
    """Half the plays are made on the other process, whose frames this one passes on."""
    first, second = processes(2)
    ann = host(first.url)
    six_plays_with_one_asking(join(second.url, ann.code), ann, ann)


def test_against_an_older_server_the_unknown_request_is_not_said_and_changes_still_come():
    """A server from before mark_changes (and features) answers each with unknown_type (a refusal
    the console would say) and never ends a change: the client keeps nothing to say and takes what
    came at once."""
    rules = Rules(target=None)
    info = RoomInfo("ACDEFG", "lobby", rules, (RoomSeat("Ann", ready=True), RoomSeat("Bob")))
    asked: list[str] = []

    def older(ws) -> None:  # type: ignore[no-untyped-def]
        ws.recv()
        ws.send(encode(Welcome("ACDEFG", 1, 1, info)))
        for _ in range(2):
            asked.append(json.loads(ws.recv())["type"])
            ws.send(json.dumps({"type": "error", "code": "unknown_type", "values": {}}))
        ws.send(encode(InfoMessage(info)))
        ws.send(encode(UpdateMessage(SeatUpdate(2, Notice("ready", 1, "Bob"), None))))
        time.sleep(1.0)

    with serve_ws(older, "127.0.0.1", 0) as old:
        threading.Thread(target=old.serve_forever, daemon=True).start()
        table = RemoteTable(f"ws://127.0.0.1:{old.socket.getsockname()[1]}", Join("ACDEFG", "Bob"))
        table.open(timeout=5)
        until(lambda: table.latest() == 2, 5)
        assert asked == ["features", "mark_changes"]
        assert table.take_errors() == []
        assert [update.event for update in table.updates(1, 1)] == [Notice("ready", 1, "Bob")]
        table.close()
        old.shutdown()



def test_the_updates_a_seat_taken_back_missed_come_whole_however_far_apart():
    """What a seat missed is replayed just after the welcome, before the server can have read
    mark_changes: the client takes it as one change that ends at the welcome's number, so a slow
    network (here 0.1 s between messages) never gives the console half of it."""
    rules = Rules(target=None)
    info = RoomInfo("ACDEFG", "lobby", rules, (RoomSeat("Ann"), RoomSeat("Bob")))
    missed = [Notice("ready", 0, "Ann"), Notice("watching", 0, "Carla"), Notice("ready", 1, "Bob")]

    def server(ws) -> None:  # type: ignore[no-untyped-def]
        ws.recv()
        ws.send(encode(Welcome("ACDEFG", 1, 5, info)))
        for number, notice in enumerate(missed, 3):
            time.sleep(0.1)
            ws.send(encode(UpdateMessage(SeatUpdate(number, notice, None))))
        time.sleep(1.0)

    with serve_ws(server, "127.0.0.1", 0) as slow:
        threading.Thread(target=slow.serve_forever, daemon=True).start()
        table = RemoteTable(f"ws://127.0.0.1:{slow.socket.getsockname()[1]}", Hello("ACDEFG", "k" * 43, 2))
        table.open(timeout=5)
        seen = [table.latest()]
        deadline = time.monotonic() + 5
        while seen[-1] < 5 and time.monotonic() < deadline:
            if table.latest() != seen[-1]:
                seen.append(table.latest())
            time.sleep(0.005)
        assert seen == [2, 5]
        assert [update.event for update in table.updates(1, 2)] == missed
        table.close()
        slow.shutdown()
