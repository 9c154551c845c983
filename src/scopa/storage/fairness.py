"""Checking a shuffle: what a seat saw, against what the revealed seed deals (docs/fairness.md).

Pure. An online client notes what its seat saw as the updates come (``observe``: its own hands,
each deal's first table and dealer, every card played), and keeps the commitment the server sent
before the match and its own contribution. Once the match is over, ``check_online`` takes the
record the server sent, with the server's seed revealed in it, and answers one ``Verdict``:

1. the server's seed hashes to the commitment (``commitment``),
2. the seat's own share, which its client always makes, keeps and sends, is the one used for
   it (``contribution``),
3. the shares used come from the human seats only, exactly one each (``computer_share``), and
   are exactly those the room's info showed when the match started (``shares``),
4. each share was made under the commitment this client heard (``other_commitment``): told each
   share's secret with the record, the client checks ``share_of(secret, commitment) == share``,
   so a seat the server promised another seed is heard by every seat; shares told without their
   secret (a client or a server of before) leave that unchecked (``others_unchecked``),
5. the match seed is the hash of the server's seed and the contributions (``seed``),
6. that seed, with the record's moves, deals exactly what the seat saw (``deals``).

A client that does not know its own share (a seat key file kept before shares were kept with
it) checks all the rest and says so (``no_share``): never "fair" for what it could not check.

``check_file`` is ``scopa verify``: a match file (or an online match kept in the results log)
checked the same way, but for the commitment, which only the client that heard it can check.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from ..engine import CardPlayed, CardsDealt, DealStarted, PlayerView, ScopaError
from ..engine.shuffle import commitment as commitment_of
from ..engine.shuffle import match_seed, share_of
from ..match import Fairness, MatchRecord
from .codec import SaveFileError, fairness_from_dict, record_from_dict, record_parts

Verdict = Literal["fair", "commitment", "contribution", "computer_share", "shares", "other_commitment", "seed",
                  "deals", "missing", "no_share", "others_unchecked", "daily_later", "unreadable"]
VERDICTS: tuple[str, ...] = Verdict.__args__  # type: ignore[attr-defined]
# What a seat saw: ("dealer", deal, seat), ("table", deal, cards), ("hand", deal, round, cards),
# ("play", deal, seat, card), cards as their short notation.
Observation = tuple[Any, ...]


def observe(event: object, view: PlayerView | None) -> Iterator[Observation]:
    """What one update shows its seat of the deal: ``view`` is the seat's view after it (the
    position after the whole transition, so after a round's dealing its new hand)."""
    if view is None:
        return
    deal = view.deal_number
    if isinstance(event, DealStarted):
        yield ("dealer", event.deal_number, event.dealer)
    elif isinstance(event, CardsDealt):
        if event.table is not None:
            yield ("table", deal, tuple(sorted(str(c) for c in event.table)))
        yield ("hand", deal, event.round, tuple(sorted(str(c) for c in view.hand)))
    elif isinstance(event, CardPlayed):
        yield ("play", deal, event.seat, str(event.card))


def dealt(record_data: Mapping[str, Any], seed: int | bytes, seat: int) -> set[Observation]:
    """Everything ``seat`` would have seen had the match been dealt from ``seed`` (the first dealer
    drawn from it too) and played with the record's moves. ``ValueError`` when the moves cannot be
    played from that seed (a card the hand does not hold: the deals were not the seed's)."""
    rules, seats, moves = record_parts(record_data)
    seen: set[Observation] = set()
    try:
        record, events = MatchRecord.start(rules, seats, seed)
        seen.update(_observed(events, record, seat))
        for deal, _, move, claim in moves:
            if deal == record.state.deal_number + 1 and record.state.is_deal_over:
                record, events = record.next_deal()
                seen.update(_observed(events, record, seat))
            if claim is not None:  # Cirulla: the bonus claimed just before the move
                record, events = record.claim()
                seen.update(_observed(events, record, seat))
            record, events = record.play(move)
            seen.update(_observed(events, record, seat))
    except (ScopaError, ValueError) as error:
        raise ValueError(str(error)) from None
    return seen


def _observed(events: Iterable[object], record: MatchRecord, seat: int) -> Iterator[Observation]:
    view = record.state.view(seat)
    for event in events:
        yield from observe(event, view)


@dataclass(frozen=True)
class Shown:
    """What the room's info showed this seat when the match started (or, for a seat taken back
    mid-match, in its first info), and whether any later info showed other shares (``changed``):
    the shares by seat (None: none), and the seats people play."""

    shares: tuple[bytes | None, ...]
    humans: frozenset[int]
    changed: bool = False


def check_online(record_data: Mapping[str, Any], heard: bytes | None, own: bytes | None, seat: int,
                 seen: Iterable[Observation], shown: Shown | None = None, daily: bool = False,
                 nonces: Mapping[bytes, bytes] | None = None) -> Verdict:
    """The verdict of a seat's client on the record the server sent at the end: ``heard`` is the
    commitment it was sent before the match, ``own`` its share (None: this client does not know
    it, a seat taken back with a key kept before shares were kept), ``seen`` what it noted as the
    match was played, ``shown`` what the room's info showed of the shares, ``daily`` a daily deal
    (dealt from the server's seed alone: no share at all), ``nonces`` each share's secret as
    the server told them with the record: every share must be ``share_of`` its secret and the
    commitment this client heard, so a seat promised another seed fails every seat's check."""
    fairness = _fairness(record_data)
    if fairness is None:
        return "missing"
    if heard is None or commitment_of(fairness.server_seed) != heard:
        return "commitment"
    if not daily and own is not None and (seat, own) not in fairness.contributions:
        return "contribution"
    verdict = _shares_verdict(record_data, fairness, shown, daily)
    if verdict != "fair":
        return verdict
    told = nonces or {}
    if any(value in told and share_of(told[value], heard) != value for _, value in fairness.contributions):
        return "other_commitment"
    verdict = _check(record_data, fairness, seat, set(seen))
    if verdict == "fair" and own is None and not daily:
        return "no_share"
    if verdict == "fair" and any(value not in told for _, value in fairness.contributions):
        return "others_unchecked"
    return verdict


def _shares_verdict(data: Mapping[str, Any], fairness: Fairness, shown: Shown | None, daily: bool) -> Verdict:
    """Shares from the human seats only, one each (none in a daily deal), exactly those shown."""
    _, seats, _ = record_parts(data)
    humans = frozenset(n for n, s in enumerate(seats) if s.is_human)
    given = [seat for seat, _ in fairness.contributions]
    if len(set(given)) != len(given) or not set(given) <= humans:
        return "computer_share"
    if set(given) != (frozenset() if daily else humans):
        return "shares"
    if shown is None or shown.changed or shown.humans != humans:
        return "shares"
    used = dict(fairness.contributions)
    if used != {seat: value for seat, value in enumerate(shown.shares) if value is not None}:
        return "shares"
    return "fair"


def check_file(data: Any, online: bool = False) -> tuple[Verdict, SaveFileError | None]:
    """``scopa verify``: a match file's data. A match played here is checked to replay from its
    seed (the seed deals every card its file shows); an online one also to have the seed made of
    the server's seed and the human seats' shares, one each (or none: a daily deal). ``online``:
    the results log says the match was played online, so a record without its ``fairness`` is
    one that cannot be checked ("missing"), never "fair". The ``SaveFileError`` says why a file
    is unreadable."""
    try:
        record = record_from_dict(data)
    except SaveFileError as error:
        fairness = _fairness(data) if isinstance(data, dict) else None
        if fairness is not None and match_seed(fairness.server_seed, fairness.contributions) != _seed_of(data):
            return "seed", None
        return "unreadable", error
    if record.fairness is None:
        return ("missing" if online else "fair"), None
    given = [seat for seat, _ in record.fairness.contributions]
    humans = {n for n, seat in enumerate(record.seats) if seat.is_human}
    if len(set(given)) != len(given) or not set(given) <= humans:
        return "computer_share", None
    if given and set(given) != humans:  # none at all: a daily deal, dealt from the server's seed alone
        return "shares", None
    if match_seed(record.fairness.server_seed, record.fairness.contributions) != record.seed:
        return "seed", None
    return "fair", None


def _check(data: Mapping[str, Any], fairness: Fairness, seat: int, seen: set[Observation]) -> Verdict:
    combined = match_seed(fairness.server_seed, fairness.contributions)
    if _seed_of(data) != combined:
        return "seed"
    try:
        expected = dealt(data, combined, seat)
    except (ValueError, SaveFileError):
        return "deals"
    return "fair" if seen <= expected else "deals"


def _fairness(data: Any) -> Fairness | None:
    try:
        rules, _, _ = record_parts(data)
        return fairness_from_dict(data["fairness"], rules.players)
    except (SaveFileError, KeyError, TypeError, ValueError):
        return None


def _seed_of(data: Mapping[str, Any]) -> bytes | None:
    seed = data.get("seed")
    try:
        return bytes.fromhex(seed) if isinstance(seed, str) and len(seed) == 64 else None
    except ValueError:
        return None
