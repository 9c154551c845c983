"""A whole match of Scopa a 15 and of Cirulla, played by keys in a pseudo-terminal, in English and
Italian (issue 32): the real ``scopa`` with ``--variant``, every prompt answered by one key."""
from __future__ import annotations

import io
import os
import re
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

from scopa.engine import Rules  # noqa: E402
from scopa.narration import Messages, Narrator  # noqa: E402
from scopa.record.replay import replay_match  # noqa: E402
from scopa.storage import load_results, record_from_dict  # noqa: E402

pytestmark = pytest.mark.linux  # the real program in a pty

pytestmark = pytest.mark.slow

KEYS = ("card", "capture", "play", "next_deal", "claim")


def spawn(tmp_path: Path, lang: str, *flags: str):
    env = dict(os.environ, TERM="xterm-256color", NO_COLOR="1", PYTHONUNBUFFERED="1")
    env.pop("PROMPT_TOOLKIT_NO_CPR", None)
    command = [sys.executable, "-m", "scopa", "--no-voice", "--lang", lang, "--data-dir", str(tmp_path / "data"),
               "--config-dir", str(tmp_path / "config"), *flags]
    child = pexpect.spawn(command[0], command[1:], env=env, encoding="utf-8", timeout=60, dimensions=(50, 200))
    child.logfile_read = io.StringIO()
    child.delaybeforesend = 0.005
    return child


@pytest.mark.parametrize("variant, lang, flags", [
    ("scopa_15", "en", ("--options", "win_by_two")), ("scopa_15", "it", ()),
    ("cirulla", "en", ()), ("cirulla", "it", ("--target", "single")),
])
def test_a_whole_match_of_each_variant_by_keys(tmp_path, variant, lang, flags):
    m = Messages(lang)
    prompts = [re.escape(m(f"prompt.{key}")) for key in KEYS] + [pexpect.EOF]
    child = spawn(tmp_path, lang, "--variant", variant, "--seed", "4", *flags)
    seen = dict.fromkeys(range(len(prompts)), 0)
    while True:
        index = child.expect(prompts)
        seen[index] += 1
        if prompts[index] is pexpect.EOF:
            break
        # The first card and the first capture; Enter plays and deals on; 1 claims every bonus.
        child.send("1" if KEYS[index] in ("card", "capture", "claim") else "\r")
    child.close()
    transcript = child.logfile_read.getvalue()
    assert child.exitstatus == 0, transcript[-2000:]
    assert "Traceback" not in transcript
    [result] = load_results(tmp_path / "data")
    assert result.variant == variant
    rules = record_from_dict(result.match).rules
    assert rules == Rules.for_variant(variant, **_options(flags))
    narrator = Narrator(result.players, rules, you=0, lang=lang)
    assert narrator.match_result(result.winner, result.scores) + "\r\n" in transcript
    assert seen[0] > 15
    game = m(f"setup.game.{variant}")
    assert f"{m('setup.new')} {game}" in transcript
    if variant == "scopa_15":
        assert ("to make fifteen" if lang == "en" else "per fare quindici") in transcript \
            or ", fifteen." in transcript or ", quindici." in transcript
        if flags:
            assert abs(result.scores[0] - result.scores[1]) >= 2 and max(result.scores) >= 11
    else:
        assert max(result.scores) >= 51 or "--target" in flags
        words = ("Hand bonuses." if lang == "en" else "Bonus della mano.")
        assert words in transcript  # the score sheet's bonus line
        if seen[KEYS.index("claim")]:  # the player claimed: said to everyone with the cards
            claimed = ("for you" if lang == "en" else "per te")
            assert claimed in transcript
        # Issue 43: every grande and piccola a deal made is on its sheet, by name, with its points.
        for deal in replay_match(record_from_dict(result.match)):
            for name, values in (("Grande", [s.grande for s in deal.score.sides]),
                                 ("Piccola", [s.piccola for s in deal.score.sides])):
                if any(values):
                    assert re.search(rf"{name}\. [^\r\n]*{max(values)}", transcript), name


def _options(flags: tuple[str, ...]) -> dict[str, object]:
    options: dict[str, object] = {}
    if "--target" in flags:
        options["target"] = None
    if "win_by_two" in flags:
        options["win_by_two"] = True
    return options
