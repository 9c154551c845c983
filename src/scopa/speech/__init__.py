"""The game voice. The only part of scopa that touches pyttsx3 or audio.

    speaker = create_speaker(enabled=True, log_path=...)
    if not speaker.available:
        print(speaker.unavailable_reason)   # once; the game goes on in text
    speaker.say("Your turn.")               # queued, returns at once
    speaker.stop()                          # silence now, queue emptied

Tests elsewhere in the project use :class:`RecordingSpeaker`. See docs/speech.md.
"""
from __future__ import annotations

from pathlib import Path

from scopa.speech.base import (
    Speaker,
    VoiceInfo,
    VoiceSettings,
    pick_voice_for_language,
    spoken_voice_name,
    voices_in_language_first,
)
from scopa.speech.pyttsx_speaker import PyttsxSpeaker
from scopa.speech.simple import NullSpeaker, RecordingSpeaker, UnavailableSpeaker

__all__ = [
    "NullSpeaker", "PyttsxSpeaker", "RecordingSpeaker", "Speaker", "UnavailableSpeaker", "VoiceInfo",
    "VoiceSettings", "create_speaker", "pick_voice_for_language", "spoken_voice_name",
    "voices_in_language_first",
]


def create_speaker(enabled: bool, settings: VoiceSettings = VoiceSettings(), *,
                   log_path: Path | None = None) -> Speaker:
    """The speaker to use: NullSpeaker when the voice is off, else the real voice.

    When the real voice cannot work here, the result has ``available`` False and an
    ``unavailable_reason`` to print once; it accepts every call and stays silent.
    The output of the speech engine and audio tools goes to ``log_path`` (or nowhere).
    """
    if not enabled:
        return NullSpeaker()
    try:
        speaker = PyttsxSpeaker(settings, log_path=log_path)
    except Exception as exc:  # noqa: BLE001 - a broken voice must not stop the game
        return UnavailableSpeaker(f"The game voice is unavailable. {type(exc).__name__}.")
    if speaker.available:
        return speaker
    reason = speaker.unavailable_reason or "The game voice is unavailable."
    speaker.close()
    return UnavailableSpeaker(reason)

