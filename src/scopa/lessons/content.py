"""The lessons: the eight of Scopa, then one each for Scopa a 15 and Cirulla (9 and 10).

A lesson is a list of steps. A ``Practice`` step is a position to play from; its ``judge``
looks at what happened and returns the feedback lines. A ``Quiz`` step asks one question with
numbered answers. Every word comes from the lesson catalogue and every card name from the
game's own ``CardNames``, so lessons follow the player's language and card naming.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine import (
    SETTEBELLO,
    Card,
    CardsCaptured,
    DealScore,
    Event,
    GameState,
    LeftoversTaken,
    Move,
    Rules,
    Scopa,
    Suit,
    new_deal,
    parse_cards,
    primiera,
    score_deal,
)
from ..narration import Narrator
from .catalogue import LessonText
from .positions import LESSON_RULES, position

LESSON_COUNT = 8  # the Scopa course; the lessons of the other games follow it
LESSON_TOTAL = 10


class Ctx:
    """Words for one lesson run: the lesson catalogue, the game's narrator and card names."""

    def __init__(self, text: LessonText, narrator: Narrator) -> None:
        self.t = text
        self.narrator = narrator
        self.names = narrator.cards
        self.opponent = narrator.seat_names[1]

    def lines(self, key: str, **params: object) -> list[str]:
        """A catalogue entry of several lines (separated by newlines in the catalogue)."""
        return self.t(key, **(self.defaults() | params)).split("\n")  # a lesson may name its own jack

    def say(self, key: str, **params: object) -> str:
        return self.t(key, **(self.defaults() | params))

    def defaults(self) -> dict[str, str]:
        """Words any lesson text may use: the opponent, face-card ranks and suit names."""
        n = self.names
        return {"opponent": self.opponent, "jack": n.rank_word(Card.parse("JH")),
                "queen": n.rank_word(Card.parse("QH")), "king": n.rank_word(Card.parse("KH")),
                "coins": n.suit_word(Suit.COINS), "cups": n.suit_word(Suit.CUPS),
                "swords": n.suit_word(Suit.SWORDS), "batons": n.suit_word(Suit.BATONS)}

    def right(self, key: str, **params: object) -> list[str]:
        lines = self.lines(key, **params)
        return [f"{self.t('lesson.right')} {lines[0]}", *lines[1:]]

    def wrong(self, key: str, **params: object) -> list[str]:
        lines = self.lines(key, **params)
        return [f"{self.t('lesson.wrong')} {lines[0]}", *lines[1:]]

    def the(self, card: Card | str) -> str:
        return self.names.the(_card(card))

    def name(self, card: Card | str) -> str:
        return self.names.name(_card(card))

    def plain_name(self, card: Card | str) -> str:
        """"seven of diamonds" even for the settebello (whose usual name is its nickname)."""
        card = _card(card)
        return self.narrator.messages("card.name", rank=self.names.rank_word(card),
                                      suit=self.names.suit_word(card.suit))

    def cards(self, cards: Sequence[Card | str]) -> str:
        return self.names.list([_card(c) for c in cards], article=True)

    def rank(self, card: Card | str) -> str:
        return self.names.rank_word(_card(card))


def _card(card: Card | str) -> Card:
    return Card.parse(card) if isinstance(card, str) else card


@dataclass(frozen=True)
class Outcome:
    """What happened in a practice step: the learner's moves, all events, and the final position."""

    start: GameState
    moves: tuple[Move, ...]
    events: tuple[Event, ...]
    final: GameState

    @property
    def first(self) -> Move:
        return self.moves[0]

    def leftovers(self) -> LeftoversTaken | None:
        return next((e for e in self.events if isinstance(e, LeftoversTaken)), None)

    def scopa(self) -> bool:
        return any(isinstance(e, Scopa) and e.seat == 0 for e in self.events)


Lines = Callable[[Ctx], list[str]]
Judge = Callable[[Ctx, Outcome], tuple[bool, list[str]]]


def _no_lines(ctx: Ctx) -> list[str]:
    return []


@dataclass(frozen=True)
class Practice:
    """Play from a prepared position. ``start(attempt)`` gives the position and its opening events."""

    lines: Lines
    goal: Callable[[Ctx], str]
    start: Callable[[int], tuple[GameState, list[Event]]]
    judge: Judge
    to_the_end: bool = False      # play on until the deal ends (else stop after the learner's move)
    whole_deal: bool = False      # a real deal: hints each turn, game keys for last plays, score, pile
    opponent: str | None = None   # a computer level for seat 1; None plays its first legal move
    recent: int = 0               # how many of the latest plays to announce before the position


@dataclass(frozen=True)
class Quiz:
    """One question with numbered answers; ``feedback(ctx, index)`` explains the chosen one."""

    lines: Lines
    question: Callable[[Ctx], str]
    answers: Callable[[Ctx], list[str]]
    right: int
    feedback: Callable[[Ctx, int], list[str]]


Step = Practice | Quiz


@dataclass(frozen=True)
class Lesson:
    number: int
    steps: tuple[Step, ...] = field(default_factory=tuple)
    rules: Rules = LESSON_RULES  # the game it teaches, which the lesson's table plays and says

    @property
    def title_key(self) -> str:
        return f"l{self.number}.title"

    @property
    def last_of_its_course(self) -> bool:
        """The last Scopa lesson, or the last lesson of all: N has no next lesson to go to."""
        return self.number in (LESSON_COUNT, LESSON_TOTAL)


def _fixed(state_fn: Callable[[], GameState]) -> Callable[[int], tuple[GameState, list[Event]]]:
    return lambda attempt: (state_fn(), [])


# Lesson 1: the deck, suits and capture values -------------------------------------------------

def _l1_intro(ctx: Ctx) -> list[str]:
    n = ctx.names
    suits = n.messages("list.and", items=n.messages("list.sep").join(n.suit_word(s) for s in range(3)),
                       last=n.suit_word(3))
    return ctx.lines("l1.intro", suits=suits, settebello=ctx.plain_name(SETTEBELLO))


def _l1_quiz_feedback(ctx: Ctx, index: int) -> list[str]:
    return ctx.right("l1.quiz.right") if index == 2 else ctx.wrong("l1.quiz.wrong")


L1_POSITION: dict[str, Any] = {"hand": "KS JH QC", "table": "AH 2S 3C AD", "other_hand": "5H 6D 7C"}


def _l1_judge(ctx: Ctx, out: Outcome) -> tuple[bool, list[str]]:
    card = out.first.card
    if card.rank == "J":
        return True, ctx.right("l1.play.right", card=ctx.the(card))
    return False, ctx.wrong("l1.play.wrong", card=ctx.the(card), value=card.value)


LESSON_1 = Lesson(1, (
    Quiz(_l1_intro, lambda ctx: ctx.say("l1.quiz.question"),
         lambda ctx: [ctx.say("number.8"), ctx.say("number.9"), ctx.say("number.10")], 2, _l1_quiz_feedback),
    Practice(lambda ctx: ctx.lines("l1.play.intro"), lambda ctx: ctx.say("l1.play.goal"),
             _fixed(lambda: position(**L1_POSITION)), _l1_judge),
))


# Lesson 2: taking an equal card -----------------------------------------------------------------

L2_POSITION: dict[str, Any] = {"hand": "7S 3H 5C", "table": "4C 7H 2H 7D", "other_hand": "KH 6S JC"}


def _l2_judge(ctx: Ctx, out: Outcome) -> tuple[bool, list[str]]:
    move = out.first
    if SETTEBELLO in move.capture:
        return True, ctx.right("l2.right", card=ctx.the(move.card))
    if move.capture:
        return False, ctx.wrong("l2.wrong.other_seven", taken=ctx.the(move.capture[0]))
    return False, ctx.wrong("l2.wrong.stays", card=ctx.the(move.card), value=move.card.value)


LESSON_2 = Lesson(2, (
    Practice(lambda ctx: ctx.lines("l2.intro"), lambda ctx: ctx.say("l2.goal"),
             _fixed(lambda: position(**L2_POSITION)), _l2_judge),
))


# Lesson 3: a single card beats a sum ------------------------------------------------------------

L3_POSITION: dict[str, Any] = {"hand": "5D 7S QH", "table": "5H 2S 3C KC", "other_hand": "AS 4D 6H"}


def _l3_judge(ctx: Ctx, out: Outcome) -> tuple[bool, list[str]]:
    move = out.first
    if len(move.capture) == 2:
        return True, ctx.right("l3.right", card=ctx.the(move.card), cards=ctx.cards(move.capture))
    if move.card.rank == "5":
        return False, ctx.wrong("l3.wrong.five", pair=ctx.cards(["2S", "3C"]), five=ctx.the("5H"))
    return False, ctx.wrong("l3.wrong.stays", card=ctx.the(move.card), value=move.card.value)


LESSON_3 = Lesson(3, (
    Practice(lambda ctx: ctx.lines("l3.intro"), lambda ctx: ctx.say("l3.goal"),
             _fixed(lambda: position(**L3_POSITION)), _l3_judge),
))


# Lesson 4: choosing among sums ------------------------------------------------------------------

L4_POSITION: dict[str, Any] = {"hand": "JH 4S 6C", "table": "AH 2S 5C 7D", "other_hand": "3H 6D KS"}


def _l4_judge(ctx: Ctx, out: Outcome) -> tuple[bool, list[str]]:
    move = out.first
    if SETTEBELLO in move.capture:
        return True, ctx.right("l4.right", card=ctx.the(move.card))
    if move.card.rank == "J":
        return False, ctx.wrong("l4.wrong.three", card=ctx.the(move.card))
    if move.capture:
        return False, ctx.wrong("l4.wrong.other", card=ctx.the(move.card), cards=ctx.cards(move.capture),
                                jack=ctx.the("JH"))
    return False, ctx.wrong("l4.wrong.stays", card=ctx.the(move.card), value=move.card.value, jack=ctx.the("JH"))


LESSON_4 = Lesson(4, (
    Practice(lambda ctx: ctx.lines("l4.intro"), lambda ctx: ctx.say("l4.goal"),
             _fixed(lambda: position(**L4_POSITION)), _l4_judge),
))


# Lesson 5: the scopa, and why the last play of a deal is not one ---------------------------------

def l5_sweep_position() -> GameState:
    """Robin led and took a five with a five; the ace, two and three are left for your six."""
    return position("6C 3D 4H", "2H 3S AC", "KH 7S", you_lead=False, history=[(1, "5C", "5D")],
                    pile_other="5C 5D", last_capturer=1)


def l5_last_play_position() -> GameState:
    """The very last card of the deal: your six takes the ace, the two and the three."""
    return position("6D", "AS 2C 3H", "", round_number=6, you_lead=False,
                    history=[(1, "QD", ""), (0, "QC", "QD"), (1, "JD", ""), (0, "JC", "JD"), (1, "5S", "5H")],
                    pile_you="QD QC JD JC", pile_other="5S 5H", last_capturer=1)


def _l5_judge(ctx: Ctx, out: Outcome) -> tuple[bool, list[str]]:
    move = out.first
    if out.scopa():
        return True, ctx.right("l5.sweep.right", card=ctx.the(move.card))
    left = [c for c in out.start.table if c not in move.capture]
    if move.capture:
        return False, ctx.wrong("l5.sweep.wrong", card=ctx.the(move.card), cards=ctx.cards(move.capture),
                                left=ctx.cards(left))
    return False, ctx.wrong("l5.sweep.stays", card=ctx.the(move.card))


def _l5_quiz_feedback(ctx: Ctx, index: int) -> list[str]:
    return ctx.right("l5.quiz.right") if index == 1 else ctx.wrong("l5.quiz.wrong")


def _l5_last_judge(ctx: Ctx, out: Outcome) -> tuple[bool, list[str]]:
    return True, ctx.right("l5.last.right", card=ctx.the(out.first.card))


LESSON_5 = Lesson(5, (
    Practice(lambda ctx: ctx.lines("l5.sweep.intro"), lambda ctx: ctx.say("l5.sweep.goal"),
             _fixed(l5_sweep_position), _l5_judge, recent=1),
    Quiz(lambda ctx: ctx.lines("l5.quiz.intro"), lambda ctx: ctx.say("l5.quiz.question", card=ctx.the("6D")),
         lambda ctx: [ctx.say("answer.yes"), ctx.say("answer.no")], 1, _l5_quiz_feedback),
    Practice(lambda ctx: ctx.lines("l5.last.intro"), lambda ctx: ctx.say("l5.last.goal"),
             _fixed(l5_last_play_position), _l5_last_judge),
))


# Lesson 6: the end of a deal, leftovers go to the last capture -----------------------------------

def l6_position() -> GameState:
    """The last round: you hold a four and a six, Robin one card; the table has 4, 2 and a queen."""
    return position("4C 6S", "4H 2D QS", "2C", round_number=6, you_lead=False,
                    history=[(1, "KD", ""), (0, "KH", "KD"), (1, "3S", "3H")], pile_you="KD KH",
                    pile_other="3S 3H", last_capturer=1)


def _l6_judge(ctx: Ctx, out: Outcome) -> tuple[bool, list[str]]:
    leftovers = out.leftovers()
    if leftovers is not None and leftovers.seat == 0:
        return True, ctx.right("l6.right", six=ctx.the("6S"))
    return False, ctx.wrong("l6.wrong", six=ctx.the("6S"), two=ctx.the("2C"))


LESSON_6 = Lesson(6, (
    Practice(lambda ctx: ctx.lines("l6.intro"), lambda ctx: ctx.say("l6.goal"), _fixed(l6_position), _l6_judge,
             to_the_end=True),
))


# Lesson 7: scoring, primiera step by step ---------------------------------------------------------

L7_PILE_YOU = parse_cards("AC 2C 3C 4C 5C 6C 7C JC QC KC 7D 2D 3D JD QD 6H 2H 3H AS 5S KS 4S")
L7_PILE_OTHER = parse_cards("AD 4D 5D 6D KD AH 4H 5H 7H JH QH KH 2S 3S 6S 7S JS QS")
L7_SCOPE = (0, 2)
L7_SWORDS = parse_cards("KS 5S AS")  # the answers offered: the ace is right


def l7_score() -> DealScore:
    return score_deal((L7_PILE_YOU, L7_PILE_OTHER), L7_SCOPE, LESSON_RULES)


def _coins(pile: Sequence[Card]) -> int:
    return sum(1 for c in pile if c.suit == Suit.COINS)


def _your_swords() -> list[Card]:
    return sorted((c for c in L7_PILE_YOU if c.suit == Suit.SWORDS), key=lambda c: c.value)


def _l7_piles(ctx: Ctx) -> list[str]:
    return ctx.lines("l7.coins.intro", cards=len(L7_PILE_YOU), coins_count=_coins(L7_PILE_YOU),
                     other_cards=len(L7_PILE_OTHER), other_coins=_coins(L7_PILE_OTHER), scope=L7_SCOPE[1])


def _l7_best(ctx: Ctx, pile: Sequence[Card]) -> str:
    best = primiera(pile).cards
    parts = [ctx.say("l7.card_value", card=ctx.the(c), value=c.primiera_value) for c in best]
    return ctx.names.messages("list.and", items=ctx.names.messages("list.sep").join(parts[:-1]), last=parts[-1])


def _l7_primiera_lines(ctx: Ctx) -> list[str]:
    mine, other = primiera(L7_PILE_YOU), primiera(L7_PILE_OTHER)
    missing = ctx.names.suit_word(other.missing[0])
    return ctx.lines("l7.primiera.totals", mine=_l7_best(ctx, L7_PILE_YOU), total=mine.total,
                     theirs=_l7_best(ctx, L7_PILE_OTHER), missing=missing)


def _l7_coins_feedback(ctx: Ctx, index: int) -> list[str]:
    count = _coins(L7_PILE_YOU)
    return ctx.right("l7.coins.right", count=count) if index == 2 else ctx.wrong("l7.coins.wrong", count=count)


def _l7_swords_feedback(ctx: Ctx, index: int) -> list[str]:
    if L7_SWORDS[index].rank == "A":
        return ctx.right("l7.swords.right")
    return ctx.wrong("l7.swords.wrong")


def _l7_primiera_feedback(ctx: Ctx, index: int) -> list[str]:
    missing = ctx.names.suit_word(primiera(L7_PILE_OTHER).missing[0])
    return ctx.right("l7.primiera.right", missing=missing) if index == 0 else ctx.wrong("l7.primiera.wrong",
                                                                                       missing=missing)


def _l7_total_feedback(ctx: Ctx, index: int) -> list[str]:
    score = l7_score()
    mine, theirs = score.totals
    lines = (ctx.right("l7.total.right", total=mine, other_total=theirs) if index == 1
             else ctx.wrong("l7.total.wrong", total=mine, other_total=theirs))
    lines.append(ctx.say("l7.total.sheet"))
    lines += [a.text for a in ctx.narrator.score_lines(1, score, score.totals, asked=True)]  # the teaching, whole
    return lines


def _whom(ctx: Ctx) -> list[str]:
    return [ctx.say("answer.you"), ctx.opponent, ctx.say("answer.nobody")]


LESSON_7 = Lesson(7, (
    Quiz(_l7_piles, lambda ctx: ctx.say("l7.coins.question"), _whom, 2, _l7_coins_feedback),
    Quiz(lambda ctx: ctx.lines("l7.swords.intro", cards=len(L7_PILE_YOU)),
         lambda ctx: ctx.say("l7.swords.question", cards=ctx.cards(_your_swords())),
         lambda ctx: [ctx.the(c) for c in L7_SWORDS], [c.rank for c in L7_SWORDS].index("A"), _l7_swords_feedback),
    Quiz(_l7_primiera_lines, lambda ctx: ctx.say("l7.primiera.question"), _whom, 0, _l7_primiera_feedback),
    Quiz(lambda ctx: ctx.lines("l7.total.intro", scope=L7_SCOPE[1]), lambda ctx: ctx.say("l7.total.question"),
         lambda ctx: [ctx.say("number.2"), ctx.say("number.3"), ctx.say("number.4")], 1, _l7_total_feedback),
))


# Lesson 8: a whole deal against an easy opponent, with hints -------------------------------------

L8_SEEDS = (808, 1808, 2808, 3808, 4808, 5808, 6808, 7808)


def l8_start(attempt: int) -> tuple[GameState, list[Event]]:
    """A fresh single deal for each attempt; you lead (Robin deals)."""
    return new_deal(LESSON_RULES, seed=L8_SEEDS[attempt % len(L8_SEEDS)], dealer=1)


def _l8_judge(ctx: Ctx, out: Outcome) -> tuple[bool, list[str]]:
    state = out.final
    score = state.deal_score
    if score is None:  # the lesson's deal is always played to its end
        raise RuntimeError("the lesson's deal ended without a score")
    lines = [a.text for a in ctx.narrator.score_lines(state.deal_number, score, state.match_scores)]
    lines.append(ctx.narrator.match_result(state.winner, state.match_scores))
    lines += ctx.lines("l8.end")
    return True, lines


LESSON_8 = Lesson(8, (
    Practice(lambda ctx: ctx.lines("l8.intro"), lambda ctx: ctx.say("l8.goal"), l8_start, _l8_judge,
             to_the_end=True, whole_deal=True, opponent="easy"),
))

LESSONS: tuple[Lesson, ...] = (LESSON_1, LESSON_2, LESSON_3, LESSON_4, LESSON_5, LESSON_6, LESSON_7, LESSON_8)


# Lesson 9: Scopa a 15, taking what makes fifteen --------------------------------------------------

FIFTEEN_RULES = Rules.scopa_15(target=None)
L9_POSITION = {"hand": "7S 3H QC", "table": "JD 5C 7D 2S", "other_hand": "KH 6S 4D", "rules": FIFTEEN_RULES}


def _l9_judge(ctx: Ctx, out: Outcome) -> tuple[bool, list[str]]:
    move = out.first
    if SETTEBELLO in move.capture:
        return True, ctx.right("l9.right", card=ctx.the(move.card), cards=ctx.cards(move.capture))
    if move.card.rank == "7":
        return False, ctx.wrong("l9.wrong.seven", card=ctx.the(move.card), cards=ctx.cards(move.capture),
                                three=ctx.the("3H"))
    return False, ctx.wrong("l9.wrong.other", card=ctx.the(move.card), three=ctx.the("3H"))


def _l9_quiz_feedback(ctx: Ctx, index: int) -> list[str]:
    return ctx.right("l9.quiz.right") if index == 1 else ctx.wrong("l9.quiz.wrong")


LESSON_9 = Lesson(9, (
    Practice(lambda ctx: ctx.lines("l9.intro"), lambda ctx: ctx.say("l9.goal"),
             _fixed(lambda: position(**L9_POSITION)), _l9_judge),  # type: ignore[arg-type]
    Quiz(lambda ctx: ctx.lines("l9.quiz.intro"),
         lambda ctx: ctx.say("l9.quiz.question", cards=ctx.cards(["AC", "2S", "4H", "JD"])),
         lambda ctx: [ctx.say("l9.quiz.nothing"), ctx.say("l9.quiz.dealer"), ctx.say("l9.quiz.redeal")], 1,
         _l9_quiz_feedback),
), FIFTEEN_RULES)


# Lesson 10: Cirulla, the ace, the equal card or fifteen, the hand bonuses, grande and piccola -------

CIRULLA_RULES = Rules.cirulla(target=None)
L10_ACE = {"hand": "AC 5H KD", "table": "7D 3S JC 2H", "other_hand": "4S 6C QH", "rules": CIRULLA_RULES}
L10_SEVEN = {"hand": "7S 4C 6H", "table": "3H 5S 6D 7D", "other_hand": "2C KS QD", "rules": CIRULLA_RULES}


def _l10_ace_judge(ctx: Ctx, out: Outcome) -> tuple[bool, list[str]]:
    move = out.first
    whole = any(isinstance(e, CardsCaptured) and e.whole_table for e in out.events)
    if whole:
        return True, ctx.right("l10.ace.right")
    return False, ctx.wrong("l10.ace.wrong", card=ctx.the(move.card), ace=ctx.the("AC"))


def _l10_seven_judge(ctx: Ctx, out: Outcome) -> tuple[bool, list[str]]:
    move = out.first
    if SETTEBELLO in move.capture:
        return True, ctx.right("l10.seven.right")
    if move.card.rank == "7":
        return False, ctx.wrong("l10.seven.fifteen", cards=ctx.cards(move.capture))
    return False, ctx.wrong("l10.seven.other", card=ctx.the(move.card), seven=ctx.the("7S"))


def _l10_quiz_feedback(ctx: Ctx, index: int) -> list[str]:
    return ctx.right("l10.quiz.right") if index == 1 else ctx.wrong("l10.quiz.wrong")


def _l10_runs_feedback(ctx: Ctx, index: int) -> list[str]:
    return ctx.right("l10.runs.right") if index == 1 else ctx.wrong("l10.runs.wrong")


LESSON_10 = Lesson(10, (
    Practice(lambda ctx: ctx.lines("l10.ace.intro"), lambda ctx: ctx.say("l10.ace.goal"),
             _fixed(lambda: position(**L10_ACE)), _l10_ace_judge),  # type: ignore[arg-type]
    Practice(lambda ctx: ctx.lines("l10.seven.intro"), lambda ctx: ctx.say("l10.seven.goal"),
             _fixed(lambda: position(**L10_SEVEN)), _l10_seven_judge),  # type: ignore[arg-type]
    Quiz(lambda ctx: ctx.lines("l10.quiz.intro", matta=ctx.plain_name("7H")),
         lambda ctx: ctx.say("l10.quiz.question", cards=ctx.cards(["AH", "2S", "6C"])),
         lambda ctx: [ctx.say("l10.quiz.nothing"), ctx.say("l10.quiz.cirulla"), ctx.say("l10.quiz.tris")], 1,
         _l10_quiz_feedback),
    Quiz(lambda ctx: ctx.lines("l10.runs.intro"), lambda ctx: ctx.say("l10.runs.question"),
         lambda ctx: [ctx.say("l10.runs.small"), ctx.say("l10.runs.right_answer"), ctx.say("l10.runs.big")], 1,
         _l10_runs_feedback),
), CIRULLA_RULES)

VARIANT_LESSONS: tuple[Lesson, ...] = (LESSON_9, LESSON_10)
ALL_LESSONS: tuple[Lesson, ...] = LESSONS + VARIANT_LESSONS
