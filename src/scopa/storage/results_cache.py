"""``results-cache.json``: figures worked out from the results log, kept so they are not worked out again.

The results log is the player's data; this file is not. Each entry is keyed by a digest of one
logged result's whole content (``result_key``), so an entry belongs to that result whatever its
place in the log, and an edited or replaced result simply has no entry. The file can be deleted
at any time: it is made again from the log. One that is missing, unreadable, of another
version or laid out wrongly reads as empty (``read_cache``), silently; nothing here ever
writes ``results.json``.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
from dataclasses import fields
from typing import Any

from .atomic import atomic_write_text
from .codec import SaveFileError
from .files import read_text_file, resolve_data_dir
from .results import MatchResult

CACHE_NAME = "results-cache.json"
CACHE_FORMAT = "scopa-results-cache"
CACHE_MAX_BYTES = 20_000_000  # as the log's cap; a real entry is a few hundred bytes


def result_key(result: MatchResult) -> str:
    """A digest of everything a logged result holds: the same text for the same result only."""
    every = {f.name: getattr(result, f.name) for f in fields(MatchResult)}  # not asdict: it copies the match
    if every["seat"] is None:
        del every["seat"]  # added later: the results from before keep the digests they had
    text = json.dumps(every, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def read_cache(data_dir: str | os.PathLike[str] | None, version: int) -> dict[str, Any]:
    """The entries of the cache written with ``version``; empty when there is none fit to read."""
    path = resolve_data_dir(data_dir) / CACHE_NAME
    try:
        data = json.loads(read_text_file(path, CACHE_MAX_BYTES))
    except (SaveFileError, ValueError, RecursionError):
        return {}
    if not isinstance(data, dict) or data.get("format") != CACHE_FORMAT or data.get("version") != version:
        return {}
    entries = data.get("entries")
    return entries if isinstance(entries, dict) else {}


def write_cache(data_dir: str | os.PathLike[str] | None, version: int, entries: dict[str, Any]) -> None:
    """Write the cache atomically; a folder that cannot be written is left as it is (the cache
    only saves time, so the figures are worked out again next time)."""
    path = resolve_data_dir(data_dir) / CACHE_NAME
    text = json.dumps({"format": CACHE_FORMAT, "version": version, "entries": entries},
                      ensure_ascii=False, separators=(",", ":"))
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, text + "\n")
