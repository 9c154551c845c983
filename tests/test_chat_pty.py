"""Table chat at the real console (issue 28): ``scopa host`` in a pseudo-terminal against a real
``scopa serve``, the other seat a scripted websocket client. English and Italian, a phrase and a
typed line both ways, muting, L bringing chat back, a line too long, news arriving while a
message is typed, and every chat line and prompt on the screen once."""
from __future__ import annotations

import io
import itertools
import os
import re
import sys
import time

import pytest

from helpers.net import join as socket_join
from helpers.online_pty import PROMPT_LINE, hosted, text
from scopa.net.protocol.client_messages import ChatRequest, MoveRequest
from scopa.net.protocol.server_messages import ChatMessage, UpdateMessage

pytestmark = pytest.mark.linux  # the real program in a pty

pexpect = pytest.importorskip("pexpect")

pytestmark = pytest.mark.slow


def assert_prompts_said_once(child) -> None:
    """No prompt twice in a row with nothing between (what Orca would read twice); a prompt's line
    may hold what the player typed at it (a typed command, a message), and nothing else."""
    rows = [row.strip() for row in text(child).splitlines() if row.strip()]
    prompts = []
    for row in rows:
        found = PROMPT_LINE.match(row)
        assert found or not PROMPT_LINE.search(row), f"text before a prompt on its line: {row!r}"
        prompts.append(found.group(0) if found and row[found.end():].strip() == "" else row)
    doubled = [a for a, b in itertools.pairwise(prompts) if a == b and PROMPT_LINE.fullmatch(a)]
    assert doubled == []


def said_in_order(screen: str, lines: list[str]) -> int:
    """Assert each of ``lines`` is on ``screen`` after the one before it; where the last one is."""
    at = 0
    for said in lines:
        at = screen.find(said, at)
        assert at >= 0, f"{said!r} not in order:\n{screen}"
    return at


def italian_host(tmp_path, url):
    """``scopa host`` as ``helpers.online_pty.player`` starts it, in Italian."""
    env = dict(os.environ, TERM="xterm-256color", NO_COLOR="1", PYTHONUNBUFFERED="1")
    env.pop("PROMPT_TOOLKIT_NO_CPR", None)
    args = ["-m", "scopa", "host", "--server", url, "--name", "Ann", "--target", "single", "--no-voice",
            "--lang", "it", "--data-dir", str(tmp_path / "data"), "--config-dir", str(tmp_path / "config")]
    child = pexpect.spawn(sys.executable, args, env=env, encoding="utf-8", timeout=30, dimensions=(50, 200))
    child.logfile_read = io.StringIO()
    return child


def shown(said: str) -> str:
    """A pattern for ``said`` as the terminal shows it: prompt_toolkit's escape sequences may
    come between any two characters (a prompt's words, then the text it draws after them)."""
    return r"(?:\x1b\[[?0-9;]*[a-zA-Z])*".join(re.escape(char) for char in said)


def heard(client, text_: str | None = None):
    return client.until(lambda m: isinstance(m, ChatMessage) and (text_ is None or m.text == text_))


def test_chat_both_ways_muted_and_brought_back_by_l(serve, tmp_path):
    server = serve()
    ann, code = hosted(tmp_path, server.url)
    ben = socket_join(server.url, code, name="Ben")
    ann.expect(r"Start\?")
    ben.send(ChatRequest(preset="well_played"))
    ann.expect("Ben says, well played.")
    ann.expect(r"Start\?")  # the prompt again, after the line
    ann.send("c")
    ann.expect(r"Message\?")
    ben.send(ChatRequest(text="while you type"))  # news while a message is typed: the line is not ended
    heard(ben, "while you type")
    time.sleep(0.3)
    ann.send("hello Ben\r")
    assert heard(ben, "hello Ben") == ChatMessage(0, "Ann", "hello Ben", None)
    ann.expect("You say, hello Ben")
    ann.expect(r"Start\?")
    screen = text(ann)
    assert screen.index("Message?") < screen.index("hello Ben") < screen.index("Ben says, while you type")
    assert screen.count("Ben says, while you type") == 1 and screen.count("You say, hello Ben") == 1
    ann.send(":mute ben\r")
    ann.expect("Ben muted.")
    ann.expect(r"Start\?")
    ben.send(ChatRequest(text="you cannot hear me"))
    heard(ben, "you cannot hear me")
    time.sleep(0.5)
    assert "you cannot hear me" not in text(ann)
    ann.send("l")
    ann.expect("Chat, latest lines.")
    ann.expect("Ben says, you cannot hear me")
    ann.expect(r"Start\?")
    ann.send(":c " + "x" * 201 + "\r")
    ann.expect("Not sent. A message is at most two hundred characters.")
    ann.expect(r"Start\?")
    ann.send(":c 5\r")  # phrase five, at once
    assert ben.until(lambda m: isinstance(m, ChatMessage) and m.seat == 0).preset == "thanks"
    ann.expect("You say, thanks.")
    ann.expect(r"Start\?")
    screen = text(ann)
    assert screen.count("Ben says, well played.") == 2  # heard once as it came, once more from L
    assert screen.count("Ben says, you cannot hear me") == 1  # only from L
    assert_prompts_said_once(ann)
    ann.sendcontrol("c")
    ann.close()


def test_chat_in_italian(serve, tmp_path):
    server = serve()
    ann = italian_host(tmp_path, server.url)
    ann.expect(r"(\w{6})\. ((?:\w, ){5}\w)\.")
    code = ann.match.group(1)
    ben = socket_join(server.url, code, name="Ben")
    ann.expect(r"Iniziare\?")
    ben.send(ChatRequest(preset="well_played"))
    ann.expect("Ben dice, ben giocato.")
    ann.send("c")
    ann.expect(r"Messaggio\?")
    ann.send("?\r")
    ann.expect("10, ciao, alla prossima.")
    ann.send("1\r")
    assert ben.until(lambda m: isinstance(m, ChatMessage) and m.seat == 0).preset == "good_game"
    ann.expect("Tu dici, bella partita.")
    ann.sendcontrol("c")
    ann.close()


def test_the_turn_timer_at_the_console(serve, tmp_path):
    """A 20-second turn (two seconds here): the seat to move hears the warnings, M adds time said
    to all, and when the time is up the card is played for the player, said so first."""
    server = serve("--clock-scale", "0.1")
    ann, code = hosted(tmp_path, server.url, "--turn-time", "20")
    ben = socket_join(server.url, code, name="Ben")  # never plays: the timer plays for Ben
    ann.expect(r"Start\?")
    ann.send("\r")
    ann.expect(r"Card\?", timeout=30)  # Ann's turn (after Ben's card was played for him, if he led)
    ann.send("m")
    ann.expect("You ask for more time. Thirty seconds more.")  # said to Ann as her own
    ann.expect("Ten seconds.", timeout=20)
    ann.expect("Five seconds.")
    ann.expect("Time. A card is played for you.")
    ann.expect("Played for you, ")  # the card said as the table's, not "You play ..." (heard so)
    ann.expect("Time. A card is played for Ben.", timeout=20)  # Ben's turn came and went
    whole = text(ann)
    screen = whole[:whole.rindex("Time. A card is played for Ben.")]  # up to Ben's turn after Ann's
    ann_time = screen.rindex("Time. A card is played for you.")
    assert "Card?" not in screen[ann_time:]  # no Card? of a turn gone
    assert screen.count("You ask for more time.") == 1 and "Ann asks" not in screen
    led = screen[:ann_time]
    if "Time. A card is played for Ben." in led:  # Ben led: his warnings are not said to Ann
        assert led.index("Time. A card is played for Ben.") < led.index("Ten seconds.")
    assert screen.count("Ten seconds.") == 1 and screen.count("Five seconds.") == 1
    assert_prompts_said_once(ann)
    ben.close()
    ann.sendcontrol("c")
    ann.close()


@pytest.mark.parametrize("plain", [False, True], ids=["keys", "plain"])
def test_the_turn_timer_is_heard_while_a_message_is_typed(serve, tmp_path, plain):
    """At ``Message?`` on Ann's own turn, with text typed: "Ten seconds.", "Five seconds." and
    "Time. A card is played for you." are each said at once, ``Message?`` asked again after each
    with the text typed so far, and the whole line typed is sent once Enter is pressed. In line
    mode (``--plain``) the terminal keeps the unfinished line: ``Message?`` is asked again
    without it, and Enter still sends all of it."""
    server = serve("--clock-scale", "0.1")
    ann, code = hosted(tmp_path, server.url, "--turn-time", "60", *(["--plain"] if plain else []))  # 6 s here
    ben = socket_join(server.url, code, name="Ben")  # never plays: the timer plays for Ben
    ann.expect(r"Start\?")
    ann.send("\r")
    ann.expect(r"Card\?", timeout=30)  # Ann's turn (after Ben's card was played for him, if he led)
    ann.send("c\r" if plain else "c")
    ann.expect(r"Message\?")
    ann.send("hello")
    ann.expect("Ten seconds.", timeout=20)  # while the line is being typed
    kept = "" if plain else " hello"
    ann.expect(shown("Message?" + kept))  # asked again, with the text
    ann.send(" Ben")
    ann.expect("Five seconds.")
    ann.expect("Time. A card is played for you.")
    ann.expect(shown("Message?" + ("" if plain else " hello Ben")))
    time.sleep(0.3)
    ann.send("!\r")
    assert heard(ben, "hello Ben!") == ChatMessage(0, "Ann", "hello Ben!", None)
    ann.expect("You say, hello Ben!")
    ann.expect("Time. A card is played for Ben.", timeout=20)  # Ben's turn came and went
    whole = text(ann)
    start = whole.index("Message?")  # the first chat, on Ann's turn; up to Ben's turn after it
    screen = whole[start:whole.index("Time. A card is played for Ben.", whole.index("You say, hello Ben!"))]
    said_in_order(screen, ["Message?", "Ten seconds.", "Message?" + kept, "Five seconds.",
                           "Time. A card is played for you.", "Message?" + ("" if plain else " hello Ben"),
                           "You say, hello Ben!"])
    assert screen.count("Ten seconds.") == 1 and screen.count("Five seconds.") == 1
    assert "Card?" not in screen  # no Card? of the turn gone, before the message or after it
    assert_prompts_said_once(ann)
    rows = [row.strip() for row in text(ann).splitlines() if row.strip()]
    assert not [a for a, b in itertools.pairwise(rows) if a.startswith("Message?") and b.startswith("Message?")]
    ben.close()
    ann.sendcontrol("c")
    ann.close()


def test_the_turn_timer_is_heard_while_a_word_is_typed_at_card(serve, tmp_path):
    """At ``Card?`` on Ann's own turn, with a word typed (a card's name, say): "Ten seconds." is said
    at once, ``Card?`` asked again with the word; when the time is up the card is played for her,
    and her next turn's ``Card?`` starts empty: the word was for the turn gone. Ben answers at once,
    so no ``Waiting?`` comes between her two turns to end the word."""
    server = serve("--clock-scale", "0.1")
    ann, code = hosted(tmp_path, server.url, "--turn-time", "60")  # 6 s here
    ben = socket_join(server.url, code, name="Ben")
    ann.expect(r"Start\?")
    ann.send("\r")
    ann.expect(r"Card\?", timeout=30)  # Ann's turn (after Ben's card was played for him, if he led)
    ann.send("zq")  # a letter and the key after it: a typed word, not the key Z
    ann.expect("Ten seconds.", timeout=20)  # while the word is typed
    ann.expect(shown("Card? zq"))  # asked again, with the word
    ann.expect("Five seconds.")
    ann.expect("Time. A card is played for you.")
    ann.expect("Played for you, ")
    ben.until(lambda m: isinstance(m, UpdateMessage) and ben.view is not None and ben.view.is_my_turn)
    ben.send(MoveRequest(1, ben.view.legal_moves()[0], ben.number))  # at once: well within WAITING_DELAY
    ann.expect(r"Card\?", timeout=30)  # Ann's next turn
    time.sleep(0.5)
    whole = text(ann)
    screen = whole[whole.index("Ten seconds."):]
    at = said_in_order(screen, ["Ten seconds.", "Card? zq", "Five seconds.", "Time. A card is played for you.",
                                "Played for you, ", "Card?"])
    assert screen.count("Ten seconds.") == 1 and screen.count("Five seconds.") == 1
    assert "zq" not in screen[at:], f"the next turn's Card? starts empty:\n{screen}"
    assert_prompts_said_once(ann)
    ben.close()
    ann.sendcontrol("c")
    ann.close()
