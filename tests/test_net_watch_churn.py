"""Issue 37, point 9: spectators coming and going. One address made 100 arrivals in 0.4 s, and the
seated player heard 100 "is watching" notices; with spectators' chat on, each new name had its
own chat allowance. Against a real server over loopback: arrivals are limited per address, the
players hear of spectators in groups, the chat allowance follows the address, and a spectator's
line is said as a spectator's."""
from __future__ import annotations

import time

from helpers.net import Client, contribute, until
from scopa.engine import Rules
from scopa.narration import Messages
from scopa.narration.narrator import watching_together
from scopa.net.protocol.client_messages import ChatRequest, CreateRoom, Ping, Watch
from scopa.net.protocol.server_messages import (
    ChatMessage,
    ErrorMessage,
    Pong,
    UpdateMessage,
    Watching,
    Welcome,
    parse_server_message,
)
from scopa.net.server.server import WATCH_ARRIVALS
from scopa.table import Notice

EN = Messages("en")


def hosting(url: str, watchers_chat: bool = False) -> tuple[Client, str]:
    ann = Client(url)
    ann.send(CreateRoom("Ann", Rules(target=None), ("human", "human"), "easy", watchers_chat=watchers_chat))
    code = ann.until(lambda m: isinstance(m, Welcome)).code
    contribute(ann)
    return ann, code


def arrive(url: str, code: str, name: str) -> Client:
    """A spectator's connection and the server's first answer (``watching``, or the error)."""
    client = Client(url)
    client.send(Watch(code, name))
    client.first = client.until(lambda m: isinstance(m, (Watching, ErrorMessage)))
    if isinstance(client.first, Watching):  # the updates a spectator is sent follow its number
        client.number, client.rules = client.first.number, client.first.info.rules
    return client


def watching_notices(client: Client) -> list[Notice]:
    client.send(Ping())
    client.until(lambda m: isinstance(m, Pong))
    return [m.update.event for m in map(parse_server_message, client.frames) if isinstance(m, UpdateMessage)
            and isinstance(m.update.event, Notice) and m.update.event.kind == "watching"]


def test_one_address_coming_and_going_is_limited_and_the_players_hear_of_it_in_groups(serve):
    server = serve()
    ann, code = hosting(server.url)
    answers = []
    for n in range(30):  # arrive, leave, arrive again under a new name: churn
        spectator = arrive(server.url, code, f"Eve{n}")
        answers.append(spectator.first)
        spectator.close()
    welcomed = [a for a in answers if isinstance(a, Watching)]
    assert len(welcomed) == WATCH_ARRIVALS < 30
    assert {a.code for a in answers if isinstance(a, ErrorMessage)} == {"flooded"}
    until(lambda: len(watching_notices(ann)) >= WATCH_ARRIVALS, 15)  # the held ones come a few seconds later
    notices = watching_notices(ann)
    assert [n.name for n in notices] == [f"Eve{n}" for n in range(WATCH_ARRIVALS)]  # each said, none twice
    changes = {m.update.number for m in map(parse_server_message, ann.frames)
               if isinstance(m, UpdateMessage) and isinstance(m.update.event, Notice)
               and m.update.event.kind == "watching"}
    assert len(changes) == WATCH_ARRIVALS  # numbered one by one, but...
    frames = [parse_server_message(f) for f in ann.frames]
    updates = [n for n, m in enumerate(frames) if isinstance(m, UpdateMessage) and m.update.event.kind == "watching"]
    assert updates[-1] - updates[1] == len(updates) - 2  # ...all but the first sent together, as one change
    line, _ = watching_together(EN, [("watching", n.name) for n in notices[1:]])
    assert line == f"{WATCH_ARRIVALS - 1} are watching, " + ", ".join(f"Eve{n}" for n in range(1, WATCH_ARRIVALS)) + "."


def test_a_spectators_chat_allowance_follows_its_address_not_its_name(serve):
    server = serve()
    _, code = hosting(server.url, watchers_chat=True)
    refused = 0
    said = 0
    for name in ("Ben", "Cid", "Dee"):  # the same address, a new name each time
        spectator = arrive(server.url, code, name)
        for n in range(5):
            spectator.send(ChatRequest(text=f"{name} {n}"))
        spectator.send(Ping())
        spectator.until(lambda m: isinstance(m, Pong))
        answers = [parse_server_message(f) for f in spectator.frames]
        refused += sum(isinstance(m, ErrorMessage) and m.code == "chat_refused" for m in answers)
        said += sum(isinstance(m, ChatMessage) and m.name == name for m in answers)
        spectator.close()
        time.sleep(0.05)
    assert said == 5 and refused == 10  # five lines at once for the address, not for each name


def test_a_spectators_line_says_it_comes_from_a_spectator():
    from scopa.console.chat import chat_line
    assert chat_line(ChatMessage(0, "Ben", "well played", watcher=True), EN).text == "Ben, watching, says, well played."
    assert chat_line(ChatMessage(1, "Ben", "well played"), EN).text == "Ben says, well played."
