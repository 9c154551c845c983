"""Online, heard right (issue 30): a rejoin tells what was missed, "Played for you", the host's
whole join command, who sits where at four. Real clients in pseudo-terminals against a real
``scopa serve`` on a loopback port (stopped after each test)."""
from __future__ import annotations

import re
import signal
import sys
from pathlib import Path

import pytest

import scopa
from helpers.online_pty import SERVER_FLAGS, hosted, joined, play, player, started_waiter_and_mover, text
from scopa.narration.command import command_for

pytestmark = pytest.mark.linux  # the real program in a pty, SIGKILL

pexpect = pytest.importorskip("pexpect")

pytestmark = pytest.mark.slow

# Another player's play as the short announcements say it: "Ann plays four of cups." when it takes
# nothing, "Ann's four of cups takes four of swords." when it takes (the seed, from secrets, decides).
PLAYS = r"{name} plays |{name}'s [^\n]* takes "


def test_a_player_back_from_a_closed_terminal_hears_the_plays_since_and_what_was_played_for_them(serve, tmp_path):
    """It used to hear only "Back at the table. Deal 1." and the table; L said "You played" for the
    card a computer had played for it."""
    server = serve(*SERVER_FLAGS)
    host, code = hosted(tmp_path, server.url)
    guest = joined(tmp_path, server.url, code)
    # until a Card? after the guest's first Play?: its move made and its place kept (two Card? alone
    # could be one prompt drawn twice, news coming while it was open, and the key kept no place yet)
    play([host, guest], until=lambda: "Card?" in text(guest).partition("Play?")[2])
    guest.kill(signal.SIGKILL)
    guest.close(force=True)
    from scopa.storage.seat_keys import SeatKeyStore
    kept = SeatKeyStore(tmp_path / "guest" / "data").load(server.url, code)
    assert kept is not None and kept.last_number > 0  # kept after the player's last own move
    host.expect(r"Ben is away\. A computer plays for now\.")
    since = len(text(host))
    play([host], until=lambda: len(re.findall(PLAYS.format(name="Ben"), text(host)[since:])) >= 2)
    back = player(tmp_path, "guest", "join", code, "--server", server.url)  # no --name: the login name, not Ben
    back.expect(r"You already have seat 2 of room " + code + r", as Ben\.")
    back.expect(r"Seat\?")
    back.send("\r")  # take it back
    back.expect(r"Back in room " + code + r", seat 2\.")
    back.expect(r"Back at the table\. Deal 1\.")
    back.expect(r"(Card|Waiting)\?")
    heard = text(back)
    assert len(re.findall(r"Played for you, ", heard)) >= 2, heard[-3000:]
    assert re.search(PLAYS.format(name="Ann"), heard.split("Back at the table")[1])  # the host's plays since
    back.send("l")  # L works at Waiting? too: the same words, past, never "You played" for those cards
    back.expect(r"Played for you, [^\n]*, (took [^\n]*|to the table)\.")
    for child in (host, back):
        child.terminate(force=True)
    assert "Traceback" not in text(back) + text(host)


def test_a_player_back_after_the_match_ended_with_more_missed_than_replayed_hears_how_it_ended(serve, tmp_path):
    """A seat that missed more updates than the server replays is sent a fresh view (a resync).
    When that view showed the match over, the player heard nothing of the result: the loop saw
    the match ended and stopped in silence (seen once in CI, the connection dropping at the end)."""
    server = serve(*SERVER_FLAGS, "--max-replay", "1")
    host, code = hosted(tmp_path, server.url)
    guest = joined(tmp_path, server.url, code)
    play([host, guest], until=lambda: text(guest).count("Card?") >= 1)
    guest.kill(signal.SIGKILL)
    guest.close(force=True)
    host.expect(r"Ben is away\. A computer plays for now\.")
    play([host])  # to the match's end, a computer playing for Ben
    result = re.search(r"Final score\. You (\d+), Ben (\d+)\.", text(host))
    assert result is not None, text(host)[-2000:]
    back = player(tmp_path, "guest", "join", code, "--server", server.url)
    back.expect(r"Seat\?")
    back.send("\r")  # take it back
    back.expect(r"Final score\. Ann (\d+), you (\d+)\.")
    assert back.match.groups() == result.groups()
    back.expect(pexpect.EOF)
    assert "Traceback" not in text(back)


def test_the_hosts_line_gives_a_short_command_and_the_link_on_its_own_line(serve, tmp_path):
    """The host runs as python -m scopa from a virtual environment: its path is never said (issue 38:
    Orca read every folder, "slash" between them); the others type scopa join and the link."""
    server = serve(*SERVER_FLAGS)
    host, code = hosted(tmp_path, server.url)
    host.expect(r"They type (.+?) join (\w+), with this server's address, or (.+?) join and the invite link\. ")
    assert host.match.groups() == ("scopa", code, "scopa")
    main = str(Path(scopa.__file__).with_name("__main__.py"))
    assert "/" in command_for("", [main], sys.executable)  # what it used to say: the path of the venv's Python
    host.expect(r"Invite link, on the next line, to copy and share\.\r\n(ws://\S+)\.\r\n")
    guest = player(tmp_path, "guest", "join", host.match.group(1), "--name", "Ben")
    guest.expect(r"You are in room " + code + r", seat 2\.")
    for child in (host, guest):
        child.terminate(force=True)


def test_a_second_terminal_of_the_same_account_asks_before_taking_a_seat_back(serve, tmp_path):
    """It used to take the host's seat back at once ("Back in room ERPTUT, seat 1") and put the host out."""
    server = serve(*SERVER_FLAGS)
    host, code = hosted(tmp_path, server.url)
    second = player(tmp_path, "host", "join", code, "--server", server.url, "--name", "Ben")  # the host's folders
    second.expect(r"You already have seat 1 of room " + code + r", as Ann\. Enter takes that seat back\. "
                  r"N joins as a new player, Ben\. Escape leaves\.")
    second.expect(r"Seat\?")
    second.send("n")
    second.expect(r"You are in room " + code + r", seat 2\.")
    host.expect(r"Ben joined the table\.")
    assert "taken back" not in text(host)
    from scopa.storage.seat_keys import SeatKeyStore
    kept = SeatKeyStore(tmp_path / "host" / "data").load(server.url, code)
    assert kept is not None and kept.seat == 0 and kept.name == "Ann"  # still the host's own key
    for child in (host, second):
        child.terminate(force=True)
    assert "Traceback" not in text(second) + text(host)


def test_a_four_seat_room_says_who_partners_whom_at_the_start_to_each_player(serve, tmp_path):
    """The start of an online match at four says who sits where, partners together, as a local
    match does: the host hears "You and ..." and the guest, across the table, "... against you and ..."."""
    server = serve(*SERVER_FLAGS)
    host, code = hosted(tmp_path, server.url, "--players", "4", "--level", "easy")
    guest = joined(tmp_path, server.url, code)
    host.expect(r"Ben is ready\.")
    host.expect(r"Start\?")
    host.send("\r")
    host.expect(r"The match starts\.")
    host.expect(r"You and (\w+) against Ben and (\w+)\.")
    third, fourth = host.match.group(1), host.match.group(2)
    guest.expect(r"The match starts\.")
    guest.expect(rf"Ann and {third} against you and {fourth}\.")  # lower case: "you" inside the sentence
    for child in (host, guest):
        child.terminate(force=True)
    assert "Traceback" not in text(guest) + text(host)


def test_waiting_comes_by_itself_once_the_other_players_turn_has_lasted_the_pause(serve, tmp_path, monkeypatch):
    """The other side of "Waiting? only after a pause" (tests/test_online_pty.py checks that it is
    not printed after every play): with nobody pressing a key, a turn that lasts longer than the
    pause brings the prompt, so the keys are there while a person thinks."""
    monkeypatch.setenv("SCOPA_WAITING_DELAY", "0.5")
    server = serve(*SERVER_FLAGS)
    host, guest, waiter, _mover = started_waiter_and_mover(tmp_path, server.url)
    # the mover plays nothing: only the pause can bring the waiter's prompt
    if waiter is guest:
        waiter.expect(r"Deal 1\.")  # past the guest's "Waiting?" before the start
    waiter.expect(r"Three cards each\.")
    waiter.expect(r"Waiting\?", timeout=10)
    assert "Card?" not in text(waiter).split("Deal 1.")[1]
    for child in (host, guest):
        child.terminate(force=True)
    assert "Traceback" not in text(guest) + text(host)
