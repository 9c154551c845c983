"""Fakes and waits for the speech tests."""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

import scopa.speech.pyttsx_speaker as pyttsx_speaker
import scopa.speech.synth as synth_module
from scopa.speech import (
    PyttsxSpeaker,
)
from scopa.system.sound import CommandPlayback

FAKE_WORKER = r'''
import json, os, sys, time
print("fake worker noise on stderr", file=sys.stderr, flush=True)
fail = os.environ.get("FAKE_WORKER_FAIL")
if fail:
    print(json.dumps({"ready": False, "error": fail}), flush=True)
    sys.exit(1)
print(json.dumps({"ready": True, "driver": "fake"}), flush=True)
for line in sys.stdin:
    request = json.loads(line)
    if request["op"] == "voices":
        voices = [{"id": "gmw/en", "name": "English", "languages": ["en-gb"]},
                  {"id": "roa/it", "name": "Italian", "languages": ["it"]}]
        print(json.dumps({"ok": True, "voices": voices}), flush=True)
        continue
    if request["text"] == "crash the worker":
        os._exit(3)
    time.sleep(float(os.environ.get("FAKE_SYNTH_SECONDS", "0")))
    fields = {key: request[key] for key in ("text", "voice", "rate", "volume")}
    with open(request["path"], "w") as out:
        out.write(json.dumps(fields))
    print(json.dumps({"ok": True, "path": request["path"]}), flush=True)
'''


FAKE_PLAYER = r'''#!/bin/sh
# Fake audio player: record "pid name content", make noise as ALSA does, then "play".
for last; do :; done
if [ -n "$FAKE_PLAYER_EXIT" ] && [ "$(basename "$0")" = aplay ]; then
    echo "ALSA lib confmisc.c:855:(parse_card) cannot find card '0'" >&2
    exit "$FAKE_PLAYER_EXIT"
fi
printf '%s %s %s\n' "$$" "$(basename "$0")" "$(head -c 500 "$last")" >> "$FAKE_PLAYER_RECORD"
echo "ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM default" >&2
echo "fake player noise on stdout"
sleep "${FAKE_PLAY_SECONDS:-30}"
'''


def wait_for(condition, timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return condition()


def group_alive(pgid: int) -> bool:
    """True while any non-zombie process is in process group ``pgid``."""
    if not Path("/proc/self/stat").exists():
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return False
        return True
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            return True
    return False


def install_player(bin_dir: Path, name: str) -> Path:
    path = bin_dir / name
    path.write_text(FAKE_PLAYER)
    path.chmod(0o755)
    return path


class Fakes:
    """A fake worker and a fake aplay on PATH, and a way to read what was played."""

    def __init__(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.bin = tmp_path / "bin"
        self.bin.mkdir()
        install_player(self.bin, "aplay")
        self.record = tmp_path / "played.txt"
        self.record.touch()
        self.log = tmp_path / "speech.log"
        worker = tmp_path / "fake_worker.py"
        worker.write_text(FAKE_WORKER)
        self.worker = worker
        monkeypatch.setattr(synth_module, "WORKER_SCRIPT", worker)
        monkeypatch.setenv("PATH", f"{self.bin}{os.pathsep}{os.environ.get('PATH', '')}")
        monkeypatch.setenv("FAKE_PLAYER_RECORD", str(self.record))
        monkeypatch.setenv("FAKE_PLAY_SECONDS", "0.02")
        self.speakers: list[PyttsxSpeaker] = []

    def speaker(self, **kwargs) -> PyttsxSpeaker:
        kwargs.setdefault("check_player", False)
        speaker = PyttsxSpeaker(log_path=self.log, **kwargs)
        self.speakers.append(speaker)
        return speaker

    def plays(self) -> list[tuple[int, str, dict]]:
        """(pid, player name, request the fake worker wrote) for each player started."""
        found = []
        for line in self.record.read_text(errors="replace").splitlines():
            parts = line.split(" ", 2)
            if len(parts) == 3 and parts[2].startswith("{"):  # not a probe's silent WAV
                found.append((int(parts[0]), parts[1], json.loads(parts[2])))
        return found

    def only_players(self, monkeypatch: pytest.MonkeyPatch, *names: str) -> None:
        """Offer just these fake players, as if nothing else were installed."""
        for name in names:
            install_player(self.bin, name)
        commands = [[str(self.bin / name)] for name in names]
        monkeypatch.setattr(pyttsx_speaker, "find_players", lambda: [CommandPlayback(c) for c in commands])

    def texts(self) -> list[str]:
        return [request["text"] for _, _, request in self.plays()]
