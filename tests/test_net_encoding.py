"""The room server encodes each view of a change once (``protocol.server_messages.update_frames``,
docs/architecture.md "Costs"): the frames are still, byte for byte, each update encoded alone."""
from __future__ import annotations

from scopa.engine import Rules
from scopa.net.protocol.codes import key_hash, new_seat_key
from scopa.net.protocol.server_messages import UpdateMessage, parse_server_message, spectator_update, update_frames
from scopa.net.protocol.wire import encode
from scopa.net.server.rooms import new_room
from scopa.net.server.server import seat_updates


def test_every_change_of_whole_matches_is_encoded_as_each_update_alone():
    for rules in (Rules(target=None), Rules(players=4, target=None), Rules(variant="cirulla", target=None)):
        kinds = ("human",) * rules.players
        room, changes = new_room("ACDEFG", rules, kinds, "Ann", key_hash(new_seat_key()), "easy", now=0.0,
                                 server_seed=bytes([4]) * 32)
        changes = [changes]
        for seat in range(1, rules.players):
            joined, entries = room.join(f"P{seat}", key_hash(new_seat_key()))
            changes += [entries, room.ready(joined)]
        for seat in range(rules.players):
            room.contribute(seat, bytes([seat + 1]) * 32)
        changes.append(room.start(0, now=0.0))
        while not room.state.is_match_over:
            state = room.state
            if state.is_deal_over:
                changes.append(room.next_deal(room.host, room.number, now=0.0))
            else:
                changes.append(room.play(state.to_move, state.legal_moves()[0], room.number, now=0.0))
        shared = 0
        for entries in changes:
            for seat in range(rules.players):
                frames = update_frames(seat_updates(entries, seat))
                assert frames == [encode(UpdateMessage(entry.for_seat(seat))) for entry in entries]
                for frame in frames:
                    parse_server_message(frame, rules)  # and the client reads each
                shared += len(entries) > 1
            # A spectator's frames (no view; a deal_scored reads any seat's piles) as before too.
            assert [spectator_update(u.number, u.event, u.view) for u in seat_updates(entries, 0)] == [
                spectator_update(e.number, e.event, None if e.state is None else e.state.view(0)) for e in entries]
        assert shared > 0  # changes of several updates were met (a move and its capture, a deal)
