"""Table chat: the rules of a chat line, kept in one place for the server and the client.

A chat line is text only: what a player typed, or one of the ``PRESETS`` (sent as its name,
so each player hears it in their own language). The server cleans a typed line
(``clean_chat``): a tab or line break becomes a space, any other control character and any
direction override or isolate goes, runs of spaces become one. What is left must hold something
visible and be at most ``MAX_CHAT`` characters (``chat_problem``), or the line is refused with
that reason. Each seat may send ``ChatLimit.BURST`` lines at once, then one every
``ChatLimit.EVERY`` seconds: more is refused as ``too_fast``. The client cleans again what it
receives, so a line is never printed with a character that could move the cursor or turn the
line around, whatever the server.
"""
from __future__ import annotations

import time
import unicodedata
from typing import Literal, get_args

from ...match import clean_line

MAX_CHAT = 200  # characters of a chat line, once cleaned

Preset = Literal["good_game", "well_played", "one_moment", "your_turn", "thanks", "hello", "good_luck",
                 "nice_scopa", "sorry", "bye"]
PRESETS: tuple[str, ...] = get_args(Preset)  # C then 1 to 10 at the console, in this order

ChatProblem = Literal["empty", "too_long", "too_fast", "not_allowed"]
CHAT_PROBLEMS: tuple[str, ...] = get_args(ChatProblem)


def clean_chat(text: str) -> str:
    """``text`` fit to print on one line: the network's one rule (``match.clean_line``: no control
    character, no direction change), then single spaces."""
    return " ".join(clean_line(text).split())


def chat_problem(text: str) -> ChatProblem | None:
    """Why a cleaned line cannot be sent, or None: nothing visible, or over ``MAX_CHAT``."""
    if not any(unicodedata.category(ch) not in ("Cf", "Mn", "Me", "Zs") for ch in text):
        return "empty"
    if len(text) > MAX_CHAT:
        return "too_long"
    return None


class ChatLimit:
    """One seat's chat rate: ``BURST`` lines at once, then one every ``EVERY`` seconds."""

    BURST = 5
    EVERY = 2.0

    def __init__(self, burst: int = BURST, every: float = EVERY) -> None:
        self.burst, self.every = burst, every
        self.tokens, self.last = float(burst), time.monotonic()

    def take(self, now: float | None = None) -> bool:
        """Whether a line may go now (and it is counted)."""
        now = time.monotonic() if now is None else now
        self.tokens = min(float(self.burst), self.tokens + max(0.0, now - self.last) / self.every)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False
