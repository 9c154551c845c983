"""A small log of finished matches: ``results.json`` in the data folder, written atomically.

The caller passes the date as a string (``when``): nothing here reads the clock.
An unreadable log is kept as ``results.json.bad`` when the next result is recorded.

Fields added after the first version have defaults, so older entries still load: ``online``
(the online client sets it), ``match``, the finished match as a match file holds it (rules,
seats, seed, first dealer, move log, assisted deals, final position), from which
``recorded_match`` rebuilds it exactly for a review, and ``match_id``, the saved match it came
from. A result recorded with a ``match_id`` is recorded once: a second call for the same match,
after a crash between logging it and removing its save for instance, changes nothing. Reading
never changes the log.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from dataclasses import asdict, dataclass, fields
from typing import Any

from ..match import MatchRecord
from .atomic import atomic_write_text
from .codec import SaveFileError, record_from_dict, record_to_dict
from .files import free_bad_name, read_text_file, resolve_data_dir

RESULTS_NAME = "results.json"
RESULTS_FORMAT = "scopa-results"
RESULTS_VERSION = 1
RESULTS_MAX_BYTES = 20_000_000  # the player's own log of tens of thousands of matches, not an import


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

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        return data | {"players": list(self.players), "winners": list(self.winners), "scores": list(self.scores)}


def result_of(record: MatchRecord, when: str, online: bool = False, match_id: str | None = None) -> MatchResult:
    """The result of a finished match (``ValueError`` while it is still being played)."""
    state = record.state
    if not state.is_match_over:
        raise ValueError("The match is not over yet, so it has no result.")
    if not isinstance(when, str) or not when.strip():
        raise ValueError("A result needs the date it was played, as text.")
    names = tuple(seat.name for seat in record.seats)
    winners = () if state.winner is None else tuple(
        name for seat, name in enumerate(names) if record.rules.side_of(seat) == state.winner)
    return MatchResult(when, names, state.winner, winners, tuple(state.match_scores), record.assisted,
                       state.deal_number, record.rules.variant.value, record.rules.target, bool(online),
                       record_to_dict(record), match_id)


def recorded_match(result: MatchResult) -> MatchRecord | None:
    """The finished match of a result, replayed from its seed and move log and checked like a
    match file; ``None`` for an older entry without one. ``SaveFileError`` when it does not check."""
    if result.match is None:
        return None
    return record_from_dict(result.match)


def record_result(record: MatchRecord, when: str, data_dir: str | os.PathLike[str] | None = None,
                  online: bool = False, match_id: str | None = None) -> MatchResult:
    """Add a finished match to the results log and return its entry. Disk errors raise ``OSError``.

    With ``match_id`` (the id of its saved match), a match already in the log is not added again:
    its entry there is returned."""
    result = result_of(record, when, online, match_id)
    path = resolve_data_dir(data_dir) / RESULTS_NAME
    try:
        results = _read_results(path)
    except SaveFileError:
        os.replace(path, free_bad_name(path))  # keep the unreadable log; start a new one
        results = []
    if match_id is not None:
        logged = next((r for r in results if r.match_id == match_id), None)
        if logged is not None:
            return logged
    results.append(result)
    text = _log_text(results)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, text)
    return result


def _log_text(results: list[MatchResult]) -> str:
    """The log with one compact line per result: a match's move log, indented, took three times the room."""
    head = json.dumps({"format": RESULTS_FORMAT, "version": RESULTS_VERSION})[:-1]
    lines = ",\n".join(json.dumps(r.to_dict(), ensure_ascii=False, separators=(",", ":")) for r in results)
    return f'{head}, "results": [\n{lines}\n]}}\n'


def load_results(data_dir: str | os.PathLike[str] | None = None) -> list[MatchResult]:
    """Every recorded result, oldest first; ``SaveFileError`` if the log cannot be read."""
    try:
        return _read_results(resolve_data_dir(data_dir) / RESULTS_NAME)
    except SaveFileError as error:
        raise error.with_heading("storage.heading.results_unreadable") from None


def _read_results(path: Path) -> list[MatchResult]:
    if not os.path.lexists(path):
        return []
    try:
        data = json.loads(read_text_file(path, RESULTS_MAX_BYTES))
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


_OPTIONAL = {"online", "match", "match_id"}  # added later: older entries may lack them


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
    online, match, match_id = entry.get("online", False), entry.get("match"), entry.get("match_id")
    if not isinstance(online, bool) or not (match is None or isinstance(match, dict)):
        raise SaveFileError("storage.reason.result_kind", number=number)
    return MatchResult(entry["when"], tuple(entry["players"]), entry["winner"], tuple(entry["winners"]),
                       tuple(entry["scores"]), entry["assisted"], entry["deals"], entry["variant"], entry["target"],
                       online, match, match_id)


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _optional_int(value: Any) -> bool:
    return value is None or (isinstance(value, int) and not isinstance(value, bool))
