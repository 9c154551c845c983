"""Running lessons at the terminal: announce, read one key, give feedback; never punish.

Interaction follows the game: every line is printed and (voice on) spoken through the
program's announcer, number keys pick cards and answers, Enter confirms, Escape backs out,
R repeats and X stops speech at every prompt. A wrong move is explained and the step can be
tried again at once ("Enter to try again"), or the learner moves on ("N for the next lesson").

Hands: a prepared position is the same for every learner and its goal names its cards, so its
hand is read aloud. The whole deal of the last lesson is dealt at random, a hand like a match's:
with the voice on the learner gets the match's hand warning (once a session), and the hand,
the card being chosen, the hints and the chances missed are private lines the voice keeps
silent when the learner said so.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from ..console.announcer import ask_hands_aloud
from ..console.choosing import MoveChooser
from ..console.keys import typed_number
from ..console.terminal import ENTER, ESCAPE, question
from ..engine import SETTEBELLO, Card, Event, GameState, MatchWon, Move, PlayerView, Rules, Scopa
from ..narration import Announcement, Narrator, Verbosity, capitalised
from .catalogue import LessonText
from .content import LESSON_COUNT, LESSONS, VARIANT_LESSONS, Ctx, Lesson, Outcome, Practice, Quiz
from .positions import LESSON_RULES

if TYPE_CHECKING:
    from ..console.app import Program

StepResult = Literal["right", "wrong", "leave"]
LessonResult = Literal["next", "leave"]


class Leave(Exception):
    """The learner pressed Escape to leave the lesson."""


def _lesson(number: int) -> Lesson:
    """Lesson ``number`` (from 1): Scopa's eight, then those of the other games."""
    return (LESSONS + VARIANT_LESSONS)[number - 1]


def lesson_narrator(program: Program, text: LessonText, rules: Rules = LESSON_RULES) -> Narrator:
    """The game's narrator for the lesson table: you, and the lesson partner.

    The game's lines (plays, the table, the hand, the prompts' key hints, the score sheet)
    follow the player's verbosity as in a match; the lesson's own lines (what it teaches, the
    goal, the feedback, the hints) come from the lesson catalogue and are always said whole."""
    names = [_message(program, "seat.you", "You"), text("opponent")]
    verbosity: Verbosity = getattr(program, "verbosity", "full")
    try:
        return Narrator(names, rules, you=0, lang=program.lang, naming=program.naming, verbosity=verbosity)
    except (OSError, KeyError, ValueError):  # the game has no catalogue for this language yet
        return Narrator(names, rules, you=0, lang="en", naming=program.naming, verbosity=verbosity)


def _message(program: Program, key: str, default: str) -> str:
    try:
        return program.messages(key)
    except (KeyError, AttributeError):
        return default


def command_of(token: str) -> tuple[str, str] | None:
    """The game's key for a command, so lessons and matches share their keys."""
    try:
        from ..console.keys import command_of as game_command
    except ImportError:  # pragma: no cover - the console is part of the program
        return None
    return game_command(token)


class LessonSession:
    """Runs lessons for one program: from the Lessons menu or from ``scopa --lesson N``."""

    def __init__(self, program: Program, standalone: bool = False) -> None:
        self.program = program
        self.standalone = standalone
        self.attempts: dict[int, int] = defaultdict(int)  # per lesson: a new deal for each try of lesson 8
        self.text = LessonText(program.lang)
        self.ctx: Ctx | None = None  # the running lesson's, set as each lesson starts
        self.goal = ""
        self.opening_said = False
        self.state: GameState | None = None
        self.step: Practice | Quiz | None = None
        self.hint: tuple[Move, Announcement | None] | None = None
        self.hands_aloud: bool | None = None  # the answer to the hand warning, once asked
        self._hand_heard: tuple[Card, ...] | None = None  # the hand read at the learner's last turn
        self._answer: str | None = None  # a number typed at Next? after a wrong move, for the try it starts

    # Output and input -------------------------------------------------------------------------
    @property
    def context(self) -> Ctx:
        """The running lesson's context: only asked for while a lesson runs."""
        if self.ctx is None:
            raise RuntimeError("no lesson is running")
        return self.ctx

    def say(self, *items: str | Announcement) -> None:
        self.program.announcer.say([i for i in items if i])

    def say_lines(self, lines: Sequence[str | Announcement]) -> None:
        if lines:
            self.program.announcer.say(list(lines))

    def read(self, prompt: str) -> str:
        if self._answer is not None:  # a number typed at Next? after a wrong move: the step's next answer
            answer, self._answer = self._answer, None
            return answer
        return self.program.input.read(prompt + " ")

    def t(self, key: str, **params: object) -> str:
        return self.text(key, **params)

    # Lessons -----------------------------------------------------------------------------------
    def run_from(self, number: int) -> None:
        """Run lesson ``number``, then the next ones for as long as the learner presses N.

        What is said between two prompts goes out in one write, with the prompt (as in a match:
        ``console.terminal.held``); a lesson's computer plays at once, so nothing waits long."""
        with self.program.output.held():
            self._run_from(number)

    def _run_from(self, number: int) -> None:
        while True:
            result = self.run_lesson(number)
            if result == "leave":
                return
            if _lesson(number).last_of_its_course:
                self.say(self.t("lesson.last"))
                return
            number += 1

    def run_lesson(self, number: int) -> LessonResult:
        lesson = _lesson(number)
        self.text = LessonText(self.program.lang)  # the language may have changed in the settings
        self.ctx = Ctx(self.text, lesson_narrator(self.program, self.text, lesson.rules))
        try:
            return self._run_lesson(lesson)
        except Leave:
            self.say(self.t("lesson.left"))
            return "leave"

    def _run_lesson(self, lesson: Lesson) -> LessonResult:
        while True:
            if lesson.number > LESSON_COUNT:  # a lesson of another game: named with it
                game = self.t(f"game.{lesson.rules.variant.value}")
                self.say(self.t("lesson.heading.game", n=lesson.number, game=game,
                                title=capitalised(self.t(lesson.title_key))))
            else:
                self.say(self.t("lesson.heading", n=lesson.number, count=LESSON_COUNT,
                                title=capitalised(self.t(lesson.title_key))))
            index, first_time = 0, True
            while index < len(lesson.steps):
                step = lesson.steps[index]
                result = self.run_step(step, lesson, first_time)
                if result == "right":
                    index, first_time = index + 1, True
                    if index < len(lesson.steps):
                        self._pause()
                    continue
                choice = self._after("lesson.after_wrong", last=lesson.last_of_its_course)
                if choice != "again":
                    return choice
                first_time = False
            self.mark_done(lesson.number)
            self.say(self.t("lesson.done", n=lesson.number))
            choice = self._after("lesson.after_done", last=lesson.last_of_its_course)
            if choice != "again":
                return choice

    def mark_done(self, number: int) -> None:
        program = self.program
        done = set(program.settings.lessons_done)
        if number in done:
            return
        program.settings = program.settings.with_changes(lessons_done=tuple(sorted(done | {number})))
        program._save_settings(quiet=True)

    def _after(self, key: str, last: bool = False) -> Literal["again", "next", "leave"]:
        """After a wrong move or a finished lesson: Enter again, N next lesson, Escape out.

        After the last lesson N is not offered (pressed anyway, it says that was the last)."""
        line = self.t(key + (".last" if last else "") + (".standalone" if self.standalone else ""))
        self.say(line)
        while True:
            token = self.read(self.t("prompt.after"))
            if token == ENTER:
                return "again"
            if token.lower() in {"n", "next"}:
                return "next"
            if token == ESCAPE:
                return "leave"
            if key == "lesson.after_wrong" and typed_number(token) is not None:
                self._answer = token  # not "Enter to try again" once more: the try itself
                return "again"
            if not self._basic_command(token):
                self.say(line)

    def _pause(self) -> None:
        self.say(self.t("lesson.go_on"))
        while True:
            token = self.read(self.t("prompt.go_on"))
            if token == ENTER or token.lower() in {"n", "next"}:
                return
            if token == ESCAPE:
                raise Leave
            if not self._basic_command(token):
                self.say(self.t("lesson.go_on"))

    def _basic_command(self, token: str) -> bool:
        """Repeat, stop speech and help work at every lesson prompt."""
        command = command_of(token)
        name = command[0] if command else token.lower()
        if name == "repeat":
            self.program.announcer.repeat()
        elif name == "stop":
            self.program.announcer.stop()
        elif name == "help":
            self.say_lines(self.t("lesson.help").split("\n"))
        elif name == "voice" and hasattr(self.program, "toggle_voice"):
            self.say(self.program.toggle_voice())
        elif name == "rules" and (reader := self.program.rules_reader) is not None:
            reader()
        elif name == "settings" and hasattr(self.program, "settings_menu"):
            self.program.settings_menu()
            if self.ctx is not None:  # the verbosity may have changed: the lesson's table follows it at once
                self.ctx.narrator.verbosity = getattr(self.program, "verbosity", self.ctx.narrator.verbosity)
        elif name in ("verbose", "full", "short") and self.ctx is not None:  # as in a match: this lesson only
            narrator = self.ctx.narrator
            narrator.verbosity = "short" if name == "short" else "full"
            self.say(narrator.messages(f"verbosity.{narrator.verbosity}"))
        elif name == "quit":
            raise Leave
        else:
            return False
        return True

    def run_step(self, step: Practice | Quiz, lesson: Lesson, first_time: bool) -> StepResult:
        self.step = step
        if isinstance(step, Quiz):
            return self._run_quiz(step, first_time)
        return self._run_practice(step, lesson, first_time)

    # A question ---------------------------------------------------------------------------------
    def _run_quiz(self, quiz: Quiz, first_time: bool) -> StepResult:
        ctx = self.context
        answers = quiz.answers(ctx)
        listing = ", ".join(self.t("answer.item", number=i + 1, answer=a) for i, a in enumerate(answers))
        question = [quiz.question(ctx), listing + "."]
        self.goal = " ".join(question)
        self.say_lines((quiz.lines(ctx) if first_time else []) + question)
        while True:
            token = self.read(self.t("prompt.answer"))
            number = typed_number(token)
            if number is not None and 1 <= number <= len(answers):
                index = number - 1
                self.say_lines(quiz.feedback(ctx, index))
                return "right" if index == quiz.right else "wrong"
            if token == ESCAPE:
                raise Leave
            name = (command_of(token) or (token.lower(), ""))[0]
            if name in {"g", "goal"}:
                self.say_lines(question)
            elif not self._basic_command(token):
                self.say(self.t("answer.invalid", count=len(answers)))

    # A position to play from ----------------------------------------------------------------------
    def _run_practice(self, step: Practice, lesson: Lesson, first_time: bool) -> StepResult:
        ctx = self.context
        narrator = ctx.narrator
        attempt = self.attempts[lesson.number]
        self.attempts[lesson.number] += 1
        state, opening = step.start(attempt)
        start = state
        opponent = None
        if step.opponent:
            from ..players import make_player
            opponent = make_player(step.opponent, seed=attempt)
        self.goal = self.t("lesson.goal", goal=step.goal(ctx))
        self.say_lines((step.lines(ctx) if first_time else []) + [self.goal])
        self.say_lines(narrator.events(opening))
        self.opening_said = bool(opening)
        if step.recent:
            self.say_lines(narrator.last_plays(state.history, step.recent))
        moves: list[Move] = []
        events: list[Event] = []
        first_turn = True
        while not state.is_deal_over:
            self.state = state
            if state.to_move == 0:
                move = self._learner_turn(state, step, first_turn)
                first_turn = False
                moves.append(move)
            else:
                view = state.view(state.to_move)
                move = opponent.choose_move(view) if opponent else state.legal_moves()[0]
            before = state
            state, new_events = state.apply(move)
            self.state = state  # the position now: the card played has left the hand
            events += new_events
            self.say_lines(narrator.events([e for e in new_events if not isinstance(e, MatchWon)],
                                           own_move_known=before.to_move == 0))
            if before.to_move == 0:
                if step.whole_deal:
                    self._missed_chance(before, move, new_events)
                if not step.to_the_end:
                    break
        self.state = state
        right, lines = step.judge(ctx, Outcome(start, tuple(moves), tuple(events), state))
        self.say_lines(lines)
        return "right" if right else "wrong"

    def _learner_turn(self, state: GameState, step: Practice, first_turn: bool) -> Move:
        narrator = self.context.narrator
        view = state.view(0)
        self._hands_heard(step)
        lines: list[str | Announcement] = [] if first_turn else [narrator.turn_line(0)]
        if not (first_turn and self.opening_said):  # the deal's opening has just said the table
            lines.append(narrator.table_text(view.table))
        if first_turn or not narrator.hand_known(self._hand_heard, view.hand):
            lines.append(self._hand(view))
        self._hand_heard = view.hand
        self.hint = None
        if step.whole_deal:
            self.hint = self._hint(view)
            if self.hint is not None:
                lines.append(self._hint_line(self.hint))
        self.say_lines(lines)
        return self._choose_move(state, step)

    def _hands_heard(self, step: Practice) -> None:
        """Whether the voice reads the learner's hand: always in a prepared position; in a deal
        dealt at random, as the learner answers the hand warning (asked once, with the voice on)."""
        announcer = self.program.announcer
        announcer.open_seat = lambda: 0  # the learner's hand is open throughout
        if not step.whole_deal:
            announcer.speak_hands = True
            return
        voice_on = getattr(self.program, "voice_is_on", lambda: False)()
        if self.hands_aloud is None and voice_on:
            narrator = self.context.narrator
            self.hands_aloud = ask_hands_aloud(announcer, lambda key: self.read(narrator.messages(key)),
                                               narrator.messages)
        announcer.speak_hands = bool(self.hands_aloud)

    def _hand(self, view: PlayerView) -> Announcement:
        return self.context.narrator.hand(view)

    def _hint(self, view: PlayerView) -> tuple[Move, Announcement | None] | None:
        """The game's suggestion (the hard level's move) and its reason in the game's words."""
        narrator = self.context.narrator
        try:
            suggestion = getattr(narrator, "suggestion", None)
            if suggestion is not None:
                move, reason = suggestion(view)
            else:
                from ..players import suggest_move
                move, reason = suggest_move(view)[0], None
        except Exception:  # noqa: BLE001 - a hint is a help, never a reason to stop the lesson
            return None
        return (move, reason) if move in view.legal_moves() else None

    def _hint_line(self, hint: tuple[Move, Announcement | None]) -> Announcement:
        """The hint, private to the learner: it names a card of the hand."""
        move, reason = hint
        if reason is not None:
            return reason.reworded(self.t("hint.reason", reason=reason.text))
        names = self.context.names
        if move.capture:
            return Announcement(self.t("hint.capture", card=names.the(move.card),
                                       cards=names.list(move.capture, article=True)), 0)
        return Announcement(self.t("hint.stays", card=names.the(move.card)), 0)

    def _missed_chance(self, before: GameState, move: Move, events: list[Event]) -> None:
        """Explain, without blame, a scopa or the settebello the hint would have taken.

        Private to the learner: the card of the hint is still in the hand."""
        if self.hint is None or self.hint[0] == move:
            return
        hint = self.hint[0]
        names = self.context.names
        _, hint_events = before.apply(hint)
        if any(isinstance(e, Scopa) for e in hint_events) and not any(isinstance(e, Scopa) for e in events):
            self.say(Announcement(self.t("hint.missed.scopa", card=names.the(hint.card)), 0))
        elif SETTEBELLO in hint.capture and SETTEBELLO not in move.capture:
            self.say(Announcement(self.t("hint.missed.settebello", card=names.the(hint.card)), 0))

    # Choosing a card and a capture: the game's own keys ----------------------------------------------
    def _choose_move(self, state: GameState, step: Practice) -> Move:
        """The match's Card?, Capture? and Play? prompts; Escape at Card? leaves the lesson."""
        narrator = self.context.narrator
        chooser = MoveChooser(lambda key: self.read(narrator.messages(key)), self.say, narrator,
                              lambda token: self._play_command(token, state, step), escape=self._leave,
                              question=lambda: question(self.program.input))
        return chooser.move(state.view(0))

    @staticmethod
    def _leave() -> None:
        raise Leave

    def _play_command(self, token: str, state: GameState, step: Practice) -> bool:
        """The game's keys that make sense in a lesson: table, hand, goal, hint, and in lesson 8 the rest."""
        narrator = self.context.narrator
        command = command_of(token)
        name = command[0] if command else token.lower()
        view = state.view(0)
        if name in {"g", "goal"}:
            self.say(self.goal)
        elif name == "table":
            self.say(narrator.table_text(state.table))
        elif name == "hand":
            self.say(self._hand(view))
        elif name == "suggest":
            self.say(self._hint_line(self.hint) if self.hint is not None else self.t("hint.goal_is_hint"))
        elif name == "last" and step.whole_deal:
            self.say_lines(narrator.last_plays(state.history, 2 * state.rules.players))
        elif name == "score" and step.whole_deal:
            self.say_lines(narrator.running_score(view))
        elif name == "pile" and step.whole_deal:
            self.say(narrator.pile(view, view.side))
        else:
            return self._basic_command(token)
        return True
