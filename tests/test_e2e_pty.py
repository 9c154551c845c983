"""The real ``scopa`` in a pseudo-terminal, played by single keys (the KeyInput mode)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from helpers.pty import PROMPTS, answer, pexpect, spawn
from scopa.console.terminal import CLEAR_ALL
from scopa.engine import Card, Rules
from scopa.narration import CardNames, Messages, Narrator
from scopa.storage import AutosaveStore, load_results

pytestmark = pytest.mark.linux  # the real program in a pty

pytestmark = pytest.mark.slow

M = Messages("en")
NAMES = CardNames(M, "french")


def test_a_seeded_two_player_match_is_played_to_its_end_by_keys(tmp_path):
    child = spawn(tmp_path, "--seed", "3")
    seen = dict.fromkeys(range(len(PROMPTS)), 0)
    while True:
        index = child.expect(PROMPTS)
        seen[index] += 1
        if PROMPTS[index] is pexpect.EOF:
            break
        answer(child, index)
    child.close()
    assert child.exitstatus == 0
    assert seen[1] > 30 and seen[5] >= 1 and seen[0] == 0  # many turns, a next deal, no gate
    [result] = load_results(tmp_path / "data")
    transcript = child.logfile_read.getvalue()
    narrator = Narrator(result.players, Rules(), you=0)
    assert narrator.match_result(result.winner, result.scores) + "\r\n" in transcript  # winner, final score
    assert narrator.match_line(result.scores) not in transcript  # short: the final score is said once, above
    assert "\x1b[6n" not in transcript  # no cursor-position requests
    assert "Traceback" not in transcript


def card_pattern(cards) -> re.Pattern | None:
    names = [re.escape(NAMES.name(Card(c))) for c in cards]
    return re.compile(r"\b(" + "|".join(names) + r")\b") if names else None


def saved(tmp_path: Path):
    record = AutosaveStore(tmp_path / "data").load().record
    assert record is not None
    return record


def test_pass_and_play_never_shows_a_closed_hand(tmp_path):
    """Four humans, one deal: no hand is on the screen (or in the scrollback) while a gate waits,
    and a hidden hand never shows again until its owner opens it."""
    names = ["Ann", "Ben", "Cid", "Dee"]
    child = spawn(tmp_path, "--players", "4", "--seats", "human,human,human,human", "--names", ",".join(names),
                  "--target", "single", "--seed", "7")
    log = child.logfile_read
    hidden: dict[int, tuple[int, re.Pattern]] = {}  # seat -> (where its hand was hidden, its cards)
    gates = hides = 0
    while True:
        index = child.expect(PROMPTS)
        prompt = PROMPTS[index]
        text = log.getvalue()
        if prompt == "Open\\?":
            gates += 1
            page = text[text.rfind(CLEAR_ALL) + len(CLEAR_ALL) if CLEAR_ALL in text else 0:]
            seat = names.index(re.search(r"Pass to (\w+)\.", page).group(1))
            for hand in saved(tmp_path).state.hands:
                pattern = card_pattern(hand)
                assert pattern is None or not pattern.search(page), f"a hand shows at {names[seat]}'s gate"
            assert "Your hand" not in page
            if seat in hidden:
                start, pattern = hidden.pop(seat)
                found = pattern.search(text, start)
                assert found is None, f"{names[seat]}'s hidden hand showed: {found.group(0)}"
        elif prompt == "Hide\\?":
            hides += 1
            record = saved(tmp_path)  # saved after the move, before this prompt
            seat = record.moves[-1].seat
            pattern = card_pattern(record.state.hands[seat])
            if pattern is not None:
                hidden[seat] = (len(text), pattern)
        elif prompt is pexpect.EOF:
            break
        answer(child, index)
    child.close()
    assert child.exitstatus == 0
    assert gates == 36 and hides == 35  # the last play ends the deal: nothing left to hide
    transcript = log.getvalue()
    assert transcript.count(CLEAR_ALL) == hides  # cleared as each hand closes
    for start, pattern in hidden.values():
        assert pattern.search(transcript, start) is None
    [result] = load_results(tmp_path / "data")
    assert Narrator(names, Rules(players=4, target=None)).match_result(result.winner, result.scores) in transcript


def test_a_key_sent_the_instant_the_prompt_words_appear_is_never_lost(tmp_path):
    """A fast typist: T the moment "Card?" is on the screen, forty times; each is answered once."""
    child = spawn(tmp_path, "--seed", "3")
    child.delaybeforesend = 0
    rounds = 40
    for _ in range(rounds):
        child.expect(r"Card\?")
        child.send("t")
    child.expect(r"Card\?")
    child.terminate(force=True)
    transcript = re.sub(r"\x1b\[[?0-9;]*[a-zA-Z]|\r", "", child.logfile_read.getvalue())
    told = re.findall(r"^(?:Table, |The table is empty\.)", transcript, re.MULTILINE)  # T, and after each play
    plays = re.findall(r"^(?:You|Giulia) (?:play|plays|take|takes) ", transcript, re.MULTILINE)
    assert len(told) - len(plays) == rounds and "Traceback" not in transcript
