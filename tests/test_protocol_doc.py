"""docs/protocol.md cannot drift from the code: every example in it is read by the real message
classes (a client's by the parser the server uses, a server's by the parser the client uses) and
written back to the same JSON, and every message type, error code, event and notice of the code is
on the page, with the errors that close the connection marked as the code closes them."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, get_args

import pytest

from scopa.engine import Rules
from scopa.net import protocol
from scopa.net.protocol import client_messages, server_messages, wire
from scopa.net.protocol.client_messages import parse_client_message
from scopa.net.protocol.server_messages import parse_server_message
from scopa.net.protocol.wire import ERROR_CODES, FATAL_ERRORS, NOTICE_KINDS, encode

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
EXAMPLES = re.findall(r"^```json (client|server)\n(.*?)^```$", DOC, re.DOTALL | re.MULTILINE)
EVENT_KINDS = ("deal_started", "cards_dealt", "card_played", "cards_captured", "card_stays", "scopa",
               "leftovers_taken", "deal_scored", "match_won", "opening_taken", "hand_claimed", "notice")


def _wire_type(cls: type) -> str:
    return wire._ENCODERS[cls][0]


def _parse(side: str, text: str) -> Any:
    return parse_client_message(text) if side == "client" else parse_server_message(text, Rules())


def test_the_page_has_examples_of_both_sides() -> None:
    sides = [side for side, _ in EXAMPLES]
    assert sides.count("client") >= 25 and sides.count("server") >= 20


@pytest.mark.parametrize(("side", "text"), EXAMPLES, ids=[f"{s}-{json.loads(t)['type']}-{i}"
                                                        for i, (s, t) in enumerate(EXAMPLES)])
def test_each_example_is_read_and_written_back_the_same(side: str, text: str) -> None:
    message = _parse(side, text)
    written = encode(message)
    assert json.loads(written) == json.loads(text), "the example is not what the code writes"
    assert _parse(side, written) == message


def _documented_types(side: str) -> set[str]:
    return {json.loads(text)["type"] for s, text in EXAMPLES if s == side}


def test_every_client_message_type_has_an_example() -> None:
    assert {_wire_type(cls) for cls in get_args(client_messages.ClientMessage)} <= _documented_types("client")


def test_every_server_message_type_has_an_example() -> None:
    assert {_wire_type(cls) for cls in get_args(server_messages.ServerMessage)} <= _documented_types("server")


def test_no_example_of_a_type_the_code_does_not_have() -> None:
    both = (*get_args(client_messages.ClientMessage), *get_args(server_messages.ServerMessage))
    known = {_wire_type(cls) for cls in both}
    assert _documented_types("client") | _documented_types("server") <= known


def test_every_error_code_is_in_the_table_with_whether_it_closes() -> None:
    rows = dict(re.findall(r"^\| `([a-z_]+)` \| (yes|no) \|", DOC, re.MULTILINE))
    assert set(rows) == set(ERROR_CODES)
    assert {code for code, closes in rows.items() if closes == "yes"} == set(FATAL_ERRORS)


def test_every_event_and_notice_kind_is_described() -> None:
    rows = set(re.findall(r"^\| `([a-z_]+)`", DOC, re.MULTILINE))
    assert set(EVENT_KINDS) <= rows
    assert set(NOTICE_KINDS) - {"watchers_chat_on", "watchers_chat_off"} <= rows
    assert "| `watchers_chat_on`, `watchers_chat_off` |" in DOC


def test_the_other_docs_and_the_code_point_to_the_page() -> None:
    assert "protocol.md" in (ROOT / "docs" / "online.md").read_text(encoding="utf-8")
    for module in (protocol, client_messages, server_messages):
        assert "docs/protocol.md" in (module.__doc__ or "")
