"""Online rooms and the variants (issue 32), on a real ``scopa serve`` over loopback: a room of
Scopa a 15 with win by two is played to its end, and what the server cannot yet play is refused."""
from __future__ import annotations

import pytest

from scopa.engine import OpeningTableTaken, Rules, parse_cards
from scopa.net.messages import CreateRoom, ErrorMessage, Welcome, decode_event, encode_event
from test_net_server import Client, Server, host, join, play_out, start, stored_record


@pytest.fixture
def serve(tmp_path):
    """serve() starts ``scopa serve`` on a free loopback port (stopped after the test)."""
    started: list[Server] = []

    def begin() -> Server:
        server = Server(tmp_path / "rooms.sqlite3")
        started.append(server)
        return server

    yield begin
    for server in started:
        server.stop()


def test_a_room_of_scopa_a_15_with_win_by_two_is_played_to_its_end(serve, tmp_path):
    server = serve()
    rules = Rules.scopa_15(win_by_two=True)
    ann = host(server.url, rules)
    bob = join(server.url, ann.code)
    start(ann, bob)
    assert ann.view.rules == bob.view.rules == rules
    play_out([ann, bob], ann, timeout=120)
    scores = ann.view.match_scores
    assert ann.view.phase.value == "match_over" and bob.view.match_scores == scores
    assert max(scores) >= 11 and abs(scores[0] - scores[1]) >= 2  # won by two
    record = stored_record(tmp_path / "rooms.sqlite3", ann.code)
    assert record["rules"]["variant"] == "scopa_15" and record["rules"]["win_by_two"] is True


def test_the_first_table_taken_crosses_the_wire():
    event = OpeningTableTaken(1, 1, parse_cards(["AC", "2S", "4S", "JH"]), 1)
    assert decode_event(encode_event(event), Rules.scopa_15()) == event


@pytest.mark.parametrize("rules", [Rules.cirulla(), Rules(a_perdere=True, target=None, players=3)])
def test_a_room_the_server_checks(serve, rules):
    server = serve()
    client = Client(server.url)
    client.send(CreateRoom("Ann", rules, ("human",) * rules.players, "easy"))
    answer = client.until(lambda m: isinstance(m, (ErrorMessage, Welcome)))
    if rules.variant.value == "cirulla":  # not online yet: refused, with the field named
        assert isinstance(answer, ErrorMessage) and answer.code == "bad_rules"
    else:  # scopa a perdere is played online like any other rules
        assert isinstance(answer, Welcome)
    client.close()

