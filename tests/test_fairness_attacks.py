"""Issue 37, the shuffle proof attacked: a real ``scopa serve`` over loopback, patched to cheat
(tests/fault_hooks/sitecustomize.py), and the real clients of every seat. Each attack is one the
clients used to call "fair"; each is now caught by the client that can see it, and said as a
failure (or "not checked"), never as fair. ``scopa verify`` is attacked with the records such a
server would leave in a results log."""
from __future__ import annotations

import json
import time
from dataclasses import replace
from pathlib import Path

import pytest

from helpers.net import until
from scopa.engine import Rules
from scopa.engine.shuffle import match_seed
from scopa.match import Fairness, MatchRecord, SeatSetup
from scopa.narration import Messages
from scopa.net.protocol.client_messages import CreateRoom, Hello, Join
from scopa.players import make_player
from scopa.storage import record_result, record_to_dict
from scopa.storage.seat_keys import SeatKey, SeatKeyStore, share_bytes
from scopa.verify import main, verdict_lines
from test_fairness_online import play_to_end, seated, verdicts

HOOKS = Path(__file__).parent / "fault_hooks"
EN = Messages("en")


def cheating(monkeypatch: pytest.MonkeyPatch, fault: str) -> None:
    monkeypatch.setenv("PYTHONPATH", str(HOOKS))
    monkeypatch.setenv("SCOPA_TEST_FAULT", fault)


def test_a_seat_whose_share_the_server_made_itself_still_gives_its_own_and_catches_it(serve, tables, monkeypatch):
    """Point 1: the server fills in Ben's share as he joins, so the welcome shows his seat with
    one. His client used to send nothing and then check nothing of its own: "fair" with a deck
    the server chose. It now always sends its own share, and fails unless that one was used."""
    cheating(monkeypatch, "server_gives_share")
    server = serve()
    host, guest = seated(server.url, tables, Rules(target=None), ("human", "human"))
    assert host.room().contributions[guest.seat] == bytes([0xEE]) * 32  # the server's, not the client's
    play_to_end([host, guest])
    assert verdicts([host, guest])[guest.seat] == "contribution"
    assert EN("fairness.contribution") == "Shuffle check failed. Your share of the seed was left out."


def test_a_share_for_a_computer_seat_is_refused_by_every_client(serve, tables, monkeypatch):
    """Point 2: the server adds a share of its own for the computer's seat (it could grind it
    after seeing every other). Shares come from the human seats only: every client refuses it."""
    cheating(monkeypatch, "computer_share")
    server = serve()
    everyone = seated(server.url, tables, Rules(players=3, target=None), ("human", "easy", "human"))
    play_to_end(everyone)
    assert verdicts(everyone) == ["computer_share"] * 2
    assert EN("fairness.computer_share").startswith("Shuffle check failed. A share was used for a seat no person")


def test_a_share_replaced_after_it_was_shown_is_caught_by_every_client_not_only_its_own(serve, tables, monkeypatch):
    """Point 3: every seat was shown Ben's real share; the deal used another. Ben's client used
    to be the only one to hear it; every client now checks the shares used are those shown."""
    cheating(monkeypatch, "replace_share")
    server = serve()
    everyone = seated(server.url, tables, Rules(players=3, target=None), ("human", "human", "human"))
    play_to_end(everyone)
    assert verdicts(everyone) == ["shares", "contribution", "shares"]
    assert EN("fairness.shares") == ("Shuffle check failed. The shares used are not the ones shown to every seat "
                                     "at the start.")


def test_a_seat_promised_another_seed_is_heard_by_every_seat(serve, tables, monkeypatch):
    """Point 3: the server's welcomes promise Ben another seed than Ann and Cleo. Only Ben's
    client used to hear it; Ann's and Cleo's said "fair". Each share is now made under the
    commitment its client heard, and its secret told at the end: every client checks them all."""
    cheating(monkeypatch, "two_commitments")
    server = serve()
    everyone = seated(server.url, tables, Rules(players=3, target=None), ("human", "human", "human"))
    assert everyone[0]._heard != everyone[1]._heard
    play_to_end(everyone)
    assert verdicts(everyone) == ["other_commitment", "commitment", "other_commitment"]
    assert EN("fairness.other_commitment") == "Shuffle check failed. Another seat was promised another seed."


def test_an_older_server_takes_the_share_without_its_secret_and_the_check_says_what_it_could_not_check(
        serve, tables, monkeypatch):
    """Compatibility: a server of before refuses the nonce (unknown_field); the client gives its
    share again without it, the match starts, and the check says the other seats' promises were
    not checked rather than "fair"."""
    cheating(monkeypatch, "older_contribute")
    server = serve()
    host = tables(server.url, CreateRoom("Ann", Rules(target=None), ("human", "human"), "easy"))
    guest = tables(server.url, Join(host.code, "Ben"))
    guest.ready()
    until(lambda: host.room().seats[guest.seat] is not None and host.room().seats[guest.seat].ready)
    deadline = time.monotonic() + 10
    while not host.has_view():  # the host presses Start until the shares given again are in
        assert time.monotonic() < deadline, "the match never started: the shares were not given again"
        host.start()
        time.sleep(0.2)
    everyone = [host, guest]
    until(guest.has_view)
    play_to_end(everyone)
    assert verdicts(everyone) == ["others_unchecked"] * 2
    assert not [e for t in everyone for e in t.take_errors() if e.code == "unknown_field"]  # not said to the player


def test_a_client_of_before_gets_no_nonces_and_a_newer_one_all_there_are():
    """A client of before refuses a match_record field it does not know: the nonces go only to a
    seat whose own share came with one."""
    from scopa.net.protocol.codes import key_hash, new_seat_key
    from scopa.net.server.rooms import new_room
    room, _ = new_room("ACDEFG", Rules(target=None), ("human", "human"), "Ann", key_hash(new_seat_key()), "easy",
                       now=0.0, server_seed=bytes([9]) * 32)
    seat, _ = room.join("Ben", key_hash(new_seat_key()))
    room.ready(seat)
    room.contribute(0, bytes([1]) * 32, bytes([5]) * 32)
    room.contribute(seat, bytes([2]) * 32)  # Ben's client is of before: no nonce
    room.start(0, now=0.0)
    assert room.nonces_for(seat) == () and room.nonces_for(0) == ((bytes([1]) * 32, bytes([5]) * 32),)


def test_a_record_without_its_fairness_is_not_checked(serve, tables, monkeypatch):
    """Point 4, the client: a record with no seed's parts is "not checked", never "fair"."""
    cheating(monkeypatch, "no_fairness")
    server = serve()
    everyone = seated(server.url, tables, Rules(target=None), ("human", "human"))
    play_to_end(everyone)
    assert verdicts(everyone) == ["missing", "missing"]
    assert EN("fairness.missing") == "Shuffle not checked. The server sent no seed to check."


def test_a_client_started_again_keeps_its_share_with_the_seat_key_and_checks_it(serve, tables, tmp_path):
    """Point 1, a restart: the share is kept with the seat key, so a client started again mid-match
    checks that its share was used; one with a key kept before shares were says "not checked"."""
    server = serve()
    host, guest = seated(server.url, tables, Rules(target=None), ("human", "human"))
    store = SeatKeyStore(tmp_path)
    store.save(SeatKey(server.url, guest.code, guest.key, guest.seat, "Ben", share=guest.share.hex()))
    guest.close()
    kept = store.load(server.url, guest.code)
    assert share_bytes(kept) == guest.share
    back = tables(server.url, Hello(host.code, kept.key, 0), share=share_bytes(kept))
    until(back.has_view)
    older = tables(server.url, Hello(host.code, kept.key, 0))  # a key file without the share: takes the seat
    until(older.has_view)
    play_to_end([host, older])
    assert verdicts([host, older]) == ["fair", "no_share"]
    back = tables(server.url, Hello(host.code, kept.key, 0), share=share_bytes(kept))
    until(back.has_view)
    assert verdicts([back]) == ["fair"]
    wrong = tables(server.url, Hello(host.code, kept.key, 0), share=bytes(32))
    until(wrong.has_view)
    assert verdicts([wrong]) == ["contribution"]


def _online(shares: tuple[tuple[int, bytes], ...], kinds: tuple[str, ...] = ("human", "human")) -> MatchRecord:
    server_seed = bytes([7]) * 32
    seats = tuple(SeatSetup(name, "human" if kind == "human" else "computer", None if kind == "human" else kind)
                  for name, kind in zip(("Ann", "Ben", "Cleo"), kinds, strict=False))
    record, _ = MatchRecord.start(Rules(players=len(kinds), target=None), seats, match_seed(server_seed, shares))
    record = replace(record, fairness=Fairness(server_seed, shares))
    players = [make_player("easy", seed=n) for n in range(len(kinds))]
    while not record.state.is_match_over:
        seat = record.state.to_move
        record, _ = record.play(players[seat].choose_move(record.state.view(seat)))
    return record


def test_verify_says_not_checked_and_fails_for_what_it_cannot_check(tmp_path: Path, capsys) -> None:
    """Point 4, ``scopa verify``: an online match kept without its fairness block used to be
    "fair" (exit 0), as it replays from its seed; and a share for a computer's seat passed."""
    honest = _online(((0, bytes([1]) * 32), (1, bytes([2]) * 32)))
    record_result(honest, "2026-12-06 10:00", tmp_path, online=True, seat=0)
    log = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    del log["results"][-1]["match"]["fairness"]
    path = tmp_path / "stripped.json"
    path.write_text(json.dumps(log), encoding="utf-8")
    assert main([str(path), "--lang", "en"]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "Match 1 of 1. Shuffle not checked. The server sent no seed to check."]
    computer = _online(((0, bytes([1]) * 32), (1, bytes([9]) * 32), (2, bytes([2]) * 32)), ("human", "easy", "human"))
    assert verdict_lines(record_to_dict(computer), EN)[1] is False
    assert verdict_lines(record_to_dict(computer), EN)[0][0].startswith("Shuffle check failed. A share was used")
    missing = _online(((0, bytes([1]) * 32),))
    assert verdict_lines(record_to_dict(missing), EN) == ([EN("fairness.shares")], False)
    daily = _online((), ("human", "expert"))  # a daily deal: the server's seed alone
    assert verdict_lines(record_to_dict(daily), EN) == (["Shuffle checked, fair."], True)
    assert verdict_lines(record_to_dict(honest), EN) == (["Shuffle checked, fair."], True)
