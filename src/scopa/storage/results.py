"""A small log of finished matches: ``results.json`` in the data folder, written atomically.

The caller passes the date as a string (``when``): nothing here reads the clock.
An unreadable log is kept as ``results.json.bad`` when the next result is recorded.

Fields added after the first version have defaults, so older entries still load: ``online``
(the online client sets it), ``match``, the finished match as a match file holds it (rules,
seats, seed, first dealer, move log, assisted deals, final position), from which
``recorded_match`` rebuilds it exactly for a review, ``match_id``, the saved match it came
from (or the online match: server, room and seed), and ``seat``, the player's own seat where
the match had several people at several machines (an online match; None: the first human
seat, the player of every match played here). A result recorded with a ``match_id`` is
recorded once: a second call for the same match, after a crash between logging it and removing
its save for instance, or an online match told again after a reconnection, changes nothing.
Reading never changes the log.

Adding a result reads the log and writes it anew, so two copies of the game ending a match at
the same moment would each write the log they read and one result would be lost. That step is
taken under a lock (``results.json.lock``, an operating-system lock through ``filelock``, as
saved matches are locked): a second copy waits for the first to finish, then reads the log with
its result. The system lets go of the lock when a process ends in any way, a kill included.
"""
from __future__ import annotations

import contextlib
import itertools
import json
import os
from collections.abc import Iterator
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

import filelock

from ..match import MatchRecord
from .atomic import atomic_write_text
from .codec import SaveFileError, record_from_dict, record_to_dict
from .files import free_bad_name, read_text_file, read_text_lines, resolve_data_dir

RESULTS_NAME = "results.json"
RESULTS_FORMAT = "scopa-results"
RESULTS_VERSION = 1
RESULTS_MAX_BYTES = 20_000_000  # the player's own log of tens of thousands of matches, not an import
LOCK_SUFFIX = ".lock"
LOCK_WAIT = 30.0  # seconds to wait for another copy logging its own result (a full log is written in well under one)


@dataclass(frozen=True)
class MatchResult:
    """One finished match: who played, who won (a side, or ``None`` for a tie) and the scores by side."""

    when: str
    players: tuple[str, ...]
    winner: int | None
    winners: tuple[str, ...]
    scores: tuple[int, ...]
    assisted: bool
    deals: int
    variant: str
    target: int | None
    online: bool = False
    match: dict[str, Any] | None = None  # the match as record_to_dict writes it; None in older entries
    match_id: str | None = None  # the saved match it came from; None in older entries
    seat: int | None = None  # the player's seat in an online match; None: the first human seat

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        if self.seat is None:
            del data["seat"]  # the lines of a match played here stay as they were before online ones
        return data | {"players": list(self.players), "winners": list(self.winners), "scores": list(self.scores)}


def result_of(record: MatchRecord, when: str, online: bool = False, match_id: str | None = None,
              seat: int | None = None) -> MatchResult:
    """The result of a finished match (``ValueError`` while it is still being played, or when
    ``seat``, the player's own, is not a human seat of it)."""
    state = record.state
    if not state.is_match_over:
        raise ValueError("The match is not over yet, so it has no result.")
    if seat is not None and seat not in record.human_seats:
        raise ValueError("The player's seat is not a human seat of the match.")
    if not isinstance(when, str) or not when.strip():
        raise ValueError("A result needs the date it was played, as text.")
    names = tuple(taken.name for taken in record.seats)
    winners = () if state.winner is None else tuple(
        name for number, name in enumerate(names) if record.rules.side_of(number) == state.winner)
    return MatchResult(when, names, state.winner, winners, tuple(state.match_scores), record.assisted,
                       state.deal_number, record.rules.variant.value, record.rules.target, bool(online),
                       record_to_dict(record), match_id, seat)


def recorded_match(result: MatchResult) -> MatchRecord | None:
    """The finished match of a result, replayed from its seed and move log and checked like a
    match file; ``None`` for an older entry without one. ``SaveFileError`` when it does not check."""
    if result.match is None:
        return None
    return record_from_dict(result.match)


def record_result(record: MatchRecord, when: str, data_dir: str | os.PathLike[str] | None = None,
                  online: bool = False, match_id: str | None = None, seat: int | None = None) -> MatchResult:
    """Add a finished match to the results log and return its entry. Disk errors raise ``OSError``.

    With ``match_id`` (the id of its saved match, or of the online match), a match already in
    the log is not added again: its entry there is returned. ``seat``: the player's own seat,
    for a match with people at other machines."""
    result = result_of(record, when, online, match_id, seat)
    path = resolve_data_dir(data_dir) / RESULTS_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    # filelock.Timeout is an OSError too: a copy that waited LOCK_WAIT in vain says the result was not logged.
    with filelock.FileLock(str(path) + LOCK_SUFFIX, timeout=LOCK_WAIT):
        lines: list[str] = []  # the results as their lines: the log is rewritten whole, but read a result at a time
        try:
            for logged in _read_results(path):
                if match_id is not None and logged.match_id == match_id:
                    return logged
                lines.append(_line(logged))
        except SaveFileError:
            os.replace(path, free_bad_name(path))  # keep the unreadable log; start a new one
            lines = []
        lines.append(_line(result))
        atomic_write_text(path, _log_text(lines))
    return result


def _log_text(lines: list[str]) -> str:
    """The log with one compact line per result: a match's move log, indented, took three times the room."""
    entries = ",\n".join(lines)
    return f'{_HEAD}\n{entries}\n{_TAIL}\n'


def _line(result: MatchResult) -> str:
    return json.dumps(result.to_dict(), ensure_ascii=False, separators=(",", ":"))


_HEAD = json.dumps({"format": RESULTS_FORMAT, "version": RESULTS_VERSION})[:-1] + ', "results": ['
_TAIL = "]}"
_JSON_SPACE = " \t\r\n"  # the only white space JSON allows between values


def load_results(data_dir: str | os.PathLike[str] | None = None) -> list[MatchResult]:
    """Every recorded result, oldest first; ``SaveFileError`` if the log cannot be read."""
    return list(iter_results(data_dir))


def iter_results(data_dir: str | os.PathLike[str] | None = None) -> Iterator[MatchResult]:
    """Every recorded result, oldest first, read a line at a time: whatever the log's size, only
    the result being looked at is in memory. ``SaveFileError`` if the log cannot be read, which
    may come after some results were given (a caller that keeps them drops them then)."""
    try:
        yield from _read_results(resolve_data_dir(data_dir) / RESULTS_NAME)
    except SaveFileError as error:
        raise error.with_heading("storage.heading.results_unreadable") from None


def result_at(data_dir: str | os.PathLike[str] | None, index: int) -> MatchResult | None:
    """The result at ``index`` (from 0, oldest first), or None when the log has no such entry."""
    return next(itertools.islice(iter_results(data_dir), index, None), None)


class _OtherLayout(Exception):
    """The log is not laid out a result a line as ``_log_text`` writes it (an older or edited one)."""


def _read_results(path: Path) -> Iterator[MatchResult]:
    """The results a line at a time; a log laid out otherwise, or one with any problem, is read
    whole instead, from its start (the results already given are not given again), so that
    what is read, and the reason a log cannot be, are exactly those of the log as one JSON text."""
    if not os.path.lexists(path):
        return
    given = 0
    try:
        for result in _stream_results(path):
            yield result
            given += 1
    except (_OtherLayout, SaveFileError):
        yield from _whole_results(path)[given:]


def _stream_results(path: Path) -> Iterator[MatchResult]:
    with contextlib.closing(read_text_lines(path, RESULTS_MAX_BYTES)) as lines:
        yield from _entries(lines)


def _entries(lines: Iterator[str]) -> Iterator[MatchResult]:
    if next(lines, "").rstrip("\r\n") != _HEAD:
        raise _OtherLayout
    number, more, ended = 0, True, False  # more: the last entry ended with a comma (or there was none)
    for line in lines:
        text = line.strip(_JSON_SPACE)
        if not text:
            continue
        if ended:
            raise _OtherLayout  # something after the end
        if text == _TAIL:
            if number and more:
                raise _OtherLayout  # a comma, then the end
            ended = True
            continue
        if not more:
            raise _OtherLayout  # two entries with no comma between
        more = text.endswith(",")
        try:
            entry = json.loads(text[:-1] if more else text)
        except (ValueError, RecursionError):
            raise _OtherLayout from None
        number += 1
        yield _result(entry, number)
    if not ended:
        raise _OtherLayout


def _whole_results(path: Path) -> list[MatchResult]:
    try:
        text = read_text_file(path, RESULTS_MAX_BYTES)
    except SaveFileError as error:  # its own reason (not a plain file, not UTF-8), or the cap
        if error.key == "storage.reason.too_large":
            raise SaveFileError("storage.reason.results_too_large", megabytes=RESULTS_MAX_BYTES // 1_000_000) from None
        raise
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise SaveFileError("storage.reason.not_json") from None
    if not isinstance(data, dict) or data.get("format") != RESULTS_FORMAT:
        raise SaveFileError("storage.reason.not_results")
    if data.get("version") != RESULTS_VERSION:
        raise SaveFileError("storage.reason.results_version")
    entries = data.get("results")
    if not isinstance(entries, list):
        raise SaveFileError("storage.reason.no_results_list")
    return [_result(entry, number) for number, entry in enumerate(entries, 1)]


_OPTIONAL = {"online", "match", "match_id", "seat"}  # added later: older entries may lack them


def _result(entry: Any, number: int) -> MatchResult:
    names = {f.name for f in fields(MatchResult)}
    if not isinstance(entry, dict) or not names - _OPTIONAL <= set(entry) <= names:
        raise SaveFileError("storage.reason.result_fields", number=number)
    ok = (isinstance(entry["when"], str) and _strings(entry["players"]) and _strings(entry["winners"])
          and _optional_int(entry["winner"]) and isinstance(entry["scores"], list)
          and all(_optional_int(s) and s is not None for s in entry["scores"])
          and isinstance(entry["assisted"], bool) and _optional_int(entry["deals"]) and entry["deals"] is not None
          and isinstance(entry["variant"], str) and _optional_int(entry["target"])
          and isinstance(entry.get("match_id"), (str, type(None))))
    if not ok:
        raise SaveFileError("storage.reason.result_kind", number=number)
    online, match, match_id, seat = entry.get("online", False), entry.get("match"), entry.get("match_id"), \
        entry.get("seat")
    if not isinstance(online, bool) or not (match is None or isinstance(match, dict)) \
            or not (_optional_int(seat) and (seat is None or 0 <= seat < len(entry["players"]))):
        raise SaveFileError("storage.reason.result_kind", number=number)
    return MatchResult(entry["when"], tuple(entry["players"]), entry["winner"], tuple(entry["winners"]),
                       tuple(entry["scores"]), entry["assisted"], entry["deals"], entry["variant"], entry["target"],
                       online, match, match_id, seat)


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _optional_int(value: Any) -> bool:
    return value is None or (isinstance(value, int) and not isinstance(value, bool))
