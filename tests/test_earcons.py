"""Earcons: the four synthesised sounds, their setting, where they play, and the words they can replace.

The sounds themselves are measured with sox (the audio-marked tests skip without it; CI
installs it). Playback goes to fake players that copy what they are given, so no sound card
is needed anywhere.
"""
from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
import time
from itertools import combinations
from pathlib import Path

import pytest

from helpers.console import M, lines_of, program_for, request_for
from helpers.speech import group_alive, wait_for
from scopa.config import Settings, load_settings, save_settings
from scopa.console.sounding import Sounding, SoundingAnnouncer
from scopa.console.terminal import Output
from scopa.narration.cues import line_cues
from scopa.speech import RecordingSpeaker
from scopa.speech.earcons import EARCONS, SAMPLE_RATE, earcon_file, samples, wav_bytes
from scopa.speech.sounds import SoundPlayer

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="the fake players are shell scripts")
needs_sox = pytest.mark.skipif(shutil.which("sox") is None, reason="sox not installed; apt-get install sox")

COPYING_PLAYER = r'''#!/bin/sh
# Fake player: keep a copy of the WAV it is given, then "play" for FAKE_PLAY_SECONDS.
for last; do :; done
n=$(ls "$FAKE_COPIES" | wc -l)
cp "$last" "$FAKE_COPIES/$n-$(basename "$last")"
sleep "${FAKE_PLAY_SECONDS:-0.01}"
'''


def copying_player(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seconds: float = 0.01) -> tuple[Path, Path]:
    script, copies = tmp_path / "fake-play", tmp_path / "copies"
    script.write_text(COPYING_PLAYER)
    script.chmod(0o755)
    copies.mkdir()
    monkeypatch.setenv("FAKE_COPIES", str(copies))
    monkeypatch.setenv("FAKE_PLAY_SECONDS", str(seconds))
    return script, copies


def sox_info(path: Path) -> dict[str, float]:
    duration = float(subprocess.run(["sox", "--i", "-D", str(path)], capture_output=True, text=True,
                                    timeout=30, check=True).stdout)
    stat = subprocess.run(["sox", str(path), "-n", "stat"], capture_output=True, text=True, timeout=30,
                          check=False).stderr
    found = dict(re.findall(r"^(RMS\s+amplitude|Rough\s+frequency|Maximum amplitude):\s+(\S+)", stat, re.MULTILINE))
    return {"duration": duration, "rms": float(found["RMS     amplitude"]),
            "frequency": float(found["Rough   frequency"]), "peak": float(found["Maximum amplitude"])}


def earcon_names(paths) -> list[str]:
    return [Path(p).name.split("-")[0] for p in paths]


# ----- the sounds, measured by sox -------------------------------------------------------


@pytest.mark.audio
@needs_sox
@pytest.mark.parametrize("name", EARCONS)
def test_each_earcon_is_short_loud_enough_and_never_clipped(tmp_path, name):
    info = sox_info(earcon_file(name, tmp_path))
    assert 0.1 <= info["duration"] <= 0.5, info  # short enough to hear beside the words
    assert info["rms"] > 0.05, f"nearly silent: {info}"
    assert info["peak"] < 0.99, f"clipped: {info}"


@pytest.mark.audio
@needs_sox
def test_the_four_earcons_are_told_apart_by_length_or_pitch(tmp_path):
    infos = {name: sox_info(earcon_file(name, tmp_path)) for name in EARCONS}
    for a, b in combinations(EARCONS, 2):
        longer = max(infos[a]["duration"], infos[b]["duration"]) / min(infos[a]["duration"], infos[b]["duration"])
        higher = max(infos[a]["frequency"], infos[b]["frequency"]) / min(infos[a]["frequency"], infos[b]["frequency"])
        assert longer > 1.15 or higher > 1.3, (a, b, infos[a], infos[b])


@pytest.mark.linux
@pytest.mark.audio
@needs_sox
@posix_only
def test_the_sound_player_hands_the_player_the_earcon_sox_measures(tmp_path, monkeypatch):
    script, copies = copying_player(tmp_path, monkeypatch)
    player = SoundPlayer([str(script)])
    player.play(earcon_file("scopa", tmp_path / "sounds"))
    assert player.wait_until_done(5)
    [copy] = list(copies.iterdir())
    assert sox_info(copy)["duration"] == pytest.approx(len(samples("scopa")) / SAMPLE_RATE, abs=0.002)
    player.close()


# ----- making the files --------------------------------------------------------------------


def test_earcons_are_the_same_bytes_every_time_and_written_once(tmp_path):
    assert wav_bytes("turn") == wav_bytes("turn")
    assert len({wav_bytes(name) for name in EARCONS}) == len(EARCONS)
    first = earcon_file("turn", tmp_path)
    stamp = first.stat().st_mtime_ns
    time.sleep(0.01)
    assert earcon_file("turn", tmp_path) == first and first.stat().st_mtime_ns == stamp
    assert first.read_bytes() == wav_bytes("turn")
    assert sorted(p.name for p in tmp_path.iterdir()) == [first.name]  # no part file left behind


def test_a_softer_volume_makes_a_softer_file_of_its_own(tmp_path):
    loud, soft = samples("capture", 1.0), samples("capture", 0.5)
    assert max(map(abs, soft)) == pytest.approx(max(map(abs, loud)) / 2, abs=2)
    assert earcon_file("capture", tmp_path, 1.0) != earcon_file("capture", tmp_path, 0.5)
    with pytest.raises(ValueError):
        samples("applause")


# ----- the sound player: never blocking, silenced by Stop ------------------------------------


@pytest.mark.linux
@posix_only
def test_playing_returns_at_once_and_stop_ends_the_sound(tmp_path, monkeypatch):
    script, copies = copying_player(tmp_path, monkeypatch, seconds=20)
    player = SoundPlayer([str(script)])
    sound = earcon_file("settebello", tmp_path / "sounds")
    started = time.monotonic()
    player.play(sound)
    player.play(sound)
    assert time.monotonic() - started < 0.5  # input is never held up by a sound
    assert wait_for(lambda: len(list(copies.iterdir())) == 1)  # the first is playing
    pid = player._current.pid
    player.stop()
    assert player.wait_until_done(5)
    assert wait_for(lambda: not group_alive(pid))
    assert player.played == [] and len(list(copies.iterdir())) == 1  # the second was dropped, not played
    assert player.can_play()  # a sound stopped is no broken player
    player.close()


@pytest.mark.linux
@posix_only
def test_a_player_that_fails_is_not_started_again(tmp_path):
    failing = tmp_path / "no-device"
    failing.write_text("#!/bin/sh\necho 'cannot open audio device' >&2\nexit 1\n")
    failing.chmod(0o755)
    player = SoundPlayer([str(failing)])
    player.play(earcon_file("turn", tmp_path))
    assert player.wait_until_done(5)
    assert not player.can_play()
    player.play(earcon_file("turn", tmp_path))
    assert not player.is_playing()
    player.close()


# ----- which line calls for which sound --------------------------------------------------------


@pytest.mark.parametrize("lang, text, cues, left", [
    ("en", "Your turn.", ["turn"], ""),
    ("en", "Robin, your turn.", ["turn"], "Robin, your turn."),  # the name stays: it says whose turn
    ("en", "Robin plays the king of clubs and takes the king of hearts.", ["capture"], None),
    ("en", "Scopa for Robin! Robin plays the king of clubs and takes the king of hearts.", ["scopa"],
     "Robin plays the king of clubs and takes the king of hearts."),
    ("en", "Your scopa! You play the seven of clubs and take the whole table, the settebello.", ["scopa", "settebello"],
     "You play the seven of clubs and take the whole table, the settebello."),
    ("en", "You play the settebello to the table.", [], None),
    ("en", "On the table, settebello, king of clubs.", [], None),
    ("en", "Settebello to you.", [], None),
    ("it", "Tocca a te.", ["turn"], ""),
    ("it", "Scopa di Robin! Robin gioca il re di bastoni e prende il re di coppe.", ["scopa"],
     "Robin gioca il re di bastoni e prende il re di coppe."),
    ("it", "Giochi il sette di fiori e prendi il settebello.", ["settebello"], None),
])
def test_lines_are_matched_to_their_earcon_and_only_two_kinds_of_words_can_go(lang, text, cues, left):
    line = line_cues(lang, "napoletane" if "coppe" in text else "french")
    assert line.cues(text) == cues
    assert line.without_replaced_words(text) == (text if left is None else left)


# ----- the setting ----------------------------------------------------------------------------


def test_the_sound_settings_are_off_by_default_saved_and_checked(tmp_path):
    assert (Settings().earcons, Settings().sounds_replace_words, Settings().card_symbols) == (False, False, False)
    chosen = Settings(earcons=True, sounds_replace_words=True, card_symbols=True)
    assert save_settings(chosen, tmp_path) is None
    assert load_settings(tmp_path) == (chosen, None)
    (tmp_path / "settings.json").write_text(json.dumps({"earcons": "yes"}))
    settings, problem = load_settings(tmp_path)
    assert settings == Settings() and problem == "earcons must be true or false"


def test_the_settings_menu_turns_sounds_on_then_in_place_of_words_then_off(tmp_path):
    program, out, _ = program_for(tmp_path, "3\n8\n8\n8\n\x1b\n4\n")
    assert program.run() == 0
    lines = lines_of(out)
    assert "8, sounds off." in " ".join(lines)  # the item says the state
    for state in ("on", "instead", "off"):
        assert M(f"settings.sounds.now.{state}") in lines
    saved, _ = load_settings(tmp_path / "config")
    assert (saved.earcons, saved.sounds_replace_words) == (False, False)
    program, out, _ = program_for(tmp_path, "3\n8\n8\n\x1b\n4\n")
    program.run()
    saved, _ = load_settings(tmp_path / "config")
    assert (saved.earcons, saved.sounds_replace_words) == (True, True)


# ----- in a match -------------------------------------------------------------------------------


def _seeded_deal(tmp_path: Path, settings: Settings):
    program, out, speaker = program_for(tmp_path, ["1", "enter", "enter"] * 60, settings=settings)
    program.run(request_for("--seed", "3", "--target", "single"))
    return out.getvalue(), speaker


def test_a_match_with_sounds_plays_each_before_its_words(tmp_path):
    text, speaker = _seeded_deal(tmp_path, Settings(voice=False, earcons=True, verbosity="full"))
    names = earcon_names(speaker.sounds)
    assert names.count("turn") == text.count("Your turn.") == 18
    assert names.count("scopa") == len(re.findall(r"Your scopa!|Scopa for \w+!", text)) == 2
    assert "capture" in names and "settebello" in names
    timeline = speaker.timeline
    for i, item in enumerate(timeline):
        if isinstance(item, Path) and item.name.startswith("turn-"):
            assert timeline[i + 1] == "Your turn."  # the sound, then its words
    assert all(path.parent == tmp_path / "data" / "sounds" for path in speaker.sounds)


def test_at_short_verbosity_the_turn_sound_plays_though_your_turn_is_not_said(tmp_path):
    text, speaker = _seeded_deal(tmp_path, Settings(voice=False, earcons=True))
    names = earcon_names(speaker.sounds)
    assert names.count("turn") == 18 and "Your turn." not in text
    # the player's own scopa too, its move not told back
    assert names.count("scopa") == len(re.findall(r"Your scopa!|Scopa for \w+!", text)) == 2
    assert "capture" in names and "settebello" in names


def test_without_the_setting_no_sound_is_played(tmp_path):
    text, speaker = _seeded_deal(tmp_path, Settings(voice=False, verbosity="full"))
    assert speaker.sounds == [] and text.count("Your turn.") == 18


def test_sounds_in_place_of_words_drop_your_turn_and_scopa_from_screen_and_voice(tmp_path):
    text, speaker = _seeded_deal(tmp_path, Settings(voice=False, earcons=True, sounds_replace_words=True))
    names = earcon_names(speaker.sounds)
    assert names.count("turn") == 18 and names.count("scopa") == 2
    assert "Your turn." not in text and not re.search(r"Your scopa!|Scopa for \w+!", text)
    assert not any("Your turn." in said or re.search(r"Your scopa!|Scopa for \w+!", said) for said in speaker.said)
    assert "Table, " in text and "Hand, " in text  # everything else is still said


def test_repeat_gives_the_words_again_not_the_sound(tmp_path):
    announcer = SoundingAnnouncer(Output(io.StringIO()), RecordingSpeaker(),
                                  lambda: Sounding(line_cues("en", "french"), False,
                                                   lambda name: Path(f"{name}-x.wav")))
    announcer.say(["Your turn."])
    announcer.repeat()
    assert earcon_names(announcer.speaker.sounds) == ["turn"]
    assert announcer.speaker.said == ["Your turn.", "Your turn."]


@pytest.mark.linux
@posix_only
def test_with_the_voice_off_sounds_go_to_a_player_of_their_own_and_stop_silences_them(tmp_path, monkeypatch):
    from scopa.speech import NullSpeaker
    script, copies = copying_player(tmp_path, monkeypatch, seconds=20)
    sounds = SoundPlayer([str(script)])
    announcer = SoundingAnnouncer(Output(io.StringIO()), NullSpeaker(),
                                  lambda: Sounding(line_cues("en", "french"), True,
                                                   lambda name: earcon_file(name, tmp_path / "sounds")),
                                  sounds=sounds)
    announcer.say(["Your turn.", "On the table, king of clubs."])
    assert wait_for(lambda: bool(list(copies.iterdir())))
    assert [p.name.split("-")[1] for p in copies.iterdir()] == ["turn"]
    assert sounds.is_playing()
    announcer.stop()  # the X key
    assert sounds.wait_until_done(5)
    announcer.close()


def test_words_stay_when_no_sound_can_be_played(tmp_path, monkeypatch):
    """No player installed and the voice off: dropping "Your turn." would leave nothing at all."""
    import scopa.speech.sounds as sounds_module
    from scopa.speech import NullSpeaker
    monkeypatch.setattr(sounds_module, "find_players", list)
    out = io.StringIO()
    announcer = SoundingAnnouncer(Output(out), NullSpeaker(),
                                  lambda: Sounding(line_cues("en", "french"), True, lambda name: None))
    announcer.say(["Your turn."])
    assert out.getvalue() == "Your turn.\n"


@pytest.mark.linux
@posix_only
def test_with_the_voice_on_a_sound_plays_in_order_with_the_words_and_its_file_is_kept(tmp_path, monkeypatch):
    from helpers.speech import Fakes
    fakes = Fakes(tmp_path, monkeypatch)
    speaker = fakes.speaker()
    sound = earcon_file("turn", tmp_path / "sounds")
    try:
        speaker.say("one")
        speaker.play_sound(sound)
        speaker.say("two")
        assert speaker.wait_until_done(10)
    finally:
        speaker.close()
    played = fakes.record.read_text(errors="replace")  # a WAV's header holds line ends: positions, not lines
    assert played.index('"text": "one"') < played.index(" aplay RIFF") < played.index('"text": "two"')
    assert speaker.spoken == ["one", "two"] and sound.is_file()


def test_a_private_line_never_calls_for_a_sound(tmp_path):
    """A hand's line is not heard by everyone, so no sound may tell what it holds."""
    from scopa.narration import Announcement
    announcer = SoundingAnnouncer(Output(io.StringIO()), RecordingSpeaker(),
                                  lambda: Sounding(line_cues("en", "french"), False,
                                                   lambda name: Path(f"{name}-x.wav")))
    announcer.say([Announcement("You play the seven of clubs and take the settebello.", private_to=0)])
    assert announcer.speaker.sounds == []
    announcer.say([Announcement("You play the seven of clubs and take the settebello.")])
    assert earcon_names(announcer.speaker.sounds) == ["settebello"]


@pytest.mark.linux
@posix_only
def test_with_the_voice_off_words_go_only_once_a_sound_was_heard(tmp_path, monkeypatch):
    """A player may be installed yet find no sound device: until one sound has played to its
    end, "Your turn." stays on the screen."""
    from scopa.speech import NullSpeaker
    script, _ = copying_player(tmp_path, monkeypatch)
    out = io.StringIO()
    sounds = SoundPlayer([str(script)])
    announcer = SoundingAnnouncer(Output(out), NullSpeaker(),
                                  lambda: Sounding(line_cues("en", "french"), True,
                                                   lambda name: earcon_file(name, tmp_path / "sounds")),
                                  sounds=sounds)
    announcer.say(["Your turn."])
    assert sounds.wait_until_done(5) and sounds.proven()
    announcer.say(["Your turn."])
    assert out.getvalue() == "Your turn.\n"
    announcer.close()


@pytest.mark.linux
@pytest.mark.slow
@pytest.mark.audio
@needs_sox
@posix_only
def test_the_real_program_plays_the_earcons_sox_measures_and_drops_the_words_once_heard(tmp_path, monkeypatch):
    """The real scopa in a pseudo-terminal, voice off, sounds in place of words; the only audio
    player on PATH is a fake aplay that keeps a copy of each sound."""
    pexpect = pytest.importorskip("pexpect")
    script, copies = copying_player(tmp_path, monkeypatch)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "aplay").symlink_to(script)  # the first player the game looks for
    save_settings(Settings(voice=False, earcons=True, sounds_replace_words=True, verbosity="full"),
                  tmp_path / "config")
    env = dict(os.environ, TERM="xterm-256color", NO_COLOR="1", PYTHONUNBUFFERED="1",
               PATH=f"{bin_dir}{os.pathsep}/usr/bin{os.pathsep}/bin")
    child = pexpect.spawn(sys.executable, ["-m", "scopa", "--lang", "en", "--seed", "3", "--target", "single",
                                           "--data-dir", str(tmp_path / "data"),
                                           "--config-dir", str(tmp_path / "config")],
                          env=env, encoding="utf-8", timeout=30, dimensions=(50, 200))
    transcript = io.StringIO()
    child.logfile_read = transcript
    while True:
        index = child.expect(["Card\\?", "Capture\\?", "Play\\?", "Next\\?", pexpect.EOF])
        if index == 4:
            break
        child.send("1" if index in (0, 1) else "\r")
    child.close()
    assert child.exitstatus == 0
    heard = sorted(copies.iterdir(), key=lambda p: int(p.name.split("-")[0]))
    names = [p.name.split("-")[1] for p in heard]
    assert names.count("turn") == 18 and names.count("scopa") == 2 and "capture" in names
    for copy in heard:
        assert sox_info(copy)["rms"] > 0.05
    said = transcript.getvalue().count("Your turn.")
    assert 1 <= said <= 2  # said only until the first sound had been heard to its end
    assert "Your scopa!" not in transcript.getvalue() and "Scopa for" not in transcript.getvalue()


@pytest.mark.linux
@pytest.mark.audio
@needs_sox
@posix_only
@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng not installed")
def test_the_real_voice_plays_an_earcon_between_two_real_utterances(tmp_path, monkeypatch):
    """The real synthesis worker and the voice's own player: speech, the earcon, speech, as sox hears them."""
    from scopa.speech import PyttsxSpeaker
    script, copies = copying_player(tmp_path, monkeypatch)
    speaker = PyttsxSpeaker(player=[str(script)], check_player=False, log_path=tmp_path / "speech.log")
    if not speaker.available:
        pytest.skip(f"the real voice cannot start here: {speaker.unavailable_reason}")
    try:
        speaker.say("Your turn.")
        speaker.play_sound(earcon_file("turn", tmp_path / "sounds"))
        speaker.say("Scopa!")
        assert speaker.wait_until_done(30)
    finally:
        speaker.close()
    heard = sorted(copies.iterdir(), key=lambda p: int(p.name.split("-")[0]))
    assert len(heard) == 3 and heard[1].name.split("-", 1)[1].startswith("turn-")
    speech, earcon, more_speech = (sox_info(path) for path in heard)
    assert earcon["duration"] == pytest.approx(len(samples("turn")) / SAMPLE_RATE, abs=0.002)
    assert speech["rms"] > 0.01 and more_speech["rms"] > 0.01
