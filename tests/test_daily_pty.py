"""``scopa daily`` in a pseudo-terminal against a real ``scopa serve`` on loopback (issue 29):
a whole short daily match, its duplicate score and place heard, a second run heard as practice."""
from __future__ import annotations

import re

import pytest

from helpers.daily import play_deal
from helpers.online_pty import assert_prompts_said_once, play, player, text
from helpers.redis import free_port

pytestmark = pytest.mark.linux  # the real program in a pty

pexpect = pytest.importorskip("pexpect")

pytestmark = pytest.mark.slow

BEN = "b" * 64
SCORE = r"(?:\d+ (?:over|under) par|level with par)"


FAST = ("--daily-deals", "2", "--computer-budget", "0.01", "--daily-par-samples", "2", "--computer-workers", "0",
        "--daily-trusted-players")


def test_scopa_daily_plays_the_days_deals_and_says_the_score_and_place(serve, tmp_path):
    port = str(free_port())  # the same address the next day: what a player heard is kept by server address
    server = serve(*FAST, "--daily-date", "2030-01-01", "--port", port)
    for deal in (1, 2):  # Ben, a scripted client with a key of his own, plays the day's deals first
        play_deal(server.url, "Ben", BEN, deal)
    ann = player(tmp_path, "ann", "daily", "--server", server.url, "--name", "Ann")
    ann.expect(r"Daily deal\. 2 deals against the expert, the same for everyone today\.")
    ann.expect(r"Deal 1 of 2\.")
    play([ann], seconds=90)
    ann.close()
    said = text(ann)
    assert ann.exitstatus == 0, said[-2000:]
    later_line = "Shuffle not checked yet. Its seed is told once the day is over, and the next scopa daily checks it."
    assert "Deal 2 of 2." in said and said.count(later_line) == 2  # no deal's seed before the day's board closed
    assert "Shuffle checked, fair." not in said
    assert "Ann joined the table." not in said  # her own seat: never told her as news
    assert re.search(rf"Your score today, {SCORE}\.", said), said[-2000:]
    board = re.search(rf"1st, (Ann|Ben), {SCORE}\.\s+2nd, (Ann|Ben), {SCORE}\.\s+"
                      rf"You are (1st|2nd) of 2, {SCORE}\.", said)
    assert board and {board.group(1), board.group(2)} == {"Ann", "Ben"}, said[-2000:]
    assert board.group(3) == ("1st" if board.group(1) == "Ann" else "2nd")
    assert re.search(rf"Your best deal, {SCORE}, deal [12]\. Your worst, {SCORE}, deal [12]\.", said)
    assert_prompts_said_once(ann)
    assert "Traceback" not in said
    again = player(tmp_path, "ann", "daily", "--server", server.url, "--name", "Ann")  # the same key: practice
    again.expect(r"You have played today's deals, so these are practice, not on the board\.")
    play([again], seconds=90)
    again.close()
    assert re.search(rf"Practice, {SCORE}\. Only your first try of each deal counts\.", text(again))
    assert "Traceback" not in text(again)
    server.stop()
    later = serve(*FAST, "--daily-date", "2030-01-02", "--port", port, db=tmp_path / "rooms.sqlite3")  # next day
    after = player(tmp_path, "ann", "daily", "--server", later.url, "--name", "Ann")
    after.expect(r"Daily deal of 2030-01-01 checked, fair\.")  # the day seed revealed, checked by the client
    after.expect(r"Deal 1 of 2\.")
    after.close(force=True)


def test_scopa_daily_across_midnight_goes_on_with_the_new_days_first_deal_and_says_each_day_alone(serve, tmp_path):
    """Midnight UTC passes while deal 1 is played: that deal plays on, as practice (it ended once
    its day's seeds were told, issue 37), and its shuffle is checked at once; the day's deal 2 is
    closed (its seed is revealed at midnight) and the new day's deal 2 is not the run's second
    deal: the run says so and plays the new day from its deal 1; its summary says the day before
    on its own, named, and today's score of today's deals only."""
    import sqlite3
    clock = tmp_path / "today"  # the server's day, read at each request
    clock.write_text("2030-01-01")
    server = serve(*FAST, "--daily-date-file", str(clock))
    ann = player(tmp_path, "ann", "daily", "--server", server.url, "--name", "Ann")
    ann.expect(r"Deal 1 of 2\.")  # its room is made
    clock.write_text("2030-01-02")  # midnight, during deal 1
    play([ann], seconds=120)
    ann.close()
    said = text(ann)
    assert ann.exitstatus == 0, said[-2000:]
    assert "Traceback" not in said
    turned = said.index("New day. Yesterday's deals are closed. Today's start at deal 1.")
    assert said.count("Deal 2 of 2.") == 1 and said.index("Deal 2 of 2.") > turned  # never the new day's as deal 2
    assert said.count("Deal 1 of 2.") == 2 and said.count("Shuffle checked, fair.") == 1  # the closed day's deal
    assert said.count("Shuffle not checked yet. Its seed is told once the day is over") == 2  # today's two
    assert said.index("Daily deal of 2030-01-01 checked, fair.") > turned  # the closed day, revealed, checked now
    with sqlite3.connect(tmp_path / "rooms.sqlite3") as db:
        kept = {(day, deal): points - par for day, deal, points, par in db.execute(
            "SELECT day, deal, points, par FROM daily_results")}
        counted = sorted(db.execute("SELECT day, deal FROM daily_results WHERE counted = 1"))
    assert sorted(kept) == [("2030-01-01", 1), ("2030-01-02", 1), ("2030-01-02", 2)]  # each deal on its own day
    assert counted == [("2030-01-02", 1), ("2030-01-02", 2)]  # the one ended after its day counts for nothing
    before = re.search(rf"Daily deal of 2030-01-01, 1 of 2 deals played, ({SCORE})\. Not on that day's board\.", said)
    today = re.search(rf"Your score today, ({SCORE})\.\s+1st, Ann, ({SCORE})\.\s+You are 1st of 1, ({SCORE})\.", said)
    assert before and today, said[-2000:]
    assert before.start() > said.rindex("Shuffle checked, fair.") and today.start() > before.start()

    def words(score: int) -> str:
        return f"{score} over par" if score > 0 else f"{-score} under par" if score < 0 else "level with par"
    assert before.group(1) == words(kept[("2030-01-01", 1)])
    assert today.group(1) == today.group(2) == words(kept[("2030-01-02", 1)] + kept[("2030-01-02", 2)])
    assert_prompts_said_once(ann)
