"""The wire protocol of the room server, what both directions share: the version, the limits, the
error codes, room information, views and events, and the checks of their fields.

Every message is one JSON object in one websocket text frame, with a ``"type"``. Seats are
counted from 0 on the wire (as in the engine); cards are short notation (``"7D"``), exactly as
``str(card)`` writes them. A message from a client is at most ``MAX_CLIENT_MESSAGE`` bytes; one
from the server at most ``MAX_SERVER_MESSAGE``.

What a client sends is in ``client_messages``, what a server sends in ``server_messages``; each
adds its encoders to ``_ENCODERS`` here, so ``encode`` writes a message of either direction.

``info`` is a ``RoomInfo``: {code, phase ("lobby", "playing", "over"), host, level, rules,
seats, assisted_deals, contributions, turn_time (only in a room with a turn timer), watchers_chat
(true only, sent only in a room whose spectators may chat)}, each seat
null (free) or {name, kind, level, connected, covered, ready, program (true only, for a seat a
program plays, sent only to a client with the feature program)}; contributions has one entry per
seat, its contribution in hex or null (public to every seat).

Events (``event`` of an update) are {"kind": ...} with the engine event's fields:
deal_started, cards_dealt, card_played, cards_captured, card_stays, scopa, leftovers_taken,
deal_scored, match_won, opening_taken (Scopa a 15 and Cirulla: the first table of 15 or 30, or
under Cirulla's table_nine 9 or less for three scope; ``dealer`` is the seat that took it, the
leader under Scopa a 15's opening_to_leader), hand_claimed {seat, side, claim, points, cards}
(Cirulla: the hand shown by its claim),
and notice {notice, seat, name} for a ``table.Notice``. ``deal_scored`` carries the final piles
and scope of the deal instead of the whole breakdown, and in Cirulla ``bonus``, each side's
points from claimed hands (only when any); the receiver scores them again with the engine
(``score_deal``), so the breakdown cannot disagree with the cards. Engine events never hold a
hand; the receiving seat's own hand is only in its ``view``, and a hand shown by a Cirulla
claim, public from then on, in every seat's ``view.claims`` (never before the claim).
A finished deal's piles hold every card of that deal, all played and counted in the open: public
once the deal is scored, as its ``deal_scored`` event already was to every seat.

Privacy: a view is ``PlayerView``: its own hand, the table, the captured piles, the counts. It
never holds another seat's hand or the stock, and the server sends a seat only its own view.
The seed, which reveals every deal, travels only in ``match_record``, given only once the match
is over: every card of every deal played has then been played face up, and a room plays one
match, so nothing is ever dealt from that seed again. The record's ``fairness`` reveals the
server's seed then, with every contribution, for each client to check its shuffle.

Every parse function raises ``ProtocolError`` with one of ``ERROR_CODES`` (and the field at
fault) for the first problem it finds: too big, not JSON, not an object, unknown type, a
missing or unknown field, a value of the wrong type or out of range.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, get_args

from ...engine import (
    ALL_CARDS,
    Card,
    CardPlayed,
    CardsCaptured,
    CardsDealt,
    CardStaysOnTable,
    DealScored,
    DealStarted,
    Event,
    HandClaimed,
    LeftoversTaken,
    MatchWon,
    OpeningTableTaken,
    Phase,
    Play,
    PlayerView,
    Rules,
    RulesError,
    Scopa,
    score_deal,
)
from ...engine.cirulla import BONUS_KINDS, BONUS_POINTS, Claim, bonuses
from ...engine.shuffle import SEED_HEX
from ...match import name_problem
from ...table import Notice, NoticeKind, Refusal, SeatInfo, TableInfo
from .codes import normalise_code

PROTOCOL_VERSION = 2  # 2: the commitment, the contributions and the reveal of docs/fairness.md;
#    the variants (scopa_15, cirulla, win_by_two, a_perdere) and the claim message; table chat, the turn
#    timer (clock, more_time, back), spectators (watch, watching) and the host's seat_kind in the lobby;
#    player_key in create_room and join, and the leaderboard messages (issue 29); the host's move_seat
#    and watchers_chat in the lobby, with moved, and the room's watchers_chat
MAX_TABLES = 50  # rooms in one tables answer
MAX_CLIENT_MESSAGE = 2048      # bytes: the largest client message is a move or a create_room
MAX_SERVER_MESSAGE = 65536     # bytes: a resync of a scopone deal stays well under this
MAX_RECORD_MESSAGE = 262144    # bytes: a match_record (about 2.5 KB a deal; a match to 21 is some 20 KB)
MAX_NUMBER = 2 ** 31 - 1       # update numbers and request ids
LEVELS = ("beginner", "easy", "medium", "hard", "expert")
TURN_TIMES = (20, 30, 60, 90)  # seconds: what ``scopa host --turn-time`` offers (``net.server.clock``)
PLAYER_KEY_HEX = 64  # 32 bytes written as lowercase hex: 256 bits, above the 192 asked
ROOM_PHASES = ("lobby", "playing", "over")

ErrorCode = Literal[
    "too_big",         # the message is over the size cap
    "not_json",        # not a JSON text
    "not_object",      # JSON, but not an object with a type
    "unknown_type",    # a type the protocol does not have
    "missing_field",   # values: field
    "unknown_field",   # values: field
    "bad_field",       # a value of the wrong type or out of range; values: field
    "bad_rules",       # the rules of a create_room are not rules the engine plays
    "bad_name",        # a name that is empty, too long or holds control characters; values: field, reason
                       # (length, control, bidi, invisible; for a name given in a first message also
                       # hidden, a code point that shows and says nothing, and silent, nothing to say)
    "version",         # a protocol version this server does not speak; values: supported
    "first_message",   # the first message must be hello, create_room, join or leaderboard
    "already_seated",  # hello, create_room or join again on a seated connection
    "unknown_room",    # no room with this code (never made, or expired and deleted)
    "wrong_key",       # the seat key is not this room's
    "room_full",       # no free human seat
    "started",         # the match has started: no new player can join
    "between_deals",   # a room that lets a person take a computer's seat, asked while a deal is played (issue 38)
    "too_many_tries",  # too many failed joins from this address; values: seconds (to wait)
    "not_host",        # only the host starts the match or deals the next deal
    "not_lobby",       # ready or start after the match started
    "cannot_start",    # values: reason ("players": fewer than two humans, "not_ready")
    "slow_down",       # too many messages: a warning, then flooded
    "flooded",         # the connection is closed for flooding
    "seat_taken",      # the seat was taken back on another connection
    "server_stopping", # the server is shutting down
    "room_closed",     # the room expired or was deleted
    "name_taken",      # the name, or one that looks like it, belongs to another player key
    "no_more_time",    # more time asked when it cannot be had (no timer, not your turn, asked this deal)
    "bad_seat",        # a seat_kind the seat cannot take (the host's, a person's, a taken or free one),
                       # or a move_seat from a free seat, to the same seat or out of range
    "watchers_full",   # the room has as many spectators as it takes
    "spectator",       # a spectator's message that only a seat may send (a move, ready, start...)
    "chat_refused",    # a chat line not said; values: reason (``net.protocol.chat.CHAT_PROBLEMS``)
    "not_today",       # a daily_deal of a day that is not the server's today (it ended, or not begun);
                       # values: day (today's on the server's clock)
    "storage",         # the server cannot store the room now (a full or read-only disk, its store
                       # unreachable): the request was not done, the room stays as it was stored
]
ERROR_CODES: tuple[str, ...] = get_args(ErrorCode)
FATAL_ERRORS = frozenset({"watchers_full",
                          "too_big", "not_json", "not_object", "version", "first_message", "unknown_room",
                          "wrong_key", "room_full", "started", "too_many_tries", "flooded", "seat_taken",
                          "server_stopping", "room_closed", "bad_rules", "bad_name", "name_taken", "not_today"})
REFUSALS: tuple[str, ...] = get_args(Refusal)
NOTICE_KINDS: tuple[str, ...] = get_args(NoticeKind)

_CARDS_BY_TEXT = {str(card): card for card in ALL_CARDS}


class ProtocolError(ValueError):
    """A message that breaks the protocol: an ``ErrorCode`` and its values (e.g. the field)."""

    def __init__(self, code: str, **values: Any) -> None:
        self.code, self.values = code, values
        super().__init__(f"{code} {values}" if values else code)


# Room information ------------------------------------------------------------------------

@dataclass(frozen=True)
class RoomSeat:
    """A taken seat of a room, as everyone at the table sees it."""

    name: str
    kind: Literal["human", "computer"] = "human"
    level: str | None = None
    connected: bool = True
    covered: bool = False
    ready: bool = False
    program: bool = False  # played by a program, by its own word; sent only to a client with the feature


@dataclass(frozen=True)
class RoomInfo:
    """Seat-independent facts of a room: its code, phase, host, rules and seats (None: free)."""

    code: str
    phase: Literal["lobby", "playing", "over"]
    rules: Rules
    seats: tuple[RoomSeat | None, ...]
    host: int = 0
    level: str = "easy"
    assisted_deals: frozenset[int] = frozenset()
    contributions: tuple[bytes | None, ...] = ()  # each seat's share of the seed, public; None: none yet
    turn_time: int | None = None  # the turn timer's seconds (``net.server.clock``); None: off
    watchers_chat: bool = False  # whether spectators may chat (the host's choice)
    join_between_deals: bool = False  # a person may take a computer's seat between deals (the host's choice)

    def __post_init__(self) -> None:
        if not self.contributions:
            object.__setattr__(self, "contributions", (None,) * len(self.seats))

    def table_info(self) -> TableInfo:
        """The ``TableInfo`` of the table protocol (a free seat shows as an unnamed human)."""
        seats = tuple(SeatInfo("", "human", None, False, False) if s is None else
                      SeatInfo(s.name, s.kind, s.level, s.connected, s.covered) for s in self.seats)
        return TableInfo(self.rules, seats, self.assisted_deals, self.code)


MAX_TOP = 100  # players in one leaderboard answer


MAX_DAILY_DEALS = 10


MAX_WATCHERS = 8  # spectators a room takes

# Features: the additions to protocol 2 a client asks for once welcomed (docs/protocol.md, Versions
# and features). The server sends a client nothing new it did not ask for: an older client refuses
# what it does not know.
# What this server can turn on: the share acknowledged, a seat's program flag (info), the room's
# join_between_deals (info), a quick room's wait (in the features answer: the welcome came before).
FEATURES = ("contributed", "program", "join_between_deals", "quick_wait")
INFO_FEATURES = frozenset({"program", "join_between_deals"})  # fields of a room's info: a fresh info follows the answer
MAX_FEATURES = 16  # names in one features request or answer


def feature_names(value: Any) -> tuple[str, ...]:
    """At most ``MAX_FEATURES`` names of at most 40 characters; a name not known is kept (the
    server leaves it out of its answer), so a newer client's list is never refused."""
    if not isinstance(value, list) or len(value) > MAX_FEATURES or not all(
            isinstance(name, str) and 0 < len(name) <= 40 for name in value):
        raise ProtocolError("bad_field", field="names")
    return tuple(value)


@dataclass(frozen=True)
class FinishedDeal:
    """The last deal that ended, as the whole table saw it counted: every side's final pile and
    scopa count, and the match score after it. The receiver scores the piles with the engine."""

    deal_number: int
    piles: tuple[tuple[Card, ...], ...]
    scope: tuple[int, ...]
    match_scores: tuple[int, ...]
    bonus: tuple[int, ...] = ()  # Cirulla: each side's points from claimed hands (sent only when any)

    def scored(self, rules: Rules) -> DealScored:
        score = score_deal(self.piles, self.scope, rules, self.bonus or None)
        return DealScored(self.deal_number, score, self.match_scores)


# Encoding ------------------------------------------------------------------------------------

def _cards(cards: Any) -> list[str]:
    return [str(card) for card in cards]


def encode(message: object) -> str:
    """The message (of either direction) as the text of one websocket frame."""
    return json.dumps(to_wire(message), ensure_ascii=False, separators=(",", ":"))


def to_wire(message: object) -> dict[str, Any]:
    """The message as JSON-ready data, by the encoder its direction's module added to ``_ENCODERS``."""
    encoder = _ENCODERS.get(type(message))
    if encoder is None:
        raise TypeError(f"Not a protocol message: {message!r}")
    kind, build = encoder
    return {"type": kind, **build(message)}


def encode_rules(rules: Rules) -> dict[str, Any]:
    return rules.to_dict()


def encode_info(info: RoomInfo) -> dict[str, Any]:
    seats = [None if s is None else {"name": s.name, "kind": s.kind, "level": s.level, "connected": s.connected,
                                     "covered": s.covered, "ready": s.ready, **({"program": True} if s.program else {})}
             for s in info.seats]
    return {"code": info.code, "phase": info.phase, "host": info.host, "level": info.level,
            "rules": encode_rules(info.rules), "seats": seats, "assisted_deals": sorted(info.assisted_deals),
            "contributions": [None if c is None else c.hex() for c in info.contributions],
            **({} if info.turn_time is None else {"turn_time": info.turn_time}),
            **({"watchers_chat": True} if info.watchers_chat else {}),
            **({"join_between_deals": True} if info.join_between_deals else {})}


def encode_view(view: PlayerView) -> dict[str, Any]:
    return {
        "rules": encode_rules(view.rules), "seat": view.seat, "deal_number": view.deal_number,
        "dealer": view.dealer, "to_move": view.to_move, "round": view.round, "hand": _cards(view.hand),
        "table": _cards(view.table), "hand_counts": list(view.hand_counts), "stock_count": view.stock_count,
        "piles": [_cards(p) for p in view.piles], "scope": list(view.scope), "last_capturer": view.last_capturer,
        "history": [{"seat": p.seat, "card": str(p.card), "capture": _cards(p.capture), "scopa": p.scopa}
                    for p in view.history],
        "match_scores": list(view.match_scores), "deal_totals": [list(t) for t in view.deal_totals],
        "phase": view.phase.value, "winner": view.winner,
        **({"claims": [{"seat": c.seat, "round": c.round, "kind": c.kind, "cards": _cards(c.cards)}
                       for c in view.claims]} if view.claims else {}),  # Cirulla: public hands
    }


def encode_event(event: Event | Notice, view: PlayerView | None = None) -> dict[str, Any]:
    """An event as data. ``deal_scored`` needs ``view``: the position the deal was scored in."""
    if isinstance(event, Notice):
        return {"kind": "notice", "notice": event.kind, "seat": event.seat, "name": event.name}
    if isinstance(event, DealStarted):
        return {"kind": "deal_started", "deal_number": event.deal_number, "dealer": event.dealer,
                "leader": event.leader, "redeals": event.redeals}
    if isinstance(event, CardsDealt):
        return {"kind": "cards_dealt", "round": event.round, "rounds": event.rounds, "cards_each": event.cards_each,
                "stock_left": event.stock_left, "table": None if event.table is None else _cards(event.table)}
    if isinstance(event, HandClaimed):
        return {"kind": "hand_claimed", "seat": event.seat, "side": event.side, "claim": event.kind,
                "points": event.points, "cards": _cards(event.cards)}
    if isinstance(event, OpeningTableTaken):
        return {"kind": "opening_taken", "dealer": event.dealer, "side": event.side, "cards": _cards(event.cards),
                "scope": event.scope}
    if isinstance(event, CardPlayed):
        return {"kind": "card_played", "seat": event.seat, "card": str(event.card)}
    if isinstance(event, CardsCaptured):
        return {"kind": "cards_captured", "seat": event.seat, "card": str(event.card), "cards": _cards(event.cards),
                "whole_table": event.whole_table}
    if isinstance(event, CardStaysOnTable):
        return {"kind": "card_stays", "seat": event.seat, "card": str(event.card)}
    if isinstance(event, Scopa):
        return {"kind": "scopa", "seat": event.seat, "side": event.side, "side_total": event.side_total}
    if isinstance(event, LeftoversTaken):
        return {"kind": "leftovers_taken", "seat": event.seat, "side": event.side, "cards": _cards(event.cards)}
    if isinstance(event, DealScored):
        if view is None:
            raise ValueError("A deal_scored event is sent with the view it was scored in.")
        return {"kind": "deal_scored",
                **encode_finished(FinishedDeal(event.deal_number, view.piles, view.scope, event.match_scores,
                                               tuple(s.bonus for s in event.score.sides)))}
    if isinstance(event, MatchWon):
        return {"kind": "match_won", "side": event.side, "match_scores": list(event.match_scores)}
    raise TypeError(f"Not an event: {event!r}")


def encode_finished(deal: FinishedDeal) -> dict[str, Any]:
    data = {"deal_number": deal.deal_number, "match_scores": list(deal.match_scores),
            "piles": [_cards(p) for p in deal.piles], "scope": list(deal.scope)}
    if any(deal.bonus):
        data["bonus"] = list(deal.bonus)
    return data


_ENCODERS: dict[type, tuple[str, Callable[[Any], dict[str, Any]]]] = {}  # each direction's module adds its own


# Checking ------------------------------------------------------------------------------------

class _Fields:
    """The fields of one object, read once each; anything left over is an unknown field."""

    def __init__(self, data: Any, where: str, optional: frozenset[str] = frozenset()) -> None:
        if not isinstance(data, dict):
            raise ProtocolError("bad_field", field=where)
        self.data, self.where, self.optional = data, where, optional
        self.read: set[str] = {"type"} if not where else set()

    def __call__(self, name: str, default: Any = None) -> Any:
        self.read.add(name)
        if name not in self.data:
            if name in self.optional:
                return default
            raise ProtocolError("missing_field", field=self._name(name))
        return self.data[name]

    def _name(self, name: str) -> str:
        return f"{self.where}.{name}" if self.where else name

    def done(self) -> None:
        extra = sorted(str(key) for key in set(self.data) - self.read)
        if extra:
            raise ProtocolError("unknown_field", field=self._name(extra[0][:40]))


def _int(value: Any, name: str, low: int = 0, high: int = MAX_NUMBER) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ProtocolError("bad_field", field=name)
    return value


def _optional_int(value: Any, name: str, low: int, high: int) -> int | None:
    return None if value is None else _int(value, name, low, high)


def _bool(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise ProtocolError("bad_field", field=name)
    return value


def _card(value: Any, name: str) -> Card:
    card = _CARDS_BY_TEXT.get(value) if isinstance(value, str) else None
    if card is None:
        raise ProtocolError("bad_field", field=name)
    return card


def _card_list(value: Any, name: str, most: int = 40) -> tuple[Card, ...]:
    if not isinstance(value, list) or len(value) > most:
        raise ProtocolError("bad_field", field=name)
    cards = tuple(_card(item, name) for item in value)
    if len(set(cards)) != len(cards):
        raise ProtocolError("bad_field", field=name)
    return cards


def _int_list(value: Any, name: str, length: int, low: int = 0, high: int = MAX_NUMBER) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) != length:
        raise ProtocolError("bad_field", field=name)
    return tuple(_int(item, name, low, high) for item in value)


def is_player_key(value: object) -> bool:
    """A string shaped like a player key, checked before anything is hashed."""
    return (isinstance(value, str) and len(value) == PLAYER_KEY_HEX
            and all(c in "0123456789abcdef" for c in value))


def check_name(value: Any, name: str = "name", given: bool = False) -> str:
    """A player's name, by the one rule of names (``match.name_problem``): refused as ``bad_name``
    with the field and the reason (length, control, bidi, invisible; for a name ``given`` in a
    client's first message, hidden and silent too). Runs of spaces become one."""
    problem = name_problem(value, given=given)
    if problem is not None:
        raise ProtocolError("bad_name", field=name, reason=problem)
    return " ".join(value.split())


def _level(value: Any, name: str) -> str:
    if value not in LEVELS:
        raise ProtocolError("bad_field", field=name)
    result: str = value
    return result


def decode_rules(value: Any, name: str = "rules") -> Rules:
    if not isinstance(value, dict) or len(value) > 20:
        raise ProtocolError("bad_rules", field=name)
    for option in ("players", "target"):
        if isinstance(value.get(option), (bool, float)):  # the engine would take 2.0 for 2
            raise ProtocolError("bad_rules", field=f"{name}.{option}")
    try:
        rules = Rules.from_dict(value)
    except (RulesError, TypeError, ValueError):
        raise ProtocolError("bad_rules", field=name) from None
    return rules


def _code(value: Any, name: str = "code") -> str:
    code = normalise_code(value) if isinstance(value, str) else None
    if code is None:
        raise ProtocolError("bad_field", field=name)
    return code


def _version(fields: _Fields) -> None:
    version = fields("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise ProtocolError("bad_field", field="version")
    if version != PROTOCOL_VERSION:
        raise ProtocolError("version", supported=PROTOCOL_VERSION)


def _size(raw: str | bytes) -> int:
    return len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "surrogatepass"))


def _load(raw: str | bytes, limit: int) -> dict[str, Any]:
    if _size(raw) > limit:
        raise ProtocolError("too_big", most=limit)
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("not_json") from None
    try:
        data = json.loads(raw, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise ProtocolError("not_json") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ProtocolError("not_object")
    return data


def _no_constant(text: str) -> Any:
    raise ValueError(f"{text} is not JSON")  # NaN and Infinity


def _turn_time(value: Any, name: str) -> int | None:
    """None (no timer) or one of ``TURN_TIMES``, a whole number (not 20.0, not true)."""
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value not in TURN_TIMES:
        raise ProtocolError("bad_field", field=name)
    return value


def _hex(value: Any, name: str) -> bytes:
    """32 bytes as 64 lowercase hex digits."""
    if not (isinstance(value, str) and len(value) == SEED_HEX and all(c in "0123456789abcdef" for c in value)):
        raise ProtocolError("bad_field", field=name)
    return bytes.fromhex(value)


def _day(value: Any, name: str = "day") -> str:
    if not (isinstance(value, str) and len(value) == 10 and value[4] == "-" and value[7] == "-"
            and value.replace("-", "").isdigit()):
        raise ProtocolError("bad_field", field=name)
    import datetime
    try:
        datetime.date.fromisoformat(value)
    except ValueError:
        raise ProtocolError("bad_field", field=name) from None
    return value


def decode_view(value: Any, name: str = "view") -> PlayerView:
    """A seat's view, checked: seats, counts and phases in range, no card in two places."""
    f = _Fields(value, name, frozenset({"claims"}))
    rules = decode_rules(f("rules"), f"{name}.rules")
    players, sides = rules.players, rules.sides
    seat = _int(f("seat"), f"{name}.seat", 0, players - 1)
    deal_number = _int(f("deal_number"), f"{name}.deal_number", 1, 10_000)
    dealer = _int(f("dealer"), f"{name}.dealer", 0, players - 1)
    to_move = _int(f("to_move"), f"{name}.to_move", 0, players - 1)
    round_ = _int(f("round"), f"{name}.round", 0, rules.rounds)
    hand = _card_list(f("hand"), f"{name}.hand", rules.hand_size)
    table = _card_list(f("table"), f"{name}.table")
    hand_counts = _int_list(f("hand_counts"), f"{name}.hand_counts", players, 0, rules.hand_size)
    stock_count = _int(f("stock_count"), f"{name}.stock_count", 0, 40)
    piles_data = f("piles")
    if not isinstance(piles_data, list) or len(piles_data) != sides:
        raise ProtocolError("bad_field", field=f"{name}.piles")
    piles = tuple(_card_list(p, f"{name}.piles") for p in piles_data)
    scope = _int_list(f("scope"), f"{name}.scope", sides, 0, 40)
    last_capturer = _optional_int(f("last_capturer"), f"{name}.last_capturer", 0, players - 1)
    history = _history(f("history"), f"{name}.history", players)
    match_scores = _int_list(f("match_scores"), f"{name}.match_scores", sides)
    totals_data = f("deal_totals")
    if not isinstance(totals_data, list) or len(totals_data) > deal_number:
        raise ProtocolError("bad_field", field=f"{name}.deal_totals")
    deal_totals = tuple(_int_list(t, f"{name}.deal_totals", sides) for t in totals_data)
    phase_text = f("phase")
    if phase_text not in {p.value for p in Phase}:
        raise ProtocolError("bad_field", field=f"{name}.phase")
    winner = _optional_int(f("winner"), f"{name}.winner", 0, sides - 1)
    claims = _claims(f("claims", []), f"{name}.claims", players, rules.rounds)
    f.done()
    seen = hand + table + tuple(c for p in piles for c in p)
    if len(set(seen)) != len(seen) or hand_counts[seat] != len(hand):
        raise ProtocolError("bad_field", field=name)
    return PlayerView(rules, seat, deal_number, dealer, to_move, round_, hand, table, hand_counts, stock_count,
                      piles, scope, last_capturer, history, match_scores, deal_totals, Phase(phase_text), winner,
                      claims)


def _claims(value: Any, name: str, players: int, rounds: int) -> tuple[Claim, ...]:
    """Cirulla's hands shown this deal: each a seat, a round, a bonus its three cards are worth."""
    if not isinstance(value, list) or len(value) > players * rounds:
        raise ProtocolError("bad_field", field=name)
    claims = []
    for item in value:
        f = _Fields(item, name)
        claim = Claim(_int(f("seat"), name, 0, players - 1), _int(f("round"), name, 1, rounds), f("kind"),
                      _card_list(f("cards"), name, 3))
        f.done()
        if claim.kind not in BONUS_KINDS or claim.kind not in bonuses(claim.cards):
            raise ProtocolError("bad_field", field=name)
        claims.append(claim)
    return tuple(claims)


def _history(value: Any, name: str, players: int) -> tuple[Play, ...]:
    if not isinstance(value, list) or len(value) > 40:
        raise ProtocolError("bad_field", field=name)
    plays = []
    for item in value:
        f = _Fields(item, name)
        play = Play(_int(f("seat"), name, 0, players - 1), _card(f("card"), name), _card_list(f("capture"), name),
                    _bool(f("scopa"), name))
        f.done()
        plays.append(play)
    return tuple(plays)


def decode_info(value: Any, name: str = "info") -> RoomInfo:
    f = _Fields(value, name, frozenset({"turn_time", "watchers_chat", "join_between_deals"}))  # a timer; true
    code = _code(f("code"), f"{name}.code")
    phase = f("phase")
    if phase not in ROOM_PHASES:
        raise ProtocolError("bad_field", field=f"{name}.phase")
    rules = decode_rules(f("rules"), f"{name}.rules")
    host = _int(f("host"), f"{name}.host", 0, rules.players - 1)
    level = _level(f("level"), f"{name}.level")
    seats_data = f("seats")
    if not isinstance(seats_data, list) or len(seats_data) != rules.players:
        raise ProtocolError("bad_field", field=f"{name}.seats")
    seats = tuple(None if s is None else _room_seat(s, f"{name}.seats") for s in seats_data)
    deals = _deals(f("assisted_deals"), f"{name}.assisted_deals")
    given = f("contributions")
    if not isinstance(given, list) or len(given) != rules.players:
        raise ProtocolError("bad_field", field=f"{name}.contributions")
    contributions = tuple(None if c is None else _hex(c, f"{name}.contributions") for c in given)
    turn_time = _turn_time(f("turn_time"), f"{name}.turn_time")
    watchers_chat = _true_or_absent(f("watchers_chat"), f"{name}.watchers_chat")
    between = _true_or_absent(f("join_between_deals"), f"{name}.join_between_deals")
    f.done()
    return RoomInfo(code, phase, rules, seats, host, level, deals, contributions, turn_time, watchers_chat, between)


def _true_or_absent(value: Any, name: str) -> bool:
    """A flag sent only when true (absent: false); anything but true is refused."""
    if value is not None and value is not True:
        raise ProtocolError("bad_field", field=name)
    return value is True


def _room_seat(value: Any, name: str) -> RoomSeat:
    f = _Fields(value, name, frozenset({"program"}))  # sent only for a program, to a client that asked
    seat_name = check_name(f("name"), name)
    kind = f("kind")
    if kind not in ("human", "computer"):
        raise ProtocolError("bad_field", field=name)
    level = f("level")
    if (kind == "computer") != (level is not None):
        raise ProtocolError("bad_field", field=name)
    if level is not None:
        _level(level, name)
    seat = RoomSeat(seat_name, kind, level, _bool(f("connected"), name), _bool(f("covered"), name),
                    _bool(f("ready"), name), _true_or_absent(f("program"), name))
    f.done()
    return seat


def decode_event(value: Any, rules: Rules, name: str = "event") -> Event | Notice:
    """An event; ``rules`` to score a ``deal_scored`` again and to check seats."""
    f = _Fields(value, name, frozenset({"bonus"}))
    kind = f("kind")
    players, sides = rules.players, rules.sides

    def seat(key: str) -> int:
        return _int(f(key), f"{name}.{key}", 0, players - 1)

    def small(key: str, high: int = 10_000, low: int = 0) -> int:
        return _int(f(key), f"{name}.{key}", low, high)

    event: Event | Notice
    if kind == "notice":
        notice = f("notice")
        if notice not in NOTICE_KINDS:
            raise ProtocolError("bad_field", field=f"{name}.notice")
        who = seat("seat")
        label = f("name")
        event = Notice(notice, who, "" if label == "" else check_name(label, f"{name}.name"))
    elif kind == "deal_started":
        event = DealStarted(small("deal_number", low=1), seat("dealer"), seat("leader"), small("redeals"))
    elif kind == "cards_dealt":
        table = f("table")
        event = CardsDealt(small("round", 40, 1), small("rounds", 40, 1), small("cards_each", 10, 1),
                           small("stock_left", 40), None if table is None else _card_list(table, f"{name}.table"))
    elif kind == "hand_claimed":  # Cirulla: the hand shown, now public
        claimed, shown = f("claim"), _card_list(f("cards"), f"{name}.cards", 3)
        if claimed not in BONUS_KINDS or claimed not in bonuses(shown) or small("points", 10) != BONUS_POINTS[claimed]:
            raise ProtocolError("bad_field", field=f"{name}.claim")
        event = HandClaimed(seat("seat"), small("side", sides - 1), claimed, BONUS_POINTS[claimed], shown)
    elif kind == "opening_taken":  # Scopa a 15: a first table of 15 or 30 went to the dealer
        event = OpeningTableTaken(seat("dealer"), small("side", sides - 1), _card_list(f("cards"), f"{name}.cards"),
                                  small("scope", 3, 1))
    elif kind == "card_played":
        event = CardPlayed(seat("seat"), _card(f("card"), f"{name}.card"))
    elif kind == "cards_captured":
        event = CardsCaptured(seat("seat"), _card(f("card"), f"{name}.card"), _card_list(f("cards"), f"{name}.cards"),
                              _bool(f("whole_table"), f"{name}.whole_table"))
    elif kind == "card_stays":
        event = CardStaysOnTable(seat("seat"), _card(f("card"), f"{name}.card"))
    elif kind == "scopa":
        event = Scopa(seat("seat"), small("side", sides - 1), small("side_total", 40))
    elif kind == "leftovers_taken":
        taker = _optional_int(f("seat"), f"{name}.seat", 0, players - 1)
        side = _optional_int(f("side"), f"{name}.side", 0, sides - 1)
        event = LeftoversTaken(taker, side, _card_list(f("cards"), f"{name}.cards"))
    elif kind == "deal_scored":
        event = _finished_deal(f, name, rules).scored(rules)
    elif kind == "match_won":
        event = MatchWon(_optional_int(f("side"), f"{name}.side", 0, sides - 1),
                         _int_list(f("match_scores"), f"{name}.match_scores", sides))
    else:
        raise ProtocolError("bad_field", field=f"{name}.kind")
    f.done()
    return event


def _finished_deal(f: _Fields, name: str, rules: Rules) -> FinishedDeal:
    """The fields of a finished deal: its number, each side's pile (no card in two) and scope, the match score."""
    sides = rules.sides
    number = _int(f("deal_number"), f"{name}.deal_number", 1, 10_000)
    scores = _int_list(f("match_scores"), f"{name}.match_scores", sides)
    piles_data = f("piles")
    if not isinstance(piles_data, list) or len(piles_data) != sides:
        raise ProtocolError("bad_field", field=f"{name}.piles")
    piles = tuple(_card_list(p, f"{name}.piles") for p in piles_data)
    if len({c for p in piles for c in p}) != sum(len(p) for p in piles):
        raise ProtocolError("bad_field", field=f"{name}.piles")
    bonus = f("bonus", None)
    return FinishedDeal(number, piles, _int_list(f("scope"), f"{name}.scope", sides, 0, 40), scores,
                        () if bonus is None else _int_list(bonus, f"{name}.bonus", sides, 0, 200))


def _deals(value: Any, name: str) -> frozenset[int]:
    """A list of deal numbers (at most 10,000 of them, each 1 to 10,000), as a set."""
    return frozenset(_int(deal, name, 1, 10_000) for deal in _list(value, name, 10_000))


def _list(value: Any, name: str, most: int) -> list[Any]:
    if not isinstance(value, list) or len(value) > most:
        raise ProtocolError("bad_field", field=name)
    return value
