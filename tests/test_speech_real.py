"""The real pyttsx3 + espeak-ng synthesis, measured with sox.

Needs libespeak-ng and sox (CI installs them: apt-get install espeak-ng sox alsa-utils).
No sound card is needed: playback goes to a fake ``aplay`` that keeps a copy of each WAV.
"""
from __future__ import annotations

import ctypes.util
import os
import re
import shutil
import subprocess
import sys
import time
import wave
from pathlib import Path

import pytest

from scopa.speech import PyttsxSpeaker, VoiceSettings, create_speaker, pick_voice_for_language
from scopa.speech.pyttsx_speaker import REASON_NO_DEVICE
from scopa.speech.synth import SynthClient

pytestmark = pytest.mark.linux  # shell-script players, /proc

ANNOUNCEMENT = "Robin plays the king of clubs and takes the king of hearts. Scopa!"

_missing = [name for name, found in (
    ("libespeak-ng", ctypes.util.find_library("espeak-ng")),
    ("espeak-ng", shutil.which("espeak-ng")),
    ("sox", shutil.which("sox")),
) if not found]

pytestmark = [
    pytest.mark.audio,
    pytest.mark.skipif(bool(_missing), reason=(
        f"{', '.join(_missing)} not installed; "
        "apt-get install espeak-ng libespeak-ng1 sox alsa-utils")),
    pytest.mark.skipif(sys.platform == "win32", reason="the fake aplay is a shell script"),
]

COPYING_PLAYER = r'''#!/bin/sh
# Fake aplay: keep a copy of the WAV, make ALSA-like noise, then "play" by sleeping.
for last; do :; done
cp "$last" "$FAKE_PLAYER_COPIES/$$.wav"
echo "ALSA lib confmisc.c:855:(parse_card) cannot find card '0'" >&2
sleep "${FAKE_PLAY_SECONDS:-0.05}"
'''


def sox_stat(path: Path) -> dict[str, float]:
    """Length (s) and RMS amplitude of a sound file, as `sox FILE -n stat` reports them."""
    result = subprocess.run(["sox", str(path), "-n", "stat"], capture_output=True,
                            text=True, timeout=30, check=False)
    stats = {}
    for line in result.stderr.splitlines():
        match = re.match(r"^(Length \(seconds\)|RMS\s+amplitude):\s+(\S+)", line)
        if match:
            stats["length" if match.group(1).startswith("Length") else "rms"] = float(match.group(2))
    return stats


def assert_speech(path: Path) -> dict[str, float]:
    with wave.open(str(path), "rb") as wav:
        seconds = wav.getnframes() / wav.getframerate()
        assert wav.getnchannels() == 1 and wav.getsampwidth() == 2
    assert seconds > 0.5
    stats = sox_stat(path)
    assert stats["length"] > 0.5, stats
    assert stats["rms"] > 0.01, f"silent audio: {stats}"
    return stats


def wait_for(condition, timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return condition()


@pytest.fixture
def client(tmp_path):
    with open(tmp_path / "worker.log", "ab") as log:
        synth = SynthClient(log)
        synth.start()
        yield synth
        synth.close()


@pytest.fixture
def copying_player(tmp_path, monkeypatch):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "aplay").write_text(COPYING_PLAYER)
    (bin_dir / "aplay").chmod(0o755)
    copies = tmp_path / "copies"
    copies.mkdir()
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("FAKE_PLAYER_COPIES", str(copies))
    return copies


def test_real_synthesis_of_an_announcement_is_audible(client, tmp_path):
    wav = client.synth(ANNOUNCEMENT, tmp_path / "scopa.wav", None, 175, 1.0)
    stats = assert_speech(wav)
    assert 2.0 < stats["length"] < 10.0, stats  # about 4.4 s at 175 wpm


def test_rate_changes_the_length(client, tmp_path):
    slow = client.synth(ANNOUNCEMENT, tmp_path / "slow.wav", None, 120, 1.0)
    fast = client.synth(ANNOUNCEMENT, tmp_path / "fast.wav", None, 320, 1.0)
    assert sox_stat(slow)["length"] > 1.5 * sox_stat(fast)["length"]


def test_every_setting_change_applies_when_requests_come_back_to_back(client, tmp_path):
    """espeak-ng applies rate changes in its own thread; none may be lost or cancel a synthesis."""
    lengths = []
    for n, rate in enumerate([120, 320] * 15):
        wav = client.synth("Three new cards each.", tmp_path / f"{n}.wav", None, rate, 1.0)
        with wave.open(str(wav), "rb") as audio:
            lengths.append(audio.getnframes() / audio.getframerate())
    slow, fast = lengths[0::2], lengths[1::2]
    assert min(slow) > 1.5 * max(fast), lengths


def test_volume_changes_the_loudness(client, tmp_path):
    loud = client.synth(ANNOUNCEMENT, tmp_path / "loud.wav", None, 175, 1.0)
    quiet = client.synth(ANNOUNCEMENT, tmp_path / "quiet.wav", None, 175, 0.3)
    assert sox_stat(quiet)["rms"] < 0.6 * sox_stat(loud)["rms"]


def test_italian_voice_is_listed_and_speaks(client, tmp_path):
    from scopa.speech import VoiceInfo

    voices = [VoiceInfo(v["id"], v["name"], tuple(v["languages"])) for v in client.voices()]
    italian = pick_voice_for_language(voices, "it")
    assert italian is not None and "it" in italian.languages
    wav = client.synth("Tocca a te. Scopa!", tmp_path / "it.wav", italian.id, 175, 1.0)
    assert_speech(wav)


def test_speaker_plays_real_speech_and_keeps_the_terminal_clean(copying_player, tmp_path, capfd):
    log = tmp_path / "speech.log"
    speaker = PyttsxSpeaker(log_path=log, check_player=False)
    try:
        assert speaker.available, speaker.unavailable_reason
        speaker.say(ANNOUNCEMENT)
        speaker.say("Your turn.")
        assert speaker.wait_until_done(timeout=20)
        assert speaker.spoken == [ANNOUNCEMENT, "Your turn."]
    finally:
        speaker.close()
    copies = sorted(copying_player.glob("*.wav"), key=lambda p: p.stat().st_mtime)
    assert len(copies) == 2
    first, second = (assert_speech(copy) for copy in copies)
    assert first["length"] > second["length"]
    assert capfd.readouterr() == ("", "")
    text = log.read_text()
    assert "Audio saved to" in text  # pyttsx3's print went to the log, not the terminal
    assert "cannot find card" in text


def test_stop_silences_real_speech_and_drops_the_rest(copying_player, tmp_path, monkeypatch):
    monkeypatch.setenv("FAKE_PLAY_SECONDS", "30")
    starts: list[tuple[int, str]] = []
    speaker = PyttsxSpeaker(log_path=tmp_path / "speech.log", check_player=False,
                            on_player_start=lambda pid, text: starts.append((pid, text)))
    try:
        speaker.say(ANNOUNCEMENT)
        speaker.say("Your turn.")
        assert wait_for(lambda: len(starts) == 1, timeout=10)
        pid = starts[0][0]
        speaker.stop()
        assert wait_for(lambda: _gone(pid), timeout=1.0)
        time.sleep(0.5)
        assert [text for _, text in starts] == [ANNOUNCEMENT]
        assert not speaker.is_speaking()
    finally:
        speaker.close()


def _gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state == "Z"


def test_create_speaker_with_the_real_players(tmp_path, capfd):
    """On a machine with sound the voice works; without a sound card it says so, quietly."""
    log = tmp_path / "speech.log"
    speaker = create_speaker(True, VoiceSettings(rate=200), log_path=log)
    try:
        if speaker.available:
            speaker.say("Your turn.")
            assert speaker.wait_until_done(timeout=20)
        else:
            assert speaker.unavailable_reason == REASON_NO_DEVICE
            speaker.say("Your turn.")
            speaker.stop()
    finally:
        speaker.close()
    assert capfd.readouterr() == ("", "")
