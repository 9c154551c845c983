"""What a client sends, and how the server reads it: the messages, their encoders and
``parse_client_message``. The rest of the protocol (the version, the limits, the errors, room
information, views, events) is in ``wire``; what the server sends, in ``server_messages``.
docs/protocol.md is the protocol for people outside the project, every message with an example
(checked against these modules by tests/test_protocol_doc.py).

Client to server. The first message of a connection is one of ``hello``, ``create_room``,
``join``, ``watch``, ``leaderboard``, ``quick`` or ``tables``, each with ``"version": PROTOCOL_VERSION``;
any other first message is refused. Protocol 2 is one version: the fairness messages, the variants
and ``claim``, chat, the turn timer, spectators, the lobby's ``seat_kind``, player keys and the
leaderboard, quick matches, the ``tables`` of public rooms and create_room's ``public`` all belong
to it. A player key (``player_key``, 64 hex digits, ``net.server.identity``) travels only in a
first message (create_room, join, leaderboard), never in any other; the server keeps only its
SHA-256, and the field is optional everywhere (a client without a key plays unrated).

    hello        {version, code, seat_key, last_number}   take back a seat (after a drop or crash);
                 last_number is the number of the last update the client has (0: none)
    create_room  {version, name, rules, seats, level, player_key, turn_time}  host a room: rules as
                 Rules.to_dict; seats one entry per seat, "human" (seat 0, the host, must be) or a
                 computer level; level: the computer level that fills human seats still empty at the
                 start; player_key (optional, 64 hex digits): the player's key (``net.server.identity``),
                 sent in this first message only, the name then belongs to it on this server;
                 turn_time (optional): the turn timer's seconds, one of ``net.protocol.wire.TURN_TIMES``
    join         {version, code, name, player_key}           take a free human seat; player_key
                 (optional) as in create_room: a name whose look-alike belongs to another key is
                 refused as name_taken, and a finished match of keyed players is rated
    watch        {version, code, name}                      watch the room as a spectator, no seat: every
                 public update (view null, no hand); a move, ready or start is refused (spectator);
                 chat only where the host allows it (``watchers_chat``, off unless chosen), else
                 chat_refused not_allowed, its allowance the address's; at most MAX_WATCHERS a room
                 (watchers_full); more than ten arrivals a minute from one address: flooded
    contribute   {value, nonce}                             the seat's share of the match seed: 64 hex
                 digits, sent with every welcome in the lobby (the client's own, whatever the info
                 shows); a second one from the same seat is ignored (docs/fairness.md). nonce
                 (optional, added in issue 37, not a new version): the share's 32 secret bytes, the
                 share being SHA-256("scopa share" 0x00 nonce commitment-heard); the server keeps it
                 and tells it to every seat at the end (match_record's nonces), so that each client
                 checks every share was made under the commitment it heard. An older server answers
                 unknown_field {field: nonce}: the client sends the share again without it
                 Sent before ready: the host's start is refused (cannot_start, reason no_share, seat)
                 while a person's seat has none. With the feature contributed, answered
                 ``contributed {value}``, the share the server keeps for the seat
    ready        {}                                         a joined player is ready
    start        {}                                         the host starts the match
    move         {id, card, capture, expected}              play a card; capture is a list of cards;
                 expected is the number of the last update the client saw: the move is refused
                 as stale when the position changed after it (every update of one transition
                 carries the position after the whole transition; notices never make it stale)
    next_deal    {id, expected}                             the host deals the next deal
    claim        {id, expected}                             Cirulla: the seat to move shows its hand
                 to claim its bonus (cirulla or tris), before the hand's first card; answered as a
                 move is (accepted, or refused: illegal when the hand is worth no bonus or it is
                 not the time); the seat's next move follows as usual
    assisted     {}                                         a hint or tip was used in this deal
    record       {id}                                       the finished match's record, asked once
                 the match is over (the client logs it in the player's results)
    leaderboard  {version, top, player_key}                  a first message of its own (issue 29): the
                 top players (1 to MAX_TOP, 10 unless given) and, with the key, the asker's place;
                 answered with ``leaderboard`` (below), then the server closes the connection;
                 at most 60 a minute from one address (net.server.server.BOARD_LIMIT), then the error
                 too_many_tries {seconds}
    ping         {}                                         the server answers pong
    features     {names}                                    the additions to protocol 2 this client reads
                 (``wire.FEATURES``: contributed, program, join_between_deals, quick_wait), sent once
                 welcomed; answered with ``features``, the names turned on; an older server answers
                 unknown_type. The server sends a client
                 nothing new it did not ask for this way (docs/protocol.md, Versions and features)
    mark_changes {}                                         from now on, end each change to the room sent to
                 this connection with ``change_end``: a change (a move, a deal, a notice, the updates
                 a seat taken back missed) is sent as several messages, each update carrying the
                 view after all of them, and a client that acted between two of them acted on a
                 position whose events it had not yet heard. Asked once a seat (or a spectator)
                 is welcomed (each connection asks again); an older server answers with the error
                 unknown_type
    seat_kind    {seat, kind}                               the host, in the lobby: kind "open" makes a
                 computer's seat free for a person, a level puts a computer in a free seat; refused
                 as not_host, not_lobby or bad_seat (the host's own seat, a person's, a taken one)
    move_seat    {from, to}                                 the host, in the lobby: the one in seat ``from``
                 (a person or a computer, the host too) moves to seat ``to``; whoever sits there
                 (a person or a computer) takes seat ``from``, a free seat stays free. In a four-player
                 room this chooses partners. Each person moved is no longer ready (the host stays ready)
                 and keeps their seat key, which now takes back the new seat; each one moved hears
                 ``moved`` first, then everyone the room's info and one seat_moved notice per one moved.
                 Refused as not_host, not_lobby or bad_seat (a seat out of range, ``from`` free, or the same)
    watchers_chat {allowed}                                 the host, before the match is over: whether
                 spectators may chat (true) or not (false); everyone, spectators too, hears the
                 watchers_chat_on or watchers_chat_off notice after the room's info (its ``watchers_chat``);
                 refused as not_host, or not_lobby once the match is over
    more_time    {}                                         the seat to move asks for MORE_TIME seconds more,
                 once per deal, in a room with a turn timer (``net.server.clock``); else no_more_time
    back         {}                                         a player covered after running out of time
                 twice in a row pressed a key: the seat is theirs again
    chat         {text} or {preset}                         a chat line to the table (``net.protocol.chat``): text
                 typed (cleaned, at most MAX_CHAT characters) or one of ``PRESETS`` by name;
                 refused with the error chat_refused {reason}: empty, too_long, too_fast (a spectator:
                 not_allowed)

  create_room, join and quick take ``"program": true`` (optional): a program plays the seat, and
  says so; leaderboard takes ``"programs": true``: the programs' board, kept apart from the people's.
  create_room's seats take ``"computer:LEVEL"``, the command line's form, as LEVEL.

  Finding a game (issue 28). Both are first messages, with ``"version"``:
    quick        {version, name, rules, level, player_key, turn_time}  a quick match: a seat in a quick room of
                 the same rules and turn_time (optional, as create_room's) still waiting for players, or a new
                 one; player_key (optional) as in join: the name is the key's, the match rated (issue 38);
                 the server starts it once every seat is taken, or once its quick wait (``serve
                 --quick-wait``) has passed since the room was made, with computers of the room's
                 ``level`` in the seats still free. A quick room is never listed and needs no ready or
                 start; the answer is a welcome
    tables       {version}                                  the public rooms still waiting: answered with
                 ``tables``, then the server closes the connection
    create_room  takes ``"public": true`` (optional, false unless given): the room is listed by ``tables``;
                 and ``"watchers_chat": true`` (optional, false unless given): spectators may chat;
                 and ``"join_between_deals": true`` (optional, issue 38): once the match has started, a
                 join takes a computer's seat while a deal is over and the next not dealt (a join while
                 a deal is played is refused with between_deals), and is sent the seat's view after
                 its welcome, as a reclaim; the room's info says it (``join_between_deals``) to a
                 connection with the feature join_between_deals

  The daily deal (issue 29, ``net.server.daily``, docs/online.md). Both are first messages, with ``"version"``:
    daily        {version, day, player_key}                 the day's facts and board: day (optional,
                 "YYYY-MM-DD", today in UTC unless given, at most tomorrow); answered with ``daily``, then
                 the server closes the connection; at most 60 a minute from one address, as leaderboard
    daily_deal   {version, name, player_key, deal, day}     play today's deal ``deal`` (1 to the day's
                 deals) against the expert: a new room, already begun (its welcome says "playing"), dealt
                 from the deal's server seed with no contribution; the result is the server's own record.
                 day (optional, "YYYY-MM-DD"): the day the client is playing; a day that is not today on
                 the server's clock is refused with not_today (values: day, the server's today), so a run that
                 crosses UTC midnight never mixes two days; without it, today's deal, whatever the day
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...engine import Move, Rules
from .chat import PRESETS
from .codes import is_key_shaped
from .wire import (
    _ENCODERS,
    MAX_CLIENT_MESSAGE,
    MAX_DAILY_DEALS,
    MAX_TOP,
    PROTOCOL_VERSION,
    ProtocolError,
    _bool,
    _card,
    _card_list,
    _cards,
    _code,
    _day,
    _Fields,
    _hex,
    _int,
    _level,
    _load,
    _true_or_absent,
    _turn_time,
    _version,
    check_name,
    decode_rules,
    encode_rules,
    feature_names,
    is_player_key,
)

# Messages ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Hello:
    code: str
    seat_key: str
    last_number: int = 0


@dataclass(frozen=True)
class CreateRoom:
    name: str
    rules: Rules
    seats: tuple[str, ...]  # "human" or a computer level, one per seat
    level: str = "easy"
    player_key: str | None = None  # net.server.identity: the player's name and rating on this server
    turn_time: int | None = None  # seconds a turn, one of ``net.protocol.wire.TURN_TIMES``; None: no timer
    public: bool = False  # listed by ``tables`` while it waits for players
    watchers_chat: bool = False  # spectators may chat
    join_between_deals: bool = False  # a person may take a computer's seat between deals (issue 38)
    program: bool = False  # a program plays this seat (docs/protocol.md, Programs at the table)


@dataclass(frozen=True)
class Join:
    code: str
    name: str
    player_key: str | None = None
    program: bool = False


@dataclass(frozen=True)
class Contribute:
    value: bytes  # SEED_BYTES: the share, ``shuffle.share_of(nonce, commitment heard)``
    nonce: bytes | None = None  # its SEED_BYTES secret; None from a client of before (a random share)


@dataclass(frozen=True)
class Ready:
    pass


@dataclass(frozen=True)
class Start:
    pass


@dataclass(frozen=True)
class MoveRequest:
    id: int
    move: Move
    expected: int


@dataclass(frozen=True)
class NextDealRequest:
    id: int
    expected: int


@dataclass(frozen=True)
class ClaimRequest:
    """Cirulla: the seat shows its hand to claim its bonus, before the hand's first card."""

    id: int
    expected: int


@dataclass(frozen=True)
class Assisted:
    pass


@dataclass(frozen=True)
class RecordRequest:
    id: int


@dataclass(frozen=True)
class Ping:
    pass


@dataclass(frozen=True)
class MarkChanges:
    """The client asks for ``change_end`` after each change (see the protocol above)."""


# Player keys, ratings and the leaderboard (issue 29; net.server.identity, net.server.ratings) --------------

@dataclass(frozen=True)
class LeaderboardRequest:
    """A first message of its own: the server answers ``leaderboard`` and closes the connection."""

    top: int = 10
    player_key: str | None = None  # to hear the asker's own place
    programs: bool = False  # the programs' board, not the people's


# The daily deal (issue 29; net.server.daily) -------------------------------------------------------

@dataclass(frozen=True)
class DailyRequest:
    """A first message of its own: the day's commitments, its seed once revealed, and its board."""

    day: str | None = None  # None: today (UTC)
    player_key: str | None = None  # to hear the asker's own place and scores
    top: int = 10


@dataclass(frozen=True)
class DailyDeal:
    """A first message: play today's deal ``deal`` against the expert (a room already begun)."""

    name: str
    deal: int
    player_key: str | None = None
    day: str | None = None  # the day the client plays (refused unless it is today); None: today, whichever


# Table chat (issue 28) ---------------------------------------------------------------------

@dataclass(frozen=True)
class ChatRequest:
    """A chat line sent: typed ``text`` or a ``preset`` name, exactly one of the two."""

    text: str | None = None
    preset: str | None = None


@dataclass(frozen=True)
class SeatKind:
    """The host's change of a lobby seat: "open" or a computer level."""

    seat: int
    kind: str


@dataclass(frozen=True)
class MoveSeat:
    """The host's move, in the lobby, of whoever sits in ``from_seat`` to ``to_seat`` (a swap)."""

    from_seat: int
    to_seat: int


@dataclass(frozen=True)
class WatchersChat:
    """The host's choice: whether spectators may chat."""

    allowed: bool


@dataclass(frozen=True)
class Watch:
    code: str
    name: str


@dataclass(frozen=True)
class MoreTime:
    pass


# Finding a game (issue 28) ---------------------------------------------------------------------

@dataclass(frozen=True)
class Quick:
    """A quick match: a seat with others waiting for the same game, or computers after the wait."""

    name: str
    rules: Rules
    level: str = "easy"
    player_key: str | None = None  # the name is the key's, and the match is rated (issue 38)
    turn_time: int | None = None  # the turn timer chosen; only players who chose the same meet (issue 38)
    program: bool = False


@dataclass(frozen=True)
class ListTables:
    pass


@dataclass(frozen=True)
class Back:
    pass


@dataclass(frozen=True)
class Features:
    """The additions to protocol 2 this client reads (``wire.FEATURES``), asked once welcomed; the
    server turns on those it has and says which (``server_messages.FeaturesAnswer``)."""

    names: tuple[str, ...]


ClientMessage = (Hello | CreateRoom | Join | Contribute | Ready | Start | MoveRequest | NextDealRequest | ClaimRequest
                 | Assisted | RecordRequest | Ping | LeaderboardRequest | ChatRequest | MoreTime | Back | Watch
                 | SeatKind | MoveSeat | WatchersChat | Quick | ListTables | DailyRequest | DailyDeal | MarkChanges
                 | Features)
FIRST_MESSAGES = (Hello, CreateRoom, Join, Quick, ListTables, DailyDeal)



# Encoding ------------------------------------------------------------------------------------

def _player_key(message: CreateRoom | Join | Quick | LeaderboardRequest | DailyRequest | DailyDeal) -> dict[str, str]:
    """The player key, only when the client has one (a server before player keys never sees the field)."""
    return {} if message.player_key is None else {"player_key": message.player_key}


def _program(message: CreateRoom | Join | Quick) -> dict[str, bool]:
    """``"program": true`` for a program's seat only: a person's first message is as it always was,
    so an older server reads it (it would refuse the field as unknown)."""
    return {"program": True} if message.program else {}


_ENCODERS.update({
    Hello: ("hello", lambda m: {"version": PROTOCOL_VERSION, "code": m.code, "seat_key": m.seat_key,
                                "last_number": m.last_number}),
    CreateRoom: ("create_room", lambda m: {"version": PROTOCOL_VERSION, "name": m.name,
                                           "rules": encode_rules(m.rules), "seats": list(m.seats),
                                           "level": m.level, **_player_key(m),
                                           **({} if m.turn_time is None else {"turn_time": m.turn_time}),
                                           "public": m.public,
                                           **({"watchers_chat": True} if m.watchers_chat else {}),
                                           **({"join_between_deals": True} if m.join_between_deals else {}),
                                           **_program(m)}),
    Join: ("join", lambda m: {"version": PROTOCOL_VERSION, "code": m.code, "name": m.name, **_player_key(m),
                              **_program(m)}),
    Features: ("features", lambda m: {"names": list(m.names)}),
    Contribute: ("contribute", lambda m: {"value": m.value.hex(),
                                          **({} if m.nonce is None else {"nonce": m.nonce.hex()})}),
    Ready: ("ready", lambda m: {}),
    Start: ("start", lambda m: {}),
    MoveRequest: ("move", lambda m: {"id": m.id, "card": str(m.move.card), "capture": _cards(m.move.capture),
                                     "expected": m.expected}),
    NextDealRequest: ("next_deal", lambda m: {"id": m.id, "expected": m.expected}),
    ClaimRequest: ("claim", lambda m: {"id": m.id, "expected": m.expected}),
    Assisted: ("assisted", lambda m: {}),
    RecordRequest: ("record", lambda m: {"id": m.id}),
    Ping: ("ping", lambda m: {}),
    MarkChanges: ("mark_changes", lambda m: {}),
    LeaderboardRequest: ("leaderboard", lambda m: {"version": PROTOCOL_VERSION, "top": m.top, **_player_key(m),
                                                   **({"programs": True} if m.programs else {})}),
    SeatKind: ("seat_kind", lambda m: {"seat": m.seat, "kind": m.kind}),
    MoveSeat: ("move_seat", lambda m: {"from": m.from_seat, "to": m.to_seat}),
    WatchersChat: ("watchers_chat", lambda m: {"allowed": m.allowed}),
    Watch: ("watch", lambda m: {"version": PROTOCOL_VERSION, "code": m.code, "name": m.name}),
    MoreTime: ("more_time", lambda m: {}),
    Back: ("back", lambda m: {}),
    ChatRequest: ("chat", lambda m: {"text": m.text} if m.preset is None else {"preset": m.preset}),
    # Finding a game (issue 28)
    Quick: ("quick", lambda m: {"version": PROTOCOL_VERSION, "name": m.name, "rules": encode_rules(m.rules),
                                "level": m.level, **_player_key(m),
                                **({} if m.turn_time is None else {"turn_time": m.turn_time}), **_program(m)}),
    ListTables: ("tables", lambda m: {"version": PROTOCOL_VERSION}),
    # The daily deal (issue 29)
    DailyRequest: ("daily", lambda m: {"version": PROTOCOL_VERSION, "top": m.top, **_player_key(m),
                                       **({} if m.day is None else {"day": m.day})}),
    DailyDeal: ("daily_deal", lambda m: {"version": PROTOCOL_VERSION, "name": m.name, "deal": m.deal,
                                         **_player_key(m), **({} if m.day is None else {"day": m.day})}),
})


# Client messages, as the server reads them -----------------------------------------------------

def _hello(f: _Fields) -> Hello:
    _version(f)
    key = f("seat_key")
    if not is_key_shaped(key):
        raise ProtocolError("bad_field", field="seat_key")
    return Hello(_code(f("code")), key, _int(f("last_number", 0), "last_number"))


def _optional_nonce(value: Any) -> bytes | None:
    return None if value is None else _hex(value, "nonce")


def _create_room(f: _Fields) -> CreateRoom:
    _version(f)
    name = check_name(f("name"), given=True)
    rules = decode_rules(f("rules"))
    seats = f("seats")
    if not isinstance(seats, list) or len(seats) != rules.players:
        raise ProtocolError("bad_field", field="seats")
    kinds = tuple(_seat_kind(kind) for kind in seats)
    if kinds[0] != "human":
        raise ProtocolError("bad_field", field="seats")
    return CreateRoom(name, rules, kinds, _level(f("level", "easy"), "level"), _optional_player_key(f),
                      _turn_time(f("turn_time"), "turn_time"), _bool(f("public", False), "public"),
                      _bool(f("watchers_chat", False), "watchers_chat"),
                      _true_or_absent(f("join_between_deals"), "join_between_deals"),
                      _true_or_absent(f("program"), "program"))


def _seat_kind(kind: Any) -> str:
    """A create_room seat: "human", a computer level, or "computer:LEVEL" (the command line's
    ``--seats`` form), read as the level."""
    if kind == "human":
        return "human"
    if isinstance(kind, str) and kind.startswith("computer:"):
        kind = kind.removeprefix("computer:")
    return _level(kind, "seats")


def _watch(f: _Fields) -> Watch:
    _version(f)
    return Watch(_code(f("code")), check_name(f("name"), given=True))


def _quick(f: _Fields) -> Quick:
    _version(f)
    return Quick(check_name(f("name"), given=True), decode_rules(f("rules")), _level(f("level", "easy"), "level"),
                 _optional_player_key(f), _turn_time(f("turn_time"), "turn_time"),
                 _true_or_absent(f("program"), "program"))


def _list_tables(f: _Fields) -> ListTables:
    _version(f)
    return ListTables()


def _join(f: _Fields) -> Join:
    _version(f)
    return Join(_code(f("code")), check_name(f("name"), given=True), _optional_player_key(f),
                _true_or_absent(f("program"), "program"))


def _optional_player_key(f: _Fields) -> str | None:
    key = f("player_key")
    if key is not None and not is_player_key(key):
        raise ProtocolError("bad_field", field="player_key")
    result: str | None = key
    return result


def _move(f: _Fields) -> MoveRequest:
    request_id = _int(f("id"), "id")
    card = _card(f("card"), "card")
    capture = _card_list(f("capture"), "capture", 10)
    if card in capture:
        raise ProtocolError("bad_field", field="capture")
    return MoveRequest(request_id, Move(card, tuple(sorted(capture))), _int(f("expected"), "expected"))


def _leaderboard_request(f: _Fields) -> LeaderboardRequest:
    _version(f)
    return LeaderboardRequest(_int(f("top", 10), "top", 1, MAX_TOP), _optional_player_key(f),
                              _true_or_absent(f("programs"), "programs"))


def _daily_request(f: _Fields) -> DailyRequest:
    _version(f)
    day = f("day")
    return DailyRequest(None if day is None else _day(day), _optional_player_key(f),
                        _int(f("top", 10), "top", 1, MAX_TOP))


def _daily_deal(f: _Fields) -> DailyDeal:
    _version(f)
    day = f("day")
    return DailyDeal(check_name(f("name"), given=True), _int(f("deal"), "deal", 1, MAX_DAILY_DEALS),
                     _optional_player_key(f),
                     None if day is None else _day(day))


def _chat_request(f: _Fields) -> ChatRequest:
    """Text or a preset, one of the two; the text is checked by the server (``net.protocol.chat``), not here."""
    text, preset = f("text"), f("preset")
    if (text is None) == (preset is None):
        raise ProtocolError("missing_field" if text is None else "bad_field", field="text")
    if text is not None and not isinstance(text, str):
        raise ProtocolError("bad_field", field="text")
    if preset is not None and preset not in PRESETS:
        raise ProtocolError("bad_field", field="preset")
    return ChatRequest(text, preset)


_CLIENT_PARSERS: dict[str, tuple[Callable[[_Fields], Any], frozenset[str]]] = {
    "hello": (_hello, frozenset({"last_number"})),
    "create_room": (_create_room, frozenset({"level", "player_key", "turn_time", "public", "watchers_chat",
                                             "join_between_deals", "program"})),
    "join": (_join, frozenset({"player_key", "program"})),
    "features": (lambda f: Features(feature_names(f("names"))), frozenset()),
    "contribute": (lambda f: Contribute(_hex(f("value"), "value"), _optional_nonce(f("nonce"))), frozenset({"nonce"})),
    "ready": (lambda f: Ready(), frozenset()),
    "start": (lambda f: Start(), frozenset()),
    "move": (_move, frozenset()),
    "next_deal": (lambda f: NextDealRequest(_int(f("id"), "id"), _int(f("expected"), "expected")), frozenset()),
    "claim": (lambda f: ClaimRequest(_int(f("id"), "id"), _int(f("expected"), "expected")), frozenset()),
    "assisted": (lambda f: Assisted(), frozenset()),
    "record": (lambda f: RecordRequest(_int(f("id"), "id")), frozenset()),
    "ping": (lambda f: Ping(), frozenset()),
    "mark_changes": (lambda f: MarkChanges(), frozenset()),
    "watch": (_watch, frozenset()),
    "seat_kind": (lambda f: SeatKind(_int(f("seat"), "seat", 0, 3),
                                     "open" if f("kind") == "open" else _level(f("kind"), "kind")), frozenset()),
    "move_seat": (lambda f: MoveSeat(_int(f("from"), "from", 0, 3), _int(f("to"), "to", 0, 3)), frozenset()),
    "watchers_chat": (lambda f: WatchersChat(_bool(f("allowed"), "allowed")), frozenset()),
    "more_time": (lambda f: MoreTime(), frozenset()),
    "back": (lambda f: Back(), frozenset()),
    "chat": (_chat_request, frozenset({"text", "preset"})),
    "leaderboard": (_leaderboard_request, frozenset({"player_key", "top", "programs"})),
    "quick": (_quick, frozenset({"level", "player_key", "turn_time", "program"})),
    "tables": (_list_tables, frozenset()),
    "daily": (_daily_request, frozenset({"day", "player_key", "top"})),
    "daily_deal": (_daily_deal, frozenset({"day", "player_key"})),
}


def parse_client_message(raw: str | bytes) -> ClientMessage:
    """A client's message, checked whole: size, JSON, type, every field; or ``ProtocolError``."""
    data = _load(raw, MAX_CLIENT_MESSAGE)
    kind = data["type"]
    if kind not in _CLIENT_PARSERS:
        raise ProtocolError("unknown_type")
    parse, optional = _CLIENT_PARSERS[kind]
    fields = _Fields(data, "", optional)
    message = parse(fields)
    fields.done()
    result: ClientMessage = message
    return result
