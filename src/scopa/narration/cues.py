"""Which earcon a narrated line calls for, and the few words an earcon can stand for.

The lines are recognised by the catalogue's own templates, in the language and card
naming being spoken, so the sounds follow the words wherever the words are said:

* "Your turn." (and "Robin, your turn." in pass-and-play) calls for ``turn``;
* a chat line ("Ben says, well played.") calls for ``chat``, and only that, whatever it says;
* the turn timer's "Ten seconds." and "Five seconds." call for ``warning``;
* a play that takes cards calls for ``capture``; one that takes or plays the settebello for
  ``settebello``, one with "Scopa!" for ``scopa`` (these two instead of ``capture``).

Lines heard again (the last plays, Repeat) use other templates or are not passed here.
At short verbosity "Your turn." and the player's own move are *unsaid* lines: never printed
or spoken, they are still matched here, so their sounds play (the short forms of the plays
are matched as well).

A player who knows the sounds can have them replace words: only "Your turn." and the
"Scopa!" sentence go (or a "Scopa!" said alone, after the player's own move), since every
other line that sounds says more than its sound (which cards, whose turn by name).
"""
from __future__ import annotations

import re
from functools import lru_cache

from ..engine import SETTEBELLO
from .cards import CardNames, Naming
from .messages import Messages

CAPTURE_KEYS = ("play.capture", "play.capture.you", "play.whole_table", "play.whole_table.you",
                "play.capture.short", "play.capture.short.you", "play.whole_table.short", "play.whole_table.short.you")


def template_pattern(template: str) -> str:
    """A catalogue template as a regular expression: each ``{field}`` matches some text."""
    parts = re.split(r"\{[a-z_]+\}", template)
    return "(.+?)".join(re.escape(part) for part in parts)


class LineCues:
    """Earcons and replaceable words for lines in one language and card naming."""

    def __init__(self, messages: Messages, naming: Naming = "french") -> None:
        self.your_turn = messages("turn.yours")
        self.scopa = messages("play.scopa")
        self._named_turn = re.compile(template_pattern(messages("turn.named")) + "$")
        self._capture = re.compile("|".join(template_pattern(messages(key)) for key in CAPTURE_KEYS))
        settebello = CardNames(messages, naming).name(SETTEBELLO)
        self._settebello = re.compile(rf"(?<!\w){re.escape(settebello)}(?!\w)", re.IGNORECASE)
        self._scopa = re.compile(rf"(?:^|(?<=\s)){re.escape(self.scopa)}(?=\s|$)")
        self._chat = re.compile(template_pattern(messages("chat.says")) + "$")
        self.warnings = {messages("clock.warning.10"), messages("clock.warning.5")}

    def cues(self, text: str) -> list[str]:
        """The earcons for this line, most important first; none for most lines. A chat line has
        its own, whatever its words: a player's text never sounds like a turn or a capture."""
        if self._chat.match(text):
            return ["chat"]
        if text in self.warnings:
            return ["warning"]
        if text == self.your_turn or text.startswith(self.your_turn + " ") or self._named_turn.match(text):
            return ["turn"]
        if not self._capture.search(text):
            return []
        found = [name for name, pattern in (("scopa", self._scopa), ("settebello", self._settebello))
                 if pattern.search(text)]
        return found or ["capture"]

    def without_replaced_words(self, text: str) -> str:
        """The line without the words its sound stands for ("" when nothing is left); a chat
        line is said whole (its earcon stands for no word of it)."""
        if self._chat.match(text):
            return text
        if text in (self.your_turn, self.scopa):
            return ""
        if text.startswith(self.your_turn + " "):
            return text[len(self.your_turn):].strip()
        if self._capture.search(text):
            return re.sub(r"\s{2,}", " ", self._scopa.sub("", text)).strip()
        return text


@lru_cache(maxsize=8)
def line_cues(lang: str, naming: Naming) -> LineCues:
    return LineCues(Messages(lang), naming)
