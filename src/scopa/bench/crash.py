"""Crash safety under fault injection: ``python -m scopa.bench crash [--imports N] [--kills N] [--seed S]``.

Mutated imports. Real exported matches (two, three and four players, early, between deals,
finished) are mutated: bytes flipped, the file cut short, fields deleted or written twice,
numbers made huge, values of the wrong type, lists shuffled. Each file is imported: it must give
a legal position (the engine's invariants hold and its move log replays to it) or be refused
with one short line, never raise, and never touch the saved matches. The refused files are then
imported once more inside a running match (``:import FILE``): the match and its save must be
exactly as before.

Kills. The real program plays with keys from a pipe and is killed (SIGKILL) at a random moment,
then started again with ``--resume``, and so on. After each kill the save must load (an atomic
write leaves the old file or the new one, never half), it must hold every move the killed
program announced (at most one more: the one saved and not yet announced), and the resumed
program must go on from exactly that position: it reads out the saved table, and its own save
starts with the same moves.

Prints the figures; the exit code is 1 when any check failed.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import random
import re
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from scopa.engine import Rules
from scopa.engine.validation import check_invariants
from scopa.match import MatchRecord, SeatSetup
from scopa.narration import Narrator
from scopa.storage import AutosaveStore, SavedMatches, export_match

LONGEST_REFUSAL = 300  # characters: a refusal is one short line
KEYS = "1\n\n" * 1000  # the first card or capture, then Enter to play it (or for the next deal)
KEY_PAUSE = 0.01  # seconds between two keys: a fast player, so that a kill lands anywhere in a match


class CrashSafetyFailure(AssertionError):
    """A check failed: what was done, and what went wrong."""


def saves_on_disk(data_dir: Path) -> dict[str, bytes]:
    """Every saved match file in the data folder, by name, as bytes: to tell whether any changed.

    A match's transcript is no save: it grows with every line the game says."""
    from scopa.storage.transcripts import TRANSCRIPT_SUFFIX
    folder = SavedMatches(data_dir).folder
    if not folder.is_dir():
        return {}
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())
            if path.is_file() and not path.name.endswith((".lock", TRANSCRIPT_SUFFIX))}


def save_match(data_dir: Path, record: MatchRecord) -> None:
    """``record`` as a saved match in ``data_dir``, as the game saves one (and not left locked)."""
    matches = SavedMatches(data_dir)
    lock = matches.create(record)
    matches.save(lock.match_id, record)
    lock.release()


# Real matches to mutate ------------------------------------------------------------------

def _seats(players: int) -> tuple[SeatSetup, ...]:
    computers = ("Robin", "Giulia", "Elena")
    return (SeatSetup("You"), *(SeatSetup(computers[i], "computer", "easy") for i in range(players - 1)))


def _played(rules: Rules, seed: int, moves: int, rng: random.Random) -> MatchRecord:
    """A match after ``moves`` random legal plays (a deal that ends is followed by the next)."""
    record, _ = MatchRecord.start(rules, _seats(rules.players), seed)
    for _ in range(moves):
        if record.state.is_match_over:
            break
        if record.state.is_deal_over:
            record, _ = record.next_deal()
        options = record.state.legal_moves()
        record, _ = record.play(options[rng.randrange(len(options))])
    return record


def sample_matches(seed: int = 0) -> list[MatchRecord]:
    """A few real matches at different points: the files the mutations start from."""
    rng = random.Random(seed)
    return [
        _played(Rules(), seed + 1, 3, rng),                                   # early in the first deal
        _played(Rules(), seed + 2, 36, rng),                                  # the first deal just over
        _played(Rules(napola=True, re_bello=True), seed + 3, 50, rng),        # into the second deal
        _played(Rules(players=3), seed + 4, 20, rng),
        _played(Rules.scopone_scientifico(), seed + 5, 15, rng),
        _played(Rules(target=None), seed + 6, 40, rng),                       # a single deal, finished
    ]


def exported_texts(folder: Path, seed: int = 0) -> list[str]:
    """The sample matches as the game exports them."""
    texts = []
    for number, record in enumerate(sample_matches(seed)):
        path = export_match(record, folder / f"sample{number}.json", overwrite=True)
        texts.append(path.read_text(encoding="utf-8"))
    return texts


# Mutations ----------------------------------------------------------------------------

class Raw:
    """A JSON token written as it is (a number JSON allows but Python would not write, NaN)."""

    def __init__(self, text: str) -> None:
        self.text = text


class Twice(dict[str, Any]):
    """An object with one key written twice: ``json.loads`` keeps the last of the two."""

    def __init__(self, items: dict[str, Any], key: str, other: Any) -> None:
        super().__init__(items)
        self.key, self.other = key, other


def dumps(node: Any) -> str:
    """JSON text for data that may hold ``Raw`` tokens and ``Twice`` objects."""
    if isinstance(node, Raw):
        return node.text
    if isinstance(node, dict):
        items = [f"{json.dumps(k)}: {dumps(v)}" for k, v in node.items()]
        if isinstance(node, Twice):
            items.insert(random.Random(len(items)).randrange(len(items) + 1),
                         f"{json.dumps(node.key)}: {dumps(node.other)}")
        return "{" + ", ".join(items) + "}"
    if isinstance(node, list):
        return "[" + ", ".join(dumps(v) for v in node) + "]"
    return json.dumps(node, ensure_ascii=False)


def _paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in the data below the top, as the keys that lead to it."""
    found: list[tuple[Any, ...]] = []
    children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, child in children:
        found.append((*path, key))
        found.extend(_paths(child, (*path, key)))
    return found


def _at(node: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        node = node[key]
    return node


def _pick(rng: random.Random, data: Any, wanted: Callable[[Any], bool] = lambda value: True) -> tuple[Any, ...] | None:
    paths = [p for p in _paths(data) if wanted(_at(data, p))]
    return rng.choice(paths) if paths else None


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


HUGE = ("1" + "0" * 400, "1e999", "-1e999", "NaN", "Infinity", "-1", "9223372036854775808", "2147483648", "0.5",
        "-0", "1" * 5000)
WRONG: tuple[Any, ...] = (None, True, False, "", "x" * 1000, [], {}, [[[]]], 0, "7", -3, 1.5, {"a": 1},
                         ["AC"] * 50, "\u202e", "\x00")


def flip_bytes(rng: random.Random, text: str) -> bytes:
    raw = bytearray(text.encode("utf-8"))
    for _ in range(rng.randint(1, 4)):
        index = rng.randrange(len(raw))
        raw[index] = rng.randrange(256) if rng.random() < 0.5 else raw[index] ^ (1 << rng.randrange(8))
    return bytes(raw)


def truncate(rng: random.Random, text: str) -> bytes:
    raw = text.encode("utf-8")
    return raw[:rng.randrange(len(raw))]


def delete_field(rng: random.Random, text: str) -> bytes:
    data = json.loads(text)
    path = _pick(rng, data)
    if path is None:  # nothing below the top to delete
        return text.encode("utf-8")
    del _at(data, path[:-1])[path[-1]]
    return dumps(data).encode("utf-8")


def duplicate_field(rng: random.Random, text: str) -> bytes:
    data = json.loads(text)
    path = _pick(rng, data, lambda value: isinstance(value, dict) and bool(value))
    node = _at(data, path) if path else data
    key = rng.choice(list(node))
    other = rng.choice((*WRONG, node[key], json.loads(text).get("state", {})))
    twice = Twice(node, key, other)
    if path:
        _at(data, path[:-1])[path[-1]] = twice
    else:
        data = twice
    return dumps(data).encode("utf-8")


def huge_number(rng: random.Random, text: str) -> bytes:
    data = json.loads(text)
    path = _pick(rng, data, _is_number) or _pick(rng, data)
    if path is None:
        return text.encode("utf-8")
    _at(data, path[:-1])[path[-1]] = Raw(rng.choice(HUGE))
    return dumps(data).encode("utf-8")


def wrong_type(rng: random.Random, text: str) -> bytes:
    data = json.loads(text)
    path = _pick(rng, data)
    if path is None:
        return text.encode("utf-8")
    _at(data, path[:-1])[path[-1]] = rng.choice(WRONG)
    return dumps(data).encode("utf-8")


def shuffle_list(rng: random.Random, text: str) -> bytes:
    """A list in another order, or two cards swapped between two lists: legal-looking, inconsistent."""
    data = json.loads(text)
    path = _pick(rng, data, lambda value: isinstance(value, list) and len(value) > 1)
    if path is None:
        return text.encode("utf-8")
    items = _at(data, path)
    if rng.random() < 0.5:
        rng.shuffle(items)
    else:
        cards = [p for p in _paths(data) if isinstance(_at(data, p), str) and re.fullmatch(r"[0-9JQKA]+[CDHS]",
                                                                                          _at(data, p))]
        if len(cards) > 1:
            first, second = rng.sample(cards, 2)
            a, b = _at(data, first), _at(data, second)
            _at(data, first[:-1])[first[-1]], _at(data, second[:-1])[second[-1]] = b, a
    return dumps(data).encode("utf-8")


MUTATIONS: dict[str, Callable[[random.Random, str], bytes]] = {
    "byte flips": flip_bytes, "truncation": truncate, "field deleted": delete_field,
    "field twice": duplicate_field, "huge number": huge_number, "wrong type": wrong_type,
    "shuffled": shuffle_list,
}


def mutated_files(folder: Path, count: int, seed: int = 0) -> list[tuple[str, Path]]:
    """``count`` mutated exports in ``folder``, the mutations taken in turn: (mutation, file)."""
    folder.mkdir(parents=True, exist_ok=True)
    texts = exported_texts(folder, seed)
    rng = random.Random(seed)
    names = list(MUTATIONS)
    files = []
    for number in range(count):
        name = names[number % len(names)]
        path = folder / f"mutated{number}.json"
        path.write_bytes(MUTATIONS[name](rng, rng.choice(texts)))
        files.append((name, path))
    return files


# Checking imports --------------------------------------------------------------------------

def replayed(record: MatchRecord) -> MatchRecord:
    """The match played again from its seed through its move log, by the engine alone."""
    again, _ = MatchRecord.start(record.rules, record.seats, record.seed, record.first_dealer)
    for logged in record.moves:
        if logged.deal_number == again.state.deal_number + 1 and again.state.is_deal_over:
            again, _ = again.next_deal()
        if logged.claim is not None:
            again, _ = again.claim()
        again, _ = again.play(logged.move)
    if record.state.deal_number == again.state.deal_number + 1 and again.state.is_deal_over:
        again, _ = again.next_deal()
    return again


def check_legal(record: MatchRecord, what: str) -> None:
    """The position is one the rules allow, and exactly where the move log leads."""
    try:
        check_invariants(record.state)
        again = replayed(record)
    except Exception as error:  # noqa: BLE001 - any failure here is the finding
        raise CrashSafetyFailure(f"{what}: imported, but not a legal position: {error!r}") from None
    if again.state != record.state:
        raise CrashSafetyFailure(f"{what}: imported, but its moves do not lead to its position")


def check_import(path: Path, import_match: Callable[[str], tuple[MatchRecord | None, str]], what: str) -> bool:
    """Import one file through the console's import; True when accepted (legal), False when refused."""
    try:
        record, line = import_match(str(path))
    except Exception as error:  # noqa: BLE001 - any failure here is the finding
        raise CrashSafetyFailure(f"{what}: the import raised {error!r}") from None
    if record is None:
        if not line.strip() or "\n" in line or len(line) > LONGEST_REFUSAL:
            raise CrashSafetyFailure(f"{what}: refused without one short line: {line[:500]!r}")
        return False
    check_legal(record, what)
    return True


def imports_in_a_match(folder: Path, refused: list[Path]) -> list[str]:
    """``:import FILE`` for each refused file inside a running match, then the input ends.

    The save must not change (the match is the same, and the input's end saves it again as it
    was); the lines the program printed are returned."""
    from scopa.config import Settings
    from scopa.console.app import Program
    from scopa.console.terminal import LineInput, Output
    from scopa.table.persistence import Persistence

    store = AutosaveStore(folder / "data")
    before = saves_on_disk(folder / "data")
    screen = io.StringIO()
    script = "".join(f":import {path}\n" for path in refused)
    program = Program(LineInput(io.StringIO(script), screen), Output(screen), Settings(voice=False),
                      folder / "config", Persistence(folder / "data"), lang="en")
    program.run(resume=True)
    if saves_on_disk(folder / "data") != before or store.load().record is None:
        raise CrashSafetyFailure(f"a refused import inside a match changed the save (files {refused[0].parent})")
    return screen.getvalue().splitlines()


@dataclass
class ImportFigures:
    files: int = 0
    accepted: int = 0
    refused: int = 0
    refused_in_match: int = 0  # "Import failed" or "Import refused" lines said inside the running match
    by_mutation: Counter[tuple[str, str]] = field(default_factory=Counter)
    seconds: float = 0.0


def run_imports(folder: Path, count: int, seed: int = 0, in_match: int = 40) -> ImportFigures:
    """Import ``count`` mutated files, then ``in_match`` of the refused ones inside a match."""
    from scopa.table.persistence import Persistence

    started = time.perf_counter()
    figures = ImportFigures()
    current, _ = MatchRecord.start(Rules(), _seats(2), seed + 99)
    if current.state.to_move != 0:  # the match in play waits for the human, so that nothing moves it on
        current, _ = current.play(current.state.legal_moves()[0])
    save_match(folder / "data", current)
    saved = saves_on_disk(folder / "data")
    persistence = Persistence(folder / "data")
    refused: list[Path] = []
    for name, path in mutated_files(folder / "files", count, seed):
        figures.files += 1
        accepted = check_import(path, persistence.import_match, f"{name} ({path.name}, seed {seed})")
        figures.accepted += accepted
        figures.refused += not accepted
        figures.by_mutation[(name, "accepted" if accepted else "refused")] += 1
        if not accepted:
            refused.append(path)
    if saves_on_disk(folder / "data") != saved:
        raise CrashSafetyFailure("importing changed the saved matches")
    if refused and in_match:
        lines = imports_in_a_match(folder, refused[:in_match])
        figures.refused_in_match = sum(1 for line in lines if line.startswith(("Import failed.", "Import refused.")))
    figures.seconds = time.perf_counter() - started
    return figures


# Kills -------------------------------------------------------------------------------

@dataclass
class KillFigures:
    kills: int = 0
    moves_saved: int = 0
    resumes_checked: int = 0  # resumed programs seen reading out the saved table
    exited_first: int = 0  # the program had ended by itself before the kill came
    matches_finished: int = 0
    seconds: float = 0.0


def _type_keys(stream: IO[bytes]) -> None:
    """Type ``KEYS`` into the program one line at a time, until it is killed."""
    try:
        for line in KEYS.splitlines(keepends=True):
            stream.write(line.encode())
            stream.flush()
            time.sleep(KEY_PAUSE)
        stream.close()
    except (BrokenPipeError, OSError, ValueError):
        pass


def _wait_for_a_question(child: subprocess.Popen[bytes], transcript: Path, limit: float = 30.0) -> None:
    """Until the program has asked its first question ("Card? ", any prompt), or ended."""
    deadline = time.monotonic() + limit
    while child.poll() is None and time.monotonic() < deadline:
        if b"? " in transcript.read_bytes():
            return
        time.sleep(0.01)


def _command(folder: Path, resume: bool, seed: int) -> list[str]:
    command = [sys.executable, "-m", "scopa", "--no-voice", "--plain", "--lang", "en", "--verbosity", "full",
               "--data-dir", str(folder / "data"), "--config-dir", str(folder / "config")]  # full: every play told
    return command + (["--resume"] if resume else ["--seed", str(seed), "--target", "21"])


def _announced_moves(transcript: list[str], record: MatchRecord) -> int:
    """How many plays the program announced ("You play ...", "Scopa for Robin! Robin plays ...")."""
    starts = tuple("You play " if seat.name == "You" else f"{seat.name} plays " for seat in record.seats)
    return sum(1 for line in transcript if _SCOPA_FIRST.sub("", line).startswith(starts))


_SCOPA_FIRST = re.compile(r"^(?:Your scopa! |Scopa for [^!]+! )")  # whose scopa, before the play it names


def _same_match(a: MatchRecord, b: MatchRecord) -> bool:
    return (a.seed, a.seats, a.rules, a.first_dealer) == (b.seed, b.seats, b.rules, b.first_dealer)


def check_after_kill(before: MatchRecord | None, after: MatchRecord | None, transcript: list[str],
                     finished: bool, what: str, previous: MatchRecord | None = None) -> bool:
    """The checks after one kill; True when the resumed position was seen read out.

    ``before``: the match the run resumed (None when it started a new one); ``previous``: the most
    recent save before the run, a finished one included (stopped between logging its result and
    removing it)."""
    resumed_seen = False
    if before is None and previous is not None and after == previous:  # the run saved nothing
        if _announced_moves(transcript, previous):
            raise CrashSafetyFailure(f"{what}: plays were announced and nothing was saved")
        return False
    if before is not None and after is None:
        if not finished:
            raise CrashSafetyFailure(f"{what}: the saved match is gone and no match finished")
        return False
    if after is None:
        return False
    if before is not None and _same_match(before, after):
        if after.moves[:len(before.moves)] != before.moves:
            raise CrashSafetyFailure(f"{what}: the resumed match did not go on from the saved moves")
        new_moves = len(after.moves) - len(before.moves)
        if before.state.is_deal_over is False and f"Deal {before.state.deal_number} resumed." in transcript:
            narrator = Narrator([s.name for s in before.seats], before.rules, you=0, verbosity="full")
            at = transcript.index(f"Deal {before.state.deal_number} resumed.")
            said = [line.text for line in narrator.resumed(before.state.deal_number, before.state.match_scores)]
            expected = [*said[1:], narrator.table_text(before.state.table)]  # who plays, the score, the table
            if transcript[at + 1:at + 1 + len(expected)] != expected:
                raise CrashSafetyFailure(f"{what}: resumed with another table than the saved one")
            resumed_seen = True
    else:  # a new match started in this run: count what was announced since it began
        new_moves = len(after.moves)
        starts = [at for at, line in enumerate(transcript) if line.startswith("New match.")]
        transcript = transcript[starts[-1]:] if starts else transcript
    announced = _announced_moves(transcript, after)
    if not announced <= new_moves <= announced + 1:
        raise CrashSafetyFailure(f"{what}: {announced} plays announced but {new_moves} saved")
    return resumed_seen


def run_kills(folder: Path, kills: int, seed: int = 0, earliest: float = 0.0, latest: float = 0.8,
              env: dict[str, str] | None = None, during_start: float = 0.25) -> KillFigures:
    """Kill the real program ``kills`` times at random moments, resuming after each.

    A share ``during_start`` of the kills comes at any moment of the first second (loading,
    reading the save); the others ``earliest`` to ``latest`` seconds after the program asked its
    first question, so that a slow machine still has them land in play. ``env``: more
    environment for the program."""
    from scopa.storage import load_results

    started = time.perf_counter()
    rng = random.Random(seed)
    figures = KillFigures()
    folder.mkdir(parents=True, exist_ok=True)
    store = AutosaveStore(folder / "data")
    env = dict(os.environ, PYTHONUNBUFFERED="1", NO_COLOR="1", TERM="dumb", **(env or {}))
    for number in range(kills):
        loaded = store.load()
        if store.error is not None:
            raise CrashSafetyFailure(f"kill {number}: the save did not load: {store.error}")
        before = loaded.record if loaded.record is not None and not loaded.record.state.is_match_over else None
        results_before = len(load_results(folder / "data"))
        transcript_path = folder / f"run{number}.txt"
        with open(transcript_path, "wb") as transcript:
            child = subprocess.Popen(_command(folder, before is not None, rng.randrange(10**6)),
                                     stdin=subprocess.PIPE, stdout=transcript, stderr=subprocess.STDOUT, env=env)
            typist = threading.Thread(target=_type_keys, args=(child.stdin,), daemon=True)
            typist.start()
            if rng.random() < during_start:
                time.sleep(rng.uniform(0.0, 1.0))
            else:
                _wait_for_a_question(child, transcript_path)
                time.sleep(rng.uniform(earliest, latest))
            if child.poll() is None:
                child.kill()  # SIGKILL: a crash, never a clean stop
            else:
                figures.exited_first += 1
            child.wait()
            typist.join()
        figures.kills += 1
        lines = transcript_path.read_text(encoding="utf-8", errors="replace").splitlines()
        if any(line.startswith("Traceback") for line in lines):
            raise CrashSafetyFailure(f"kill {number}: the program printed a traceback")
        transcript_path.unlink()
        after_load = store.load()
        if store.error is not None:
            raise CrashSafetyFailure(f"kill {number}: the save did not load after the kill: {store.error}")
        after = after_load.record
        finished = len(load_results(folder / "data")) > results_before
        figures.matches_finished += finished
        figures.resumes_checked += check_after_kill(before, after, lines, finished, f"kill {number} (seed {seed})",
                                                    previous=loaded.record)
        if after is not None:
            figures.moves_saved = max(figures.moves_saved, len(after.moves))
    figures.seconds = time.perf_counter() - started
    return figures


# The command -------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    import tempfile

    parser = argparse.ArgumentParser(prog="python -m scopa.bench crash", description=__doc__.split("\n")[0])
    parser.add_argument("--imports", type=int, default=2000, help="mutated files to import (default 2000)")
    parser.add_argument("--kills", type=int, default=100, help="kills of the real program (default 100)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        with tempfile.TemporaryDirectory(prefix="scopa-crash-") as temp:
            if args.imports:
                found = run_imports(Path(temp) / "imports", args.imports, args.seed)
                print(f"mutated imports: {found.files}, accepted as legal positions: {found.accepted}, "
                      f"refused in one line: {found.refused}, crashes: 0, saved matches changed: 0, "
                      f"refused again inside a match with its save unchanged: {found.refused_in_match}, "
                      f"{found.files / found.seconds:.0f} files/s")
                for (name, outcome), n in sorted(found.by_mutation.items()):
                    print(f"  {name}, {outcome}: {n}")
            if args.kills:
                killed = run_kills(Path(temp) / "kills", args.kills, args.seed)
                print(f"kills: {killed.kills}, saves unreadable: 0, announced moves lost: 0, "
                      f"resumes seen reading the saved table: {killed.resumes_checked}, "
                      f"matches finished: {killed.matches_finished}, ended before the kill: {killed.exited_first}, "
                      f"longest move log: {killed.moves_saved}, {killed.seconds / max(killed.kills, 1):.2f} s/kill")
    except CrashSafetyFailure as failure:
        print(f"FAILED: {failure}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
