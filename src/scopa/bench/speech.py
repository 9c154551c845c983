"""Speech latency benchmark: how soon speech starts after say(), how soon stop() silences it.

    python -m scopa.bench.speech [--hold SECONDS] [--log FILE]

announce: from say() to the audio player process being started on a finished WAV.
stop:     from stop() to the player process being gone.

With no sound device (CI, containers) the real player cannot open one, so the benchmark
plays through a stand-in that reads the WAV and paces it in real time, and says so.
It then also reports when the stand-in read the first audio bytes.
"""
from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from scopa.speech.pyttsx_speaker import REASON_NO_DEVICE, PyttsxSpeaker

ANNOUNCEMENTS = (
    "Robin plays the king of clubs and takes the king of hearts. Scopa!",
    "Your turn.",
    "Three new cards each; 24 left in the stock.",
    "Table: ace of coins, five of cups, knave of swords, seven of clubs.",
    "You play the seven of coins and take the settebello.",
    "Ada plays the three of swords. Nothing taken.",
    "Your hand: two of cups, six of clubs, queen of coins.",
    "Robin takes the four of cups and the three of coins with the seven of swords.",
    "Last hand. Two cards left for each player.",
    "Ada takes the remaining cards on the table.",
    "Round over. You: 7 points. Robin: 4 points.",
    "Carte: you, 22 cards. Robin, 18 cards.",
    "Coins: you have 6. Robin has 4.",
    "Primiera goes to Robin.",
    "Scopa for you! That makes three this round.",
    "Choose which cards to take: 1, the ace and six; 2, the seven.",
    "Robin is thinking.",
    "New round. Ada deals.",
    "You win the game, 11 to 9.",
    "Stock empty. Final cards to play.",
)

# Stand-in player: reads the WAV as a sound card would, in real time, and notes the
# moment it has the first audio bytes (CLOCK_MONOTONIC, the same clock as ours).
STAND_IN = r"""
import os, sys, time, wave
with wave.open(sys.argv[-1], "rb") as w:
    step = w.getframerate() // 50
    frames = w.readframes(step)
    note = os.environ.get("SCOPA_BENCH_FIRST_BYTES")
    if note:
        with open(note, "a") as f:
            f.write(f"{os.getpid()} {time.monotonic()}\n")
    while frames:
        time.sleep(0.02)
        frames = w.readframes(step)
"""


def _stats(values: list[float]) -> str:
    if not values:
        return "n/a"
    ordered = sorted(values)
    p95 = ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]
    return f"{statistics.median(ordered):.1f}/{p95:.1f}"


def _gone(pid: int | None) -> bool:
    if pid is None or os.name == "nt":
        return True  # no process (winsound), or stop() has already reaped it
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


def _wait_gone(pid: int | None, timeout: float = 2.0) -> float:
    deadline = time.monotonic() + timeout
    while not _gone(pid) and time.monotonic() < deadline:
        time.sleep(0.0002)
    return time.monotonic()


class Starts:
    """Collects (time, pid, text) each time the speaker starts a player."""

    def __init__(self) -> None:
        self.items: list[tuple[float, int | None, str]] = []
        self.event = threading.Event()

    def __call__(self, pid: int | None, text: str) -> None:
        self.items.append((time.monotonic(), pid, text))
        self.event.set()

    def next(self, timeout: float = 5.0) -> tuple[float, int | None, str] | None:
        if not self.event.wait(timeout):
            return None
        self.event.clear()
        return self.items[-1]


def _make_speaker(log: Path, starts: Starts) -> tuple[PyttsxSpeaker, str]:
    speaker = PyttsxSpeaker(log_path=log, on_player_start=starts)
    if speaker.available:
        return speaker, "player: " + " ".join(speaker.player_command)
    if speaker.unavailable_reason != REASON_NO_DEVICE:
        return speaker, ""
    stand_in = [sys.executable, "-S", "-c", STAND_IN]
    speaker = PyttsxSpeaker(log_path=log, on_player_start=starts,
                            player=stand_in, check_player=False)
    return speaker, "player: real-time stand-in (no sound device could be opened here)"


def _first_bytes(note: Path, starts: list[tuple[float, int | None]]) -> list[float]:
    if not note.exists():
        return []
    seen = {}
    for line in note.read_text().splitlines():
        pid, stamp = line.split()
        seen[int(pid)] = float(stamp)
    return [(seen[pid] - t0) * 1000 for t0, pid in starts if pid in seen]


def run(hold: float, log: Path, note: Path) -> int:
    os.environ["SCOPA_BENCH_FIRST_BYTES"] = str(note)
    starts = Starts()
    speaker, player_line = _make_speaker(log, starts)
    if not speaker.available:
        print(speaker.unavailable_reason)
        return 1
    print(player_line)
    try:
        speaker.say("Ready.")  # warm-up: the worker's first synthesis loads the voice
        starts.next()
        speaker.stop()
        announce, stop, stop_return, said_at = [], [], [], []
        for text in ANNOUNCEMENTS:
            t0 = time.monotonic()
            speaker.say(text)
            started = starts.next()
            if started is None:
                print(f"no playback started for {text!r}; see {log}")
                continue
            announce.append((started[0] - t0) * 1000)
            said_at.append((t0, started[1]))
            time.sleep(hold)
            t1 = time.monotonic()
            speaker.stop()
            stop_return.append((time.monotonic() - t1) * 1000)
            stop.append((_wait_gone(started[1]) - t1) * 1000)
        leaked = _queued_after_stop(speaker, starts)
    finally:
        speaker.close()
    print(f"announce ms median/p95: {_stats(announce)}")
    first = _first_bytes(note, said_at)
    if first:
        print(f"first audio bytes read ms median/p95: {_stats(first)}")
    print(f"stop ms median/p95: {_stats(stop)}")
    print(f"stop() returned ms median/p95: {_stats(stop_return)}")
    print(f"utterances played after stop() cleared a queue of 3: {leaked}")
    return 0


def _queued_after_stop(speaker: PyttsxSpeaker, starts: Starts) -> int:
    for text in ANNOUNCEMENTS[:4]:
        speaker.say(text)
    starts.next()
    count = len(starts.items)
    speaker.stop()
    time.sleep(0.5)
    return len(starts.items) - count


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m scopa.bench.speech", description=__doc__.splitlines()[0])
    parser.add_argument("--hold", type=float, default=0.3,
                        help="seconds of playback before stop() (default 0.3)")
    parser.add_argument("--log", type=Path, help="where the speech tools' output goes")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="scopa-bench-speech-") as tmp:
        log = args.log or Path(tmp) / "speech.log"
        return run(args.hold, log, Path(tmp) / "first-bytes.txt")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
