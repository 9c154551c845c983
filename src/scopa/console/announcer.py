"""Announcements to the screen and the voice, with Repeat and the privacy of hands.

Every announcement is printed as plain lines (the screen reader's channel) and, when the
voice is on, spoken. A private announcement (a hand, the card being chosen, a suggestion, a
tip) is spoken only when the player allowed hands to be read aloud at the hand warning
(``ask_hands_aloud``) and only while that hand is open; Repeat gives it again only then too.
This is the one gate to the voice: the narrator marks every line naming a card of a hand as
private, so nothing that reaches the voice by another way may name one.
"""
from __future__ import annotations

from typing import Callable, Sequence

from ..narration import Announcement
from ..speech import Speaker
from .terminal import ENTER, ESCAPE, Output


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
            if self.may_speak(line):
                self.speaker.say(line.spoken or line.text)
        if remember and lines:
            self._latest = lines
            if not any(line.private for line in lines):
                self._latest_public = lines

    def may_speak(self, line: Announcement) -> bool:
        """A public line, or a hand's line while hands may be heard and that hand is the open one."""
        return not line.private or (self.speak_hands and line.private_to == self.open_seat())

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


def ask_hands_aloud(announcer: Announcer, read: Callable[[str], str], message: Callable[..., str]) -> bool:
    """The hand warning: Enter lets the voice read hands (and what they can do), N or Escape keeps
    them silent (printed only). Asked before the first hand is said with the voice on, in a
    match (one human or several) and in a lesson dealt at random; says and returns the choice.

    ``read`` takes a prompt's message key and returns the token typed."""
    announcer.say([message("voice.hand_warning")])
    while True:
        token = read("prompt.allow")
        if token == ENTER or token.lower() in {"n", "no", ESCAPE}:
            announcer.speak_hands = token == ENTER
            announcer.say([message("voice.hand_allowed" if announcer.speak_hands else "voice.hand_silent")])
            return announcer.speak_hands
        announcer.say([message("voice.hand_warning_keys")])
