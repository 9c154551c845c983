"""The program's side of saving: the saved matches, autosave after every turn, export, import, results.

Wraps ``scopa.storage`` so that the program only ever gets back plain lines of text to
announce; no storage error can end a match. One match at a time is open (``open`` or
``start_new``): it is locked against other copies of the game and saved to its own file;
every other saved match is left as it is.
"""
from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from ..match import MatchRecord
from ..narration import CardNames, Messages, Naming, os_problem
from ..storage import (
    MatchLock,
    SavedMatch,
    SavedMatches,
    SaveFileError,
    SaveLockedError,
    SetAside,
    export_match,
    import_match,
    record_result,
    user_path,
)
from ..storage.atomic import write_target
from ..storage.transcripts import Transcript, latest_transcript, transcript_path


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Persistence:
    """The saved matches of one data folder, and the one open in this copy of the game.

    ``messages`` gives the catalogue of the player's language when a line is needed, and
    ``naming`` the player's card names ("french" or "napoletane") for a line that names cards
    (the program points both at its own, which follow the settings). ``today`` gives the local
    date, for "last played today"."""

    def __init__(self, data_dir: Path | None = None, clock: Callable[[], str] = _now,
                 messages: Callable[[], Messages] | None = None,
                 naming: Callable[[], Naming] | None = None, today: Callable[[], date] = date.today) -> None:
        self.store = SavedMatches(data_dir)
        self.data_dir = data_dir
        self.clock = clock
        self.today = today
        self.messages = messages or (lambda: Messages("en"))
        self.naming: Callable[[], Naming] = naming or (lambda: "french")
        self.failing: str | None = None  # why the last save failed; None when it worked
        self._open: MatchLock | None = None  # the match this copy plays, locked
        self._notices: list[str] = []  # what was set aside, still to be said

    # The saved matches -----------------------------------------------------------------
    def saved_matches(self) -> list[SavedMatch]:
        """Every saved match, most recently played first; what was set aside is said by ``notices``.

        A finished match still saved (the game was stopped between logging its result and
        removing it) has its result logged, once, and is removed."""
        listing = self.store.list()
        self._notices += [self._set_aside_line(item) for item in listing.set_aside]
        saves = []
        for saved in listing.saves:
            if saved.record.state.is_match_over and not saved.locked:
                self._log_result(saved.record, saved.match_id)
                with contextlib.suppress(SaveLockedError, OSError):
                    self.store.delete(saved.match_id, keep_transcript=True)
                continue
            saves.append(saved)
        return saves

    def notices(self) -> list[str]:
        """The lines not yet said about saves set aside, each saying where the file is kept."""
        lines, self._notices = self._notices, []
        return lines

    def _set_aside_line(self, item: SetAside) -> str:
        m = self.messages()
        problem = self._line(item.error)
        if item.kept is None:
            return m("saves.unreadable_left", problem=problem, path=item.path)
        return m("saves.set_aside", problem=problem, path=item.kept)

    def latest(self) -> tuple[SavedMatch | None, str | None]:
        """What ``--resume`` resumes: the most recently played match no other copy has open,
        or ``None`` and the line saying why there is none."""
        saves = self.saved_matches()
        free = [saved for saved in saves if not saved.locked]
        if free:
            return free[0], None
        return None, self.messages()("saves.all_locked" if saves else "saves.none")

    def open(self, saved: SavedMatch) -> tuple[MatchRecord | None, str | None]:
        """Play this saved match: lock it and read it again (another copy may have played on since
        it was listed). The match, or ``None`` and the line saying why it cannot be played."""
        try:
            lock = self.store.lock(saved.match_id)
        except SaveLockedError:
            return None, self.messages()("saves.locked")
        try:
            record = self.store.load(saved.match_id)
        except SaveFileError as error:
            lock.release()
            return None, self._line(error.with_heading("storage.heading.save_unreadable"))
        self.close()
        self._open = lock
        self.failing = None
        return record, None

    def close(self) -> None:
        """Let go of the open match (it stays saved), so another copy may open it."""
        if self._open is not None:
            self._open.release()
            self._open = None

    def start_new(self, record: MatchRecord) -> str | None:
        """Save a new or imported match beside the others and open it; a one-line problem, or None.

        The saved matches are looked at first, so anything unreadable is set aside and said now."""
        self.saved_matches()
        self.close()
        self._open = self.store.create(record)
        return self._write(record)

    def delete(self, saved: SavedMatch) -> str:
        """Delete a saved match (the player has confirmed); the line to say."""
        m = self.messages()
        try:
            self.store.delete(saved.match_id)
        except SaveLockedError:
            return m("saves.locked")
        except OSError as error:
            return m("saves.delete_failed", problem=os_problem(error, m))
        return m("saves.deleted")

    def describe(self, saved: SavedMatch) -> str:
        """One menu line: who plays, the score, the deal, when last played, and a lock if any."""
        m = self.messages()
        record = saved.record
        names = CardNames(m, self.naming())
        humans = record.human_seats
        if len(humans) == 1:
            you = humans[0]
            side = record.rules.side_of(you)
            partners = [s.name for n, s in enumerate(record.seats) if n != you and record.rules.side_of(n) == side]
            others = [s.name for n, s in enumerate(record.seats) if record.rules.side_of(n) != side]
            players = (m("saves.with_against", partner=names.join(partners), names=names.join(others)) if partners
                       else m("saves.against", names=names.join(others)))
        else:
            players = names.join(seat.name for seat in record.seats)
        scores = m("saves.score_sep").join(str(score) for score in record.state.match_scores)
        line = m("saves.item", players=players, score=scores, deal=record.state.deal_number,
                 when=self._when(saved.played))
        return m("saves.item_locked", item=line) if saved.locked else line

    def _when(self, played: float) -> str:
        m = self.messages()
        day = datetime.fromtimestamp(played).date()
        today = self.today()
        if day == today:
            return m("saves.today")
        if day == today - timedelta(days=1):
            return m("saves.yesterday")
        month = m(f"month.{day.month}")
        if day.year == today.year:
            return m("saves.on_day", day=day.day, month=month)
        return m("saves.on_date", day=day.day, month=month, year=day.year)

    # The open match --------------------------------------------------------------------
    def _not_saved(self, error: SaveFileError | OSError) -> str:
        m = self.messages()
        problem = self._line(error) if isinstance(error, SaveFileError) else os_problem(error, m)
        return m("save.failed", folder=self.store.folder, problem=problem.rstrip("."))  # the sentence gives the stop

    def save(self, record: MatchRecord) -> str | None:
        """Save now; a one-line problem, or None. With no match open, one is opened for it."""
        if self._open is None:
            self._open = self.store.create(record)
        return self._write(record)

    def _write(self, record: MatchRecord) -> str | None:
        """Save and remember why it failed (``failing``), or that it worked."""
        assert self._open is not None
        try:
            self.store.save(self._open.match_id, record)
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

    def transcript(self) -> Transcript | None:
        """The writer of the open match's transcript, beside its save; None with no match open."""
        if self._open is None:
            return None
        return Transcript(transcript_path(self.store.folder, self._open.match_id))

    def latest_transcript(self) -> Path | None:
        """The transcript written last (of a match saved or finished), or None."""
        return latest_transcript(self.store.folder)

    def older_save_kept(self) -> bool:
        """Whether the open match has a save on disk (from before the save that just failed)."""
        return self._open is not None and os.path.isfile(self.store.path_of(self._open.match_id))

    def finish(self, record: MatchRecord) -> None:
        """A match ended: log the result (once) and remove its save."""
        match_id = self._open.match_id if self._open is not None else None
        self._log_result(record, match_id)
        if self._open is not None:
            # Its result is logged once whatever happens; the next listing removes it.
            with contextlib.suppress(OSError):
                self.store.delete(self._open.match_id, self._open, keep_transcript=True)
            self._open = None

    def _log_result(self, record: MatchRecord, match_id: str | None) -> None:
        # The results log is a nicety; losing one entry never stops the game.
        with contextlib.suppress(SaveFileError, OSError, ValueError):
            record_result(record, self.clock(), self.data_dir, match_id=match_id)

    # Files ---------------------------------------------------------------------------------
    def export_refusal(self, path: str) -> str | None:
        """Why nothing can be exported to ``path`` (a folder, a pipe, a device), said before the
        warning; None when it may be tried."""
        try:
            write_target(user_path(path))
        except OSError as error:
            m = self.messages()
            return m("export.failed", problem=os_problem(error, m))
        return None

    def export(self, record: MatchRecord, path: str) -> str:
        try:
            written = export_match(record, path, overwrite=True)
        except OSError as error:
            m = self.messages()
            return m("export.failed", problem=os_problem(error, m))
        return self.messages()("export.done", path=file_name(written))  # a name, not a path read slash by slash

    def import_match(self, path: str) -> tuple[MatchRecord | None, str]:
        """Read and check a match file; nothing is saved yet. A finished match is refused."""
        try:
            record = import_match(path)
        except SaveFileError as error:
            return None, self._line(error)
        if record.state.is_match_over:
            return None, self.messages()("import.finished")
        return record, self.messages()("import.done", path=file_name(path))

    def keep(self, record: MatchRecord) -> str:
        """Save an imported match beside the others without opening it; the line to say."""
        lock = self.store.create(record)
        try:
            self.store.save(lock.match_id, record)
        except OSError as error:
            return self._not_saved(error)
        finally:
            lock.release()
        return self.messages()("import.kept")

    def _line(self, error: SaveFileError) -> str:
        """The error as one line in the player's language, cards in the player's names."""
        return error.localised(self.messages(), self.naming())


def file_name(path: str | os.PathLike[str]) -> str:
    """The last part of a path, as the game says it: "match.json", not each folder on the way."""
    return Path(path).name or str(path)
