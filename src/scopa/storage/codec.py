"""Match files as plain data, and every check a loaded file must pass.

Pure: nothing here touches the disk or the clock. ``record_to_dict`` / ``match_to_json``
write a ``MatchRecord``; ``record_from_dict`` / ``match_from_json`` read one back and
raise ``SaveFileError`` with one sentence naming the first check that failed:

1. the format name and version (older versions are brought up to date by ``MIGRATIONS``),
2. the fields, the rules and the seats,
3. the saved position (``GameState.from_dict``: 40 distinct cards, counts that fit the rules),
4. the move log, replayed from the seed, must be legal and lead exactly to the saved position.
"""
from __future__ import annotations

import copy
import json
import re
import unicodedata
from dataclasses import replace
from typing import Any, Callable, Mapping

from ..engine import Card, GameState, Move, Phase, Rules, ScopaError
from ..match import MatchRecord, SeatSetup

FORMAT = "scopa-match"
VERSION = 1
LEVELS = ("beginner", "easy", "medium", "hard", "expert")
KINDS = ("human", "computer")
MAX_NAME_LENGTH = 100

EXPORT_WARNING = ("The exported file shows every hand and the order of the stock: anyone who opens it "
                  "can see all the cards, including the ones still to come.")

_FIELDS = ("format", "version", "rules", "seats", "seed", "first_dealer", "moves", "assisted_deals", "state")
_MOVE_FIELDS = {"deal", "seat", "card", "capture"}
_SEAT_FIELDS = {"name", "kind", "level"}
_MAX_REASON = 300
# A capital that starts an inner sentence ("Rules: Unknown ...") but not a card ("AS cannot ...").
_LOWER_AFTER_COLON = re.compile(r"(^|: )([A-Z])([a-z])")

Migration = Callable[[dict[str, Any]], dict[str, Any]]

# MIGRATIONS[n] turns the data of format version n into the data of version n + 1.
# Version 1 is the first format, so the table is empty; add an entry with every new version.
MIGRATIONS: dict[int, Migration] = {}


class SaveFileError(ValueError):
    """A match file that cannot be used. The message is one line: a heading, then the reason."""

    def __init__(self, reason: str, heading: str = "The match cannot be loaded") -> None:
        self.reason = one_line(reason)
        self.heading = heading
        super().__init__(f"{heading}: {self.reason}")

    def with_heading(self, heading: str) -> "SaveFileError":
        """The same reason under another heading, such as ``"Import failed"``."""
        return type(self)(self.reason, heading)


def one_line(text: str) -> str:
    """A reason fit to follow a colon: one line, not too long, starting in lower case."""
    text = " ".join(str(text).split())
    if len(text) > _MAX_REASON:
        text = text[:_MAX_REASON - 3].rstrip() + "..."
    return _LOWER_AFTER_COLON.sub(lambda m: m[1] + m[2].lower() + m[3], text)


# Writing ---------------------------------------------------------------------------------

def record_to_dict(record: MatchRecord) -> dict[str, Any]:
    """The match as JSON-ready data: everything needed to resume, replay and check it."""
    seats = [{"name": s.name, "kind": s.kind, "level": s.level} for s in record.seats]
    for number, seat in enumerate(seats, 1):
        _seat(seat, number)  # never write a file that cannot be read back
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": record.rules.to_dict(),
        "seats": seats,
        "seed": record.seed,
        "first_dealer": record.first_dealer,
        "moves": [{"deal": m.deal_number, "seat": m.seat, "card": str(m.move.card),
                   "capture": [str(c) for c in m.move.capture]} for m in record.moves],
        "assisted_deals": sorted(record.assisted_deals),
        "state": record.state.to_dict(),
    }


def match_to_json(record: MatchRecord) -> str:
    """The match as the text of a save or export file."""
    return json.dumps(record_to_dict(record), indent=2, ensure_ascii=False) + "\n"


# Reading ---------------------------------------------------------------------------------

def match_from_json(text: str) -> MatchRecord:
    """Read and check the text of a save or export file."""
    if not text.strip():
        raise SaveFileError("the file is empty.")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise SaveFileError(f"the file is not valid JSON (line {error.lineno}).") from None
    except (ValueError, RecursionError):
        raise SaveFileError("the file is not valid JSON.") from None
    return record_from_dict(data)


def record_from_dict(data: Any) -> MatchRecord:
    """Check match data completely and return the record; ``SaveFileError`` names the first failure."""
    data = upgrade(data)
    _check_fields(data)
    rules = _rules(data["rules"], "the rules")
    seats = _seats(data["seats"], rules.players)
    seed = _whole(data["seed"], "seed")
    first_dealer = _whole(data["first_dealer"], "first_dealer")
    if not 0 <= first_dealer < rules.players:
        raise SaveFileError(f"first_dealer must be a seat number from 0 to {rules.players - 1}.")
    moves = _moves(data["moves"])
    state = _state(data["state"])
    if state.rules != rules:
        raise SaveFileError("the rules of the saved position differ from the rules of the match.")
    if state.seed != seed:
        raise SaveFileError("the seed of the saved position differs from the seed of the match.")
    assisted = _assisted(data["assisted_deals"], state.deal_number)
    record = replay(rules, seats, seed, first_dealer, moves, state)
    return replace(record, assisted_deals=assisted)


def upgrade(data: Any) -> dict[str, Any]:
    """Check the format name and version; bring data from an older version up to date."""
    if not isinstance(data, dict):
        raise SaveFileError("the file does not hold a scopa match.")
    if data.get("format") != FORMAT:
        raise SaveFileError(f'the file is not a scopa match: it lacks "format": "{FORMAT}".')
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise SaveFileError("the file has no format version number.")
    if version > VERSION:
        raise SaveFileError(f"the file was made by a newer version of scopa (file format {version}; "
                            f"this one reads up to {VERSION}): update scopa to open it.")
    if version < VERSION:
        data = _migrate(copy.deepcopy(data), version)
    return data


def _migrate(data: dict[str, Any], version: int) -> dict[str, Any]:
    while version < VERSION:
        step = MIGRATIONS.get(version)
        if step is None:
            raise SaveFileError(f"the file was made by an older version of scopa (file format {version}) "
                                "that this one can no longer read.")
        try:
            data = step(data)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError, RecursionError):
            data = None  # type: ignore[assignment]
        if not isinstance(data, dict):
            raise SaveFileError(f"the file was made by an older version of scopa (file format {version}) "
                                "and could not be brought up to date.")
        version += 1
        data["version"] = version
    return data


def _check_fields(data: Mapping[str, Any]) -> None:
    missing = [key for key in _FIELDS if key not in data]
    if missing:
        raise SaveFileError(f"the file lacks the field {missing[0]!r}.")
    unknown = sorted(str(key) for key in data if key not in _FIELDS)
    if unknown:
        raise SaveFileError(f"the file has an unknown field {unknown[0]!r}.")


def _whole(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise SaveFileError(f"{what} must be a whole number.")
    return value


def _rules(value: Any, what: str) -> Rules:
    if not isinstance(value, dict):
        raise SaveFileError(f"{what} must be a set of named options.")
    # The engine accepts 2.0 for 2; a file must hold whole numbers.
    for key in ("players", "target"):
        option = value.get(key)
        if isinstance(option, bool) or not isinstance(option, (int, type(None))):
            raise SaveFileError(f"{what}: the option {key} must be a whole number.")
    try:
        return Rules.from_dict(value)
    except (ScopaError, TypeError, ValueError) as error:
        raise SaveFileError(f"{what}: {one_line(str(error))}") from None


def _seats(value: Any, players: int) -> tuple[SeatSetup, ...]:
    if not isinstance(value, list) or len(value) != players:
        raise SaveFileError(f"seats must be a list of {players}, one for each player.")
    return tuple(_seat(item, number) for number, item in enumerate(value, 1))


def _seat(item: Any, number: int) -> SeatSetup:
    if not isinstance(item, dict) or not {"name", "kind"} <= set(item) or not set(item) <= _SEAT_FIELDS:
        raise SaveFileError(f"seat {number} must have a name, a kind and, for a computer, a level.")
    name, kind, level = item["name"], item["kind"], item.get("level")
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME_LENGTH:
        raise SaveFileError(f"seat {number} needs a name of 1 to {MAX_NAME_LENGTH} characters.")
    if any(unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp") for ch in name):
        raise SaveFileError(f"the name of seat {number} holds control characters.")
    if kind not in KINDS:
        raise SaveFileError(f"seat {number} must be human or computer.")
    if kind == "computer" and level not in LEVELS:
        raise SaveFileError(f"seat {number} is a computer, so its level must be one of {', '.join(LEVELS)}.")
    if kind == "human" and level is not None:
        raise SaveFileError(f"seat {number} is human, so it has no level.")
    return SeatSetup(name, kind, level)


def _moves(value: Any) -> list[tuple[int, int, Move]]:
    if not isinstance(value, list):
        raise SaveFileError("moves must be a list.")
    return [_move(item, number) for number, item in enumerate(value, 1)]


def _move(item: Any, number: int) -> tuple[int, int, Move]:
    if not isinstance(item, dict) or set(item) != _MOVE_FIELDS:
        raise SaveFileError(f"move {number} must have exactly a deal, a seat, a card and a capture.")
    deal, seat = item["deal"], item["seat"]
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (deal, seat)):
        raise SaveFileError(f"move {number}: deal and seat must be whole numbers.")
    card, capture = item["card"], item["capture"]
    if not isinstance(card, str) or not isinstance(capture, list) or not all(isinstance(c, str) for c in capture):
        raise SaveFileError(f"move {number}: write the card and the cards it takes like \"7D\".")
    try:
        move = Move(Card.parse(card), tuple(sorted(Card.parse(c) for c in capture)))
    except ValueError as error:
        raise SaveFileError(f"move {number}: {one_line(str(error))}") from None
    return deal, seat, move


def _state(value: Any) -> GameState:
    if not isinstance(value, dict):
        raise SaveFileError("the saved position must be a set of named fields.")
    if "rules" in value:
        _rules(value["rules"], "the rules of the saved position")
    try:
        return GameState.from_dict(value)
    except ScopaError as error:
        raise SaveFileError(str(error)) from None


def _assisted(value: Any, deal_number: int) -> frozenset[int]:
    if not isinstance(value, list):
        raise SaveFileError("assisted_deals must be a list of deal numbers.")
    for deal in value:
        if not isinstance(deal, int) or isinstance(deal, bool) or not 1 <= deal <= deal_number:
            raise SaveFileError(f"assisted_deals must list deal numbers from 1 to {deal_number}.")
    return frozenset(value)


# Replay ----------------------------------------------------------------------------------

_FIELD_NAMES = {
    "deal_number": "deal number", "to_move": "seat to move", "stock": "order of the stock",
    "last_capturer": "last capture", "scope": "count of scope", "history": "plays of this deal",
    "match_scores": "match scores", "deal_totals": "deal results", "redeals": "count of redeals",
}


def replay(rules: Rules, seats: tuple[SeatSetup, ...], seed: int, first_dealer: int,
           moves: list[tuple[int, int, Move]], saved: GameState) -> MatchRecord:
    """Play the logged moves from the seed; the result must be exactly the saved position."""
    try:
        record, _ = MatchRecord.start(rules, seats, seed, first_dealer)
    except ValueError as error:
        raise SaveFileError(f"the match cannot be started again: {one_line(str(error))}") from None
    for number, (deal, seat, move) in enumerate(moves, 1):
        record = _replay_move(record, number, deal, seat, move)
    if saved.deal_number == record.state.deal_number + 1 and record.state.phase is Phase.DEAL_OVER:
        record, _ = record.next_deal()
    if record.state != saved:
        field = next(f for f in GameState._fields if getattr(record.state, f) != getattr(saved, f))
        raise SaveFileError("the moves do not lead to the saved position "
                            f"(they differ in the {_FIELD_NAMES.get(field, field)}).")
    return record


def _replay_move(record: MatchRecord, number: int, deal: int, seat: int, move: Move) -> MatchRecord:
    state = record.state
    if state.is_match_over:
        raise SaveFileError(f"move {number} comes after the end of the match.")
    if deal == state.deal_number + 1 and state.is_deal_over:
        record, _ = record.next_deal()
    elif deal != state.deal_number:
        raise SaveFileError(f"move {number} is marked for deal {deal}, but deal {state.deal_number} "
                            + ("is over." if state.is_deal_over else "is being played."))
    if seat != record.state.to_move:
        raise SaveFileError(f"move {number} is marked for seat {seat + 1}, "
                            f"but it is seat {record.state.to_move + 1} to play.")
    try:
        record, _ = record.play(move)
    except ScopaError as error:
        raise SaveFileError(f"move {number} is illegal: {one_line(str(error))}") from None
    return record
