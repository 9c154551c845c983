"""A finished match told again, deal by deal and play by play, in the match's own narration.

``ReviewScript`` is pure: it turns a replayed match into the lines of each item (a deal's
opening, or one play with, at the end of a deal, its score sheet), and the coach's advice. The
``ReviewSession`` in ``console`` moves through the items with keys.

Every line that names a card still in a hand (the hand a play came from, the coach's better
card) is an announcement private to that seat, as in the match: the announcer speaks it only
when the player allowed hands aloud, and prints it always.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..engine import GameState, MatchWon
from ..match import MatchRecord
from ..narration import Announcement, Narrator
from .coach import SAMPLES, Advice, coach_deal
from .replay import DealReplay, Step, replay_match
from .text import RecordText
from .words import advice_line


@dataclass(frozen=True)
class Item:
    """One stop of the review: a deal's opening (``step`` None) or one play."""

    deal: int  # index into the deals
    step: Step | None = None

    @property
    def is_play(self) -> bool:
        return self.step is not None


class ReviewScript:
    """The lines of every stop of a review; the coach is asked a deal at a time, when first needed."""

    def __init__(self, record: MatchRecord, narrator: Narrator, text: RecordText, samples: int = SAMPLES,
                 coach: Callable[[DealReplay], dict[int, Advice]] | None = None,
                 coached: Sequence[int] | None = None) -> None:
        """``coached``: the seats whose plays the coach looks at (None: every human seat; an online
        match: the player's own, the others played at their own machines)."""
        self.record = record
        self.narrator = narrator
        self.text = text
        self.deals = replay_match(record)
        self.items = [item for i, deal in enumerate(self.deals)
                      for item in (Item(i), *(Item(i, step) for step in deal.steps))]
        seats = record.human_seats if coached is None else tuple(coached)
        self._coach = coach or (lambda deal: coach_deal(deal, seats, record.seed, samples))
        self._advice: dict[int, dict[int, Advice]] = {}

    def advice(self, deal: int) -> dict[int, Advice]:
        if deal not in self._advice:
            self._advice[deal] = self._coach(self.deals[deal])
        return self._advice[deal]

    def lines(self, index: int, show_hands: bool = False) -> list[Announcement]:
        """What is said at stop ``index``: an opening, or a play and what followed it."""
        item = self.items[index]
        deal = self.deals[item.deal]
        if item.step is None:
            return self.narrator.events(deal.opening)
        step = item.step
        lines = [self.hand_line(step)] if show_hands else []
        lines += self.narrator.events([e for e in step.events if not isinstance(e, MatchWon)])
        after = self._after(index)
        if self.narrator.verbosity == "full" and after is not None and not after.is_deal_over:
            lines.append(Announcement(self.narrator.table_text(after.table)))  # as the match did
        advice = self.advice(item.deal).get(step.number)
        if advice is not None and advice.marked:
            said = self.coach_line(advice)
            lines.append(said.reworded(self.text("coach.marked", advice=said.text)))
        if step is deal.steps[-1]:
            lines += self.narrator.score_lines(deal.number, deal.score, deal.match_scores, deal.assisted)
            if deal.result is not None:
                lines.append(Announcement(self.narrator.match_result(deal.result.side, deal.result.match_scores)))
        return lines

    def _after(self, index: int) -> GameState | None:
        """The position after the play at ``index`` (before the next play or deal)."""
        following = self.items[index + 1] if index + 1 < len(self.items) else None
        if following is not None and following.step is not None:
            return following.step.before
        return None

    def table_now(self, index: int) -> str:
        """The table as it lies at stop ``index``: as dealt, or as the play left it."""
        item = self.items[max(index, 0)]
        if item.step is None:
            return self.narrator.table_text(self.deals[item.deal].steps[0].before.table)
        after = self._after(max(index, 0))
        return self.narrator.table_text(after.table if after is not None else ())

    def hand_line(self, step: Step) -> Announcement:
        """The hand the play came from; said only when the player asked to see hands."""
        hand = step.before.hands[step.seat]
        cards = self.narrator.cards.list(hand, article=True)
        if step.seat == self.narrator.you:
            return Announcement(self.text("review.hand.you", cards=cards), private_to=step.seat)
        return Announcement(self.text("review.hand", name=self.narrator.seat_names[step.seat], cards=cards),
                            private_to=step.seat)

    def _last_play(self, index: int) -> int | None:
        """The stop of the play told at ``index``, or of the play before an opening; None before the first."""
        while index >= 0 and not self.items[index].is_play:
            index -= 1
        return index if index >= 0 else None

    def _step_of(self, play: int) -> Step:
        """The play at stop ``play``, one that ``_last_play`` gave."""
        step = self.items[play].step
        if step is None:
            raise ValueError(f"stop {play} is not a play")
        return step

    def seat_at(self, index: int) -> int | None:
        """The seat of the play told at (or last before) stop ``index``: the hand its private lines name."""
        play = self._last_play(index)
        return None if play is None else self._step_of(play).seat

    def why(self, index: int) -> Announcement:
        """The coach's opinion of the play at ``index`` (or of the play before an opening)."""
        play = self._last_play(index)
        if play is None:
            return Announcement(self.text("review.why.nothing"))
        item, step = self.items[play], self._step_of(play)
        advice = self.advice(item.deal).get(step.number)
        if advice is None:
            return Announcement(self.text("review.why.other", name=self.narrator.seat_names[step.seat]))
        return self.coach_line(advice)

    def coach_line(self, advice: Advice) -> Announcement:
        """The coach's words, private to the coached seat when its better card was another of its hand."""
        better = advice.better
        held = better is not None and better.card != advice.played.card
        return Announcement(self.advice_text(advice), private_to=advice.seat if held else None)

    def advice_text(self, advice: Advice) -> str:
        return advice_line(advice, self.narrator.cards, self.text, self.narrator.rules.fifteen)

    def next_deal(self, index: int) -> int | None:
        """The stop of the next deal's opening after ``index``, or None in the last deal."""
        return next((i for i in range(index + 1, len(self.items)) if not self.items[i].is_play), None)
