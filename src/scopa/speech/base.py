"""What every speaker offers, and the small value types it uses."""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class VoiceSettings:
    voice_id: str | None = None  # pyttsx3 voice id; None = the engine's default voice
    rate: int = 175  # words per minute
    volume: float = 1.0  # 0.0 .. 1.0


@dataclass(frozen=True)
class VoiceInfo:
    id: str
    name: str
    languages: tuple[str, ...]


class Speaker(Protocol):
    available: bool  # False when no speech engine works
    unavailable_reason: str | None  # one short plain sentence for the player

    def say(self, text: str) -> None:
        """Queue ``text``. Never blocks; utterances play in order, each exactly once."""

    def stop(self) -> None:
        """Silence the current utterance at once and drop everything queued."""

    def is_speaking(self) -> bool:
        """True while anything is playing or waiting to play."""

    def wait_until_done(self, timeout: float | None = None) -> bool:
        """Block until the queue is empty and nothing plays; False on timeout."""

    def configure(self, settings: VoiceSettings) -> None:
        """Use ``settings`` from the next utterance on."""

    def voices(self) -> list[VoiceInfo]:
        """The voices the engine offers (empty when there is none)."""

    def close(self) -> None:
        """Stop, and release the processes and files the speaker holds."""


def _norm(tag: str) -> str:
    return tag.strip().lower().replace("_", "-")


def _id_tag(voice: VoiceInfo) -> str:
    """The language part of an espeak-style voice id: "gmw/en-us" -> "en-us"."""
    return _norm(voice.id).rsplit("/", 1)[-1]


def pick_voice_for_language(voices: Sequence[VoiceInfo], language: str) -> VoiceInfo | None:
    """The best voice for a language tag such as "it", "it-IT" or "en_GB", or None.

    In order: a voice for exactly that tag; one whose id names it ("gmw/en" for "en");
    one for the base language ("it" for "it-CH"); then the plainest regional variant
    of the base language ("en-gb" before "en-gb-scotland"). Ties keep the engine's order.
    """
    wanted = _norm(language)
    base = wanted.split("-")[0]
    if not base:
        return None
    for tag in dict.fromkeys((wanted, base)):
        for voice in voices:
            if tag in (_norm(lang) for lang in voice.languages):
                return voice
        for voice in voices:
            if _id_tag(voice) == tag:
                return voice
    variants = [(len(_norm(lang)), i, voice) for i, voice in enumerate(voices)
                for lang in voice.languages if _norm(lang).split("-")[0] == base]
    return min(variants, key=lambda item: item[:2])[2] if variants else None


def spoken_voice_name(voice: VoiceInfo) -> str:
    """The voice's name as a screen reader says it well: "English (Great Britain)" becomes
    "English, Great Britain" (Orca reads brackets as "left paren"; hyphens and underscores as
    words too)."""
    name = voice.name or voice.id.rsplit("/", 1)[-1]
    name = re.sub(r"\s*\(\s*", ", ", name).replace(")", "")
    name = re.sub(r"[-_/]+", " ", name)
    return re.sub(r"\s+", " ", name).strip(" ,") or voice.id


def voices_in_language_first(voices: Sequence[VoiceInfo], language: str) -> list[VoiceInfo]:
    """The voices for ``language`` ("en", "it-IT") first, then the rest, each group in the engine's order."""
    base = _norm(language).split("-")[0]

    def speaks(voice: VoiceInfo) -> bool:
        tags = [_norm(lang) for lang in voice.languages] + [_id_tag(voice)]
        return any(tag.split("-")[0] == base for tag in tags)
    return sorted(voices, key=lambda voice: not speaks(voice))
