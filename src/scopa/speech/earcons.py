"""Earcons: six short sounds made here, from a few sine waves, with the standard library only.

    path = earcon_file("scopa", folder, volume=0.8)   # written once, then reused

``turn`` (two soft rising notes), ``capture`` (one low plucked note), ``scopa`` (a quick
rising arpeggio), ``settebello`` (a bell), ``chat`` (two quick falling notes: a voice at the
table) and ``warning`` (one reedy note three times: the turn timer running out). Each is under half
a second, mono, 16 bit, 22050 Hz, and the same bytes every time: there is no randomness and no
recording, so the sounds are the project's own code under its licence and nothing has to be
downloaded or committed as a binary. A file's name carries a digest of its samples, so a
changed sound is written again under a new name.
"""
from __future__ import annotations

import hashlib
import io
import math
import os
import struct
import tempfile
import wave
from dataclasses import dataclass
from pathlib import Path

SAMPLE_RATE = 22050
PEAK = 0.45  # of full scale: clearly heard beside the voice, never clipped
ATTACK = 0.004  # seconds; a softer start than a click
RELEASE = 0.012  # seconds of fade at the end of each note, so no note ends in a click


@dataclass(frozen=True)
class Tone:
    """One note: a frequency, its length, its partials (multiple, loudness) and how fast it fades."""

    hz: float
    seconds: float
    partials: tuple[tuple[float, float], ...] = ((1.0, 1.0),)
    decay: float = 6.0  # per second, exponential


_REED = ((1.0, 1.0), (3.0, 0.3))  # a reedy tone: odd partials
_BELL = ((1.0, 1.0), (2.76, 0.45), (5.40, 0.22), (8.93, 0.10))  # a struck bar's inharmonic partials
EARCONS: dict[str, tuple[Tone, ...]] = {
    "turn": (Tone(440.00, 0.07, decay=10), Tone(659.26, 0.10, decay=10)),
    "capture": (Tone(261.63, 0.14, ((1.0, 1.0), (2.0, 0.3)), decay=22),),
    "scopa": (Tone(523.25, 0.06), Tone(659.26, 0.06), Tone(783.99, 0.06),
              Tone(1046.50, 0.18, ((1.0, 1.0), (2.0, 0.25)), decay=8)),
    "settebello": (Tone(1174.66, 0.45, _BELL, decay=7),),
    "chat": (Tone(1046.50, 0.05, decay=14), Tone(783.99, 0.08, decay=14)),
    "warning": (Tone(493.88, 0.07, _REED, decay=9),) * 3,
}


def _tone_samples(tone: Tone) -> list[float]:
    count = int(tone.seconds * SAMPLE_RATE)
    loudness = sum(level for _, level in tone.partials)
    out = []
    for i in range(count):
        t = i / SAMPLE_RATE
        envelope = min(1.0, t / ATTACK, (count - i) / (RELEASE * SAMPLE_RATE)) * math.exp(-tone.decay * t)
        wave_sum = sum(level * math.sin(2 * math.pi * tone.hz * multiple * t) for multiple, level in tone.partials)
        out.append(envelope * wave_sum / loudness)
    return out


def samples(name: str, volume: float = 1.0) -> list[int]:
    """The earcon's 16-bit samples at ``volume`` (0 to 1)."""
    if name not in EARCONS:
        raise ValueError(f"Unknown earcon {name!r}: choose {', '.join(EARCONS)}.")
    scale = PEAK * max(0.0, min(1.0, volume)) * 32767
    return [round(value * scale) for tone in EARCONS[name] for value in _tone_samples(tone)]


def wav_bytes(name: str, volume: float = 1.0) -> bytes:
    """The earcon as a complete WAV file."""
    frames = samples(name, volume)
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(SAMPLE_RATE)
        out.writeframes(struct.pack(f"<{len(frames)}h", *frames))
    return buffer.getvalue()


def earcon_file(name: str, folder: Path, volume: float = 1.0) -> Path:
    """The earcon's WAV in ``folder``, written there the first time (atomically) and reused after.

    Raises OSError when the folder cannot be written."""
    data = wav_bytes(name, volume)
    path = folder / f"{name}-{hashlib.sha256(data).hexdigest()[:12]}.wav"
    if path.is_file() and path.stat().st_size == len(data):
        return path
    folder.mkdir(parents=True, exist_ok=True)
    handle, part = tempfile.mkstemp(dir=folder, prefix=f".{name}-", suffix=".part")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(part, path)
    except BaseException:
        Path(part).unlink(missing_ok=True)
        raise
    return path
