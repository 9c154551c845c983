"""What a server sends, and how a client reads it: the messages, their encoders and
``parse_server_message``. The rest of the protocol (the version, the limits, the errors, room
information, views, events) is in ``wire``; what a client sends, in ``client_messages``.
docs/protocol.md is the protocol for people outside the project, every message with an example
(checked against these modules by tests/test_protocol_doc.py).

Server to client.

    welcome      {version, code, seat, seat_key, number, info, last_deal, commitment}  after the first message;
                 seat_key only when the seat was just given (create_room, join), never again;
                 number is the room's newest update; last_deal is the last deal that ended (null
                 before one did): {deal_number, piles, scope, match_scores}, the fields of its
                 deal_scored event, so a client started afresh has the score sheet (the B key);
                 after a hello the updates missed since last_number follow (or a resync), then
                 the seat's own "reclaimed" notice; commitment is SHA-256 of the server's seed of
                 the room, 64 hex digits, sent before any seat contributes (null only for a match
                 begun by a server of protocol 1, dealt by shuffle 1); quick_wait (a quick room only,
                 optional): sent by the servers of issue 38 alone, read still; a server now says it in
                 the features answer, to a client that asked for the feature quick_wait
    watching     {version, code, number, info, table, to_move, deal_number, match_scores}  a spectator's
                 welcome: the room's newest update and its public position (the cards on the table)
    moved        {seat}                              this connection's player now sits in ``seat`` (the
                 host moved them in the lobby, ``move_seat``): sent before the room's info and the
                 seat_moved notices of the move; the seat key stays the same and takes back the new seat
    info         {info}                              the room's seats or phase changed: sent just
                 before the notice update that says so (a client ends no prompt for the info alone)
    update       {number, event, view}               one numbered thing that happened; view is the
                 receiving seat's own view after it (null before the match starts)
    resync       {number, view, info}                too many updates missed: a fresh view
    accepted     {id, number}                        a move or next_deal was done; every update it
                 caused was sent before this, number is the last of them
    refused      {id, kind, reason}                  a move or next_deal was not done; kind is a
                 ``table.Refusal``; reason (illegal only) is {code, card, capture, seat}, the
                 engine's ``IllegalReason`` for the client to say in the player's language
    error        {code, values}                      a message was refused (``ERROR_CODES``); the
                 codes in ``FATAL_ERRORS`` are followed by the server closing the connection
    match_record {id, record, covered, nonces}       the answer to ``record`` once the room's match is
                 over: the whole match as a match file holds it (``storage.record_to_dict``: rules,
                 seats, seed, moves, assisted deals, final position); before the end the answer
                 is ``refused`` (not_now). At most ``MAX_RECORD_MESSAGE`` bytes; a record that
                 would be larger is refused (unavailable). An older server answers ``record``
                 with the error unknown_type, and the client logs nothing. covered: the deals
                 (their numbers, ascending) in which a computer played some of the asking seat
                 (covered while its player was away, or a turn whose time ran out); the client
                 logs them as assisted for this player only, so they earn no achievement.
                 Sent only when there is one (a client from before it, which refuses the field,
                 still logs every match no computer played for it); absent (an older server's
                 answer too), read as none. A deal past the match's last makes the record one
                 that does not check, and nothing is logged. nonces: [{value, nonce}] each share
                 of the record given with its nonce, sent only to a seat whose own share came with
                 one (a client of before refuses the field)
    pong         {}
    change_end   {}                                  only to a connection that sent ``mark_changes``: the
                 messages of one change (moved, info, updates, a resync) sent to it end here
    tables       {rooms}                             the answer to ``tables``: at most ``MAX_TABLES`` rooms,
                 oldest first, each {code, host, rules, free}: host the host's name, free the number
                 of seats nobody has taken
    leaderboard  {rows, you}                          the answer to a first ``leaderboard``, then the
                 connection is closed: rows [{rank, name, rating, matches}] best first (rank from
                 1, rating the openskill ordinal mu − 3 sigma, matches the rated ones); you {rank, of,
                 rating} the asker's place among the ``of`` rated players, or null (no key sent,
                 or the key never rated)
    daily        {day, deals, commitment, next_commitment, seed, rows, you, played}  the answer to a first
                 ``daily``: commitment the SHA-256 of the day's seed (null: no daily that day), next_commitment
                 the next day's (null unless the day asked is today), seed the day seed in hex only once the
                 day has ended (else null); rows [{rank, name, score}] best first, score the summed duplicate
                 score of a player who finished every deal; you {rank, of, score, deals} the asker's place
                 and each deal's score (null: not on the board); played [{deal, score, practice}] the
                 asker's latest room of each deal, practice true when it did not count
    features     {names, quick_wait}                   the answer to ``features``: the features turned
                 on for this connection (``wire.FEATURES`` it asked for), in the order asked;
                 quick_wait only with the feature quick_wait in a quick room: the whole seconds its
                 server waits for people before computers take the free seats (the welcome, sent
                 before the features, cannot say it to the clients that read it alone)
    contributed  {value}                               with the feature contributed, the answer to
                 ``contribute``: the share the server keeps for this seat (the first it was sent)
    clock        {seat, seconds}                       the turn timer's warning: seconds left to the seat
                 to move (10, then 5); not numbered. Its timeout and more time are notices
                 (timed_out, more_time), numbered and kept as every notice is
    chat         {seat, name, text, preset, watcher}   a chat line said at the table, to every seat
                 (the sender too): text (cleaned) or preset (a ``PRESETS`` name), the other null;
                 not numbered, not stored, never a move: the client cleans the text again. A
                 spectator's line (where the host allows it) has ``"watcher": true`` (sent only then),
                 name the spectator's and seat the host's (a number in range, not the speaker's)
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...engine import ILLEGAL_CODES, Card, IllegalReason, PlayerView, Rules
from ...match import clean_line
from ...table import Notice, Refusal, SeatUpdate
from .chat import MAX_CHAT, PRESETS, chat_problem, clean_chat
from .codes import is_key_shaped
from .wire import (
    _ENCODERS,
    ERROR_CODES,
    FATAL_ERRORS,
    MAX_DAILY_DEALS,
    MAX_RECORD_MESSAGE,
    MAX_SERVER_MESSAGE,
    MAX_TABLES,
    MAX_TOP,
    PROTOCOL_VERSION,
    REFUSALS,
    FinishedDeal,
    ProtocolError,
    RoomInfo,
    _bool,
    _card,
    _card_list,
    _cards,
    _code,
    _day,
    _deals,
    _Fields,
    _finished_deal,
    _hex,
    _int,
    _list,
    _load,
    _optional_int,
    _size,
    _true_or_absent,
    _version,
    check_name,
    decode_event,
    decode_info,
    decode_rules,
    decode_view,
    encode_event,
    encode_finished,
    encode_info,
    encode_rules,
    encode_view,
    feature_names,
)

# Player keys, ratings and the leaderboard (issue 29; net.server.identity, net.server.ratings) --------------

@dataclass(frozen=True)
class BoardRow:
    rank: int
    name: str
    rating: float
    matches: int


@dataclass(frozen=True)
class BoardPlace:
    rank: int
    of: int
    rating: float


@dataclass(frozen=True)
class Leaderboard:
    rows: tuple[BoardRow, ...]
    you: BoardPlace | None = None



# The daily deal (issue 29; net.server.daily) -------------------------------------------------------

@dataclass(frozen=True)
class DailyRow:
    rank: int
    name: str
    score: int


@dataclass(frozen=True)
class DailyPlace:
    rank: int
    of: int
    score: int
    deals: tuple[int, ...]


@dataclass(frozen=True)
class DailyPlayed:
    deal: int
    score: int
    practice: bool


@dataclass(frozen=True)
class DailyAnswer:
    day: str
    deals: int
    commitment: bytes | None
    next_commitment: bytes | None = None
    seed: bytes | None = None
    rows: tuple[DailyRow, ...] = ()
    you: DailyPlace | None = None
    played: tuple[DailyPlayed, ...] = ()


# Table chat (issue 28) ---------------------------------------------------------------------

@dataclass(frozen=True)
class Moved:
    """To a player the host moved: their seat is now ``seat``."""

    seat: int


@dataclass(frozen=True)
class Watching:
    """A spectator's welcome: the public position, never a hand."""

    code: str
    number: int
    info: RoomInfo
    table: tuple[Card, ...] = ()
    to_move: int | None = None
    deal_number: int = 0
    match_scores: tuple[int, ...] = ()


# Finding a game (issue 28) ---------------------------------------------------------------------

@dataclass(frozen=True)
class ClockMessage:
    """The turn timer's warning: ``seconds`` left to ``seat``, the seat to move."""

    seat: int
    seconds: int


@dataclass(frozen=True)
class ChatMessage:
    """A chat line said at the table by ``seat`` (named ``name``): ``text`` or ``preset``."""

    seat: int
    name: str
    text: str | None = None
    preset: str | None = None
    watcher: bool = False  # said by a spectator (``name``), under the host's seat number


@dataclass(frozen=True)
class OpenTable:
    """A public room still waiting for players, as ``tables`` lists it."""

    code: str
    host: str
    rules: Rules
    free: int


@dataclass(frozen=True)
class TablesMessage:
    rooms: tuple[OpenTable, ...]


@dataclass(frozen=True)
class Welcome:
    code: str
    seat: int
    number: int
    info: RoomInfo
    seat_key: str | None = None
    last_deal: FinishedDeal | None = None
    commitment: bytes | None = None  # SHA-256 of the server's seed of the room
    quick_wait: int | None = None  # sent by the servers of issue 38 only (now in FeaturesAnswer); None: not said


@dataclass(frozen=True)
class InfoMessage:
    info: RoomInfo


@dataclass(frozen=True)
class UpdateMessage:
    update: SeatUpdate


@dataclass(frozen=True)
class ResyncMessage:
    number: int
    view: PlayerView | None
    info: RoomInfo = field(compare=False)


@dataclass(frozen=True)
class Accepted:
    id: int
    number: int


@dataclass(frozen=True)
class Refused:
    id: int
    kind: Refusal
    reason: IllegalReason | None = None


@dataclass(frozen=True)
class ErrorMessage:
    code: str
    values: Mapping[str, Any] = field(default_factory=dict)

    @property
    def fatal(self) -> bool:
        return self.code in FATAL_ERRORS


@dataclass(frozen=True)
class MatchRecordMessage:
    """The finished match, as ``storage.record_to_dict`` writes it; the client checks it
    (``storage.record_from_dict``) before it keeps anything of it. ``covered``: the deals a
    computer played some of the asking seat in (``net.server.rooms.Room.played_for``)."""

    id: int
    record: Mapping[str, Any]
    covered: frozenset[int] = frozenset()
    nonces: tuple[tuple[bytes, bytes], ...] = ()  # (share, its nonce) of each seat that gave one


@dataclass(frozen=True)
class Pong:
    pass


@dataclass(frozen=True)
class ChangeEnd:
    """The messages of one change to the room, sent to this connection, end here (``mark_changes``)."""


@dataclass(frozen=True)
class FeaturesAnswer:
    """The features the server turned on for this connection, in the order asked (``features``);
    with the feature ``quick_wait``, a quick room's wait for people in whole seconds."""

    names: tuple[str, ...]
    quick_wait: int | None = None  # a quick room's, to a connection with the feature quick_wait; None: not said


@dataclass(frozen=True)
class Contributed:
    """The share of the seed the server keeps for this seat (the first it was sent): the answer to
    ``contribute`` on a connection with the feature ``contributed``."""

    value: bytes


ServerMessage = (Welcome | InfoMessage | UpdateMessage | ResyncMessage | Accepted | Refused | ErrorMessage
                 | MatchRecordMessage | Pong | Leaderboard | ChatMessage | ClockMessage | Watching | TablesMessage
                 | DailyAnswer | Moved | ChangeEnd | FeaturesAnswer | Contributed)


# Encoding ------------------------------------------------------------------------------------

def _update(message: UpdateMessage) -> dict[str, Any]:
    update = message.update
    return {"number": update.number, "event": encode_event(update.event, update.view),
            "view": None if update.view is None else encode_view(update.view)}


def _reason(reason: IllegalReason | None) -> dict[str, Any] | None:
    if reason is None:
        return None
    return {"code": reason.code, "card": None if reason.card is None else str(reason.card),
            "capture": _cards(reason.capture), "seat": reason.seat}


_ENCODERS.update({
    FeaturesAnswer: ("features", lambda m: {"names": list(m.names),
                                            **({} if m.quick_wait is None else {"quick_wait": m.quick_wait})}),
    Contributed: ("contributed", lambda m: {"value": m.value.hex()}),
    Welcome: ("welcome", lambda m: {"version": PROTOCOL_VERSION, "code": m.code, "seat": m.seat,
                                    "seat_key": m.seat_key, "number": m.number, "info": encode_info(m.info),
                                    "last_deal": None if m.last_deal is None else encode_finished(m.last_deal),
                                    "commitment": None if m.commitment is None else m.commitment.hex(),
                                    **({} if m.quick_wait is None else {"quick_wait": m.quick_wait})}),
    InfoMessage: ("info", lambda m: {"info": encode_info(m.info)}),
    UpdateMessage: ("update", _update),
    ResyncMessage: ("resync", lambda m: {"number": m.number, "view": None if m.view is None else encode_view(m.view),
                                         "info": encode_info(m.info)}),
    Accepted: ("accepted", lambda m: {"id": m.id, "number": m.number}),
    Refused: ("refused", lambda m: {"id": m.id, "kind": m.kind, "reason": _reason(m.reason)}),
    ErrorMessage: ("error", lambda m: {"code": m.code, "values": dict(m.values)}),
    MatchRecordMessage: ("match_record", lambda m: {"id": m.id, "record": dict(m.record),
                                                    **({"covered": sorted(m.covered)} if m.covered else {}),
                                                    **({"nonces": [{"value": v.hex(), "nonce": n.hex()}
                                                                   for v, n in m.nonces]} if m.nonces else {})}),
    Pong: ("pong", lambda m: {}),
    ChangeEnd: ("change_end", lambda m: {}),
    Leaderboard: ("leaderboard", lambda m: {
        "rows": [{"rank": r.rank, "name": r.name, "rating": r.rating, "matches": r.matches} for r in m.rows],
        "you": None if m.you is None else {"rank": m.you.rank, "of": m.you.of, "rating": m.you.rating}}),
    Moved: ("moved", lambda m: {"seat": m.seat}),
    Watching: ("watching", lambda m: {"version": PROTOCOL_VERSION, "code": m.code, "number": m.number,
                                      "info": encode_info(m.info), "table": _cards(m.table), "to_move": m.to_move,
                                      "deal_number": m.deal_number, "match_scores": list(m.match_scores)}),
    ClockMessage: ("clock", lambda m: {"seat": m.seat, "seconds": m.seconds}),
    ChatMessage: ("chat", lambda m: {"seat": m.seat, "name": m.name, "text": m.text, "preset": m.preset,
                                     **({"watcher": True} if m.watcher else {})}),
    # Finding a game (issue 28)
    TablesMessage: ("tables", lambda m: {"rooms": [{"code": t.code, "host": t.host, "rules": encode_rules(t.rules),
                                                    "free": t.free} for t in m.rooms]}),
    # The daily deal (issue 29)
    DailyAnswer: ("daily", lambda m: {
        "day": m.day, "deals": m.deals, "commitment": _optional_hex(m.commitment),
        "next_commitment": _optional_hex(m.next_commitment), "seed": _optional_hex(m.seed),
        "rows": [{"rank": r.rank, "name": r.name, "score": r.score} for r in m.rows],
        "you": None if m.you is None else {"rank": m.you.rank, "of": m.you.of, "score": m.you.score,
                                           "deals": list(m.you.deals)},
        "played": [{"deal": p.deal, "score": p.score, "practice": p.practice} for p in m.played]}),
})


def _optional_hex(value: bytes | None) -> str | None:
    return None if value is None else value.hex()


def _tables(f: _Fields) -> TablesMessage:
    rooms = f("rooms")
    if not isinstance(rooms, list) or len(rooms) > MAX_TABLES:
        raise ProtocolError("bad_field", field="rooms")
    found = []
    for item in rooms:
        g = _Fields(item, "rooms")
        rules = decode_rules(g("rules"), "rooms.rules")
        found.append(OpenTable(_code(g("code"), "rooms.code"), check_name(g("host"), "rooms.host"), rules,
                               _int(g("free"), "rooms.free", 1, rules.players - 1)))
        g.done()
    return TablesMessage(tuple(found))


def _score(value: Any, name: str) -> int:
    return _int(value, name, -10_000, 10_000)


def _daily_answer(f: _Fields) -> DailyAnswer:
    day = _day(f("day"))
    deals = _int(f("deals"), "deals", 1, MAX_DAILY_DEALS)
    hexes = {key: None if f(key) is None else _hex(f(key), key) for key in ("commitment", "next_commitment", "seed")}
    rows = []
    for item in _list(f("rows"), "rows", MAX_TOP):
        row = _Fields(item, "rows")
        rows.append(DailyRow(_int(row("rank"), "rows.rank", 1), check_name(row("name"), "rows.name"),
                             _score(row("score"), "rows.score")))
        row.done()
    you_data, you = f("you"), None
    if you_data is not None:
        mine = _Fields(you_data, "you")
        you = DailyPlace(_int(mine("rank"), "you.rank", 1), _int(mine("of"), "you.of", 1),
                         _score(mine("score"), "you.score"),
                         tuple(_score(d, "you.deals") for d in _list(mine("deals"), "you.deals", deals)))
        mine.done()
    played = []
    for item in _list(f("played"), "played", deals):
        entry = _Fields(item, "played")
        played.append(DailyPlayed(_int(entry("deal"), "played.deal", 1, deals), _score(entry("score"), "played.score"),
                                  _bool(entry("practice"), "played.practice")))
        entry.done()
    return DailyAnswer(day, deals, hexes["commitment"], hexes["next_commitment"], hexes["seed"], tuple(rows), you,
                       tuple(played))


def _rating(value: Any, name: str) -> float:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not -1000.0 <= value <= 1000.0:
        raise ProtocolError("bad_field", field=name)
    return float(value)


def _leaderboard(f: _Fields) -> Leaderboard:
    rows_data = f("rows")
    if not isinstance(rows_data, list) or len(rows_data) > MAX_TOP:
        raise ProtocolError("bad_field", field="rows")
    rows = []
    for item in rows_data:
        row = _Fields(item, "rows")
        rows.append(BoardRow(_int(row("rank"), "rows.rank", 1), check_name(row("name"), "rows.name"),
                             _rating(row("rating"), "rows.rating"), _int(row("matches"), "rows.matches")))
        row.done()
    you_data = f("you")
    you = None
    if you_data is not None:
        mine = _Fields(you_data, "you")
        you = BoardPlace(_int(mine("rank"), "you.rank", 1), _int(mine("of"), "you.of", 1),
                         _rating(mine("rating"), "you.rating"))
        mine.done()
    return Leaderboard(tuple(rows), you)


# Server messages, as a client reads them ---------------------------------------------------------

def _last_deal(value: Any, rules: Rules) -> FinishedDeal | None:
    if value is None:
        return None
    f = _Fields(value, "last_deal", frozenset({"bonus"}))
    deal = _finished_deal(f, "last_deal", rules)
    f.done()
    return deal


def _illegal_reason(value: Any) -> IllegalReason | None:
    if value is None:
        return None
    f = _Fields(value, "reason")
    code = f("code")
    if code not in ILLEGAL_CODES:
        raise ProtocolError("bad_field", field="reason.code")
    card = f("card")
    reason = IllegalReason(code, None if card is None else _card(card, "reason.card"),
                           _card_list(f("capture"), "reason.capture"), _optional_int(f("seat"), "reason.seat", 0, 3))
    f.done()
    return reason


def _server_update(f: _Fields, rules: Rules | None, spectator: bool = False) -> UpdateMessage:
    number = _int(f("number"), "number", 1)
    view_data = f("view")
    view = None if view_data is None else decode_view(view_data)
    event_rules = view.rules if view is not None else rules
    event_data = f("event")
    if event_rules is None:
        if not (isinstance(event_data, dict) and event_data.get("kind") == "notice"):
            raise ProtocolError("bad_field", field="view")  # a game event always comes with a view
        event_rules = Rules()
    event = decode_event(event_data, event_rules)
    if not isinstance(event, Notice) and view is None and not spectator:  # a spectator has no view
        raise ProtocolError("bad_field", field="view")
    return UpdateMessage(SeatUpdate(number, event, view))


def _welcome(f: _Fields) -> Welcome:
    _version(f)
    code = _code(f("code"))
    info = decode_info(f("info"))
    seat = _int(f("seat"), "seat", 0, info.rules.players - 1)
    key = f("seat_key")
    if key is not None and not is_key_shaped(key):
        raise ProtocolError("bad_field", field="seat_key")
    heard = f("commitment")
    wait = f("quick_wait")
    return Welcome(code, seat, _int(f("number"), "number"), info, key, _last_deal(f("last_deal"), info.rules),
                   None if heard is None else _hex(heard, "commitment"),
                   None if wait is None else _int(wait, "quick_wait", 0, 24 * 3600))


def _refused(f: _Fields) -> Refused:
    kind = f("kind")
    if kind not in REFUSALS:
        raise ProtocolError("bad_field", field="kind")
    reason = _illegal_reason(f("reason"))
    return Refused(_int(f("id"), "id"), kind, reason)


def _error(f: _Fields) -> ErrorMessage:
    code = f("code")
    if code not in ERROR_CODES:
        raise ProtocolError("bad_field", field="code")
    values = f("values")
    if not isinstance(values, dict) or len(values) > 4 or not all(
            isinstance(v, (str, int)) and not isinstance(v, bool) and (not isinstance(v, str) or len(v) <= 40)
            for v in values.values()):
        raise ProtocolError("bad_field", field="values")
    return ErrorMessage(code, values)


def clean_strings(value: Any) -> Any:
    """``value`` (decoded JSON) with every string in it, keys too, cleaned by the network's one
    rule (``match.clean_line``): whatever a server sends, in whichever field, no escape, C1 or
    direction character reaches a screen, a voice or a log through this client."""
    if isinstance(value, str):
        return clean_line(value)
    if isinstance(value, list):
        return [clean_strings(item) for item in value]
    if isinstance(value, dict):
        return {clean_line(key): clean_strings(item) for key, item in value.items()}
    return value


def _nonces(value: Any) -> tuple[tuple[bytes, bytes], ...]:
    """match_record's nonces: [{value, nonce}], at most one per seat."""
    items = _list(value, "nonces", 4)
    if not all(isinstance(item, dict) and set(item) == {"value", "nonce"} for item in items):
        raise ProtocolError("bad_field", field="nonces")
    return tuple((_hex(item["value"], "nonces"), _hex(item["nonce"], "nonces")) for item in items)


def parse_server_message(raw: str | bytes, rules: Rules | None = None, spectator: bool = False) -> ServerMessage:
    """A server's message, checked whole; ``rules`` (from the welcome) reads notices that come
    without a view, and a ``spectator``'s game events, which never have one. Raises ``ProtocolError``."""
    data = clean_strings(_load(raw, MAX_RECORD_MESSAGE))
    kind = data["type"]
    if kind != "match_record" and _size(raw) > MAX_SERVER_MESSAGE:  # only a finished match's record is larger
        raise ProtocolError("too_big", most=MAX_SERVER_MESSAGE)
    optional = {"welcome": frozenset({"last_deal", "quick_wait"}),  # older servers sent none; issue 38's, quick rooms
                "features": frozenset({"quick_wait"}),  # a quick room's, with the feature quick_wait
                "match_record": frozenset({"covered", "nonces"}),  # older servers sent none
                "chat": frozenset({"watcher"})}.get(kind, frozenset())  # sent only for a spectator's line
    fields = _Fields(data, "", optional)
    message: ServerMessage
    if kind == "welcome":
        message = _welcome(fields)
    elif kind == "info":
        message = InfoMessage(decode_info(fields("info")))
    elif kind == "update":
        message = _server_update(fields, rules, spectator)
    elif kind == "resync":
        view_data = fields("view")
        message = ResyncMessage(_int(fields("number"), "number"),
                                None if view_data is None else decode_view(view_data), decode_info(fields("info")))
    elif kind == "accepted":
        message = Accepted(_int(fields("id"), "id"), _int(fields("number"), "number"))
    elif kind == "refused":
        message = _refused(fields)
    elif kind == "error":
        message = _error(fields)
    elif kind == "match_record":
        record = fields("record")
        if not isinstance(record, dict):
            raise ProtocolError("bad_field", field="record")
        message = MatchRecordMessage(_int(fields("id"), "id"), record, _deals(fields("covered", []), "covered"),
                                     _nonces(fields("nonces", [])))
    elif kind == "pong":
        message = Pong()
    elif kind == "change_end":
        message = ChangeEnd()
    elif kind == "tables":
        message = _tables(fields)
    elif kind == "leaderboard":
        message = _leaderboard(fields)
    elif kind == "daily":
        message = _daily_answer(fields)
    elif kind == "chat":
        message = _chat_message(fields, rules)
    elif kind == "moved":
        players = rules.players if rules is not None else 4
        message = Moved(_int(fields("seat"), "seat", 0, players - 1))
    elif kind == "watching":
        _version(fields)
        info = decode_info(fields("info"))
        players = info.rules.players
        message = Watching(_code(fields("code")), _int(fields("number"), "number"), info,
                           _card_list(fields("table"), "table"), _optional_int(fields("to_move"), "to_move", 0,
                                                                                players - 1),
                           _int(fields("deal_number"), "deal_number", 0, 10_000),
                           tuple(_int(s, "match_scores")  # one a side: as many as seats at most (not two)
                                 for s in _list(fields("match_scores"), "match_scores", players)))
    elif kind == "features":
        wait = fields("quick_wait")
        message = FeaturesAnswer(feature_names(fields("names")),
                                 None if wait is None else _int(wait, "quick_wait", 0, 24 * 3600))
    elif kind == "contributed":
        message = Contributed(_hex(fields("value"), "value"))
    elif kind == "clock":
        players = rules.players if rules is not None else 4
        message = ClockMessage(_int(fields("seat"), "seat", 0, players - 1), _int(fields("seconds"), "seconds", 1, 90))
    else:
        raise ProtocolError("unknown_type")
    fields.done()
    return message



def _chat_message(f: _Fields, rules: Rules | None) -> ChatMessage:
    """A chat line heard: the seat in range, the name a name, the text cleaned again (whatever
    the server did, nothing that moves the cursor or turns the line reaches the screen)."""
    players = rules.players if rules is not None else 4
    seat = _int(f("seat"), "seat", 0, players - 1)
    name = check_name(f("name"))
    text, preset = f("text"), f("preset")
    if (text is None) == (preset is None) or (preset is not None and preset not in PRESETS):
        raise ProtocolError("bad_field", field="preset")
    if text is not None:
        if not isinstance(text, str) or len(text) > 4 * MAX_CHAT:
            raise ProtocolError("bad_field", field="text")
        text = clean_chat(text)
        if chat_problem(text) is not None:
            raise ProtocolError("bad_field", field="text")
    return ChatMessage(seat, name, text, preset, _true_or_absent(f("watcher"), "watcher"))


def update_frames(updates: Sequence[SeatUpdate]) -> list[str]:
    """The frames of ``UpdateMessage(update)`` for each update, exactly as ``encode`` writes them, with
    each view encoded once however many updates carry it: the updates of one change carry one view
    (the position after the whole change), given as the same object (the room server's ``_tell``)."""
    frames = []
    last_view: PlayerView | None = None
    last_text = "null"
    for update in updates:
        view = update.view
        if view is not last_view:
            last_view = view
            last_text = "null" if view is None else json.dumps(encode_view(view), ensure_ascii=False,
                                                                 separators=(",", ":"))
        event = json.dumps(encode_event(update.event, view), ensure_ascii=False, separators=(",", ":"))
        frames.append(f'{{"type":"update","number":{update.number},"event":{event},"view":{last_text}}}')
    return frames


def spectator_update(number: int, event: Any, scored_view: PlayerView | None) -> str:
    """An update frame for spectators: the public event, view null. ``scored_view`` (any seat's)
    is read only for a ``deal_scored``'s piles and scope, public once the deal is scored."""
    return json.dumps({"type": "update", "number": number, "event": encode_event(event, scored_view), "view": None},
                      ensure_ascii=False, separators=(",", ":"))
