"""What differs between Windows, macOS and Linux (``scopa.system``), each path run here on Linux:
the Windows keyboard against a fake msvcrt and kernel32, the Windows voice against a fake winsound,
macOS's voice against a fake afplay, and the real speech worker against fake SAPI5 and
NSSpeechSynthesizer engines (a fake ``pyttsx3`` that writes what each system's engine writes)."""
from __future__ import annotations

import asyncio
import ctypes
import io
import os
import subprocess
import sys
import threading
import time
import wave
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import scopa.system
from scopa.console.online import OnlineMatch
from scopa.console.terminal import KeyInput, LineInput, Wake
from scopa.speech import PyttsxSpeaker
from scopa.speech.sounds import SoundPlayer
from scopa.system import for_platform
from scopa.system.keys import FILE_TYPE_CHAR, FILE_TYPE_DISK, FILE_TYPE_PIPE
from scopa.system.sound import SND_ASYNC, SND_FILENAME, SND_NODEFAULT, CommandPlayback, WinsoundPlayback
from scopa.system.stops import CTRL_BREAK_EVENT, CTRL_C_EVENT, CTRL_LOGOFF_EVENT, CTRL_SHUTDOWN_EVENT

# Choosing ------------------------------------------------------------------------------------------


def test_each_system_gets_its_own_ways_chosen_in_one_place(tmp_path: Path) -> None:
    windows = for_platform("win32", which=lambda name: None)
    mac = for_platform("darwin", which=lambda name: f"/usr/bin/{name}" if name == "afplay" else None)
    linux = for_platform("linux", which=lambda name: f"/usr/bin/{name}" if name in ("paplay", "ffplay") else None)
    assert (windows.name, mac.name, linux.name) == ("windows", "macos", "linux")
    assert [player.command for player in windows.find_players()] == [["winsound"]]
    assert [player.command for player in mac.find_players()] == [["afplay"]]
    assert [player.command[0] for player in linux.find_players()] == ["paplay", "ffplay"]  # best first
    assert (windows.speech_suffix, mac.speech_suffix, linux.speech_suffix) == (".wav", ".aiff", ".wav")
    assert "SIGBREAK" in windows.stop_signals and "SIGHUP" not in windows.stop_signals
    assert {"SIGTERM", "SIGINT", "SIGHUP"} <= set(mac.stop_signals) == set(linux.stop_signals)
    assert scopa.system.current().name == {"win32": "windows", "darwin": "macos"}.get(sys.platform, "linux")


# The Windows keyboard ----------------------------------------------------------------------------

class FakeConsole:
    """msvcrt and kernel32 as a Windows console program sees them: keys typed into the console's
    input buffer, handles of the C runtime's file descriptors, and what each handle is."""

    def __init__(self) -> None:
        self.typed: list[str] = []
        self.kinds: dict[int, int] = {}
        self.pipe_bytes = 0

    # msvcrt
    def kbhit(self) -> bool:
        return bool(self.typed)

    def getwch(self) -> str:
        return self.typed.pop(0)

    def get_osfhandle(self, fd: int) -> int:
        if fd < 0:
            raise OSError("bad file descriptor")
        return 4000 + fd

    # kernel32
    def GetFileType(self, handle: ctypes.c_void_p) -> int:
        return self.kinds.get((handle.value or 0) - 4000, FILE_TYPE_CHAR)

    def PeekNamedPipe(self, handle: Any, buffer: Any, size: int, read: Any, available: Any,
                      left: Any) -> int:
        available._obj.value = self.pipe_bytes
        return 1


@pytest.fixture
def console(monkeypatch: pytest.MonkeyPatch) -> FakeConsole:
    """This process as a Windows console program: scopa.system is Windows', on the fake console."""
    fake = FakeConsole()
    windows = for_platform("win32", fakes={"msvcrt": fake, "kernel32": fake})
    monkeypatch.setattr(scopa.system, "current", lambda: windows)
    return fake


def test_a_key_typed_on_windows_is_seen_waiting_without_being_read(console: FakeConsole,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    with open(__file__, encoding="utf-8") as stdin:
        monkeypatch.setattr(sys, "stdin", stdin)
        keys = KeyInput()
        assert keys._restore_echo is not None  # a console: nothing to silence, and keys can be seen waiting
        assert not keys.pending()
        console.typed.append("t")
        assert keys.pending()
        assert console.typed == ["t"]  # seen, not taken: the prompt reads it
        keys.close()


def test_on_windows_the_online_wait_ends_at_a_key_as_on_linux(console: FakeConsole,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Without termios, pending() was always False on Windows: a key pressed during another
    player's turn waited out the whole quiet time (1.55 s measured, 0.13 s on Linux). The wait
    here is 60 s; the key is typed a tenth of a second in, and the wait ends for it."""
    monkeypatch.setattr("scopa.console.online.WAITING_DELAY", 60.0)
    with open(__file__, encoding="utf-8") as stdin:
        monkeypatch.setattr(sys, "stdin", stdin)
        keys = KeyInput()
        waiting = SimpleNamespace(io=SimpleNamespace(input=keys), wake=Wake(), _say_news=lambda: None)
        typist = threading.Timer(0.1, console.typed.append, args=("t",))
        typist.start()
        started = time.monotonic()
        news = OnlineMatch._quiet_wait(waiting)  # type: ignore[arg-type]
        waited = time.monotonic() - started
        typist.join()
        keys.close()
    assert news is False  # no news: the key ends the wait, and the prompt opens to read it
    assert waited < 30, waited


def test_on_windows_plain_mode_sees_a_typed_line_and_a_piped_script(console: FakeConsole) -> None:
    """--plain (LineInput): select() on a console or pipe fails on Windows; the console's buffer and
    PeekNamedPipe answer instead, and a file always has its next line."""
    with open(__file__, encoding="utf-8") as stream:
        lines = LineInput(stream, io.StringIO())
        assert not lines.pending()
        console.typed.append("t")
        assert lines.pending()
        console.kinds[stream.fileno()] = FILE_TYPE_PIPE
        assert not lines.pending()
        console.pipe_bytes = 2
        assert lines.pending()
        console.kinds[stream.fileno()] = FILE_TYPE_DISK
        assert lines.pending()
    assert not LineInput(io.StringIO("t\n"), io.StringIO()).pending()  # no handle at all


# The voice: the real speech worker, fake engines ---------------------------------------------------

FAKE_PYTTSX3 = r'''
"""pyttsx3 as each system's engine writes files: SAPI5 a WAV's header only into a name ending in
.wav (raw samples otherwise), NSSpeechSynthesizer AIFF whatever the name."""
import os, struct, wave

DRIVER = os.environ["FAKE_PYTTSX3_DRIVER"]
RATE = 22050


class Voice:
    id, name, languages = "fake-voice", "Fake", ["en_US"]


def _aiff(path, frames):
    sound = b"SSND" + struct.pack(">III", 8 + len(frames), 0, 0) + frames
    common = b"COMM" + struct.pack(">IhIh", 18, 1, len(frames) // 2, 16) + b"\x40\x0d\xac\x44" + bytes(6)
    body = b"AIFF" + common + sound
    with open(path, "wb") as out:
        out.write(b"FORM" + struct.pack(">I", len(body)) + body)


class Engine:
    driver_name = DRIVER

    def __init__(self):
        self.callbacks, self.queued = {}, []
        self.properties = {"voice": "fake-voice", "rate": 200, "volume": 1.0}

    def connect(self, name, callback):
        self.callbacks.setdefault(name, []).append(callback)

    def getProperty(self, name):
        return [Voice()] if name == "voices" else self.properties[name]

    def setProperty(self, name, value):
        self.properties[name] = value

    def isBusy(self):
        return False

    def save_to_file(self, text, path):
        self.queued.append((text, path))

    def runAndWait(self):
        for text, path in self.queued:
            frames = b"\x00\x08" * int(RATE * 0.02 * len(text))  # 20 ms a character
            if DRIVER == "nsss":
                _aiff(path, frames)
            elif path.lower().endswith(".wav"):
                with wave.open(path, "wb") as out:
                    out.setnchannels(1), out.setsampwidth(2), out.setframerate(RATE)
                    out.writeframes(frames)
            else:
                with open(path, "wb") as out:
                    out.write(frames)
            for callback in self.callbacks.get("finished-utterance", []):
                callback(name=None, completed=True)
        self.queued.clear()


def init():
    return Engine()
'''


@pytest.fixture
def engine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """engine(driver): the real speech worker will load a fake pyttsx3 whose engine is ``driver``."""
    package = tmp_path / "fake_pyttsx3" / "pyttsx3"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(FAKE_PYTTSX3)
    monkeypatch.setenv("PYTHONPATH", str(package.parent))

    def use(driver: str) -> None:
        monkeypatch.setenv("FAKE_PYTTSX3_DRIVER", driver)
    return use


class FakeWinsound:
    """winsound: what it was asked to play, checked as Windows would read it (a WAV), and stopped."""

    SND_FILENAME, SND_ASYNC, SND_NODEFAULT = SND_FILENAME, SND_ASYNC, SND_NODEFAULT

    def __init__(self) -> None:
        self.played: list[tuple[str, float, int]] = []  # (name, seconds, flags) of each file played
        self.stops = 0
        self.broken = False

    def PlaySound(self, sound: str | None, flags: int) -> None:
        if sound is None:
            self.stops += 1
            return
        if self.broken:
            raise RuntimeError("Failed to play sound")
        with wave.open(sound, "rb") as audio:  # a file Windows could not play fails here
            seconds = audio.getnframes() / audio.getframerate()
        self.played.append((Path(sound).name, seconds, flags))


def started_processes(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    started: list[list[str]] = []
    real = subprocess.Popen.__init__

    def record(self: subprocess.Popen[bytes], args: Any, *more: Any, **options: Any) -> None:
        started.append([str(arg) for arg in args])
        real(self, args, *more, **options)
    monkeypatch.setattr(subprocess.Popen, "__init__", record)
    return started


def test_on_windows_each_line_is_played_by_winsound_in_the_game_s_own_process(
        engine: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before, each spoken line started a Python to play it. Now the only process is the speech
    worker; SAPI5's file (first written under another name) is a WAV winsound can play."""
    engine("sapi5")
    winsound = FakeWinsound()
    windows = for_platform("win32", fakes={"winsound": winsound})
    monkeypatch.setattr(scopa.system, "current", lambda: windows)
    started = started_processes(monkeypatch)
    starts: list[tuple[int | None, str]] = []
    speaker = PyttsxSpeaker(log_path=tmp_path / "speech.log", on_player_start=lambda pid, text: starts.append(
        (pid, text)))
    try:
        assert speaker.available, speaker.unavailable_reason
        assert speaker.player_command == ["winsound"]
        speaker.say("Your turn.")
        assert speaker.wait_until_done(timeout=20)
        assert speaker.spoken == ["Your turn."]
    finally:
        speaker.close()
    assert starts == [(None, "Your turn.")]
    assert len(started) == 1 and started[0][-1].endswith("synth_worker.py")  # the worker alone
    probe, line = winsound.played
    assert probe[2] == SND_FILENAME | SND_NODEFAULT  # the silent check plays to its end
    assert line[0].endswith(".wav") and ".part" not in line[0]
    assert line[1] == pytest.approx(0.2, abs=0.01)  # "Your turn." at 20 ms a character, whole
    assert line[2] == SND_FILENAME | SND_ASYNC | SND_NODEFAULT  # never the default beep instead


def test_on_windows_stop_silences_winsound_at_once_and_drops_the_rest(engine: Any, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    engine("sapi5")
    winsound = FakeWinsound()
    monkeypatch.setattr(scopa.system, "current", lambda: for_platform("win32", fakes={"winsound": winsound}))
    speaker = PyttsxSpeaker(log_path=tmp_path / "speech.log")
    try:
        speaker.say("A line long enough to take ten seconds to say, " * 10)
        speaker.say("Your turn.")
        deadline = time.monotonic() + 20
        while len(winsound.played) < 2 and time.monotonic() < deadline:  # the probe, then the line
            time.sleep(0.01)
        stopped = time.monotonic()
        speaker.stop()
        assert speaker.wait_until_done(timeout=5)
        assert time.monotonic() - stopped < 5  # not the line's ten seconds
        time.sleep(0.3)
        assert winsound.stops >= 1 and len(winsound.played) == 2 and speaker.spoken == []
    finally:
        speaker.close()


def test_on_windows_a_machine_without_sound_says_so_and_earcons_give_up_quietly(
        engine: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    engine("sapi5")
    winsound = FakeWinsound()
    winsound.broken = True
    monkeypatch.setattr(scopa.system, "current", lambda: for_platform("win32", fakes={"winsound": winsound}))
    speaker = PyttsxSpeaker(log_path=tmp_path / "speech.log")
    assert not speaker.available and "No sound device" in (speaker.unavailable_reason or "")
    sounds = SoundPlayer()
    silent = tmp_path / "beep.wav"
    from scopa.system.sound import write_silence
    write_silence(silent)
    assert sounds.can_play()
    sounds.play(silent)
    assert sounds.wait_until_done(timeout=5)
    assert not sounds.can_play() and not sounds.proven()
    sounds.close()


def test_on_windows_earcons_play_in_process_and_stop_cuts_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    winsound = FakeWinsound()
    monkeypatch.setattr(scopa.system, "current", lambda: for_platform("win32", fakes={"winsound": winsound}))
    from scopa.system.sound import write_silence
    short, long = write_silence(tmp_path / "short.wav", 0.05), write_silence(tmp_path / "long.wav", 30)
    sounds = SoundPlayer()
    sounds.play(short)
    assert sounds.wait_until_done(timeout=5) and sounds.played == [short]
    sounds.play(long)
    while len(winsound.played) < 2:
        time.sleep(0.01)
    sounds.stop()
    assert sounds.wait_until_done(timeout=5)
    assert sounds.played == [short] and sounds.can_play()  # stopped, not broken
    sounds.close()


AFPLAY = """#!/bin/sh
# afplay as on macOS: plays AIFF or WAV, whatever the name; records the name and the format.
for last; do :; done
printf '%s %s\\n' "$(basename "$last")" "$(head -c 12 "$last" | tail -c 4)" >> "$AFPLAY_RECORD"
"""


@pytest.mark.linux
def test_on_macos_the_engine_s_aiff_is_named_aiff_and_played_by_afplay(engine: Any, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """NSSpeechSynthesizer writes AIFF whatever the name: it was named .wav (and checked as a WAV)."""
    engine("nsss")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "afplay").write_text(AFPLAY)
    (bin_dir / "afplay").chmod(0o755)
    record = tmp_path / "afplay.txt"
    monkeypatch.setenv("AFPLAY_RECORD", str(record))
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    mac = for_platform("darwin", which=lambda name: str(bin_dir / name) if name == "afplay" else None)
    monkeypatch.setattr(scopa.system, "current", lambda: mac)
    speaker = PyttsxSpeaker(log_path=tmp_path / "speech.log")
    try:
        assert speaker.available, speaker.unavailable_reason
        speaker.say("Your turn.")
        assert speaker.wait_until_done(timeout=20)
        assert speaker.spoken == ["Your turn."]
    finally:
        speaker.close()
    played = record.read_text().split("\n")
    assert played[0] == "silence.wav WAVE"  # the check of the sound device
    name, form = played[1].split()
    assert name.endswith(".aiff") and ".part" not in name and form == "AIFF"


def test_the_playbacks_say_what_plays() -> None:
    assert CommandPlayback(["aplay", "-q"]).command == ["aplay", "-q"]
    assert WinsoundPlayback(lambda name: None).command == ["winsound"]


# Stopping a server on Windows ------------------------------------------------------------------------

class FakeKernel32:
    """SetConsoleCtrlHandler as Windows keeps it: the handlers, called last first on a thread of its own."""

    def __init__(self) -> None:
        self.handlers: list[Any] = []

    def SetConsoleCtrlHandler(self, handler: Any, add: int) -> int:
        if add:
            self.handlers.append(handler)
        else:
            self.handlers.remove(handler)
        return 1

    def send(self, event: int) -> list[int]:
        """What each handler answered, as Windows asks them (until one says it handled it)."""
        answers: list[int] = []

        def ask() -> None:
            for handler in reversed(list(self.handlers)):
                answers.append(handler(event))
                if answers[-1]:
                    return
        thread = threading.Thread(target=ask)
        thread.start()
        thread.join(30)
        return answers


def test_on_windows_the_server_stops_cleanly_when_its_console_ends_and_clients_hear_a_restart(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A service wrapper's stop is Ctrl-C or Ctrl-Break (signals, tested in test_net_ops); a closed
    console and a shutdown are no signals: the handler stops the server and holds Windows until the
    clients were told (Windows ends the process once the handler returns)."""
    from websockets.asyncio.client import connect

    from scopa.net.protocol.server_messages import ErrorMessage, parse_server_message
    from scopa.net.server.server import ServerConfig, run

    kernel32 = FakeKernel32()
    windows = for_platform("win32", fakes={"kernel32": kernel32})
    monkeypatch.setattr(scopa.system, "current", lambda: windows)

    async def scenario() -> tuple[list[int], list[int], str, int]:
        ready: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        serving = asyncio.create_task(run(ServerConfig(port=0, db=tmp_path / "rooms.sqlite3"), ready))
        port = await ready
        async with connect(f"ws://127.0.0.1:{port}") as ws:
            passed_on = await asyncio.to_thread(
                lambda: [kernel32.send(event) for event in (CTRL_C_EVENT, CTRL_BREAK_EVENT, CTRL_LOGOFF_EVENT)])
            ending = asyncio.create_task(asyncio.to_thread(kernel32.send, CTRL_SHUTDOWN_EVENT))
            told = parse_server_message(await ws.recv())
        code = await serving
        answers = await ending
        return [answer for answers in passed_on for answer in answers], answers, (
            told.code if isinstance(told, ErrorMessage) else repr(told)), code

    passed_on, answers, told, code = asyncio.run(scenario())
    assert passed_on == [0, 0, 0]  # Ctrl-C and Ctrl-Break go on to Python's signals; a logoff is ignored
    assert (answers, told, code) == ([1], "server_stopping", 0)
    assert kernel32.handlers == []  # taken away once stopped


def test_the_sounds_queued_at_the_program_s_end_are_played_not_dropped(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The cause of test_earcons' 17 turn sounds of 18: on a slow machine sounds queue up behind
    the one playing, and the program's end dropped those still queued (the last turn's among them)."""
    from scopa.console.sounding import Sounding, SoundingAnnouncer
    from scopa.console.terminal import Output
    from scopa.narration.cues import line_cues
    from scopa.speech import NullSpeaker
    from scopa.system.sound import write_silence
    winsound = FakeWinsound()
    sounds = SoundPlayer(WinsoundPlayback(scopa.system.loader({"winsound": winsound})))
    files = {name: write_silence(tmp_path / f"{name}.wav", 0.3) for name in ("turn", "capture")}
    announcer = SoundingAnnouncer(Output(io.StringIO()), NullSpeaker(),
                                  lambda: Sounding(line_cues("en", "french"), False, files.get), sounds=sounds)
    announcer.say(["Your turn."])
    announcer.say(["Robin plays the king of clubs and takes the king of hearts."])
    announcer.say(["Your turn."])
    announcer.close()  # at once, as the program ends while the first still plays
    assert [Path(name).stem for name, _, _ in winsound.played] == ["turn", "capture", "turn"]
    assert sounds.played == [files["turn"], files["capture"], files["turn"]]
