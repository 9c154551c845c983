"""Playing one match at the terminal: turns, commands and the gate (choosing a move: ``choosing``).

The console plays seats *through a table* (``scopa.table``): it holds only the views of the
seats it plays and the numbered updates, never the match itself. Data flows one way: a key
becomes a command or a move, the move goes to the table (which hands it to the engine), and
the updates come back as announcements. The loop is driven by updates, so the same console
plays a local table and an online one.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from ..engine import Card, CardPlayed, CardsDealt, DealScored, DealStarted, Event, MatchWon, Move, Phase, PlayerView
from ..narration import Announcement, Messages, Narrator, explain_illegal, run_command
from ..narration.narrator import KEYS_LEARNT, watching_together
from ..players.knowledge import is_last_play, round_start
from ..storage import user_path
from ..table import Notice, Resync, SeatUpdate, SubmitResult, Table, own_arrival
from .announcer import Announcer, ask_hands_aloud
from .choosing import MoveChooser
from .keys import YES, command_of
from .terminal import ENTER, ESCAPE, RESUMED, Input, InputClosed, Interrupted, Output, question

Outcome = Literal["finished", "quit"]


@dataclass
class Services:
    """What the match loop needs from the program around it (all optional but the first four)."""

    input: Input
    output: Output
    announcer: Announcer
    narrator: Narrator
    export: Callable[[str], str] | None = None  # the match to a file; the line to say
    export_refusal: Callable[[str], str | None] = lambda path: None  # a folder, pipe or device: why not
    import_match: Callable[[str], tuple[Any, str]] | None = None  # (what the import read, or None; a line)
    keep_import: Callable[[Any], str] | None = None  # an import saved beside the others, not played
    older_save_kept: Callable[[], bool] = lambda: False  # after a failed save: is the last one still there?
    settings_menu: Callable[[], None] | None = None
    rules_reader: Callable[[], None] | None = None
    toggle_voice: Callable[[], str] | None = None
    suggest: Callable[[PlayerView], tuple[Move, Announcement]] | None = None  # the reason is private
    hand_warning_needed: Callable[[], bool] = lambda: False
    tips: Callable[[PlayerView], Announcement | None] | None = None  # beginner and easy tables; private
    tips_offer: Callable[[], Announcement | None] = lambda: None  # once: how to turn tips on (public, no help)
    deal_earned: Callable[[int], Sequence[str | Announcement]] = lambda deal: ()  # achievements a deal just earned
    cycle_profile: Callable[[], str] | None = None  # the next announcements profile, saved; the line saying it
    transcript: Callable[[str], None] | None = None  # appends one line to the match's transcript
    transcript_hands: Callable[[], bool] = lambda: False  # pass-and-play: the players chose to keep hands in it


class QuitMatch(Exception):
    """The player chose to quit; ``saved`` says whether the match was saved first."""

    def __init__(self, saved: bool = True) -> None:
        super().__init__()
        self.saved = saved


class ReplaceMatch(Exception):
    """The player switches to an imported match; this one stays saved as it was.

    ``replacement`` is what the program's import gave (the console never looks inside it)."""

    def __init__(self, replacement: Any) -> None:
        super().__init__()
        self.replacement = replacement


def transitions(updates: Sequence[SeatUpdate]) -> list[list[SeatUpdate]]:
    """Updates grouped as they happened: a play with what it caused, a new deal, a notice alone."""
    groups: list[list[SeatUpdate]] = []
    for update in updates:
        starts = isinstance(update.event, (CardPlayed, DealStarted, Notice)) or (
            groups and isinstance(groups[-1][-1].event, Notice))
        if starts or not groups:
            groups.append([update])
        else:
            groups[-1].append(update)
    return groups


class MatchConsole:
    """Plays the table's seats here from the current position to the match's end, or until the player quits.

    ``seen`` is the number of the last update already narrated (0: narrate from the start)."""

    HELP_KEYS: tuple[str, ...] = ("help.1", "help.2", "help.3", "help.4", "help.5")  # the lines the question mark says

    def __init__(self, table: Table, services: Services, seen: int = 0) -> None:
        self.table = table
        self.io = services
        self.here = tuple(table.seats_here())
        self.listener = self.here[0]  # the seat whose updates the loop follows (only their public part is read)
        self.number = seen
        self.info = table.info()
        self.view: PlayerView = table.view(self.listener)  # the latest view: only its public facts are read
        self.open_seat: int | None = None
        self._table_heard: tuple[Card, ...] | None = None  # a table announced with the deal
        self.hand_aloud_asked = False
        self._hand_heard: tuple[Card, ...] | None = None  # the hand read at the last turn (one human)
        self._cleared_at = (0, 0)  # (deal, plays) when pass-and-play last cleared the screen
        self._said_at: tuple[int, int] | None = None  # (deal, plays) of the lines being said, for the transcript
        self._gates: dict[int, int] = {}  # seat -> hands opened and hidden: after KEYS_LEARNT, the short gate
        self._covered = False  # online: a computer plays the seat here while its player is away
        self._timed_out = False  # online: the seat's time ran out; its next play is the table's, for it
        self._played_for: set[tuple[int, int]] = set()  # (deal, index of the play) a computer made for the seat
        services.announcer.open_seat = lambda: self.open_seat
        self.pass_and_play = len(self.here) > 1
        if len(self.here) == 1:
            self.open_seat = self.here[0]  # one human: the hand is always theirs to see

    # Helpers ---------------------------------------------------------------
    @property
    def m(self) -> Messages:
        return self.io.narrator.messages

    def say(self, *items: Announcement | str) -> None:
        self.io.announcer.say(list(items))

    def say_lines(self, lines: Sequence[Announcement | str]) -> None:
        self.io.announcer.say(lines)

    def read(self, prompt_key: str) -> str:
        """One key or typed command; Ctrl-C offers to save and quit, then asks again; back from
        Ctrl-Z (``fg``), where things stand is said, then the same prompt."""
        while True:
            try:
                token = self.io.input.read(self.m(prompt_key) + " ")
            except Interrupted:
                self._ask_quit()
                continue
            if token != RESUMED:
                return token
            self._say_where()

    def _say_where(self) -> None:
        """The position again: the table, and the hand while it is open."""
        lines = [Announcement(self.io.narrator.table_text(self.view.table))]
        if self.open_seat is not None and not self.deal_over:
            lines.append(self.io.narrator.hand(self.table.view(self.open_seat)))
        with self.io.announcer.aside():
            self.say_lines(lines)

    @property
    def deal_over(self) -> bool:
        return self.view.phase is not Phase.PLAYING

    @property
    def match_over(self) -> bool:
        return self.view.phase is Phase.MATCH_OVER

    # Updates ---------------------------------------------------------------------
    def _take(self, updates: Sequence[SeatUpdate] | Resync) -> list[SeatUpdate]:
        """Keep the number and the view of what arrived; a resync says where the match stands."""
        if isinstance(updates, Resync):
            self.number, self.view, self.info = updates.number, updates.view, updates.info
            self._say_position()
            return []
        for update in updates:
            self.number = update.number
            if update.view is not None:
                self.view = update.view
        return list(updates)

    def _narrate(self, updates: Sequence[SeatUpdate], own_move: bool = False) -> None:
        """The table's own lines (a save problem), then each play, deal and notice as it happened.

        ``own_move``: the first transition is the move the player here has just confirmed."""
        notes = self.table.notes()
        if notes:
            self.say(*notes)
        for number, group in enumerate(transitions(updates)):
            view = next((u.view for u in reversed(group) if u.view is not None), self.view)
            events = [u.event for u in group]
            self._said_at = (view.deal_number, len(view.history))
            if isinstance(events[0], Notice):  # a notice comes alone, never with the cards' events
                # a seat's own arrival is said by its welcome ("You are in room ..."), never as news;
                # nor its own leaving, replayed to it when it comes back ("Ben left the table." to Ben)
                notices = [e for e in events if isinstance(e, Notice) and not own_arrival(e, self.listener)
                           and not (e.kind == "left" and e.seat == self.listener)]
                for notice in notices:
                    if notice.seat == self.listener and notice.kind in ("covered", "reclaimed"):
                        self._covered = notice.kind == "covered"
                    self._timed_out |= notice.seat == self.listener and notice.kind == "timed_out"
                together, first = watching_together(self.io.narrator.messages, [(e.kind, e.name) for e in notices])
                lines = [self.io.narrator.notice(e.kind, e.seat, e.name) for e in notices]
                if together is not None:  # the spectators come together: one line, where the first was
                    lines = [together if n == first else line for n, (line, e) in enumerate(zip(lines, notices,
                                                                                              strict=True))
                             if n == first or e.kind != "watching"]
                self.say(*lines)
            else:
                for_you = self._covered or (self._timed_out and any(
                    isinstance(e, CardPlayed) and e.seat == self.listener for e in events))
                if for_you:
                    self._timed_out = False
                    self._note_played_for(group)
                self._narrate_events([e for e in events if not isinstance(e, Notice)], view, own_move and number == 0,
                                     for_you)
            self._said_at = None

    def _note_played_for(self, group: list[SeatUpdate]) -> None:
        """Keep which play of the deal a computer made for the seat here, for L to tell it so."""
        for update in group:
            event, view = update.event, update.view
            if isinstance(event, CardPlayed) and event.seat == self.listener and view is not None:
                index = max((i for i, play in enumerate(view.history) if play.card == event.card), default=None)
                if index is not None:
                    self._played_for.add((view.deal_number, index))

    def _narrate_events(self, events: list[Event], view: PlayerView, own_move: bool = False,
                        for_you: bool = False) -> None:
        """One transition: the play (or new deal) and, when it ended the deal, the score sheet.
        ``for_you``: a computer played for the seat here (covered, or its time ran out)."""
        self._say_events([e for e in events if not isinstance(e, MatchWon)], view, own_move, for_you)
        scored = next((e for e in events if isinstance(e, DealScored)), None)
        if scored is None:
            return
        self.io.announcer.keep_breakdown(self._score_sheet(scored, asked=True))  # B gives it whole
        self.say_lines(self._score_sheet(scored, whole=self.io.narrator.news.score))
        won = next((e for e in events if isinstance(e, MatchWon)), None)
        if won is not None:  # what the match earned is said after it
            self.say(self.io.narrator.match_result(won.side, won.match_scores))
        else:
            self.say_lines(list(self.io.deal_earned(scored.deal_number)))
            target = self.info.rules.target or 0
            tied = max(scored.match_scores) >= target  # reached, yet not over: leaders tied
            if tied:
                self.say(self.m("match.tied_leaders"))
            elif not self.io.narrator.terse:  # short: "Press Enter for the next deal." follows and says it
                self.say(self.m("match.continue"))

    def _score_sheet(self, scored: DealScored, whole: bool = True, asked: bool = False) -> list[Announcement]:
        assisted = scored.deal_number in self.table.info().assisted_deals
        return self.io.narrator.score_lines(scored.deal_number, scored.score, scored.match_scores, assisted, whole,
                                            asked)

    def _say_events(self, events: list[Event], view: PlayerView, own_move: bool = False,
                    for_you: bool = False) -> None:
        """Announce events; remember a table just dealt, so the turn does not read it twice.

        With the table after each play switched on (the full profile) each play is followed by
        the table it leaves (then not read again when a turn starts). The player's own move,
        just confirmed, is not told back at short verbosity; other players' plays are not told
        while they are switched off."""
        news = self.io.narrator.news
        self._table_heard = next((e.table for e in events if isinstance(e, CardsDealt) and e.table is not None),
                                 None)
        played = next((e for e in events if isinstance(e, CardPlayed)), None)
        mine_for_you = for_you and played is not None and played.seat == self.listener
        untold = played is not None and not own_move and not mine_for_you and not news.plays
        lines = self.io.narrator.events(events, own_move_known=own_move, untold=untold, played_for_you=for_you)
        if news.table and view.phase is Phase.PLAYING and played is not None:
            lines.append(Announcement(self.io.narrator.table_text(view.table)))
            self._table_heard = view.table
        self.say_lines(lines)

    def _say_position(self) -> None:
        """Where a resumed match stands: the deal, who is playing and the score, then the table
        (which the first turn does not read again)."""
        self.say_lines(self.io.narrator.resumed(self.view.deal_number, self.view.match_scores))
        if not self.deal_over:
            self.say(self.io.narrator.table_text(self.view.table))
            self._table_heard = self.view.table

    def _refused(self, result: SubmitResult) -> None:
        """A move or a new deal the table did not take: why, in a sentence; the loop goes on from the table."""
        line = explain_illegal(result.reason, self.io.narrator.cards) if result.reason is not None else ""
        self.say(line or self.m(f"refused.{result.refusal or 'unavailable'}"))

    # The match ---------------------------------------------------------------
    def run(self) -> Outcome:
        """Play until the match ends: first what the table has that was not narrated yet."""
        if self.io.transcript is not None:
            self.io.announcer.on_said = self._transcribe
        try:
            return self._run()
        finally:
            self.io.announcer.on_said = None

    def _transcribe(self, line: Announcement) -> None:
        """One line said, into the transcript with its deal and the plays made so far in it.

        A hand's line is said only while its owner's hand is open, so one human's transcript
        has their hand as they heard it; in pass-and-play no hand goes in unless the players
        chose to keep them (each would read the others')."""
        if self.io.transcript is None or (line.private and self.pass_and_play and not self.io.transcript_hands()):
            return
        if line.unsaid and line.text in {self.io.narrator.turn(seat) for seat in range(len(self.info.seats))}:
            return  # "Your turn." kept for its sound; the player's own move, unsaid, is part of the match
        deal, plays = self._said_at or (self.view.deal_number, len(self.view.history))
        key = "transcript.line" if plays else "transcript.line.deal"
        if not plays and line.text.startswith(self.m(key, deal=deal, text="").strip()):
            self.io.transcript(line.text)  # "Deal 1. You deal." says its deal: never "Deal 1. Deal 1. You deal."
            return
        self.io.transcript(self.m(key, deal=deal, turn=plays, text=line.text))

    def _run(self) -> Outcome:
        try:
            self.io.announcer.acted()  # Repeat starts from this match
            scored = self.table.last_score()  # B: a resumed match's last sheet, none of another match
            self.io.announcer.keep_breakdown(self._score_sheet(scored, asked=True) if scored is not None else [])
            with self.io.output.held():  # what one step announces goes out in one write (terminal.held)
                updates = self._take(self.table.updates(self.listener, self.number))
                if updates:
                    self._narrate(updates)
                else:
                    self._say_position()
            while not self.match_over:
                with self.io.output.held():
                    self._step()
            return "finished"
        except QuitMatch as leaving:  # _ask_quit has saved, or tried to
            unsaved = "quit.unsaved_older" if self.io.older_save_kept() else "quit.unsaved"
            self._leave("quit.saved" if leaving.saved else unsaved)
            return "quit"
        except InputClosed:
            problem = self.table.save()
            self._leave("app.input_closed" if problem is None else "app.input_closed_unsaved")
            return "quit"
        except ReplaceMatch:
            if self.pass_and_play and self.open_seat is not None:
                self._hide()  # the imported match starts with every hand closed
            raise

    def _step(self) -> None:
        """One turn, the pause between deals, or what the other seats did.

        Ctrl-C while a computer thinks, or inside the settings or the rules, offers to save and
        quit; playing on starts the turn again (nothing reached the engine)."""
        try:
            if self.deal_over:
                self._between_deals()
            elif self.view.to_move in self.here:
                self._human_turn(self.view.to_move)
            else:
                updates = self._take(self.table.wait(self.listener, self.number))
                self.io.output.pace()  # a computer's move a few milliseconds after the last news: not on top of it
                self._narrate(updates)
        except (KeyboardInterrupt, Interrupted):
            self._ask_quit()

    def _leave(self, message_key: str) -> None:
        """Hide an open pass-and-play hand and say how the match was left."""
        if self.pass_and_play and self.open_seat is not None:
            self._hide()
        self.say(self.m(message_key, command=run_command()))  # "Run scopa again to resume it."

    def _between_deals(self) -> None:
        self.read_until_enter("prompt.next_deal", "deal.next")
        self.io.announcer.acted()
        self._submitted(self.table.next_deal(self.listener, self.number))

    def _submitted(self, result: SubmitResult, own_move: bool = False) -> bool:
        """Narrate what an accepted move or deal caused; say why a refused one was refused."""
        if not result.accepted:
            self._refused(result)
            self._narrate(self._take(self.table.updates(self.listener, self.number)))  # what made it stale
            return False
        self._narrate(self._take(result.updates), own_move)
        return True

    # A human turn ----------------------------------------------------------------
    def _human_turn(self, seat: int) -> None:
        if self.pass_and_play:
            self._gate(seat)
        view = self.table.view(seat)  # the hand is read only now, the gate open
        narrator = self.io.narrator
        turn = narrator.turn_line(seat)
        if self.pass_and_play and narrator.terse:  # the gate has just named the player: its sound alone
            turn = Announcement(turn.text, unsaid=True)
        lines = [turn]
        if self.pass_and_play and narrator.news.plays:
            lines += self._since_last_turn(view)
        if self._table_news(view):
            lines.append(Announcement(narrator.table_text(view.table)))
            self._table_heard = view.table
        self._maybe_ask_hand_aloud()
        if not self._hand_known(view):
            lines.append(narrator.hand(view))
        self._hand_heard = view.hand
        tip = self.io.tips(view) if self.io.tips is not None else None
        if tip is not None:
            lines.append(tip)
            self.table.mark_assisted(seat)  # as a hint does: the player chose tips
        offer = self.io.tips_offer()
        if offer is not None:
            lines.append(offer)
        self.say_lines(lines)
        if view.claimable() and self._claim_wanted(seat, view):
            self.io.announcer.acted()
            if self._submitted(self.table.claim(seat, self.number)):
                view = self.table.view(seat)
        mark = self.io.announcer.mark()  # after the claim: Repeat tells the claim as said, the move as made
        move = self._choose_move(view)
        past = self.io.narrator.past_move(seat, move, view.table, is_last_play(view))
        self.io.announcer.acted(mark, past)  # Repeat now gives what follows; further back, this move as made
        if self._submitted(self.table.submit(seat, move, self.number), own_move=True) and self.pass_and_play:
            self._close_hand()

    def _table_news(self, view: PlayerView) -> bool:
        """Whether the turn says the table: when it changed since it was last said, unless the
        listener can follow it from what they just heard (two or more plays of others, each told:
        three or four players; a table swept empty by a scopa just told). In pass-and-play the screen was
        cleared, so the table is said again after one play too. T reads it at any time."""
        news = self.io.narrator.news
        if view.table == self._table_heard and not self.pass_and_play:
            return False  # just dealt, or said after each play
        if not news.plays:
            return True
        last = max((i for i, play in enumerate(view.history) if play.seat == view.seat), default=-1)
        since = view.history[last + 1:]
        # the table was said at this seat's last turn, or with the deal or the resumed position (one
        # human: nothing cleared it away since)
        told = last >= 0 or not self.pass_and_play
        return not (told and len(since) >= 2)

    def _claim_wanted(self, seat: int, view: PlayerView) -> bool:
        """Cirulla: the player's choice, before the hand's first card, to claim its bonus.

        Said privately (it tells what the hand holds): 1 or Enter claims and shows the hand to
        everyone, 2 or Escape keeps it hidden; the other keys work as at any prompt."""
        kind = view.claimable()
        offer = Announcement(f"{self.m(f'claim.offer.{kind}')} {self.m('claim.keys')}", seat)
        self.say(offer)
        while True:
            token = self.read("prompt.claim")
            if token in (ENTER, "1"):
                return True
            if token in (ESCAPE, "2"):
                return False
            if not self._command(token):
                self.say(offer)

    def _hand_known(self, view: PlayerView) -> bool:
        """Whether the turn leaves the hand out: the new hand switched off, or one human at short
        verbosity with the hand of the last turn less the card played (H reads it)."""
        if not self.io.narrator.news.hand:
            return True
        return not self.pass_and_play and self.io.narrator.hand_known(self._hand_heard, view.hand)

    def _close_hand(self) -> None:
        """Pass-and-play, after a turn: hide the hand, clearing the screen and scrollback.

        At the end of a deal every hand is empty and the last card played is public, so nothing
        is hidden and the score sheet stays on the screen."""
        if self.deal_over:
            self.open_seat = None
            return
        seat = self.open_seat
        if self._gate_learnt(seat):  # "Hide?" alone: the player has hidden their hand a few times
            self._read_enter("prompt.hide", "gate.hide")
        else:
            self.read_until_enter("prompt.hide", "gate.hide")
        if seat is not None:
            self._gates[seat] = self._gates.get(seat, 0) + 1
        self._hide()

    def _gate_learnt(self, seat: int | None) -> bool:
        """Short verbosity, and ``seat``'s player has opened and hidden their hand KEYS_LEARNT times:
        the gate says only "Pass to Ann.", and "Hide?" comes without its sentence."""
        return seat is not None and self.io.narrator.terse and self._gates.get(seat, 0) >= KEYS_LEARNT

    def _since_last_turn(self, view: PlayerView) -> list[Announcement]:
        """Pass-and-play catch-up: the plays since this seat last played, and a new round dealt
        in between, that were cleared from the screen when the last hand was hidden. What came
        after (a computer's play, a new round) is still on the screen, told once already."""
        history = view.history
        last = max((i for i, play in enumerate(history) if play.seat == view.seat), default=-1)
        deal, cleared = self._cleared_at
        told = cleared if deal == view.deal_number else 0  # plays of this deal said before the last clear
        recent = history[last + 1:max(last + 1, told)]
        lines = self.io.narrator.last_plays(recent, len(recent)) if recent else []
        start = round_start(view)
        if view.round > 1 and last < start <= told:
            dealt = CardsDealt(view.round, 0, view.rules.hand_size, view.stock_count)
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
        name = self.info.seats[seat].name
        self.say(self.m("gate.pass.short" if self._gate_learnt(seat) else "gate.pass", name=name))
        while True:
            token = self.read("prompt.open")
            if token == ENTER:
                self.open_seat = seat
                return
            if not self._command(token, allow_private=False):
                self.say(self.m("gate.press_enter", name=name))

    def _hide(self) -> None:
        self.open_seat = None
        self._cleared_at = (self.view.deal_number, len(self.view.history))
        self.io.output.clear()
        self.io.announcer.forget()

    def _maybe_ask_hand_aloud(self) -> None:
        if self.hand_aloud_asked or not self.io.hand_warning_needed():
            return
        self.hand_aloud_asked = True
        ask_hands_aloud(self.io.announcer, self.read, self.m)

    def _choose_move(self, view: PlayerView) -> Move:
        """Card?, Capture? and Play?, the same keys as in a lesson; the suggest key offers the game's move."""
        chooser = MoveChooser(self.read, self.say, self.io.narrator, self._command,
                              suggest=lambda: self._suggest(view), question=lambda: question(self.io.input))
        return chooser.move(view)

    def _suggest(self, view: PlayerView) -> Move | None:
        """The suggested move, said with its reason, for the player to confirm; None when there is none.

        Asking marks the deal assisted, whether or not the move is played."""
        if self.io.suggest is None:
            self.say(self.m("hint.unavailable"))
            return None
        move, reason = self.io.suggest(view)
        self.table.mark_assisted(view.seat)
        self.say(reason.reworded(self.m("hint.suggestion", reason=reason.text)))  # private, as the reason
        return move

    def read_until_enter(self, prompt_key: str, message_key: str) -> None:
        self.say(self.m(message_key))
        self._read_enter(prompt_key, message_key)

    def _read_enter(self, prompt_key: str, message_key: str) -> None:
        """Read until Enter, running commands; anything else says ``message_key``."""
        while True:
            token = self.read(prompt_key)
            if token == ENTER:
                return
            if not self._command(token):
                self.say(self.m(message_key))

    # Commands, at every prompt ----------------------------------------------------
    def _command(self, token: str, allow_private: bool = True) -> bool:
        """Run a command key or word; False when the token is no command. What it says is an
        answer, not part of what happened, so Repeat in a match leaves it out."""
        command = command_of(token)
        if command is None:
            return False
        with self.io.announcer.aside():
            self._run_command(*command, allow_private)
        return True

    def _run_command(self, name: str, argument: str, allow_private: bool) -> None:
        narrator, view_seat = self.io.narrator, self.open_seat if allow_private else None
        view = self.view  # public facts only: the hand comes from the open seat's own view
        if name == "table":
            self.say(narrator.table_text(view.table))
        elif name == "hand":
            if view_seat is None or self.deal_over:
                self.say(self.m("hand.closed"))
            else:
                self.say(narrator.hand(self.table.view(view_seat)))
        elif name == "last":
            played_for = {index for deal, index in self._played_for if deal == view.deal_number}
            self.say_lines(narrator.last_plays(view.history, 2 * view.rules.players, played_for))
        elif name == "score":
            self.say_lines(narrator.running_score(view))
        elif name == "pile":
            seat = view_seat if view_seat is not None else view.to_move
            self.say(narrator.pile(view, view.rules.side_of(seat)))
        elif name == "help":
            self.say_lines([Announcement(self.m(key)) for key in self.HELP_KEYS])
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
        elif name == "announcements":
            self.say(self.io.cycle_profile() if self.io.cycle_profile is not None else self.m("error.unknown"))
        elif name == "settings":
            self._optional(self.io.settings_menu)
        elif name == "rules":
            self._optional(self.io.rules_reader)
        elif name == "save":
            problem = self.table.save()
            self.say(problem or self.m("save.done"))
        elif name == "export":
            self._export(argument)
        elif name == "import":
            self._import(argument)
        elif name == "suggest":
            self.say(self.m("hint.not_now"))
        elif name == "quit":
            self._ask_quit()

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
        problem = self.table.save()
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
        self.say(self.io.export(path))

    def _import(self, path: str) -> None:
        if self.io.import_match is None:
            self.say(self.m("error.unknown"))
            return
        if not path:
            self.say(self.m("import.need_file"))
            return
        replacement, message = self.io.import_match(path)
        self.say(message)
        if replacement is None:
            return
        if self.io.keep_import is None:
            raise ReplaceMatch(replacement)
        self.say(self.m("import.ask"))  # both matches are kept, whichever is played now
        if self.read("prompt.import") == ENTER:
            self.table.save()  # this match waits in the main menu exactly as it is now
            raise ReplaceMatch(replacement)
        self.say(self.io.keep_import(replacement))
