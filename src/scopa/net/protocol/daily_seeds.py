"""The daily deal's seeds, as both sides of the wire must agree on them (docs/fairness.md).

Deal ``n`` of a day is dealt from ``deal_seed(day seed, n)``, with no contribution from any client:
the server deals from it (``net.server.daily``), and a client, once the day seed is revealed,
checks with ``day_checks`` that every deal it played was the day's.
"""
from __future__ import annotations

from ...engine.shuffle import DAILY, SEED_BYTES, commitment, derived_number
from .wire import MAX_DAILY_DEALS


def deal_seed(day_seed: bytes, deal: int) -> bytes:
    """The server seed of the day's deal ``deal`` (from 1): the day seed's own labelled stream."""
    return derived_number(day_seed, DAILY, deal).to_bytes(SEED_BYTES, "big")


def day_checks(day_seed: bytes, heard: bytes, deals_heard: dict[int, bytes]) -> bool:
    """A revealed day seed against what a client heard: the day's commitment, and each deal's
    (the SHA-256 of the server seed it was dealt from). True: every deal played was the day's."""
    if commitment(day_seed) != heard:
        return False
    return all(1 <= n <= MAX_DAILY_DEALS and commitment(deal_seed(day_seed, n)) == given
               for n, given in deals_heard.items())
