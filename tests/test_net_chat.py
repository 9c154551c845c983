"""Table chat over loopback (issue 28): real servers, scripted clients, both stores. With Redis
the two players are on two server processes sharing the store, so every line crosses pub/sub."""
from __future__ import annotations

import json

import pytest

from helpers.net import error, host, join
from scopa.net.protocol.chat import MAX_CHAT, ChatLimit, chat_problem, clean_chat
from scopa.net.protocol.client_messages import (
    ChatRequest,
    parse_client_message,
)
from scopa.net.protocol.server_messages import (
    ChatMessage,
    ErrorMessage,
    parse_server_message,
)
from scopa.net.protocol.wire import (
    ProtocolError,
    encode,
)


def heard(client):
    return client.until(lambda m: isinstance(m, ChatMessage))


def pair(store):
    first = store.serve()
    second = store.serve() if store.kind == "redis" else first
    ann = host(first.url)
    bob = join(second.url, ann.code)
    return ann, bob


def test_a_typed_line_and_a_preset_reach_every_seat_both_ways(store):
    ann, bob = pair(store)
    ann.send(ChatRequest(text="hello Bob"))
    assert heard(bob) == ChatMessage(0, "Ann", "hello Bob", None)
    assert heard(ann) == ChatMessage(0, "Ann", "hello Bob", None)  # the sender hears it said
    bob.send(ChatRequest(preset="well_played"))
    assert heard(ann) == ChatMessage(1, "Bob", None, "well_played")  # a name: each hears it in their language
    assert heard(bob).preset == "well_played"


def test_control_and_direction_characters_are_stripped_and_a_bad_line_is_refused_with_its_reason(store):
    ann, bob = pair(store)
    ann.send(ChatRequest(text="good\x1b[2J\u202egame\n\tnow\x07"))
    line = heard(bob)
    assert line.text == "good[2Jgame now"
    assert all(ch not in json.loads(bob.frames[-1])["text"] for ch in "\x1b\u202e\n\t\x07")
    ann.send(ChatRequest(text="x" * (MAX_CHAT + 1)))
    assert error(ann) == ErrorMessage("chat_refused", {"reason": "too_long"})
    ann.send(ChatRequest(text="\u202e \x1b\u200f"))
    assert error(ann) == ErrorMessage("chat_refused", {"reason": "empty"})
    ann.send(ChatRequest(text="x" * MAX_CHAT))  # exactly the cap is said
    assert heard(bob).text == "x" * MAX_CHAT
    assert not any(json.loads(f)["type"] == "error" for f in bob.frames)  # the refusals went to Ann alone


def test_each_seat_is_rate_limited_on_its_own(store):
    ann, bob = pair(store)
    for n in range(ChatLimit.BURST):
        ann.send(ChatRequest(text=f"line {n}"))
    ann.send(ChatRequest(text="one too many"))
    assert error(ann) == ErrorMessage("chat_refused", {"reason": "too_fast"})
    said = [heard(bob).text for _ in range(ChatLimit.BURST)]
    assert said == [f"line {n}" for n in range(ChatLimit.BURST)]
    bob.send(ChatRequest(text="my turn to talk"))  # Bob's own allowance is untouched
    assert heard(ann).text == "my turn to talk"


def test_chat_is_never_a_move_and_a_move_is_never_chat():
    with pytest.raises(ProtocolError):  # both, or neither
        parse_client_message(json.dumps({"type": "chat", "text": "hi", "preset": "thanks"}))
    with pytest.raises(ProtocolError):
        parse_client_message(json.dumps({"type": "chat"}))
    with pytest.raises(ProtocolError):
        parse_client_message(json.dumps({"type": "chat", "preset": "7D"}))
    with pytest.raises(ProtocolError):  # no card field, no other field at all
        parse_client_message(json.dumps({"type": "chat", "text": "hi", "card": "7D"}))
    assert parse_client_message(encode(ChatRequest(text="hi"))) == ChatRequest(text="hi")


def test_the_client_cleans_a_line_again_whatever_the_server_sent():
    raw = json.dumps({"type": "chat", "seat": 1, "name": "Bob", "text": "a\x1b[1Ab\u2066c", "preset": None})
    assert parse_server_message(raw).text == "a[1Abc"  # no Escape: harmless text
    with pytest.raises(ProtocolError):
        parse_server_message(json.dumps({"type": "chat", "seat": 1, "name": "Bob", "text": "\x1b", "preset": None}))
    named = parse_server_message(json.dumps({"type": "chat", "seat": 1, "name": "Bob\n\x1b", "text": "hi",
                                             "preset": None}))
    assert named.name == "Bob"  # every string from the network is cleaned by one rule (issue 37)


def test_the_rules_of_a_line():
    assert clean_chat("  a \r\n b\u202a ") == "a b"
    assert chat_problem("") == "empty" and chat_problem("\u200b") == "empty"
    assert chat_problem(" ") == "empty"
    limit = ChatLimit(burst=2, every=2.0)
    assert [limit.take(0.0), limit.take(0.0), limit.take(0.0), limit.take(2.0)] == [True, True, False, True]
