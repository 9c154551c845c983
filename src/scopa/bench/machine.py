"""What the benchmarks read of the machine, where the system tells it (Linux and macOS; Windows
has no load average and no clock ticks to read: a bench there prints ``nan`` for them)."""
from __future__ import annotations

import os
import sys


def load_average() -> float:
    """The last minute's load average; nan where the system keeps none (Windows)."""
    if sys.platform == "win32":
        return float("nan")
    else:  # noqa: RET505  (else: each platform's mypy skips the other branch, not calls it unreachable)
        return os.getloadavg()[0]


def clock_ticks() -> int:
    """Clock ticks a second, the unit of /proc's CPU times (Linux)."""
    if sys.platform == "win32":
        return 100
    else:  # noqa: RET505
        return os.sysconf("SC_CLK_TCK")
