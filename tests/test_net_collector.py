"""The room server's short garbage collections (net.server.collector, docs/architecture.md "Costs"):
what is alive is moved out of the collector's walks, and garbage that refers to itself is still
collected, at the next full collection."""
from __future__ import annotations

import asyncio
import gc
import weakref

from scopa.net.server.collector import keep_collections_short


class Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the collector frees it


def test_objects_alive_leave_the_walks_and_cycles_are_still_collected_at_the_full_collection():
    async def scenario() -> None:
        collecting = asyncio.create_task(keep_collections_short(freeze_every=0.05, full_every=0.6))
        try:
            node = Node()
            gone = weakref.ref(node)
            await asyncio.sleep(0.15)
            assert gc.get_freeze_count() > 0  # moved out of the walks
            del node
            gc.collect()  # a collection walks no frozen object: the cycle stays
            assert gone() is not None
            for _ in range(100):
                await asyncio.sleep(0.02)
                if gone() is None:
                    break
            assert gone() is None  # the full collection found it
        finally:
            collecting.cancel()
            await asyncio.gather(collecting, return_exceptions=True)
        assert gc.get_freeze_count() == 0  # everything given back when it stops

    asyncio.run(scenario())
