"""The lobby asks Start? once: after the host starts, it waits for the first deal in silence."""
from __future__ import annotations

import io
import threading
import time

import pytest

from helpers.console import program_for
from scopa.config import Settings
from scopa.console.announcer import Announcer
from scopa.console.online import Lobby, News, OnlineRequest, play_online, problem_line, server_question
from scopa.console.terminal import ENTER, Output, Wake
from scopa.engine import Rules
from scopa.narration import Messages
from scopa.net.protocol.wire import RoomInfo, RoomSeat
from scopa.table import Notice, SeatUpdate


class RecordingSpeaker:
    def __init__(self) -> None:
        self.said: list[str] = []

    def say(self, text: str) -> None:
        self.said.append(text)

    def stop(self) -> None:
        pass


class SlowStartTable:
    """A host's room where the 'started' notice comes at once and the seat's view a little later,
    as over a real connection."""

    seat = 0
    problem = None
    connected = True

    def __init__(self) -> None:
        seats = (RoomSeat("Ann", ready=True), RoomSeat("Ben", ready=True))
        self.info = RoomInfo("K7MQ3T", "lobby", Rules(), seats)
        self.log: list[SeatUpdate] = []
        self.view_ready = threading.Event()

    def latest(self) -> int:
        return len(self.log)

    def room(self) -> RoomInfo:
        return self.info

    def updates(self, seat: int, after: int) -> list[SeatUpdate]:
        return self.log[after:]

    def take_errors(self) -> list:
        return []

    def has_view(self) -> bool:
        return self.view_ready.is_set()

    def start(self) -> None:
        self.log.append(SeatUpdate(1, Notice("started", 0, "Ann"), None))
        threading.Thread(target=lambda: (time.sleep(0.2), self.view_ready.set()), daemon=True).start()

    def wait(self, seat: int, after: int, timeout: float | None = None) -> list[SeatUpdate]:
        return self.log[after:]  # the notice is there at once; the room's phase is still "lobby" here


class ScriptedInput:
    def __init__(self, keys: list[str]) -> None:
        self.keys, self.prompts = keys, []

    def read(self, prompt: str, wake: Wake | None = None) -> str:
        self.prompts.append(prompt.strip())
        return self.keys.pop(0)


def test_the_host_is_not_asked_start_again_while_the_first_deal_is_on_its_way() -> None:
    table, keys, speaker = SlowStartTable(), ScriptedInput([ENTER]), RecordingSpeaker()
    out = io.StringIO()
    announcer = Announcer(Output(out), speaker)
    m = Messages("en")
    lobby = Lobby(table, keys, announcer, m, Wake(), News(table, m, "ws://127.0.0.1:1"))
    assert lobby.run() == 1
    assert keys.prompts == ["Start?"]
    assert "The match starts." in out.getvalue()


def test_the_online_help_offers_no_save_export_or_import_which_online_play_refuses() -> None:
    from scopa.console.game import MatchConsole
    from scopa.console.online import OnlineMatch

    for lang, local_only in (("en", ("save", "export", "import")), ("it", ("salva", "esporta", "importa"))):
        m = Messages(lang)
        online = " ".join(m(key) for key in OnlineMatch.HELP_KEYS).lower()
        local = " ".join(m(key) for key in MatchConsole.HELP_KEYS).lower()
        assert all(word in local for word in local_only)
        assert not any(word in online for word in local_only), online
        assert "q " in online


def test_q_in_the_lobby_asks_before_leaving_and_escape_stays() -> None:
    import pytest

    from scopa.console.online import LeaveRoom
    from scopa.console.terminal import ESCAPE

    table = SlowStartTable()
    table.code = "K7MQ3T"
    table.info = RoomInfo("K7MQ3T", "lobby", Rules(), (RoomSeat("Ann"), None))  # nobody to start with yet
    keys, out = ScriptedInput(["q", ESCAPE, "q", ENTER]), io.StringIO()
    m = Messages("en")
    lobby = Lobby(table, keys, Announcer(Output(out), RecordingSpeaker()), m, Wake(),
                  News(table, m, "ws://127.0.0.1:1"))
    with pytest.raises(LeaveRoom):
        lobby.run()
    assert keys.prompts == ["Waiting?", "Leave?", "Waiting?", "Leave?"]
    assert out.getvalue().count("Leave the room?") == 2


def test_news_while_the_leave_question_is_open_is_said_and_the_question_asked_again() -> None:
    """News that ends the ``Leave?`` prompt (here, the player's own seat taken back) does not drop
    the question: were it dropped, the Enter meant for "leave" would be read at ``Ready?``."""
    from scopa.console.online import LeaveRoom
    from scopa.console.terminal import WOKEN

    table = SlowStartTable()
    table.seat, table.code, table.ready = 1, "K7MQ3T", lambda: None
    table.info = RoomInfo("K7MQ3T", "lobby", Rules(), (RoomSeat("Ann"), RoomSeat("Bea")))

    class NewsAtLeave(ScriptedInput):
        def read(self, prompt: str, wake: Wake | None = None) -> str:
            if self.keys[0] == WOKEN:
                table.log.append(SeatUpdate(1, Notice("reclaimed", 1, "Bea"), None))
            return super().read(prompt, wake)

    keys, out = NewsAtLeave(["q", WOKEN, ENTER]), io.StringIO()
    m = Messages("en")
    lobby = Lobby(table, keys, Announcer(Output(out), RecordingSpeaker()), m, Wake(),
                  News(table, m, "ws://127.0.0.1:1"))
    with pytest.raises(LeaveRoom):
        lobby.run()
    assert keys.prompts == ["Ready?", "Leave?", "Leave?"]
    said = out.getvalue()
    assert said.count("Leave the room?") == 1 and "You are back." in said
    assert said.index("You are back.") > said.index("Leave the room?")


@pytest.mark.parametrize("lang", ["en", "it"])
def test_an_unreachable_server_is_printed_whole_and_spoken_by_its_host_only(tmp_path, lang) -> None:
    """The voice reads "ws://" and a port one character at a time: it says the host alone."""
    program, out, speaker = program_for(tmp_path, "", settings=Settings(voice=True, language=lang))
    program.lang = lang
    program.messages = Messages(lang)
    program.start_voice()
    assert play_online(program, OnlineRequest("join", "ws://127.0.0.1:9", "Eve", "ACDEFG")) == 1
    m = Messages(lang)
    assert m("online.error.unreachable", server="ws://127.0.0.1:9") in out.getvalue()
    assert not any("ws:" in said or ":9" in said for said in speaker.said)
    assert speaker.said[-1] == m("online.error.unreachable.spoken.host", host="127.0.0.1")


def test_a_server_address_without_a_plain_host_is_not_spoken_at_all() -> None:
    m = Messages("en")
    line = problem_line("unreachable", {}, m, "ws://[::1]:8765")
    assert line.text == "Cannot reach the server at ws://[::1]:8765." and line.spoken == "Cannot reach the server."
    assert problem_line("room_full", {}, m, "ws://x:1").spoken is None


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_server_question_and_a_bad_address_print_the_example_and_never_speak_an_address(lang) -> None:
    """A voice reads "ws://localhost:8765" a character at a time: the printed lines keep the
    example address, the spoken ones say the form in words and the last host only."""
    m = Messages(lang)
    for line in (server_question(m, None), server_question(m, "ws://192.168.1.4:8765"),
                 server_question(m, "ws://[::1]:8765"), problem_line("bad_server", {}, m, "wss:/oops")):
        assert "ws://" in line.text
        assert line.spoken and "://" not in line.spoken and "8765" not in line.spoken
    assert "192.168.1.4" in server_question(m, "ws://192.168.1.4:8765").spoken
