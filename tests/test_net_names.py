"""Players' names: one rule (``match.name_problem``) for the server, the client's parser, the
local game's ``--names`` and the save codec. Ordinary names ("J. Smith", "Dr. Who", "Ben?") work
everywhere; a refused name is refused when it is given, with its reason, never later. The server
tests run on both stores (SQLite, and Redis on a free loopback port)."""
from __future__ import annotations

import pytest

from helpers.console import program_for, request_for
from helpers.net import Client, error, host, join, play_out, reclaim, start
from scopa.console.terminal import ENTER
from scopa.engine import Rules
from scopa.match import NAME_LENGTH, MatchRecord, SeatSetup, clean_name, name_problem
from scopa.net.protocol.client_messages import CreateRoom, Join
from scopa.net.protocol.server_messages import ErrorMessage, UpdateMessage, Welcome, parse_server_message
from scopa.net.protocol.wire import ProtocolError, check_name
from scopa.storage import AutosaveStore, record_from_dict, record_to_dict
from scopa.table import Notice

ORDINARY = ["J. Smith", "Dr. Who", "Ben?", "Ann: the first", "Zoë; Lee", "O'Neil!", "x" * NAME_LENGTH]
REFUSED = {
    "\u202eBen": "bidi",
    "Ann\u2066": "bidi",
    "\u200b\u200d": "invisible",
    "   ": "invisible",
    "A\x07B": "control",
    "A\nB": "control",
    "": "length",
    "x" * (NAME_LENGTH + 1): "length",
}


def test_one_rule_takes_ordinary_names_and_says_why_it_refuses_the_others():
    for name in ORDINARY:
        assert name_problem(name) is None, name
        assert check_name(name) == name
        assert clean_name(name) == name
    for name, reason in REFUSED.items():
        assert name_problem(name) == reason, repr(name)
        with pytest.raises(ProtocolError) as caught:
            check_name(name)
        assert caught.value.code == "bad_name" and caught.value.values["reason"] == reason
        assert name_problem(clean_name(name)) in (None, "length")  # cleaned: usable, or empty for a default
    assert name_problem(42) == "length"


def test_a_match_file_keeps_ordinary_names_and_older_long_names():
    """The save codec refused "J. Smith" ("reads like a line of the game"): it now holds every name
    the rule takes, and names up to a file's length, as files written before may hold."""
    seats = tuple(SeatSetup(name) for name in ("J. Smith", "Ben?"))
    record = MatchRecord.start(Rules(target=None), seats, 7)[0]
    assert [s.name for s in record_from_dict(record_to_dict(record)).seats] == ["J. Smith", "Ben?"]
    old = record_to_dict(MatchRecord.start(Rules(target=None), (SeatSetup("Ann"), SeatSetup("y" * 26)), 7)[0])
    assert record_from_dict(old).seats[1].name == "y" * 26


def test_the_local_game_saves_a_match_whose_names_have_full_stops_and_question_marks(tmp_path):
    program, out, _ = program_for(tmp_path, ["1", ENTER])
    program.run(request_for("--seed", "1", "--seats", "human,human", "--names", "J. Smith,Dr. Who"))
    saved = AutosaveStore(tmp_path / "data").load().record
    assert saved is not None and [s.name for s in saved.seats] == ["J. Smith", "Dr. Who"]
    assert "reads like a line" not in out.getvalue() and "Not saved" not in out.getvalue()


def test_ordinary_names_start_a_room_and_it_plays_and_takes_seats_back(store):
    server = store.serve()
    ann = host(server.url, name="Dr. Who")
    ben = join(server.url, ann.code, name="J. Smith")
    start(ann, ben)  # with SQLite the host was closed with 1011 here; with Redis "storage", forever
    assert not [e for e in ann.errors + ben.errors if e.code == "storage"]
    back = reclaim(server.url, ben)
    play_out([ann, back], ann, stop=lambda: (ann.view is not None and ann.view.deal_number > 1))
    assert {s.name for s in ann.info.seats if s is not None} >= {"Dr. Who", "J. Smith"}


@pytest.mark.parametrize("name,reason", [("\u202eBen", "bidi"), ("\u200b\u200b", "invisible"), ("A\x1bB", "control")])
def test_a_refused_name_is_refused_when_given_with_its_reason_and_the_room_still_starts(store, name, reason):
    server = store.serve()
    hosting = Client(server.url)
    hosting.send(CreateRoom(name, Rules(target=None), ("human", "human"), "easy"))  # bypasses the client's check
    refused = error(hosting)
    assert (refused.code, refused.values.get("reason")) == ("bad_name", reason)
    ann = host(server.url, name="Ann")
    joining = Client(server.url)
    joining.send(Join(ann.code, name))
    refused = error(joining)
    assert (refused.code, refused.values.get("reason")) == ("bad_name", reason)
    ben = join(server.url, ann.code, name="Ben?")
    start(ann, ben)
    assert not [e for e in ann.errors + ben.errors if e.code == "storage"]


@pytest.mark.parametrize("length", [NAME_LENGTH - 1, NAME_LENGTH])
def test_two_players_of_one_long_name_both_get_in_and_are_told_apart(store, length):
    """The second was renamed to 26 characters, which the client's parser refused (bad_name): that
    player could not get in. ``Client.recv`` parses every frame as the real client does."""
    server = store.serve()
    name = ("Maria Antonietta Rossini" * 2)[:length]
    ann = host(server.url, name=name)
    ben = Client(server.url)
    ben.send(Join(ann.code, name))
    welcome = ben.until(lambda m: isinstance(m, Welcome))
    second = welcome.info.seats[welcome.seat]
    assert second is not None and second.name != name and name_problem(second.name) is None
    assert second.name.endswith(" 2") and len(second.name) <= NAME_LENGTH
    ann.until(lambda m: isinstance(m, UpdateMessage) and m.update.event == Notice("joined", welcome.seat,
                                                                                   second.name))
    assert not [m for m in ann.errors + ben.errors if isinstance(m, ErrorMessage)]


def test_the_client_says_why_the_server_refused_a_name_in_the_players_language():
    from scopa.console.online import problem_line
    from scopa.narration.messages import Messages
    for lang in ("en", "it"):
        messages = Messages(lang)
        for reason in ("length", "control", "bidi", "invisible"):
            line = problem_line("bad_name", {"field": "name", "reason": reason}, messages).text
            assert line == messages(f"online.error.bad_name.{reason}") != messages("online.error.bad_name")
        assert problem_line("bad_name", {"field": "name"}, messages).text == messages("online.error.bad_name")


# Issue 37, point 8: code points that show and say nothing. Each let another key take "Ann".
HIDDEN = {"zero width space": "\u200b", "word joiner": "\u2060", "soft hyphen": "\u00ad",
          "combining grapheme joiner": "\u034f", "variation selector": "\ufe0f", "variation selector 17": "\U000e0100",
          "Hangul filler": "\u3164", "halfwidth Hangul filler": "\uffa0", "tag letter": "\U000e0041",
          "Mongolian vowel separator": "\u180e", "zero width joiner": "\u200d", "byte order mark": "\ufeff"}


@pytest.mark.parametrize("what", sorted(HIDDEN))
def test_a_hidden_code_point_cannot_make_another_keys_name_look_new(store, what):
    """Another key gives "Ann" with one hidden code point in it, at its end, start or middle: it
    is refused (the name holds a hidden character), and the skeleton a name stored before the
    rule is compared by leaves it out, so it would be "Ann" taken."""
    from scopa.net.server.identity import name_skeleton
    from test_net_ratings import host as keyed_host
    from test_net_ratings import new_key
    server = store.serve()
    ann = keyed_host(server.url, "Ann", new_key())
    code = next(m for m in map(parse_server_message, ann.frames) if isinstance(m, Welcome)).code
    hidden = HIDDEN[what]
    for name in (f"Ann{hidden}", f"{hidden}Ann", f"A{hidden}nn"):
        assert name_skeleton(name) == name_skeleton("Ann"), repr(name)
        eve = Client(server.url)
        eve.send(Join(code, name, new_key()))
        refused = error(eve)
        assert (refused.code, refused.values.get("reason")) == ("bad_name", "hidden"), repr(name)


def test_a_name_blank_to_the_ear_is_refused_when_given_and_ordinary_names_are_not():
    for name in ("...", "?", "- -", "\u2800", "\u3164\u3164"):
        assert name_problem(name, given=True) in ("silent", "hidden", "invisible"), repr(name)
        with pytest.raises(ProtocolError):
            check_name(name, given=True)
    for name in [*ORDINARY, "Zoë", "\U0001f642", "李娜", "7"]:
        assert name_problem(name, given=True) is None, name
    assert clean_name("A\u200bnn\u00ad") == "Ann"  # a typed name: the hidden ones go
