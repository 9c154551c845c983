"""Spectators over loopback (issue 28), both stores; with Redis the spectator is on a third
process. A spectator watches a whole match and every frame it gets is checked against the real
deal: no card that is in any hand at that moment, never a view."""
from __future__ import annotations

import json
import re
import time

import pytest

from helpers.net import Client, changes_are_ended, error, host, join, play_out, reclaim, start
from scopa.engine import ALL_CARDS, Move, Rules
from scopa.net.protocol.client_messages import (
    ChatRequest,
    CreateRoom,
    MarkChanges,
    MoveRequest,
    Ping,
    Ready,
    Watch,
    WatchersChat,
)
from scopa.net.protocol.server_messages import (
    ChatMessage,
    ErrorMessage,
    InfoMessage,
    Pong,
    UpdateMessage,
    Watching,
    Welcome,
    parse_server_message,
)
from scopa.net.protocol.wire import (
    MAX_WATCHERS,
)
from scopa.table import Notice

CARDS = {str(card) for card in ALL_CARDS}


def watcher(url: str, code: str, name: str = "Carla") -> Client:
    """A spectator, read as raw frames (``frames``), each parsed as a spectator's client parses it."""
    client = Client(url)
    client.send(Watch(code, name))
    welcome = parse_server_message(raw(client))
    assert isinstance(welcome, Watching)
    client.rules = welcome.info.rules
    return client


def raw(client: Client, timeout: float = 5.0) -> str:
    frame = client.ws.recv(timeout=timeout)
    client.frames.append(frame)
    parse_server_message(frame, client.rules, spectator=True)  # every frame a spectator's client accepts
    return frame


def drain(client: Client, seconds: float = 1.0) -> None:
    try:
        while True:
            raw(client, seconds)
    except TimeoutError:
        pass


def cards_in(data) -> set[str]:
    """Every card named anywhere in a frame's JSON."""
    if isinstance(data, str):
        return {data} & CARDS
    if isinstance(data, list):
        return set().union(*map(cards_in, data)) if data else set()
    if isinstance(data, dict):
        return set().union(*map(cards_in, data.values())) if data else set()
    return set()


def hands_after(clients: list[Client]) -> dict[int, set[str]]:
    """Update number -> the cards in every hand just after it, from the players' own frames."""
    hands: dict[int, set[str]] = {}
    for client in clients:
        for frame in map(json.loads, client.frames):
            if frame["type"] == "update" and frame["view"] is not None:
                hands.setdefault(frame["number"], set()).update(frame["view"]["hand"])
    return hands


def test_a_spectator_sees_a_whole_match_and_no_card_of_any_hand(store):
    first = store.serve()
    other = store.serve() if store.kind == "redis" else first
    ann = host(first.url)
    bob = join(first.url, ann.code)
    carla = watcher(other.url, ann.code)
    heard = ann.until(lambda m: isinstance(m, UpdateMessage) and isinstance(m.update.event, Notice)
                      and m.update.event.kind == "watching")
    assert heard.update.event.name == "Carla"  # "Carla is watching."
    start(ann, bob)
    carla.send(MoveRequest(1, Move(ann.view.hand[0]), 0))  # refused as a move
    carla.send(Ready())
    carla.send(ChatRequest(text="hi"))  # the host did not allow spectators' chat
    play_out([ann, bob], ann)
    drain(carla)
    frames = [json.loads(f) for f in carla.frames]
    errors = [f for f in frames if f["type"] == "error"]
    assert [e["code"] for e in errors] == ["spectator", "spectator", "chat_refused"]
    updates = [f for f in frames if f["type"] == "update"]
    assert updates and all(f["view"] is None for f in updates)
    assert not any("hand" in json.dumps(f) for f in frames)
    kinds = [f["event"]["kind"] for f in updates]
    assert "match_won" in kinds and kinds.count("card_played") == 36  # every public event of the match
    hands = hands_after([ann, bob])
    for frame in updates:
        assert not cards_in(frame) & hands.get(frame["number"], set()), frame
    assert not any(isinstance(m, ErrorMessage) for m in ann.errors if m.code == "spectator")


def test_spectators_are_capped_per_room(serve):
    server = serve()
    ann = host(server.url)
    watchers = [watcher(server.url, ann.code, f"W{n}") for n in range(MAX_WATCHERS)]
    late = Client(server.url)
    late.send(Watch(ann.code, "Late"))
    assert json.loads(late.ws.recv(timeout=5))["code"] == "watchers_full"
    assert late.closed()
    for client in watchers:
        client.close()


def watched_in_a_terminal(server, tmp_path):
    """A room of two scripted players (Ann, the host, and Bob) and the real ``scopa watch`` of it in a
    pseudo-terminal (Carla), once Ann has heard that Carla is watching: (ann, bob, carla)."""
    from helpers.online_pty import player

    ann = host(server.url)
    bob = join(server.url, ann.code)
    carla = player(tmp_path, "carla", "watch", ann.code, "--server", server.url, "--name", "Carla")
    carla.expect("Watching room")
    ann.until(lambda m: isinstance(m, UpdateMessage) and m.update.event == Notice("watching", 0, "Carla"))
    return ann, bob, carla


@pytest.mark.linux
def test_scopa_watch_says_the_match_as_it_is_played(serve, tmp_path):
    """The real ``scopa watch`` in a pseudo-terminal while two scripted players play a match: the
    players hear "Carla is watching.", the spectator every play and the result, never a hand."""
    import threading

    import pytest
    pexpect = pytest.importorskip("pexpect")
    from helpers.online_pty import text

    ann, bob, carla = watched_in_a_terminal(serve(), tmp_path)
    start(ann, bob)
    done = threading.Thread(target=play_out, args=([ann, bob], ann), daemon=True)
    done.start()
    carla.expect("No longer watching.", timeout=90)
    done.join(30)
    carla.expect(pexpect.EOF)
    screen = text(carla)
    assert "Carla is watching." not in screen  # its own arrival: "Watching room" said it (issue 38)
    plays = re.findall(r"^(?:Scopa for \w+! )?\w+(?: plays |'s .+ takes )", screen, flags=re.MULTILINE)
    assert len(plays) >= 36 and ("wins the match" in screen or "draw" in screen.lower())
    assert "Hand," not in screen and "Card?" not in screen


def heard(client: Client, test, timeout: float = 10.0):
    """A spectator's frames read (each parsed as its client parses it) until one passes ``test``."""
    end = time.monotonic() + timeout
    while True:
        message = parse_server_message(raw(client, max(0.01, end - time.monotonic())), client.rules, spectator=True)
        if test(message):
            return message


NOT_ALLOWED = ErrorMessage("chat_refused", {"reason": "not_allowed"})


def said_by(name: str):
    return lambda m: isinstance(m, ChatMessage) and m.name == name


@pytest.mark.linux
def test_spectators_chat_only_when_the_host_lets_them_and_the_choice_is_kept_with_the_room(store):
    first = store.serve()
    other = store.serve() if store.kind == "redis" else first  # with Redis, the spectators on another process
    ann = host(first.url)
    bob = join(first.url, ann.code)
    carla = watcher(other.url, ann.code)
    carla.send(ChatRequest(text="hello"))  # off unless the host chose it
    assert heard(carla, lambda m: isinstance(m, ErrorMessage)) == NOT_ALLOWED
    ann.send(WatchersChat(True))
    for client in (ann, bob):
        client.until(lambda m: isinstance(m, UpdateMessage) and m.update.event == Notice("watchers_chat_on", 0, "Ann"))
        assert client.info.watchers_chat
    info = heard(carla, lambda m: isinstance(m, InfoMessage))
    assert info.info.watchers_chat  # the spectators know it too, and hear the notice after
    heard(carla, lambda m: isinstance(m, UpdateMessage) and m.update.event.kind == "watchers_chat_on")
    carla.send(ChatRequest(preset="well_played"))
    line = ChatMessage(0, "Carla", None, "well_played", watcher=True)  # under the host's seat, marked a spectator's
    assert ann.until(said_by("Carla")) == line and bob.until(said_by("Carla")) == line
    assert heard(carla, said_by("Carla")) == line
    bob.send(ChatRequest(text="thanks"))  # a player's line reaches the spectators, not marked
    assert heard(carla, said_by("Bob")) == ChatMessage(1, "Bob", "thanks", None)
    # Kept with the room: a restarted server (SQLite), another process (Redis) lets a new spectator chat.
    if store.kind == "sqlite":
        first.kill()
        first = other = store.serve()
        ann, bob = reclaim(first.url, ann), reclaim(first.url, bob)
    else:
        other = store.serve()
    dina = watcher(other.url, ann.code, "Dina")
    dina.send(ChatRequest(text="ciao"))
    assert ann.until(said_by("Dina")) == ChatMessage(0, "Dina", "ciao", None, watcher=True)
    ann.send(WatchersChat(False))
    heard(dina, lambda m: isinstance(m, UpdateMessage) and m.update.event.kind == "watchers_chat_off")
    dina.send(ChatRequest(text="ciao"))
    assert heard(dina, lambda m: isinstance(m, ErrorMessage)) == NOT_ALLOWED
    bob.send(WatchersChat(True))  # the host's choice only
    assert error(bob) == ErrorMessage("not_host", {})


def test_a_room_made_with_spectators_chat_on_says_so_in_its_info(serve):
    server = serve()
    ann = Client(server.url)
    ann.send(CreateRoom("Ann", Rules(target=None), ("human", "human"), watchers_chat=True))
    assert ann.until(lambda m: isinstance(m, Welcome)).info.watchers_chat
    carla = watcher(server.url, ann.code)
    carla.send(ChatRequest(text="hello"))
    assert heard(carla, said_by("Carla")).text == "hello"


@pytest.mark.linux
def test_scopa_watch_sends_chat_only_where_the_host_lets_spectators(serve, tmp_path):
    """The real ``scopa watch``: C then a line at ``Message?``; refused in one line until the host
    lets spectators chat, then heard by the players as a spectator's line."""
    import pytest
    pexpect = pytest.importorskip("pexpect")
    from helpers.online_pty import text

    ann, bob, carla = watched_in_a_terminal(serve(), tmp_path)
    carla.send("c")
    carla.expect(r"Message\?")
    carla.send("hello\r")
    carla.expect(r"Not sent\. Chat is not allowed here\.")
    ann.send(WatchersChat(True))
    carla.expect(r"Spectators can chat now\.")
    carla.send("c")
    carla.expect(r"Message\?")
    carla.send("2\r")  # a phrase, by its number
    assert ann.until(said_by("Carla")) == ChatMessage(0, "Carla", None, "well_played", watcher=True)
    assert bob.until(said_by("Carla")).watcher
    carla.expect(r"You say, well played\.")
    bob.send(ChatRequest(text="thanks"))
    carla.expect(r"Bob says, thanks")
    carla.sendcontrol("c")
    carla.expect("No longer watching.")
    carla.expect(pexpect.EOF)
    assert "Traceback" not in text(carla)


def test_a_spectator_that_asks_hears_each_change_ended_and_one_that_does_not_never(store):
    """mark_changes from a spectator: every change's public frames end with change_end (across
    processes too), so ``scopa watch`` writes what one change says at once; a spectator's client
    from before it never asks and never gets one."""
    first = store.serve()
    other = store.serve() if store.kind == "redis" else first
    ann = host(first.url)
    bob = join(first.url, ann.code)
    carla, dora = watcher(other.url, ann.code), watcher(first.url, ann.code, "Dora")
    carla.send(MarkChanges())
    carla.send(Ping())
    heard(carla, lambda m: isinstance(m, Pong))
    asked = len(carla.frames)
    start(ann, bob)
    play_out([ann, bob], ann, stop=lambda: len(ann.view.history) >= 6 and bob.view.history == ann.view.history)
    drain(carla)
    drain(dora)
    messages = [parse_server_message(frame, carla.rules, spectator=True) for frame in carla.frames[asked:]]
    assert changes_are_ended(messages) >= 7  # the start and six plays at least
    assert not any('"change_end"' in frame for frame in dora.frames)


class FakeLink:
    """What a spectator's reader reads: the frames given, each alone (as a slow network may bring
    them), then a closed link."""

    def __init__(self, frames: list[str]) -> None:
        self.frames, self.sent = list(frames), []

    def send(self, frame: str) -> None:
        self.sent.append(json.loads(frame)["type"])

    def recv(self, timeout: float | None = None) -> str:
        if not self.frames:
            from scopa.net.client.link import LinkClosed
            raise LinkClosed
        return self.frames.pop(0)

    def recv_burst(self, timeout: float | None = None) -> list[str]:
        return [self.recv(timeout)]


def spectator_news(frames: list[str]) -> tuple[list[list[str]], list[str]]:
    """The news a spectator's reader puts out for ``frames``, write by write, and what it sent."""
    import queue
    from types import SimpleNamespace

    from scopa.console.watch import _END, Spectator
    from scopa.narration import Messages
    from scopa.net.protocol.wire import RoomInfo, RoomSeat
    m = Messages("en")
    program = SimpleNamespace(messages=m, lang="en", naming="french", verbosity="short")
    info = RoomInfo("ACDEFG", "playing", Rules(target=None), (RoomSeat("Ann"), RoomSeat("Bob")))
    spectator = Spectator(program, SimpleNamespace(name="Carla"), info, "ACDEFG", "ws://127.0.0.1:1")
    link, news = FakeLink(frames), queue.Queue()
    spectator.read_all(link, news)
    writes = []
    while (item := news.get_nowait()) is not _END:
        writes.append([getattr(line, "text", line) for line in item])
    return writes, link.sent


def test_scopa_watch_writes_a_change_at_once_and_takes_an_older_servers_answer_quietly():
    from scopa.engine import Card, CardPlayed, CardStaysOnTable
    from scopa.net.protocol.server_messages import ChangeEnd, spectator_update
    from scopa.net.protocol.wire import encode
    events = [CardPlayed(0, Card.parse("7S")), CardStaysOnTable(0, Card.parse("7S")),
              CardPlayed(1, Card.parse("KH")), CardStaysOnTable(1, Card.parse("KH")),
              CardPlayed(0, Card.parse("2C")), CardStaysOnTable(0, Card.parse("2C"))]
    frames = [spectator_update(number, event, None) for number, event in enumerate(events, 1)]
    end = encode(ChangeEnd())
    writes, sent = spectator_news([*frames[:2], end, *frames[2:], end])  # two changes, each ended
    assert sent == ["mark_changes"]
    assert writes == [["Ann plays seven of spades."], ["Bob plays king of hearts.", "Ann plays two of clubs."]]
    older = json.dumps({"type": "error", "code": "unknown_type", "values": {}})
    writes, _ = spectator_news([older, *frames])  # a server from before change_end: each as it comes
    assert writes == [["Ann plays seven of spades."], ["Bob plays king of hearts."], ["Ann plays two of clubs."]]
