"""Issue 37, point 7: every string a server sends is cleaned by one rule before it can be printed
or spoken. A malicious server puts terminal escapes (a window title, the clipboard), C1 controls,
direction overrides and lone surrogates into every string field of every server message, one
field at a time; whatever the client takes from the message holds none of them (or the message
is refused whole). And the real program, told by a server to wait an escape's worth of seconds,
prints no escape."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import unicodedata
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any, get_args

import pytest
from websockets.sync.server import serve as serve_ws

from scopa.engine import Card, IllegalReason, Rules, new_match
from scopa.net.protocol.server_messages import (
    Accepted,
    BoardPlace,
    BoardRow,
    ChangeEnd,
    ChatMessage,
    ClockMessage,
    Contributed,
    DailyAnswer,
    DailyPlace,
    DailyPlayed,
    DailyRow,
    ErrorMessage,
    FeaturesAnswer,
    InfoMessage,
    Leaderboard,
    MatchRecordMessage,
    Moved,
    OpenTable,
    Pong,
    Refused,
    ResyncMessage,
    ServerMessage,
    TablesMessage,
    UpdateMessage,
    Watching,
    Welcome,
    parse_server_message,
)
from scopa.net.protocol.wire import ProtocolError, RoomInfo, RoomSeat, encode
from scopa.table import Notice, SeatUpdate

ROOT = Path(__file__).resolve().parents[1]
# A window title, the clipboard (OSC 52), a C1 CSI, a C1 NEL, the right-to-left override and an
# isolate, a lone surrogate, a bell and a backspace.
PAYLOAD = "\x1b]0;PWNED\x07\x1b]52;c;aGVsbG8=\x07\x9b2J\x85\u202e\u2066\ud800\x08"
INFO = RoomInfo("ACDEFG", "playing", Rules(), (RoomSeat("Ann"), RoomSeat("Bob", "computer", "easy")),
                contributions=(bytes(32), None))


def is_unsafe_in_line(ch: str) -> bool:
    """The test's own rule, written from the issue: C0 and C1 controls, lone surrogates, and the
    direction marks, embeddings, overrides and isolates."""
    return unicodedata.category(ch) in ("Cc", "Cs") or ch in DIRECTION


DIRECTION = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


def samples() -> list[ServerMessage]:
    """One message of every kind a server sends, each with every string field it can have."""
    state, _ = new_match(Rules(), seed=1)
    record = {"format": "scopa-match", "version": 2, "seats": [{"name": "Ann"}]}
    return [
        Welcome("ACDEFG", 1, 4, INFO, "k" * 32, None, bytes(32)), InfoMessage(INFO),
        UpdateMessage(SeatUpdate(2, Notice("joined", 1, "Bob"), None)),
        ResyncMessage(7, state.view(1), INFO), Accepted(3, 9),
        Refused(2, "illegal", IllegalReason("must_capture", Card.parse("7D"), (), 0)),
        ErrorMessage("too_many_tries", {"seconds": "30", "day": "2026-12-06"}),
        MatchRecordMessage(1, record), Pong(),
        Leaderboard((BoardRow(1, "Ann", 3.5, 2),), BoardPlace(1, 1, 3.5)),
        ChatMessage(0, "Carla", "ciao"), ClockMessage(0, 10),
        Watching("ACDEFG", 3, INFO, (Card.parse("7D"),), 0, 1, (0, 0)),
        TablesMessage((OpenTable("ACDEFG", "Ann", Rules(), 1),)),
        DailyAnswer("2026-12-06", 3, bytes(32), None, None, (DailyRow(1, "Ann", 2),), DailyPlace(1, 1, 2, (1, 0, 1)),
                    (DailyPlayed(1, 2, False),)),
        Moved(1), ChangeEnd(), FeaturesAnswer(("contributed", "program")), Contributed(bytes(32)),
    ]


def string_paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every string of decoded JSON (keys not included: a field's name is checked by name)."""
    if isinstance(value, str):
        return [path]
    if isinstance(value, list):
        return [p for n, item in enumerate(value) for p in string_paths(item, (*path, n))]
    if isinstance(value, dict):
        return [p for key, item in value.items() for p in string_paths(item, (*path, key))]
    return []


def poisoned(data: Any, path: tuple[Any, ...]) -> Any:
    data = json.loads(json.dumps(data))
    where = data
    for step in path[:-1]:
        where = where[step]
    where[path[-1]] = where[path[-1]] + PAYLOAD
    return data


def strings_in(value: Any) -> list[str]:
    """Every string the client holds of a parsed message (what it can print or speak)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, bytes | int | float | bool) or value is None:
        return []
    if isinstance(value, dict):
        return [s for key, item in value.items() for s in (*strings_in(key), *strings_in(item))]
    if isinstance(value, list | tuple | set | frozenset):
        return [s for item in value for s in strings_in(item)]
    if is_dataclass(value):
        return [s for f in fields(value) for s in strings_in(getattr(value, f.name))]
    return strings_in(str(value))


def test_the_samples_cover_every_server_message():
    assert {type(m) for m in samples()} == set(get_args(ServerMessage))


@pytest.mark.parametrize("message", samples(), ids=lambda m: type(m).__name__)
def test_every_string_field_of_every_server_message_reaches_the_client_clean(message):
    data = json.loads(encode(message))
    paths = [p for p in string_paths(data) if p != ("type",)]
    assert paths or isinstance(message, (Accepted, Pong, ClockMessage, Moved, ChangeEnd))
    for path in paths:
        text = json.dumps(poisoned(data, path))
        try:
            parsed = parse_server_message(text, Rules())
        except ProtocolError:
            continue  # refused whole: nothing of it is printed
        unsafe = [s for s in strings_in(parsed) if any(is_unsafe_in_line(ch) for ch in s)]
        assert not unsafe, f"{type(message).__name__} field {path}: {unsafe!r}"


def test_the_real_program_prints_no_escape_a_server_sent_in_an_error_value(tmp_path):
    """The attack as it was found: ``too_many_tries`` whose ``seconds`` sets the window title
    and writes the clipboard, printed raw by ``scopa join``."""
    def hostile(ws) -> None:  # type: ignore[no-untyped-def]
        ws.recv()
        ws.send(json.dumps({"type": "error", "code": "too_many_tries", "values": {"seconds": PAYLOAD[:40]}}))

    with serve_ws(hostile, "127.0.0.1", 0) as server:
        threading.Thread(target=server.serve_forever, daemon=True).start()
        port = server.socket.getsockname()[1]
        env = dict(os.environ, PYTHONPATH=str(ROOT / "src"), TERM="dumb", NO_COLOR="1")
        done = subprocess.run([sys.executable, "-m", "scopa", "join", "ACDEFG", "--server", f"ws://127.0.0.1:{port}",
                               "--name", "Ben", "--no-voice", "--lang", "en", "--data-dir", str(tmp_path / "data"),
                               "--config-dir", str(tmp_path / "config")],
                              capture_output=True, stdin=subprocess.DEVNULL, env=env, timeout=60, check=False)
        server.shutdown()
    out = done.stdout.decode("utf-8", "replace") + done.stderr.decode("utf-8", "replace")
    assert "Too many wrong codes." in out
    assert not any(ch in out for ch in "\x1b\x07\x9b\x85\u202e\u2066\x08"), repr(out)
