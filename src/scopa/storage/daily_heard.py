"""What this player heard of each daily deal (``scopa daily``): the day's commitment, and each
deal's, kept in ``daily.json`` in the data folder until the day's seed is revealed and checked.

``{"SERVER": {"DAY": {"commitment": HEX, "deals": {"1": HEX, ...}}}}``; a failure to keep or
read it is silent (the check is then not made, and says nothing false).
"""
from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

from .atomic import atomic_write_text

DAILY_FILE = "daily.json"
MAX_DAYS = 60  # days kept a server (the oldest go first)


def _load(data_dir: Path) -> dict[str, Any]:
    try:
        data = json.loads((Path(data_dir) / DAILY_FILE).read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _keep(data_dir: Path, data: dict[str, Any]) -> None:
    with contextlib.suppress(OSError):
        atomic_write_text(Path(data_dir) / DAILY_FILE, json.dumps(data, separators=(",", ":")))


def remember_day(data_dir: Path, server: str, day: str, commitment: bytes) -> None:
    """The day's commitment heard (kept once: a later one naming another is not taken)."""
    data = _load(data_dir)
    days = data.setdefault(server, {})
    if not isinstance(days, dict):
        days = data[server] = {}
    days.setdefault(day, {"commitment": commitment.hex(), "deals": {}})
    for old in sorted(days)[:-MAX_DAYS]:
        del days[old]
    _keep(data_dir, data)


def remember_deal(data_dir: Path, server: str, day: str, deal: int, commitment: bytes) -> None:
    """The commitment a deal's welcome gave (the SHA-256 of its server seed)."""
    data = _load(data_dir)
    entry = data.get(server, {}).get(day)
    if isinstance(entry, dict) and isinstance(entry.get("deals"), dict):
        entry["deals"].setdefault(str(deal), commitment.hex())
        _keep(data_dir, data)


def heard_days(data_dir: Path, server: str) -> dict[str, tuple[bytes, dict[int, bytes]]]:
    """Each day heard on ``server``: its commitment and each deal's; what cannot be read is left out."""
    found: dict[str, tuple[bytes, dict[int, bytes]]] = {}
    days = _load(data_dir).get(server, {})
    for day, entry in (days.items() if isinstance(days, dict) else ()):
        try:
            found[str(day)] = (bytes.fromhex(entry["commitment"]),
                               {int(n): bytes.fromhex(h) for n, h in entry["deals"].items()})
        except (KeyError, TypeError, ValueError, AttributeError):
            continue
    return found


def forget_day(data_dir: Path, server: str, day: str) -> None:
    data = _load(data_dir)
    days = data.get(server)
    if isinstance(days, dict) and day in days:
        del days[day]
        _keep(data_dir, data)
