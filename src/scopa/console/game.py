"""Playing one match at the terminal: turns, commands and the gate (choosing a move: ``choosing``).

Data flows one way: a key becomes a command or a move, the move goes to the engine
through ``MatchRecord.play``, and the events come back as announcements.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Literal

from ..engine import Card, CardPlayed, CardsDealt, Event, MatchWon, Move, PlayerView
from ..match import MatchRecord
from ..narration import Announcement, Narrator
from ..players.knowledge import round_start
from ..storage import user_path
from .announcer import Announcer, ask_hands_aloud
from .choosing import MoveChooser
from .keys import YES, command_of
from .terminal import ENTER, ESCAPE, Input, InputClosed, Interrupted, Output

Outcome = Literal["finished", "quit"]


@dataclass
class Services:
    """What the match loop needs from the program around it (all optional but the first four)."""

    input: Input
    output: Output
    announcer: Announcer
    narrator: Narrator
    save: Callable[[MatchRecord], str | None] = lambda record: None  # now; the problem or None
    autosave: Callable[[MatchRecord], str | None] = lambda record: None  # after a turn; a line to say or None
    export: Callable[[MatchRecord, str], str] | None = None
    export_refusal: Callable[[str], str | None] = lambda path: None  # a folder, pipe or device: why not
    import_match: Callable[[str], tuple[MatchRecord | None, str]] | None = None
    keep_import: Callable[[MatchRecord], str] | None = None  # an import saved beside the others, not played
    older_save_kept: Callable[[], bool] = lambda: False  # after a failed save: is the last one still there?
    settings_menu: Callable[[], None] | None = None
    rules_reader: Callable[[], None] | None = None
    toggle_voice: Callable[[], str] | None = None
    suggest: Callable[[PlayerView], tuple[Move, Announcement]] | None = None  # the reason is private
    hand_warning_needed: Callable[[], bool] = lambda: False
    tips: Callable[[PlayerView], Announcement | None] | None = None  # beginner and easy tables; private


class QuitMatch(Exception):
    """The player chose to quit; ``saved`` says whether the match was saved first."""

    def __init__(self, saved: bool = True) -> None:
        super().__init__()
        self.saved = saved


class ReplaceMatch(Exception):
    """The player switches to an imported match; this one stays saved as it was."""

    def __init__(self, record: MatchRecord) -> None:
        super().__init__()
        self.record = record


class MatchConsole:
    """Runs a match from its current position to its end, or until the player quits."""

    def __init__(self, record: MatchRecord, services: Services, players: dict[int, object]) -> None:
        self.record = record
        self.io = services
        self.players = players  # seat -> computer player with choose_move(view)
        self.open_seat: int | None = None
        self._table_heard: tuple[Card, ...] | None = None  # a table announced with the deal
        self.hand_aloud_asked = False
        self._hand_heard: tuple[Card, ...] | None = None  # the hand read at the last turn (one human)
        self._cleared_at = (0, 0)  # (deal, plays) when pass-and-play last cleared the screen
        services.announcer.open_seat = lambda: self.open_seat
        humans = record.human_seats
        self.pass_and_play = len(humans) > 1
        if len(humans) == 1:
            self.open_seat = humans[0]  # one human: the hand is always theirs to see

    # Helpers ---------------------------------------------------------------
    @property
    def m(self):
        return self.io.narrator.messages

    def say(self, *items: Announcement | str) -> None:
        self.io.announcer.say(list(items))

    def say_lines(self, lines: list[Announcement]) -> None:
        self.io.announcer.say(lines)

    def read(self, prompt_key: str) -> str:
        """One key or typed command; Ctrl-C offers to save and quit, then asks again."""
        while True:
            try:
                return self.io.input.read(self.m(prompt_key) + " ")
            except Interrupted:
                self._ask_quit()

    @property
    def state(self):
        return self.record.state

    def _autosave(self) -> None:
        line = self.io.autosave(self.record)
        if line:
            self.say(line)

    # The match ---------------------------------------------------------------
    def run(self, opening: list[Event] | None = None) -> Outcome:
        """Play until the match ends. ``opening`` are the events of the deal just dealt."""
        try:
            self.io.announcer.acted()  # Repeat starts from this match
            if opening:
                self._say_events(opening)
            else:
                self._say_resumed()
            while not self.state.is_match_over:
                self._step()
            self._autosave()
            return "finished"
        except QuitMatch as leaving:  # _ask_quit has saved, or tried to
            unsaved = "quit.unsaved_older" if self.io.older_save_kept() else "quit.unsaved"
            self._leave("quit.saved" if leaving.saved else unsaved)
            return "quit"
        except InputClosed:
            problem = self.io.save(self.record)
            self._leave("app.input_closed" if problem is None else "app.input_closed_unsaved")
            return "quit"
        except ReplaceMatch:
            if self.pass_and_play and self.open_seat is not None:
                self._hide()  # the imported match starts with every hand closed
            raise

    def _say_resumed(self) -> None:
        """A resumed match: the deal, who is playing and the score; then the table, which the first
        turn does not read again."""
        state = self.state
        self.say_lines(self.io.narrator.resumed(state.deal_number, state.match_scores))
        if not state.is_deal_over:
            self.say(self.io.narrator.table_text(state.table))
            self._table_heard = state.table

    def _step(self) -> None:
        """One turn, or the pause between deals.

        Ctrl-C while the computer thinks, or inside the settings or the rules, offers to save and
        quit; playing on starts the turn again (nothing reached the engine)."""
        try:
            if self.state.is_deal_over:
                self._between_deals()
            elif self.state.to_move in self.players:
                self._computer_turn(self.state.to_move)
            else:
                self._human_turn(self.state.to_move)
        except (KeyboardInterrupt, Interrupted):
            self._ask_quit()

    def _leave(self, message_key: str) -> None:
        """Hide an open pass-and-play hand and say how the match was left."""
        if self.pass_and_play and self.open_seat is not None:
            self._hide()
        self.say(self.m(message_key))

    def _between_deals(self) -> None:
        self.read_until_enter("prompt.next_deal", "deal.next")
        self.io.announcer.acted()
        self.record, events = self.record.next_deal()
        self._autosave()
        self._say_events(events)

    def _after_move(self, events: list[Event]) -> None:
        self._autosave()
        self._say_events([e for e in events if not isinstance(e, MatchWon)])
        if self.state.is_deal_over:
            score = self.state.deal_score
            assisted = self.state.deal_number in self.record.assisted_deals
            self.io.announcer.say_breakdown(self.io.narrator.score_lines(self.state.deal_number, score,
                                                                         self.state.match_scores, assisted))
            for event in events:
                if isinstance(event, MatchWon):
                    self.say(self.io.narrator.match_result(event.side, event.match_scores))
            if not self.state.is_match_over:
                target = self.record.rules.target or 0
                tied = max(self.state.match_scores) >= target  # reached, yet not over: leaders tied
                self.say(self.m("match.tied_leaders") if tied else self.m("match.continue"))

    def _computer_turn(self, seat: int) -> None:
        move = self.players[seat].choose_move(self.state.view(seat))
        self.record, events = self.record.play(move)
        self._after_move(events)

    def _say_events(self, events: list[Event]) -> None:
        """Announce events; remember a table just dealt, so the turn does not read it twice.

        At full verbosity each play is followed by the table it leaves (then not read again
        when a turn starts)."""
        self._table_heard = next((e.table for e in events if isinstance(e, CardsDealt) and e.table is not None),
                                 None)
        lines = self.io.narrator.events(events, own_move_known=True)
        if (self.io.narrator.verbosity == "full" and not self.state.is_deal_over
                and any(isinstance(e, CardPlayed) for e in events)):
            lines.append(Announcement(self.io.narrator.table_text(self.state.table)))
            self._table_heard = self.state.table
        self.say_lines(lines)

    # A human turn ----------------------------------------------------------------
    def _human_turn(self, seat: int) -> None:
        if self.pass_and_play:
            self._gate(seat)
        view = self.state.view(seat)
        lines = [self.io.narrator.turn_line(seat)]
        if self.pass_and_play:
            lines += self._since_last_turn(seat)
        if self.pass_and_play or view.table != self._table_heard:
            lines.append(Announcement(self.io.narrator.table_text(view.table)))  # not when just dealt
            self._table_heard = view.table
        self._maybe_ask_hand_aloud()
        if not self._hand_known(view):
            lines.append(self.io.narrator.hand(view))
        self._hand_heard = view.hand
        tip = self.io.tips(view) if self.io.tips is not None else None
        if tip is not None:
            lines.append(tip)
            self.record = self.record.mark_assisted()  # as a hint does
        self.say_lines(lines)
        move = self._choose_move(seat)
        self.io.announcer.acted()  # Repeat now gives what follows this move
        self.record, events = self.record.play(move)
        self._after_move(events)
        if self.pass_and_play:
            self._close_hand()

    def _hand_known(self, view: PlayerView) -> bool:
        """Short verbosity, one human: the hand is that of the last turn less the card played, so
        it is not read again (H reads it; the card picked is named before Enter plays it)."""
        heard = self._hand_heard
        return (self.io.narrator.terse and not self.pass_and_play and heard is not None
                and len(view.hand) < len(heard) and set(view.hand) <= set(heard))

    def _close_hand(self) -> None:
        """Pass-and-play, after a turn: hide the hand, clearing the screen and scrollback.

        At the end of a deal every hand is empty and the last card played is public, so nothing
        is hidden and the score sheet stays on the screen."""
        if self.state.is_deal_over:
            self.open_seat = None
            return
        self.read_until_enter("prompt.hide", "gate.hide")
        self._hide()

    def _since_last_turn(self, seat: int) -> list[Announcement]:
        """Pass-and-play catch-up: the plays since this seat last played, and a new round dealt
        in between, that were cleared from the screen when the last hand was hidden. What came
        after (a computer's play, a new round) is still on the screen, told once already."""
        state = self.state
        history = state.history
        last = max((i for i, play in enumerate(history) if play.seat == seat), default=-1)
        deal, cleared = self._cleared_at
        told = cleared if deal == state.deal_number else 0  # plays of this deal said before the last clear
        recent = history[last + 1:max(last + 1, told)]
        lines = self.io.narrator.last_plays(recent, len(recent)) if recent else []
        start = round_start(state.view(seat))
        if state.round > 1 and last < start <= told:
            dealt = CardsDealt(state.round, 0, state.rules.hand_size, len(state.stock))
            lines[start - last - 1:start - last - 1] = self.io.narrator.events([dealt])
        return lines

    def _gate(self, seat: int) -> None:
        """Pass-and-play: nothing private left anywhere, then wait until this player opens the hand.

        The screen and scrollback were cleared when the last hand was hidden; they are cleared
        again here if a hand is still open (a turn cut short). Public lines printed since the
        last clear (a computer's play, a new deal) are left for the screen reader to finish.
        The repeat history and the voice queue are always emptied."""
        if self.open_seat is not None:
            self._hide()
        self.io.announcer.forget(stop_voice=False)
        name = self.record.seat_name(seat)
        self.say(self.m("gate.pass", name=name))
        while True:
            token = self.read("prompt.open")
            if token == ENTER:
                self.open_seat = seat
                return
            if not self._command(token, allow_private=False):
                self.say(self.m("gate.press_enter", name=name))

    def _hide(self) -> None:
        self.open_seat = None
        self._cleared_at = (self.state.deal_number, len(self.state.history))
        self.io.output.clear()
        self.io.announcer.forget()

    def _maybe_ask_hand_aloud(self) -> None:
        if self.hand_aloud_asked or not self.io.hand_warning_needed():
            return
        self.hand_aloud_asked = True
        ask_hands_aloud(self.io.announcer, self.read, self.m)

    def _choose_move(self, seat: int) -> Move:
        """Card?, Capture? and Play?, the same keys as in a lesson; the suggest key offers the game's move."""
        chooser = MoveChooser(self.read, self.say, self.io.narrator, self._command,
                              suggest=lambda: self._suggest(seat))
        return chooser.move(self.state, seat)

    def _suggest(self, seat: int) -> Move | None:
        """The suggested move, said with its reason, for the player to confirm; None when there is none.

        Asking marks the deal assisted, whether or not the move is played."""
        if self.io.suggest is None:
            self.say(self.m("hint.unavailable"))
            return None
        move, reason = self.io.suggest(self.state.view(seat))
        self.record = self.record.mark_assisted()
        self.say(reason.reworded(self.m("hint.suggestion", reason=reason.text)))  # private, as the reason
        return move

    def read_until_enter(self, prompt_key: str, message_key: str) -> None:
        self.say(self.m(message_key))
        while True:
            token = self.read(prompt_key)
            if token == ENTER:
                return
            if not self._command(token):
                self.say(self.m(message_key))

    # Commands, at every prompt ----------------------------------------------------
    def _command(self, token: str, allow_private: bool = True) -> bool:
        """Run a command key or word; False when the token is no command."""
        command = command_of(token)
        if command is None:
            return False
        name, argument = command
        narrator, view_seat = self.io.narrator, self.open_seat if allow_private else None
        if name == "table":
            self.say(narrator.table_text(self.state.table))
        elif name == "hand":
            if view_seat is None or self.state.is_deal_over:
                self.say(self.m("hand.closed"))
            else:
                self.say(narrator.hand(self.state.view(view_seat)))
        elif name == "last":
            self.say_lines(narrator.last_plays(self.state.history, 2 * self.record.rules.players))
        elif name == "score":
            self.say_lines(narrator.running_score(self.state.view(0)))
        elif name == "pile":
            seat = view_seat if view_seat is not None else self.state.to_move
            view = self.state.view(seat)
            self.say(narrator.pile(view, view.side))
        elif name == "help":
            self.say_lines([Announcement(self.m(f"help.{i}")) for i in range(1, 6)])
        elif name == "repeat":
            if not self.io.announcer.repeat_stretch():
                self.say(self.m("repeat.none"))
        elif name == "breakdown":
            if not self.io.announcer.repeat_breakdown():
                self.say(self.m("breakdown.none"))
        elif name == "stop":
            self.io.announcer.stop()
        elif name == "voice":
            self.say(self.io.toggle_voice() if self.io.toggle_voice else self.m("voice.unavailable"))
        elif name in ("verbose", "full", "short"):
            narrator.verbosity = "short" if name == "short" else "full"
            self.say(self.m(f"verbosity.{narrator.verbosity}"))
        elif name == "settings":
            self._optional(self.io.settings_menu)
        elif name == "rules":
            self._optional(self.io.rules_reader)
        elif name == "save":
            problem = self.io.save(self.record)
            self.say(problem or self.m("save.done"))
        elif name == "export":
            self._export(argument)
        elif name == "import":
            self._import(argument)
        elif name == "suggest":
            self.say(self.m("hint.not_now"))
        elif name == "quit":
            self._ask_quit()
        return True

    def _optional(self, action: Callable[[], None] | None) -> None:
        if action is None:
            self.say(self.m("error.unknown"))
        else:
            action()

    def _ask_quit(self) -> None:
        """Save and quit on Enter (or a second Ctrl-C); anything else plays on.

        When the save fails, quitting would lose the match, so the player is asked again."""
        self.say(self.m("quit.ask"))
        if not self._quit_confirmed():
            self.say(self.m("quit.cancelled"))
            return
        problem = self.io.save(self.record)
        if problem is None:
            raise QuitMatch
        self.say(problem, self.m("quit.unsaved_ask"))
        if self._quit_confirmed():
            raise QuitMatch(saved=False)
        self.say(self.m("quit.cancelled"))

    def _quit_confirmed(self) -> bool:
        try:
            token = self.io.input.read(self.m("prompt.quit") + " ")
        except (Interrupted, KeyboardInterrupt):
            return True
        return token == ENTER or token.lower() in YES

    def _export(self, path: str) -> None:
        if self.io.export is None:
            self.say(self.m("error.unknown"))
            return
        if not path:
            self.say(self.m("export.need_file"))
            return
        refusal = self.io.export_refusal(path)
        if refusal:
            self.say(refusal)
            return
        try:
            replaces = user_path(path).is_file()
        except OSError:
            replaces = False  # a name no file can have: the export itself says why it failed
        warning = self.m("export.replace_warning", path=Path(path).name) if replaces else self.m("export.warning")
        self.say(warning)
        if self.read("prompt.export") != ENTER:
            self.say(self.m("choose.cancelled"))
            return
        self.say(self.io.export(self.record, path))

    def _import(self, path: str) -> None:
        if self.io.import_match is None:
            self.say(self.m("error.unknown"))
            return
        if not path:
            self.say(self.m("import.need_file"))
            return
        record, message = self.io.import_match(path)
        self.say(message)
        if record is None:
            return
        if self.io.keep_import is None:
            raise ReplaceMatch(record)
        self.say(self.m("import.ask"))  # both matches are kept, whichever is played now
        if self.read("prompt.import") == ENTER:
            self.io.save(self.record)  # this match waits in the main menu exactly as it is now
            raise ReplaceMatch(record)
        self.say(self.io.keep_import(record))
