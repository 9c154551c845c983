"""Issue 37, points 5 and 6: the daily deal attacked by a clever player, on real servers over
loopback (both stores). A room's record told its seed at the end, so one key played the day's
deals badly to learn them and a fresh key replayed them knowing every card, ranking first. The
record of a daily room is now told only once its day is over, a key ranks from its second daily
day, and a room that ends after its day (its seeds told by then) counts for nothing."""
from __future__ import annotations

import secrets

from helpers.daily import play_deal
from scopa.net.protocol.client_messages import RecordRequest
from scopa.net.protocol.server_messages import MatchRecordMessage, Refused
from test_net_daily import DAY, NEXT, SAMPLES, ask

STRICT = ("--computer-budget", "0.01", "--daily-par-samples", SAMPLES, "--computer-workers", "0",
          "--daily-deals", "1")  # the server's own rules: no --daily-trusted-players


def test_a_daily_rooms_record_and_seed_are_told_only_once_its_day_is_over(store, tmp_path):
    clock = tmp_path / "today"
    clock.write_text(DAY)
    server = store.serve(*STRICT, "--daily-date-file", str(clock))
    client, _ = play_deal(server.url, "Ann", secrets.token_hex(32), 1, day=DAY)
    client.send(RecordRequest(7))
    answer = client.until(lambda m: isinstance(m, (MatchRecordMessage, Refused)))
    assert isinstance(answer, Refused) and answer.kind == "not_now"  # the deal's seed: not on its day
    clock.write_text(NEXT)  # the day's board has closed
    client.send(RecordRequest(8))
    answer = client.until(lambda m: isinstance(m, (MatchRecordMessage, Refused)))
    assert isinstance(answer, MatchRecordMessage) and "fairness" in answer.record


def test_a_key_made_on_the_day_does_not_rank_that_day_and_ranks_from_the_next(store, tmp_path):
    clock = tmp_path / "today"
    clock.write_text(DAY)
    server = store.serve(*STRICT, "--daily-date-file", str(clock))
    learner, fresh = secrets.token_hex(32), secrets.token_hex(32)
    play_deal(server.url, "Ann", learner, 1, day=DAY, last=True)  # played badly, to learn the deal
    play_deal(server.url, "Fresh", fresh, 1, day=DAY)  # a key made now, replaying what it learnt
    today = ask(server.url, DAY, fresh)
    assert today.rows == () and today.you is None  # neither key ranks on its first day
    assert [(p.deal, p.practice) for p in today.played] == [(1, False)]  # its result is kept, not ranked
    clock.write_text(NEXT)
    play_deal(server.url, "Fresh", fresh, 1, day=NEXT)
    tomorrow = ask(server.url, NEXT, fresh)
    assert [row.name for row in tomorrow.rows] == ["Fresh"] and tomorrow.you is not None  # its second day


def test_a_key_that_replays_a_deal_another_key_played_from_its_address_does_not_rank(store, tmp_path):
    """One address plays the deal under Ann, then under Eve, a key of two days' standing: Eve's
    result is kept, and she is on no board that day; Ann, who played it first, ranks."""
    clock = tmp_path / "today"
    clock.write_text(DAY)
    server = store.serve(*STRICT, "--daily-date-file", str(clock))
    ann, eve = secrets.token_hex(32), secrets.token_hex(32)
    for key, name in ((ann, "Ann"), (eve, "Eve")):  # both keys play a first day: they rank from the next
        play_deal(server.url, name, key, 1, day=DAY)
    clock.write_text(NEXT)
    play_deal(server.url, "Ann", ann, 1, day=NEXT, last=True)  # learns the deal
    play_deal(server.url, "Eve", eve, 1, day=NEXT)  # the same address, another name
    board = ask(server.url, NEXT, eve)
    assert [row.name for row in board.rows] == ["Ann"] and board.you is None
    assert [(p.deal, p.practice) for p in board.played] == [(1, False)]


def test_one_counted_try_a_key_a_day_a_second_room_begun_while_the_first_is_open_is_practice(store, tmp_path):
    """A key opens deal 1, sees its hand and the table, and leaves that room open; it begins the same
    deal again and plays it knowing both: the second room is practice, only the first one counts."""
    from helpers.net import Client
    from scopa.net.protocol.client_messages import DailyDeal
    from scopa.net.protocol.server_messages import Welcome
    clock = tmp_path / "today"
    clock.write_text(DAY)
    server = store.serve(*STRICT, "--daily-date-file", str(clock))
    key = secrets.token_hex(32)
    looking = Client(server.url)
    looking.send(DailyDeal("Ann", 1, key, DAY))
    assert isinstance(looking.until(lambda m: isinstance(m, Welcome)), Welcome)  # its hand and the table, seen
    play_deal(server.url, "Ann", key, 1, day=DAY)
    assert [(p.deal, p.practice) for p in ask(server.url, DAY, key).played] == [(1, True)]
