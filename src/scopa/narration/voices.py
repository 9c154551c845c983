"""Which voice speaks the game's language, and the line to say when none does.

The console calls this after starting the voice and again after the language changes::

    voice, note = voice_for_language(speaker.voices(), lang, messages, preferred=settings.voice_id)
    if voice is not None and voice.id != current_voice_id:
        speaker.configure(VoiceSettings(voice.id, rate, volume))
    if note:
        announce(note)
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .messages import Messages

if TYPE_CHECKING:
    from ..speech import VoiceInfo


def voice_for_language(voices: Sequence[VoiceInfo], lang: str, messages: Messages | None = None,
                       preferred: str | None = None) -> tuple[VoiceInfo | None, str | None]:
    """The voice to use for ``lang`` and, when there is none, one line saying so.

    * ``preferred`` (the voice the player chose in the settings) is kept when it speaks ``lang``;
    * otherwise the best voice for ``lang`` (``scopa.speech.pick_voice_for_language``);
    * otherwise ``(None, "No Italian voice is installed...")`` in the catalogue of ``messages``
      (by default the catalogue of ``lang``): the engine's default voice goes on speaking.

    With no voices at all (the voice is off or unavailable) there is nothing to say here:
    ``(None, None)``; the speaker's own reason tells why.
    """
    from ..speech.base import pick_voice_for_language  # the speech package is loaded only when needed
    if not voices:
        return None, None
    if preferred is not None:
        chosen = [v for v in voices if v.id == preferred]
        if chosen and pick_voice_for_language(chosen, lang) is not None:
            return chosen[0], None
    voice = pick_voice_for_language(voices, lang)
    if voice is not None:
        return voice, None
    messages = messages or Messages(lang)
    return None, messages(f"voice.missing.{lang}")
