"""Announcements to the screen and the voice, with Repeat and the privacy of hands.

Every announcement is printed as plain lines (the screen reader's channel) and, when the
voice is on, spoken. A private announcement (a hand, the card being chosen, a suggestion, a
tip) is spoken only when the player allowed hands to be read aloud at the hand warning
(``ask_hands_aloud``) and only while that hand is open; Repeat gives it again only then too.
This is the one gate to the voice: the narrator marks every line naming a card of a hand as
private, so nothing that reaches the voice by another way may name one.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from ..narration import Announcement
from ..speech import Speaker
from .terminal import ENTER, ESCAPE, Output


class Announcer:
    """Prints and speaks announcements; keeps what was said for Repeat.

    Outside a match Repeat gives the latest announcement. In a match it works in *stretches*:
    everything said since the player's last action (a move confirmed, a new deal asked for) is
    one stretch, so the first R gives the opponents' plays, the new deal, the score and the turn
    that followed, and each R pressed straight after steps one stretch further back. The last
    deal's score sheet is kept on its own for its key."""

    STRETCHES = 20  # how far back Repeat can step
    STRETCH_LINES = 200  # the most lines one stretch keeps (menus outside a match never act)

    def __init__(self, output: Output, speaker: Speaker) -> None:
        self.output = output
        self.speaker = speaker
        self.speak_hands = False          # set once the player allows hands aloud
        self.open_seat: Callable[[], int | None] = lambda: None
        self._latest: list[Announcement] = []
        self._latest_public: list[Announcement] = []
        self._stretches: list[list[Announcement]] = [[]]
        self._back = 0  # stretches stepped back by the Repeats pressed one after another
        self._answering = 0  # inside aside(): answers to commands are not part of a stretch
        self.breakdown: list[Announcement] = []  # the last deal's score sheet
        self.on_said: Callable[[Announcement], None] | None = None  # a match's transcript: each line said

    def say(self, items: Sequence[Announcement | str], remember: bool = True) -> None:
        """Print each line, then queue it for the voice; what is remembered is part of the current stretch.

        An unsaid line (kept only for its earcon) is neither printed, spoken nor repeated."""
        given = [item if isinstance(item, Announcement) else Announcement(item) for item in items]
        lines = [line for line in given if not line.unsaid]
        with self.output.held():  # one write for the whole announcement
            for line in lines:
                self.output.line(line.text)
        for line in lines:
            if self.may_speak(line) and line.spoken != "":  # "": printed only (an invite link)
                self.speaker.say(line.spoken or line.text)
        if remember and not self._answering and self.on_said is not None:
            for line in given:  # what happened, unsaid lines too; not the answers to keys, nor repeats
                self.on_said(line)
        if remember and lines:
            self._latest = lines
            if not any(line.private for line in lines):
                self._latest_public = lines
            if not self._answering:
                self._stretches[-1] = (self._stretches[-1] + lines)[-self.STRETCH_LINES:]
            self._back = 0

    @contextmanager
    def aside(self) -> Iterator[None]:
        """Answers to a command (the table, the help, the settings): heard again by the R of a
        menu, but not part of what happened, so the R of a match skips them."""
        self._answering += 1
        try:
            yield
        finally:
            self._answering -= 1

    @contextmanager
    def news(self) -> Iterator[None]:
        """News that comes in the middle of an answer (the turn timer cutting ``Message?`` short):
        part of what happened after all, so the R of a match repeats it."""
        answering, self._answering = self._answering, 0
        try:
            yield
        finally:
            self._answering = answering

    def may_speak(self, line: Announcement) -> bool:
        """A public line, or a hand's line while hands may be heard and that hand is the open one."""
        return not line.private or (self.speak_hands and line.private_to == self.open_seat())

    def mark(self) -> int:
        """Where the current stretch stands now, for ``acted`` to tell a move as past from there."""
        return len(self._stretches[-1])

    def acted(self, past_from: int | None = None, past: Announcement | None = None) -> None:
        """The player acted (a move, the next deal): what is said from now on is a new stretch.

        ``past``, with the ``mark`` taken before the move was chosen, takes the place of what was
        said while choosing it ("King of hearts takes king of spades. Enter to play..."), so a
        Repeat that steps back tells the move as it was made: "You played the king of hearts and
        took the king of spades.", never a preview that no longer applies."""
        if past_from is not None and past is not None:
            self._stretches[-1] = [*self._stretches[-1][:past_from], past]
        if self._stretches[-1]:
            self._stretches = [*self._stretches[-(self.STRETCHES - 1):], []]
        self._back = 0

    def repeat(self) -> None:
        """Say the latest announcement again (menus, lessons); a hand only while its owner's hand is open."""
        latest = self._latest
        if any(line.private and line.private_to != self.open_seat() for line in latest):
            latest = self._latest_public
        if latest:
            self.say(latest, remember=False)

    def repeat_stretch(self) -> bool:
        """In a match: say a stretch again, the latest first, one further back at each Repeat in a row; a
        hand's line only while its owner's hand is open. False when there is nothing further back."""
        filled = [stretch for stretch in self._stretches if stretch]
        if self._back >= len(filled):
            return False
        stretch = filled[-1 - self._back]
        self._back += 1  # saying it again is not remembered, so the next Repeat steps further back
        self.say([line for line in stretch if not line.private or line.private_to == self.open_seat()],
                 remember=False)
        return True

    def say_breakdown(self, lines: Sequence[Announcement]) -> None:
        """Say a deal's score sheet and keep it for its key."""
        self.keep_breakdown(lines)
        self.say(lines)

    def keep_breakdown(self, lines: Sequence[Announcement]) -> None:
        """Keep a score sheet for its key without saying it (a resumed match's last one; none for a new match)."""
        self.breakdown = list(lines)

    def repeat_breakdown(self) -> bool:
        """The last deal's score sheet again; False when no deal was scored yet."""
        if not self.breakdown:
            return False
        self.say(self.breakdown, remember=False)
        return True

    def stop(self) -> None:
        self.speaker.stop()

    def forget(self, stop_voice: bool = True) -> None:
        """Empty the repeat history and, unless told not to, the voice queue (the score sheet stays).

        Done when a pass-and-play hand is hidden (a hand may still be queued for the voice) and
        at every gate (only public lines can be queued then, so they are left to finish)."""
        self._latest = []
        self._latest_public = []
        self._stretches = [[]]
        self._back = 0
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
