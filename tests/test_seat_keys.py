"""Seat keys of online rooms: one private file per server and room in the data folder."""
from __future__ import annotations

import stat

from scopa.storage.seat_keys import SeatKey, SeatKeyStore


def test_a_key_is_kept_per_server_and_room_readable_by_its_owner_only(tmp_path):
    store = SeatKeyStore(tmp_path)
    assert store.save(SeatKey("ws://a:1", "ACDEFG", "k" * 32, 1, "Ben")) is None
    assert store.save(SeatKey("ws://b:1", "ACDEFG", "j" * 32, 0, "Ben")) is None
    assert store.load("ws://a:1", "ACDEFG").key == "k" * 32
    assert store.load("ws://b:1", "ACDEFG").seat == 0
    assert store.load("ws://a:1", "HJKMNP") is None
    path = store.path_for("ws://a:1", "ACDEFG")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert "k" * 32 not in path.name and "ws" not in path.name  # the key is in the file, never its name


def test_the_newest_key_is_the_one_resume_takes_and_forgotten_keys_are_gone(tmp_path):
    store = SeatKeyStore(tmp_path)
    store.save(SeatKey("ws://a:1", "ACDEFG", "k" * 32, 1, saved_at=100.0))
    store.save(SeatKey("ws://a:1", "HJKMNP", "j" * 32, 2, saved_at=200.0))
    assert store.newest().code == "HJKMNP"
    store.forget("ws://a:1", "HJKMNP")
    assert store.newest().code == "ACDEFG"


def test_a_broken_key_file_is_skipped_not_fatal(tmp_path):
    store = SeatKeyStore(tmp_path)
    store.save(SeatKey("ws://a:1", "ACDEFG", "k" * 32, 1))
    store.path_for("ws://a:1", "HJKMNP").write_text("{not json")
    assert store.load("ws://a:1", "HJKMNP") is None
    assert [key.code for key in store.all()] == ["ACDEFG"]


def test_a_folder_that_cannot_be_written_is_reported_not_raised(tmp_path):
    blocker = tmp_path / "data"
    blocker.write_text("a file where the folder should be")
    assert isinstance(SeatKeyStore(blocker).save(SeatKey("ws://a:1", "ACDEFG", "k" * 32, 1)), OSError)
