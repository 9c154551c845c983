"""examples/bot.py, the bot docs/protocol.md shows, plays a whole quick match against a real
server on a free loopback port, as a program, and checks the shuffle itself; its check is no
formality: a record the server altered fails it."""
from __future__ import annotations

import ast
import hashlib
import importlib.util
import sqlite3
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from helpers.net import Server

ROOT = Path(__file__).resolve().parents[1]
BOT = ROOT / "examples" / "bot.py"


def _bot() -> ModuleType:
    spec = importlib.util.spec_from_file_location("scopa_example_bot", BOT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_bot_is_short_and_imports_only_websockets_and_the_standard_library() -> None:
    source = BOT.read_text(encoding="utf-8")
    assert len(source.splitlines()) <= 150
    imported = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add((node.module or "").split(".")[0])
    assert imported - {"websockets"} <= set(sys.stdlib_module_names)
    assert "scopa" not in imported


@pytest.fixture
def server(tmp_path: Path):
    running = Server(tmp_path / "rooms.sqlite3", "--quick-wait", "0.3")
    running.db = tmp_path / "rooms.sqlite3"
    yield running
    running.stop()


def _play(url: str, *flags: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BOT), url, *flags], capture_output=True, text=True, timeout=240,
                          check=False)


def test_the_bot_plays_a_whole_quick_match_and_checks_the_shuffle(server: Server) -> None:
    done = _play(server.url, "--name", "Bip")
    lines = done.stdout.splitlines()
    assert done.returncode == 0, done.stdout + done.stderr
    assert lines[-1] == "Shuffle checked, fair."
    assert any(line.startswith("Deal 1 over, match score") for line in lines)
    with sqlite3.connect(server.db) as db:  # the server kept the seat as a program's, by the bot's word
        seats = db.execute("SELECT name, kind, program FROM seats ORDER BY seat").fetchall()
    assert ("Bip", "human", 1) in seats and any(kind == "computer" for _, kind, _ in seats)


def _finished(record_seed: bytes, server_seed: bytes, shares: list[tuple[int, bytes]]) -> dict:
    contributions = [{"seat": s, "value": v.hex()} for s, v in shares]
    return {"seed": record_seed.hex(), "fairness": {"server_seed": server_seed.hex(), "contributions": contributions}}


def test_the_bots_check_fails_on_what_a_dishonest_server_would_send() -> None:
    bot = _bot()
    server_seed, mine, other = bytes(range(32)), bytes([7] * 32), bytes([9] * 32)
    shares = [(0, mine), (1, other)]
    seed = hashlib.sha256(b"scopa match seed\0" + server_seed + b"".join(bytes([s]) + v for s, v in shares)).digest()
    cards = bot.deck(seed, 1, 0)
    text = [bot.CARDS[c] for c in cards]
    first = bot.below(bot.stream(seed, b"first dealer", 0), 1)
    own = 4 + 3 * ((first - 1) % 2)  # seat 0's hand: the seat on the dealer's right is dealt first
    seen = {1: (first, 0, sorted(text[:4]), {1: sorted(text[own:own + 3])})}
    commitment = hashlib.sha256(server_seed).hexdigest()
    honest = _finished(seed, server_seed, shares)
    assert bot.check(honest, commitment, mine.hex(), 0, seen) == bot.FAIR
    assert "promised" in bot.check(honest, hashlib.sha256(b"other").hexdigest(), mine.hex(), 0, seen)
    assert "left out" in bot.check(_finished(seed, server_seed, [(1, other)]), commitment, mine.hex(), 0, seen)
    assert "not made of" in bot.check(_finished(bytes(32), server_seed, shares), commitment, mine.hex(), 0, seen)
    swapped = {1: (first, 0, sorted(text[:3] + text[39:]), seen[1][3])}  # a table the seed does not deal
    assert "not the ones" in bot.check(honest, commitment, mine.hex(), 0, swapped)
    assert "not checked" in bot.check({"seed": seed.hex()}, commitment, mine.hex(), 0, seen)
