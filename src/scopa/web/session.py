"""One browser page's console: the console's own program, played for a page (issue 40).

The page is thin: it shows lines and a prompt, and sends keys and typed lines. Everything between
is the console's own code, run here in a thread of its own: ``console.app.Program`` with its menus,
``console.online`` (the lobby, ``OnlineMatch``, chat, the timer), the narrator, in the page's
language and verbosity. So the words and the keys are the console's, from one source, and a
player in the browser hears what a player at the terminal hears.

The console plays its seat as any client does: a ``RemoteTable`` that connects to this very server
on loopback (the address ``net.server.pages`` gives it), so it gets that seat's own view and nothing more; no other
seat's card can reach the page because none reaches the console.

Its files (the seat key, the player key, the settings, the results log) are kept in a temporary
folder for the session's time and removed after it. The page keeps what must outlive a reload: the
seat key (sent to it in a ``seat`` message once the seat is given, forgotten with ``seat`` null) and
its player key, in the page's own storage for this server, and gives them back in its first message.

Messages, page to server (JSON objects, one per frame):

    start  {lang, verbosity, code, seat, player_key, origin}   first: the language ("en", "it"), the
           verbosity (brief, short, full), a room code to join (from the address /CODE), a seat to take
           back {code, key, seat, name}, the player's key, and the page's own origin (for the lines
           that name this server)
    key    {key}     one key: a digit, a letter, "?", ".", ",", or "enter", "escape"
    line   {text}    a typed line: a command after ":" at a key prompt, or the answer to a text prompt
    share  {value}   the page's secret of its share of a room's seed (the nonce, 64 hex digits), drawn once it
                     heard the commitment

Server to page:

    say    {lines, prompt, text, choices}   lines to add to the log, in order, then (when not null) the
           prompt now open; ``text`` true when the prompt takes a typed line (a name, a code, a chat
           message); ``choices`` the buttons for it, [{key, label}] (the hand at Card?, a menu's items: the
           question's own, again when it is asked again unanswered, never another question's)
    seat   {seat}                  the seat to keep for a reload ({code, key, seat, name}), or null
    player_key {key}               the player's key, to keep
    commitment {value}             the room's commitment (docs/fairness.md): the page answers with ``share``
    check  {record, commitment, nonce, nonces, seat, seen, shown, daily, deal, words}   the match is over: what
           the page checks the shuffle with (the record, every share's nonce told, what this seat saw, the
           shares the room's info showed at the start, the deal's sizes) and the line for each verdict
    language {lang}                the language the console speaks ("en", "it"): at the start, and when the player
                                   changes it in the settings; the page's own words and its lang follow it
    end    {}                      the session is over (the page offers to start again)
"""
from __future__ import annotations

import contextlib
import queue
import re
import shutil
import tempfile
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ..config import Settings
from ..console.app import Program
from ..console.terminal import ENTER, ESCAPE, WOKEN, InputClosed, Output, Wake, line_token
from ..speech.simple import NullSpeaker

LANGS = ("en", "it")
VERBOSITIES = ("brief", "short", "full")
MAX_LINE = 300  # characters of a typed line kept (a chat line is at most 200)
SINGLE = re.compile(r"^[0-9a-z?.,]$")
CLOSED = "\x00closed"
SHARE_WAIT = 10.0  # seconds the console waits for the page's share of a seed
# the page's own check says one of these
VERDICTS = ("fair", "commitment", "contribution", "computer_share", "shares", "other_commitment", "seed", "deals",
            "missing")


@dataclass
class Question:
    """A question open (a menu, the capture menu): the prompt it asks and the buttons said for it."""

    listing: list[str]  # its options as the menu says them, for when it is asked without saying them
    prompt: str | None = None
    choices: list[dict[str, str]] = field(default_factory=list)


class PageStream:
    """The console's output stream for a page: a write is lines (each ending in a line end), then maybe a prompt.

    The console writes what one step announces in one write (``terminal.held``); that write becomes one
    ``say`` message, so the page adds the lines of one announcement together."""

    def __init__(self, send: Callable[[dict[str, Any]], None], rename: Callable[[str], str]) -> None:
        self._send = send
        self._rename = rename
        self.text_prompt = False  # the prompt being written takes a typed line
        self.said: list[str] = []  # every line and prompt sent, in order (for tests and the bench)
        self.pending: list[str] = []  # lines said since the last prompt: a menu's items are among them
        self.verdicts: set[str] = set()  # the console's lines of its own shuffle check
        # what the page checks the shuffle with, once the console said its own check (None: nothing to check)
        self.checked: Callable[[], dict[str, Any] | None] = lambda: None
        # the buttons for a prompt: [{key, label}], from the hand at Card? or the numbered items said
        self.choices: Callable[[str, list[str]], list[dict[str, str]]] = lambda prompt, lines: []
        # the language the console speaks now (the page's own words follow it), and the one the page was told
        self.language: Callable[[], str | None] = lambda: None
        self.told_language: str | None = None
        self.questions: list[Question] = []  # the questions open now, the newest (the one asked) last

    def write(self, text: str) -> int:
        language = self.language()
        if language is not None and language != self.told_language:  # at the start, and once the player changed it
            self.told_language = language
            self._send({"type": "language", "lang": language})
        *lines, prompt = self._rename(text).split("\n")
        lines = [line for line in lines if line.strip()]
        check = self.checked() if any(line in self.verdicts for line in lines) else None
        if check is not None:
            lines = [line for line in lines if line not in self.verdicts]  # the page says its own check
        prompt = prompt.strip()
        if lines or prompt:
            self.said += lines + ([prompt] if prompt else [])
            self.pending += lines
            message: dict[str, Any] = {"type": "say", "lines": lines, "prompt": prompt or None,
                                       "text": self.text_prompt}
            if prompt:
                message["choices"] = self._choices_for(prompt)
                self.pending = []
            self._send(message)
        if check is not None:
            self._send(check)
        return len(text)

    def _choices_for(self, prompt: str) -> list[dict[str, str]]:
        """The buttons of the question now open: its options said with this prompt, or, when its prompt is
        asked again with none said (after news, a reading command, a wrong key), the ones it had.

        Only the question they were said for gets them back: a prompt of another question, or the same
        word asked by another question (``Choice?``), gets only the options said for it."""
        choices = self.choices(prompt, self.pending)
        if not self.questions:
            return choices
        open_now = self.questions[-1]
        if choices:
            open_now.prompt, open_now.choices = prompt, choices
        elif open_now.prompt is None:  # asked without its options said (a menu asked again after a change)
            open_now.prompt, open_now.choices = prompt, self.choices(prompt, open_now.listing)
            choices = open_now.choices
        elif open_now.prompt == prompt:
            choices = open_now.choices
        return choices

    @contextlib.contextmanager
    def question(self, listing: list[str]) -> Iterator[None]:
        """A question open until answered or cancelled (``console.terminal.question``); questions nest
        (a menu opened by a command at Capture?), and the one that ends gives the prompt back to the one
        it interrupted."""
        self.questions.append(Question(listing))
        try:
            yield
        finally:
            self.questions.pop()

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False


# "1, seven of cups." or "1 quick match,": a number, then its words; "1 to 9 pick a card" (the help) is a range
ITEM = re.compile(r"(?:^|(?<=[.,;] ))(\d{1,2}),? (?!to \d)([^.;]+?)(?=[.;]|, \d{1,2}[ ,]|$)")


def numbered(lines: list[str]) -> list[dict[str, str]]:
    """The numbered items of a menu or a capture question, as said ("1 quick match, ..., 2 host a new room.",
    "1, seven of cups."), each a button: the key its number is, and the item's words. Only a run numbered
    1, 2, 3 and on counts ("How many players? 2, 3 or 4." is no menu of items)."""
    found = [(int(number), words.strip()) for line in lines for number, words in ITEM.findall(line)]
    items: list[dict[str, str]] = []
    for number, words in found:
        if number == len(items) + 1 or (number == 0 and len(items) == 9):
            shown = 10 if number == 0 else number
            items.append({"key": str(number % 10), "label": f"{shown}, {words}"})
    return items


class PageInput:
    """Keys and lines from the page, read as ``console.terminal.LineInput`` reads a terminal's.

    The page sends single keys at once and typed lines on Enter; a ``Wake`` ends a read with ``WOKEN``
    (news arrived), as in line mode."""

    def __init__(self, stream: PageStream) -> None:
        self.stream = stream
        self.tokens: queue.Queue[str] = queue.Queue()

    def put(self, message: dict[str, Any]) -> None:
        """A message of the page, from the server's loop: a key or a line, or nothing for anything else."""
        kind = message.get("type")
        if kind == "key" and isinstance(message.get("key"), str):
            key = message["key"].lower()
            if key in (ENTER, ESCAPE) or SINGLE.match(key):
                self.tokens.put(key)
        elif kind == "line" and isinstance(message.get("text"), str):
            self.tokens.put("\x00line" + message["text"][:MAX_LINE].replace("\n", " "))

    def close(self) -> None:
        self.tokens.put(CLOSED)

    def question(self, listing: list[str]) -> contextlib.AbstractContextManager[None]:
        """One question open until answered: its buttons come back when its prompt is asked again."""
        return self.stream.question(listing)

    def pending(self) -> bool:
        """A key or line waiting to be read, or the page gone (a spectator reads only then)."""
        with self.tokens.mutex:
            return any(token != WOKEN for token in self.tokens.queue)

    def read(self, prompt: str, wake: Wake | None = None, urgent: Wake | None = None) -> str:
        token = self._next(prompt, wake, text=False)
        if token.startswith("\x00line"):
            return line_token(token[5:])
        return token

    def read_text(self, prompt: str, wake: Wake | None = None) -> str:
        token = self._next(prompt, wake, text=True)
        if token.startswith("\x00line"):
            return token[5:].strip()
        return "" if token == ENTER else token  # a key at a text prompt: Escape, or the key as a letter

    def _next(self, prompt: str, wake: Wake | None, text: bool) -> str:
        if wake is not None and wake.take():
            return WOKEN
        self.stream.text_prompt = text
        from ..console.terminal import write
        write(self.stream, prompt)  # type: ignore[arg-type]  # the lines held for this step go with it, in one message
        if wake is not None:
            wake.watch(lambda: self.tokens.put(WOKEN))
        try:
            while True:
                token = self.tokens.get()
                if token == CLOSED:
                    self.tokens.put(CLOSED)
                    raise InputClosed
                if token == WOKEN and (wake is None or not wake.take()):
                    continue  # a wake already taken, or one of an earlier read
                return token
        finally:
            if wake is not None:
                wake.watch(None)


class PageProgram(Program):
    """The console's program for a page: the same, but for what only a page does. The server it plays on is
    the page's (nothing to remember); a seat kept or given up, and the player's key, are told to the page;
    the table, once open, gives the page its hand as buttons; the page draws its own share of each seed."""

    def __init__(self, session: PageSession, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.page = session

    def remember_server(self, server: str) -> None:
        self.page.sync_seat()

    def table_opened(self, table: Any) -> None:
        self.page.table_opened(table)

    def share_source(self, commitment: bytes) -> bytes | None:
        return self.page.share_for(commitment)


class PageEnd(Protocol):
    """Where a session's messages go: the page, through the server process (``workers``)."""

    address: str  # the page's address, as the server counts it
    host: str     # the Host the page was loaded from

    def send(self, message: dict[str, Any]) -> None: ...
    def close(self) -> None: ...


class PageSession:
    """The console of one page, in a thread; ``run`` feeds it the page's messages until the page goes."""

    def __init__(self, link: PageEnd, server: str) -> None:
        self.link = link
        self.thread: threading.Thread | None = None
        self.folder = Path(tempfile.mkdtemp(prefix="scopa-page-"))
        self.server = server  # what the console connects to: this server on loopback, naming the page
        self.public = ""  # the server as the page names it (ws:// or wss:// and the page's host)
        self.stream = PageStream(link.send, self._rename)
        self.input = PageInput(self.stream)
        self.sent_seat: dict[str, Any] | None = None
        self.shares: queue.Queue[bytes | None] = queue.Queue()  # the page's answers to a commitment
        self.table: Any = None

    def _rename(self, text: str) -> str:
        """Lines naming the server name it as the page reaches it, never the loopback path the console uses."""
        if not self.public:
            return text
        page_form = "http" + self.server[2:]  # ws://... as the page link names it, http://... (wss: https)
        public_page = "http" + self.public[2:]
        return text.replace(self.server, self.public).replace(page_form, public_page)

    def share_for(self, commitment: bytes) -> bytes | None:
        """The page's share of a room's seed, drawn by the page once it has the server's commitment (never
        before: a server that knew a share first could choose its seed); None when the page gives none in time."""
        while not self.shares.empty():
            self.shares.get_nowait()  # an answer to an earlier question, too late
        self.link.send({"type": "commitment", "value": commitment.hex()})
        try:
            return self.shares.get(timeout=SHARE_WAIT)
        except queue.Empty:
            return None

    def _check_in_page(self) -> dict[str, Any] | None:
        """At the console's line of its shuffle check: the page is sent what it needs to check the shuffle
        itself, with the line for each verdict, and says its own. None when there is nothing to check with."""
        facts = None if self.table is None else self.table.fairness_facts()
        if facts is None:
            return None
        from ..engine import Rules
        try:
            rules = Rules.from_dict(facts["record"]["rules"])
        except Exception:  # noqa: BLE001 -- a record that does not read: the console's line stands
            return None
        m = self.program.m
        facts["deal"] = {"players": rules.players, "hand_size": rules.hand_size, "table_size": rules.table_size,
                         "kings_redeal": rules.kings_redeal}
        facts["words"] = {verdict: m(f"fairness.{verdict}") for verdict in VERDICTS}
        return {"type": "check", **facts}

    def start(self, first: dict[str, Any]) -> None:
        """The console, for the page whose first message is ``first``, in a thread of its own."""
        self.thread = threading.Thread(target=self._play, args=(first,), name="scopa-page", daemon=True)
        self.thread.start()

    def feed(self, message: dict[str, Any]) -> None:
        """A message of the page: its share of a seed, or a key or a line for the console."""
        if message.get("type") == "share":
            value = message.get("value")
            ok = isinstance(value, str) and re.fullmatch(r"[0-9a-f]{64}", value) is not None
            self.shares.put(bytes.fromhex(value) if isinstance(value, str) and ok else None)
        else:
            self.input.put(message)

    def stop(self) -> None:
        """The page went: the console's input ends (its seat stays its player's), its folder goes."""
        self.input.close()
        if self.thread is not None:
            self.thread.join(10)
        shutil.rmtree(self.folder, ignore_errors=True)

    # The console's side, in its thread ---------------------------------------------------------
    def _play(self, first: dict[str, Any]) -> None:
        try:
            program = self._program(first)
            from .menu import page_menu
            program._session(lambda: page_menu(program, self, first))
        except Exception:  # a bug must not take the server down: the page hears the end
            import logging
            logging.getLogger("scopa.web").exception("page session failed")
        finally:
            self.link.send({"type": "end"})
            self.link.close()

    def _program(self, first: dict[str, Any]) -> PageProgram:
        from ..table.persistence import Persistence
        lang = str(first["lang"]) if first.get("lang") in LANGS else "en"
        verbosity: Any = str(first["verbosity"]) if first.get("verbosity") in VERBOSITIES else "short"
        origin = first.get("origin")
        host = self.link.host
        if isinstance(origin, str) and origin.startswith(("http://", "https://")):
            scheme = "wss" if origin.startswith("https://") else "ws"
            host = origin.split("://", 1)[1].rstrip("/")
        else:
            scheme = "ws"
        self.public = f"{scheme}://{host}" if host else ""
        settings = Settings(voice=False, language=lang, verbosity=verbosity, last_server=self.server)
        self._seed_keys(first)
        program = PageProgram(self, self.input, Output(self.stream), settings, self.folder,  # type: ignore[arg-type]
                              Persistence(self.folder), speaker_factory=lambda enabled, voice: NullSpeaker(),
                              voice_override=False, lang=lang, verbosity=verbosity)
        self.program = program
        self.stream.verdicts = {program.m(f"fairness.{verdict}") for verdict in VERDICTS}
        self.stream.checked = self._check_in_page
        self.stream.choices = self._menu_choices
        self.stream.language = lambda: program.lang if program.lang in LANGS else None
        return program

    def table_opened(self, table: Any) -> None:
        """At Card?, the hand's cards are the buttons, by their full names (the seat's own view only)."""
        self.table = table
        def choices(prompt: str, lines: list[str]) -> list[dict[str, str]]:
            narrator = self.program.narrator
            if narrator is None or prompt != self.program.m("prompt.card") or not table.has_view():
                return self._menu_choices(prompt, lines)
            hand = table.view(table.seat).hand
            return [{"key": str((i + 1) % 10) if len(hand) >= 10 and i == 9 else str(i + 1),
                     "label": f"{i + 1}, {narrator.cards.name(card)}"} for i, card in enumerate(hand)]
        self.stream.choices = choices

    def _menu_choices(self, prompt: str, lines: list[str]) -> list[dict[str, str]]:
        """Buttons for a menu's or the capture question's numbered items; none at other prompts."""
        m = self.program.m
        return numbered(lines) if prompt in (m("prompt.menu"), m("prompt.capture")) else []

    def _seed_keys(self, first: dict[str, Any]) -> None:
        """The seat and player keys the page kept, written where the console looks for them."""
        from ..net.protocol.codes import normalise_code
        from ..storage.player_key import PlayerKeyStore, is_key
        from ..storage.seat_keys import SeatKey, SeatKeyStore
        seat = first.get("seat")
        if isinstance(seat, dict) and isinstance(seat.get("key"), str) and isinstance(seat.get("code"), str):
            code = normalise_code(seat["code"])
            number = seat.get("seat")
            if code is not None and isinstance(number, int) and 0 <= number < 4 and len(seat["key"]) < 100:
                name = str(seat["name"]) if isinstance(seat.get("name"), str) else ""
                nonce = seat.get("nonce")  # the page's secret of its share, kept with the key
                kept = nonce if isinstance(nonce, str) and re.fullmatch(r"[0-9a-f]{64}", nonce) else ""
                SeatKeyStore(self.folder).save(SeatKey(self.server, code, seat["key"], number, name[:40], share=kept))
        key = first.get("player_key")
        if isinstance(key, str) and is_key(key):
            store = PlayerKeyStore(self.folder)
            with contextlib.suppress(OSError):
                store.path.parent.mkdir(parents=True, exist_ok=True)
                store.path.write_text(key, encoding="utf-8")

    def sync_seat(self) -> None:
        """Tell the page the seat to keep (or that there is none now), and the player's key."""
        from ..storage.player_key import PlayerKeyStore
        from ..storage.seat_keys import SeatKeyStore
        newest = SeatKeyStore(self.folder).newest()
        seat = None if newest is None else {"code": newest.code, "key": newest.key, "seat": newest.seat,
                                             "name": newest.name}
        if seat != self.sent_seat:
            self.sent_seat = seat
            self.link.send({"type": "seat", "seat": seat})
        key = PlayerKeyStore(self.folder).load()
        if key is not None:
            self.link.send({"type": "player_key", "key": key})

    @contextlib.contextmanager
    def kept(self) -> Iterator[None]:
        try:
            yield
        finally:
            self.sync_seat()
