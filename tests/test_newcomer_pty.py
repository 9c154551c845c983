"""Online play as a newcomer finds it (issue 38), in pseudo-terminals against a real ``scopa serve``
on loopback: commands that leave no trace at the prompt, a quick match for anyone with a name,
a player key never replaced unasked, no silent wait, and the words said as people say them."""
from __future__ import annotations

import contextlib
import re
from pathlib import Path

import pytest

from helpers.online_pty import SERVER_FLAGS, hosted, menu_player, play, player, press, text

pytestmark = pytest.mark.linux  # the real program in a pty, SIGKILL, Ctrl-C to a process group

pexpect = pytest.importorskip("pexpect")

pytestmark = pytest.mark.slow


def quiet(child, seconds: float = 1.0) -> str:
    """Read what the program shows for ``seconds``; all it has shown."""
    with contextlib.suppress(pexpect.EOF):
        child.expect(pexpect.TIMEOUT, timeout=seconds)
    return text(child)


# 1. A command sent to the server clears the prompt ------------------------------------------------

def test_a_chat_command_sent_at_ready_leaves_the_prompt_empty_and_enter_then_says_ready(serve, tmp_path):
    server = serve(*SERVER_FLAGS)
    host, code = hosted(tmp_path, server.url)
    guest = player(tmp_path, "guest", "join", code, "--server", server.url, "--name", "Ben")
    guest.expect(r"Ready\?")
    guest.send(":c 3\r")  # a phrase, sent at once
    guest.expect(r"You say, one moment, please\.")
    guest.expect(r"Ready\?")
    quiet(guest, 0.5)
    assert not re.search(r"Ready\? *:c 3", text(guest).split("You say, one moment, please.")[-1])
    guest.send("\r")  # Enter now says ready, not the phrase again
    guest.expect(r"You are ready\.")
    host.expect(r"Ben is ready\.")
    host.expect(r"Start\?")
    host.send(":move 2 1\r")  # a host's command: once done, the prompt is empty again
    host.expect(r"You move to seat 2\.")
    quiet(host, 1.0)
    assert ":move" not in text(host).split("You move to seat 2.")[-1]
    assert text(guest).count("You say, one moment, please.") == 1


# 2. Quick match with the player key: a name once used is still yours, and the match is rated ------

def test_a_player_who_hosted_before_plays_a_quick_match_under_the_same_name_and_is_rated(serve, tmp_path):
    server = serve("--quick-wait", "60", *SERVER_FLAGS)
    host, _ = hosted(tmp_path, server.url)  # Ann's name now belongs to Ann's player key
    host.close(force=True)
    ann = player(tmp_path, "host", "quick", "--server", server.url, "--name", "Ann", "--target", "single")
    ann.expect(r"Quick match\. Looking for players\.")
    ben = player(tmp_path, "ben", "quick", "--server", server.url, "--name", "Ben", "--target", "single")
    ann.expect(r"Ben joined the table\.")
    play([ann, ben], seconds=60)
    for child in (ann, ben):
        seen = text(child)
        assert "Name taken" not in seen
        # 9: the rating in words, the minus too: "rating -1.8" was read "dash 1 .8"
        assert re.search(r"(?m)You are (1st|2nd) of 2, rating (minus )?[0-9]+( point [0-9])?\.$", seen), seen[-600:]
    import subprocess
    import sys
    stats = subprocess.run([sys.executable, "-m", "scopa", "--stats", "--lang", "it", "--data-dir",
                            str(tmp_path / "ben" / "data"), "--config-dir", str(tmp_path / "ben" / "config")],
                           capture_output=True, text=True, timeout=60, check=False)
    assert re.search(r"(?m)^Punteggio (meno )?[0-9]+( virgola [0-9])? su 127\.0\.0\.1, posto [12] su 2\.$",
                     stats.stdout), stats.stdout


# 3. Importing a key asks first, keeps the key it replaces, and names the backup ------------------

def test_importing_a_key_over_another_asks_keeps_a_backup_and_a_script_needs_replace(tmp_path):
    import subprocess
    import sys

    from scopa.storage.player_key import PlayerKeyStore, read_key

    eve_dir, dan_dir = tmp_path / "eve", tmp_path / "dan"
    eve, dan = PlayerKeyStore(eve_dir).load_or_make(), PlayerKeyStore(dan_dir).load_or_make()
    PlayerKeyStore(dan_dir).export(tmp_path / "dan.json")
    command = [sys.executable, "-m", "scopa", "account", "import", str(tmp_path / "dan.json"),
               "--data-dir", str(eve_dir), "--lang", "en"]
    asked = pexpect.spawn(command[0], command[1:], encoding="utf-8", timeout=30)
    asked.expect(r"This machine has a player key already")
    asked.expect(r"Replace\? ")
    asked.send("\r")  # Enter alone keeps it
    asked.expect(r"Nothing changed\. Your player key is kept\.")
    asked.expect(pexpect.EOF)
    assert PlayerKeyStore(eve_dir).load() == eve
    scripted = subprocess.run(command, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60,
                              check=False)
    assert scripted.returncode == 1 and "Add --replace to replace it" in scripted.stdout
    assert PlayerKeyStore(eve_dir).load() == eve
    asked = pexpect.spawn(command[0], command[1:], encoding="utf-8", timeout=30)
    asked.expect(r"Replace\? ")
    asked.send("y\r")
    asked.expect(r"Your old key is kept in (\S+\.json); scopa account import \1 takes it back\.")
    backup = asked.match.group(1)
    asked.expect(pexpect.EOF)
    assert PlayerKeyStore(eve_dir).load() == dan and read_key(Path(backup)) == eve
    forced = subprocess.run([*command[:5], backup, *command[6:], "--replace"], capture_output=True, text=True,
                            stdin=subprocess.DEVNULL, timeout=60, check=False)
    assert forced.returncode == 0 and "Your old key is kept in" in forced.stdout
    assert PlayerKeyStore(eve_dir).load() == eve  # Eve is Eve again
    helped = subprocess.run([sys.executable, "-m", "scopa", "account", "--help", "--lang", "it"],
                            capture_output=True, text=True, timeout=60, check=False)
    assert "--replace" in helped.stdout and len(helped.stdout.splitlines()) > 2


# 4. The turn timer is said at join and at the start -----------------------------------------------

def test_the_turn_timer_is_said_when_joining_and_when_the_match_starts(serve, tmp_path):
    server = serve(*SERVER_FLAGS)
    host, code = hosted(tmp_path, server.url, "--turn-time", "60")
    guest = player(tmp_path, "guest", "join", code, "--server", server.url, "--name", "Ben")
    guest.expect(rf"You are in room {code}, seat 2\.\r\nTurn timer, 60 seconds\.\r\n")
    guest.expect(r"Ready\?")
    guest.send("\r")
    host.expect(r"Start\?")
    host.send("\r")
    for child in (host, guest):
        child.expect(r"The match starts\.\r\nTurn timer, 60 seconds\.\r\n")


# 5 and 6. A lone quick match says what it waits for and when computers come; a computer is named so

def test_a_lone_quick_match_says_its_wait_and_then_that_the_opponent_is_a_computer(serve, tmp_path):
    server = serve("--quick-wait", "2", *SERVER_FLAGS)
    ann = player(tmp_path, "ann", "quick", "--server", server.url, "--name", "Ann", "--target", "single")
    ann.expect(r"Waiting, 1 of 2 players here\.\r\n"
               r"If nobody comes within 2 seconds, computers take the free seats\. Escape leaves\.")
    ann.expect(r"You against (\w+)\.\r\n(\w+) is a computer, level easy\.\r\n")
    assert ann.match.group(1) == ann.match.group(2)
    ann.close(force=True)


FAST_DAILY = ("--daily-deals", "2", "--computer-budget", "0.01", "--daily-par-samples", "2",
              "--computer-workers", "0", "--daily-date", "2030-01-01")


def test_each_daily_deal_says_its_par_and_the_expert_keeps_one_name_all_day(serve, tmp_path):
    server = serve(*FAST_DAILY)
    ann = player(tmp_path, "ann", "daily", "--server", server.url, "--name", "Ann")
    play([ann], seconds=90)
    ann.close()
    said = text(ann)
    score = r"(?:\d+ (?:over|under) par|level with par)"
    first, second = (re.search(rf"Deal {n}, {score}\.", said) for n in (1, 2))
    assert first and second and first.start() < said.index("Deal 2 of 2.") < second.start(), said[-2000:]
    experts = re.findall(r"Against (\w+), the expert\.", said)
    assert len(experts) == 2 and len(set(experts)) == 1, experts


# 7 and 5. Coming back, and watching: nothing said about oneself as news, no silent wait ----------

def test_a_player_back_hears_no_news_of_his_own_leaving_and_then_the_table(serve, tmp_path):
    import signal

    from helpers.online_pty import joined
    server = serve(*SERVER_FLAGS)
    host, code = hosted(tmp_path, server.url)
    guest = joined(tmp_path, server.url, code)
    play([host, guest], until=lambda: text(guest).count("Card?") >= 3)
    guest.kill(signal.SIGKILL)
    guest.close(force=True)
    host.expect(r"Ben is away\. A computer plays for now\.")
    play([host], until=lambda: text(host).count("Card?") >= 5, seconds=30)
    back = player(tmp_path, "guest", "join", code, "--server", server.url, "--name", "Ben")
    back.expect(r"Back at the table\. Deal \d+\.")
    back.expect(r"(Waiting|Card)\?")
    said = text(back)
    assert "Ben left the table." not in said
    replay = said[said.index("Back at the table."):]
    assert re.search(r"Played for you[^\n]*\n(?:You are back\.\r?\n)?Table, [^\n]*\.\r?\n(?:Hand, [^\n]*\r?\n)?"
                     r"(?:Waiting|Card)\?", replay), replay
    host.terminate(force=True)
    back.terminate(force=True)


def test_a_spectator_hears_no_news_of_itself_is_prompted_watching_and_told_when_all_players_left(serve, tmp_path):
    import signal

    from helpers.online_pty import joined
    server = serve(*SERVER_FLAGS)
    host, code = hosted(tmp_path, server.url)
    guest = joined(tmp_path, server.url, code)
    host.expect(r"Start\?")
    host.send("\r")
    carla = player(tmp_path, "carla", "watch", code, "--server", server.url, "--name", "Carla")
    carla.expect(r"Watching room")
    host.expect(r"Carla is watching\.")
    quiet(carla, 0.5)
    carla.send("\r")
    carla.expect(r"Watching\?")
    for child in (host, guest):
        child.kill(signal.SIGKILL)
        child.close(force=True)
    carla.expect(r"No player is at the table now\. The match waits for its players to come back\.", timeout=30)
    assert "Carla is watching." not in text(carla) and "Waiting?" not in text(carla)
    carla.terminate(force=True)


def test_picking_a_leaderboard_entry_in_the_menu_says_the_board_is_closed(serve, tmp_path):
    server = serve(*SERVER_FLAGS)
    menu = menu_player(tmp_path, server.url)
    menu.expect(r"4, play online\.")
    menu.send("4\r")
    menu.expect(r"6, see the leaderboard\.")
    menu.send("6\r")
    menu.expect(r"Enter for ")
    menu.send("\r")
    menu.expect(r"Leaderboard\.")
    menu.expect(r"Choice\?")
    menu.send("1\r")
    menu.expect(r"Leaderboard closed\.")
    menu.terminate(force=True)


# 8. The invite: a short command, the code spelt, the link on its own line, no path said ------------

def test_under_dev_py_the_invite_names_python3_dev_py_play_without_the_folders(serve, tmp_path, monkeypatch):
    monkeypatch.setenv("SCOPA_COMMAND", "python3 /home/ann/games/scopa/dev.py play")  # dev.py run by its path
    server = serve(*SERVER_FLAGS)
    host, code = hosted(tmp_path, server.url)
    host.expect(r"\r\n([^\r\n]*Press Enter to hear who has joined\.)\r\n([^\r\n]*)\r\n([^\r\n]*)\r\n")
    share, heading, link = host.match.groups()
    assert share == (f"Give the code to the other players. They type python3 dev.py play join {code}, with this "
                     "server's address, or python3 dev.py play join and the invite link. Press Enter to hear who "
                     "has joined.")
    assert heading == "Invite link, on the next line, to copy and share."
    assert link == f"{server.url}/{code}."  # alone: a screen reader's review keys copy it whole
    assert "/home/ann" not in text(host)
    host.terminate(force=True)


# 10. A code refused says which letters and digits a code uses ---------------------------------------

def speaking(lang: str, tmp_path: Path, who: str, *args: str):
    """``player`` in another language (``player`` says ``--lang en`` last)."""
    import io
    import os
    import sys
    env = dict(os.environ, TERM="xterm-256color", NO_COLOR="1", PYTHONUNBUFFERED="1")
    command = [sys.executable, "-m", "scopa", *args, "--no-voice", "--lang", lang,
               "--data-dir", str(tmp_path / who / "data"), "--config-dir", str(tmp_path / who / "config")]
    child = pexpect.spawn(command[0], command[1:], env=env, encoding="utf-8", timeout=30, dimensions=(50, 200))
    child.logfile_read = io.StringIO()
    child.plain = "--plain" in args
    return child


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "ABCDEF is not a room code. A code has six characters, the digits {digits} and any letter but {others}."),
    ("it", ("ABCDEF non è un codice di stanza. Un codice ha sei caratteri, le cifre {digits} e le lettere tranne "
            "{others}."))])
def test_a_code_refused_names_the_letters_and_digits_a_code_uses(serve, tmp_path, lang, words):
    import string

    from scopa.net.protocol.codes import ALPHABET
    server = serve()
    child = speaking(lang, tmp_path, "ben", "join", "ABCDEF", "--server", server.url, "--name", "Ben")
    child.expect(pexpect.EOF)
    digits = [c for c in ALPHABET if c.isdigit()]
    others = [c for c in string.ascii_uppercase if c not in ALPHABET]  # B, I, L, O, S, Z: look-alikes
    join = " and " if lang == "en" else " e "
    listed = ", ".join(digits[:-1]) + join + digits[-1], ", ".join(others[:-1]) + join + others[-1]
    assert words.format(digits=listed[0], others=listed[1]) in text(child), text(child)


# 11. Cards named as people say them: a rank with two cards names both numbers; other packs' words ---

def test_a_rank_with_two_cards_lists_their_numbers_and_queen_of_cups_and_kh_pick_a_card(tmp_path):
    from helpers.pty import CONTROL, spawn
    from scopa.engine import Card
    from scopa.narration import CardNames, Messages
    french, napoletane = CardNames(Messages("en"), "french"), CardNames(Messages("en"), "napoletane")
    by_name = {french.name(Card(n)): Card(n) for n in range(40)} | {"settebello": Card.parse("7D")}
    child = spawn(tmp_path, "--seed", "3", "--plain")  # line mode: "7D" is typed whole
    pair = crossed = coded = False
    while not (pair and crossed and coded):
        index = child.expect([r"Card\?", r"Capture\?", r"Play\?", r"Next\?", pexpect.EOF], timeout=30)
        assert index != 4, "the match ended before a hand held two cards of a rank"
        hand_line = [line for line in CONTROL.sub("", child.before).split("\n") if line.startswith("Hand, ")]
        if index != 0 or not hand_line:
            child.send("1\r" if index in (0, 1) else "\r")
            continue
        hand = [by_name[name.strip()] for name in hand_line[-1].strip().removeprefix("Hand, ").rstrip(".").split(", ")]
        ranks = [card.rank for card in hand]
        twice = next((rank for rank in ranks if ranks.count(rank) == 2), None)
        if twice is not None and not pair:
            numbers = [n for n, card in enumerate(hand, 1) if card.rank == twice]
            child.send(french.rank_word(hand[numbers[0] - 1]) + "\r")  # "king"
            first, second = (french.name(hand[n - 1]) for n in numbers)
            child.expect(rf"Which one\? {numbers[0]}, {first}, or {numbers[1]}, {second}\. Type its number\.")
            child.expect(r"Card\?")
            pair = True
        card = hand[-1]
        if not crossed:  # the French rank with the Italian suit: "queen of cups"
            child.send(f"{french.rank_word(card)} of {napoletane.suit_word(card.suit)}\r")
            crossed = True
        else:  # its code, "KH"
            child.send(f"{card}\r")
            coded = True
        child.expect(r"(Play|Capture)\?")
        picked = CONTROL.sub("", child.before)
        assert "Not a card" not in picked and french.name(card) in picked.lower(), picked
        child.send("esc\r")  # back to Card?, nothing played
        child.expect(r"Card\?")
        child.send("1\r")
    child.terminate(force=True)


# 12. --transcript last says each deal's start once ---------------------------------------------------

@pytest.mark.parametrize(("lang", "start", "prompts"), [
    ("en", "Deal 1. You deal.", [r"Card\?", r"Capture\?", r"Play\?", r"Next\?"]),
    ("it", "Smazzata 1. Dai tu le carte.", [r"Carta\?", r"Presa\?", r"Giochi\?", r"Avanti\?"])])
def test_the_transcript_says_a_deals_start_once_in_both_languages(tmp_path, lang, start, prompts):
    match = speaking(lang, tmp_path, "me", "--seed", "3", "--target", "single", "--plain")
    while (index := match.expect([*prompts, pexpect.EOF], timeout=30)) != len(prompts):
        match.send("1\r" if index < 2 else "\r")
    shown = speaking(lang, tmp_path, "me", "--transcript", "last")  # its path, for the reader's own reading
    shown.expect(r"(\S+\.transcript\.txt)")
    said = Path(shown.match.group(1)).read_text("utf-8")
    deal = start.split(". ")[0]  # "Deal 1"
    assert start + "\n" in said, said[:800]
    assert f"{deal}. {deal}." not in said, said[:800]


# 13. The small ones: Ctrl-C on the server under dev.py, the leaderboard's flags, real --help texts --

def test_ctrl_c_on_dev_py_play_serve_after_computers_played_prints_no_traceback(tmp_path):
    import os
    import sys

    from helpers.net import Client, contribute, play_out
    from helpers.redis import free_port
    from scopa.engine import CardsDealt, Rules
    from scopa.net.protocol.client_messages import Quick
    from scopa.net.protocol.server_messages import UpdateMessage, Welcome
    port = free_port()
    root = Path(__file__).resolve().parents[1]
    env = dict(os.environ, NO_COLOR="1", PYTHONUNBUFFERED="1")
    serving = pexpect.spawn(sys.executable, [str(root / "dev.py"), "play", "serve", "--port", str(port), "--db",
                                             str(tmp_path / "rooms.sqlite3"), "--computer-workers", "2",
                                             "--quick-wait", "0", "--computer-delay", "0"],
                            cwd=str(root), env=env, encoding="utf-8", timeout=60)
    serving.expect(str(port))
    ann = Client(f"ws://127.0.0.1:{port}")
    ann.send(Quick("Ann", Rules(target=None)))  # alone: a computer comes at once
    ann.until(lambda m: isinstance(m, Welcome), 30)
    contribute(ann)  # the seat's share of the seed, as the client gives it
    ann.until(lambda m: isinstance(m, UpdateMessage) and isinstance(m.update.event, CardsDealt), 30)
    play_out([ann], ann)  # the computer's moves start the pool of workers (spawned processes)
    serving.sendintr()
    serving.expect(pexpect.EOF)
    said = serving.before
    assert "Traceback" not in said and "KeyboardInterrupt" not in said, said


def test_the_leaderboard_takes_the_common_flags_and_each_command_has_a_real_help(serve, tmp_path, monkeypatch):
    import subprocess
    import sys
    server = serve()

    def scopa(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "scopa", *args], capture_output=True, text=True, timeout=60,
                              check=False)
    board = scopa("leaderboard", "--server", server.url, "--no-voice", "--plain", "--lang", "en",
                  "--config-dir", str(tmp_path / "config"), "--data-dir", str(tmp_path / "data"))
    assert board.returncode == 0 and board.stdout == "Nobody has a rating on this server yet.\n", board
    for command in ("verify", "leaderboard"):
        helped = scopa(command, "--help", "--lang", "en")
        lines = helped.stdout.splitlines()
        assert helped.returncode == 0 and len(lines) >= 4 and "--lang en or it, the language." in lines, lines
    host_help = scopa("host", "--help", "--lang", "en").stdout
    assert "host --help" not in host_help and "this help, every option of the command" in host_help
    monkeypatch.setenv("SCOPA_COMMAND", "python3 dev.py play")
    tables = player(tmp_path, "ben", "tables", "--server", server.url)
    tables.expect(r"No open tables now\. python3 dev\.py play quick finds you a match, with the people waiting, "
                  r"or with computers if nobody comes within its wait\.")
    tables.expect(pexpect.EOF)


# 14. Quick match with a turn timer meets only players who chose the same ----------------------------

def test_quick_with_a_turn_timer_meets_only_players_who_chose_the_same(serve, tmp_path):
    server = serve("--quick-wait", "60", *SERVER_FLAGS)
    ann = player(tmp_path, "ann", "quick", "--server", server.url, "--name", "Ann", "--turn-time", "20")
    ann.expect(r"Quick match\. Looking for players\.\r\nTurn timer, 20 seconds\.\r\nWaiting, 1 of 2 players here\.")
    ben = player(tmp_path, "ben", "quick", "--server", server.url, "--name", "Ben")  # no timer: another room
    ben.expect(r"Waiting, 1 of 2 players here\.")
    cleo = player(tmp_path, "cleo", "quick", "--server", server.url, "--name", "Cleo", "--turn-time", "20")
    cleo.expect(r"Turn timer, 20 seconds\.\r\nWaiting, 2 of 2 players here\.")
    ann.expect(r"Cleo joined the table\.")
    ann.expect(r"The match starts\.\r\nTurn timer, 20 seconds\.")
    assert "joined the table" not in quiet(ben, 0.5)
    for child in (ann, ben, cleo):
        child.terminate(force=True)


# 15. A person takes a computer's seat between deals, where the host allows it -----------------------

def to_the_first_next(host, guest) -> None:
    """Both play (first card, first capture, Enter) until the host is asked ``Next?``, left unanswered."""
    import time
    prompts = [r"Card\?", r"Capture\?", r"Play\?", r"Next\?"]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for child in (host, guest):
            index = child.expect([*prompts, pexpect.TIMEOUT], timeout=0.05)
            if index == 3 and child is host:
                return
            if index < 3:
                press(child, "1" if index < 2 else "\r")
    raise AssertionError("the first deal did not end")


def test_a_friend_takes_a_computers_seat_between_deals_where_the_host_allows_it(serve, tmp_path):
    from helpers.online_pty import joined
    server = serve(*SERVER_FLAGS)
    host = player(tmp_path, "host", "host", "--server", server.url, "--name", "Ann", "--players", "3", "--level",
                  "easy", "--join-between-deals")
    host.expect(r"Room code (\w{6})\.")
    code = host.match.group(1)
    guest = joined(tmp_path, server.url, code)
    host.expect(r"Ben is ready\.")
    host.expect(r"Start\?")
    host.send(":table\r")
    host.expect(r"Between deals, a person may take a computer's seat\.")
    host.expect(r"Start\?")
    host.send("\r")
    host.expect(r"You, Ben and (\w+), each for themselves\.")
    computer = host.match.group(1)
    early = player(tmp_path, "dan", "join", code, "--server", server.url, "--name", "Dan")
    early.expect(r"A person may take a computer's seat only between deals\. Try again when this deal ends\.")
    early.expect(pexpect.EOF)
    to_the_first_next(host, guest)  # the first deal is over: the host's Next?, not answered
    dan = player(tmp_path, "dan", "join", code, "--server", server.url, "--name", "Dan")
    dan.expect(rf"You are in room {code}, seat 3\.")
    host.expect(rf"Dan takes {computer}'s seat\.")
    guest.expect(rf"Dan takes {computer}'s seat\.")
    dans_play = re.compile(r"Dan('s| plays)")
    play([host, guest, dan], until=lambda: all(dans_play.search(text(c)) for c in (host, guest)), seconds=60)
    for child in (host, guest, dan):
        child.terminate(force=True)
    assert "Traceback" not in text(host) + text(guest) + text(dan)


def test_without_the_hosts_leave_a_started_match_takes_nobody(serve, tmp_path):
    from helpers.online_pty import joined
    server = serve(*SERVER_FLAGS)
    host = player(tmp_path, "host", "host", "--server", server.url, "--name", "Ann", "--players", "3", "--level",
                  "easy")
    host.expect(r"Room code (\w{6})\.")
    code = host.match.group(1)
    guest = joined(tmp_path, server.url, code)
    host.expect(r"Start\?")
    host.send("\r")
    to_the_first_next(host, guest)
    dan = player(tmp_path, "dan", "join", code, "--server", server.url, "--name", "Dan")
    dan.expect(r"This match has already started\. No new player can join\.")
    for child in (host, guest):
        child.terminate(force=True)


def test_the_hosts_leave_to_take_computers_seats_is_kept_by_both_stores_across_a_restart(store):
    """The real server over loopback, stopped and started again on the same store (SQLite, Redis)."""
    from helpers.net import Client, contribute
    from scopa.engine import Rules
    from scopa.net.protocol.client_messages import CreateRoom, Features, Hello
    from scopa.net.protocol.server_messages import FeaturesAnswer, InfoMessage, Welcome

    def heard(client: Client) -> bool:  # the info that follows the feature's answer (docs/protocol.md, Versions)
        client.send(Features(("join_between_deals",)))
        client.until(lambda m: isinstance(m, FeaturesAnswer))
        return client.until(lambda m: isinstance(m, InfoMessage)).info.join_between_deals

    first = store.serve()
    ann = Client(first.url)
    ann.send(CreateRoom("Ann", Rules(players=3), ("human", "human", "easy"), join_between_deals=True))
    welcome = ann.until(lambda m: isinstance(m, Welcome))
    contribute(ann)
    assert heard(ann)
    first.stop()
    again = Client(store.serve().url)
    again.send(Hello(welcome.code, welcome.seat_key, 0))
    again.until(lambda m: isinstance(m, Welcome))
    again.number = 0  # the updates since 0 follow the welcome
    assert heard(again)
