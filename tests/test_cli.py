"""Command-line flags: everything the new-match questions ask is also a flag."""
from __future__ import annotations

import subprocess
import sys

import pytest

from scopa.__main__ import main
from scopa.cli import UsageError, argparse_problem, build_parser, rules_from_args, seats_from_args, wants_new_match
from scopa.engine import Rules, Variant
from scopa.narration import Messages

M = Messages("en")


def parse(*flags: str):
    args = build_parser().parse_args(list(flags))
    rules = rules_from_args(args)
    return args, rules, seats_from_args(args, rules)


def test_help_all_lists_every_flag(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--help", "all"])
    assert done.value.code == 0
    text = capsys.readouterr().out
    for flag in ("--players", "--seats", "--names", "--target", "--variant", "--options", "--no-kings-redeal",
                 "--seed", "--budget", "--voice", "--no-voice", "--plain", "--lang", "--cards", "--verbosity",
                 "--resume", "--export", "--import", "--lesson", "--data-dir", "--config-dir", "--version"):
        assert flag in text, flag



FLAGS = ("--players", "--seats", "--names", "--target", "--variant", "--options", "--no-kings-redeal", "--seed",
         "--budget", "--voice", "--no-voice", "--plain", "--lang", "--cards", "--verbosity", "--resume", "--export",
         "--import", "--lesson", "--data-dir", "--config-dir", "--version", "--help")


def help_text(capsys, *flags: str) -> str:
    with pytest.raises(SystemExit) as done:
        main(["--help", "all", *flags])
    assert done.value.code == 0
    return capsys.readouterr().out


def test_help_speaks_italian_when_asked(capsys, tmp_path):
    text = help_text(capsys, "--lang", "it", "--config-dir", str(tmp_path))
    assert text.startswith("uso scopa seguito da una qualsiasi delle opzioni qui sotto\n")
    for line in ("2, 3 o 4 giocatori, 2 se non indicato", "le opzioni più usate, o tutte con --help all"):
        assert line in " ".join(text.split()), line
    assert "\nsuono e schermo\n" in text  # no colon after a title: Orca would say "colon"
    assert "[--" not in text  # no synopsis of every flag for a screen reader to spell out
    assert "{" not in text  # no braces around choices either
    for flag in FLAGS:
        assert flag in text, flag
    for english in ("usage", "show this help", "number of players", "options:", "WPM", "SEATS", "DATA_DIR"):
        assert english not in text, english


def system_locale(monkeypatch, lang: str) -> None:
    """The machine's language as the game reads it: ``LANG`` alone, nothing overriding it."""
    monkeypatch.setenv("LANG", lang)
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)


def test_help_follows_the_saved_language_then_the_system(capsys, tmp_path, monkeypatch):
    from scopa.config import Settings, save_settings
    system_locale(monkeypatch, "it_IT.UTF-8")
    assert help_text(capsys, "--config-dir", str(tmp_path)).startswith("uso scopa ")
    assert save_settings(Settings(language="en"), tmp_path) is None
    assert help_text(capsys, "--config-dir", str(tmp_path)).startswith("usage scopa ")
    assert help_text(capsys, "--config-dir", str(tmp_path), "--lang", "it").startswith("uso scopa ")


def test_a_flag_missing_its_value_is_reported_once(capsys, tmp_path, monkeypatch):
    system_locale(monkeypatch, "C.UTF-8")  # English, whatever the machine's language
    with pytest.raises(SystemExit) as done:
        main(["--config-dir", str(tmp_path), "--lang"])
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert err == "scopa: --lang needs a value.\nscopa --help all lists every option.\n"


@pytest.mark.parametrize("flags, english, italian", [
    (["--players", "5"], "--players cannot be 5. Choose from 2, 3, 4.",
     "--players non può essere 5. Scegli tra 2, 3, 4."),
    (["--seed", "x"], "--seed needs a number, or the sixty four hex digits of a match seed, not x.",
     "--seed vuole un numero, o le sessantaquattro cifre esadecimali del seme di una partita, non x."),
    (["--variant", "z"], ("--variant cannot be z. Choose from scopa, scopone_scientifico, scopone_classico, scopa_15, "
     "cirulla."), None),
    (["--voice", "--no-voice"], "--no-voice cannot be used together with --voice.", None),
    (["--plain=3"], "--plain takes no value.", "--plain non vuole un valore."),
    (["--zzz"], "--zzz is not a scopa option.", "--zzz non è un'opzione di scopa."),
])
def test_a_bad_flag_is_one_sentence_in_the_players_language(capsys, tmp_path, flags, english, italian):
    for lang, wanted in (("en", english), ("it", italian)):
        with pytest.raises(SystemExit) as done:
            main(["--config-dir", str(tmp_path), "--lang", lang, *flags])
        assert done.value.code == 2
        first, hint, end = capsys.readouterr().err.split("\n")
        assert first.startswith("scopa: ") and end == ""
        if wanted is not None:
            assert first == "scopa: " + wanted
        assert hint == Messages(lang)("cli.help_hint", command="scopa --help all")
        assert "argument" not in first and "'" not in first.replace("un'", "")  # no argparse English, no quotes


def test_an_argparse_message_of_unknown_shape_is_kept_as_written():
    assert argparse_problem("something new went wrong", Messages("it")) == "something new went wrong"

def test_the_example_from_the_issue():
    args, rules, seats = parse("--players", "4", "--seats", "human,computer:hard,human,computer:easy",
                               "--target", "21", "--seed", "7", "--no-voice")
    assert rules.players == 4 and rules.target == 21 and args.seed == 7 and args.voice is False
    assert [(s.kind, s.level) for s in seats] == [("human", None), ("computer", "hard"), ("human", None),
                                                  ("computer", "easy")]
    assert seats[0].name != seats[2].name  # two humans are told apart by name
    assert len({s.name for s in seats}) == 4


def test_the_default_is_one_human_against_one_named_computer():
    _args, rules, seats = parse("--seed", "1")
    assert rules.players == 2 and rules.target == 11 and rules.kings_redeal
    assert seats[0].is_human and not seats[1].is_human and seats[1].level == "easy"
    assert seats[1].name and seats[1].name != seats[0].name


def test_names_variant_options_and_single_deal():
    _, rules, seats = parse("--seats", "human,human,human,human", "--names", "Ann,Ben,Cid,Dee",
                            "--variant", "scopone_scientifico", "--options", "napola,re-bello",
                            "--target", "single", "--no-kings-redeal")
    assert [s.name for s in seats] == ["Ann", "Ben", "Cid", "Dee"]
    assert rules.variant is Variant.SCOPONE_SCIENTIFICO and rules.target is None
    assert rules.napola and rules.re_bello and not rules.kings_redeal


@pytest.mark.parametrize("flags", [
    ("--seats", "human,robot"), ("--seats", "computer,computer"), ("--players", "3", "--seats", "human,human"),
    ("--target", "12"), ("--target", "lots"), ("--options", "nonsense"), ("--players", "2", "--variant",
                                                                          "scopone_classico"),
])
def test_bad_flags_are_one_plain_sentence(flags):
    args = build_parser().parse_args(list(flags))
    with pytest.raises(UsageError):
        rules = rules_from_args(args)
        seats_from_args(args, rules)


def test_bad_flags_exit_2_with_the_sentence_on_stderr(capsys):
    assert main(["--seats", "human,robot"]) == 2
    assert capsys.readouterr().err.startswith("scopa: Unknown seat")


def test_which_flags_start_a_new_match_at_once():
    assert not wants_new_match(build_parser().parse_args([]))
    assert not wants_new_match(build_parser().parse_args(["--no-voice", "--plain"]))
    assert wants_new_match(build_parser().parse_args(["--seed", "3"]))
    assert wants_new_match(build_parser().parse_args(["--players", "3"]))


def test_version(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("scopa ")


def test_a_scripted_game_reads_cleanly_in_a_pipe(tmp_path):
    """``scopa --seed 1 --no-voice < keys.txt``: plain lines, no escape codes, exit 0 at the end."""
    keys = "1\n\n" * 5
    done = subprocess.run([sys.executable, "-m", "scopa", "--seed", "1", "--no-voice", "--lang", "en",
                           "--data-dir", str(tmp_path / "d"), "--config-dir", str(tmp_path / "c")], input=keys,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0
    assert "\x1b" not in done.stdout and done.stderr == ""
    lines = done.stdout.splitlines()
    assert lines[0].startswith("New match.")
    assert "Card? 1" in lines and any(line.startswith("Hand, ") for line in lines)
    assert "Your turn." not in lines  # short: the hand and Card? say it
    assert lines[-1] == M("app.input_closed")


def test_term_dumb_uses_the_line_mode(tmp_path, monkeypatch):
    from scopa.console.terminal import LineInput, make_input
    monkeypatch.setenv("TERM", "dumb")
    assert isinstance(make_input(False), LineInput)
    assert isinstance(make_input(True), LineInput)


def test_a_broken_settings_file_is_one_line_and_the_game_goes_on(tmp_path):
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "settings.json").write_text("{not json")
    done = subprocess.run([sys.executable, "-m", "scopa", "--no-voice", "--lang", "en", "--data-dir",
                           str(tmp_path / "d"), "--config-dir", str(tmp_path / "c")], input="4\n",
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0
    first = done.stdout.splitlines()[0]
    assert first.startswith("Your settings file could not be read") and str(tmp_path / "c") in first


def test_export_flag_warns_then_writes(tmp_path):
    base = [sys.executable, "-m", "scopa", "--no-voice", "--lang", "en", "--data-dir", str(tmp_path / "d"),
            "--config-dir", str(tmp_path / "c")]
    subprocess.run([*base, "--seed", "2"], input="1\n\n", capture_output=True, text=True, timeout=60, check=False)
    done = subprocess.run([*base, "--export", str(tmp_path / "m.json")], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0
    assert done.stdout.splitlines() == [M("export.file_warning"), M("export.done", path=tmp_path / "m.json")]
    assert (tmp_path / "m.json").exists()
    written = (tmp_path / "m.json").read_text()
    (tmp_path / "m.json").write_text("mine")
    again = subprocess.run([*base, "--export", str(tmp_path / "m.json")], capture_output=True, text=True,
                           timeout=60, check=False)
    assert again.returncode == 1
    assert again.stderr.splitlines() == ["scopa: " + M("export.exists", path=tmp_path / "m.json")]
    assert (tmp_path / "m.json").read_text() == "mine" and written != "mine"  # never replaced unasked


@pytest.mark.parametrize("lang", ["en", "it"])
def test_help_alone_is_a_few_lines_a_listener_can_take_in(capsys, tmp_path, lang):
    with pytest.raises(SystemExit) as done:
        main(["--help", "--lang", lang, "--config-dir", str(tmp_path)])
    assert done.value.code == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) <= 10 and all(len(line) <= 160 for line in lines)
    for flag in ("--no-voice", "--voice", "--lang", "--resume", "--lesson"):
        assert any(line.startswith((flag + " ", flag + ",")) for line in lines), flag
    assert "--budget" not in " ".join(lines) and "[" not in " ".join(lines)
    assert lines[-1] == Messages(lang)("cli.help_hint", command="scopa --help all")


def test_help_all_tells_of_the_short_form_without_brackets(capsys):
    with pytest.raises(SystemExit):
        main(["--help", "all"])
    text = " ".join(capsys.readouterr().out.split())
    assert "-h, --help the options used most, or every one with --help all" in text and "[" not in text


def test_options_switch_the_new_rules_on_and_no_switches_a_games_own_off():
    _, rules, _ = parse("--variant", "cirulla", "--options", "cappotto,no_ace_scopa,matta_table,table_nine")
    assert rules == Rules.cirulla(cappotto=True, ace_scopa=False, matta_table=True, table_nine=True)
    _, rules, _ = parse("--variant", "cirulla", "--options", "no_grande_piccola")
    assert not rules.grande_piccola and rules.ace_scopa
    _, rules, _ = parse("--variant", "scopa_15", "--options", "opening_to_leader,no_opening_pairs")
    assert rules == Rules.scopa_15(opening_to_leader=True, opening_pairs=False)
    with pytest.raises(UsageError) as error:
        parse("--options", "cappotto")  # a Cirulla option, in Scopa
    assert "not played with scopa" in str(error.value)
    with pytest.raises(UsageError) as error:
        parse("--variant", "cirulla", "--options", "nonsense")
    assert "cappotto" in str(error.value) and "no_ace_scopa" in str(error.value) and "napola" not in str(error.value)
    with pytest.raises(UsageError):
        parse("--options", "no_napola")  # only what a game has on by default can be switched off
