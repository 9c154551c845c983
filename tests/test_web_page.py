"""The browser page (issue 40), served by a real ``scopa serve`` and played in Debian's headless Chromium.

The page is a thin face of the console: the server runs the console's own code for it and sends the
lines. These tests play it as a person does, by keys typed into its one command field, and check with
axe-core that every screen has no accessibility violation. Without chromium and chromium-driver the
browser tests are skipped, saying so; the HTTP and origin checks run everywhere.
"""
from __future__ import annotations

import asyncio
import json
import re
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from helpers.browser import Page, chromium, violations_text
from scopa.bench.serving import ServerProcess
from scopa.net.server.pages import POLICY, page_weight

pytestmark = pytest.mark.slow
MOVE_PROMPTS = ("Card?", "Capture?", "Play?", "Next?")
PAGE_LIMIT = 100 * 1024  # bytes of the page, its script and its style sheet, before compression


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    served = ServerProcess(["--db", str(tmp_path / "rooms.sqlite3"), "--computer-delay", "0.05",
                            "--quick-wait", "0.5", "--computer-workers", "0"])
    try:
        yield served
    finally:
        served.stop()


@pytest.fixture
def page(tmp_path: Path) -> Iterator[Page]:
    with chromium(tmp_path / "profile") as driver:
        yield Page(driver)


def http(url: str) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def test_page_is_served_with_a_strict_policy(server: ServerProcess) -> None:
    base = f"http://127.0.0.1:{server.port}"
    status, headers, body = http(base + "/")
    assert status == 200 and headers["Content-Security-Policy"] == POLICY
    assert "script-src 'self'" in POLICY and "connect-src 'self'" in POLICY and "default-src 'none'" in POLICY
    html = body.decode()
    # no inline script, no inline style, no handler attribute, nothing from another origin
    assert re.findall(r"<script\b[^>]*>", html) == ['<script src="page.js" defer>']
    assert not re.search(r"\son[a-z]+=|\sstyle=|<style|https?://", html)
    assert http(base + "/K7MQ3T")[2] == body and http(base + "/k7mq-3t")[2] == body  # the page at that room
    assert http(base + "/page.js")[0] == 200 and http(base + "/page.css")[0] == 200
    assert http(base + "/nothing/here")[0] == 404 and http(base + "/healthz")[0] == 200
    script = http(base + "/page.js")[2].decode()
    assert "innerHTML" not in script and "insertAdjacentHTML" not in script and "eval(" not in script
    assert page_weight() <= PAGE_LIMIT


def test_another_sites_page_cannot_open_a_websocket(server: ServerProcess) -> None:
    """A page of another site, in the player's browser, is refused at the handshake: it cannot use the
    player's seat through the page's websocket, nor the room protocol's."""
    async def opens(path: str, origin: str | None) -> bool:
        try:
            async with connect(f"ws://127.0.0.1:{server.port}{path}", origin=origin):  # type: ignore[arg-type]
                return True
        except InvalidStatus as refused:
            assert refused.response.status_code == 403
            return False

    async def check() -> None:
        assert not await opens("/web", "http://evil.example")
        assert not await opens("/", "https://evil.example")
        assert not await opens("/web", f"http://127.0.0.1:{server.port + 1}")
        assert await opens("/web", f"http://127.0.0.1:{server.port}")
        assert await opens("/", None)  # the console's client sends no Origin
    asyncio.run(check())


def start_quick_match(page: Page, url: str, name: str = "Ann") -> None:
    """From the page's menu: quick match, the name, two players, scopa, a single deal, easy computers."""
    page.open(url)
    page.wait_prompt("Choice?")
    assert page.focused_id() == "command"  # focus starts in the command field
    page.type("1")
    page.wait_for(lambda line: line.startswith("Your name?"))
    page.type(name)
    page.enter()
    for keys in ("\n", "\n", "4", "\n"):  # 2 players, scopa, a single deal, easy
        page.wait_prompt("Choice?")
        page.enter() if keys == "\n" else page.type(keys)


def buttons(page: Page) -> list[str]:
    """The labels of the buttons shown for the prompt now open."""
    return list(page.driver.execute_script(
        "return Array.from(document.querySelectorAll('#choices button'), b => b.textContent);"))


def test_a_menu_keeps_its_buttons_when_asked_again_and_another_question_gets_none_of_them(
        server: ServerProcess, page: Page) -> None:
    """A wrong key at the page's menu says so and asks again: the menu's buttons stay (they vanished).
    The next question with the same prompt word (how many players, no numbered item) shows none of them,
    asked once or again; the menu after it shows its own."""
    page.open(f"http://127.0.0.1:{server.port}/")
    page.wait_prompt("Choice?")
    menu = buttons(page)
    assert [label.split(",")[0] for label in menu] == [str(n) for n in range(1, 9)], menu
    page.type("9")
    page.wait_for(lambda line: line == "Pick a number from 1 to 8.")
    page.wait_prompt("Choice?")
    assert buttons(page) == menu
    page.type("1")  # quick match: its name, then how many players
    page.wait_for(lambda line: line.startswith("Your name?"))
    assert buttons(page) == []
    page.type("Ann")
    page.enter()
    page.wait_for(lambda line: line.startswith("How many players?"))
    page.wait_prompt("Choice?")
    assert buttons(page) == []
    page.type("7")
    page.wait_for(lambda line: line.startswith("Press 2, 3 or 4"))
    page.wait_prompt("Choice?")
    assert buttons(page) == []
    page.enter()  # two players: which game, a menu of its own
    page.wait_for(lambda line: line == "Which game?")
    page.wait_prompt("Choice?")
    assert buttons(page)[0] == "1, scopa" and len(buttons(page)) == 3, buttons(page)


def play_to_end(page: Page, screens: dict[str, list[dict[str, object]]]) -> str:
    """Keys for every turn (the first card, the first capture, Enter) until the shuffle check is said."""
    while True:
        line = page.wait_for(lambda text: text in MOVE_PROMPTS or text.startswith("Shuffle"), timeout=60)
        if line.startswith("Shuffle"):
            return line
        if line == "Capture?" and "capture menu" not in screens:
            screens["capture menu"] = page.axe()
        if line == "Card?" and "table" not in screens:
            screens["table"] = page.axe()
            page.type("c")  # chat: Message? opens, Escape sends nothing
            page.wait_for(lambda text: text.startswith("Message?"))
            screens["chat"] = page.axe()
            page.escape()
            page.wait_prompt("Card?")
        if line in ("Card?", "Capture?"):
            page.type("1")
        else:
            page.enter()


def test_quick_match_against_computers_by_keyboard(server: ServerProcess, page: Page) -> None:
    """A whole quick match in the browser by keys alone, with axe-core run on every screen."""
    url = f"http://127.0.0.1:{server.port}/"
    screens: dict[str, list[dict[str, object]]] = {}
    page.open(url)
    page.wait_prompt("Choice?")
    screens["lobby"] = page.axe()
    start_quick_match(page, url)
    page.wait_for(lambda line: line == "The match starts.")
    # T reads the table, as in the console
    page.wait_prompt("Card?")
    page.type("t")
    assert page.wait_for(lambda line: line.startswith("Table")).startswith("Table")
    assert play_to_end(page, screens) == "Shuffle checked, fair."
    page.wait_prompt("Choice?")
    screens["end of match"] = page.axe()
    page.type("7")  # the leaderboard
    page.wait_for(lambda line: line.startswith(("Leaderboard", "Best players", "No one")), timeout=20)
    screens["leaderboard"] = page.axe()
    assert page.focused_id() == "command"  # focus stayed in the one field through the whole match
    lines = page.lines()
    assert "You against" in " ".join(lines)
    for screen, violations in screens.items():
        assert violations == [], f"{screen}: {violations_text(violations)}"  # type: ignore[arg-type]
    assert {"lobby", "table", "chat", "end of match", "leaderboard"} <= set(screens)


def test_reload_takes_the_seat_back(server: ServerProcess, page: Page) -> None:
    """The seat key is kept in the page's storage: a reload mid-match takes the seat back."""
    url = f"http://127.0.0.1:{server.port}/"
    start_quick_match(page, url)
    page.wait_prompt("Card?")
    seat = page.driver.execute_script("return JSON.parse(localStorage.getItem('scopa.seat'));")
    assert seat["key"] and re.fullmatch(r"[A-Z0-9]{6}", seat["code"])
    page.driver.refresh()
    page.read = 0
    back = page.wait_for(lambda line: line.startswith("Back in room"))
    assert seat["code"] in back
    assert play_to_end(page, {"table": [], "chat": []}) == "Shuffle checked, fair."
    page.wait_prompt("Choice?")
    assert page.driver.execute_script("return localStorage.getItem('scopa.seat');") is None  # the match is over


def test_page_says_lines_in_order_once(server: ServerProcess, page: Page) -> None:
    """Each line the server sent is one element of the log, in order, none twice in a row for one message."""
    start_quick_match(page, f"http://127.0.0.1:{server.port}/")
    page.wait_prompt("Card?")
    role = page.driver.execute_script("return document.getElementById('log').getAttribute('role');")
    assert role == "log"
    count = page.driver.execute_script("return document.querySelectorAll('[role=log], [aria-live]').length;")
    assert count == 1  # one live region only
    buttons = page.driver.execute_script(
        "return Array.from(document.querySelectorAll('#choices button'), b => b.textContent);")
    assert len(buttons) == 3 and all(re.fullmatch(r"\d, (\w+ of \w+|settebello)", b) for b in buttons), buttons
    # Tab reaches every control in order, and leaves the page at the end: nothing traps focus
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    reached = []
    for _ in range(40):
        ActionChains(page.driver).send_keys(Keys.TAB).perform()
        reached.append(page.driver.execute_script(
            "const e = document.activeElement; return e === document.body || !e ? 'body' : (e.id || e.textContent);"))
    assert reached[0] == "log" or reached[0].startswith("1, ")  # the log (it scrolls), or the first card
    for control in ("1, ", "Enter", "Q, leave", "lang", "verbosity", "voice", "restart"):
        assert any(str(r).startswith(control) for r in reached), (control, reached)


@pytest.mark.linux  # scopa host in a pty
def test_a_console_player_and_a_browser_player_share_a_room_with_chat_and_the_timer(tmp_path: Path,
                                                                                    page: Page) -> None:
    """Ann hosts at the console (``scopa host``, a turn timer); Bea opens the page link it says, joins,
    chats both ways, lets one turn's time run out, and both play the match to its end."""
    from helpers.online_pty import hosted, press, text
    pexpect = pytest.importorskip("pexpect")
    served = ServerProcess(["--db", str(tmp_path / "rooms.sqlite3"), "--computer-delay", "0.05",
                            "--clock-scale", "0.25", "--computer-workers", "0"])
    try:
        host, code = hosted(tmp_path, served.url, "--turn-time", "20")
        host.expect(r"Browser link, on the next line, for someone without the game\.\r?\n(\S+)\.\r?\n")
        link = host.match.group(1)
        assert link == f"http://127.0.0.1:{served.port}/{code}"
        page.open(link)
        page.wait_for(lambda line: line.startswith("Your name?"))
        page.type("Bea")
        page.enter()
        assert page.wait_for(lambda line: line.startswith("You are in room")) == f"You are in room {code}, seat 2."
        page.wait_prompt("Ready?")
        page.enter()
        host.expect(r"Bea is ready\.")
        host.expect(r"Start\?")
        page.type("c")  # chat from the page, heard at the console
        page.wait_for(lambda line: line.startswith("Message?"))
        page.type("hello from the browser")
        page.enter()
        host.expect(r"Bea says, hello from the browser\.?")
        assert page.wait_for(lambda line: line.startswith("You say")) == "You say, hello from the browser."
        host.send("\r")  # Start
        host.expect(r"Deal 1\.")
        host.send("c")  # chat from the console, heard in the page
        host.expect(r"Message\?")
        host.send("5\r")  # phrase 5, thanks
        page.wait_for(lambda line: line.startswith("Ann says"))
        # Bea lets her first turn's time run out: the warnings, then a card played for her
        page.wait_for(lambda line: line == "Ten seconds.", timeout=60)
        page.wait_for(lambda line: line == "Five seconds.")
        page.wait_for(lambda line: line.startswith("Time."))
        page_done = host_done = False
        answers = {r"Card\?": "1", r"Capture\?": "1", r"Play\?": "\r", r"Next\?": "\r"}
        deadline = time.monotonic() + 120
        while not (page_done and host_done):
            assert time.monotonic() < deadline, "the match did not end:\n" + "\n".join(page.lines()[-30:])
            if not host_done:
                index = host.expect([r"Card\?", r"Capture\?", r"Play\?", r"Next\?", r"Shuffle checked, fair\.",
                                     pexpect.TIMEOUT], timeout=0.05)
                if index == 4:
                    host_done = True
                elif index < 4:
                    press(host, answers[[r"Card\?", r"Capture\?", r"Play\?", r"Next\?"][index]])
            if not page_done:
                lines = page.lines()
                for line in lines[page.read:]:
                    page.read += 1
                    if line == "Shuffle checked, fair.":
                        page_done = True
                    elif line in ("Card?", "Capture?"):
                        page.type("1")
                    elif line in ("Play?", "Next?"):
                        page.enter()
        assert "Bea" in text(host)
        host.close()
    finally:
        served.stop()


def in_page(page: Page, call: str, *args: object) -> object:
    """An async call of the page's own shuffle check (``window.scopaFairness``), awaited."""
    return page.driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        f"Promise.resolve({call}).then(done, e => done('error ' + e));", *args)


def test_the_page_checks_the_shuffle_itself_and_catches_a_lying_server(server: ServerProcess, page: Page) -> None:
    """The page's own check (WebCrypto): the test vector of docs/fairness.md, a real match found fair, and the
    same match's facts changed as a dishonest server would change them, each caught by its own line."""
    start_quick_match(page, f"http://127.0.0.1:{server.port}/")
    vector = in_page(page, "window.scopaFairness.deck(arguments[0], 1)", bytes(range(32)).hex())
    assert vector == [8, 10, 5, 39, 38, 29, 4, 36, 13, 1, 37, 32, 27, 28, 19, 33, 24, 25, 34, 12,
                      20, 7, 35, 11, 31, 21, 2, 6, 9, 23, 18, 26, 0, 16, 3, 17, 14, 30, 22, 15]
    assert play_to_end(page, {"table": [], "chat": []}) == "Shuffle checked, fair."
    facts = page.driver.execute_script("return window.scopaFairness.last();")
    from scopa.engine.shuffle import share_of
    own = share_of(bytes.fromhex(facts["nonce"]), bytes.fromhex(facts["commitment"])).hex()  # the page's nonce, bound
    assert any(c["value"] == own for c in facts["record"]["fairness"]["contributions"])
    assert in_page(page, "window.scopaFairness.check(arguments[0])", facts) == "fair"
    assert page.driver.find_element("id", "save-record").is_displayed()

    def changed(change: Callable[[dict[str, Any]], None]) -> object:
        lying = json.loads(json.dumps(facts))
        change(lying)
        return in_page(page, "window.scopaFairness.check(arguments[0])", lying)

    other_seed = "ab" * 32
    assert changed(lambda f: f["record"]["fairness"].update(server_seed=other_seed)) == "commitment"
    assert changed(lambda f: f["record"]["fairness"].update(
        contributions=[c for c in f["record"]["fairness"]["contributions"] if c["value"] != own])) \
        == "contribution"
    assert changed(lambda f: f["record"].update(seed=other_seed)) == "seed"
    assert len(facts["nonces"]) == 1  # the page's own share's, told back with the record
    # a seat promised another seed: its share was made under another commitment than this page heard
    assert changed(lambda f: f["nonces"][0].update(nonce=other_seed)) == "other_commitment"

    def other_hand(f: dict[str, Any]) -> None:
        hand = next(o for o in f["seen"] if o[0] == "hand")
        hand[3] = ["KC", "KS", "KH"] if hand[3] != ["KC", "KH", "KS"] else ["AC", "AS", "AH"]
    assert changed(other_hand) == "deals"
    assert changed(lambda f: f["record"].pop("fairness")) == "missing"
    # the shares: from the human seats only, one each, exactly those the room's info showed at the start
    computer = next(n for n, seat in enumerate(facts["record"]["seats"]) if seat["kind"] != "human")
    assert facts["shown"]["shares"][facts["seat"]] == own and facts["shown"]["changed"] is False
    assert changed(lambda f: f["record"]["fairness"]["contributions"].append({"seat": computer, "value": other_seed})) \
        == "computer_share"
    assert changed(lambda f: f["record"]["fairness"]["contributions"].append(
        {"seat": facts["seat"], "value": other_seed})) == "computer_share"  # two for one seat
    assert changed(lambda f: f["shown"].update(changed=True)) == "shares"  # a later info showed other shares
    assert changed(lambda f: f["shown"]["shares"].__setitem__(computer, other_seed)) == "shares"
    assert changed(lambda f: f["shown"].update(humans=[0, 1])) == "shares"
    assert changed(lambda f: f.update(shown=None)) == "shares"


def test_the_page_catches_a_server_that_adds_a_share_for_a_computer_seat(tmp_path: Path, page: Page,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A dishonest server adds a share of its own for the computer's seat (it could grind it after seeing the
    page's), shows it in the room's info, and deals honestly from the seed made with it: the commitment, the
    page's own share, the seed and the deals all check. Shares come from the human seats only: the page's own
    check says so, as the console's does."""
    from scopa.narration import Messages
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).parent / "fault_hooks"))
    served = ServerProcess(["--db", str(tmp_path / "rooms.sqlite3"), "--computer-delay", "0.05",
                            "--quick-wait", "0.5", "--computer-workers", "0"],
                           environment={"SCOPA_TEST_FAULT": "computer_share"})
    try:
        start_quick_match(page, f"http://127.0.0.1:{served.port}/")
        said = play_to_end(page, {"table": [], "chat": []})
        facts = page.driver.execute_script("return window.scopaFairness.last();")
        assert facts is not None, "the page was given nothing to check"
        contributions = facts["record"]["fairness"]["contributions"]
        assert len(contributions) == 2 and facts["shown"]["humans"] == [facts["seat"]]  # one share too many
        assert in_page(page, "window.scopaFairness.check(arguments[0])", facts) == "computer_share"
        assert said == Messages("en")("fairness.computer_share") == facts["words"]["computer_share"]
        assert page.lines().count(said) == 1  # said once, by the page
    finally:
        served.stop()


def test_a_server_serving_tls_itself_plays_a_page_too(tmp_path: Path) -> None:
    """``scopa serve --certfile``: the page and its websocket over TLS, and its console joins a room (on a
    loopback port of its own: over TLS it would check the server's certificate against 127.0.0.1)."""
    import ssl

    from scopa.bench.serving import certificate
    cert, key = certificate(tmp_path)
    served = ServerProcess(["--db", str(tmp_path / "rooms.sqlite3"), "--certfile", str(cert), "--keyfile", str(key),
                            "--computer-workers", "0"])
    trusted = ssl.create_default_context(cafile=str(cert))

    async def quick_match_begins() -> list[str]:
        heard: list[str] = []
        answers = iter([{"type": "key", "key": "1"}, {"type": "line", "text": "Tia"}]
                       + [{"type": "key", "key": "enter"}] * 4)
        async with connect(f"wss://localhost:{served.port}/web", ssl=trusted,
                           origin=f"https://localhost:{served.port}") as ws:  # type: ignore[arg-type]
            await ws.send(json.dumps({"type": "start", "lang": "en"}))
            while "Quick match. Looking for players." not in heard:
                message = json.loads(await asyncio.wait_for(ws.recv(), 20))
                if message["type"] == "commitment":
                    await ws.send(json.dumps({"type": "share", "value": "ab" * 32}))
                if message["type"] == "say":
                    heard += message["lines"]
                    if message["prompt"]:
                        await ws.send(json.dumps(next(answers)))
        return heard

    try:
        context = ssl.create_default_context(cafile=str(cert))
        with urllib.request.urlopen(f"https://localhost:{served.port}/", context=context, timeout=10) as answer:
            assert answer.status == 200 and "script-src 'self'" in answer.headers["Content-Security-Policy"]
        heard = asyncio.run(quick_match_begins())
        assert "Connecting to the room server." in heard and "Cannot reach" not in " ".join(heard)
    finally:
        served.stop()


def test_self_voicing_is_off_until_chosen_and_x_stops_it_and_the_page_fits_a_narrow_window(
        server: ServerProcess, page: Page) -> None:
    """The browser's own voice: nothing is spoken until the box is ticked; then each new line is, R says the
    menu again, X stops at once. At the width of a 400% zoom (320 px) nothing scrolls sideways."""
    page.open(f"http://127.0.0.1:{server.port}/")
    page.wait_prompt("Choice?")
    page.driver.execute_script(  # a recorder in place of the speech engine (headless Chromium has no voices)
        "window.said = []; window.stopped = 0;"
        "window.speechSynthesis.speak = u => window.said.push(u.text);"
        "window.speechSynthesis.cancel = () => { window.stopped += 1; };")
    page.type("r")
    page.wait_for(lambda line: line.startswith(("1 quick match", "1, quick match")))
    time.sleep(0.5)
    assert page.driver.execute_script("return window.said;") == []  # off by default
    page.driver.find_element("id", "voice").click()
    page.driver.find_element("id", "command").click()
    page.type("r")
    page.wait_for(lambda line: line.startswith(("1 quick match", "1, quick match")))
    time.sleep(0.5)
    said = page.driver.execute_script("return window.said;")
    assert said[0] == "Play online." and said[-1] == "Choice?", said
    page.type("x")
    assert page.driver.execute_script("return window.stopped;") >= 1
    page.driver.set_window_size(320, 800)
    assert page.driver.execute_script("return window.innerWidth;") <= 400
    overflow = page.driver.execute_script(
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth;")
    assert overflow <= 0


def test_a_spectator_page_hears_the_match_and_no_hand(server: ServerProcess, page: Page) -> None:
    """A page chooses "watch a room with its code": it hears every play and the result, never a hand, and
    axe-core finds nothing on the spectator's screen."""
    import threading

    from helpers.net import host, join, play_out, start
    url = f"ws://127.0.0.1:{server.port}"
    ann = host(url)
    bob = join(url, ann.code)
    page.open(f"http://127.0.0.1:{server.port}/")
    page.wait_prompt("Choice?")
    page.type("5")
    page.wait_prompt("Code?")
    page.type(ann.code)
    page.enter()
    page.wait_for(lambda line: line.startswith("Your name?"))
    page.type("Carla")
    page.enter()
    assert page.wait_for(lambda line: line.startswith("Watching room")).startswith(f"Watching room {ann.code}")
    violations = page.axe()
    assert violations == [], violations_text(violations)
    start(ann, bob)
    playing = threading.Thread(target=play_out, args=([ann, bob], ann), daemon=True)
    playing.start()
    page.wait_for(lambda line: line == "No longer watching.", timeout=90)
    playing.join(30)
    lines = page.lines()
    assert any("wins the match" in line or "draw" in line.lower() for line in lines)
    assert not [line for line in lines if line.startswith("Hand")]  # a spectator is never told a hand


def page_words(page: Page) -> dict[str, str]:
    """The page's own words now: its html lang, the field's label, headings, the key buttons, the status."""
    return dict(page.driver.execute_script(
        "const text = s => document.querySelector(s).textContent;"
        "return {lang: document.documentElement.lang, label: text('label[for=command]'), keys: text('#keys-title'),"
        " table: text('button[data-key=t]'), help: text('#command-help'), status: text('#status'),"
        " voice: text('label[for=voice]'), chosen: document.getElementById('lang').value};"))


def test_the_pages_own_words_follow_the_players_language(server: ServerProcess, page: Page) -> None:
    """The page's labels, headings, key buttons and status are in the language the game speaks, and the html
    element says it (a screen reader's voice follows): Italian chosen on the page starts the console again in
    Italian; English chosen back in the game's own settings brings the page's words back to English."""
    from selenium.webdriver.support.ui import Select
    page.open(f"http://127.0.0.1:{server.port}/")
    page.wait_prompt("Choice?")
    english = page_words(page)
    assert english == {"lang": "en", "label": "Command", "keys": "Keys", "table": "T, table",
                       "help": english["help"], "status": "Connected.", "chosen": "en",
                       "voice": "Read aloud with this browser's voice (for players without a screen reader)"}
    assert english["help"].startswith("Keys act at once.")
    Select(page.driver.find_element("id", "lang")).select_by_value("it")
    page.wait_prompt("Scelta?")
    italian = page_words(page)
    assert italian == {"lang": "it", "label": "Comando", "keys": "Tasti", "table": "T, tavolo",
                       "help": italian["help"], "status": "Connesso.", "chosen": "it",
                       "voice": italian["voice"]}
    assert italian["voice"].startswith("Leggi ad alta voce con la voce di questo browser")
    assert italian["help"].startswith("I tasti agiscono subito.")
    assert "Gioca in rete." in page.lines()
    violations = page.axe()
    assert violations == [], violations_text(violations)
    page.driver.refresh()  # kept for the next visit
    page.read = 0
    page.wait_prompt("Scelta?")
    assert page_words(page)["lang"] == "it" and page_words(page)["label"] == "Comando"
    page.type("8")  # the game's settings, where the language is the sixth item
    page.wait_prompt("Scelta?")
    page.type("6")
    page.wait_for(lambda line: line == "Language English.")
    back = page_words(page)
    assert back == english | {"status": "Connected."}
    assert page.driver.execute_script("return JSON.parse(localStorage.getItem('scopa.lang'));") == "en"
    assert page.focused_id() == "command"


SERVER_SEED = bytes(range(32))  # every room's, on the server of the capture menu's test (fault_hooks)


def nonce_giving_a_capture_choice(server_seed: bytes) -> tuple[bytes, int, list[list[str]]]:
    """A page secret with which the quick match's first deal has the page's seat (0, the room's host) play
    first, holding a card that can take more than one set: the secret, that card's number in the hand, and
    the sets it can take, in the menu's order. Found here from the engine, as the server will deal it."""
    import hashlib

    from scopa.engine import Rules, legal_captures, new_match
    from scopa.engine.shuffle import commitment, match_seed, share_of
    heard = commitment(server_seed)
    for n in range(2000):
        nonce = hashlib.sha256(b"page secret %d" % n).digest()
        state, _ = new_match(Rules(players=2, target=None), match_seed(server_seed, ((0, share_of(nonce, heard)),)))
        if state.to_move != 0:
            continue
        view = state.view(0)
        for number, card in enumerate(view.hand, 1):
            options = legal_captures(card, view.table, view.rules)
            if len(options) > 1:
                return nonce, number, [sorted(str(c) for c in option) for option in options]
    raise AssertionError("no deal with a capture choice in 2000 seeds")


def test_the_capture_menu_by_number_key_by_button_and_escape(tmp_path: Path, page: Page,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A deal known in advance (the server's seed fixed, the page's secret given to its getRandomValues) in
    which the page's first card can take more than one set: the capture menu opens, axe-core finds nothing
    on it, its options are buttons, still there when T has read the table and Capture? is asked again; a
    number key picks one, Escape cancels back to Card?, a button picks another and Enter plays it."""
    nonce, number, options = nonce_giving_a_capture_choice(SERVER_SEED)
    count = len(options)
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).parent / "fault_hooks"))
    served = ServerProcess(["--db", str(tmp_path / "rooms.sqlite3"), "--computer-delay", "0.05",
                            "--quick-wait", "0.5", "--computer-workers", "0"],
                           environment={"SCOPA_TEST_FAULT": "server_seed:" + SERVER_SEED.hex()})
    given = ("(() => { const real = crypto.getRandomValues.bind(crypto), nonce = NONCE;"
             " crypto.getRandomValues = a => { if (a instanceof Uint8Array && a.length === 32) { a.set(nonce);"
             " return a; } return real(a); }; })();")
    page.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                                {"source": given.replace("NONCE", json.dumps(list(nonce)))})
    try:
        start_quick_match(page, f"http://127.0.0.1:{served.port}/")
        page.wait_prompt("Card?")
        page.type(str(number))
        page.wait_prompt("Capture?")
        violations = page.axe()
        assert violations == [], violations_text(violations)
        offered = buttons(page)
        assert [b.split(",")[0] for b in offered] == [str(n) for n in range(1, count + 1)], offered
        page.type("t")  # a reading command at Capture?: the table said, then Capture? again with its buttons
        page.wait_for(lambda line: line.startswith(("Table", "On the table")))
        page.wait_prompt("Capture?")
        assert buttons(page) == offered
        page.type("1")  # a number key picks the first set
        assert page.wait_for(lambda line: line != "Capture?").startswith("Option 1.")
        page.wait_prompt("Play?")
        page.escape()  # cancels: back to Card?, nothing played
        page.wait_prompt("Card?")
        assert page.focused_id() == "command"
        page.type(str(number))
        page.wait_prompt("Capture?")
        page.driver.find_element("css selector", f"#choices button[data-key='{count}']").click()  # the last set
        assert page.wait_for(lambda line: line != "Capture?").startswith(f"Option {count}.")
        page.wait_prompt("Play?")
        assert page.focused_id() == "command"  # the button gave the focus back to the one field
        page.enter()
        assert play_to_end(page, {"table": [], "chat": []}) == "Shuffle checked, fair."  # dealt from those seeds
        first = page.driver.execute_script("return window.scopaFairness.last().record.moves[0];")
        assert first["seat"] == 0 and sorted(first["capture"]) == options[-1]  # the set of the button, played
    finally:
        served.stop()
