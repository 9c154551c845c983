"""Online play as a newcomer finds it (issue 38), in pseudo-terminals against a real ``scopa serve``
on loopback: commands that leave no trace at the prompt, a quick match for anyone with a name,
a player key never replaced unasked, no silent wait, and the words said as people say them."""
from __future__ import annotations

import re

import pytest

from helpers.online_pty import SERVER_FLAGS, hosted, play, player, text

pexpect = pytest.importorskip("pexpect")

pytestmark = pytest.mark.slow


def quiet(child, seconds: float = 1.0) -> str:
    """Read what the program shows for ``seconds``; all it has shown."""
    try:
        child.expect(pexpect.TIMEOUT, timeout=seconds)
    except pexpect.EOF:
        pass
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
        assert re.search(r"You are (1st|2nd) of 2, rating (minus |-)?[0-9]", seen), seen[-600:]
