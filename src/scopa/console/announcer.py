"""Announcements to the screen and the voice, with Repeat and the privacy of hands.

Every announcement is printed as plain lines (the screen reader's channel) and, when the
voice is on, spoken. A private announcement (a hand) is spoken only when the player allowed
hands to be read aloud, and Repeat gives it again only while that hand is open.
"""
from __future__ import annotations

from typing import Callable, Sequence

from ..narration import Announcement
from ..speech import Speaker
from .terminal import Output


class Announcer:
    """Prints and speaks announcements; remembers the latest one for Repeat."""

    def __init__(self, output: Output, speaker: Speaker) -> None:
        self.output = output
        self.speaker = speaker
        self.speak_hands = False          # set once the player allows hands aloud
        self.open_seat: Callable[[], int | None] = lambda: None
        self._latest: list[Announcement] = []
        self._latest_public: list[Announcement] = []

    def say(self, items: Sequence[Announcement | str], remember: bool = True) -> None:
        """Print each line, then queue it for the voice; one call is one announcement for Repeat."""
        lines = [item if isinstance(item, Announcement) else Announcement(item) for item in items]
        for line in lines:
            self.output.line(line.text)
        for line in lines:
            if not line.private or self.speak_hands:
                self.speaker.say(line.spoken or line.text)
        if remember and lines:
            self._latest = lines
            if not any(line.private for line in lines):
                self._latest_public = lines

    def repeat(self) -> None:
        """Say the latest announcement again; a hand only while its owner's hand is open."""
        latest = self._latest
        if any(line.private and line.private_to != self.open_seat() for line in latest):
            latest = self._latest_public
        if latest:
            self.say(latest, remember=False)

    def stop(self) -> None:
        self.speaker.stop()

    def forget(self, stop_voice: bool = True) -> None:
        """Empty the repeat history and, unless told not to, the voice queue.

        Done when a pass-and-play hand is hidden (a hand may still be queued for the voice) and
        at every gate (only public lines can be queued then, so they are left to finish)."""
        self._latest = []
        self._latest_public = []
        if stop_voice:
            self.speaker.stop()
