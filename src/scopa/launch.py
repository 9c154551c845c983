"""The installed ``scopa`` command (``[project.scripts]``): ``scopa.startup`` first, then the program."""
from collections.abc import Callable  # loaded already: Python's start-up imports it

from . import startup  # first: from here on an early Ctrl-C is one line, not a traceback


def _load_main() -> Callable[[], int]:
    from .__main__ import main
    return main


def run() -> int:
    return startup.run(_load_main)
