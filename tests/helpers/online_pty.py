"""``scopa host``, ``join`` and ``watch`` in pseudo-terminals (pexpect): a player's program, its keys,
what it showed, and a whole match answered prompt by prompt; shared by the online end-to-end tests
(test_online_pty, test_chat_pty, test_net_watch, test_finding_pty)."""
from __future__ import annotations

import io
import itertools
import os
import re
import sys
import time
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

SERVER_FLAGS = ("--grace", "1", "--turn-grace", "1")
ANSWERS = {r"Card\?": "1", r"Capture\?": "1", r"Play\?": "\r", r"Next\?": "\r"}
PROMPTS = [*ANSWERS, r"Waiting\?", r"Ready\?", r"Start\?", pexpect.EOF, pexpect.TIMEOUT]
RESULT = re.compile(r"(wins? the match|win the match|draw)[^\n]*", re.IGNORECASE)


def player(tmp_path: Path, who: str, *args: str):
    env = dict(os.environ, TERM="xterm-256color", NO_COLOR="1", PYTHONUNBUFFERED="1")
    env.pop("PROMPT_TOOLKIT_NO_CPR", None)
    command = [sys.executable, "-m", "scopa", *args, "--no-voice", "--lang", "en",
               "--data-dir", str(tmp_path / who / "data"), "--config-dir", str(tmp_path / who / "config")]
    child = pexpect.spawn(command[0], command[1:], env=env, encoding="utf-8", timeout=30, dimensions=(50, 200))
    child.logfile_read = io.StringIO()
    child.delaybeforesend = 0.005  # the game reads keys typed ahead, so no settling time is needed
    child.plain = "--plain" in args  # line mode: every key is followed by Enter
    return child


def menu_player(tmp_path: Path, url: str):
    """The game's main menu in line mode, its settings remembering ``url`` as the last server (voice off)."""
    config = tmp_path / "menu" / "config"
    config.mkdir(parents=True)
    (config / "settings.json").write_text(f'{{"voice": false, "last_server": "{url}"}}')
    return player(tmp_path, "menu", "--plain")


def press(child, key: str) -> None:
    child.send(key + "\r" if child.plain and key != "\r" else key)


def text(child) -> str:
    """What the terminal shows, without escape sequences and the cursor moves prompt_toolkit makes."""
    return re.sub(r"\x1b\[[?0-9;]*[a-zA-Z]|[\x00-\x09\x0b-\x1f]", "", child.logfile_read.getvalue())


def hosted(tmp_path: Path, url: str, *flags: str):
    host = player(tmp_path, "host", "host", "--server", url, "--name", "Ann", "--target", "single", *flags)
    host.expect(r"Room code (\w{6})\. ((?:\w, ){5}\w)\.")
    code, spelt = host.match.group(1), host.match.group(2)
    assert spelt == ", ".join(code)
    return host, code


def joined(tmp_path: Path, url: str, code: str, *flags: str, name: str = "Ben"):
    """The code typed as a person might: lower case, with a dash."""
    guest = player(tmp_path, "guest", "join", code.lower()[:3] + "-" + code.lower()[3:], "--server", url, "--name",
                   name, *flags)
    guest.expect(r"Ready\?")
    guest.send("\r")  # the instant the words appear: a key typed ahead is never lost
    return guest


def started_waiter_and_mover(tmp_path: Path, url: str):
    """A hosted room with a line-mode guest (Ben), started by the host, once the first turn's
    ``Card?`` is shown: (host, guest, waiter, mover), the mover being the seat to lead and the
    waiter the dealer, who waits for that lead."""
    host, code = hosted(tmp_path, url)
    guest = joined(tmp_path, url, code, "--plain")
    host.expect(r"Ben is ready\.")
    host.expect(r"Start\?")
    host.send("\r")
    dealt = host.expect([r"Deal 1\. You deal\.", r"Deal 1\. Ben deals\."])
    waiter, mover = (host, guest) if dealt == 0 else (guest, host)
    mover.expect(r"Card\?")
    return host, guest, waiter, mover


def play(children, until=lambda: False, seconds: float = 45.0) -> None:
    """Answer every prompt of every child (first card, first capture, Enter) until all have ended."""
    ended: set[int] = set()
    deadline = time.monotonic() + seconds
    while len(ended) < len(children) and not until():
        assert time.monotonic() < deadline, "the match did not end"
        moved = False
        for index, child in enumerate(children):
            if index in ended:
                continue
            prompt = PROMPTS[child.expect(PROMPTS, timeout=0)]
            moved = moved or prompt is not pexpect.TIMEOUT
            if prompt is pexpect.EOF:
                ended.add(index)
            elif prompt in ANSWERS:
                press(child, ANSWERS[prompt])
            elif prompt == r"Start\?":
                child.send("\r")
        if not moved:
            time.sleep(0.01)


def played_to_the_end(children, seconds: float = 45.0) -> None:
    """``play`` the match to its end in every child, then close each: each ended with exit code 0."""
    play(children, seconds=seconds)
    for child in children:
        child.close()
    assert [child.exitstatus for child in children] == [0] * len(children)


PROMPT_LINE = re.compile(r"(Card|Capture|Play|Next|Waiting|Ready|Start|Leave)\?")


def assert_prompts_said_once(child) -> None:
    """Every prompt alone on its line (news never runs on after it), never twice in a row with
    nothing between: what Orca reads once per prompt (heard so with screen-reader-capture.sh)."""
    rows = [row.strip() for row in text(child).splitlines() if row.strip()]
    for row in rows:
        if PROMPT_LINE.search(row):
            assert PROMPT_LINE.fullmatch(row), f"text on a prompt's line: {row!r}"
    doubled = [a for a, b in itertools.pairwise(rows) if a == b and PROMPT_LINE.fullmatch(a)]
    assert doubled == []


def final_scores(child) -> list[int]:
    found = re.findall(r"Final score\. (\w+) (\d+), (\w+) (\d+)\.", text(child))
    assert found, text(child)[-2000:]
    return [int(found[-1][1]), int(found[-1][3])]
