"""Command-line values are read one way for every flag, and flags that cannot go together are refused."""
from __future__ import annotations

import pytest

from scopa.__main__ import main
from scopa.cli import build_parser, conflicting_flags, rules_from_args, seats_from_args, wants_new_match
from scopa.engine import Variant
from scopa.narration import Messages

M = Messages("en")


def usage_error(capsys, tmp_path, *flags: str) -> str:
    """Run the program with ``flags``; it must refuse them with exit 2 and one "scopa: " line first on stderr."""
    argv = ["--no-voice", "--plain", "--data-dir", str(tmp_path / "d"), "--config-dir", str(tmp_path / "c"), *flags]
    try:
        code = main(argv)
    except SystemExit as done:
        code = done.code
    captured = capsys.readouterr()
    assert code == 2, captured
    assert captured.out == ""
    first = captured.err.splitlines()[0]
    assert first.startswith("scopa: ")
    return first[len("scopa: "):]


@pytest.mark.parametrize("flag, value", [("--players", "\uff12"), ("--players", "\u0663"), ("--seed", "\u0663"),
                                         ("--rate", "\uff11\uff15\uff10"), ("--volume", "\u00b2"),
                                         ("--lesson", "\uff11"), ("--budget", "\uff12"), ("--budget", "nan"),
                                         ("--seed", "1" * 40)])
def test_numbers_are_ascii_digits_only(capsys, tmp_path, flag, value):
    line = usage_error(capsys, tmp_path, flag, value)
    assert line.startswith(f"{flag} needs a number")


# (flags as a player might type them, the attribute, the value read): spaces around any value go,
# and the game's own words are read in any case.
SAME_RULES = [
    (["--players", " 3 "], "players", 3),
    (["--seed", " 42 "], "seed", 42),
    (["--rate", " 200 "], "rate", 200),
    (["--volume", " 50 "], "volume", 50),
    (["--lesson", " 2 "], "lesson", 2),
    (["--budget", " 0.5 "], "budget", 0.5),
    (["--lang", " IT "], "lang", "it"),
    (["--cards", "Napoletane"], "cards", "napoletane"),
    (["--verbosity", "FULL "], "verbosity", "full"),
    (["--variant", " Scopone_Scientifico"], "variant", "scopone_scientifico"),
    (["--seats", " Human,Computer:Hard "], "seats", "human,computer:hard"),
    (["--options", " NAPOLA, Re_Bello"], "options", "napola, re_bello"),
    (["--target", " Single "], "target", "single"),
    (["--names", "  Alice,Bob  "], "names", "Alice,Bob"),  # a name keeps its case
    (["--export", " game.json "], "export", "game.json"),
    (["--import", " game.json "], "import_file", "game.json"),
    (["--review", " LAST "], "review", "last"),
]


@pytest.mark.parametrize("flags, name, value", SAME_RULES)
def test_every_flag_trims_and_reads_its_words_in_any_case(flags, name, value):
    assert getattr(build_parser().parse_args(flags), name) == value


def test_trimmed_and_capitalised_words_make_the_same_match():
    args = build_parser().parse_args(["--players", " 4 ", "--variant", "SCOPONE_CLASSICO", "--options", "Napola",
                                      "--target", " 21 "])
    rules = rules_from_args(args)
    assert rules.players == 4 and rules.variant is Variant.SCOPONE_CLASSICO and rules.napola and rules.target == 21


@pytest.mark.parametrize("flag", ["--export", "--import", "--data-dir", "--config-dir"])
def test_an_empty_file_name_is_no_file_name(capsys, tmp_path, flag):
    assert usage_error(capsys, tmp_path, flag, "  ") == M("cli.error.needs_value", flag=flag)


@pytest.mark.parametrize("flags", [["--seats", "human," + "x" * 5000], ["--options", "y" * 5000],
                                   ["--lang", "z" * 5000], ["--players", "9" * 5000], ["--" + "w" * 5000]])
def test_long_bad_values_are_cut_short_in_the_message(capsys, tmp_path, flags):
    line = usage_error(capsys, tmp_path, *flags)
    assert len(line) < 200 and "\u2026" in line


@pytest.mark.parametrize("flags, flag, other", [
    (["--import", "F", "--players", "4"], "--import", "--players"),
    (["--lesson", "1", "--players", "4"], "--lesson", "--players"),
    (["--export", "F", "--import", "G"], "--import", "--export"),
    (["--resume", "--players", "2"], "--resume", "--players"),
    (["--resume", "--seed", "3"], "--resume", "--seed"),
    (["--resume", "--import", "F"], "--resume", "--import"),
    (["--export", "F", "--seed", "1"], "--export", "--seed"),
    (["--lesson", "2", "--budget", "3"], "--lesson", "--budget"),
    (["--export", "F", "--budget", "3"], "--export", "--budget"),
    (["--import", "F", "--names", "Al"], "--import", "--names"),
    (["--lesson", "1", "--no-kings-redeal"], "--lesson", "--no-kings-redeal"),
    (["--stats", "--seed", "3"], "--stats", "--seed"),
    (["--review", "last", "--players", "3"], "--review", "--players"),
    (["--stats", "--review", "1"], "--stats", "--review"),
    (["--review", "1", "--budget", "2"], "--review", "--budget"),
])
def test_flags_that_would_be_ignored_together_are_refused(capsys, tmp_path, flags, flag, other):
    assert conflicting_flags(build_parser().parse_args(flags)) == (flag, other)
    if flag == "--resume" and other != "--import":  # the saved matches' own wording for this one
        expected = M("usage.resume_new_match", resume="--resume", players="--players", seed="--seed")
    else:
        expected = M("usage.not_with", flag=flag, other=other)
    assert usage_error(capsys, tmp_path, *flags) == expected


@pytest.mark.parametrize("flags", [[], ["--resume"], ["--import", "F"], ["--lesson", "1"], ["--budget", "2"],
                                   ["--seed", "3", "--budget", "2", "--seats", "human,computer:expert"],
                                   ["--export", "F", "--cards", "napoletane"]])
def test_flags_that_go_together_are_not_refused(flags):
    assert conflicting_flags(build_parser().parse_args(flags)) is None


def test_names_alone_start_a_match_with_those_names():
    args = build_parser().parse_args(["--names", "Alice"])
    assert wants_new_match(args)
    rules = rules_from_args(args)
    assert next(seat.name for seat in seats_from_args(args, rules)) == "Alice"


def test_more_names_than_human_seats_is_refused(capsys, tmp_path):
    assert usage_error(capsys, tmp_path, "--names", "Alice,Bob") == M("usage.names_count", count=2, humans=1)


def test_a_budget_for_a_match_without_an_expert_is_refused(capsys, tmp_path):
    line = usage_error(capsys, tmp_path, "--seed", "3", "--budget", "2")
    assert line == M("usage.budget_no_expert")


@pytest.mark.parametrize("lesson", ["0", "99", "-1"])
def test_a_lesson_that_does_not_exist_is_a_usage_error_on_stderr(capsys, tmp_path, lesson):
    from scopa.lessons.content import LESSON_TOTAL
    assert usage_error(capsys, tmp_path, "--lesson", lesson) == M("usage.lesson", n=int(lesson),
                                                                   count=LESSON_TOTAL)
