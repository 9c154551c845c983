"""The wire protocol of the room server: versioned JSON messages, strictly checked.

docs/protocol.md is the protocol for people outside the project (every message with an example,
every error, the order of a session, reconnection, limits, versions and features); its examples
are checked against this module (tests/test_protocol_doc.py). What follows is the same, short.

Every message is one JSON object in one websocket text frame, with a ``"type"``. Seats are
counted from 0 on the wire (as in the engine); cards are short notation (``"7D"``), exactly as
``str(card)`` writes them. A message from a client is at most ``MAX_CLIENT_MESSAGE`` bytes; one
from the server at most ``MAX_SERVER_MESSAGE``.

Client to server. The first message of a connection is one of ``hello``, ``create_room``,
``join``, ``watch``, ``leaderboard``, ``quick`` or ``tables``, each with ``"version": PROTOCOL_VERSION``;
any other first message is refused. Protocol 2 is one version: the fairness messages, the variants
and ``claim``, chat, the turn timer, spectators, the lobby's ``seat_kind``, player keys and the
leaderboard, quick matches, the ``tables`` of public rooms and create_room's ``public`` all belong
to it. A player key (``player_key``, 64 hex digits, ``net.identity``) travels only in a
first message (create_room, join, leaderboard), never in any other; the server keeps only its
SHA-256, and the field is optional everywhere (a client without a key plays unrated).

    hello        {version, code, seat_key, last_number}   take back a seat (after a drop or crash);
                 last_number is the number of the last update the client has (0: none)
    create_room  {version, name, rules, seats, level, player_key, turn_time}  host a room: rules as
                 Rules.to_dict; seats one entry per seat, "human" (seat 0, the host, must be) or a
                 computer level; level: the computer level that fills human seats still empty at the
                 start; player_key (optional, 64 hex digits): the player's key (``net.identity``),
                 sent in this first message only, the name then belongs to it on this server;
                 turn_time (optional): the turn timer's seconds, one of ``net.clock.TURN_TIMES``
    join         {version, code, name, player_key}           take a free human seat; player_key
                 (optional) as in create_room: a name whose look-alike belongs to another key is
                 refused as name_taken, and a finished match of keyed players is rated
    watch        {version, code, name}                      watch the room as a spectator, no seat: every
                 public update (view null, no hand); a move, ready or start is refused (spectator);
                 chat only where the host allows it (``watchers_chat``, off unless chosen), else
                 chat_refused not_allowed; at most MAX_WATCHERS a room (watchers_full)
    contribute   {value}                                    the seat's share of the match seed: 64 hex
                 digits (32 random bytes), sent once the welcome gave the commitment, in the lobby,
                 before ready; a second one from the same seat is ignored (docs/fairness.md); with the
                 feature contributed, answered ``contributed {value}``, the share kept. The host's
                 start is refused (cannot_start, reason no_share, seat) while a person's seat has none
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
                 at most 60 a minute from one address (net.server.BOARD_LIMIT), then the error
                 too_many_tries {seconds}
    ping         {}                                         the server answers pong
    features     {names}                                    the additions to protocol 2 this client reads
                 (``FEATURES``: contributed, program), sent once welcomed; answered with ``features``,
                 the names turned on; an older server answers unknown_type. The server sends a client
                 nothing it did not ask for this way (docs/protocol.md, Versions and features)
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
                 once per deal, in a room with a turn timer (``net.clock``); else no_more_time
    back         {}                                         a player covered after running out of time
                 twice in a row pressed a key: the seat is theirs again
    chat         {text} or {preset}                         a chat line to the table (``net.chat``): text
                 typed (cleaned, at most MAX_CHAT characters) or one of ``PRESETS`` by name;
                 refused with the error chat_refused {reason}: empty, too_long, too_fast (a spectator:
                 not_allowed)

  Finding a game (issue 28). Both are first messages, with ``"version"``:
    quick        {version, name, rules, level}              a quick match: a seat in a quick room of the
                 same rules still waiting for players, or a new one; the server starts it once every
                 seat is taken, or once its quick wait (``serve --quick-wait``) has passed since the
                 room was made, with computers of the room's ``level`` in the seats still free. A quick
                 room is never listed and needs no ready or start; the answer is a welcome
    tables       {version}                                  the public rooms still waiting: answered with
                 ``tables``, then the server closes the connection
    create_room  takes ``"public": true`` (optional, false unless given): the room is listed by ``tables``;
                 and ``"watchers_chat": true`` (optional, false unless given): spectators may chat

  The daily deal (issue 29, ``net.daily``, docs/online.md). Both are first messages, with ``"version"``:
    daily        {version, day, player_key}                 the day's facts and board: day (optional,
                 "YYYY-MM-DD", today in UTC unless given, at most tomorrow); answered with ``daily``, then
                 the server closes the connection; at most 60 a minute from one address, as leaderboard
    daily_deal   {version, name, player_key, deal, day}     play today's deal ``deal`` (1 to the day's
                 deals) against the expert: a new room, already begun (its welcome says "playing"), dealt
                 from the deal's server seed with no contribution; the result is the server's own record.
                 day (optional, "YYYY-MM-DD"): the day the client is playing; a day that is not today on
                 the server's clock is refused with not_today (values: day, the server's today), so a run that
                 crosses UTC midnight never mixes two days; without it, today's deal, whatever the day

Server to client.

    welcome      {version, code, seat, seat_key, number, info, last_deal, commitment}  after the first message;
                 seat_key only when the seat was just given (create_room, join), never again;
                 number is the room's newest update; last_deal is the last deal that ended (null
                 before one did): {deal_number, piles, scope, match_scores}, the fields of its
                 deal_scored event, so a client started afresh has the score sheet (the B key);
                 after a hello the updates missed since last_number follow (or a resync), then
                 the seat's own "reclaimed" notice; commitment is SHA-256 of the server's seed of
                 the room, 64 hex digits, sent before any seat contributes (null only for a match
                 begun by a server of protocol 1, dealt by shuffle 1)
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
    match_record {id, record, covered}               the answer to ``record`` once the room's match is
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
                 that does not check, and nothing is logged
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
    features     {names}                               the answer to ``features``
    contributed  {value}                               the share the server keeps for this seat
    clock        {seat, seconds}                       the turn timer's warning: seconds left to the seat
                 to move (10, then 5); not numbered. Its timeout and more time are notices
                 (timed_out, more_time), numbered and kept as every notice is
    chat         {seat, name, text, preset, watcher}   a chat line said at the table, to every seat
                 (the sender too): text (cleaned) or preset (a ``PRESETS`` name), the other null;
                 not numbered, not stored, never a move: the client cleans the text again. A
                 spectator's line (where the host allows it) has ``"watcher": true`` (sent only then),
                 name the spectator's and seat the host's (a number in range, not the speaker's)

``info`` is a ``RoomInfo``: {code, phase ("lobby", "playing", "over"), host, level, rules,
seats, assisted_deals, contributions, turn_time (only in a room with a turn timer), watchers_chat
(true only, sent only in a room whose spectators may chat)}, each seat
null (free) or {name, kind, level, connected, covered, ready, program (true only, for a seat a
program plays, sent only to a client with the feature program)}; contributions has one entry per
seat, its contribution in hex or null (public to every seat).

create_room, join and quick take ``"program": true`` (optional): a program plays the seat, and
says so; leaderboard takes ``"programs": true``: the programs' board, kept apart from the people's.
create_room's seats take ``"computer:LEVEL"``, the command line's form, as LEVEL.

Events (``event`` of an update) are {"kind": ...} with the engine event's fields:
deal_started, cards_dealt, card_played, cards_captured, card_stays, scopa, leftovers_taken,
deal_scored, match_won, opening_taken (Scopa a 15 and Cirulla: the dealer's first table of 15
or 30), hand_claimed {seat, side, claim, points, cards} (Cirulla: the hand shown by its claim),
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
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from ..engine import (
    ALL_CARDS,
    ILLEGAL_CODES,
    Card,
    CardPlayed,
    CardsCaptured,
    CardsDealt,
    CardStaysOnTable,
    DealScored,
    DealStarted,
    Event,
    HandClaimed,
    IllegalReason,
    LeftoversTaken,
    MatchWon,
    Move,
    OpeningTableTaken,
    Phase,
    Play,
    PlayerView,
    Rules,
    RulesError,
    Scopa,
    score_deal,
)
from ..engine.cirulla import BONUS_KINDS, BONUS_POINTS, Claim, bonuses
from ..engine.shuffle import SEED_HEX
from ..match import name_problem
from ..table import Notice, NoticeKind, Refusal, SeatInfo, SeatUpdate, TableInfo
from .chat import MAX_CHAT, PRESETS, chat_problem, clean_chat
from .clock import TURN_TIMES
from .codes import is_key_shaped, normalise_code
from .identity import is_player_key

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
    "bad_name",        # a name that is empty, too long or holds control characters
    "version",         # a protocol version this server does not speak; values: supported
    "first_message",   # the first message must be hello, create_room, join or leaderboard
    "already_seated",  # hello, create_room or join again on a seated connection
    "unknown_room",    # no room with this code (never made, or expired and deleted)
    "wrong_key",       # the seat key is not this room's
    "room_full",       # no free human seat
    "started",         # the match has started: no new player can join
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
    "chat_refused",    # a chat line not said; values: reason (``net.chat.CHAT_PROBLEMS``)
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
    turn_time: int | None = None  # the turn timer's seconds (``net.clock``); None: off
    watchers_chat: bool = False  # whether spectators may chat (the host's choice)

    def __post_init__(self) -> None:
        if not self.contributions:
            object.__setattr__(self, "contributions", (None,) * len(self.seats))

    def table_info(self) -> TableInfo:
        """The ``TableInfo`` of the table protocol (a free seat shows as an unnamed human)."""
        seats = tuple(SeatInfo("", "human", None, False, False) if s is None else
                      SeatInfo(s.name, s.kind, s.level, s.connected, s.covered) for s in self.seats)
        return TableInfo(self.rules, seats, self.assisted_deals, self.code)


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
    player_key: str | None = None  # net.identity: the player's name and rating on this server
    turn_time: int | None = None  # seconds a turn, one of ``net.clock.TURN_TIMES``; None: no timer
    public: bool = False  # listed by ``tables`` while it waits for players
    watchers_chat: bool = False  # spectators may chat
    program: bool = False  # a program plays this seat (docs/protocol.md, Programs at the table)


@dataclass(frozen=True)
class Join:
    code: str
    name: str
    player_key: str | None = None
    program: bool = False


@dataclass(frozen=True)
class Contribute:
    value: bytes  # SEED_BYTES random bytes


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


# Player keys, ratings and the leaderboard (issue 29; net.identity, net.ratings) --------------

MAX_TOP = 100  # players in one leaderboard answer


@dataclass(frozen=True)
class LeaderboardRequest:
    """A first message of its own: the server answers ``leaderboard`` and closes the connection."""

    top: int = 10
    player_key: str | None = None  # to hear the asker's own place
    programs: bool = False  # the programs' board, not the people's


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



# The daily deal (issue 29; net.daily) -------------------------------------------------------

MAX_DAILY_DEALS = 10


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
class Moved:
    """To a player the host moved: their seat is now ``seat``."""

    seat: int


@dataclass(frozen=True)
class Watch:
    code: str
    name: str


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


MAX_WATCHERS = 8  # spectators a room takes


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
    program: bool = False


@dataclass(frozen=True)
class ListTables:
    pass


@dataclass(frozen=True)
class Back:
    pass


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


# Features: additions to protocol 2 a client asks for once welcomed (docs/protocol.md, Versions) ----

FEATURES = ("contributed", "program")  # what this server can turn on, in this order
MAX_FEATURES = 16  # names in one features request


@dataclass(frozen=True)
class Features:
    """The additions this client reads; the server turns on those it knows (``FeaturesAnswer``)."""

    names: tuple[str, ...]


@dataclass(frozen=True)
class FeaturesAnswer:
    """The features the server turned on for this connection, in the order asked."""

    names: tuple[str, ...]


@dataclass(frozen=True)
class Contributed:
    """The share of the seed the server keeps for this seat (the first it was sent): the answer to
    ``contribute`` with the feature ``contributed``."""

    value: bytes


ClientMessage = (Hello | CreateRoom | Join | Contribute | Ready | Start | MoveRequest | NextDealRequest | ClaimRequest
                 | Assisted | RecordRequest | Ping | LeaderboardRequest | ChatRequest | MoreTime | Back | Watch
                 | SeatKind | MoveSeat | WatchersChat | Quick | ListTables | DailyRequest | DailyDeal | MarkChanges
                 | Features)
FIRST_MESSAGES = (Hello, CreateRoom, Join, Quick, ListTables, DailyDeal)


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


@dataclass(frozen=True)
class Welcome:
    code: str
    seat: int
    number: int
    info: RoomInfo
    seat_key: str | None = None
    last_deal: FinishedDeal | None = None
    commitment: bytes | None = None  # SHA-256 of the server's seed of the room


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
    computer played some of the asking seat in (``net.rooms.Room.played_for``)."""

    id: int
    record: Mapping[str, Any]
    covered: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Pong:
    pass


@dataclass(frozen=True)
class ChangeEnd:
    """The messages of one change to the room, sent to this connection, end here (``mark_changes``)."""


ServerMessage = (Welcome | InfoMessage | UpdateMessage | ResyncMessage | Accepted | Refused | ErrorMessage
                 | MatchRecordMessage | Pong | Leaderboard | ChatMessage | ClockMessage | Watching | TablesMessage
                 | DailyAnswer | Moved | ChangeEnd | FeaturesAnswer | Contributed)


# Encoding ------------------------------------------------------------------------------------

def _cards(cards: Any) -> list[str]:
    return [str(card) for card in cards]


def encode(message: ClientMessage | ServerMessage) -> str:
    """The message as the text of one websocket frame."""
    return json.dumps(to_wire(message), ensure_ascii=False, separators=(",", ":"))


def to_wire(message: ClientMessage | ServerMessage) -> dict[str, Any]:
    """The message as JSON-ready data."""
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
            **({"watchers_chat": True} if info.watchers_chat else {})}


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


def _update(message: UpdateMessage) -> dict[str, Any]:
    update = message.update
    return {"number": update.number, "event": encode_event(update.event, update.view),
            "view": None if update.view is None else encode_view(update.view)}


def _reason(reason: IllegalReason | None) -> dict[str, Any] | None:
    if reason is None:
        return None
    return {"code": reason.code, "card": None if reason.card is None else str(reason.card),
            "capture": _cards(reason.capture), "seat": reason.seat}


def _player_key(message: CreateRoom | Join | LeaderboardRequest | DailyRequest | DailyDeal) -> dict[str, str]:
    """The player key, only when the client has one (a server before player keys never sees the field)."""
    return {} if message.player_key is None else {"player_key": message.player_key}


def _program(message: CreateRoom | Join | Quick) -> dict[str, bool]:
    """``"program": true`` for a program's seat only: a person's first message is as it always was,
    so an older server reads it (it would refuse the field as unknown)."""
    return {"program": True} if message.program else {}


_ENCODERS: dict[type, tuple[str, Callable[[Any], dict[str, Any]]]] = {
    Hello: ("hello", lambda m: {"version": PROTOCOL_VERSION, "code": m.code, "seat_key": m.seat_key,
                                "last_number": m.last_number}),
    CreateRoom: ("create_room", lambda m: {"version": PROTOCOL_VERSION, "name": m.name,
                                           "rules": encode_rules(m.rules), "seats": list(m.seats),
                                           "level": m.level, **_player_key(m),
                                           **({} if m.turn_time is None else {"turn_time": m.turn_time}),
                                           "public": m.public,
                                           **({"watchers_chat": True} if m.watchers_chat else {}), **_program(m)}),
    Join: ("join", lambda m: {"version": PROTOCOL_VERSION, "code": m.code, "name": m.name, **_player_key(m),
                              **_program(m)}),
    Features: ("features", lambda m: {"names": list(m.names)}),
    FeaturesAnswer: ("features", lambda m: {"names": list(m.names)}),
    Contributed: ("contributed", lambda m: {"value": m.value.hex()}),
    Contribute: ("contribute", lambda m: {"value": m.value.hex()}),
    Ready: ("ready", lambda m: {}),
    Start: ("start", lambda m: {}),
    MoveRequest: ("move", lambda m: {"id": m.id, "card": str(m.move.card), "capture": _cards(m.move.capture),
                                     "expected": m.expected}),
    NextDealRequest: ("next_deal", lambda m: {"id": m.id, "expected": m.expected}),
    ClaimRequest: ("claim", lambda m: {"id": m.id, "expected": m.expected}),
    Assisted: ("assisted", lambda m: {}),
    RecordRequest: ("record", lambda m: {"id": m.id}),
    Ping: ("ping", lambda m: {}),
    Welcome: ("welcome", lambda m: {"version": PROTOCOL_VERSION, "code": m.code, "seat": m.seat,
                                    "seat_key": m.seat_key, "number": m.number, "info": encode_info(m.info),
                                    "last_deal": None if m.last_deal is None else encode_finished(m.last_deal),
                                    "commitment": None if m.commitment is None else m.commitment.hex()}),
    InfoMessage: ("info", lambda m: {"info": encode_info(m.info)}),
    UpdateMessage: ("update", _update),
    ResyncMessage: ("resync", lambda m: {"number": m.number, "view": None if m.view is None else encode_view(m.view),
                                         "info": encode_info(m.info)}),
    Accepted: ("accepted", lambda m: {"id": m.id, "number": m.number}),
    Refused: ("refused", lambda m: {"id": m.id, "kind": m.kind, "reason": _reason(m.reason)}),
    ErrorMessage: ("error", lambda m: {"code": m.code, "values": dict(m.values)}),
    MatchRecordMessage: ("match_record", lambda m: {"id": m.id, "record": dict(m.record),
                                                    **({"covered": sorted(m.covered)} if m.covered else {})}),
    Pong: ("pong", lambda m: {}),
    MarkChanges: ("mark_changes", lambda m: {}),
    ChangeEnd: ("change_end", lambda m: {}),
    LeaderboardRequest: ("leaderboard", lambda m: {"version": PROTOCOL_VERSION, "top": m.top, **_player_key(m),
                                                   **({"programs": True} if m.programs else {})}),
    Leaderboard: ("leaderboard", lambda m: {
        "rows": [{"rank": r.rank, "name": r.name, "rating": r.rating, "matches": r.matches} for r in m.rows],
        "you": None if m.you is None else {"rank": m.you.rank, "of": m.you.of, "rating": m.you.rating}}),
    SeatKind: ("seat_kind", lambda m: {"seat": m.seat, "kind": m.kind}),
    MoveSeat: ("move_seat", lambda m: {"from": m.from_seat, "to": m.to_seat}),
    WatchersChat: ("watchers_chat", lambda m: {"allowed": m.allowed}),
    Moved: ("moved", lambda m: {"seat": m.seat}),
    Watch: ("watch", lambda m: {"version": PROTOCOL_VERSION, "code": m.code, "name": m.name}),
    Watching: ("watching", lambda m: {"version": PROTOCOL_VERSION, "code": m.code, "number": m.number,
                                      "info": encode_info(m.info), "table": _cards(m.table), "to_move": m.to_move,
                                      "deal_number": m.deal_number, "match_scores": list(m.match_scores)}),
    MoreTime: ("more_time", lambda m: {}),
    Back: ("back", lambda m: {}),
    ClockMessage: ("clock", lambda m: {"seat": m.seat, "seconds": m.seconds}),
    ChatRequest: ("chat", lambda m: {"text": m.text} if m.preset is None else {"preset": m.preset}),
    ChatMessage: ("chat", lambda m: {"seat": m.seat, "name": m.name, "text": m.text, "preset": m.preset,
                                     **({"watcher": True} if m.watcher else {})}),
    # Finding a game (issue 28)
    Quick: ("quick", lambda m: {"version": PROTOCOL_VERSION, "name": m.name, "rules": encode_rules(m.rules),
                                "level": m.level, **_program(m)}),
    ListTables: ("tables", lambda m: {"version": PROTOCOL_VERSION}),
    TablesMessage: ("tables", lambda m: {"rooms": [{"code": t.code, "host": t.host, "rules": encode_rules(t.rules),
                                                    "free": t.free} for t in m.rooms]}),
    # The daily deal (issue 29)
    DailyRequest: ("daily", lambda m: {"version": PROTOCOL_VERSION, "top": m.top, **_player_key(m),
                                       **({} if m.day is None else {"day": m.day})}),
    DailyDeal: ("daily_deal", lambda m: {"version": PROTOCOL_VERSION, "name": m.name, "deal": m.deal,
                                         **_player_key(m), **({} if m.day is None else {"day": m.day})}),
    DailyAnswer: ("daily", lambda m: {
        "day": m.day, "deals": m.deals, "commitment": _optional_hex(m.commitment),
        "next_commitment": _optional_hex(m.next_commitment), "seed": _optional_hex(m.seed),
        "rows": [{"rank": r.rank, "name": r.name, "score": r.score} for r in m.rows],
        "you": None if m.you is None else {"rank": m.you.rank, "of": m.you.of, "score": m.you.score,
                                           "deals": list(m.you.deals)},
        "played": [{"deal": p.deal, "score": p.score, "practice": p.practice} for p in m.played]}),
}


def _optional_hex(value: bytes | None) -> str | None:
    return None if value is None else value.hex()


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


def check_name(value: Any, name: str = "name") -> str:
    """A player's name, by the one rule of names (``match.name_problem``): refused as ``bad_name``
    with the field and the reason (length, control, bidi or invisible). Runs of spaces become one."""
    problem = name_problem(value)
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


# Client messages, as the server reads them -----------------------------------------------------

def _hello(f: _Fields) -> Hello:
    _version(f)
    key = f("seat_key")
    if not is_key_shaped(key):
        raise ProtocolError("bad_field", field="seat_key")
    return Hello(_code(f("code")), key, _int(f("last_number", 0), "last_number"))


def _create_room(f: _Fields) -> CreateRoom:
    _version(f)
    name = check_name(f("name"))
    rules = decode_rules(f("rules"))
    seats = f("seats")
    if not isinstance(seats, list) or len(seats) != rules.players:
        raise ProtocolError("bad_field", field="seats")
    kinds = tuple(_seat_kind(kind) for kind in seats)
    if kinds[0] != "human":
        raise ProtocolError("bad_field", field="seats")
    return CreateRoom(name, rules, kinds, _level(f("level", "easy"), "level"), _optional_player_key(f),
                      _turn_time(f("turn_time"), "turn_time"), _bool(f("public", False), "public"),
                      _bool(f("watchers_chat", False), "watchers_chat"), _true_or_absent(f("program"), "program"))


def _seat_kind(kind: Any) -> str:
    """A create_room seat: "human", a computer level, or "computer:LEVEL" (the command line's
    ``--seats`` form), read as the level."""
    if kind == "human":
        return "human"
    if isinstance(kind, str) and kind.startswith("computer:"):
        kind = kind.removeprefix("computer:")
    return _level(kind, "seats")


def _turn_time(value: Any, name: str) -> int | None:
    """None (no timer) or one of ``TURN_TIMES``, a whole number (not 20.0, not true)."""
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value not in TURN_TIMES:
        raise ProtocolError("bad_field", field=name)
    return value


def _watch(f: _Fields) -> Watch:
    _version(f)
    return Watch(_code(f("code")), check_name(f("name")))


def _quick(f: _Fields) -> Quick:
    _version(f)
    return Quick(check_name(f("name")), decode_rules(f("rules")), _level(f("level", "easy"), "level"),
                 _true_or_absent(f("program"), "program"))


def _list_tables(f: _Fields) -> ListTables:
    _version(f)
    return ListTables()


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


def _join(f: _Fields) -> Join:
    _version(f)
    return Join(_code(f("code")), check_name(f("name")), _optional_player_key(f),
                _true_or_absent(f("program"), "program"))


def _optional_player_key(f: _Fields) -> str | None:
    key = f("player_key")
    if key is not None and not is_player_key(key):
        raise ProtocolError("bad_field", field="player_key")
    result: str | None = key
    return result


def _hex(value: Any, name: str) -> bytes:
    """32 bytes as 64 lowercase hex digits."""
    if not (isinstance(value, str) and len(value) == SEED_HEX and all(c in "0123456789abcdef" for c in value)):
        raise ProtocolError("bad_field", field=name)
    return bytes.fromhex(value)


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


def _daily_request(f: _Fields) -> DailyRequest:
    _version(f)
    day = f("day")
    return DailyRequest(None if day is None else _day(day), _optional_player_key(f),
                        _int(f("top", 10), "top", 1, MAX_TOP))


def _daily_deal(f: _Fields) -> DailyDeal:
    _version(f)
    day = f("day")
    return DailyDeal(check_name(f("name")), _int(f("deal"), "deal", 1, MAX_DAILY_DEALS), _optional_player_key(f),
                     None if day is None else _day(day))


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


def _chat_request(f: _Fields) -> ChatRequest:
    """Text or a preset, one of the two; the text is checked by the server (``net.chat``), not here."""
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
                                             "program"})),
    "join": (_join, frozenset({"player_key", "program"})),
    "features": (lambda f: Features(_feature_names(f("names"))), frozenset()),
    "contribute": (lambda f: Contribute(_hex(f("value"), "value")), frozenset()),
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
    "quick": (_quick, frozenset({"level", "program"})),
    "tables": (_list_tables, frozenset()),
    "daily": (_daily_request, frozenset({"day", "player_key", "top"})),
    "daily_deal": (_daily_deal, frozenset({"day", "player_key"})),
}


def _feature_names(value: Any) -> tuple[str, ...]:
    """At most ``MAX_FEATURES`` names of at most 40 characters; a name not known is kept (the
    server leaves it out of its answer), so a newer client's list is never refused."""
    names = _list(value, "names", MAX_FEATURES)
    if not all(isinstance(name, str) and 0 < len(name) <= 40 for name in names):
        raise ProtocolError("bad_field", field="names")
    return tuple(names)


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


# Server messages, as a client reads them ---------------------------------------------------------

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
    f = _Fields(value, name, frozenset({"turn_time", "watchers_chat"}))  # sent only when a timer, when true
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
    f.done()
    return RoomInfo(code, phase, rules, seats, host, level, deals, contributions, turn_time, watchers_chat)


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
                                  small("scope", 2, 1))
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
    return Welcome(code, seat, _int(f("number"), "number"), info, key, _last_deal(f("last_deal"), info.rules),
                   None if heard is None else _hex(heard, "commitment"))


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


def parse_server_message(raw: str | bytes, rules: Rules | None = None, spectator: bool = False) -> ServerMessage:
    """A server's message, checked whole; ``rules`` (from the welcome) reads notices that come
    without a view, and a ``spectator``'s game events, which never have one. Raises ``ProtocolError``."""
    data = _load(raw, MAX_RECORD_MESSAGE)
    kind = data["type"]
    if kind != "match_record" and _size(raw) > MAX_SERVER_MESSAGE:  # only a finished match's record is larger
        raise ProtocolError("too_big", most=MAX_SERVER_MESSAGE)
    optional = {"welcome": frozenset({"last_deal"}),  # older servers sent none
                "match_record": frozenset({"covered"}),  # older servers sent none
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
        message = MatchRecordMessage(_int(fields("id"), "id"), record, _deals(fields("covered", []), "covered"))
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
                           tuple(_int(s, "match_scores") for s in _list(fields("match_scores"), "match_scores", 2)))
    elif kind == "features":
        message = FeaturesAnswer(_feature_names(fields("names")))
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


def _deals(value: Any, name: str) -> frozenset[int]:
    """A list of deal numbers (at most 10,000 of them, each 1 to 10,000), as a set."""
    return frozenset(_int(deal, name, 1, 10_000) for deal in _list(value, name, 10_000))


def _list(value: Any, name: str, most: int) -> list[Any]:
    if not isinstance(value, list) or len(value) > most:
        raise ProtocolError("bad_field", field=name)
    return value


def spectator_update(number: int, event: Any, scored_view: PlayerView | None) -> str:
    """An update frame for spectators: the public event, view null. ``scored_view`` (any seat's)
    is read only for a ``deal_scored``'s piles and scope, public once the deal is scored."""
    return json.dumps({"type": "update", "number": number, "event": encode_event(event, scored_view), "view": None},
                      ensure_ascii=False, separators=(",", ":"))
