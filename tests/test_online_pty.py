"""``scopa host`` and ``scopa join`` in pseudo-terminals, played by keys against a real ``scopa serve``.

Each test starts the server on a loopback port (the ``serve`` fixture, ``tests/conftest.py``) and drives the real
clients: a whole two-player match, a four-seat room with two computers, a player whose client
is killed and who takes the seat back with ``scopa join CODE``, and the one-line refusals."""
from __future__ import annotations

import io
import random
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from helpers.net import SlowNetwork, play_out, reclaim
from helpers.net import host as socket_host
from helpers.net import join as socket_join
from helpers.net import start as socket_start
from helpers.online_pty import (
    RESULT,
    SERVER_FLAGS,
    assert_prompts_said_once,
    final_scores,
    hosted,
    joined,
    menu_player,
    play,
    played_to_the_end,
    player,
    press,
    started_waiter_and_mover,
    text,
)
from scopa.console.announcer import Announcer
from scopa.console.online import room_code_line
from scopa.console.terminal import Output
from scopa.engine import Rules
from scopa.narration import Messages
from scopa.net.protocol.client_messages import Ready as ReadyMessage
from scopa.speech import RecordingSpeaker
from scopa.storage import load_results
from scopa.storage.seat_keys import SeatKey, SeatKeyStore

pytestmark = pytest.mark.linux  # the real program in a pty, SIGKILL

pexpect = pytest.importorskip("pexpect")

pytestmark = pytest.mark.slow

def test_the_room_code_is_shown_whole_and_spoken_character_by_character():
    speaker = RecordingSpeaker()
    out = io.StringIO()
    Announcer(Output(out), speaker).say([room_code_line("K7MQ3T", Messages("en"))])
    assert out.getvalue() == "Room code K7MQ3T. K, 7, M, Q, 3, T.\n"
    assert speaker.said == ["Room code K, 7, M, Q, 3, T."]
    assert Messages("it")("online.room_code.spoken", spelt="K, 7").startswith("Codice della stanza")


def test_two_players_in_two_terminals_play_a_whole_match(serve, tmp_path):
    server = serve(*SERVER_FLAGS)
    host, code = hosted(tmp_path, server.url)
    guest = joined(tmp_path, server.url, code)
    host.expect(r"Ben joined the table\.")
    host.expect(r"Ben is ready\.")
    played_to_the_end([host, guest])
    assert final_scores(host) == final_scores(guest)  # the same match, seen from both seats
    assert text(host).count("Start?") == 1  # not asked again between "The match starts." and the deal
    for child, me in ((host, "Ann"), (guest, "Ben")):
        assert_prompts_said_once(child)
        seen = text(child)
        assert seen.count("Card?") >= 17 and "Traceback" not in seen  # short: no "Your turn.", the hand and Card?
        assert RESULT.search(seen)
        assert f"{me} plays" not in seen  # nor told back their own plays by name
        assert seen.count("Shuffle checked, fair.") == 1  # its own check of the shuffle (docs/fairness.md),
        assert seen.index("Shuffle checked, fair.") > RESULT.search(seen).start()  # after the result line
        # both hear their new rating (their player keys were sent with create_room and join; issue 29)
        assert re.search(r"You are (1st|2nd) of 2, rating (minus )?[0-9]+( point [0-9])?\.", seen), seen[-400:]
    assert "You are in room " + code in text(guest)
    assert SeatKeyStore(tmp_path / "guest" / "data").load(server.url, code) is None  # over: the key is dropped
    assert_logged_in_each_folder(tmp_path, {"host": host, "guest": guest}, final_scores(host))


WON_ONLINE = "Achievement earned. Won an online match."


def assert_logged_in_each_folder(tmp_path: Path, children: dict, scores: list[int]) -> None:
    """Each player's own results log has the match once, online, from their own seat; the winner
    hears the achievement after the result line, once; ``scopa --stats`` counts it."""
    for seat, (who, child) in enumerate(children.items()):
        [result] = load_results(tmp_path / who / "data")
        assert (result.online, result.seat, result.players) == (True, seat, ("Ann", "Ben"))
        assert list(result.scores) == scores
        won = result.winner == seat
        seen = text(child)
        assert seen.count(WON_ONLINE) == int(won)
        if won:
            assert seen.index(WON_ONLINE) > RESULT.search(seen).start()  # after the result line
        stats = subprocess.run([sys.executable, "-m", "scopa", "--stats", "--lang", "en", "--data-dir",
                                str(tmp_path / who / "data"), "--config-dir", str(tmp_path / who / "config")],
                               capture_output=True, text=True, timeout=60, check=False)
        assert stats.stdout.splitlines()[0] == f"1 match played, {int(won)} won.", stats.stdout


def test_four_seats_two_of_them_computers_play_a_whole_match(serve, tmp_path):
    server = serve(*SERVER_FLAGS)
    host = player(tmp_path, "host", "host", "--server", server.url, "--name", "Ann", "--target", "single",
                  "--players", "4")
    host.expect(r"Computer level for seats nobody takes\? Enter for easy\.")
    host.expect(r"Choice\?")
    host.send("3")  # medium
    host.expect(r"Room code (\w{6})\.")
    code = host.match.group(1)
    guest = joined(tmp_path, server.url, code, "--plain")  # line mode, as under TERM=dumb
    host.expect(r"Start\?")
    host.send(":table\r")  # any key but Enter says who sits where, and the level of the computers to come
    host.expect(r"Seat 3 is free\.")
    host.expect(r"Seats nobody takes are played by computers at level medium\.")
    host.expect(r"Start\?")
    host.send("\r")
    played_to_the_end([host, guest])
    for child in (host, guest):
        seen = text(child)
        assert RESULT.search(seen), seen[-1500:]
        assert seen.count("Card?") >= 8
        assert "Shuffle checked, fair." in seen
        assert re.search(r"The match starts\.", seen)


def test_a_killed_client_is_covered_and_its_player_reclaims_the_seat_with_join_code(serve, tmp_path):
    server = serve(*SERVER_FLAGS)
    host, code = hosted(tmp_path, server.url)
    guest = joined(tmp_path, server.url, code)
    turns = {"n": 0}

    def a_few_turns() -> bool:
        turns["n"] = text(guest).count("Card?")
        return turns["n"] >= 3

    play([host, guest], until=a_few_turns)
    guest.kill(signal.SIGKILL)
    guest.close(force=True)
    host.expect(r"Ben left the table\.")
    host.expect(r"Ben is away\. A computer plays for now\.")
    # the seat's name: no question
    back = player(tmp_path, "guest", "join", code, "--server", server.url, "--name", "Ben")
    back.expect(r"Back in room " + code + r", seat 2\.")
    host.expect(r"Ben is back\.")
    back.expect(r"Back at the table\. Deal 1\.")  # then the plays since the seat last played, the table
    assert_prompts_said_once(host)  # the notices came while the host was at a prompt
    play([host, back], until=lambda: text(back).count("Card?") >= 3)  # two turns played since coming back
    assert SeatKeyStore(tmp_path / "guest" / "data").load(server.url, code) is not None  # still the seat's key
    for child in (host, back):
        child.terminate(force=True)
    assert "Traceback" not in text(back) + text(host)


def test_b_in_a_client_started_afresh_says_the_sheet_of_the_deal_that_ended_before(serve, tmp_path):
    """Ben's client is gone after the first deal (a crash, another terminal): ``scopa join CODE``
    takes the seat back, and B says the first deal's score sheet, as at the table before."""
    server = serve(*SERVER_FLAGS)
    ann = socket_host(server.url, Rules(target=21))
    ben = socket_join(server.url, ann.code, name="Ben")
    socket_start(ann, ben)
    play_out([ann, ben], ann, stop=lambda: ann.view.deal_number == 2 and ben.number == ann.number)
    scores = ann.view.match_scores
    SeatKeyStore(tmp_path / "guest" / "data").save(SeatKey(server.url, ann.code, ben.key, ben.seat, "Ben"))
    back = player(tmp_path, "guest", "join", ann.code, "--server", server.url, "--name", "Ben")
    back.expect(r"Back in room " + ann.code + r", seat 2\.")
    back.expect(r"Card\?|Waiting\?")
    back.send("b")
    back.expect(r"Deal 1 score\.")
    back.expect(r"Deal points\. Ann (\d+), you (\d+)\.")
    assert [int(back.match.group(1)), int(back.match.group(2))] == list(scores)  # the first deal's points
    back.expect(r"Match\. Ann \d+, you \d+\. Playing to 21\.")
    back.terminate(force=True)
    assert "No deal has been scored yet" not in text(back) and "Traceback" not in text(back)


def test_an_unknown_code_a_full_room_and_a_wrong_seat_key_are_one_line_each(serve, tmp_path):
    server = serve(*SERVER_FLAGS)
    host, code = hosted(tmp_path, server.url)
    guest = joined(tmp_path, server.url, code)
    host.expect(r"Ben is ready\.")
    SeatKeyStore(tmp_path / "c" / "data").save(SeatKey(server.url, code, "x" * 32, 1, "Eve"))
    tries = {  # all at once: each is its own program, refused with one line
        r"No room has this code\.": player(tmp_path, "a", "join", "ACDEFG", "--server", server.url),
        r"This room is full\.": player(tmp_path, "b", "join", code, "--server", server.url, "--name", "Cid"),
        r"The seat key is not this room's\.": player(tmp_path, "c", "join", code, "--server", server.url, "--name",
                                                     "Eve"),
        r"not a code is not a room code\.": player(tmp_path, "d", "join", "not a code", "--server", server.url),
        r"Cannot reach the server at ws://127\.0\.0\.1:9\.": player(tmp_path, "e", "join", code, "--server",
                                                                  "ws://127.0.0.1:9"),
    }
    for line, child in tries.items():
        child.expect(line)
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus in (1, 2) and "Traceback" not in text(child)
        assert len([row for row in text(child).splitlines() if row.strip()]) <= 2  # connecting, then why not
    for child in (host, guest):
        child.terminate(force=True)


def test_the_main_menu_joins_with_the_last_server_and_resumes_the_seat(serve, tmp_path):
    server = serve(*SERVER_FLAGS)
    host, code = hosted(tmp_path, server.url)
    menu = menu_player(tmp_path, server.url)
    menu.expect(r"4, play online\. 5, quick match\. 6, quit\.")
    menu.send("4\r")
    menu.expect(r"2, join a room with its code\. 3, quick match[\s\S]*4, open tables[\s\S]*5, daily deal"
                r"[\s\S]*6, see the leaderboard\.")
    menu.send("2\r")
    menu.expect(r"Enter for " + re.escape(server.url) + r"\.")
    menu.send("\r")
    menu.expect(r"Your name\? Enter for ")
    menu.send("Bea\r")
    menu.expect(r"Code\?")
    menu.send(code + "\r")
    menu.expect(r"You are in room " + code + r", seat 2\.")
    host.expect(r"Bea joined the table\.")
    menu.expect(r"Ready\?")
    menu.send("q\r")  # leave: the seat stays Bea's
    menu.expect(r"Leave the room\? Your seat stays yours")
    menu.expect(r"Leave\? ")
    menu.send("\r")
    menu.expect(r"You left the room\.")
    host.expect(r"Bea left the table\.")
    menu.expect(r"4, resume online match\. 5, play online\. 6, quick match\. 7, quit\.")
    menu.send("4\r")
    menu.expect(r"Back in room " + code + r", seat 2\.")
    host.expect(r"Bea is back\.")
    menu.expect(r"Ready\?")
    menu.send("q\r")
    menu.expect(r"Leave\? ")
    menu.send("\r")
    menu.expect(r"7, quit\.")
    menu.send("7\r")
    menu.expect(pexpect.EOF)
    menu.close()
    assert menu.exitstatus == 0
    host.terminate(force=True)


def test_keys_typed_the_instant_a_prompt_appears_in_a_storm_of_news_are_all_answered(serve, tmp_path):
    """A third player drops and comes back again and again, so news ends the prompts of both
    terminals all the time, while Ben presses Enter the instant each "Waiting?" appears. Every
    Enter is answered (the seats, once each), and both still hear the news that follows: no
    news arriving as a prompt closes stops a terminal hearing the room."""
    server = serve(*SERVER_FLAGS)
    host, code = hosted(tmp_path, server.url, "--players", "3", "--level", "easy")
    guest = joined(tmp_path, server.url, code)
    host.expect(r"Ben is ready\.")
    cid = [socket_join(server.url, code, "Cid", ready=False)]
    done = threading.Event()

    stormed: list[int] = []

    def storm() -> None:
        pause = random.Random(7)
        try:
            for _ in range(30):
                cid[0].ws.close_timeout = 0.02  # a dropped connection: no wait for the closing handshake
                cid[0].close()
                time.sleep(pause.uniform(0, 0.01))
                cid[0] = reclaim(server.url, cid[0], last=0)
                time.sleep(pause.uniform(0, 0.01))
                stormed.append(1)
        finally:
            done.set()

    threading.Thread(target=storm, daemon=True).start()
    guest.delaybeforesend = 0
    pressed = 0
    while not done.is_set():
        if guest.expect([r"Waiting\?", pexpect.TIMEOUT], timeout=0.05) == 0:
            guest.send("\r")
            pressed += 1
        host.expect([pexpect.TIMEOUT], timeout=0)  # keep reading the host's terminal
    assert len(stormed) == 30
    cid[0].send(ReadyMessage())
    for child in (host, guest):
        child.expect(r"Cid is ready\.")
    deadline = time.monotonic() + 10
    while text(guest).count("Seat 1, Ann, the host.") < pressed and time.monotonic() < deadline:
        guest.expect([pexpect.TIMEOUT], timeout=0.1)
    assert pressed > 10 and text(guest).count("Seat 1, Ann, the host.") == pressed
    for child in (host, guest):
        assert "Traceback" not in text(child)
        child.terminate(force=True)
    cid[0].close()


def test_the_start_of_a_match_is_said_once_in_order_by_both_players(serve, tmp_path):
    """The server sends the start as one burst: "started" (whose update already carries the dealt
    view), then the deal's events. A client that handed the console the view before the rest of
    the burst said the table and the hand, as to a seat taken back ("Back at the table."), and
    then the deal once more when its events came."""
    server = serve(*SERVER_FLAGS)
    host, guest, waiter, mover = started_waiter_and_mover(tmp_path, server.url)
    time.sleep(1.0)  # any late news of the start is said by now
    for child in (waiter, mover):
        child.expect([pexpect.TIMEOUT, pexpect.EOF], timeout=0.3)  # read all that is shown
        started = text(child)[text(child).index("The match starts."):]
        assert "Back at the table" not in started, started
        assert started.count("Deal 1.") == 1 and started.count("Three cards each.") == 1, started
    said = text(mover)
    assert said.index("Three cards each.") < said.index("Hand, ") < said.index("Card?"), said
    for child in (host, guest):
        child.terminate(force=True)


def test_waiting_is_said_only_when_asked_for_not_after_every_play(serve, tmp_path, monkeypatch):
    """Issue 30: "Waiting?" was printed, and read, after every play, a moment before the reply.
    With a wait too long for any reply to reach it, a whole match shows no "Waiting?" after the
    start, unless a key is pressed while another seat is to move: then the prompt comes at once,
    the key is answered, and Enter says whose turn it is."""
    monkeypatch.setenv("SCOPA_WAITING_DELAY", "600")
    server = serve(*SERVER_FLAGS)
    host, guest, waiter, mover = started_waiter_and_mover(tmp_path, server.url)
    press(waiter, "t")  # with no prompt open: a single key at Ann's terminal, a line at Ben's
    waiter.expect(r"Waiting\?")
    waiter.expect(r"Table, ")
    press(waiter, "\r")
    waiter.expect(r"Waiting for (Ann|Ben) to play\.")
    press(mover, "1")  # the Card? that play() would answer was read above
    played_to_the_end([host, guest], seconds=90)
    for child in (waiter, mover):
        seen = text(child)
        started = seen[seen.index("The match starts."):]
        # before: "Waiting?" after every one of their plays (as many as their Card?); now only
        # for a key: the two pressed above, and the few the harness types ahead of a prompt
        assert started.count("Card?") >= 17 and started.count("Waiting?") <= started.count("Card?") // 4, started
    assert re.search(r"Waiting for (Ann|Ben) to play\.", text(waiter))


def test_a_server_restarted_mid_match_is_said_once_and_the_match_is_played_to_its_end(serve, tmp_path):
    """The operator stops the server with SIGTERM (an upgrade) and starts it again on the same
    port and store: both terminals say so once, take the match up again and play it out."""
    import socket
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = serve(*SERVER_FLAGS, "--port", str(port))
    host, code = hosted(tmp_path, server.url)
    guest = joined(tmp_path, server.url, code)
    host.expect(r"Ben is ready\.")
    play([host, guest], until=lambda: text(host).count("Card?") + text(guest).count("Card?") >= 4)
    assert server.stop() == 0
    for child in (host, guest):
        child.expect(r"Server restarting\. Reconnecting, for up to five minutes\. Your seat stays yours\.")
    serve(*SERVER_FLAGS, "--port", str(port))
    for child in (host, guest):
        child.expect(r"Connected again\.")
    played_to_the_end([host, guest])
    assert final_scores(host) == final_scores(guest)
    for child in (host, guest):
        seen = text(child)
        assert seen.count("Server restarting.") == 1 and "Traceback" not in seen
        assert "The server is stopping" not in seen


def test_the_host_moves_a_player_with_the_move_menus_and_the_match_is_played_from_the_new_seat(serve, tmp_path):
    """The real ``scopa host``'s :move in a four-seat lobby: Escape first (nobody moves), then Ben to
    seat 3, across from Ann; both hear it, Ben is asked ready again, his kept key names seat 3."""
    server = serve(*SERVER_FLAGS)
    host = player(tmp_path, "host", "host", "--server", server.url, "--name", "Ann", "--target", "single",
                  "--players", "4", "--level", "easy")
    host.expect(r"Room code (\w{6})\.")
    code = host.match.group(1)
    guest = joined(tmp_path, server.url, code)
    host.expect(r"Start\?")
    host.send(":move\r")
    host.expect(r"Move which player\? Or a computer\.")
    host.expect(r"Choice\?")
    host.send("\x1b")
    host.expect(r"Nobody moves\.")
    host.expect(r"Start\?")
    host.send(":move\r")
    host.expect(r"2, Seat 2, Ben, ready\.")
    host.expect(r"Choice\?")
    host.send("2")
    host.expect(r"Move Ben to which seat\?")
    host.expect(r"2, Seat 3 is free\.")
    host.expect(r"Choice\?")
    host.send("2")
    host.expect(r"Ben moves to seat 3, your partner\.")
    guest.expect(r"You move to seat 3, partner of Ann\.")
    guest.expect(r"Ready\?")
    guest.send("\r")
    host.expect(r"Ben is ready\.")
    kept = SeatKeyStore(tmp_path / "guest" / "data").load(server.url, code)
    assert kept is not None and kept.seat == 2
    host.expect(r"Start\?")
    host.send("\r")
    played_to_the_end([host, guest])
    for child in (host, guest):
        assert RESULT.search(text(child)), text(child)[-1500:]
        assert "Shuffle checked, fair." in text(child)  # Ben's share of the seed went with him to seat 3
    assert "Traceback" not in text(host) + text(guest)


CARD_NAME = re.compile(r"(?:ace|two|three|four|five|six|seven|jack|queen|king) of (?:clubs|diamonds|hearts|spades)"
                       r"|settebello", re.IGNORECASE)


def test_over_a_slow_network_each_change_is_said_whole_and_in_order(serve, tmp_path):
    """A slow or lossy network delivers the messages of one change apart (here 20 ms between
    pieces of a kilobyte). A client that took what arrived at once for a whole change said a
    table holding the other player's card before that play ("Table, ... seven of clubs. Card?",
    then "Ben plays seven of clubs." after the player's own next move), and at a match's start the
    table and hand as to a seat taken back, then the deal again. The client asks the server to
    end each change (mark_changes, change_end) and hands the console a change only once ended."""
    server = serve(*SERVER_FLAGS)
    slow = SlowNetwork(server.url)
    host, guest, waiter, mover = started_waiter_and_mover(tmp_path, slow.url)
    press(mover, "1")  # the Card? that play() would answer was read above
    play([host, guest], seconds=120)  # the whole match: one deal
    for child in (waiter, mover):
        started = text(child)[text(child).index("The match starts."):]
        assert "Back at the table" not in started, started
        assert started.count("Deal 1.") == 1 and started.count("Three cards each.") == 1, started
        heard: set[str] = set()
        for line in started.splitlines():
            named = {card.lower() for card in CARD_NAME.findall(line)}
            if line.startswith("Table, "):  # every card on it came there by a play or a deal already said
                assert named <= heard, f"{line!r} before the play that put {named - heard} there:\n{started}"
            heard |= named
    said = text(mover)
    assert said.index("Three cards each.") < said.index("Hand, ") < said.index("Card?"), said
    assert_prompts_said_once(host)  # key mode: no prompt written again for news that was none (its own arrival)
    assert "Ready?\nReady?" not in text(guest).replace(" ", "").replace("\r", "")
    slow.close()
