"""Match files as plain data, and every check a loaded file must pass.

Pure: nothing here touches the disk or the clock. ``record_to_dict`` / ``match_to_json``
write a ``MatchRecord``; ``record_from_dict`` / ``match_from_json`` read one back and
raise ``SaveFileError`` naming the first check that failed, in any language of the catalogues:

1. the format name and version (older versions are brought up to date by ``MIGRATIONS``),
2. the fields, the rules and the seats,
3. the saved position (``state_from_dict``: 40 distinct cards, counts that fit the rules),
4. the move log, replayed from the seed, must be legal and lead exactly to the saved position.

Every reason is said from the catalogues, with the engine's own reason (``ScopaError.reason``)
put into words when the engine made the check; nothing copied from the file is said back.
"""
from __future__ import annotations

import copy
import functools
import json
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from ..engine import Card, GameState, IllegalReason, Move, Phase, Reason, Rules, ScopaError, state_from_dict
from ..engine.shuffle import SEED_HEX, SHUFFLE_REPLAY, SHUFFLES, Seed, seed_json, shuffle_of
from ..match import FILE_NAME_LENGTH, Fairness, MatchRecord, MoveRecord, SeatSetup, name_problem
from ..narration import CardNames, Messages, Naming, capitalised, explain_illegal, explain_invalid

FORMAT = "scopa-match"
# 2: the shuffle that deals the match is named, and an online match keeps its seed's parts (fairness);
#    the variants scopa a 15 and cirulla, the options win by two and scopa a perdere, Cirulla's claims
VERSION = 2
LEVELS = ("beginner", "easy", "medium", "hard", "expert")
KINDS = ("human", "computer")
# A match to 21 points lasts about ten deals; tied leaders play on, but never for long.
# These caps keep the largest file scopa accepts quick to check (``python -m scopa.bench saves``).
MAX_DEALS = 100
MAX_MOVES = MAX_DEALS * 40  # at most 40 plays a deal, whatever the variant
MAX_CARDS = 40  # no list of cards (a hand, the stock, a pile, a deal's plays) is longer than the pack
MAX_VERSION = 9_999  # a version number beyond this is not one to say back

EXPORT_WARNING = ("The exported file shows every hand and the order of the stock: anyone who opens it "
                  "can see all the cards, including the ones still to come.")

_FIELDS = ("format", "version", "rules", "seats", "shuffle", "seed", "first_dealer", "moves", "assisted_deals",
           "state")
_OPTIONAL_FIELDS = ("fairness",)  # an online match: the server's seed and every seat's contribution
_MOVE_FIELDS = {"deal", "seat", "card", "capture"}
_CLAIM_KINDS = ("cirulla", "tris")  # a move may carry "claim": the Cirulla bonus claimed just before it
_SEAT_FIELDS = {"name", "kind", "level"}
# A file names every option a rules record had before LATER_OPTIONS: a missing one is no default.
# Those later ones are written only when on (``Rules.to_dict``), so a file without one has it off,
# as every file made before them was played: old files load unchanged, and new ones of the older
# rule sets are written exactly as before.
_RULE_OPTIONS = frozenset(Rules().to_dict())
_STATE_FIELDS = frozenset(GameState._fields)
_STATE_CARD_LISTS = ("table", "stock", "history")  # lists of cards or plays: at most the pack
_STATE_NESTED_LISTS = ("hands", "piles")  # one list of cards per seat or side

Migration = Callable[[dict[str, Any]], dict[str, Any]]
LoggedMove = tuple[int, int, Move, str | None]  # deal, seat, move, and the Cirulla claim made just before it

# MIGRATIONS[n] turns the data of format version n into the data of version n + 1.
# Add an entry with every new version.


def _to_version_2(data: dict[str, Any]) -> dict[str, Any]:
    """Version 2 named the shuffle (every match of version 1 was dealt by shuffle 1, and none was
    online), added the options win by two and scopa a perdere (both off in every older match),
    the variants scopa a 15 and cirulla, and a move's Cirulla claim (none before)."""
    for rules in (data.get("rules"), (data.get("state") or {}).get("rules")):
        if isinstance(rules, dict):
            rules.setdefault("win_by_two", False)
            rules.setdefault("a_perdere", False)
    if isinstance(data.get("state"), dict):
        data["state"].setdefault("claims", [])  # no hand was ever shown
    return data | {"shuffle": SHUFFLE_REPLAY}


MIGRATIONS: dict[int, Migration] = {1: _to_version_2}


CANNOT_LOAD = "storage.heading.cannot_load"


class Term(str):
    """A catalogue key given as a parameter, so it is named in the reader's language too."""


class Choices(tuple[str, ...]):
    """Catalogue keys given as one parameter: named in the reader's language, joined with "or"."""


class SaveFileError(ValueError):
    """A match file that cannot be used: a heading and a reason, both catalogue keys.

    ``str()``, ``.heading`` and ``.reason`` are English, for logs: "Import failed. The file is empty.".
    ``localised(messages, naming)`` is the same one line in the player's language and card names.
    Every line is whole sentences from the catalogues: no colon, no bracket, no card code, and
    nothing copied from the file. ``why`` is the engine's reason behind the failure
    (``ScopaError.reason``: an ``IllegalReason`` for an illegal move, a ``Reason`` for rules or a
    position it refused), said after the reason in the words of the catalogues, cards named in
    full: "Move 12 is not allowed. The seven of diamonds must capture. ...". ``detail`` keeps the
    engine's English developer message, for logs and tests; no line shows it.
    """

    def __init__(self, key: str, heading_key: str = CANNOT_LOAD, *, detail: str | None = None,
                 why: IllegalReason | Reason | None = None, **params: Any) -> None:
        self.key, self.heading_key, self.detail, self.params, self.why = key, heading_key, detail, params, why
        english = Messages("en")
        self.reason = self.reason_in(english)
        self.heading = english(heading_key)
        super().__init__(_line(english, heading_key, self.reason))

    @property
    def illegal(self) -> IllegalReason | None:
        """The engine's reason for an illegal move, or ``None``."""
        return self.why if isinstance(self.why, IllegalReason) else None

    @property
    def invalid(self) -> Reason | None:
        """The engine's reason for refusing rules or a position, or ``None``."""
        return self.why if isinstance(self.why, Reason) else None

    def with_heading(self, heading_key: str) -> SaveFileError:
        """The same reason under another heading, such as ``"storage.heading.import_failed"``."""
        return type(self)(self.key, heading_key, detail=self.detail, why=self.why, **self.params)

    def reason_in(self, messages: Messages, naming: Naming = "french") -> str:
        """The reason alone, in the language of ``messages`` (cards in the ``naming`` given)."""
        names = CardNames(messages, naming)
        params = {name: _param(value, names) for name, value in self.params.items()}
        text = messages(self.key, **params)
        why = ""
        if isinstance(self.why, IllegalReason):
            why = explain_illegal(self.why, names)
        elif isinstance(self.why, Reason):
            why = explain_invalid(self.why, names)
        return squash(f"{text} {why}" if why else text)

    def localised(self, messages: Messages, naming: Naming = "french") -> str:
        """Heading and reason as one line in the player's language: two sentences, since a
        screen reader says the colon of "Import failed: ..." aloud. Cards are named in ``naming``
        (``"french"`` or ``"napoletane"``)."""
        return _line(messages, self.heading_key, self.reason_in(messages, naming))


def _line(messages: Messages, heading_key: str, reason: str) -> str:
    return messages("storage.line", heading=messages(heading_key), reason=capitalised(reason))


def _param(value: Any, names: CardNames) -> Any:
    if isinstance(value, Term):
        return names.messages(value)
    if isinstance(value, Choices):
        return names.join((names.messages(key) for key in value), "list.or")
    return value


def squash(text: str) -> str:
    """One line: the sentences of a reason joined by single spaces."""
    return " ".join(str(text).split())


# Writing ---------------------------------------------------------------------------------

def record_to_dict(record: MatchRecord, moves: bool = True) -> dict[str, Any]:
    """The match as JSON-ready data: everything needed to resume, replay and check it (without
    ``moves``: all but the move log, which a caller writing it again and again adds itself, each
    move as ``move_data`` gives it)."""
    _check_seats(record.seats)  # never write a file that cannot be read back
    seats = [{"name": s.name, "kind": s.kind, "level": s.level} for s in record.seats]
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": record.rules.to_dict(),
        "seats": seats,
        "shuffle": shuffle_of(record.seed),
        "seed": seed_json(record.seed),
        "first_dealer": record.first_dealer,
        **({"moves": [move_data(m) for m in record.moves]} if moves else {}),
        "assisted_deals": sorted(record.assisted_deals),
        "state": record.state.to_dict(),
    } | ({} if record.fairness is None else {"fairness": fairness_to_dict(record.fairness)})


@functools.lru_cache(maxsize=4096)
def _check_seats(seats: tuple[SeatSetup, ...]) -> None:
    """Raise as reading the seats back would; each match's seats are checked once (the room server
    writes its match after every move), not at every write."""
    for number, seat in enumerate(seats, 1):
        _seat({"name": seat.name, "kind": seat.kind, "level": seat.level}, number)


def fairness_to_dict(fairness: Fairness) -> dict[str, Any]:
    return {"server_seed": fairness.server_seed.hex(),
            "contributions": [{"seat": seat, "value": value.hex()} for seat, value in fairness.contributions]}


def move_data(logged: MoveRecord) -> dict[str, Any]:
    """One move of the log as JSON-ready data."""
    data: dict[str, Any] = {"deal": logged.deal_number, "seat": logged.seat, "card": str(logged.move.card),
                            "capture": [str(c) for c in logged.move.capture]}
    if logged.claim is not None:
        data["claim"] = logged.claim
    return data


def match_to_json(record: MatchRecord) -> str:
    """The match as the text of a save or export file."""
    return json.dumps(record_to_dict(record), indent=2, ensure_ascii=False) + "\n"


# Reading ---------------------------------------------------------------------------------

def match_from_json(text: str) -> MatchRecord:
    """Read and check the text of a save or export file."""
    if not text.strip():
        raise SaveFileError("storage.reason.empty")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise SaveFileError("storage.reason.not_json_line", line=error.lineno) from None
    except (ValueError, RecursionError):
        raise SaveFileError("storage.reason.not_json") from None
    return record_from_dict(data)


def record_from_dict(data: Any) -> MatchRecord:
    """Check match data completely and return the record; ``SaveFileError`` names the first failure."""
    data = upgrade(data)
    _check_fields(data)
    rules = _rules(data["rules"], "rules")
    seats = _seats(data["seats"], rules.players)
    seed = _seed(data["seed"], data["shuffle"])
    first_dealer = _whole(data["first_dealer"], "first_dealer")
    if not 0 <= first_dealer < rules.players:
        raise SaveFileError("storage.reason.first_dealer_range", players=rules.players)
    moves = _moves(data["moves"], rules.players)
    state = _state(data["state"])
    if state.rules != rules:
        raise SaveFileError("storage.reason.rules_differ")
    if state.seed != seed:
        raise SaveFileError("storage.reason.seed_differs")
    assisted = _assisted(data["assisted_deals"], state.deal_number)
    fairness = None if "fairness" not in data else fairness_from_dict(data["fairness"], rules.players)
    record = replay(rules, seats, seed, first_dealer, moves, state)
    return replace(record, assisted_deals=assisted, fairness=fairness)


def record_parts(data: Any) -> tuple[Rules, tuple[SeatSetup, ...], list[LoggedMove]]:
    """The rules, seats and move log of match data, checked as ``record_from_dict`` checks them,
    without playing them (``storage.fairness`` plays them from a seed of its own)."""
    data = upgrade(data)
    _check_fields(data)
    rules = _rules(data["rules"], "rules")
    return rules, _seats(data["seats"], rules.players), _moves(data["moves"], rules.players)


def upgrade(data: Any) -> dict[str, Any]:
    """Check the format name and version; bring data from an older version up to date."""
    if not isinstance(data, dict):
        raise SaveFileError("storage.reason.not_a_match")
    if data.get("format") != FORMAT:
        raise SaveFileError("storage.reason.wrong_format", format=FORMAT)
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise SaveFileError("storage.reason.no_version")
    if not 0 <= version <= MAX_VERSION:
        raise SaveFileError("storage.reason.bad_version")
    if version > VERSION:
        raise SaveFileError("storage.reason.newer", version=version, supported=VERSION)
    if version < VERSION:
        data = _migrate(copy.deepcopy(data), version)
    result: dict[str, Any] = data
    return result


def _migrate(data: dict[str, Any], version: int) -> dict[str, Any]:
    while version < VERSION:
        step = MIGRATIONS.get(version)
        if step is None:
            raise SaveFileError("storage.reason.older", version=version)
        try:
            migrated: object = step(data)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError, RecursionError):
            migrated = None
        if not isinstance(migrated, dict):
            raise SaveFileError("storage.reason.older_failed", version=version)
        data = migrated
        version += 1
        data["version"] = version
    return data


def _check_fields(data: Mapping[str, Any]) -> None:
    missing = [key for key in _FIELDS if key not in data]
    if missing:
        raise SaveFileError("storage.reason.missing_field", part=Term(f"storage.part.{missing[0]}"))
    if any(key not in _FIELDS and key not in _OPTIONAL_FIELDS for key in data):
        raise SaveFileError("storage.reason.unknown_field")  # its name is not said: it is the file's text


def _whole(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise SaveFileError(f"storage.reason.{what}.not_whole")
    return value


def _seed(value: Any, shuffle: Any) -> Seed:
    """The seed: a whole number for shuffle 1, 64 lowercase hex digits for shuffle 2."""
    if type(shuffle) is not int or shuffle not in SHUFFLES:  # not True, not 1.0
        raise SaveFileError("storage.reason.shuffle")
    if shuffle == SHUFFLE_REPLAY:
        return _whole(value, "seed")
    return _hex(value, "storage.reason.seed.not_hex")


def _hex(value: Any, key: str) -> bytes:
    if not (isinstance(value, str) and len(value) == SEED_HEX and all(c in "0123456789abcdef" for c in value)):
        raise SaveFileError(key)
    return bytes.fromhex(value)


def fairness_from_dict(value: Any, players: int) -> Fairness:
    """An online match's seed parts, checked for their shape only: ``storage.fairness`` checks
    that they make the seed (``scopa verify`` says what does not)."""
    if not isinstance(value, dict) or set(value) != {"server_seed", "contributions"}:
        raise SaveFileError("storage.reason.fairness")
    server_seed = _hex(value["server_seed"], "storage.reason.fairness")
    items = value["contributions"]
    if not isinstance(items, list) or len(items) > players:
        raise SaveFileError("storage.reason.fairness")
    contributions = []
    for item in items:
        if not isinstance(item, dict) or set(item) != {"seat", "value"}:
            raise SaveFileError("storage.reason.fairness")
        seat = item["seat"]
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
            raise SaveFileError("storage.reason.fairness")
        contributions.append((seat, _hex(item["value"], "storage.reason.fairness")))
    if [seat for seat, _ in contributions] != sorted({seat for seat, _ in contributions}):
        raise SaveFileError("storage.reason.fairness")  # one for each seat at most, in seat order
    return Fairness(server_seed, tuple(contributions))


def _rules(value: Any, what: str) -> Rules:
    if not isinstance(value, dict):
        raise SaveFileError(f"storage.reason.{what}.not_options")
    # The engine accepts 2.0 for 2; a file must hold whole numbers.
    for key in ("players", "target"):
        option = value.get(key)
        if isinstance(option, bool) or not isinstance(option, (int, type(None))):
            raise SaveFileError(f"storage.reason.{what}.option_not_whole", option=Term(f"storage.option.{key}"))
    if not set(value) >= _RULE_OPTIONS:
        raise SaveFileError(f"storage.reason.{what}.missing_option")
    try:
        return Rules.from_dict(value)
    except (ScopaError, TypeError, ValueError) as error:
        raise SaveFileError(f"storage.reason.{what}.invalid", detail=str(error),
                            why=getattr(error, "reason", None)) from None


def _seats(value: Any, players: int) -> tuple[SeatSetup, ...]:
    if not isinstance(value, list) or len(value) != players:
        raise SaveFileError("storage.reason.seats_count", players=players)
    seats = tuple(_seat(item, number) for number, item in enumerate(value, 1))
    if not any(seat.is_human for seat in seats):
        raise SaveFileError("storage.reason.no_human")
    return seats


def check_seat_name(name: Any, number: int) -> None:
    """Refuse (``SaveFileError``) a seat name a match file may not hold, by the one rule of names
    (``match.name_problem``), up to ``FILE_NAME_LENGTH`` characters so that files written by
    earlier versions still load."""
    problem = name_problem(name, FILE_NAME_LENGTH)
    if problem == "length":
        raise SaveFileError("storage.reason.seat_name", number=number, most=FILE_NAME_LENGTH)
    if problem is not None:
        raise SaveFileError(f"storage.reason.seat_{problem}", number=number)


def _seat(item: Any, number: int) -> SeatSetup:
    if not isinstance(item, dict) or not {"name", "kind"} <= set(item) or not set(item) <= _SEAT_FIELDS:
        raise SaveFileError("storage.reason.seat_fields", number=number)
    name, kind, level = item["name"], item["kind"], item.get("level")
    check_seat_name(name, number)
    if kind not in KINDS:
        raise SaveFileError("storage.reason.seat_kind", number=number)
    if kind == "computer" and level not in LEVELS:
        raise SaveFileError("storage.reason.seat_level", number=number,
                            levels=Choices(f"level.{level}" for level in LEVELS))
    if kind == "human" and level is not None:
        raise SaveFileError("storage.reason.seat_human_level", number=number)
    return SeatSetup(name, kind, level)


def _moves(value: Any, players: int) -> list[LoggedMove]:
    if not isinstance(value, list):
        raise SaveFileError("storage.reason.moves_not_list")
    if len(value) > MAX_MOVES:
        raise SaveFileError("storage.reason.too_long", part=Term("storage.part.moves"))
    return [_move(item, number, players) for number, item in enumerate(value, 1)]


def _move(item: Any, number: int, players: int) -> LoggedMove:
    if not isinstance(item, dict) or set(item) - {"claim"} != _MOVE_FIELDS:
        raise SaveFileError("storage.reason.move_fields", number=number)
    claim = item.get("claim")
    if claim is not None and claim not in _CLAIM_KINDS:
        raise SaveFileError("storage.reason.move_fields", number=number)
    deal, seat = item["deal"], item["seat"]
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (deal, seat)):
        raise SaveFileError("storage.reason.move_numbers", number=number)
    if not (1 <= deal <= MAX_DEALS and 0 <= seat < players):  # numbers said back later stay short
        raise SaveFileError("storage.reason.move_range", number=number)
    card, capture = item["card"], item["capture"]
    if (not isinstance(card, str) or not isinstance(capture, list) or len(capture) > MAX_CARDS
            or not all(isinstance(c, str) for c in capture)):
        raise SaveFileError("storage.reason.move_card_text", number=number)
    try:
        cards = [Card.parse(text) for text in [card, *capture]]
    except ValueError as error:
        raise SaveFileError("storage.reason.move_card", number=number, detail=str(error)) from None
    if len(set(cards)) != len(cards):
        raise SaveFileError("storage.reason.move_card_twice", number=number)
    return deal, seat, Move(cards[0], tuple(sorted(cards[1:]))), claim


def _state(value: Any) -> GameState:
    if not isinstance(value, dict):
        raise SaveFileError("storage.reason.state_not_fields")
    if any(key not in _STATE_FIELDS for key in value):
        raise SaveFileError("storage.reason.state_unknown_field")  # its name is not said: it is the file's text
    _check_state_lengths(value)
    if "rules" in value:
        _rules(value["rules"], "state_rules")
    try:
        return state_from_dict(value)
    except ScopaError as error:
        raise SaveFileError("storage.reason.position", detail=str(error), why=error.reason) from None


def _check_state_lengths(value: dict[str, Any]) -> None:
    """No list of the position longer than a match can hold, checked before the engine reads any:
    a file of millions of deal results would otherwise be read to its end."""
    def too_long(field: str) -> SaveFileError:
        return SaveFileError("storage.reason.state_too_long", field=Term(f"storage.field.{field}"))
    for field in _STATE_CARD_LISTS:
        if isinstance(value.get(field), list) and len(value[field]) > MAX_CARDS:
            raise too_long(field)
    for field in _STATE_NESTED_LISTS:
        lists = value.get(field)
        if isinstance(lists, list) and (len(lists) > 4 or any(isinstance(v, list) and len(v) > MAX_CARDS
                                                              for v in lists)):
            raise too_long(field)
    if isinstance(value.get("deal_totals"), list) and len(value["deal_totals"]) > MAX_DEALS:
        raise too_long("deal_totals")
    for field in ("scope", "match_scores"):
        if isinstance(value.get(field), list) and len(value[field]) > 4:
            raise too_long(field)


def _assisted(value: Any, deal_number: int) -> frozenset[int]:
    if not isinstance(value, list):
        raise SaveFileError("storage.reason.assisted_not_list")
    if len(value) > MAX_DEALS:
        raise SaveFileError("storage.reason.too_long", part=Term("storage.part.assisted_deals"))
    for deal in value:
        if not isinstance(deal, int) or isinstance(deal, bool) or not 1 <= deal <= deal_number:
            raise SaveFileError("storage.reason.assisted_range", last=deal_number)
    return frozenset(value)


# Replay ----------------------------------------------------------------------------------

def replay(rules: Rules, seats: tuple[SeatSetup, ...], seed: Seed, first_dealer: int,
           moves: list[LoggedMove], saved: GameState) -> MatchRecord:
    """Play the logged moves from the seed; the result must be exactly the saved position."""
    try:
        record, _ = MatchRecord.start(rules, seats, seed, first_dealer)
    except ValueError as error:
        raise SaveFileError("storage.reason.restart", detail=str(error)) from None  # the checks above prevent it
    for number, (deal, seat, move, claim) in enumerate(moves, 1):
        record = _replay_move(record, number, deal, seat, move, claim)
    if saved.deal_number == record.state.deal_number + 1 and record.state.phase is Phase.DEAL_OVER:
        record, _ = record.next_deal()
    if len(saved.claims) == len(record.state.claims) + 1 and record.state.claimable():
        record, _ = record.claim()  # saved after a Cirulla claim, before the move that logs it
    if record.state != saved:
        field = next(f for f in GameState._fields if getattr(record.state, f) != getattr(saved, f))
        raise SaveFileError("storage.reason.different_position", field=Term(f"storage.field.{field}"))
    return record


def _replay_move(record: MatchRecord, number: int, deal: int, seat: int, move: Move,
                 claim: str | None = None) -> MatchRecord:
    state = record.state
    if state.is_match_over:
        raise SaveFileError("storage.reason.move_after_end", number=number)
    if deal == state.deal_number + 1 and state.is_deal_over:
        record, _ = record.next_deal()
    elif deal != state.deal_number:
        key = "storage.reason.move_deal_over" if state.is_deal_over else "storage.reason.move_deal_playing"
        raise SaveFileError(key, number=number, deal=deal, current=state.deal_number)
    if seat != record.state.to_move:
        raise SaveFileError("storage.reason.move_seat", number=number, seat=seat + 1,
                            to_move=record.state.to_move + 1)
    try:
        if claim is not None:
            if record.state.claimable() != claim:
                raise ScopaError("The claim logged with this move cannot be made here.")
            record, _ = record.claim()
        record, _ = record.play(move)
    except ScopaError as error:
        raise SaveFileError("storage.reason.illegal_move", number=number, detail=str(error),
                            why=error.reason) from None
    return record
