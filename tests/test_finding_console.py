"""The open tables as the console reads them: one room per line, host first, paged (issue 28)."""
from __future__ import annotations

import pytest

from helpers.console import program_for
from scopa.console.finding import ask_rules, table_row
from scopa.console.menus import MenuPages
from scopa.engine import Rules, Variant
from scopa.narration import Messages
from scopa.net.protocol.server_messages import OpenTable


def test_a_room_is_one_line_host_first_in_both_languages():
    room = OpenTable("K7MQ3T", "Ann", Rules(players=3, target=11), 1)
    assert table_row(room, Messages("en")) == "Ann, 3 players, scopa, 11 points, 1 seat free, code K7MQ3T"
    assert table_row(room, Messages("it")).startswith("Ann, 3 giocatori")
    four = OpenTable("PQR4XY", "Carla", Rules(players=4, variant=Variant("scopone_scientifico"), target=None), 2)
    assert "2 seats free" in table_row(four, Messages("en")) and "posti liberi" in table_row(four, Messages("it"))


def test_the_list_is_one_room_per_line_and_paged_on_a_small_terminal():
    m = Messages("en")
    rows = [table_row(OpenTable("K7MQ3T", f"Host {n}", Rules(), 1), m) for n in range(12)]
    menu = MenuPages("Open tables.", rows, [str(i + 1) for i in range(12)], m, (80, 8), rows=True)
    assert menu.paged
    first = [a.text for a in menu.lines(typed=True)]
    assert first[0] == "Open tables." and first[1] == f"1, {rows[0]}." and first[2] == f"2, {rows[1]}."
    assert first[-1].startswith("Page 1 of")
    shown = sum(len(page) for page in menu.pages)
    assert shown == 12 and all(len(page) <= 4 for page in menu.pages)
    whole = MenuPages("Open tables.", rows, [str(i + 1) for i in range(12)], m, None, rows=True)
    assert len(whole.lines(typed=True)) == 1 + 12 + 1  # the title, a line a room, the hint


def test_the_quick_match_count_is_said_in_both_languages():
    from scopa.console.online import waiting_line
    from scopa.net.protocol.wire import RoomInfo, RoomSeat
    room = RoomInfo("K7MQ3T", "lobby", Rules(players=4), (RoomSeat("Ann"), None, RoomSeat("Ben"), None))
    assert waiting_line(room, Messages("en")) == "Waiting, 2 of 4 players here."
    assert waiting_line(room, Messages("it")) == "In attesa, 2 su 4 al tavolo."


def test_any_text_is_read_as_a_link_or_not_without_an_error_and_every_link_reads_back():
    from hypothesis import given
    from hypothesis import strategies as st

    from scopa.net.client.invite import invite_link, parse_invite
    from scopa.net.protocol.codes import ALPHABET, CODE_LENGTH

    @given(st.text(max_size=80))
    def anything(text: str) -> None:
        found = parse_invite(text)
        assert found is None or (found[0].startswith(("ws://", "wss://")) and len(found[1]) == CODE_LENGTH)

    hosts = st.from_regex(r"[a-z][a-z0-9-]{0,20}(\.[a-z]{2,5})?", fullmatch=True)

    @given(st.sampled_from(["ws", "wss"]), hosts, st.integers(1, 65535), st.text(ALPHABET, min_size=6, max_size=6))
    def round_trip(scheme: str, host: str, port: int, code: str) -> None:
        server = f"{scheme}://{host}:{port}"
        assert parse_invite(invite_link(server, code)) == (server, code)

    anything()
    round_trip()


@pytest.mark.parametrize("keys, variant, target", [("\n\n", "scopa", 11), ("\n2\n\n", "scopa_15", 11),
                                                   ("\n3\n", "cirulla", 51), ("4\n2\n\n", "scopone_scientifico", 21)])
def test_the_menus_quick_match_asks_the_game_as_hosting_does(tmp_path, keys, variant, target):
    """Issue 32: quick match offers the variants, from the menu as with scopa quick --variant."""
    program, out, _ = program_for(tmp_path, keys + "\n\n\n")
    rules = ask_rules(program)
    assert rules is not None and rules.variant.value == variant and rules.target == target
    assert Messages("en")("setup.variant.scopa_15") in out.getvalue()
