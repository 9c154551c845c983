"""Matches played, finished and saved for the storage and saves tests."""
from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from scopa.engine import ALL_CARDS, Rules
from scopa.match import MatchRecord, SeatSetup
from scopa.storage import (
    SavedMatches,
    match_to_json,
)

TWO = (SeatSetup("Ann"), SeatSetup("Bruno", "computer", "medium"))


FOUR = (SeatSetup("Ann"), SeatSetup("Bruno", "computer", "easy"), SeatSetup("Carla", "computer", "expert"),
        SeatSetup("Dino", "computer", "beginner"))


def step(record: MatchRecord, rng: random.Random) -> MatchRecord:
    """One completed turn: a random legal move, or the next deal when a deal is over."""
    if record.state.is_deal_over:
        return record.next_deal()[0]
    return record.play(rng.choice(record.state.legal_moves()))[0]


def played(rules: Rules, seats: tuple[SeatSetup, ...], seed: int, turns: int, rng_seed: int = 1) -> MatchRecord:
    record, _ = MatchRecord.start(rules, seats, seed)
    rng = random.Random(rng_seed)
    for _ in range(turns):
        if record.state.is_match_over:
            break
        record = step(record, rng)
    return record


def finish(record: MatchRecord, rng: random.Random) -> MatchRecord:
    while not record.state.is_match_over:
        record = step(record, rng)
    return record


def saved(folder: Path, record: MatchRecord) -> str:
    """Save a match beside the others in ``folder``, as a new match does; its id."""
    store = SavedMatches(folder)
    lock = store.create(record)
    store.save(lock.match_id, record)
    lock.release()
    return lock.match_id


BASES = [match_to_json(played(Rules(), TWO, 21, turns=60)),
         match_to_json(played(Rules(players=4), FOUR, 22, turns=35))]


CARD_NAMES = [str(c) for c in ALL_CARDS]


def _nodes(value: Any, path: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _nodes(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _nodes(item, (*path, index))


def _get(data: Any, path: tuple) -> Any:
    for key in path:
        data = data[key]
    return data


def _set(data: Any, path: tuple, value: Any) -> None:
    _get(data, path[:-1])[path[-1]] = value


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 50) | st.floats(allow_nan=False) | st.text(max_size=5)
    | st.sampled_from([*CARD_NAMES, "8D", "ZZ", ""]),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=4), children, max_size=3),
    max_leaves=6)


def _mutate(draw: Any, text: str) -> str | bytes:
    kind = draw(st.sampled_from(["drop", "retype", "card", "swap", "moves", "truncate", "bytes", "char"]))
    if kind == "truncate":
        return text[:draw(st.integers(0, len(text) - 1))]
    if kind == "bytes":
        raw = bytearray(text.encode())
        noise = draw(st.binary(min_size=1, max_size=8))
        at = draw(st.integers(0, len(raw)))
        return bytes(raw[:at] + noise + raw[at:]) if draw(st.booleans()) else bytes(noise)
    if kind == "char":
        at = draw(st.integers(0, len(text) - 1))
        return text[:at] + draw(st.characters()) + text[at + 1:]
    data = json.loads(text)
    nodes = list(_nodes(data))
    if kind == "drop":
        path, _ = draw(st.sampled_from([(p, v) for p, v in nodes if p and isinstance(_get(data, p[:-1]), dict)]))
        del _get(data, path[:-1])[path[-1]]
    elif kind == "retype":
        path, _ = draw(st.sampled_from([(p, v) for p, v in nodes if p]))
        _set(data, path, draw(json_values))
    elif kind == "card":
        path, _ = draw(st.sampled_from([(p, v) for p, v in nodes if v in CARD_NAMES]))
        _set(data, path, draw(st.sampled_from([*CARD_NAMES, "8D", "10C", "X", "7d"])))
    elif kind == "swap":
        hands = [("state", "hands", h, i) for h, hand in enumerate(data["state"]["hands"]) for i in range(len(hand))]
        others = [(p, v) for p, v in nodes if v in CARD_NAMES and len(p) > 1 and p[0] == "state"]
        if hands and others:
            a = draw(st.sampled_from(hands))
            b, _ = draw(st.sampled_from(others))
            first, second = _get(data, a), _get(data, b)
            _set(data, a, second)
            _set(data, b, first)
    else:
        moves = data["moves"]
        choice = draw(st.sampled_from(["delete", "swap", "seat", "deal", "card", "capture"]))
        i, j = draw(st.integers(0, len(moves) - 1)), draw(st.integers(0, len(moves) - 1))
        if choice == "delete":
            del moves[i]
        elif choice == "swap":
            moves[i], moves[j] = moves[j], moves[i]
        elif choice in ("seat", "deal"):
            moves[i][choice] += draw(st.sampled_from([-1, 1, 2]))
        elif choice == "card":
            moves[i]["card"] = draw(st.sampled_from(CARD_NAMES))
        else:
            moves[i]["capture"] = draw(st.lists(st.sampled_from(CARD_NAMES), max_size=3))
    return json.dumps(data, indent=draw(st.sampled_from([None, 1])))


def write_damaged_file(data: st.DataObject, path: Path) -> Path:
    """Write one drawn save file, damaged by ``_mutate``, to ``path`` (bytes kept as drawn)."""
    text = _mutate(data.draw, data.draw(st.sampled_from(BASES)))
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass"))
    return path
