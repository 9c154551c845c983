"""Transcripts: a match as plain text, one announcement a line, beside its save.

``saves/<id>.transcript.txt`` is written as the match goes: each line is appended and flushed
at once, so a crash loses at most the line being written. What goes in is decided by the
console (``MatchConsole``): only lines already said, so a hand is there only once its owner
had it open, and in pass-and-play no hand at all unless the players chose to keep them.

A transcript is removed with its saved match when the player deletes the match. When a match
ends its save is removed but its transcript is kept, to be read afterwards (``scopa
--transcript last``, the main menu); of those, the ``KEEP_FINISHED`` newest are kept and
older ones are removed when the saves are listed.
"""
from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import TextIO

TRANSCRIPT_SUFFIX = ".transcript.txt"
KEEP_FINISHED = 5  # transcripts of matches no longer saved (finished) kept for reading
MAX_LINE = 2000  # characters of one line written; a longer one is cut (no line of the game is)


def transcript_path(folder: Path, match_id: str) -> Path:
    return folder / f"{match_id}{TRANSCRIPT_SUFFIX}"


class Transcript:
    """Appends lines to one match's transcript; a file that cannot be written is left alone
    (the transcript is a help, never a reason for the game to stop)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file: TextIO | None = None
        self.failed = False

    def write(self, line: str) -> None:
        if self.failed:
            return
        try:
            if self._file is None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._file = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 - kept open for the match
            self._file.write(line.replace("\n", " ")[:MAX_LINE] + "\n")
            self._file.flush()
        except (OSError, ValueError):
            self.failed = True
            self.close()

    def close(self) -> None:
        if self._file is not None:
            with contextlib.suppress(OSError, ValueError):
                self._file.close()
            self._file = None


def transcripts(folder: Path) -> list[Path]:
    """Every transcript in the folder, the most recently written first."""
    try:
        found = [path for path in folder.iterdir() if path.name.endswith(TRANSCRIPT_SUFFIX) and path.is_file()]
    except OSError:
        return []

    def written(path: Path) -> float:
        try:
            return path.stat().st_mtime
        except OSError:
            return 0.0
    return sorted(found, key=written, reverse=True)


def latest_transcript(folder: Path) -> Path | None:
    found = transcripts(folder)
    return found[0] if found else None


def remove_transcript(folder: Path, match_id: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(transcript_path(folder, match_id))


def prune_finished(folder: Path, saved_ids: set[str], keep: int = KEEP_FINISHED) -> None:
    """Remove the transcripts of matches no longer saved, all but the ``keep`` newest."""
    finished = [path for path in transcripts(folder) if path.name[:-len(TRANSCRIPT_SUFFIX)] not in saved_ids]
    for path in finished[keep:]:
        with contextlib.suppress(OSError):
            path.unlink()
