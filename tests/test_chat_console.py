"""Table chat's console side without a server: the chat earcon, mutes, the setting, L's history."""
from __future__ import annotations

import pytest

from scopa.console.chat import Chat, chat_line, chat_token
from scopa.engine import Rules
from scopa.narration import Messages
from scopa.narration.cues import LineCues
from scopa.net.protocol.server_messages import ChatMessage
from scopa.net.protocol.wire import RoomInfo, RoomSeat


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_chat_line_has_its_own_earcon_whatever_its_words(lang):
    m = Messages(lang)
    cues = LineCues(m)
    line = m("chat.says", name="Ben", text=m("play.capture", name="Ben", card="x", cards="y") + " " + m("play.scopa"))
    assert cues.cues(line) == ["chat"]  # not capture, not scopa: a player typed those words
    assert cues.cues(m("chat.says", name="Ben", text=m("turn.named", name="Ann"))) == ["chat"]
    assert cues.without_replaced_words(line) == line  # said whole
    assert cues.cues(m("turn.yours")) == ["turn"]


class FakeTable:
    seat = 0

    def __init__(self) -> None:
        self.pending: list[ChatMessage] = []
        self.sent: list[tuple[str, str]] = []
        self.chat_wakes = lambda message: True

    def take_chat(self):
        taken, self.pending = self.pending, []
        return taken

    def room(self):
        return RoomInfo("K7MQ3T", "lobby", Rules(), (RoomSeat("Ann"), RoomSeat("Ben")))

    def chat_mark(self):
        return 0

    def wait_chat(self, mark, timeout):
        return True

    def say(self, text):
        self.sent.append(("text", text))
        return True

    def say_preset(self, preset):
        self.sent.append(("preset", preset))
        return True


@pytest.mark.parametrize(("typed", "heard"), [
    ("hello Ben", "Ben says, hello Ben."), ("one more after this?", "Ben says, one more after this?"),
    ("ciao!", "Ben says, ciao!"), ("ok. ", "Ben says, ok."), ("gg :)", "Ben says, gg :)"),
])
def test_typed_chat_ends_as_a_sentence_so_it_does_not_run_into_the_next_line(typed, heard):
    """Heard under Orca: "You say, hello Ben Time." A line without a final stop ran on."""
    assert chat_line(ChatMessage(1, "Ben", typed, None), Messages("en")).text == heard


def test_mutes_the_setting_and_l():
    table, setting = FakeTable(), {"on": True}
    chat = Chat(table, Messages("en"), lambda: setting["on"], lambda on: setting.update(on=on))
    assert table.chat_wakes is not None and table.chat_wakes == chat.heard_now
    table.pending = [ChatMessage(1, "Ben", None, "hello"), ChatMessage(0, "Ann", "hi", None)]
    assert [a.text for a in chat.lines()] == ["Ben says, hello.", "You say, hi."]
    assert [a.text for a in chat.command("mute BEN", None, print)] == [
        "Ben muted. Colon unmute Ben to hear them again."]
    table.pending = [ChatMessage(1, "Ben", "psst", None)]
    assert not chat.heard_now(table.pending[0]) and chat.lines() == []
    assert [a.text for a in chat.recent()][-1] == "Ben says, psst."  # L brings it back
    chat.command("unmute ben", None, print)
    chat.command("chat off", None, print)
    assert setting["on"] is False
    table.pending = [ChatMessage(1, "Ben", "later", None)]
    assert chat.lines() == [] and chat.recent()[-1].text == "Ben says, later."
    assert [a.text for a in chat.command("mute Zed", None, print)] == ["Nobody called Zed at this table."]
    chat.command("c 3", None, print)
    chat.command("chat hello all", None, print)
    assert table.sent == [("preset", "one_moment"), ("text", "hello all")]
    assert [a.text for a in chat.command("c 11", None, print)] == ["No such phrase. Pick 1 to 10."]
    assert chat_token("cards") is None and chat_token("chat off") is None and chat_token("C") == ""


def test_the_hosts_seat_commands():
    from scopa.console.online import seat_command
    assert seat_command("open 3", 4) == (2, "open") and seat_command("libera 2", 4) == (1, "open")
    assert seat_command("computer 4", 4) == (3, "easy") and seat_command("computer 4 hard", 4) == (3, "hard")
    assert seat_command("computer 5", 4) is None and seat_command("open 3 hard", 4) is None
    assert seat_command("open", 4) is None and seat_command("computer 2 genius", 4) is None


def test_a_spectators_line_is_never_the_hosts_own():
    table = FakeTable()  # the host, seat 0: a spectator's line comes under that seat number
    chat = Chat(table, Messages("en"), lambda: True, lambda on: None)
    table.pending = [ChatMessage(0, "Carla", None, "well_played", watcher=True), ChatMessage(0, "Ann", "hi")]
    assert [a.text for a in chat.lines()] == ["Carla, watching, says, well played.", "You say, hi."]
    assert [a.text for a in chat.command("mute carla", None, print)] == [
        "Carla muted. Colon unmute Carla to hear them again."]  # a spectator heard can be muted as a player
    table.pending = [ChatMessage(0, "Carla", "again", watcher=True)]
    assert chat.lines() == [] and chat.recent()[-1].text == "Carla, watching, says, again."


def test_the_hosts_move_and_spectators_commands():
    from scopa.console.online import move_command, watchers_command
    assert move_command("move", 4) == () and move_command("sposta", 2) == ()  # the menus
    assert move_command("move 2 3", 4) == (1, 2) and move_command("Sposta 4 1", 4) == (3, 0)
    assert move_command("move 2 5", 4) is None and move_command("move 2 2", 4) is None
    assert move_command("move 2", 4) is None and move_command("moves", 4) is None
    assert move_command("move ² 3", 4) is None
    assert watchers_command("spectators chat on") is True and watchers_command("Spectators  chat off") is False
    assert watchers_command("spettatori chat sì") is True and watchers_command("spettatori chat no") is False
    assert watchers_command("spectators") is None and watchers_command("chat on") is None


@pytest.mark.parametrize("lang, lines", [
    ("en", ["Ben moves to seat 3, partner of Ann.", "Ben moves to seat 3, your partner.",
            "You move to seat 3, partner of Ann.", "Carl moves to seat 2.", "Ben moves to seat 2."]),
    ("it", ["Ben passa al posto 3, in coppia con Ann.", "Ben passa al posto 3, in coppia con te.",
            "Passi al posto 3, in coppia con Ann.", "Carl passa al posto 2.", "Ben passa al posto 2."]),
])
def test_a_seat_move_is_said_name_first_with_the_partner_in_a_four_player_room(lang, lines):
    from scopa.console.online import seat_moved_line
    from scopa.table import Notice
    m = Messages(lang)
    four = RoomInfo("K7MQ3T", "lobby", Rules(players=4), (RoomSeat("Ann"), RoomSeat("Carl"), RoomSeat("Ben"), None))
    two = RoomInfo("K7MQ3T", "lobby", Rules(), (RoomSeat("Ann"), RoomSeat("Ben")))
    said = [seat_moved_line(Notice("seat_moved", 2, "Ben"), four, 1, m),
            seat_moved_line(Notice("seat_moved", 2, "Ben"), four, 0, m),
            seat_moved_line(Notice("seat_moved", 2, "Ben"), four, 2, m),
            seat_moved_line(Notice("seat_moved", 1, "Carl"), four, 0, m),  # across from a free seat: no partner
            seat_moved_line(Notice("seat_moved", 1, "Ben"), two, 0, m)]
    assert said == lines
    assert not any(":" in line for line in said)


def test_a_typed_move_from_a_free_seat_is_said_and_not_sent():
    from scopa.console.online import Lobby

    class Table(FakeTable):
        def __init__(self) -> None:
            super().__init__()
            self.moves: list[tuple[int, int]] = []

        def room(self):
            return RoomInfo("K7MQ3T", "lobby", Rules(players=4), (RoomSeat("Ann"), None, RoomSeat("Ben"), None))

        def move_seat(self, from_seat, to_seat):
            self.moves.append((from_seat, to_seat))
            return True

    said = []
    lobby = Lobby.__new__(Lobby)
    lobby.table, lobby.m, lobby.say = Table(), Messages("en"), lambda *lines: said.extend(lines)
    assert lobby._move(lobby.table.room(), (1, 3)) is False and said == ["Nobody sits in seat 2. Nobody moves."]
    assert lobby._move(lobby.table.room(), (2, 1)) is True and lobby.table.moves == [(2, 1)]
