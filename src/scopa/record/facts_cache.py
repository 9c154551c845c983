"""The facts of each logged match, kept in ``results-cache.json`` so a match is replayed once.

Working out a match's facts replays it from its seed and checks it (about a hundredth of a
second a match), so a log of two thousand matches took twenty seconds to open Statistics.
``FactsCache.facts`` gives the facts kept for a result (keyed by a digest of its content, see
``storage.results_cache``) and works out, and keeps, those of a result it has none for. What the
result itself says (its date, help, online) and its place in the log are never kept: they come
from the log each time. An entry that does not read back as facts is worked out again, and so
is every entry when ``FACTS_VERSION`` changes.
"""
from __future__ import annotations

import os
from typing import Any

from ..players import LEVELS
from ..storage import MatchResult, SaveFileError
from ..storage.codec import check_seat_name
from ..storage.results_cache import read_cache, result_key, write_cache
from .stats import MIXED, PEOPLE, DealFacts, MatchFacts, match_facts
from .words import VARIANT_ORDER

FACTS_VERSION = 2  # raise it when MatchFacts or the way they are worked out changes
_NOT_FACTS = object()  # an entry that does not read back


class FactsCache:
    """The kept facts of one data folder's log, read when first asked for (a deal that earns
    nothing asks for none); ``save`` writes back what changed."""

    def __init__(self, data_dir: str | os.PathLike[str] | None) -> None:
        self.data_dir = data_dir
        self._kept: dict[str, Any] | None = None
        self.seen: dict[str, Any] = {}  # the entries of the results looked at, fresh or kept
        self.changed = False

    @property
    def kept(self) -> dict[str, Any]:
        if self._kept is None:
            self._kept = read_cache(self.data_dir, FACTS_VERSION)
        return self._kept

    def facts(self, result: MatchResult, index: int) -> MatchFacts | None:
        """The facts of the result at ``index`` in the log (None: it cannot be replayed)."""
        key = result_key(result)
        entry = self.kept.get(key, _NOT_FACTS)
        found = _NOT_FACTS if entry is _NOT_FACTS else decoded(entry, result, index)
        if found is _NOT_FACTS:
            found = match_facts(result, index)
            entry = encoded(found)
            self.changed = True
        self.seen[key] = entry
        return found if isinstance(found, MatchFacts) else None

    def save(self, whole_log: bool = False) -> None:
        """Keep what was worked out. ``whole_log``: every result of the log was looked at, so
        entries of results no longer in the log are dropped."""
        if not self.seen and not whole_log:
            return  # nothing looked at: the file need not even be read
        entries = self.seen if whole_log else self.kept | self.seen
        if self.changed or (whole_log and entries.keys() != self.kept.keys()):
            write_cache(self.data_dir, FACTS_VERSION, entries)
            self._kept, self.changed = dict(entries), False


def encoded(facts: MatchFacts | None) -> Any:
    """The facts of a match as JSON, without what its log entry says (None stays None)."""
    if facts is None:
        return None
    deals = [[d.points, d.scope, d.settebello, d.coins, d.primiera, d.cards, d.napola, d.own_scopa,
              d.own_settebello, d.assisted, d.lost_perdere] for d in facts.deals]
    return {"seat": facts.seat, "opponents": list(facts.opponents), "level": facts.level,
            "levels": sorted(facts.levels), "variant": facts.variant, "won": facts.won, "drawn": facts.drawn,
            "scores": list(facts.scores), "deals": deals}


def decoded(entry: Any, result: MatchResult, index: int) -> MatchFacts | object | None:
    """The facts an entry keeps for ``result``, or ``_NOT_FACTS`` when it is not an entry this
    module writes (every field is checked: a name must be one a match file may hold)."""
    if entry is None:
        return None
    fields = {"seat", "opponents", "level", "levels", "variant", "won", "drawn", "scores", "deals"}
    if not isinstance(entry, dict) or set(entry) != fields:
        return _NOT_FACTS
    seat, opponents, levels, scores, deals = (entry[k] for k in ("seat", "opponents", "levels", "scores", "deals"))
    ok = (_whole(seat) and 0 <= seat < 4 and isinstance(opponents, list) and 0 < len(opponents) < 4
          and all(_fit_name(name) for name in opponents)
          and entry["level"] in (*LEVELS, PEOPLE, MIXED) and isinstance(levels, list)
          and all(level in LEVELS for level in levels) and entry["variant"] in VARIANT_ORDER
          and isinstance(entry["won"], bool) and isinstance(entry["drawn"], bool)
          and isinstance(scores, list) and 1 < len(scores) < 4 and all(_whole(s) for s in scores)
          and isinstance(deals, list) and 0 < len(deals) <= 100 and all(_deal(d) for d in deals))
    if not ok:
        return _NOT_FACTS
    return MatchFacts(index, result.when, seat, tuple(opponents), entry["level"], frozenset(levels),
                      entry["variant"], entry["won"], entry["drawn"], tuple(scores), result.assisted,
                      result.online, tuple(DealFacts(*d) for d in deals))


def _deal(value: Any) -> bool:
    return (isinstance(value, list) and len(value) == 11 and _whole(value[0]) and _whole(value[1])
            and all(isinstance(v, bool) for v in value[2:]))


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) < 10_000


def _fit_name(name: Any) -> bool:
    """A name a match file may hold (``storage.codec``'s own check), so it is fit to print."""
    try:
        check_seat_name(name, 1)
    except SaveFileError:
        return False
    return True
