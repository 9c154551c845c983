"""The kinds of news a match tells unasked, the three profiles that set them, and fewer words
at four-player and pass-and-play tables (issue 30, "Too many words")."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from helpers.console import lines_of, program_for, request_for
from scopa.bench.words import hands_before_gate, words_per_turn
from scopa.config import Settings, load_settings
from scopa.console.keys import COMMAND_KEYS
from scopa.console.terminal import ENTER, ESCAPE
from scopa.narration import Messages
from scopa.narration.narrator import KEYS_LEARNT
from scopa.narration.news import PROFILE_NEWS, News, next_profile, profile_of

M = Messages("en")
PLAY = re.compile(r"^(?:Scopa! )?[A-Z][a-z]+(?: plays |'s )")  # another player's play, its card staying or taking
FOUR = ("--players", "4", "--seats", "human,computer:easy,computer:easy,computer:easy", "--seed", "8")
PASS = ("--seats", "human,human", "--names", "Ann,Ben", "--seed", "8")


def _lines(tmp_path: Path, tokens: str | list[str], *flags: str, settings: Settings | None = None) -> list[str]:
    """The printed lines of a match, each prompt as the bench sees it ("Card?", without what was typed)."""
    program, out, _ = program_for(tmp_path, tokens, settings=settings)
    program.run(request_for(*flags))
    return [re.sub(r"^(\S+\?) .*$", r"\1", line).strip() for line in lines_of(out) if line.strip()]


def _plays_between_turns(lines: list[str]) -> list[tuple[int, bool]]:
    """For each turn after the first: (how many plays of others came since the last Card?, was a table said)."""
    turns: list[tuple[int, bool]] = []
    plays, table, started = 0, False, False
    for line in lines:
        if line == "Card?":
            if started:
                turns.append((plays, table))
            started, plays, table = True, 0, False
        elif started and PLAY.match(line) and not line.startswith("You "):
            plays += 1
        elif started and ("Table," in line or line == "The table is empty."):
            table = True
    return turns


def test_four_players_at_the_default_leave_out_the_table_that_three_told_plays_just_built(tmp_path: Path) -> None:
    lines = _lines(tmp_path, ["1", ENTER] * 12, *FOUR)
    turns = _plays_between_turns(lines)
    after_three = [table for plays, table in turns if plays == 3]
    assert after_three and not any(after_three)  # before the change every one of them read the table
    assert "t" in COMMAND_KEYS  # T still reads it


def test_two_players_still_hear_the_table_after_the_one_play_between_turns(tmp_path: Path) -> None:
    lines = _lines(tmp_path, ["1", ENTER] * 8, "--seed", "3")
    turns = _plays_between_turns(lines)
    assert turns and all(table for plays, table in turns if plays == 1)


def test_four_player_words_per_turn_meet_the_median_target(tmp_path: Path) -> None:
    lines = _lines(tmp_path, ["1", ENTER] * 40, *FOUR)
    turns = sorted(words_per_turn(lines))
    assert len(turns) > 20
    assert turns[len(turns) // 2] <= 32  # 43 before


def test_the_table_after_each_play_switch_reads_it_after_every_play(tmp_path: Path) -> None:
    settings = Settings(voice=False).with_news(News(table=True))
    lines = _lines(tmp_path, ["1", ENTER] * 6, *FOUR, settings=settings)
    for at, line in enumerate(lines):
        if PLAY.match(line) and at + 1 < len(lines) and not lines[at + 1].startswith("Deal "):
            assert lines[at + 1].startswith(("Table,", "The table is empty.", "New cards")), lines[at:at + 2]


def test_other_players_plays_switched_off_are_not_said_and_the_table_is(tmp_path: Path) -> None:
    settings = Settings(voice=False).with_news(News(plays=False))
    lines = _lines(tmp_path, ["1", ENTER] * 6, *FOUR, settings=settings)
    others = [line for line in lines if PLAY.match(line)]
    assert others == []
    assert all(table for _, table in _plays_between_turns(lines))


def test_the_new_hand_switched_off_leaves_the_hand_to_h(tmp_path: Path) -> None:
    settings = Settings(voice=False).with_news(News(hand=False))
    lines = _lines(tmp_path, ["h", "1", ENTER] * 3, "--seed", "3", settings=settings)
    hands = [at for at, line in enumerate(lines) if line.startswith("Hand,")]
    assert hands and all(lines[at - 1].startswith("Card?") for at in hands)  # only ever as H's answer


def test_the_score_sheet_switched_off_says_points_and_match_and_b_gives_the_sheet(tmp_path: Path) -> None:
    settings = Settings(voice=False).with_news(News(score=False))
    lines = _lines(tmp_path, "1\n\n" * 22 + "b\n", "--seed", "3", settings=settings)
    start = lines.index(M("score.header", number=1))
    said = lines[start:lines.index("Next?", start)]
    assert not any(line.startswith(("Cards.", "Primiera.", "Scope.")) for line in said)
    assert any(line.startswith("Deal points.") for line in said)
    assert any(line.startswith("Match.") for line in said)
    assert any(line.startswith("Primiera.") for line in lines[lines.index("Next?", start):])  # B


def test_pass_and_play_tells_a_move_once_keeps_hands_behind_the_gate_and_shortens_the_gate(tmp_path: Path) -> None:
    lines = _lines(tmp_path, "\n1\n\n\n" * 12, *PASS)
    assert hands_before_gate(lines) == 0
    gates = [line for line in lines if line.startswith("Pass to Ann")]
    assert gates[:KEYS_LEARNT] == [M("gate.pass", name="Ann")] * KEYS_LEARNT
    assert gates[KEYS_LEARNT:] and set(gates[KEYS_LEARNT:]) == {M("gate.pass.short", name="Ann")}
    assert lines.count(M("gate.hide")) == 2 * KEYS_LEARNT  # then Hide? alone
    assert not any(line.startswith(("Ann plays", "Ben plays", "Ann's", "Ben's")) and " took " not in line
                   for line in lines)  # the mover's play is not told back: the next player's catch-up tells it
    assert any(line.startswith(("Ann played ", "Ann's ")) for line in lines)
    assert "Ann, your turn." not in lines  # the gate has just named her


def test_pass_and_play_words_per_turn_meet_the_targets(tmp_path: Path) -> None:
    turns = sorted(words_per_turn(_lines(tmp_path, "\n1\n\n\n" * 60, *PASS)))
    assert len(turns) > 40
    assert turns[len(turns) // 2] <= 45 and turns[int(0.9 * len(turns))] <= 60  # 69 and 79 before


def test_profiles_set_every_switch_and_the_words_and_cycle_in_order() -> None:
    assert profile_of(PROFILE_NEWS["default"], "short") == "default"
    assert profile_of(PROFILE_NEWS["full"], "full") == "full"
    assert profile_of(PROFILE_NEWS["brief"], "short") == "brief"
    assert profile_of(News(plays=False), "short") is None  # switches of one's own
    assert [next_profile(p) for p in ("brief", "default", "full", None)] == ["default", "full", "brief", "default"]
    assert Settings(verbosity="full").news == PROFILE_NEWS["full"]  # a settings file from before the switches
    assert Settings().news == PROFILE_NEWS["default"]
    assert Settings().with_profile("brief").news == PROFILE_NEWS["brief"]


def test_the_a_key_cycles_the_profiles_says_which_is_on_and_saves_it(tmp_path: Path) -> None:
    program, out, _ = program_for(tmp_path, ["a", "a", "a", "a", ESCAPE], settings=Settings(voice=False))
    program.run(request_for("--seed", "3"))
    lines = lines_of(out)
    said = [line for line in lines if line.endswith("announcements.") or " announcements. " in line]
    assert said[:4] == [M("profile.full"), M("profile.brief"), M("profile.default"), M("profile.full")]
    saved, problem = load_settings(tmp_path / "config")
    assert problem is None and profile_of(saved.news, saved.words) == "full"
    assert any("A announcements" in line for line in (M("help.3"),))


def test_the_announcements_menu_switches_one_kind_and_says_it(tmp_path: Path) -> None:
    program, out, _ = program_for(tmp_path, ["5", "3", ESCAPE, ESCAPE, "q", ENTER])  # settings item 5, then 3
    program.settings_menu()
    lines = lines_of(out)
    assert M("settings.news.table.now", state="on") in lines
    saved = json.loads((tmp_path / "config" / "settings.json").read_text())
    assert saved["news_table"] is True
    assert profile_of(program.settings.news, program.settings.words) is None


@pytest.mark.parametrize("flag, profile", [("brief", "brief"), ("default", "default"), ("short", "default"),
                                           ("full", "full")])
def test_the_verbosity_flag_names_a_profile(flag: str, profile: str) -> None:
    from scopa.cli import build_parser, settings_from_args
    args = build_parser().parse_args(["--verbosity", flag])
    settings = settings_from_args(args, Settings(news_plays=False))  # the flag sets the profile's switches
    assert profile_of(settings.news, settings.words) == profile
