"""Learn by playing: eight interactive lessons, tips for beginners and the rules reader.

    scopa --lesson 3        # one lesson, then the next ones on N
    Main menu, Lessons      # the list, with the lessons already done marked

The console calls ``scopa.lessons.console.attach(program)``; ``tip_for`` gives a one-line
tip a turn at the beginner and easy levels. The texts live in ``text/`` (English and Italian).
"""
from .catalogue import LessonText, rules_markdown, split_sections
from .content import LESSON_COUNT, LESSON_TOTAL, LESSONS
from .tips import tip_for

__all__ = ["LESSONS", "LESSON_COUNT", "LESSON_TOTAL", "LessonText", "rules_markdown", "split_sections", "tip_for"]
