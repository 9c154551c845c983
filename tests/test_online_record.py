"""An online match played to its end is kept in the player's own results log, from the seat that
player played, once; what it earned is said once, after the result line.

Against a real ``scopa serve`` (the ``serve`` fixture, ``tests/conftest.py``) with ``RemoteTable`` clients, and at
the console level with a finished match played here standing in for the server's record, so that
who wins is known."""
from __future__ import annotations

import random
import re
import threading
import time

from helpers.console import lines_of, program_for
from helpers.net import mover_of, started_pair, stored_record, until
from helpers.record import T
from scopa.engine import Phase, Rules
from scopa.match import MatchRecord, SeatSetup
from scopa.narration import Narrator
from scopa.net.client.client import RemoteTable, checked_record
from scopa.net.protocol.client_messages import CreateRoom, Hello, Join
from scopa.net.protocol.server_messages import ErrorMessage, MatchRecordMessage
from scopa.net.protocol.wire import RoomInfo, RoomSeat
from scopa.record.achievements import DEAL_ACHIEVEMENTS, earned
from scopa.record.console import log_online, page, run_review
from scopa.record.review import ReviewScript
from scopa.record.stats import all_facts
from scopa.storage import load_results, record_to_dict

WON_ONLINE = T("achievement.earned", name=T("achievement.won_online"))
TWO = (SeatSetup("Ann"), SeatSetup("Ben"))


def play_to_end(host: RemoteTable, guest: RemoteTable) -> None:
    """Each seat plays its first legal move on its turn, the host deals on, until both see the end."""
    def over(table: RemoteTable) -> bool:
        return table.view(table.seat).phase is Phase.MATCH_OVER

    while not (over(host) and over(guest)):
        if host.view(host.seat).phase is Phase.DEAL_OVER:
            assert host.next_deal(host.seat, host.latest()).accepted
        elif not over(host):
            mover = mover_of(host, guest)
            assert mover.submit(mover.seat, mover.view(mover.seat).legal_moves()[0], mover.latest()).accepted
        until(lambda: host.latest() == guest.latest() and host.view(0).phase == guest.view(1).phase)


def achievement_lines(out) -> list[str]:
    return [line for line in lines_of(out) if line.startswith("Achievement earned.")]


def test_an_online_match_is_logged_once_in_each_players_folder_from_their_own_seat(serve, tables, tmp_path):
    server = serve()
    host, guest = started_pair(server.url, tables)
    assert host.finished_record() is None  # not over: nothing is asked, nothing is given
    play_to_end(host, guest)
    view = host.view(0)
    for table, who in ((host, "ann"), (guest, "ben")):
        program, out, _ = program_for(tmp_path / who, "")
        earned = log_online(program, table)
        for line in earned:
            program.say(line)
        data = tmp_path / who / "data"
        [result] = load_results(data)
        assert (result.online, result.seat, result.players) == (True, table.seat, ("Ann", "Ben"))
        assert (result.winner, result.scores, result.assisted) == (view.winner, view.match_scores, False)
        [facts] = all_facts([result])
        side = table.seat  # two players: a side a seat
        assert facts.seat == table.seat and facts.scores[0] == view.match_scores[side]  # from this seat
        assert facts.won == (view.winner == side) and facts.online and facts.level == "people"
        lines = page(data, "en").lines
        assert lines[0] == T("stats.played.one", n=1, won=int(facts.won))  # scopa --stats counts it
        assert (WON_ONLINE in achievement_lines(out)) == facts.won
        # Told again (a replayed end, a client started afresh after the end): logged once.
        assert log_online(program, table) == []
        again = tables(server.url, Hello(table.code, table.key, 0))
        until(lambda again=again: again.has_view() and again.view(again.seat).phase is Phase.MATCH_OVER)
        assert log_online(program, again) == []
        assert len(load_results(data)) == 1 and page(data, "en").lines[0] == lines[0]


def test_a_player_who_left_before_the_end_logs_the_match_on_coming_back_after_it(serve, tables, tmp_path):
    server = serve("--grace", "0.3", "--turn-grace", "0.3")
    host, guest = started_pair(server.url, tables)
    key, code = guest.key, guest.code
    guest.close()  # a computer covers the seat after the grace, and the match ends without its player
    while host.view(0).phase is not Phase.MATCH_OVER:
        view = host.view(0)
        if not (view.is_my_turn and host.submit(0, view.legal_moves()[0], host.latest()).accepted):
            host.wait(0, host.latest(), timeout=5)
    back = tables(server.url, Hello(code, key, 0))
    until(lambda: back.has_view() and back.view(1).phase is Phase.MATCH_OVER)
    program, _, _ = program_for(tmp_path, "")
    log_online(program, back)
    [result] = load_results(tmp_path / "data")
    assert (result.online, result.seat, result.scores) == (True, 1, host.view(0).match_scores)


def covered_after_the_first_deal(url: str, tables) -> tuple[RemoteTable, Hello]:
    """A match to 11: both seats play the first deal themselves (their first legal move), then Ben
    drops as the second begins and a computer at the hard level covers his seat to the end while
    Ann plays on as before. Ann's table at the end, and the hello that takes Ben's seat back."""
    host = tables(url, CreateRoom("Ann", Rules(), ("human", "human"), "hard"))
    guest = tables(url, Join(host.code, "Ben"))
    guest.ready()
    until(lambda: host.room().seats[1] is not None and host.room().seats[1].ready)
    host.start()
    until(lambda: host.has_view() and guest.has_view() and host.latest() == guest.latest()
          and any(t.view(t.seat).is_my_turn for t in (host, guest)))
    while host.view(0).phase is not Phase.DEAL_OVER:
        mover = mover_of(host, guest)
        assert mover.submit(mover.seat, mover.view(mover.seat).legal_moves()[0], mover.latest()).accepted
        until(lambda: host.latest() == guest.latest())
    assert host.next_deal(0, host.latest()).accepted
    until(lambda: guest.view(1).deal_number == 2 and guest.view(1).phase is Phase.PLAYING)
    back = Hello(guest.code, guest.key, 0)
    guest.close()
    while (view := host.view(0)).phase is not Phase.MATCH_OVER:
        if view.phase is Phase.DEAL_OVER:
            assert host.next_deal(0, host.latest()).accepted
        elif not (view.is_my_turn and host.submit(0, view.legal_moves()[0], host.latest()).accepted):
            host.wait(0, host.latest(), timeout=5)
    return host, back


def test_a_player_covered_for_part_of_a_match_their_side_wins_earns_no_online_win_nor_deal_achievements_then(
        serve, tables, tmp_path):
    """Ben's deals that a computer played some of are assisted in Ben's log, so his win earns no
    "Won an online match" and those deals earn no deal achievement; Ann, never covered, logs the
    match exactly as the server keeps it."""
    server = serve("--grace", "0.3", "--turn-grace", "0.3")
    for _ in range(8):  # until Ben's side wins: the hard computer against first legal moves, nearly always
        host, back = covered_after_the_first_deal(server.url, tables)
        if host.view(0).winner == 1:
            break
        host.close()
    else:
        raise AssertionError("Ben never won")
    stored = stored_record(tmp_path / "rooms.sqlite3", host.code)
    deals = host.view(0).deal_number
    assert deals >= 2 and stored["assisted_deals"] == []  # nobody took a hint
    ben = tables(server.url, back)
    until(lambda: ben.has_view() and ben.view(1).phase is Phase.MATCH_OVER)
    logged = {}
    for table, who in ((host, "ann"), (ben, "ben")):
        program, out, _ = program_for(tmp_path / who, "")
        for line in log_online(program, table):
            program.say(line)
        [result] = load_results(tmp_path / who / "data")
        [facts] = all_facts([result])
        logged[who] = result, facts, achievement_lines(out)
    result, facts, said = logged["ben"]
    assert (result.seat, result.winner, facts.won) == (1, 1, True)
    assert result.assisted and result.match["assisted_deals"] == list(range(2, deals + 1))
    assert result.match == stored | {"assisted_deals": list(range(2, deals + 1))}  # nothing else changed
    assert [deal.assisted for deal in facts.deals] == [False] + [True] * (deals - 1)
    assert WON_ONLINE not in said
    first_deal = [key for key, condition in DEAL_ACHIEVEMENTS if condition(facts.deals[0])]
    assert [e.key for e in earned([facts])] == first_deal  # only what Ben's own first deal earned
    assert said == [T("achievement.earned", name=T(f"achievement.{key}")) for key in first_deal]
    result, facts, said = logged["ann"]
    assert (result.seat, result.winner, facts.won) == (0, 1, False)
    assert not result.assisted and result.match == stored  # as the server keeps it: nothing assisted
    assert not any(deal.assisted for deal in facts.deals)


def test_a_connection_dropped_at_the_end_is_taken_up_again_and_the_record_asked_again(serve, tables):
    server = serve()
    host, guest = started_pair(server.url, tables)
    play_to_end(host, guest)
    guest.backoff = (0.3,)
    guest._ws.close()  # the network drops the connection just as the match ends
    record = guest.finished_record()
    assert record is not None and record.state.match_scores == guest.view(1).match_scores
    assert guest.drops == 1


def finished(seed: int, winner: int | None = 0, assisted: bool = False) -> MatchRecord:
    """A single-deal match of two people, to its end, whose winner is ``winner`` (random legal moves)."""
    for attempt in range(seed, seed + 500):
        record, _ = MatchRecord.start(Rules(target=None), TWO, attempt)
        if assisted:
            record = record.mark_assisted()
        rng = random.Random(attempt)
        while not record.state.is_match_over:
            record = record.play(rng.choice(record.state.legal_moves()))[0]
        if record.state.winner == winner:
            return record
    raise AssertionError("no such match")


class ServerRecord:
    """An online table at the end of its match, as ``log_online`` reads it."""

    def __init__(self, record: MatchRecord, seat: int = 0, code: str = "ACDEFG") -> None:
        self.record, self.seat, self.code, self.server = record, seat, code, "ws://127.0.0.1:8765"

    def finished_record(self) -> MatchRecord | None:
        return self.record


def test_winning_an_online_match_is_announced_once_and_not_for_a_second_online_win(tmp_path):
    program, out, _ = program_for(tmp_path, "")
    first = finished(0)
    second = finished(first.seed + 1)
    for line in log_online(program, ServerRecord(first)):
        program.say(line)
    assert achievement_lines(out).count(WON_ONLINE) == 1
    for line in log_online(program, ServerRecord(second, code="CDEFGH")):
        program.say(line)
    assert achievement_lines(out).count(WON_ONLINE) == 1  # a second online win earns it no more
    assert [r.online for r in load_results(tmp_path / "data")] == [True, True]
    assert any(line.startswith(T("achievement.won_online")) for line in page(tmp_path / "data", "en").lines)


def test_an_online_win_with_a_hint_in_it_earns_nothing_and_a_loss_earns_no_online_win(tmp_path):
    program, out, _ = program_for(tmp_path, "")
    for line in log_online(program, ServerRecord(finished(0, assisted=True))):
        program.say(line)
    for line in log_online(program, ServerRecord(finished(0, winner=1), code="CDEFGH")):
        program.say(line)
    assert WON_ONLINE not in achievement_lines(out)
    assert [r.assisted for r in load_results(tmp_path / "data")] == [True, False]


def test_a_record_that_is_not_this_seats_match_is_not_kept():
    """A server's record is checked as a match file is, and against what the seat saw end."""
    record = finished(0)
    room = RoomInfo("ACDEFG", "over", record.rules, (RoomSeat("Ann"), RoomSeat("Ben")))
    view = record.state.view(1)
    assert checked_record(record_to_dict(record), room, view) is not None
    other = finished(record.seed + 1, winner=1)
    assert checked_record(record_to_dict(other), room, view) is None  # another match's end
    renamed = RoomInfo("ACDEFG", "over", record.rules, (RoomSeat("Ann"), RoomSeat("Cid")))
    assert checked_record(record_to_dict(record), renamed, view) is None
    # The deals a computer played some of this seat in are assisted in its record; a deal past
    # the match's last is not this match's.
    assert checked_record(record_to_dict(record), room, view, frozenset({1})).assisted_deals == frozenset({1})
    assert checked_record(record_to_dict(record), room, view, frozenset({2})) is None
    broken = record_to_dict(record) | {"moves": "many"}
    assert checked_record(broken, room, view) is None and checked_record({}, room, view) is None


def test_the_review_of_an_online_match_tells_it_from_the_players_own_seat_and_coaches_only_it(tmp_path):
    program, out, _ = program_for(tmp_path, "\n" * 6 + "esc\n")
    record = finished(0, winner=1)
    log_online(program, ServerRecord(record, seat=1))
    assert run_review(program, 1) == 0
    told = [line for line in lines_of(out)
            if re.match(r"^(Your scopa! |Scopa for \w+! )?(You play |Ann plays |Ann's |Ben plays |Ben's )", line)]
    first = record.moves[0].seat
    assert told and told[0].startswith(("You play ",) if first == 1 else ("Ann plays ", "Ann's "))
    assert not any(line.startswith(("Ben plays ", "Ben's ")) for line in told)
    [result] = load_results(tmp_path / "data")
    script = ReviewScript(record, Narrator(["Ann", "Ben"], record.rules, you=1), T, samples=4,
                          coached=(result.seat,))
    assert {advice.seat for advice in script.advice(0).values()} == {1}


def answered_by(answer) -> RemoteTable:
    """A table at the end of a match whose server answers ``record`` with ``answer(request)``, read
    by the table's own message handling a moment later (as its reader thread would)."""
    record = finished(0)
    table = RemoteTable("ws://127.0.0.1:9", Join("ACDEFG", "Ann"))
    table._room = RoomInfo("ACDEFG", "over", record.rules, (RoomSeat("Ann"), RoomSeat("Ben")))
    table._view, table.connected = record.state.view(0), True

    def send(message) -> bool:
        threading.Timer(0.05, table._handle, [answer(message, record)]).start()
        return True

    table._send = send
    return table


def test_an_older_server_or_a_malformed_record_logs_nothing_says_nothing_and_waits_no_longer():
    older = answered_by(lambda message, record: ErrorMessage("unknown_type", {}))
    began = time.monotonic()
    assert older.finished_record(timeout=10) is None
    assert time.monotonic() - began < 5 and older.take_errors() == []  # not said as a refusal
    malformed = answered_by(lambda message, record: MatchRecordMessage(message.id, {"seed": "x"}))
    assert malformed.finished_record(timeout=10) is None
    sound = answered_by(lambda message, record: MatchRecordMessage(message.id, record_to_dict(record)))
    assert sound.finished_record(timeout=10) is not None
