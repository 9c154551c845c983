"""The page's words are the console's (issue 40): the same updates, given to the console and to the page,
give the same lines.

A room of two scripted players is watched at once by the real ``scopa watch`` in a pseudo-terminal and by a
page (the page's websocket, as the browser's script speaks it), both spectators of the same match: every
update reaches both. The lines each says, from the match's first deal to its end, are held side by side and
must be the same, in the same order. No browser is needed: what the page shows is what the server sends it
(tests/test_web_page.py plays that part in Chromium).
"""
from __future__ import annotations

import json
import threading
from contextlib import ExitStack

import pytest
from websockets.sync.client import connect

from helpers.net import Client, host, join, play_out, start
from scopa.net.protocol.client_messages import Join
from scopa.net.protocol.server_messages import UpdateMessage, Welcome
from scopa.table import Notice

pytestmark = pytest.mark.slow


class PageSpectator:
    """A page that chose "watch a room with its code" in its menu; ``lines`` is every line it was sent."""

    def __init__(self, port: int, code: str, name: str) -> None:
        self.stack = ExitStack()  # connect() as a context manager, as websockets asks
        self.ws = self.stack.enter_context(connect(f"ws://127.0.0.1:{port}/web",
                                                   origin=f"http://127.0.0.1:{port}"))  # type: ignore[arg-type]
        self.ws.send(json.dumps({"type": "start", "lang": "en", "verbosity": "short"}))
        self.lines: list[str] = []
        self.answers = {"Choice?": {"type": "key", "key": "5"}, "Code?": {"type": "line", "text": code}}
        self.name = name
        self.done = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for raw in self.ws:
            message = json.loads(raw)
            if message.get("type") != "say":
                continue
            self.lines += message["lines"]
            if "No longer watching." in message["lines"]:
                self.done.set()
                return
            prompt = message.get("prompt") or ""
            if prompt.startswith("Your name?"):
                self.ws.send(json.dumps({"type": "line", "text": self.name}))
            elif prompt in self.answers:
                self.ws.send(json.dumps(self.answers.pop(prompt)))


def match_lines(lines: list[str]) -> list[str]:
    """From the first deal to the end of watching: the part both spectators heard whole."""
    first = next(i for i, line in enumerate(lines) if line.startswith("Deal 1."))
    last = lines.index("No longer watching.")
    return lines[first:last + 1]


@pytest.mark.linux  # scopa watch in a pty
def test_the_same_updates_give_the_console_and_the_page_the_same_lines(serve, tmp_path):
    pytest.importorskip("pexpect")
    from helpers.online_pty import player, text
    server = serve()
    ann = host(server.url)
    bob = join(server.url, ann.code)
    carla = player(tmp_path, "carla", "watch", ann.code, "--server", server.url, "--name", "Carla", "--plain")
    carla.expect("Watching room")
    ann.until(lambda m: isinstance(m, UpdateMessage) and m.update.event == Notice("watching", 0, "Carla"))
    dora = PageSpectator(server.port, ann.code, "Dora")
    ann.until(lambda m: isinstance(m, UpdateMessage) and m.update.event == Notice("watching", 0, "Dora"))
    start(ann, bob)
    play_out([ann, bob], ann)
    carla.expect("No longer watching.", timeout=90)
    assert dora.done.wait(30), dora.lines[-20:]
    console = [row.strip() for row in text(carla).splitlines() if row.strip()]
    page = match_lines(dora.lines)
    assert page == match_lines(console)
    assert len(page) > 40 and any("wins the match" in line or "draw" in line.lower() for line in page)
    carla.close()
    dora.stack.close()


def test_a_page_hosts_a_public_room_with_a_turn_timer_and_names_its_own_links(serve):
    """The page's menu hosts a room with the console's questions and two of its own (the turn timer, open
    tables); the lines name the server as the page reached it, never the loopback address its console uses."""
    from scopa.net.client.client import list_tables
    server = serve()
    origin = f"http://127.0.0.1:{server.port}"
    # host; the name; 2 players, scopa, a single deal; a turn timer of 20 s; listed in the open tables
    keys = iter(["2", "line:Hana", "enter", "enter", "4", "2", "2"])
    heard: list[str] = []
    with connect(f"ws://127.0.0.1:{server.port}/web", origin=origin) as ws:  # type: ignore[arg-type]
        ws.send(json.dumps({"type": "start", "lang": "en", "origin": origin}))
        while not any(line.startswith(origin) for line in heard):
            message = json.loads(ws.recv(timeout=20))
            if message["type"] == "commitment":
                ws.send(json.dumps({"type": "share", "value": "cd" * 32}))
            if message["type"] != "say":
                continue
            heard += message["lines"]
            if message["prompt"] and message["prompt"] != "Waiting?":
                key = next(keys)
                ws.send(json.dumps({"type": "line", "text": key[5:]} if key.startswith("line:")
                                   else {"type": "key", "key": key}))
        code = next(line for line in heard if line.startswith("Room code")).split()[2].rstrip(".")
        assert f"{origin}/{code}." in heard  # the browser link, on its line
        assert f"ws://127.0.0.1:{server.port}/{code}." in heard  # scopa join's invite link, on its line
        assert not [line for line in heard if "page-seat" in line]
        listed = [t for t in list_tables(server.url) if t.code == code]
        assert listed and listed[0].host == "Hana"
        ask = Client(server.url)
        ask.send(Join(code, "Ivo"))
        welcome = ask.until(lambda m: isinstance(m, Welcome))
        assert welcome.info.turn_time == 20


def test_a_page_that_floods_keys_is_closed(serve):
    """Keys faster than any hand (here 500 at once) close the page's websocket; the server goes on."""
    from websockets.exceptions import ConnectionClosed
    server = serve()
    origin = f"http://127.0.0.1:{server.port}"
    with connect(f"ws://127.0.0.1:{server.port}/web", origin=origin) as ws:  # type: ignore[arg-type]
        ws.send(json.dumps({"type": "start", "lang": "en"}))
        with pytest.raises(ConnectionClosed):
            for _ in range(500):
                ws.send(json.dumps({"type": "key", "key": "t"}))
            while True:
                ws.recv(timeout=10)
    with connect(f"ws://127.0.0.1:{server.port}/web", origin=origin) as ws:  # type: ignore[arg-type]
        ws.send(json.dumps({"type": "start", "lang": "en"}))
        assert json.loads(ws.recv(timeout=10)) == {"type": "language", "lang": "en"}  # the page's words follow it
        assert json.loads(ws.recv(timeout=10))["type"] == "say"
