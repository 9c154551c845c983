"""Table chat at the console: the C key, the phrases, muting, and the lines heard.

C opens one line, ``Message?``, read as free text: news arriving meanwhile does not end it (a
prompt being typed is never interrupted), and is said once the line is sent. One thing does end
it, typed text and all: the player's own turn timer (``Urgent``), a warning ("Ten seconds.") or
the time up ("Time. A card is played for you."), which must be heard while there is time to act
on it. That is said at once, with what led to it, and ``Message?`` is asked again with the text
typed so far, so nothing typed is lost; other news still waits for the line. A number from 1
to 10 there sends that phrase (``net.protocol.chat.PRESETS``), heard by each player in their own
language; ``?`` lists the phrases; Enter alone or Escape sends nothing. ``:c 3`` sends phrase
three at once, ``:c well done`` a line at once.

A line heard is one announcement, "Ben says, well played.", with the chat earcon
(``narration.cues``); the player's own line comes back from the server as "You say, ...", so
it was said to the table. ``:chat off`` (a setting, kept) stops chat being said, ``:mute Ben``
stops one player's; ``:chat on`` and ``:unmute Ben`` undo them (in Italian ``:chat spenta``,
``:silenzia Ben``, ``:chat attiva``, ``:riattiva Ben``). Lines said are part of the
stretch R repeats; L gives the last plays and then the latest chat lines, muted or not (a
muted player's aside), so nothing said at the table is lost.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from ..narration import Announcement, Messages
from ..net.protocol.chat import MAX_CHAT, PRESETS
from .keys import typed_number
from .terminal import ENTER, ESCAPE, WOKEN, Input, InputClosed, Interrupted, Wake

if TYPE_CHECKING:
    from ..net.client.client import RemoteTable
    from ..net.protocol.server_messages import ChatMessage

SWITCHES = {"chat on": True, "chat off": False, "chat attiva": True, "chat spenta": False}  # the setting
MUTES = {"mute ": True, "unmute ": False, "silenzia ": True, "riattiva ": False}  # one player's lines
HISTORY = 20  # chat lines kept for L
ON_L = 5      # of which L says the latest
ECHO_WAIT = 1.0  # seconds to wait for the server's echo of a line sent, so it comes before the prompt


def chat_token(token: str) -> str | None:
    """What follows C for a chat key or command (``c``, ``c 3``, ``chat hello``); None: not chat."""
    lowered = token.lower()
    if lowered in ("c", "chat"):
        return ""
    for word in ("c ", "chat "):
        if lowered.startswith(word) and lowered not in SWITCHES:
            return token[len(word):].strip()
    return None


def chat_text(said: ChatMessage, m: Messages) -> str:
    """What a chat line says: a preset phrase in the listener's language, or the player's words
    ending as a sentence. A line typed without a final stop ("hello Ben") ran into the line after
    it under Orca: "You say, hello Ben Time."."""
    if said.preset is not None:
        return m(f"chat.preset.{said.preset}")
    text = (said.text or "").rstrip()
    return text + "." if text and text[-1].isalnum() else text


def chat_choice(text: str, m: Messages) -> tuple[Literal["preset", "text"], str] | Announcement:
    """What a line typed at ``Message?`` sends: a phrase (its number, from 1) or the words; or,
    said at once instead, why nothing is sent (nothing typed, no such phrase, too long: the
    server refuses that too, and the line is kept by nobody). The table's chat and a spectator's."""
    if not text:
        return Announcement(m("chat.not_sent"))
    number = typed_number(text)
    if number is not None:
        if not 1 <= number <= len(PRESETS):
            return Announcement(m("chat.no_phrase", most=len(PRESETS)))
        return "preset", PRESETS[number - 1]
    if len(text) > MAX_CHAT:
        return Announcement(m("online.error.chat_refused.too_long"))
    return "text", text


def chat_line(said: ChatMessage, m: Messages) -> Announcement:
    """Another player's line, "Ben says, well played.", or a spectator's, said as one ("Ben,
    watching, says, well played."), so that a spectator named as a seated player cannot speak as them."""
    return Announcement(m("chat.says.watcher" if said.watcher else "chat.says", name=said.name,
                          text=chat_text(said, m)))


@dataclass(frozen=True)
class Urgent:
    """What ends ``Message?`` even while text is typed in it: ``wake``, which the table raises for
    the seat's own turn timer (``RemoteTable.urgent``), and ``say``, which says what it raised it
    for. ``Message?`` is then asked again, starting with the text typed so far."""

    wake: Wake
    say: Callable[[], None]


class Chat:
    """One seat's chat: what it sends, what it has heard, and whom it has muted."""

    def __init__(self, table: RemoteTable, messages: Messages, enabled: Callable[[], bool],
                 set_enabled: Callable[[bool], None]) -> None:
        self.table, self.m = table, messages
        self.enabled, self.set_enabled = enabled, set_enabled
        self.muted: set[str] = set()  # names, casefolded
        self.spectators: list[str] = []  # the names of spectators heard chatting, so they can be muted too
        self.history: deque[Announcement] = deque(maxlen=HISTORY)
        if hasattr(table, "chat_wakes"):
            table.chat_wakes = self.heard_now

    def heard_now(self, said: ChatMessage) -> bool:
        """Whether a line is said as it comes: chat on and its player not muted (called by the
        table's reader thread: it reads only a bool and a set)."""
        return self.enabled() and said.name.casefold() not in self.muted

    # Heard --------------------------------------------------------------------------------
    def line(self, said: ChatMessage) -> Announcement:
        if said.seat == self.table.seat and not said.watcher:  # a spectator's line comes under the host's seat
            return Announcement(self.m("chat.says.you", text=chat_text(said, self.m)))
        return chat_line(said, self.m)

    def lines(self) -> list[Announcement]:
        """The lines heard since last asked that are to be said now (chat on, the player not muted)."""
        lines = []
        take = getattr(self.table, "take_chat", None)  # a table without chat (a test's) has nothing to say
        for said in take() if take is not None else []:
            if said.watcher and said.name not in self.spectators:
                self.spectators.append(said.name)
            line = self.line(said)
            self.history.append(line)
            if self.heard_now(said):
                lines.append(line)
        return lines

    def recent(self) -> list[Announcement]:
        """For L: the latest chat lines, after a line that says they are chat (none: nothing).
        Lines not yet taken from the table are taken first (a muted line ends no prompt)."""
        self.lines()  # into the history; L says them now
        if not self.history:
            return []
        return [Announcement(self.m("chat.recent")), *list(self.history)[-ON_L:]]

    # Commands -----------------------------------------------------------------------------
    def command(self, token: str, input: Input,  # noqa: A002
                say: Callable[[list[Announcement]], None], urgent: Urgent | None = None) -> list[Announcement] | None:
        """Run a chat key or command; what to say (the lines of the answer), or None: not chat.
        ``urgent``: what may cut ``Message?`` short, to be said at once (see ``Urgent``)."""
        lowered = token.lower().strip()
        if lowered in SWITCHES:
            self.set_enabled(SWITCHES[lowered])
            return [Announcement(self.m("chat.now_on" if SWITCHES[lowered] else "chat.now_off"))]
        for word, mute in MUTES.items():
            if lowered.startswith(word):
                return [self._mute(token[len(word):].strip(), mute)]
        rest = chat_token(token)
        if rest is None:
            return None
        return self._send(rest or self._ask(input, say, urgent))

    def _ask(self, input: Input, say: Callable[[list[Announcement]], None],  # noqa: A002
             urgent: Urgent | None = None) -> str:
        """The one line of ``Message?``; ``?`` lists the phrases and asks again; ``urgent`` news
        is said and the line asked again with what was typed of it."""
        prompt = self.m("prompt.chat") + " "
        while True:
            try:
                text = input.read_text(prompt) if urgent is None else input.read_text(prompt, urgent.wake)
            except (Interrupted, InputClosed):
                return ""
            if text == WOKEN and urgent is not None:
                urgent.say()
                continue
            if text != "?":
                return "" if text in (ENTER, ESCAPE) else text
            say(self.phrases())

    def phrases(self) -> list[Announcement]:
        return [Announcement(self.m("chat.phrases")),
                *(Announcement(self.m("chat.phrase", n=n, text=self.m(f"chat.preset.{preset}")))
                  for n, preset in enumerate(PRESETS, 1))]

    def _send(self, text: str) -> list[Announcement]:
        chosen = chat_choice(text, self.m)
        if isinstance(chosen, Announcement):
            return [chosen]
        kind, value = chosen
        mark = self.table.chat_mark()
        sent = self.table.say_preset(value) if kind == "preset" else self.table.say(value)
        if not sent:
            return [Announcement(self.m("chat.offline"))]
        self.table.wait_chat(mark, ECHO_WAIT)  # the server's echo ("You say, ...") or its refusal, said next
        return []

    def _mute(self, name: str, mute: bool) -> Announcement:
        names = [s.name for s in self.table.room().seats if s is not None and s.kind == "human"] + self.spectators
        found = next((n for n in names if n.casefold() == name.casefold()), None)
        if found is None:
            return Announcement(self.m("chat.no_player", name=name))
        (self.muted.add if mute else self.muted.discard)(found.casefold())
        return Announcement(self.m("chat.muted" if mute else "chat.unmuted", name=found))
