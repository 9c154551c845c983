"""``scopa quick``, ``scopa tables`` and the invite link in pseudo-terminals, against a real
``scopa serve`` on loopback (issue 28): what a blind player types and reads."""
from __future__ import annotations

import re

import pytest

from helpers.net import Client
from helpers.online_pty import assert_prompts_said_once, final_scores, hosted, play, played_to_the_end, player, text
from scopa.engine import Rules
from scopa.net.client.invite import invite_link, parse_invite
from scopa.net.protocol.client_messages import CreateRoom

pytestmark = pytest.mark.linux  # the real program in a pty

pexpect = pytest.importorskip("pexpect")

pytestmark = pytest.mark.slow


def test_two_people_typing_scopa_quick_play_each_other(serve, tmp_path):
    server = serve("--quick-wait", "60")
    ann = player(tmp_path, "ann", "quick", "--server", server.url, "--name", "Ann", "--target", "single")
    ann.expect(r"Quick match\. Looking for players\.")
    ann.expect(r"Waiting, 1 of 2 players here\.")
    ben = player(tmp_path, "ben", "quick", "--server", server.url, "--name", "Ben", "--target", "single")
    ann.expect(r"Ben joined the table\.")
    ann.expect(r"Waiting, 2 of 2 players here\.")
    played_to_the_end([ann, ben])
    assert final_scores(ann) == final_scores(ben)
    for child in (ann, ben):
        assert "Ready?" not in text(child) and "Start?" not in text(child)  # nobody is asked: the server starts
        assert_prompts_said_once(child)
        assert "Traceback" not in text(child)


def test_one_person_alone_is_given_a_computer_after_the_wait_and_can_leave_with_escape(serve, tmp_path):
    server = serve("--quick-wait", "1")
    ann = player(tmp_path, "ann", "quick", "--server", server.url, "--name", "Ann", "--target", "single",
                 "--level", "hard")
    ann.expect(r"Waiting, 1 of 2 players here\.")
    play([ann])
    ann.close()
    assert ann.exitstatus == 0 and final_scores(ann)
    other = serve("--quick-wait", "600", db=tmp_path / "other.sqlite3")
    waiting = player(tmp_path, "cleo", "quick", "--server", other.url, "--name", "Cleo")
    waiting.expect(r"Escape leaves\.")
    waiting.expect(r"Waiting\?")
    waiting.send("\x1b")
    waiting.expect(r"You left the quick match\.")
    waiting.expect(pexpect.EOF)


def test_a_public_room_is_listed_and_joined_by_its_number(serve, tmp_path):
    server = serve()
    Client(server.url).send(CreateRoom("Eve", Rules(), ("human", "human")))  # private: never listed
    host, code = hosted(tmp_path, server.url, "--public", "--players", "3", "--level", "easy")
    guest = player(tmp_path, "guest", "tables", "--server", server.url, "--name", "Ben")
    guest.expect(r"Open tables\. Type a number to join that room\.")
    guest.expect(rf"1, Ann, 3 players, scopa, a single deal, 2 seats free, code {code}\.\r?\n")
    guest.expect(r"Choice\?")
    guest.send("1")
    guest.expect(rf"You are in room {code}, seat 2\.")
    host.expect(r"Ben joined the table\.")
    empty = player(tmp_path, "nobody", "tables", "--server", serve(db=tmp_path / "empty.sqlite3").url)
    empty.expect(r"No open tables now\. scopa quick finds you a match, with the people waiting, or with computers "
                 r"if nobody comes within its wait\.")
    empty.expect(pexpect.EOF)
    host.close(), guest.close()


def test_the_invite_link_the_host_prints_joins_with_no_server_given(serve, tmp_path):
    server = serve()
    host, code = hosted(tmp_path, server.url)
    host.expect(r"Invite link, on the next line, to copy and share\.\r?\n(\S+)\r?\n")
    link = host.match.group(1)  # alone on its line, with a full stop, which ends it for a screen reader
    assert link == f"{server.url}/{code}."  # (without it Orca ran on: "... slash K7MQ3T Waiting?")
    guest = player(tmp_path, "guest", "join", link, "--name", "Ben")  # copied whole; no --server, no saved server
    guest.expect(rf"You are in room {code}, seat 2\.")
    guest.expect(r"Ready\?")
    guest.send("\r")
    host.expect(r"Ben is ready\.")
    play([host, guest])
    assert final_scores(host) == final_scores(guest)


def test_invite_links_are_read_whole_and_anything_else_is_not_one():
    assert parse_invite(invite_link("ws://127.0.0.1:8765", "K7MQ3T")) == ("ws://127.0.0.1:8765", "K7MQ3T")
    assert parse_invite(invite_link("ws://127.0.0.1:8765", "K7MQ3T") + ".") == ("ws://127.0.0.1:8765", "K7MQ3T")
    assert parse_invite("scopa://example.org:8765/k7m-q3t") == ("ws://example.org:8765", "K7MQ3T")
    assert parse_invite("wss://example.org/scopa/K7MQ3T/") == ("wss://example.org/scopa", "K7MQ3T")
    assert parse_invite("scopas://example.org/K7MQ3T") == ("wss://example.org", "K7MQ3T")
    for text_ in ("K7MQ3T", "http://example.org/K7MQ3T", "ws://example.org", "ws://example.org/K7MQ3",
                  "ws:///K7MQ3T", "ws://example.org:99999/K7MQ3T", "ws://example.org/K7MQ3T?x=1", ""):
        assert parse_invite(text_) is None, text_
    assert re.fullmatch(r"ws://[^/]+/\w{6}", invite_link("ws://h:1/", "K7MQ3T"))
