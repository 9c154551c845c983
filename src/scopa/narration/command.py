"""The command that starts this game, as the player can type it where they are.

The game names it when it tells how to come back ("Match saved. Run scopa again to resume
it.", "scopa join K7MQ3T takes it back.") and in the hints of ``--help``. A player who followed
the quick start has no ``scopa`` command: ``python3 dev.py play`` started the game, so that is
what they are told. dev.py says so in ``SCOPA_COMMAND``; otherwise the command is read from how
this process was started: the installed ``scopa`` (by its name when that name finds it, else by
the path typed), or ``python -m scopa`` with the Python that runs it.
"""
from __future__ import annotations

import os
import shlex
import shutil
import sys
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

VARIABLE = "SCOPA_COMMAND"
DEFAULT = "scopa"
_LONGEST = 200  # characters: anything longer in the variable is not a command someone types


@lru_cache(maxsize=1)
def run_command() -> str:
    """The command for this process (read once)."""
    return command_for(os.environ.get(VARIABLE, ""), sys.argv, sys.executable)


def spoken_command() -> str:
    """The command as said aloud and as given to the other players of a room: no folder of this
    machine in it (issue 38: the invite read every folder of the program's path, "slash" between
    them, and another player's machine has other folders anyway). ``python3 dev.py play`` when
    dev.py started the game (the script's name alone), else ``scopa``, unless the command has no
    folder in it, when it is said as it is."""
    return short_command(run_command())


def short_command(command: str) -> str:
    if not any(sep in command for sep in "/\\"):
        return command
    words = command.split()
    script = next((word for word in words if word.strip('"').endswith("dev.py")), None)
    if script is not None and words[0] in ("python3", "python", "py"):
        return f"{words[0]} dev.py play"
    return DEFAULT


def command_for(given: str, argv: Sequence[str], executable: str) -> str:
    """``given`` (dev.py's ``SCOPA_COMMAND``) when it is a plausible command; else the command
    that ``argv`` and ``executable`` show; else plain ``scopa``."""
    given = given.strip()
    if given and len(given) <= _LONGEST and given.isprintable():
        return given
    first = argv[0] if argv else ""
    path = Path(first)
    if path.name == "__main__.py" and path.parent.name == "scopa":  # python -m scopa
        return f"{_typed(executable, ('python3', 'python', Path(executable).name))} -m scopa"
    if path.stem == DEFAULT:  # the installed command, or its path
        return _typed(first, (DEFAULT,))
    return DEFAULT


def _typed(program: str, names: Sequence[str]) -> str:
    """The shortest way to type ``program``: the first of ``names`` that finds this very file
    on the PATH, else its path (quoted if it holds spaces)."""
    for name in names:
        found = shutil.which(name)
        if found and _same(found, program):
            return name
    return shlex.quote(program) if os.name != "nt" else (f'"{program}"' if " " in program else program)


def _same(one: str, other: str) -> bool:
    """The same path, links not followed: a virtual environment's python is a link to the system's,
    yet ``python3`` on the PATH is not the Python that has scopa."""
    return os.path.normcase(os.path.abspath(one)) == os.path.normcase(os.path.abspath(other))
