"""Nothing the player keeps is lost or damaged by two copies of the game at once, or by a settings
file that is a symbolic link (a dotfiles folder): the results log is locked, settings are written
as saves are."""
from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from scopa.config import SETTINGS_FILE, Settings, load_settings, save_settings
from scopa.storage import load_results

RESULTS_EACH = 15

# A child process: waits for the start file, then logs RESULTS_EACH finished matches, one at a time.
LOGGER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from scopa.engine import Rules
    from scopa.match import MatchRecord, SeatSetup
    from scopa.storage import record_result

    data, name, start, count = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3]), int(sys.argv[4])
    record, _ = MatchRecord.start(Rules(target=None), (SeatSetup("Ann"), SeatSetup("Bea", "computer", "easy")), 3)
    while not record.state.is_match_over:
        record = record.play(record.state.legal_moves()[0])[0]
    print("ready", flush=True)
    while not start.exists():
        time.sleep(0.001)
    for number in range(count):
        record_result(record, f"{name}-{number}", data, match_id=f"{name}-{number}")
""")


def test_two_copies_logging_results_at_once_keep_every_result(tmp_path: Path) -> None:
    """Without the lock, each copy rewrote the log it had read, and about half the results were lost."""
    data, start = tmp_path / "data", tmp_path / "start"
    children = [subprocess.Popen([sys.executable, "-c", LOGGER, str(data), name, str(start), str(RESULTS_EACH)],
                                 stdout=subprocess.PIPE, text=True) for name in ("one", "two")]
    try:
        for child in children:
            assert child.stdout is not None and child.stdout.readline().strip() == "ready"
        start.touch()  # both log from the same moment on
        for child in children:
            assert child.wait(timeout=120) == 0
    finally:
        for child in children:
            if child.poll() is None:
                child.kill()
                child.wait()
    logged = sorted(result.when for result in load_results(data))
    assert logged == sorted(f"{name}-{n}" for name in ("one", "two") for n in range(RESULTS_EACH))


# Settings ------------------------------------------------------------------------------------

def test_settings_saved_through_a_symbolic_link_change_the_file_it_names(tmp_path: Path) -> None:
    """A dotfiles setup: settings.json is a link into another folder; the link stays a link."""
    dotfiles, config = tmp_path / "dotfiles", tmp_path / "config"
    dotfiles.mkdir()
    config.mkdir()
    target = dotfiles / "scopa-settings.json"
    target.write_text(json.dumps({"rate": 200}))
    (config / SETTINGS_FILE).symlink_to(target)

    assert save_settings(Settings(rate=300, language="it"), config) is None
    assert (config / SETTINGS_FILE).is_symlink() and os.readlink(config / SETTINGS_FILE) == str(target)
    assert json.loads(target.read_text())["rate"] == 300
    assert load_settings(config) == (Settings(rate=300, language="it"), None)
    assert sorted(p.name for p in config.iterdir()) == [SETTINGS_FILE]  # no temporary file left beside it
    assert sorted(p.name for p in dotfiles.iterdir()) == [target.name]


def test_settings_are_written_through_a_temporary_file_of_their_own(tmp_path: Path) -> None:
    """A fixed ``settings.tmp`` was shared by two copies saving at once, and anything already
    at that name (here a folder) stopped every save."""
    (tmp_path / "settings.tmp").mkdir()
    assert save_settings(Settings(rate=250), tmp_path) is None
    assert load_settings(tmp_path) == (Settings(rate=250), None)
    assert (tmp_path / "settings.tmp").is_dir()  # not the settings' business: left alone


def test_saving_settings_syncs_the_file_and_then_its_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The rename of the new file over the old one survives a power cut only once the folder is synced."""
    synced: list[str] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        synced.append("folder" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    assert save_settings(Settings(rate=120), tmp_path) is None
    assert synced == ["file", "folder"]


def test_settings_that_cannot_be_written_leave_the_old_file_and_no_temporary_one(tmp_path: Path) -> None:
    (tmp_path / SETTINGS_FILE).write_text(json.dumps({"rate": 200}))
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / SETTINGS_FILE).mkdir()  # a folder where the file should be
    assert isinstance(save_settings(Settings(rate=300), tmp_path / "other"), IsADirectoryError)
    assert sorted(p.name for p in (tmp_path / "other").iterdir()) == [SETTINGS_FILE]
    assert load_settings(tmp_path)[0].rate == 200
