"""Earcons beside the words: the one place where sounds are started and the words they replace dropped.

The Program's announcer is a ``SoundingAnnouncer``. Before an announcement is printed and
spoken, each of its lines is matched to its earcon (``narration.cues``); the sounds go first,
so a sound is heard before the words it goes with, and, when the player chose that sounds
replace words, "Your turn." and "Scopa!" are left out of the lines, on the screen and in the
voice alike. Nothing changes when earcons are off.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from ..narration import Announcement
from ..narration.cues import LineCues
from ..speech import Speaker
from ..speech.sounds import SoundPlayer
from .announcer import Announcer
from .terminal import Output

SOUNDS_AT_EXIT = 5.0  # seconds the sounds still queued at the program's end may take to play


@dataclass(frozen=True)
class Sounding:
    """What the earcon settings say now: the cues of the language spoken, and the sounds' files."""

    cues: LineCues
    replace_words: bool
    sound_file: Callable[[str], Path | None]  # an earcon's WAV, or None when it cannot be written


class SoundingAnnouncer(Announcer):
    """An Announcer that plays earcons and, if asked, drops the words they stand for.

    ``sounding`` gives the current settings, or None while earcons are off. Sounds go into the
    game voice's queue when it is on (in order with the words), else to ``sounds``, a player of
    their own; Stop silences both."""

    def __init__(self, output: Output, speaker: Speaker, sounding: Callable[[], Sounding | None],
                 sounds: SoundPlayer | None = None) -> None:
        super().__init__(output, speaker)
        self.sounding = sounding
        self.sounds = sounds if sounds is not None else SoundPlayer()

    def say(self, items: Sequence[Announcement | str], remember: bool = True) -> None:
        sounding = self.sounding()
        if sounding is None:
            super().say(items, remember)
            return
        lines = [item if isinstance(item, Announcement) else Announcement(item) for item in items]
        if remember:  # Repeat gives the words again, not the sounds; a private line never sounds
            for name in (name for line in lines if not line.private for name in sounding.cues.cues(line.text)):
                self._play(sounding.sound_file(name))
        if sounding.replace_words and self._can_play():
            lines = [replace(line, text=text) for line in lines
                     if (text := sounding.cues.without_replaced_words(line.text))]
        super().say(lines, remember)

    def stop(self) -> None:
        super().stop()
        self.sounds.stop()

    def forget(self, stop_voice: bool = True) -> None:
        super().forget(stop_voice)
        if stop_voice:
            self.sounds.stop()

    def close(self) -> None:
        """The program's end: the sounds already queued are played first (a few tenths of a second
        each, at most ``SOUNDS_AT_EXIT`` in all), so the last play's sound is heard whole. They were
        dropped, and a slow machine, still playing earlier ones, lost the last turn's."""
        self.sounds.close(drain=SOUNDS_AT_EXIT)

    def _voice_queue(self) -> Callable[[Path], None] | None:
        """The game voice's own queue for sounds, when the voice can play them."""
        play = getattr(self.speaker, "play_sound", None)
        return play if play is not None and getattr(self.speaker, "available", True) else None

    def _can_play(self) -> bool:
        """Sounds are known to be heard: the game voice plays them (its player was checked at
        start), or the sound player has played one already. Until then the words stay."""
        return self._voice_queue() is not None or self.sounds.proven()

    def _play(self, path: Path | None) -> None:
        if path is None:
            return
        play = self._voice_queue()
        if play is not None:
            play(path)
        else:
            self.sounds.play(path)
