"""The program: first start, main menu, new match set-up, settings, and running matches."""
from __future__ import annotations

import functools
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ..config import Settings, save_settings
from ..engine import ALL_OPTIONS, CIRULLA_TARGET, Event, PlayerView, Rules, Variant
from ..match import SeatSetup, clean_name
from ..narration import Announcement, Messages, Naming, Narrator, Verbosity, os_problem, system_language
from ..narration.news import News
from ..players.expert import DEFAULT_BUDGET
from ..speech import Speaker, VoiceSettings, create_speaker
from ..storage import SavedMatch
from ..storage.transcripts import Transcript
from ..table import LocalTable, SaveHooks, TableInfo, computers_for, fresh_seed, held_record, start_match
from ..table.persistence import Persistence
from .card_symbols import CardNotation, CardSymbolsOutput, card_notation
from .game import MatchConsole, ReplaceMatch, Services
from .keys import YES
from .menus import choose
from .settings_menu import cycle_profile, run_settings_menu
from .sounding import Sounding, SoundingAnnouncer
from .terminal import ENTER, ESCAPE, Input, InputClosed, Interrupted, Output

if TYPE_CHECKING:
    from .online import OnlineRequest

LEVELS = ("beginner", "easy", "medium", "hard", "expert")
REASON_KEYS = {"REASON_NO_PYTTSX3": "no_pyttsx3", "REASON_NO_ESPEAK": "no_espeak",
               "REASON_ENGINE_FAILED": "engine_failed", "REASON_NO_PLAYER": "no_player",
               "REASON_NO_DEVICE": "no_device"}  # scopa.speech's reasons -> catalogue keys
OPTION_NAMES = ALL_OPTIONS


@dataclass
class MatchRequest:
    """A new match fully described by command-line flags (skips the set-up questions)."""

    rules: Rules
    seats: tuple[SeatSetup, ...]
    seed: int | bytes | None = None  # a short seed (shuffle 1) or 32 bytes (shuffle 2); None: a fresh one


@dataclass(frozen=True)
class Extras:
    """What the floors above the console give the program, which imports none of them.

    ``scopa.lessons.console.extras()`` makes the real ones (``__main__`` passes them in); a
    program without them says the lessons are not available and offers no rules reader or tips.
    ``lessons_menu(program)``: the Lessons menu (``None`` to go back to the main menu);
    ``run_lesson(program, n)``: ``scopa --lesson N``, its exit code; ``rules_reader(program)``:
    the rules, section by section; ``tip_source(view, rules, narrator)``: the beginner's tip for
    a turn, or ``None`` (asked only at beginner and easy tables)."""

    lessons_menu: Callable[[Program], int | None] | None = None
    run_lesson: Callable[[Program, int], int] | None = None
    rules_reader: Callable[[Program], None] | None = None
    tip_source: Callable[[PlayerView, Rules, Narrator], Announcement | None] | None = None


class Program:
    """Owns the terminal, the voice, the settings and the saves for one run of scopa."""

    def __init__(self, input: Input, output: Output, settings: Settings, config_dir: Path,  # noqa: A002
                 persistence: Persistence, speaker_factory: Callable[[bool, VoiceSettings], Speaker] | None = None,
                 voice_override: bool | None = None, lang: str | None = None, naming: Naming | None = None,
                 verbosity: str | None = None, budget: float | None = None, extras: Extras | None = None) -> None:
        self.input = input
        self.extras = extras or Extras()
        self.output = CardSymbolsOutput(output, self._card_notation)
        self.settings = settings
        self.config_dir = config_dir
        self.persistence = persistence
        persistence.messages = lambda: self.messages
        persistence.naming = lambda: self.naming
        self.speaker_factory = speaker_factory or create_speaker
        self.voice_override = voice_override
        self.lang = lang or settings.language or system_language()
        self.naming: Naming = naming or settings.card_names
        self.verbosity: Verbosity = settings.words if verbosity is None else settings.with_profile(
            verbosity).words  # the words: short or full
        self.budget = DEFAULT_BUDGET if budget is None else budget
        self._budget_unused_said = budget is None  # --budget given: say once if no expert is there to use it
        self.messages = Messages(self.lang)
        self.speaker: Speaker = self.speaker_factory(False, VoiceSettings())
        self._voice_on = False
        self._language_voice: str | None = None  # the voice picked for the language, if any
        self.announcer = SoundingAnnouncer(self.output, self.speaker, self._sounding)
        self.narrator: Narrator | None = None
        self._earned: list[str] = []  # achievements of the match just finished, said after it
        self._at_table = False  # a match's table is open (its deals are told as they end)
        self._sound_folder: Path | None = None
        self._opening_line = ""  # a new match's summary, the first line of its transcript

    def news(self) -> News:
        """The kinds of news told unasked, from the settings; the words follow this run's verbosity."""
        return self.settings.news

    def screen_reader_mode(self) -> bool:
        """The player listens with a screen reader: the game voice was chosen off (at the first
        start, with --no-voice or with the voice key). Nothing for the eyes alone is shown then."""
        return not self._voice_on

    def _card_notation(self) -> CardNotation | None:
        """Card symbols for the table and the hand, when chosen and not in screen-reader mode."""
        if not self.settings.card_symbols or self.screen_reader_mode():
            return None
        return card_notation(self.lang, self.naming)

    # Earcons ---------------------------------------------------------------------
    def _sounding(self) -> Sounding | None:
        """The earcon settings the announcer follows; None while earcons are off."""
        if not self.settings.earcons:
            return None
        from ..narration.cues import line_cues
        return Sounding(line_cues(self.lang, self.naming), self.settings.sounds_replace_words, self._earcon_file)

    def _earcon_file(self, name: str) -> Path | None:
        """The earcon's WAV at the voice's volume, made at first use in the data folder (else a
        temporary one); None when no folder can be written: the words are then all there is."""
        import tempfile

        from ..speech.earcons import earcon_file
        from ..storage.files import resolve_data_dir
        folders = [self._sound_folder] if self._sound_folder else [
            resolve_data_dir(self.persistence.data_dir) / "sounds", Path(tempfile.gettempdir()) / "scopa-sounds"]
        for folder in folders:
            try:
                path = earcon_file(name, folder, self.settings.volume)
            except OSError:
                continue
            self._sound_folder = folder
            return path
        return None

    # Voice ---------------------------------------------------------------------
    def m(self, key: str, **params: object) -> str:
        return self.messages(key, **params)

    def say(self, *lines: str | Announcement) -> None:
        self.announcer.say(list(lines))

    def start_voice(self) -> None:
        """Ask the first-start question if needed, then switch the voice on or off."""
        wanted = self.voice_override
        if wanted is None:
            if self.settings.voice is None:
                wanted = self._first_start_question()
                self.settings = self.settings.with_changes(voice=wanted)
                self._save_settings(quiet=True)
            else:
                wanted = self.settings.voice
        self.set_voice(wanted)
        if self.voice_is_on():
            note = self.match_voice_to_language()
            if note:
                self.say(note)

    def _first_start_question(self) -> bool:
        self.say(self.m("app.first_start"))
        while True:
            token = self.input.read(self.m("prompt.menu") + " ")
            if token in {"1", "2"}:
                return token == "2"
            self.say(self.m("app.first_start.choices"))

    def set_voice(self, on: bool) -> str:
        self.speaker.close()
        voice = VoiceSettings(self.settings.voice_id, self.settings.rate, self.settings.volume)
        self.speaker = self.speaker_factory(on, voice)
        self.announcer.speaker = self.speaker
        self._voice_on = on
        if on and not getattr(self.speaker, "available", True):
            return self.voice_reason(self.speaker.unavailable_reason)
        return self.m("voice.on" if on else "voice.off")

    def voice_reason(self, reason: str | None) -> str:
        """Why the voice cannot speak, in the player's language (the speech module says it in English)."""
        known: ModuleType | None
        try:
            from ..speech import pyttsx_speaker as known
        except ImportError:
            known = None
        for name, key in REASON_KEYS.items():
            if known is not None and reason == getattr(known, name, None):
                return self.m(f"voice.unavailable.{key}")
        return reason or self.m("voice.unavailable")

    def match_voice_to_language(self) -> str | None:
        """Speak with a voice of the game's language; one line to say when none is installed."""
        from ..narration import voice_for_language
        try:
            voices = self.speaker.voices()
        except Exception:  # noqa: BLE001 - a broken voice list never stops the game
            return None
        voice, note = voice_for_language(voices, self.lang, self.messages, preferred=self.settings.voice_id)
        self._language_voice = voice.id if voice is not None else None
        if voice is not None:
            self.apply_voice_settings()
        return note

    def apply_voice_settings(self) -> None:
        """Rate, volume and voice from the settings, from the next utterance on."""
        voice_id = self.settings.voice_id or self._language_voice
        self.speaker.configure(VoiceSettings(voice_id, self.settings.rate, self.settings.volume))

    def toggle_voice(self) -> str:
        message = self.set_voice(not self.voice_is_on())
        # Saved as the menu shows it: asked for but unavailable (no sound device) is off, so that
        # the same key can still turn the setting off again.
        self.settings = self.settings.with_changes(voice=self.voice_is_on())
        self._save_settings(quiet=True)
        note = self.match_voice_to_language() if self.voice_is_on() else None
        return f"{message} {note}" if note else message

    def voice_is_on(self) -> bool:
        return self._voice_on and getattr(self.speaker, "available", True)

    def _save_settings(self, quiet: bool = False) -> None:
        problem = save_settings(self.settings, self.config_dir)
        if problem is not None:
            self.say(self.m("settings.not_saved", problem=os_problem(problem, self.m)))
        elif not quiet:
            self.say(self.m("settings.saved"))

    # Running ---------------------------------------------------------------------
    def run(self, request: MatchRequest | None = None, resume: bool = False,
            imported: object | None = None) -> int:
        """Start a new match (``request``), an imported one, the most recent saved match
        (``resume``), or the main menu; then the main menu until the player quits."""
        return self._session(lambda: self._start(request, resume, imported))

    def run_online(self, request: OnlineRequest) -> int:
        """``scopa host`` or ``scopa join``: the room instead of the menu."""
        from .finding import open_tables
        if request.mode == "watch":
            from .watch import watch_room
            return self._session(lambda: watch_room(self, request))
        from .online import play_online
        if request.mode == "tables":  # the list first; a room chosen in it is joined by its code
            return self._session(lambda: open_tables(self, request))
        if request.mode == "daily":  # the day's deals one after the other, then the day's board
            from .daily import play_daily
            return self._session(lambda: play_daily(self, request))
        return self._session(lambda: play_online(self, request))

    def _session(self, action: Callable[[], int]) -> int:
        """The voice, then ``action``; the input ending or Ctrl-C outside a prompt end it with a line."""
        try:
            self.start_voice()
            reason = getattr(self.speaker, "unavailable_reason", None)
            if reason:
                self.say(self.voice_reason(reason))
            return action()
        except InputClosed:  # outside a match: a match in play says itself that it was saved
            self.say(self.m("app.input_ended"))
            return 0
        except (Interrupted, KeyboardInterrupt):
            self.say(self.m("app.interrupted"))
            return 130
        finally:
            self.persistence.close()
            self.announcer.close()
            self.speaker.close()
            self.input.close()

    def _start(self, request: MatchRequest | None, resume: bool, imported: object | None) -> int:
        if request is not None:
            return self._play_new(request) or 0
        if imported is not None:
            return self._play_imported(imported) or 0
        if resume:
            saved, problem = self.persistence.latest()
            self._say_notices()
            if saved is not None:
                return self._resume(saved) or 0
            if problem is not None:
                self.say(problem)
        return self.main_menu()

    def share_source(self, commitment: bytes) -> bytes | None:
        """This seat's share of a room's seed, once its commitment is heard: None, the client draws it
        (a browser page's program gives the page's own, ``scopa.web``)."""
        return None

    def table_opened(self, table: object) -> None:
        """A room's table, once open (a browser page's program shows the hand from it as buttons)."""

    def remember_server(self, server: str) -> None:
        """The server "Play online" offers next time (saved quietly; a failure is said)."""
        if self.settings.last_server != server:
            self.settings = self.settings.with_changes(last_server=server)
            self._save_settings(quiet=True)

    def _online_actions(self) -> list[tuple[str, Callable[[], int | None]]]:
        """"Play online", and "Resume online match" when a seat key is kept."""
        from .online import has_seat_to_resume, online_menu, resume_online
        actions: list[tuple[str, Callable[[], int | None]]] = []
        if has_seat_to_resume(self):
            actions.append((self.m("app.menu.resume_online"), lambda: resume_online(self)))
        from .finding import menu_extras, quick_menu
        actions.append((self.m("app.menu.online"), lambda: online_menu(self, menu_extras(self.messages))))
        actions.append((self.m("app.menu.quick"), lambda: quick_menu(self)))
        return actions

    def _say_notices(self) -> None:
        """Say what was set aside, and where it is kept, since it was last said."""
        self.say(*self.persistence.notices())  # one write

    def main_menu(self) -> int:
        while True:
            saves = self.persistence.saved_matches()
            self._say_notices()
            actions: list[tuple[str, Callable[[], int | None]]] = [
                (self.m("app.menu.resume_item", item=self.persistence.describe(saved)),
                 functools.partial(self._resume, saved)) for saved in saves]
            actions.append((self.m("app.menu.new"), self._new_match_questions))
            if saves:
                actions.append((self.m("app.menu.delete"), functools.partial(self._delete_menu, saves)))
            if self.persistence.latest_transcript() is not None:
                actions.append((self.m("app.menu.transcript"), self._read_transcript))
            actions += [(self.m("app.menu.lessons"), self._lessons),
                        (self.m("app.menu.settings"), self.settings_menu)]
            if self._has_results():  # Statistics and Review once a match is logged
                actions += [(self.m("app.menu.statistics"), self._statistics),
                            (self.m("app.menu.review"), self._review)]
            actions += self._online_actions()
            actions.append((self.m("app.menu.quit"), lambda: 0))
            index = choose(self.input, self.announcer, self.m("app.menu.title"), [a[0] for a in actions],
                           self.m("prompt.menu"), default=0, invalid=self.m("app.invalid"), messages=self.messages)
            if index is None and not self._quit_confirmed():
                continue  # Escape asks first: a second Escape in a submenu must not leave the game
            result = 0 if index is None else actions[index][1]()
            if result is not None:  # an exit code: leave the program
                self.say(self.m("app.bye"))
                return result

    def _resume(self, saved: SavedMatch) -> int | None:
        """Play a saved match, unless another copy of the game has it open."""
        self.announcer.forget(stop_voice=False)
        record, problem = self.persistence.open(saved)
        if record is None:
            if problem is not None:
                self.say(problem)
            return None
        return self._play(record, None)

    def _quit_confirmed(self) -> bool:
        """Escape in the main menu: Enter (or Y) quits, anything else goes back to the menu."""
        self.say(self.m("app.quit_ask"))
        token = self.input.read(self.m("prompt.quit") + " ")
        return token == ENTER or token.lower() in YES

    def _delete_menu(self, saves: Sequence[SavedMatch]) -> None:
        """Pick a saved match to delete, then confirm; Escape at either step keeps it."""
        items = [self.persistence.describe(saved) for saved in saves]
        index = choose(self.input, self.announcer, self.m("saves.delete_title"), items, self.m("prompt.menu"),
                       default=0, messages=self.messages)
        if index is None:
            return
        self.say(self.m("saves.delete_ask", item=items[index]))
        token = self.input.read(self.m("prompt.delete") + " ")
        if token == ENTER or token.lower() in YES:
            self.say(self.persistence.delete(saves[index]))
        else:
            self.say(self.m("saves.kept"))
        return

    def _read_transcript(self) -> None:
        """The last match's transcript, a page at a time (``console.pager``)."""
        from ..storage import SaveFileError
        from ..storage.files import read_text_file
        from .pager import read_pages
        path = self.persistence.latest_transcript()
        if path is None:
            self.say(self.m("transcript.none"))
            return
        try:
            lines = [line for line in read_text_file(path).splitlines() if line.strip()]
        except SaveFileError as error:
            self.say(self.m("transcript.unreadable", problem=error.reason_in(self.messages).rstrip(".")))
            return
        read_pages(self.input, self.announcer, self.messages, self.m("transcript.title", count=len(lines)), lines)

    def _lessons(self) -> int | None:
        return self.lessons_menu()

    # The lessons' entry points (Extras) --------------------------------------------------
    def lessons_menu(self) -> int | None:
        """The Lessons menu; ``None`` to go back to the main menu."""
        menu = self.extras.lessons_menu
        if menu is None:
            self.say(self.m("lessons.unavailable"))
            return None
        return menu(self)

    def run_lesson(self, number: int) -> int:
        """``scopa --lesson N``: its exit code (2 when there are no lessons here)."""
        run = self.extras.run_lesson
        return 2 if run is None else run(self, number)

    @property
    def rules_reader(self) -> Callable[[], None] | None:
        """The rules reader for this program (the ``rules`` key), or ``None`` without the lessons."""
        reader = self.extras.rules_reader
        return None if reader is None else functools.partial(reader, self)

    def _has_results(self) -> bool:
        from ..storage import SaveFileError, iter_results
        try:
            return next(iter_results(self.persistence.data_dir), None) is not None  # reads the first entry only
        except (SaveFileError, OSError):
            return True  # Statistics says why the log cannot be read

    def _statistics(self) -> None:
        from ..record.console import statistics
        statistics(self)

    def _review(self) -> None:
        from ..record.console import review_menu
        review_menu(self)

    # New match ----------------------------------------------------------------------
    def _new_match_questions(self) -> int | None:
        players = self._ask_players()
        if players is None:
            return None
        rules = self._ask_game(players)
        if rules is None:
            return None
        seats = self._ask_seats(players)
        if seats is None:
            return None
        to_target = self._ask_target(rules)
        if to_target is None:
            return None
        chosen = self._ask_options(to_target)
        if chosen is None:
            return None
        return self._play_new(MatchRequest(chosen, seats))

    def _ask_game(self, players: int) -> Rules | None:
        """Which game: scopa, scopa a 15 and cirulla for any number, the scopone too for four
        (Variant's order kept). None on Escape."""
        games = [v for v in Variant if players == 4 or v in (Variant.SCOPA, Variant.SCOPA_15, Variant.CIRULLA)]
        variant = choose(self.input, self.announcer, self.m("setup.variant"),
                         [self.m(f"setup.variant.{v.value}") for v in games], self.m("prompt.menu"), 0,
                         messages=self.messages)
        return None if variant is None else Rules.for_variant(games[variant], players=players)

    def _ask_players(self) -> int | None:
        self.say(self.m("setup.players"))
        while True:
            token = self.input.read(self.m("prompt.menu") + " ")
            if token == ENTER:
                return 2
            if token == ESCAPE:
                return None
            if token in {"2", "3", "4"}:
                return int(token)
            self.say(self.m("setup.players.invalid"))

    def _ask_seats(self, players: int) -> tuple[SeatSetup, ...] | None:
        choices = [self.m(f"level.{level}.about") for level in LEVELS] + [self.m("setup.human")]
        kinds: list[str] = ["human"]
        for seat in range(1, players):
            role = "setup.role.partner" if players == 4 and seat == 2 else (
                "setup.role.opponent" if players == 2 else "setup.role.other")
            title = self.m("setup.seat", seat=seat + 1, role=self.m(role), default=self.m("level.easy"))
            index = choose(self.input, self.announcer, title, choices, self.m("prompt.menu"), default=1,
                           messages=self.messages)
            if index is None:
                return None
            kinds.append("human" if index == len(LEVELS) else LEVELS[index])
        humans = [i for i, k in enumerate(kinds) if k == "human"]
        names = self._ask_names(humans) if len(humans) > 1 else {humans[0]: self.m("seat.you")}
        return build_seats(kinds, names, seed=int.from_bytes(os.urandom(4), "big"))  # names vary per match

    def _ask_names(self, humans: Sequence[int]) -> dict[int, str]:
        names = {}
        for seat in humans:
            default = self.m("seat.player", n=seat + 1)
            text = self.input.read_text(self.m("setup.name", seat=seat + 1, default=default) + " ")
            names[seat] = (clean_name(text) if text != ESCAPE else "") or default
        return names

    def _ask_target(self, rules: Rules) -> Rules | None:
        targets: list[int | None] = [CIRULLA_TARGET, None] if rules.variant is Variant.CIRULLA else [11, 16, 21, None]
        labels = [self.m("setup.target.points", n=t) if t else self.m("setup.target.single") for t in targets]
        default = targets.index(rules.target)
        title = self.m("setup.target", default=labels[default])
        index = choose(self.input, self.announcer, title, labels, self.m("prompt.menu"), default=default,
                       messages=self.messages)
        if index is None:
            return None
        target = targets[index]
        return replace(rules, target=target, win_by_two=rules.win_by_two and target is not None)

    def _ask_options(self, rules: Rules) -> Rules | None:
        while True:
            names = rules.available_options()
            labels = [self.m("setup.option.on" if getattr(rules, name) else "setup.option.off",
                             name=self.m(f"option.{name}")) for name in names]
            index = choose(self.input, self.announcer, self.m("setup.options"), labels, self.m("prompt.menu"),
                           default=-1, messages=self.messages)
            if index is None:
                return None
            if index == -1:
                return rules
            name = names[index]
            flipped: dict[str, Any] = {name: not getattr(rules, name)}
            rules = replace(rules, **flipped)

    def _play_new(self, request: MatchRequest) -> int | None:
        seed = request.seed if request.seed is not None else fresh_seed()  # 256 bits: nothing to guess
        record, events = start_match(request.rules, request.seats, seed)
        self.announcer.forget(stop_voice=False)  # Repeat steps back to the match's start, not into the menus
        problem = self._save_beside(record)
        self._opening_line = self._summary(request.rules, request.seats)
        self.say(self._opening_line)
        if problem:
            self.say(problem)
        return self._play(record, events)

    def _play_imported(self, record: object) -> int | None:
        """``scopa --import FILE``: the imported match is saved beside the others and played."""
        self.announcer.forget(stop_voice=False)
        problem = self._save_beside(record)
        if problem:
            self.say(problem)
        return self._play(record, None)

    def _save_beside(self, record: object) -> str | None:
        """Save a new or imported match beside the others, never over one, and say anything set
        aside on the way; the line saying why it could not be saved, if it could not."""
        problem = self.persistence.start_new(held_record(record))
        self._say_notices()
        return problem

    def _summary(self, rules: Rules, seats: Sequence[SeatSetup]) -> str:
        """Who plays with whom, the computers' levels, the target and the options, in a few sentences."""
        names = [s.name for s in seats]
        if len(seats) == 2:
            players = self.m("setup.players.two", a=names[0], b=names[1])
        elif len(seats) == 3:
            players = self.m("setup.players.three", a=names[0], b=names[1], c=names[2])
        else:  # partners sit opposite: seats 1 and 3 against 2 and 4
            players = self.m("setup.players.four", a=names[0], b=names[2], c=names[1], d=names[3])
        options = self._options_summary(rules)
        target = self.m("setup.single") if rules.target is None else self.m("setup.playing_to", target=rules.target)
        game = self.m(f"setup.game.{rules.variant.value}") if rules.fifteen else ""
        parts = [self.m("setup.new"), game, players, self._levels(seats), target, options]
        return " ".join(part for part in parts if part)

    def _options_summary(self, rules: Rules) -> str:
        """The options that differ from the game's own defaults: those added, then those left out
        (a default Cirulla is "Standard rules.", not a list of what Cirulla always has)."""
        usual = Rules.for_variant(rules.variant, players=rules.players)
        changed = [n for n in OPTION_NAMES if n != "kings_redeal" and getattr(rules, n) != getattr(usual, n)]
        added = [self.m(f"option.{n}") for n in changed if getattr(rules, n)]
        dropped = [self.m(f"option.{n}") for n in changed if not getattr(rules, n)]
        sep = self.m("list.sep")
        parts = ([self.m("setup.summary.options", names=sep.join(added))] if added else []) + (
            [self.m("setup.summary.without", names=sep.join(dropped))] if dropped else [])
        return " ".join(parts) or self.m("setup.summary.standard")

    def _levels(self, seats: Sequence[SeatSetup]) -> str:
        computers = [s for s in seats if not s.is_human]
        if not computers:
            return ""
        levels = {s.level for s in computers}
        if len(computers) == 1:
            return self.m("setup.level.one", name=computers[0].name, level=self.m(f"level.{computers[0].level}"))
        if len(levels) == 1:
            return self.m("setup.levels.same", level=self.m(f"level.{computers[0].level}"))
        items = [self.m("setup.level.item", name=s.name, level=self.m(f"level.{s.level}")) for s in computers]
        return self.m("setup.levels.each", list=self.m("list.sep").join(items))

    def _play(self, record: object, events: Sequence[Event] | None) -> int | None:
        """Play a match record (new, resumed or imported) at a local table; None when it finished
        (back to the menu), 0 when the player quit. The program hands records on to their table
        unopened: only the table reads them."""
        while True:
            self._at_table = False  # a match over already (an import) is logged as its table opens
            table = self._local_table(record, events or ())
            self._say_if_budget_unused(table.info())
            self._at_table = True
            transcript = self.persistence.transcript()
            if transcript is not None and self._opening_line:
                transcript.write(self._opening_line)
            self._opening_line = ""
            console = MatchConsole(table, self._services(table, transcript))
            try:
                outcome = console.run()
            except ReplaceMatch as replacement:  # the match left is kept, saved as it was
                table.close()
                if transcript is not None:
                    transcript.close()
                record, events = replacement.replacement, None
                problem = self._save_beside(record)
                if problem:  # said here: the autosaves that follow repeat only a new problem
                    self.say(problem)
                continue
            table.close()  # a match left unfinished stays saved, and free for another copy to open
            if transcript is not None:
                transcript.close()
            self.narrator = None  # no match is running: the rules reader describes the defaults again
            self.say(*self._earned)  # after the match's last lines, never before them; one write
            self._earned = []
            return None if outcome == "finished" else 0

    def _say_if_budget_unused(self, info: TableInfo) -> None:
        """``--budget`` for a match with no expert (one resumed, imported or set up in the menu;
        a new match from the flags refuses it at once): said once, not ignored without a word."""
        if not self._budget_unused_said and not any(seat.level == "expert" for seat in info.seats):
            self._budget_unused_said = True
            self.say(Announcement(self.m("budget.unused"), spoken=self.m("budget.unused.spoken")))

    def _local_table(self, record: object, opening: Sequence[Event]) -> LocalTable:
        """The table of a match played here: its computers, and saves through the program's persistence."""
        saves = SaveHooks(save=self.persistence.save, autosave=self.persistence.autosave,
                          finish=self._finish, release=self.persistence.close)
        match = held_record(record)
        return LocalTable(match, computers_for(match, self.budget), saves, opening)

    def _finish(self, record: object) -> None:
        """The table's match is over: log it, and keep what it earned to say once the match is told."""
        from ..record.console import log_finished
        self._earned = log_finished(self, held_record(record), played_here=self._at_table)

    def _deal_earned(self, table: LocalTable, deal_number: int) -> list[str]:
        """What the deal just ended earned (the match's own achievements wait for its end)."""
        from ..record.console import deal_achievements
        return deal_achievements(self, table.record, deal_number)

    def _services(self, table: LocalTable, transcript: Transcript | None = None) -> Services:
        info = table.info()
        here = table.seats_here()
        you = here[0] if len(here) == 1 else None
        narrator = Narrator([s.name for s in info.seats], info.rules, you, self.lang, self.naming, self.verbosity,
                            self.news())
        self.narrator = narrator  # the settings menu updates it in place
        self.announcer.speak_hands = False
        return Services(self.input, self.output, self.announcer, narrator,
                        export=lambda path: self.persistence.export(table.record, path),
                        export_refusal=self.persistence.export_refusal,
                        import_match=self.persistence.import_match, keep_import=self.persistence.keep,
                        older_save_kept=self.persistence.older_save_kept, settings_menu=self.settings_menu,
                        rules_reader=self.rules_reader, toggle_voice=self.toggle_voice,
                        suggest=narrator.suggestion, hand_warning_needed=self.voice_is_on,
                        tips=self._tips(info, narrator), tips_offer=self._tips_offer(info),
                        deal_earned=lambda deal: self._deal_earned(table, deal),
                        cycle_profile=self.cycle_profile,
                        transcript=transcript.write if transcript is not None else None,
                        transcript_hands=lambda: self.settings.transcript_hands)

    def _tips(self, info: TableInfo, narrator: Narrator) -> Callable[[PlayerView], Announcement | None] | None:
        """Position tips for tables where every computer is a beginner or easy player, while the
        settings have them on (asked at each turn: the setting may change during the match).

        The tips come from ``extras.tip_source``, which the lessons give the program (the console
        does not import the lessons, which build on it)."""
        source = self.extras.tip_source
        if source is None or not _tip_table(info):
            return None
        return lambda view: source(view, info.rules, narrator) if self.settings.tips else None

    def _tips_offer(self, info: TableInfo) -> Callable[[], Announcement | None]:
        """Tips are off until the player turns them on: a tip marks its deal assisted, and a
        deal must not count as helped when the player never asked for help. The first turn of
        the first beginner or easy match says once how to turn them on (remembered in the
        settings), instead of a question before the match can start."""
        def offer() -> Announcement | None:
            if self.settings.tips_offered or self.extras.tip_source is None or not _tip_table(info):
                return None
            self.settings = self.settings.with_changes(tips_offered=True)
            self._save_settings(quiet=True)
            return Announcement(self.m("tips.offer"))
        return offer

    # Settings ---------------------------------------------------------------------------
    def settings_menu(self) -> None:
        run_settings_menu(self)

    def cycle_profile(self) -> str:
        """The A key: the next announcements profile, saved at once; the line that says which is on."""
        line = cycle_profile(self)
        self._save_settings(quiet=True)
        return line


def _tip_table(info: TableInfo) -> bool:
    """Every computer at the table is a beginner or easy player (and there is one)."""
    levels = {seat.level for seat in info.seats if not seat.is_human}
    return bool(levels) and levels <= {"beginner", "easy"}


def build_seats(kinds: Sequence[str], names: dict[int, str], seed: int) -> tuple[SeatSetup, ...]:
    """Seats from kinds ("human" or a level) with human names given and computer names drawn."""
    from ..players import computer_names
    computers = [i for i, k in enumerate(kinds) if k != "human"]
    drawn = computer_names(len(computers), seed)
    seats = []
    for seat, kind in enumerate(kinds):
        if kind == "human":
            seats.append(SeatSetup(names[seat], "human", None))
        else:
            seats.append(SeatSetup(drawn[computers.index(seat)], "computer", kind))
    return tuple(seats)
