"""Short garbage collections for the room server's loop.

Python's cyclic garbage collector now and then makes a full collection: it walks every object the
process holds, and the loop, every room with it, waits. A thousand rooms hold half a million
objects (each room keeps its recent positions for reconnects): a full collection took 0.25 s on a
quiet core and over a second on a busy one, several times a minute at the pace of people
(docs/architecture.md, "Costs"). ``keep_collections_short`` moves every object alive into the
collector's permanent generation once a second (``gc.freeze``, which costs no walk), so that a
collection walks only what is younger than a second; objects still die as before when nothing
refers to them. Garbage that refers to itself and was moved there is only found by a full walk, so
once every ``FULL_EVERY`` seconds everything is given back to the collector and collected at once:
one pause of that size every ten minutes instead of several a minute.
"""
from __future__ import annotations

import asyncio
import gc
import time

FREEZE_EVERY = 1.0  # seconds between moves of every object alive out of the collector's walks
FULL_EVERY = 600.0  # seconds between full collections of everything


async def keep_collections_short(freeze_every: float = FREEZE_EVERY, full_every: float = FULL_EVERY) -> None:
    """Run until cancelled; at the end everything is given back to the collector."""
    last_full = time.monotonic()
    try:
        while True:
            await asyncio.sleep(freeze_every)
            if time.monotonic() - last_full >= full_every:
                last_full = time.monotonic()
                gc.unfreeze()
                gc.collect()
            gc.freeze()
    finally:
        gc.unfreeze()
