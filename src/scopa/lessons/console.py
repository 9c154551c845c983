"""Entry points for the program: the Lessons menu, ``scopa --lesson N`` and the rules reader.

``extras()`` gives the program (``scopa.console.app.Extras``) the four entry points it calls:

- ``lessons_menu(program)``: the Lessons menu (the eight lessons with done marks, and the
  rules); returns ``None`` to go back to the main menu.
- ``run_lesson(program, n)``: ``scopa --lesson N``; runs lesson N (and the next ones on N), then
  returns the exit code: 0, 2 for a lesson that does not exist, 130 for Ctrl-C.
- ``read_rules(program)``: the rules, section by section (the ``rules`` key in a match).
- ``tips.tip_for(view, rules, narrator)``: the beginner's tip for a turn, or None (the program
  asks it only at beginner and easy tables). The console builds on nothing of the lessons, so
  the lessons hand it in.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .catalogue import LessonText
from .content import LESSON_COUNT, LESSON_TOTAL
from .rules_reader import read_rules
from .runner import LessonSession

if TYPE_CHECKING:
    from ..console.app import Extras, Program


def extras() -> Extras:
    """The lessons' entry points, for ``Program(..., extras=extras())``."""
    from ..console.app import Extras
    from . import tips
    return Extras(lessons_menu=lessons_menu, run_lesson=run_lesson, rules_reader=read_rules, tip_source=tips.tip_for)


def lessons_menu(program: Program) -> int | None:
    """The Lessons menu: pick a lesson (Enter: the first not yet done), 9 the rules, Escape back."""
    from ..console.menus import choose
    session = LessonSession(program)
    while True:
        text = LessonText(program.lang)
        done = set(program.settings.lessons_done)
        items = [text("menu.item.done" if n in done else "menu.item", title=text(f"l{n}.title"))
                 for n in range(1, LESSON_COUNT + 1)]
        items.append(text("menu.rules"))
        items.append(text("menu.other_games"))  # the tenth item, key 0: lessons 9 and 10
        first_open = next((n for n in range(1, LESSON_COUNT + 1) if n not in done), 1)
        title = text("menu.title", done=len(done & set(range(1, LESSON_COUNT + 1))), count=LESSON_COUNT)
        index = choose(program.input, program.announcer, title, items, text("prompt.menu"),
                       default=first_open - 1, invalid=text("menu.invalid", count=LESSON_COUNT, rules=LESSON_COUNT + 1))
        if index is None:
            return None
        if index == LESSON_COUNT:
            read_rules(program)
        elif index == LESSON_COUNT + 1:
            game = choose(program.input, program.announcer, text("menu.other_games.title"),
                          [text(f"game.{name}") for name in ("scopa_15", "cirulla")], text("prompt.menu"),
                          default=0)
            if game is not None:
                session.run_from(LESSON_COUNT + 1 + game)
        else:
            session.run_from(index + 1)


def run_lesson(program: Program, number: int) -> int:
    """``scopa --lesson N``: run the lesson, then exit 0; a lesson that does not exist gives 2."""
    from ..console.terminal import InputClosed, Interrupted
    text = LessonText(program.lang)
    if not isinstance(number, int) or not 1 <= number <= LESSON_TOTAL:
        program.output.line(text("lesson.out_of_range", n=number, count=LESSON_TOTAL))
        return 2
    try:
        program.start_voice()
        reason = getattr(program.speaker, "unavailable_reason", None)
        if reason:
            program.say(reason)
        LessonSession(program, standalone=True).run_from(number)
        program.say(text("lesson.bye"))
        return 0
    except InputClosed:
        return 0
    except (Interrupted, KeyboardInterrupt):
        program.say(text("lesson.interrupted"))
        return 130
    finally:
        program.speaker.close()
        close = getattr(program.input, "close", None)
        if close is not None:
            close()
