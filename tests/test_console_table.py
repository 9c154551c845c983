"""The console plays through a table: it never receives another seat's hand.

A pass-and-play match of two humans and two computers, played to its end by keys, with every
view the console gets from the table recorded."""
from __future__ import annotations

import io

from scopa.console.announcer import Announcer
from scopa.console.game import MatchConsole, Services
from scopa.console.terminal import ENTER, InputClosed, Output
from scopa.console.terminal import write as write_screen
from scopa.engine import PlayerView, Rules
from scopa.match import SeatSetup
from scopa.narration import Messages, Narrator
from scopa.speech import RecordingSpeaker
from scopa.table import LocalTable, Notice, Resync, SeatUpdate, SubmitResult, start_match

M = Messages("en")
ANSWERS = {M("prompt.card"): "1", M("prompt.capture"): "1"}  # Open?, Play?, Hide?, Next?: Enter


class Answering:
    """Keys for every prompt: the first card, its first capture, Enter for the rest."""

    def __init__(self, out: io.StringIO, limit: int = 5000) -> None:
        self.out, self.left = out, limit

    def read(self, prompt: str) -> str:
        write_screen(self.out, prompt + "\n")  # a prompt takes the lines held for it (terminal.held)
        self.left -= 1
        if self.left < 0:
            raise InputClosed
        return ANSWERS.get(prompt.strip(), ENTER)

    def read_text(self, prompt: str) -> str:
        return self.read(prompt)

    def close(self) -> None:
        pass


class RecordingTable:
    """A LocalTable that writes down every view it hands out, and which seat's hand was open then."""

    def __init__(self, table: LocalTable) -> None:
        self.inner = table
        self.console: MatchConsole | None = None
        self.views: list[tuple[str, int, int | None]] = []  # (how, seat of the view, open seat)

    def _note(self, how: str, view: PlayerView | None) -> None:
        if view is not None:
            self.views.append((how, view.seat, self.console.open_seat if self.console else None))

    def _noted(self, how: str, updates):
        if isinstance(updates, Resync):
            self._note(how, updates.view)
        else:
            for update in updates:
                self._note(how, update.view)
        return updates

    def view(self, seat: int) -> PlayerView:
        view = self.inner.view(seat)
        self._note("view", view)
        return view

    def updates(self, seat: int, after: int):
        return self._noted("updates", self.inner.updates(seat, after))

    def wait(self, seat: int, after: int, timeout: float | None = None):
        return self._noted("wait", self.inner.wait(seat, after, timeout))

    def submit(self, seat, move, expected):
        result = self.inner.submit(seat, move, expected)
        self._noted("submit", result.updates)
        return result

    def next_deal(self, seat, expected):
        result = self.inner.next_deal(seat, expected)
        self._noted("next_deal", result.updates)
        return result

    def __getattr__(self, name: str):  # info, seats_here, latest, notes, save, close, mark_assisted
        return getattr(self.inner, name)


def test_a_pass_and_play_console_only_ever_gets_views_of_its_own_seats():
    seats = (SeatSetup("Ann"), SeatSetup("Robin", "computer", "easy"), SeatSetup("Bo"),
             SeatSetup("Sam", "computer", "beginner"))
    rules = Rules(players=4, target=None)
    record, opening = start_match(rules, seats, seed=7)
    table = RecordingTable(LocalTable(record, opening=opening))
    out = io.StringIO()
    narrator = Narrator([s.name for s in seats], rules, None)
    services = Services(Answering(out), Output(out), Announcer(Output(out), RecordingSpeaker()), narrator)
    console = MatchConsole(table, services)
    table.console = console
    assert console.run() == "finished"
    assert table.inner.record.state.is_match_over and len(table.inner.record.moves) == 36
    assert {seat for _, seat, _ in table.views} == {0, 2} == set(table.seats_here())
    # A hand is fetched for a turn only once its seat's gate is open; updates carry the
    # listening seat's view, and the console reads only its public facts.
    turns = [(seat, open_seat) for how, seat, open_seat in table.views if how == "view"]
    assert turns[0] == (0, None)  # the console's first picture, before any gate: only its public facts are read
    assert len(turns) > 18 and all(seat == open_seat for seat, open_seat in turns[1:])
    assert {seat for how, seat, _ in table.views if how != "view"} <= {0, 2}


def test_the_console_package_asks_no_view_of_a_computer_seat():
    """One human and a computer: every view the console gets is the human's."""
    seats = (SeatSetup("You"), SeatSetup("Robin", "computer", "easy"))
    rules = Rules(target=None)
    record, opening = start_match(rules, seats, seed=2)
    table = RecordingTable(LocalTable(record, opening=opening))
    out = io.StringIO()
    services = Services(Answering(out), Output(out), Announcer(Output(out), RecordingSpeaker()),
                        Narrator(["You", "Robin"], rules, 0))
    console = MatchConsole(table, services)
    table.console = console
    assert console.run() == "finished"
    assert {seat for _, seat, _ in table.views} == {0}


class EventfulTable(RecordingTable):
    """A table that, as an online one may, refuses the first move as stale and brings a notice with the next update."""

    def __init__(self, table: LocalTable) -> None:
        super().__init__(table)
        self.refused = False
        self.extra = 0  # numbers given to the notices, after the table's own

    def latest(self) -> int:
        return self.inner.latest() + self.extra

    def submit(self, seat, move, expected):
        if not self.refused:
            self.refused = True
            return SubmitResult(False, refusal="stale")
        return self.inner.submit(seat, move, expected - self.extra)

    def updates(self, seat: int, after: int):
        own = self.inner.updates(seat, min(after, self.inner.latest()))
        if self.refused and not self.extra:  # the refused move: someone came back meanwhile
            self.extra = 1
            return [SeatUpdate(self.inner.latest() + 1, Notice("reclaimed", 1), None)]
        return [u._replace(number=u.number + self.extra) for u in own]


def test_a_stale_move_is_refused_in_words_then_the_notice_is_told_and_the_turn_asked_again():
    seats = (SeatSetup("You"), SeatSetup("Robin", "computer", "easy"))
    rules = Rules(target=None)
    record, opening = start_match(rules, seats, seed=2, first_dealer=1)  # you lead
    table = EventfulTable(LocalTable(record, opening=opening))
    out = io.StringIO()
    services = Services(Answering(out, limit=12), Output(out), Announcer(Output(out), RecordingSpeaker()),
                        Narrator(["You", "Robin"], rules, 0))
    MatchConsole(table, services).run()
    lines = out.getvalue().splitlines()
    stale = lines.index(M("refused.stale"))
    assert lines[stale + 1] == M("notice.reclaimed", name="Robin")
    # the turn again, from the table as it is now (short: no "Your turn.", the hand and Card? say it)
    assert lines[stale + 2] == "Hand, jack of spades, king of diamonds, king of spades."
    assert table.inner.record.moves and table.inner.record.moves[0].seat == 0  # the second try was played
