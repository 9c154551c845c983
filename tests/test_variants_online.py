"""Online rooms and the variants (issue 32), on a real ``scopa serve`` over loopback: a room of
Scopa a 15 with win by two and one of Cirulla with its claims are played to their end, and the
server checks a variant's rules."""
from __future__ import annotations

import json
import time

import pytest

from helpers.net import CARD_TEXT, Client, host, join, play_out, start, stored_record
from scopa.engine import Card, HandClaimed, OpeningTableTaken, Rules, parse_cards
from scopa.net.protocol.client_messages import (
    ClaimRequest,
    CreateRoom,
    MoveRequest,
)
from scopa.net.protocol.server_messages import (
    Accepted,
    ErrorMessage,
    Refused,
    Welcome,
)
from scopa.net.protocol.wire import (
    PROTOCOL_VERSION,
    FinishedDeal,
    ProtocolError,
    decode_event,
    encode_event,
)


def test_a_room_of_scopa_a_15_with_win_by_two_is_played_to_its_end(serve, tmp_path):
    server = serve()
    rules = Rules.scopa_15(win_by_two=True)
    ann = host(server.url, rules)
    bob = join(server.url, ann.code)
    start(ann, bob)
    assert ann.view.rules == bob.view.rules == rules
    play_out([ann, bob], ann, timeout=120)
    scores = ann.view.match_scores
    assert ann.view.phase.value == "match_over" and bob.view.match_scores == scores
    assert max(scores) >= 11 and abs(scores[0] - scores[1]) >= 2  # won by two
    record = stored_record(tmp_path / "rooms.sqlite3", ann.code)
    assert record["rules"]["variant"] == "scopa_15" and record["rules"]["win_by_two"] is True


def test_the_first_table_taken_crosses_the_wire():
    event = OpeningTableTaken(1, 1, parse_cards(["AC", "2S", "4S", "JH"]), 1)
    assert decode_event(encode_event(event), Rules.scopa_15()) == event


def test_a_room_of_cirulla_is_played_to_its_end_with_claims_shown_to_everyone_after_never_before(serve):
    """A room's deal is drawn from secrets, and a hand worth a claim comes in about one deal of
    two: single-deal rooms are played one after the other until one had a claim (each room is
    checked whole), twenty at most."""
    server = serve()
    claims = 0
    for _ in range(20):
        claims += _play_cirulla_room(server.url)
        if claims:
            break
    assert claims, "no hand worth a claim in twenty deals"


def _play_cirulla_room(url: str) -> int:
    """One single-deal room of Cirulla played to its end by two people (the first legal move,
    every claim made); how many claims were made. A hand is never seen by the other before its
    claim, and is seen by everyone after it."""
    rules = Rules.cirulla(target=None, players=3)
    ann = host(url, rules, seats=("human", "human", "easy"))
    bob = join(url, ann.code)
    start(ann, bob)
    clients, requests, claims = [ann, bob], iter(range(1, 10 ** 6)), 0
    end = time.monotonic() + 120
    while not all(c.view.phase.value == "match_over" for c in clients):
        assert time.monotonic() < end, "the match did not end in time"
        for client in clients:
            client.poll()
        mover = next((c for c in clients if c.view.is_my_turn), None)
        if mover is None:
            clients[0].poll(0.01)
            continue
        other = bob if mover is ann else ann
        hand, claiming = mover.view.hand, mover.view.claimable() is not None
        if claiming:
            assert other.view.shown_hand(mover.seat) is None  # not before the claim
            assert not set(hand) & {c for frame in other.frames for c in _cards_in(frame)}
            mover.send(ClaimRequest(next(requests), mover.number))
            claims += 1
        else:
            mover.send(MoveRequest(next(requests), mover.view.legal_moves()[0], mover.number))
        answer = mover.until(lambda m: isinstance(m, (Accepted, Refused)))
        assert isinstance(answer, Accepted), answer
        for client in clients:
            client.catch_up(answer.number)
        if claiming:  # this turn's claim (a card played may deal a new round of three, after an older claim)
            assert other.view.shown_hand(mover.seat) == hand  # everyone sees it after
    assert ann.view.match_scores == bob.view.match_scores
    for client in clients:
        client.close()
    return claims


def _cards_in(frame: str) -> set[Card]:
    """Every card a frame names anywhere: a card still in another seat's hand is in none of them."""
    found: set[Card] = set()

    def walk(value: object) -> None:
        if isinstance(value, str) and CARD_TEXT.match(value):
            found.add(Card.parse(value))
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(json.loads(frame))
    return found


def test_a_claim_crosses_the_wire_and_the_bonus_is_scored_again_by_the_receiver():
    claim = HandClaimed(1, 1, "cirulla", 3, parse_cards(["AD", "2S", "6C"]))
    assert decode_event(encode_event(claim), Rules.cirulla()) == claim
    bad = encode_event(claim) | {"claim": "tris"}  # a hand not worth the bonus it names
    with pytest.raises(ProtocolError):
        decode_event(bad, Rules.cirulla())
    deal = FinishedDeal(1, (parse_cards(["AD"]), parse_cards(["KD"])), (0, 1), (4, 1), (3, 0))
    assert deal.scored(Rules.cirulla()).score.sides[0].bonus == 3


@pytest.mark.parametrize("rules", [Rules.cirulla(players=4), Rules(a_perdere=True, target=None, players=3),
                                   Rules.cirulla(cappotto=True, table_nine=True, matta_table=True, ace_scopa=False),
                                   Rules.scopa_15(opening_to_leader=True, opening_pairs=False, kings_redeal=True)])
def test_the_server_accepts_the_variants_and_options(serve, rules):
    server = serve()
    client = Client(server.url)
    client.send(CreateRoom("Ann", rules, ("human",) * rules.players, "easy"))
    welcome = client.until(lambda m: isinstance(m, (ErrorMessage, Welcome)))
    assert isinstance(welcome, Welcome) and welcome.info.rules == rules  # issue 43's options kept as sent
    client.close()


def test_the_server_checks_the_variants_rules(serve):
    server = serve()
    client = Client(server.url)
    client.send(json.dumps({"type": "create_room", "version": PROTOCOL_VERSION, "name": "Ann",
                            "rules": {"variant": "cirulla", "target": 11}, "seats": ["human", "human"],
                            "level": "easy"}))
    answer = client.until(lambda m: isinstance(m, (ErrorMessage, Welcome)))
    assert isinstance(answer, ErrorMessage) and answer.code == "bad_rules"
    client.close()
    client = Client(server.url)
    client.send(json.dumps({"type": "create_room", "version": PROTOCOL_VERSION, "name": "Ann",
                            "rules": Rules().to_dict() | {"cappotto": True}, "seats": ["human", "human"],
                            "level": "easy"}))  # a Cirulla option in a room of Scopa
    answer = client.until(lambda m: isinstance(m, (ErrorMessage, Welcome)))
    assert isinstance(answer, ErrorMessage) and answer.code == "bad_rules"
    client.close()
