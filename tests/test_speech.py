"""Speech backends: the recorder, voice off, and the real speaker's queue, stop and silence.

The PyttsxSpeaker tests here swap in a fake synthesis worker (writes the request as the
"WAV") and fake audio players (shell scripts on PATH that record what they are given and
then "play" by sleeping), so they need neither espeak-ng nor a sound card.
test_speech_real.py drives the real pyttsx3 worker.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from helpers.speech import Fakes, group_alive, wait_for
from scopa.speech import (
    NullSpeaker,
    PyttsxSpeaker,
    RecordingSpeaker,
    UnavailableSpeaker,
    VoiceInfo,
    VoiceSettings,
    create_speaker,
    pick_voice_for_language,
)
from scopa.speech.pyttsx_speaker import (
    REASON_ENGINE_FAILED,
    REASON_NO_DEVICE,
    REASON_NO_ESPEAK,
    REASON_NO_PLAYER,
    REASON_NO_PYTTSX3,
)

pytestmark = pytest.mark.linux  # fake players and workers as shell scripts, process groups

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="fake players are shell scripts")


# ----- helpers -------------------------------------------------------------------


@pytest.fixture
def fakes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    made = Fakes(tmp_path, monkeypatch)
    yield made
    for speaker in made.speakers:
        speaker.close()


# ----- RecordingSpeaker, NullSpeaker, UnavailableSpeaker ---------------------------


def test_recording_speaker_records_and_finishes_at_once_by_default():
    speaker = RecordingSpeaker()
    speaker.say("Your turn.")
    speaker.say("Robin plays the king of clubs.")
    assert speaker.said == ["Your turn.", "Robin plays the king of clubs."]
    assert speaker.spoken == speaker.said
    assert not speaker.is_speaking()
    assert speaker.wait_until_done(0)


def test_recording_speaker_can_stay_speaking_until_told():
    speaker = RecordingSpeaker(auto_finish=False)
    for text in ("one", "two", "three"):
        speaker.say(text)
    assert speaker.is_speaking()
    assert not speaker.wait_until_done(0)
    assert speaker.finish() == ["one"]
    assert list(speaker.queue) == ["two", "three"]
    speaker.stop()
    assert speaker.stops == 1
    assert speaker.cleared == ["two", "three"]
    assert speaker.spoken == ["one"]
    assert not speaker.is_speaking()


def test_recording_speaker_keeps_settings_voices_and_availability():
    voices = [VoiceInfo("roa/it", "Italian", ("it",))]
    speaker = RecordingSpeaker(available=False, unavailable_reason="No voice.", voice_list=voices)
    settings = VoiceSettings(voice_id="roa/it", rate=220, volume=0.5)
    speaker.configure(settings)
    assert speaker.settings == settings and speaker.configured == [settings]
    assert speaker.voices() == voices
    assert (speaker.available, speaker.unavailable_reason) == (False, "No voice.")
    speaker.close()
    assert speaker.closed and speaker.stops == 0


def test_null_and_unavailable_speakers_accept_everything_silently():
    for speaker in (NullSpeaker(), UnavailableSpeaker("The game voice is unavailable. Test.")):
        speaker.say("Your turn.")
        speaker.stop()
        speaker.configure(VoiceSettings(rate=300))
        assert not speaker.is_speaking()
        assert speaker.wait_until_done(0.1)
        assert speaker.voices() == []
        speaker.close()
    assert NullSpeaker().available and NullSpeaker().unavailable_reason is None
    off = UnavailableSpeaker("The game voice is unavailable. Test.")
    assert not off.available and off.unavailable_reason.endswith("Test.")


def test_create_speaker_disabled_is_null():
    speaker = create_speaker(False)
    assert isinstance(speaker, NullSpeaker) and speaker.available


# ----- pick_voice_for_language --------------------------------------------------

VOICES = [
    VoiceInfo("gmw/en-029", "English (Caribbean)", ("en-029",)),
    VoiceInfo("gmw/en", "English (Great Britain)", ("en-gb",)),
    VoiceInfo("gmw/en-gb-scotland", "English (Scotland)", ("en-gb-scotland",)),
    VoiceInfo("gmw/en-us", "English (America)", ("en-us",)),
    VoiceInfo("roa/it", "Italian", ("it",)),
    VoiceInfo("roa/fr", "French (France)", ("fr-fr",)),
    VoiceInfo("sapi/de", "German", ("de_DE",)),
]


@pytest.mark.parametrize("language, expected", [
    ("it", "roa/it"), ("it_IT", "roa/it"), ("IT-ch", "roa/it"),
    ("en", "gmw/en"), ("en-US", "gmw/en-us"), ("en_GB", "gmw/en"),
    ("fr", "roa/fr"), ("fr-CA", "roa/fr"), ("de", "sapi/de"), ("de-AT", "sapi/de"),
])
def test_pick_voice_for_language(language, expected):
    assert pick_voice_for_language(VOICES, language).id == expected


def test_pick_voice_for_language_without_match():
    assert pick_voice_for_language(VOICES, "ja") is None
    assert pick_voice_for_language(VOICES, "") is None
    assert pick_voice_for_language([], "it") is None


# ----- PyttsxSpeaker with a fake worker and fake players ------------------------------


@posix_only
def test_utterances_play_in_order_each_exactly_once(fakes):
    speaker = fakes.speaker()
    texts = [f"Announcement number {n}." for n in range(6)]
    for text in texts:
        speaker.say(text)
    assert speaker.wait_until_done(timeout=15)
    assert fakes.texts() == texts
    assert speaker.spoken == texts
    assert not speaker.is_speaking()


@posix_only
def test_say_never_blocks_even_when_synthesis_is_slow(fakes, monkeypatch):
    monkeypatch.setenv("FAKE_SYNTH_SECONDS", "0.5")
    speaker = fakes.speaker()
    start = time.monotonic()
    for n in range(20):
        speaker.say(f"Line {n}.")
    assert time.monotonic() - start < 0.1
    assert speaker.is_speaking()
    speaker.stop()


@posix_only
def test_stop_kills_playback_under_way_and_clears_the_queue(fakes, monkeypatch):
    monkeypatch.setenv("FAKE_PLAY_SECONDS", "30")
    speaker = fakes.speaker()
    for text in ("Robin plays the king of clubs.", "Your turn.", "Three new cards each."):
        speaker.say(text)
    assert wait_for(lambda: len(fakes.plays()) == 1)
    pid = fakes.plays()[0][0]
    assert group_alive(pid)
    start = time.monotonic()
    speaker.stop()
    assert time.monotonic() - start < 0.5
    assert wait_for(lambda: not group_alive(pid), timeout=1.0), "player (or its child) still running"
    assert speaker.wait_until_done(timeout=2)
    time.sleep(0.5)  # room for a wrongly kept queue to start the next utterance
    assert fakes.texts() == ["Robin plays the king of clubs."]
    assert speaker.spoken == []
    monkeypatch.setenv("FAKE_PLAY_SECONDS", "0.02")
    speaker.say("Scopa!")
    assert speaker.wait_until_done(timeout=5)
    assert fakes.texts() == ["Robin plays the king of clubs.", "Scopa!"]
    assert speaker.spoken == ["Scopa!"]


@posix_only
def test_stop_during_synthesis_drops_that_utterance(fakes, monkeypatch):
    monkeypatch.setenv("FAKE_SYNTH_SECONDS", "0.4")
    speaker = fakes.speaker()
    speaker.say("This is being synthesised.")
    time.sleep(0.1)
    speaker.stop()
    time.sleep(0.8)
    assert fakes.plays() == []
    monkeypatch.setenv("FAKE_SYNTH_SECONDS", "0")
    speaker.say("Your turn.")
    assert speaker.wait_until_done(timeout=5)
    assert fakes.texts() == ["Your turn."]


@posix_only
def test_blank_text_is_not_spoken(fakes):
    speaker = fakes.speaker()
    speaker.say("   ")
    speaker.say("Your turn.")
    assert speaker.wait_until_done(timeout=5)
    assert fakes.texts() == ["Your turn."]


@posix_only
def test_configure_applies_from_the_next_utterance(fakes):
    speaker = fakes.speaker(settings=VoiceSettings())
    speaker.say("one")
    assert speaker.wait_until_done(timeout=5)
    speaker.configure(VoiceSettings(voice_id="roa/it", rate=220, volume=0.5))
    speaker.say("two")
    assert speaker.wait_until_done(timeout=5)
    first, second = (request for _, _, request in fakes.plays())
    assert (first["voice"], first["rate"], first["volume"]) == (None, 175, 1.0)
    assert (second["voice"], second["rate"], second["volume"]) == ("roa/it", 220, 0.5)


@posix_only
def test_nothing_reaches_the_terminal(fakes, capfd):
    speaker = fakes.speaker()
    speaker.say("Your turn.")
    speaker.say("Scopa!")
    assert speaker.wait_until_done(timeout=5)
    speaker.voices()
    speaker.stop()
    speaker.close()
    out, err = capfd.readouterr()
    assert (out, err) == ("", "")
    log = fakes.log.read_text()
    assert "fake player noise on stdout" in log
    assert "Unknown PCM default" in log
    assert "fake worker noise on stderr" in log


@posix_only
def test_voices_come_from_the_worker(fakes):
    speaker = fakes.speaker()
    voices = speaker.voices()
    assert [voice.id for voice in voices] == ["gmw/en", "roa/it"]
    assert pick_voice_for_language(voices, "it").name == "Italian"


@posix_only
def test_a_crashed_worker_is_restarted_for_the_next_utterance(fakes):
    speaker = fakes.speaker()
    speaker.say("crash the worker")
    speaker.say("Your turn.")
    assert speaker.wait_until_done(timeout=20)
    assert fakes.texts() == ["Your turn."]
    assert speaker.last_error and "synthesis failed" in speaker.last_error


@posix_only
def test_close_ends_the_worker_and_silences(fakes, monkeypatch):
    monkeypatch.setenv("FAKE_PLAY_SECONDS", "30")
    speaker = fakes.speaker()
    speaker.say("Long line.")
    assert wait_for(lambda: len(fakes.plays()) == 1)
    pid = fakes.plays()[0][0]
    speaker.close()
    assert wait_for(lambda: not group_alive(pid), timeout=1.0)
    assert wait_for(lambda: not _processes_running(str(fakes.worker)), timeout=2.0)
    speaker.say("After close.")  # must not raise
    speaker.stop()
    assert not speaker.is_speaking()


def _processes_running(fragment: str) -> bool:
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if fragment.encode() in cmdline.read_bytes():
                return True
        except OSError:
            continue
    return False


# ----- when the voice cannot work ----------------------------------------------------


def _check_unavailable(speaker, reason: str) -> None:
    assert not speaker.available
    assert speaker.unavailable_reason == reason
    speaker.say("Your turn.")  # never raises
    speaker.stop()
    assert not speaker.is_speaking()
    assert speaker.voices() == []
    speaker.close()


def test_missing_pyttsx3_makes_the_voice_unavailable(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "pyttsx3", None)  # "import pyttsx3" now fails
    _check_unavailable(PyttsxSpeaker(log_path=tmp_path / "log"), REASON_NO_PYTTSX3)
    spoken = create_speaker(True, log_path=tmp_path / "log")
    assert isinstance(spoken, UnavailableSpeaker)
    _check_unavailable(spoken, REASON_NO_PYTTSX3)


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="players are found on PATH on Linux")
def test_no_audio_player_on_path_makes_the_voice_unavailable(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    _check_unavailable(PyttsxSpeaker(), REASON_NO_PLAYER)
    _check_unavailable(create_speaker(True), REASON_NO_PLAYER)


@posix_only
def test_missing_espeak_in_the_real_worker(monkeypatch, tmp_path, capfd):
    """The real worker script, with a pyttsx3 that fails as it does without libespeak-ng."""
    shadow = tmp_path / "shadow" / "pyttsx3"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text(
        "print('noise from the broken engine')\n"
        "def init(*args, **kwargs):\n"
        "    raise RuntimeError('This means you probably do not have eSpeak or eSpeak-ng installed!')\n")
    monkeypatch.setenv("PYTHONPATH", str(shadow.parent))
    _check_unavailable(PyttsxSpeaker(log_path=tmp_path / "log", player=["true"], check_player=False),
                       REASON_NO_ESPEAK)
    assert capfd.readouterr() == ("", "")
    assert "noise from the broken engine" in (tmp_path / "log").read_text()


@posix_only
def test_engine_that_fails_otherwise(fakes, monkeypatch):
    monkeypatch.setenv("FAKE_WORKER_FAIL", "OSError: something else broke")
    _check_unavailable(fakes.speaker(), REASON_ENGINE_FAILED)


@posix_only
def test_player_that_cannot_open_a_sound_device(fakes, monkeypatch, capfd):
    monkeypatch.setenv("FAKE_PLAYER_EXIT", "1")
    fakes.only_players(monkeypatch, "aplay")
    speaker = fakes.speaker(check_player=True)
    _check_unavailable(speaker, REASON_NO_DEVICE)
    assert capfd.readouterr() == ("", "")
    assert "cannot find card" in fakes.log.read_text()


@posix_only
def test_falls_back_to_the_next_player_that_works(fakes, monkeypatch):
    monkeypatch.setenv("FAKE_PLAYER_EXIT", "1")
    monkeypatch.setenv("FAKE_PLAY_SECONDS", "0")
    fakes.only_players(monkeypatch, "aplay", "paplay")
    speaker = fakes.speaker(check_player=True)
    assert speaker.available
    assert speaker.player_command == [str(fakes.bin / "paplay")]
    speaker.say("Your turn.")
    assert speaker.wait_until_done(timeout=5)
    assert [(name, request["text"]) for _, name, request in fakes.plays()] == [("paplay", "Your turn.")]
