"""How a match seed becomes its deals: the two shuffles, and the online seed's commitment.

Pure: the seed is given, never drawn here (the program draws it with ``secrets``). A seed's
type says which shuffle it deals with, so a record keeps the shuffle that made it:

- ``int``: shuffle 1, the replay shuffle of every version before this one: deal ``n`` is
  ``random.Random(seed * 1_000_003 + n)``, a Mersenne Twister. Short seeds typed with
  ``--seed N``, and every record written before shuffle 2, deal with it.
- ``bytes`` of ``SEED_BYTES``: shuffle 2. Every draw reads a byte stream of HMAC-SHA256 keyed
  by the seed, one stream per label and number; a number below ``n + 1`` is one byte masked to
  the bits ``n`` needs, retried while above ``n`` (no modulo bias). ``docs/fairness.md`` writes
  it down byte by byte, with a test vector.

``match_seed`` makes an online match's seed from the server's seed and each human seat's
contribution; ``commitment`` is what the server sends before the match starts.
"""
from __future__ import annotations

import hashlib
import hmac
import random
import re
from collections.abc import Callable, Iterator, Sequence

from .cards import ALL_CARDS, Card

Seed = int | bytes
SHUFFLE_REPLAY = 1
SHUFFLE_HMAC = 2
SHUFFLES = (SHUFFLE_REPLAY, SHUFFLE_HMAC)
SEED_BYTES = 32  # 256 bits
SEED_HEX = SEED_BYTES * 2

# The labels of shuffle 2's streams: each random choice has its own, so no two ever share bytes.
DEAL = b"deal"                  # number: the deal number, from 1
FIRST_DEALER = b"first dealer"  # number: 0
COMPUTER = b"computer"          # number: the seat of a computer player (its tie-breaks and samples)
COVER = b"cover"                # number: the seat a computer plays for a human who left (online)
COMPUTER_NAMES = b"computer names"  # number: 0; the names of the computers filling free online seats
DAILY = b"daily deal"            # number: the deal of the day, from 1; keyed by the day seed (net.protocol.daily_seeds)
MATCH_SEED = b"scopa match seed"


def shuffle_of(seed: Seed) -> int:
    """The shuffle a seed deals with: 1 for a whole number, 2 for 32 bytes."""
    if isinstance(seed, bytes):
        if len(seed) != SEED_BYTES:
            raise ValueError(f"A shuffle 2 seed is {SEED_BYTES} bytes, not {len(seed)}.")
        return SHUFFLE_HMAC
    if isinstance(seed, int) and not isinstance(seed, bool):
        return SHUFFLE_REPLAY
    raise TypeError("A seed is a whole number or 32 bytes.")


def is_seed(value: object) -> bool:
    return (isinstance(value, int) and not isinstance(value, bool)) or (
        isinstance(value, bytes) and len(value) == SEED_BYTES)


def stream(seed: bytes, label: bytes, number: int) -> Iterator[int]:
    """The bytes of shuffle 2 for one label and number: HMAC-SHA256(key=seed, message=label, a
    zero byte, number as 4 bytes big-endian, block counter as 4 bytes big-endian), the blocks
    for counter 0, 1, 2 ... one after the other."""
    head = label + b"\x00" + number.to_bytes(4, "big")
    counter = 0
    while True:
        yield from hmac.digest(seed, head + counter.to_bytes(4, "big"), "sha256")
        counter += 1


def below(source: Iterator[int], n: int) -> int:
    """A number from 0 to ``n`` (at most 255), uniform: one byte masked to the bits ``n``
    needs, drawn again while it is above ``n``."""
    mask = (1 << n.bit_length()) - 1
    while True:
        value = next(source) & mask
        if value <= n:
            return value


def shuffle_deck(source: Iterator[int], deck: list[Card]) -> None:
    """Fisher-Yates from the last card down: position ``i`` swaps with ``below(i)``."""
    for i in range(len(deck) - 1, 0, -1):
        j = below(source, i)
        deck[i], deck[j] = deck[j], deck[i]


def deck_orders(seed: Seed, deal_number: int) -> Iterator[list[Card]]:
    """The deck of a deal, then the deck again each time it must be shuffled once more (kings
    on the table): each order is the one before shuffled again, from the same generator."""
    deck = list(ALL_CARDS)
    if isinstance(seed, bytes):
        source = stream(seed, DEAL, deal_number)
        while True:
            shuffle_deck(source, deck)
            yield deck
    rng = random.Random(seed * 1_000_003 + deal_number)
    while True:
        _replay_shuffle(rng.getrandbits, deck)
        yield deck


# For each position i of the 40-card deck from the last down: the bits needed for a number 0..i.
_SHUFFLE_STEPS = tuple((i, (i + 1).bit_length()) for i in range(39, 0, -1))


def _replay_shuffle(getrandbits: Callable[[int], int], deck: list[Card]) -> None:
    """``random.Random.shuffle`` for 40 cards, step for step, so a seed deals what it always dealt.

    Spelt out because the library version makes two Python calls per card (shuffle ->
    _randbelow -> getrandbits); this draws the very same numbers from the generator.
    """
    for i, bits in _SHUFFLE_STEPS:
        j = getrandbits(bits)
        while j > i:  # rejection sampling, as _randbelow_with_getrandbits does
            j = getrandbits(bits)
        deck[i], deck[j] = deck[j], deck[i]


def first_dealer(seed: Seed, players: int) -> int:
    """The seat that deals first, drawn from the seed."""
    if isinstance(seed, bytes):
        return below(stream(seed, FIRST_DEALER, 0), players - 1)
    return random.Random(seed * 1_000_003).randrange(players)


def derived_number(seed: bytes, label: bytes, number: int) -> int:
    """A 256-bit whole number for a random generator of its own (a computer player's): the first
    32 bytes of the label's stream, big-endian."""
    source = stream(seed, label, number)
    return int.from_bytes(bytes(next(source) for _ in range(32)), "big")


def commitment(server_seed: bytes) -> bytes:
    """What the server sends before the match: SHA-256 of its seed."""
    return hashlib.sha256(server_seed).digest()


SHARE_LABEL = b"scopa share"


def share_of(nonce: bytes, heard: bytes) -> bytes:
    """A client's share, bound to the commitment it heard: SHA-256 of "scopa share", a zero byte,
    its 32 secret bytes (``nonce``) and that commitment. Told the nonce at the end, every other
    client checks the share was made under the commitment it heard itself: a seat promised
    another seed is then heard by every seat, not by its own alone (docs/fairness.md)."""
    return hashlib.sha256(SHARE_LABEL + b"\x00" + nonce + heard).digest()


def match_seed(server_seed: bytes, contributions: Sequence[tuple[int, bytes]]) -> bytes:
    """An online match's seed: SHA-256 of "scopa match seed", a zero byte, the server's seed,
    then for each contributing seat in seat order its seat number as one byte and its 32 bytes."""
    if len(server_seed) != SEED_BYTES:
        raise ValueError("The server's seed is 32 bytes.")
    data = MATCH_SEED + b"\x00" + server_seed
    for seat, given in sorted(contributions):
        if len(given) != SEED_BYTES or not 0 <= seat < 256:
            raise ValueError("A contribution is 32 bytes from a seat.")
        data += bytes([seat]) + given
    return hashlib.sha256(data).digest()


def seed_number(seed: Seed) -> int:
    """A seed as one whole number (a shuffle 2 seed read big-endian), for what only needs a
    number from it (the coach's samples, which need no secrecy after the match)."""
    return seed if isinstance(seed, int) else int.from_bytes(seed, "big")


def seed_text(seed: Seed) -> str:
    """How a seed is written: a whole number in digits, or 64 lowercase hex digits."""
    return str(seed) if isinstance(seed, int) else seed.hex()


def seed_json(seed: Seed) -> int | str:
    """A seed as a match file writes it: the number itself, or its 64 hex digits."""
    return seed if isinstance(seed, int) else seed.hex()


_HEX_SEPARATORS = re.compile(r"[\s:-]+")


def parse_seed(text: str) -> Seed:
    """A seed as a player types it: digits only (a short seed, shuffle 1), or 64 hex digits,
    spaces, dashes and colons between them allowed (shuffle 2). ``ValueError`` otherwise."""
    cleaned = _HEX_SEPARATORS.sub("", str(text)).lower()
    if cleaned.isascii() and cleaned.isdigit() and len(cleaned) < SEED_HEX:
        return int(cleaned)
    if len(cleaned) == SEED_HEX and all(c in "0123456789abcdef" for c in cleaned):
        return bytes.fromhex(cleaned)
    raise ValueError("A seed is a whole number, or 64 hex digits.")
