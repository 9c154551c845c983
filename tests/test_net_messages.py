"""The wire protocol: every message survives the trip, and every malformed one is refused by name."""
from __future__ import annotations

import json

import pytest

from scopa.engine import Card, DealScored, IllegalReason, Move, Rules, new_match
from scopa.net.protocol.client_messages import (
    CreateRoom,
    Hello,
    Join,
    MoveRequest,
    MoveSeat,
    NextDealRequest,
    Ping,
    Ready,
    RecordRequest,
    WatchersChat,
    parse_client_message,
)
from scopa.net.protocol.codes import ALPHABET, key_hash, key_matches, new_code, new_seat_key, normalise_code
from scopa.net.protocol.server_messages import (
    Accepted,
    ChatMessage,
    ErrorMessage,
    InfoMessage,
    MatchRecordMessage,
    Moved,
    Refused,
    ResyncMessage,
    UpdateMessage,
    Welcome,
    parse_server_message,
)
from scopa.net.protocol.wire import (
    MAX_CLIENT_MESSAGE,
    MAX_RECORD_MESSAGE,
    MAX_SERVER_MESSAGE,
    FinishedDeal,
    ProtocolError,
    RoomInfo,
    RoomSeat,
    encode,
)
from scopa.table import Notice, SeatUpdate

INFO = RoomInfo("ACDEFG", "playing", Rules(), (RoomSeat("Ann"), RoomSeat("Bob", "computer", "easy")))


def whole_match(seed: int, rules: Rules = Rules()):
    """Every (event, state after it) of a match played with each seat's last legal move."""
    state, events = new_match(rules, seed=seed)
    yield from ((e, state) for e in events)
    while not state.is_match_over:
        state, events = state.next_deal() if state.is_deal_over else state.apply(state.legal_moves()[-1])
        yield from ((e, state) for e in events)


@pytest.mark.parametrize("rules", [Rules(), Rules.scopone_scientifico(), Rules(players=3, napola=True)])
def test_every_event_and_view_of_a_match_survives_the_wire(rules):
    for number, (event, state) in enumerate(whole_match(5, rules), 1):
        for seat in range(rules.players):
            message = UpdateMessage(SeatUpdate(number, event, state.view(seat)))
            assert parse_server_message(encode(message)) == message


def test_a_view_on_the_wire_holds_only_its_own_hand():
    state, _ = new_match(Rules(), seed=9)
    text = encode(UpdateMessage(SeatUpdate(1, Notice("started", 0), state.view(0))))
    cards = set(json.loads(text)["view"]["hand"])
    assert cards == {str(c) for c in state.hands[0]}
    assert not any(f'"{c}"' in text for c in state.hands[1])
    assert not any(f'"{c}"' in text for c in state.stock)


def test_other_server_messages_survive_the_wire():
    state, _ = new_match(Rules(), seed=1)
    for message in [Welcome("ACDEFG", 1, 4, INFO, new_seat_key()), Welcome("ACDEFG", 0, 4, INFO),
                    ResyncMessage(7, state.view(1), INFO), Accepted(3, 9),
                    Refused(2, "illegal", IllegalReason("must_capture", Card.parse("7D"), (), 0)),
                    Refused(2, "stale"), ErrorMessage("too_many_tries", {"seconds": 30})]:
        assert parse_server_message(encode(message)) == message
    notice = UpdateMessage(SeatUpdate(2, Notice("joined", 1, "Bob"), None))
    assert parse_server_message(encode(notice), Rules()) == notice


def _finished_first_deal(rules: Rules = Rules()):
    """The (DealScored, position it was scored in) of the first deal of a seeded match."""
    return next((e, state) for e, state in whole_match(3, rules) if isinstance(e, DealScored))


@pytest.mark.parametrize("rules", [Rules(), Rules.scopone_scientifico(), Rules(players=3, napola=True)])
def test_a_welcome_carries_the_last_finished_deal_and_the_client_scores_it_the_same(rules):
    scored, position = _finished_first_deal(rules)
    deal = FinishedDeal(scored.deal_number, position.piles, position.scope, scored.match_scores)
    info = RoomInfo("ACDEFG", "playing", rules, (RoomSeat("Ann"),) * rules.players)
    welcome = Welcome("ACDEFG", 1, 80, info, None, deal)
    text = encode(welcome)
    assert parse_server_message(text) == welcome
    assert parse_server_message(text).last_deal.scored(rules) == scored  # the same sheet, breakdown and all
    data = json.loads(text)["last_deal"]
    assert sorted(data) == ["deal_number", "match_scores", "piles", "scope"]  # no hand, no table, no stock
    assert data == {k: v for k, v in json.loads(encode(UpdateMessage(SeatUpdate(9, scored, position.view(0)))))[
        "event"].items() if k != "kind"}  # exactly what its deal_scored event told every seat
    data["piles"][1].append(data["piles"][0][0])  # a card in two piles
    with pytest.raises(ProtocolError) as refused:
        parse_server_message(json.dumps(json.loads(text) | {"last_deal": data}))
    assert refused.value.values == {"field": "last_deal.piles"}
    older = {k: v for k, v in json.loads(text).items() if k != "last_deal"}  # a server of before sends none
    assert parse_server_message(json.dumps(older)).last_deal is None


def test_client_messages_survive_the_wire():
    messages = [Hello("ACDEFG", new_seat_key(), 12), CreateRoom("Ann", Rules(players=4), ("human", "human", "easy",
                                                                                         "human"), "hard"),
                Join("ACDEFG", "Bob"), Ready(), MoveRequest(1, Move(Card.parse("7D"), (Card.parse("3H"),)), 5),
                NextDealRequest(2, 9), RecordRequest(4), Ping()]
    for message in messages:
        assert parse_client_message(encode(message)) == message


def test_a_finished_matchs_record_is_the_one_message_that_may_be_larger_and_must_be_an_object():
    record = {"seed": 7, "moves": [{"card": "7D"}] * 8000}  # the wire checks its size and shape; the client the rest
    text = encode(MatchRecordMessage(3, record))
    assert MAX_SERVER_MESSAGE < len(text) < MAX_RECORD_MESSAGE
    answer = parse_server_message(text)
    assert answer == MatchRecordMessage(3, record)
    for bad, code in ((json.dumps({"type": "match_record", "id": 3, "record": [1]}), "bad_field"),
                      (json.dumps({"type": "match_record", "id": 3, "record": "x" * MAX_RECORD_MESSAGE}), "too_big"),
                      (json.dumps({"type": "pong", "pad": "x" * MAX_SERVER_MESSAGE}), "too_big")):
        with pytest.raises(ProtocolError) as refused:
            parse_server_message(bad)
        assert refused.value.code == code


def test_a_match_records_covered_deals_are_optional_and_checked():
    """covered: the deals a computer played some of the asking seat in; an older server sends none."""
    record = {"seed": 7, "moves": []}
    text = encode(MatchRecordMessage(3, record, frozenset({4, 2})))
    assert json.loads(text)["covered"] == [2, 4]
    assert parse_server_message(text) == MatchRecordMessage(3, record, frozenset({2, 4}))
    older = json.dumps({"type": "match_record", "id": 3, "record": record})
    assert parse_server_message(older).covered == frozenset()
    assert "covered" not in json.loads(encode(MatchRecordMessage(3, record)))  # sent only when there is one
    for bad in (None, "2", 2, {"2": True}, [0], [-1], [10_001], [True], [2.0], ["2"], [[2]], [1] * 10_001):
        with pytest.raises(ProtocolError) as refused:
            parse_server_message(json.dumps({"type": "match_record", "id": 3, "record": record, "covered": bad}))
        assert (refused.value.code, refused.value.values) == ("bad_field", {"field": "covered"})


def _move(**changes):
    data = {"type": "move", "id": 1, "card": "7D", "capture": ["3H", "4C"], "expected": 3} | changes
    return json.dumps({k: v for k, v in data.items() if v is not ...})


@pytest.mark.parametrize("raw, code, field", [
    ("x" * (MAX_CLIENT_MESSAGE + 1), "too_big", None),
    (b"\xff\xfe", "not_json", None),
    ("{", "not_json", None),
    ('{"type": "ping", "n": NaN}', "not_json", None),
    ("[1, 2]", "not_object", None),
    ('{"kind": "ping"}', "not_object", None),
    ('{"type": "shout"}', "unknown_type", None),
    ('{"type": "ping", "extra": 1}', "unknown_field", "extra"),
    ('{"type": "record"}', "missing_field", "id"),
    ('{"type": "record", "id": "1"}', "bad_field", "id"),
    (_move(card="7d"), "bad_field", "card"),
    (_move(card="8D"), "bad_field", "card"),
    (_move(card=7), "bad_field", "card"),
    (_move(capture="3H"), "bad_field", "capture"),
    (_move(capture=["3H", "3H"]), "bad_field", "capture"),
    (_move(capture=["7D"]), "bad_field", "capture"),
    (_move(expected=-1), "bad_field", "expected"),
    (_move(expected=True), "bad_field", "expected"),
    (_move(expected=2 ** 40), "bad_field", "expected"),
    (_move(expected=...), "missing_field", "expected"),
    ('{"type": "join", "version": 99, "code": "ACDEFG", "name": "Bob"}', "version", None),
    ('{"type": "join", "version": 2, "code": "ACDEF0", "name": "Bob"}', "bad_field", "code"),
    ('{"type": "join", "version": 2, "code": "ACDEFG", "name": "Bo\\u0007b"}', "bad_name", "name"),
    ('{"type": "join", "version": 2, "code": "ACDEFG", "name": "   "}', "bad_name", "name"),
    ('{"type": "hello", "version": 2, "code": "ACDEFG", "seat_key": "short"}', "bad_field", "seat_key"),
    ('{"type": "create_room", "version": 2, "name": "A", "rules": {"players": 5}, "seats": []}', "bad_rules", "rules"),
    ('{"type": "create_room", "version": 2, "name": "A", "rules": {"players": 2.0}, "seats": []}', "bad_rules",
     "rules.players"),
    ('{"type": "create_room", "version": 2, "name": "A", "rules": {}, "seats": ["easy", "human"]}', "bad_field",
     "seats"),
    ('{"type": "create_room", "version": 2, "name": "A", "rules": {}, "seats": ["human", "genius"]}', "bad_field",
     "seats"),
])
def test_malformed_client_messages_are_refused_with_a_code(raw, code, field):
    with pytest.raises(ProtocolError) as refused:
        parse_client_message(raw)
    assert refused.value.code == code
    assert refused.value.values.get("field") == field


def test_room_codes_ignore_case_spaces_and_dashes_and_avoid_look_alikes():
    assert not set("0O1IL2Z5S8B") & set(ALPHABET)
    code = new_code()
    assert len(code) == 6 and set(code) <= set(ALPHABET)
    assert normalise_code(f" {code[:3].lower()}-{code[3:]} ") == code
    assert normalise_code("ACDEF") is None and normalise_code("ACDEF0") is None


def test_seat_keys_are_long_and_only_their_hash_matches():
    key = new_seat_key()
    assert len(key) >= 22  # 128 bits in url-safe base64
    assert key_matches(key, key_hash(key)) and not key_matches(new_seat_key(), key_hash(key))
    assert key not in key_hash(key)


def test_the_hosts_seat_moves_and_spectators_chat_survive_the_wire():
    """move_seat, watchers_chat and moved (issue 28), the room's watchers_chat, a spectator's line."""
    for message in (MoveSeat(1, 3), MoveSeat(0, 2), WatchersChat(True), WatchersChat(False),
                    CreateRoom("Ann", Rules(), ("human", "human"), watchers_chat=True)):
        assert parse_client_message(encode(message)) == message
    info = RoomInfo("ACDEFG", "lobby", Rules(), (RoomSeat("Ann"), None), watchers_chat=True)
    for answer in (Moved(1), InfoMessage(info), InfoMessage(INFO), ChatMessage(0, "Carla", "ciao", watcher=True),
                   ChatMessage(1, "Bob", None, "thanks")):
        assert parse_server_message(encode(answer), Rules()) == answer
    assert "watchers_chat" not in encode(InfoMessage(INFO)) and "watcher" not in encode(ChatMessage(1, "Bob", "hi"))
    assert "watchers_chat" not in encode(CreateRoom("Ann", Rules(), ("human", "human")))  # sent only when chosen


@pytest.mark.parametrize("raw, field", [
    ('{"type": "move_seat", "from": 1}', "to"),
    ('{"type": "move_seat", "from": 1, "to": 4}', "to"),
    ('{"type": "move_seat", "from": -1, "to": 2}', "from"),
    ('{"type": "move_seat", "from": true, "to": 2}', "from"),
    ('{"type": "move_seat", "from": 1, "to": 2, "swap": true}', "swap"),
    ('{"type": "watchers_chat", "allowed": "yes"}', "allowed"),
    ('{"type": "watchers_chat"}', "allowed"),
])
def test_a_malformed_seat_move_or_spectators_choice_is_refused_by_field(raw, field):
    with pytest.raises(ProtocolError) as refused:
        parse_client_message(raw)
    assert refused.value.values.get("field") == field


def test_a_moved_seat_out_of_range_and_a_watcher_flag_not_true_are_refused():
    for raw, field in (('{"type": "moved", "seat": 2}', "seat"),
                       ('{"type": "chat", "seat": 0, "name": "C", "text": "x", "preset": null, "watcher": false}',
                        "watcher")):
        with pytest.raises(ProtocolError) as refused:
            parse_server_message(raw, Rules())
        assert refused.value.values.get("field") == field
    data = json.loads(encode(InfoMessage(INFO)))
    data["info"]["watchers_chat"] = False  # sent only when true: anything else is refused
    with pytest.raises(ProtocolError) as refused:
        parse_server_message(json.dumps(data))
    assert refused.value.values.get("field") == "info.watchers_chat"
