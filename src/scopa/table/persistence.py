"""The program's side of saving: autosave after every turn, export, import, results.

Wraps ``scopa.storage`` so that the match loop only ever gets back one plain line of
text to announce; no storage error can end a match.
"""
from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

from ..match import MatchRecord
from ..narration import Messages, os_problem
from ..storage import AutosaveBlockedError, AutosaveStore, SaveFileError, export_match, import_match, record_result


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class Persistence:
    """Autosave, export and import for one data folder.

    ``messages`` gives the catalogue of the player's language when a line is needed, and
    ``naming`` the player's card names ("french" or "napoletane") for a line that names cards
    (the program points both at its own, which follow the settings)."""

    def __init__(self, data_dir: Path | None = None, clock: Callable[[], str] = _now,
                 messages: Callable[[], Messages] | None = None,
                 naming: Callable[[], str] | None = None) -> None:
        self.store = AutosaveStore(data_dir)
        self.data_dir = data_dir
        self.clock = clock
        self.messages = messages or (lambda: Messages("en"))
        self.naming = naming or (lambda: "french")
        self.failing: str | None = None  # why the last save failed; None when it worked

    def _not_saved(self, error: SaveFileError | OSError) -> str:
        if isinstance(error, AutosaveBlockedError):
            return self._line(error)  # its own heading already says "Not saved"
        m = self.messages()
        problem = self._line(error) if isinstance(error, SaveFileError) else os_problem(error, m)
        return m("save.failed", problem=problem.rstrip("."))  # the sentence gives the stop

    def load(self) -> tuple[MatchRecord | None, str | None]:
        """The saved match, or the one line saying in the player's language why it cannot be read."""
        result = self.store.load()
        error = self.store.error
        return result.record, None if error is None else self._line(error)

    def save(self, record: MatchRecord) -> str | None:
        """Save now; a one-line problem, or None."""
        return self._write(record, replace_bad=False)

    def _write(self, record: MatchRecord, replace_bad: bool) -> str | None:
        """Save and remember why it failed (``failing``), or that it worked."""
        try:
            self.store.save(record, replace_bad=replace_bad)
        except (SaveFileError, OSError) as error:
            self.failing = self._not_saved(error)
        else:
            self.failing = None
        return self.failing

    def autosave(self, record: MatchRecord) -> str | None:
        """Save after a completed turn; the line to announce, or None.

        A problem is said when it first appears, not after every turn: a folder that cannot be
        written would otherwise be read out at each play. A different problem is said, and so
        is saving working again."""
        before = self.failing
        problem = self.save(record)
        if problem == before:
            return None
        return problem or self.messages()("save.recovered")

    def start_new(self, record: MatchRecord) -> str | None:
        """Save a new or imported match, keeping an unreadable old autosave beside it as .bad."""
        return self._write(record, replace_bad=True)

    def finish(self, record: MatchRecord) -> None:
        """A match ended: log the result and remove its autosave."""
        try:
            record_result(record, self.clock(), self.data_dir)
        except (SaveFileError, OSError):
            pass  # the results log is a nicety; losing one entry never stops the game
        self.store.discard()

    def export(self, record: MatchRecord, path: str) -> str:
        try:
            written = export_match(record, path, overwrite=True)
        except OSError as error:
            m = self.messages()
            return m("export.failed", problem=os_problem(error, m))
        return self.messages()("export.done", path=written)

    def import_match(self, path: str) -> tuple[MatchRecord | None, str]:
        try:
            record = import_match(path)
        except SaveFileError as error:
            return None, self._line(error)
        return record, self.messages()("import.done", path=path)

    def _line(self, error: SaveFileError) -> str:
        """The error as one line in the player's language, cards in the player's names."""
        return error.localised(self.messages(), self.naming())
