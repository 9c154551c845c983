"""Storage and command-line errors speak the player's language: English words never reach an Italian line.

Every ``SaveFileError`` keeps its English ``str()`` for logs and gives ``localised(messages)``:
one line, from the catalogues in every language; the engine's English sentence is only ``detail``.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers.i18n import english_in
from helpers.storage import TWO, played, write_damaged_file
from scopa.cli import UsageError, build_parser, rules_from_args, seats_from_args, settings_from_args
from scopa.config import Settings
from scopa.engine import Rules
from scopa.narration import Messages
from scopa.storage import MIGRATIONS, VERSION, AutosaveStore, SaveFileError, import_match, load_results, match_to_json
from scopa.storage import files as files_module
from scopa.table.persistence import Persistence

EN, IT = Messages("en"), Messages("it")
QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")  # a value copied from the file, such as an unknown field 'to'


def assert_italian(error: SaveFileError | UsageError) -> str:
    line = error.localised(IT)
    assert line and "\n" not in line and "\r" not in line and "{" not in line, line
    assert english_in(QUOTED.sub(" ", line), ("scopa-match",)) == [], line  # the format name is a code word
    assert not re.search(r"[()]|:\s", line), line  # screen readers speak them
    assert error.localised(EN) == str(error)  # the English line is the one the logs keep
    return line


def _fails(tmp_path: Path, content: str | bytes | Any) -> SaveFileError:
    path = tmp_path / "in.json"
    if not isinstance(content, (str, bytes)):
        content = json.dumps(content)
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    with pytest.raises(SaveFileError) as caught:
        import_match(path)
    return caught.value


def _good() -> dict[str, Any]:
    return json.loads(match_to_json(played(Rules(), TWO, 9, turns=20)))


def _changed(change) -> dict[str, Any]:
    data = _good()
    change(data)
    return data


def _illegal(data: dict[str, Any]) -> None:
    next(m for m in data["moves"] if m["capture"])["capture"] = []


def _swap_stock(data: dict[str, Any]) -> None:
    stock = data["state"]["stock"]
    stock[0], stock[1] = stock[1], stock[0]


BAD_FILES = {
    "empty": "",
    "not json": '{\n"format":\n}',
    "not utf-8": b"\xff\xfe\x00garbage",
    "a list": "[]",
    "chess": {"format": "chess"},
    "no version": {"format": "scopa-match"},
    "newer": _changed(lambda d: d.update(version=VERSION + 1)),
    "older": _changed(lambda d: d.update(version=0)),
    "missing field": _changed(lambda d: d.pop("moves")),
    "unknown field": _changed(lambda d: d.update({"to": 1})),
    "rules not options": _changed(lambda d: d.update(rules=[])),
    "rules option": _changed(lambda d: d["rules"].update(players=2.0)),
    "rules unknown option": _changed(lambda d: d["rules"].update(nonsense=True)),
    "state rules": _changed(lambda d: d["state"]["rules"].update(nonsense=True)),
    "seats": _changed(lambda d: d.update(seats=[])),
    "seat fields": _changed(lambda d: d["seats"][0].pop("kind")),
    "seat name": _changed(lambda d: d["seats"][0].update(name=" ")),
    "seat control": _changed(lambda d: d["seats"][0].update(name="Ann\u2028")),
    "seat kind": _changed(lambda d: d["seats"][0].update(kind="robot")),
    "seat level": _changed(lambda d: d["seats"][1].update(level="godlike")),
    "human level": _changed(lambda d: d["seats"][0].update(level="easy")),
    "seed": _changed(lambda d: d.update(seed="x")),
    "first dealer": _changed(lambda d: d.update(first_dealer=None)),
    "first dealer range": _changed(lambda d: d.update(first_dealer=5)),
    "moves": _changed(lambda d: d.update(moves={})),
    "move fields": _changed(lambda d: d["moves"][0].pop("seat")),
    "move numbers": _changed(lambda d: d["moves"][0].update(deal="1")),
    "move card text": _changed(lambda d: d["moves"][0].update(card=7)),
    "move card": _changed(lambda d: d["moves"][0].update(card="8D")),
    "state": _changed(lambda d: d.update(state=[])),
    "position": _changed(lambda d: d["state"]["stock"].pop()),
    "rules differ": _changed(lambda d: d["state"]["rules"].update(napola=not d["state"]["rules"]["napola"])),
    "seed differs": _changed(lambda d: d.update(seed=d["seed"] + 1)),
    "assisted": _changed(lambda d: d.update(assisted_deals={})),
    "assisted range": _changed(lambda d: d.update(assisted_deals=[99])),
    "different position": _changed(_swap_stock),
    "move seat": _changed(lambda d: d["moves"][0].update(seat=d["moves"][0]["seat"] + 1)),
    "move deal": _changed(lambda d: d["moves"][0].update(deal=3)),
    "illegal move": _changed(_illegal),
}


@pytest.mark.parametrize("name", BAD_FILES)
def test_every_hand_made_bad_file_is_one_italian_line(tmp_path: Path, name: str) -> None:
    error = _fails(tmp_path, BAD_FILES[name])
    line = assert_italian(error)
    assert line.startswith("Importazione non riuscita. ")
    assert str(error).startswith("Import failed. ")


def test_the_english_lines_keep_their_wording(tmp_path: Path) -> None:
    assert str(_fails(tmp_path, BAD_FILES["not json"])) == ("Import failed. The file is not valid JSON. The error is "
                                                            "on line 3.")
    assert str(_fails(tmp_path, BAD_FILES["position"])) == (
        "Import failed. The saved position is not valid. The cards do not make a whole pack. "
        "The number of cards in the position is 39, not 40.")
    assert _fails(tmp_path, BAD_FILES["position"]).detail == ("The cards do not make one 40-card pack: 39 distinct "
                                                              "cards.")
    assert str(_fails(tmp_path, BAD_FILES["different position"])).endswith("which differs in the order of the stock.")
    assert str(_fails(tmp_path, BAD_FILES["rules unknown option"])) == (
        "Import failed. The rules are not valid. The rules hold an option that scopa does not know.")
    assert _fails(tmp_path, BAD_FILES["rules unknown option"]).detail == "Unknown rule option 'nonsense'."
    illegal = _fails(tmp_path, BAD_FILES["illegal move"])
    assert re.fullmatch(r"Import failed. Move \d+ is not allowed. The [a-z ]+ must capture. "
                        r"A card that can take must take\.", str(illegal))
    assert re.fullmatch(r"Importazione non riuscita. La mossa \d+ non è ammessa. [A-Z][a-z' ]+ deve prendere. "
                        r"Una carta che può prendere deve farlo\.", illegal.localised(IT))
    assert str(_fails(tmp_path, BAD_FILES["newer"])) == (
        f"Import failed. The file was made by a newer version of scopa, with file format {VERSION + 1}. "
        f"This one reads up to format {VERSION}. Update scopa to open it.")
    assert _fails(tmp_path, BAD_FILES["different position"]).localised(IT).endswith("per l'ordine del mazzo.")


def test_errors_reading_the_disk_speak_italian(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for path in (tmp_path / "missing.json", tmp_path):
        with pytest.raises(SaveFileError) as caught:
            import_match(path)
        assert_italian(caught.value)
    (tmp_path / "big.json").write_text("{}")
    for problem in (PermissionError(13, "Permission denied"), OSError(5, "Input/output error")):
        def refuse(*_: Any, problem: OSError = problem, **__: Any) -> Any:
            raise problem
        monkeypatch.setattr(files_module.os, "open", refuse)
        with pytest.raises(SaveFileError) as caught:
            import_match(tmp_path / "big.json")
        assert_italian(caught.value)
        monkeypatch.undo()
    assert str(caught.value) == "Import failed. The file cannot be read. The disk could not be read or written."
    assert caught.value.localised(IT) == ("Importazione non riuscita. Il file non si può leggere. "
                                          "Il disco non si è potuto leggere o scrivere.")
    assert caught.value.detail == "Input/output error"  # the system's words, for the logs only
    monkeypatch.setattr(files_module, "MAX_FILE_BYTES", 1)
    with pytest.raises(SaveFileError) as caught:
        import_match(tmp_path / "big.json")
    assert "troppo grande" in assert_italian(caught.value)


def test_migration_failures_speak_italian(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(MIGRATIONS, 0, lambda data: data["missing"])
    assert "aggiornare" in assert_italian(_fails(tmp_path, BAD_FILES["older"]))


def test_an_unreadable_save_set_aside_speaks_italian(tmp_path: Path) -> None:
    (tmp_path / "autosave.json").write_text("[]")
    store = AutosaveStore(tmp_path)
    found = store.load()
    assert found.problem == "The saved match cannot be read. The file does not hold a scopa match."
    assert assert_italian(store.error).startswith("La partita salvata non si può leggere. ")

    (tmp_path / "autosave.json").write_text("[]")
    persistence = Persistence(tmp_path, messages=lambda: IT)
    assert persistence.saved_matches() == []
    [line] = persistence.notices()
    prefix = f"{store.error.localised(IT)} È stata messa da parte come "
    assert line.startswith(prefix) and line.endswith(".bad.")
    kept = Path(line[len(prefix):-1])
    assert kept.parent == tmp_path / "saves" and kept.read_text() == "[]"
    assert persistence.notices() == []  # said once


def test_an_italian_import_in_the_console(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    record, line = Persistence(tmp_path / "data", messages=lambda: IT).import_match(str(bad))
    assert record is None and line == ("Importazione non riuscita. Il file non è una partita di scopa. "
                                       "Manca il formato scopa-match.")
    assert Persistence(tmp_path / "data").import_match(str(bad))[1] == str(_fails(tmp_path, "{}"))


@pytest.mark.parametrize("content", ["not json", "[]", '{"format": "scopa-results", "version": 2}',
                                     '{"format": "scopa-results", "version": 1}',
                                     '{"format": "scopa-results", "version": 1, "results": [1]}',
                                     ('{"format": "scopa-results", "version": 1, "results": [{"when": 1, '
                                      '"players": [], "winner": null, "winners": [], "scores": [], "assisted": '
                                      'false, "deals": 1, "variant": "scopa", "target": null}]}')])
def test_a_bad_results_log_speaks_italian(tmp_path: Path, content: str) -> None:
    (tmp_path / "results.json").write_text(content)
    with pytest.raises(SaveFileError) as caught:
        load_results(tmp_path)
    assert str(caught.value).startswith("The results log cannot be read. ")
    assert assert_italian(caught.value).startswith("Il registro dei risultati non si può leggere. ")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_damaged_file_is_refused_in_italian_too(tmp_path_factory: pytest.TempPathFactory,
                                                  data: st.DataObject) -> None:
    path = write_damaged_file(data, tmp_path_factory.getbasetemp() / "damaged_it.json")
    try:
        import_match(path)
    except SaveFileError as error:
        assert assert_italian(error).startswith("Importazione non riuscita. ")


# Command-line flags ----------------------------------------------------------------------------

@pytest.mark.parametrize("flags", [
    ("--seats", "human,robot"), ("--seats", "computer,computer"), ("--players", "3", "--seats", "human,human"),
    ("--target", "12"), ("--target", "lots"), ("--options", "nonsense"),
    ("--players", "2", "--variant", "scopone_classico"), ("--seats", "human,easy,easy,easy,easy"),
    ("--rate", "20"), ("--volume", "140"),
])
def test_bad_flags_are_one_sentence_in_either_language(flags: tuple[str, ...]) -> None:
    args = build_parser().parse_args(list(flags))
    with pytest.raises(UsageError) as caught:
        settings_from_args(args, Settings())
        rules = rules_from_args(args)
        seats_from_args(args, rules)
    assert_italian(caught.value)
    assert "\n" not in str(caught.value)


def test_flag_sentences_keep_their_english_wording() -> None:
    def error(*flags: str) -> str:
        with pytest.raises(UsageError) as caught:
            args = build_parser().parse_args(list(flags))
            seats_from_args(args, rules_from_args(args))
        return str(caught.value)

    assert error("--target", "12") == "The match target is 11, 16 or 21 points, or a single deal; not 12."
    assert error("--players", "2", "--variant", "scopone_classico") == ("Scopone is a game for four players. "
                                                                         "Set players to 4.")
    assert error("--seats", "human,easy,easy,easy,easy") == "Scopa is played by 2, 3 or 4 players, not 5."
    assert error("--options", "nonsense") == ("Unknown option 'nonsense'. The options are faces_match_only, "
                                              "most_cards, napola, re_bello, asso_piglia_tutto, win_by_two, "
                                              "a_perdere.")
    assert error("--variant", "cirulla", "--options", "most_cards") == ("The option most_cards is not played "
                                                                       "with cirulla.")
    assert error("--variant", "cirulla", "--target", "21") == ("Cirulla is played to 51 points, or a single deal; "
                                                              "not 21.")
    assert error("--target", "single", "--options", "win_by_two") == ("Win by two needs a match target, not a "
                                                                     "single deal.")
    assert error("--seats", "human,robot").startswith("Unknown seat 'robot'. Write human or computer:LEVEL")


def test_the_program_prints_usage_errors_in_italian(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from scopa.__main__ import main
    assert main(["--lang", "it", "--seats", "human,robot", "--config-dir", str(tmp_path)]) == 2
    assert capsys.readouterr().err.startswith("scopa: Giocatore sconosciuto 'robot'. ")
