"""Disk and file problems in the player's language.

The operating system's own message (``strerror``) follows the system locale, which may not be
the language the game speaks; the common causes of a failed save or export get a catalogue
sentence instead, and anything rarer falls back to the system's words.
"""
from __future__ import annotations

import errno
from collections.abc import Callable

# errno name -> catalogue key; several codes share one plain sentence.
_KEYS = {
    "ENOENT": "problem.no_such_path",
    "EACCES": "problem.not_allowed",
    "EPERM": "problem.not_allowed",
    "ENOSPC": "problem.disk_full",
    "EDQUOT": "problem.quota",
    "EROFS": "problem.read_only",
    "EISDIR": "problem.is_folder",
    "ENOTDIR": "problem.not_folder",
    "EEXIST": "problem.file_in_the_way",  # making a folder whose name a file already has
    "ENAMETOOLONG": "problem.name_too_long",
    "EIO": "problem.disk_error",
    "EINVAL": "problem.bad_name",  # a NUL character, or a name the file system refuses
}
_BY_CODE = {getattr(errno, name): key for name, key in _KEYS.items() if hasattr(errno, name)}


def problem_key(error: OSError) -> str | None:
    """The catalogue key of the phrase for this error, or ``None`` for a rarer one.

    An error with no code of the system may name its own key (``problem``), such as the
    storage's refusal of a pipe or a device."""
    own = getattr(error, "problem", None)
    if isinstance(own, str):
        return own
    return _BY_CODE.get(error.errno) if error.errno is not None else None


def os_problem(error: OSError, messages: Callable[..., str]) -> str:
    """One short phrase, capitalised and without a final stop, for why a file operation failed."""
    key = problem_key(error)
    if key is not None:
        return messages(key)
    return str(error.strerror or error)
