"""Speakers without an engine: voice off, voice unavailable, and a recorder for tests."""
from __future__ import annotations

from collections import deque
from pathlib import Path

from scopa.speech.base import VoiceInfo, VoiceSettings


class NullSpeaker:
    """Voice off: accepts everything, says nothing."""

    available = True
    unavailable_reason: str | None = None

    def say(self, text: str) -> None:
        pass

    def stop(self) -> None:
        pass

    def is_speaking(self) -> bool:
        return False

    def wait_until_done(self, timeout: float | None = None) -> bool:
        return True

    def configure(self, settings: VoiceSettings) -> None:
        pass

    def voices(self) -> list[VoiceInfo]:
        return []

    def close(self) -> None:
        pass


class UnavailableSpeaker(NullSpeaker):
    """The voice was wanted but cannot work here; ``unavailable_reason`` says why."""

    available = False

    def __init__(self, reason: str) -> None:
        self.unavailable_reason = reason


class RecordingSpeaker:
    """A deterministic speaker for tests: records what it is asked to do.

    ``said`` holds every say() in order. With ``auto_finish=True`` (the default) each
    utterance counts as spoken at once. With ``auto_finish=False`` utterances wait in
    ``queue`` (the first one "playing") until ``finish()`` is called, so a test can
    check what Stop does while the game is still speaking. stop() moves the queue to
    ``cleared`` and counts itself in ``stops``. ``play_sound`` (an earcon) is recorded in
    ``sounds``; ``timeline`` has the texts and the sounds in the order they were given.
    """

    def __init__(self, *, auto_finish: bool = True, available: bool = True,
                 unavailable_reason: str | None = None,
                 voice_list: list[VoiceInfo] | None = None) -> None:
        self.auto_finish = auto_finish
        self.available = available
        self.unavailable_reason = unavailable_reason
        self.said: list[str] = []
        self.queue: deque[str] = deque()
        self.spoken: list[str] = []
        self.cleared: list[str] = []
        self.stops = 0
        self.settings = VoiceSettings()
        self.configured: list[VoiceSettings] = []
        self.closed = False
        self.sounds: list[Path] = []
        self.timeline: list[str | Path] = []
        self._voices = list(voice_list or [])

    def say(self, text: str) -> None:
        self.said.append(text)
        self.timeline.append(text)
        if self.auto_finish:
            self.spoken.append(text)
        else:
            self.queue.append(text)

    def play_sound(self, path: Path) -> None:
        self.sounds.append(Path(path))
        self.timeline.append(Path(path))

    def finish(self, count: int = 1) -> list[str]:
        """Let the next ``count`` queued utterances finish; return them."""
        done = [self.queue.popleft() for _ in range(min(count, len(self.queue)))]
        self.spoken.extend(done)
        return done

    def finish_all(self) -> list[str]:
        return self.finish(len(self.queue))

    def stop(self) -> None:
        self.stops += 1
        self.cleared.extend(self.queue)
        self.queue.clear()

    def is_speaking(self) -> bool:
        return bool(self.queue)

    def wait_until_done(self, timeout: float | None = None) -> bool:
        return not self.queue

    def configure(self, settings: VoiceSettings) -> None:
        self.settings = settings
        self.configured.append(settings)

    def voices(self) -> list[VoiceInfo]:
        return list(self._voices)

    def close(self) -> None:
        self.cleared.extend(self.queue)
        self.queue.clear()
        self.closed = True
