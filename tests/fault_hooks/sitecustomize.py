"""Faults injected into the real program, for tests only: Python loads this module at start-up
when a test puts this folder on PYTHONPATH.

``SCOPA_TEST_INTERRUPT`` sends the process a Ctrl-C (SIGINT) at an exact moment, so that the
first and the last milliseconds of the program are tested exactly rather than by guessing at
timings:

    SCOPA_TEST_INTERRUPT=import:MODULE   just as MODULE starts loading
    SCOPA_TEST_INTERRUPT=exit            during Python's shutdown, after everything else

``SCOPA_TEST_FAULT=stop_saving`` makes the saves silently stop moving on after the third move:
a broken game the crash-safety checks must catch.

Two dishonest room servers, which every client's shuffle check must catch (test_fairness_online.py):
``SCOPA_TEST_FAULT=reveal_other_seed`` reveals, at the end, a server seed other than the one it
committed to; ``SCOPA_TEST_FAULT=deal_other_deck`` deals from a seed of its own choosing and names
the honest seed (the hash of its committed seed and the contributions) in the record.

A disk slow to flush (test_net_durable.py): ``SCOPA_TEST_FAULT=hold_sync:PATH`` makes the room
server's flush of its SQLite log wait while the file PATH exists.

More dishonest servers, each one of issue 37's attacks on the shuffle proof (test_fairness_attacks.py):
``server_gives_share`` fills in a joining seat's share itself, so that its info shows the seat
with a share already; ``computer_share`` adds a share of its own for a computer's (or a free) seat;
``replace_share`` shows every seat the real shares but deals from a seed in which seat 2's share
is replaced (the record names the replacement); ``no_fairness`` sends the record without its
fairness block; ``two_commitments`` promises seat 2 (in its welcomes) another seed than the others;
``older_contribute`` is a server of before issue 37, whose contribute takes no nonce.

A deal known in advance (test_web_page.py's capture menu): ``SCOPA_TEST_FAULT=server_seed:HEX`` makes
every room's server seed those 32 bytes; with the client's share known too, the match seed is.
"""
import atexit
import importlib.abc
import importlib.util
import os
import signal
import sys

_WHEN = os.environ.get("SCOPA_TEST_INTERRUPT", "")
_FAULT = os.environ.get("SCOPA_TEST_FAULT", "")


def _interrupt() -> None:
    os.kill(os.getpid(), signal.SIGINT)


class _InterruptOnImport(importlib.abc.MetaPathFinder):
    """A finder that finds nothing: it only sends the Ctrl-C when the named module is looked up."""

    def __init__(self, module: str) -> None:
        self.module = module

    def find_spec(self, name, path=None, target=None):  # type: ignore[no-untyped-def]
        if name == self.module:
            sys.meta_path.remove(self)
            _interrupt()
        return


class _PatchAfterImport(importlib.abc.MetaPathFinder):
    """Loads the named module as usual, then hands it to ``patch``."""

    def __init__(self, module: str, patch) -> None:  # type: ignore[no-untyped-def]
        self.module, self.patch = module, patch

    def find_spec(self, name, path=None, target=None):  # type: ignore[no-untyped-def]
        if name != self.module:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        real, patch = spec.loader, self.patch

        class Loader(importlib.abc.Loader):
            def create_module(self, spec):  # type: ignore[no-untyped-def]
                return real.create_module(spec)

            def exec_module(self, module):  # type: ignore[no-untyped-def]
                real.exec_module(module)
                patch(module)

        spec.loader = Loader()
        return spec


def _stop_saving(module) -> None:  # type: ignore[no-untyped-def]
    """After the third move every save writes the match as it was then: the disk is written as
    often and as slowly as before, and the position on it silently stops moving on."""
    original = module.SavedMatches.save
    kept: dict[str, object] = {}

    def save(self, match_id, record):  # type: ignore[no-untyped-def]
        if len(record.moves) > 3:
            record = kept.get(match_id, record)
        else:
            kept[match_id] = record
        return original(self, match_id, record)

    module.SavedMatches.save = save


def _reveal_other_seed(module) -> None:  # type: ignore[no-untyped-def]
    """scopa.net.server.server: the finished match's record names another server seed."""
    import hashlib
    original = module.record_to_dict

    def record_to_dict(record):  # type: ignore[no-untyped-def]
        data = original(record)
        if "fairness" in data:
            data["fairness"]["server_seed"] = hashlib.sha256(b"another seed").hexdigest()
        return data

    module.record_to_dict = record_to_dict


_HONEST: dict[bytes, bytes] = {}  # the seed dealt from -> the seed the record must seem to have


def _deal_other_deck(module) -> None:  # type: ignore[no-untyped-def]
    """scopa.net.server.rooms: each match is dealt from a seed the server picks, not the combined one."""
    import hashlib
    original = module.match_seed

    def match_seed(server_seed, contributions):  # type: ignore[no-untyped-def]
        honest = original(server_seed, contributions)
        chosen = hashlib.sha256(b"chosen" + honest).digest()
        _HONEST[chosen] = honest
        return chosen

    module.match_seed = match_seed


def _name_the_honest_seed(module) -> None:  # type: ignore[no-untyped-def]
    """scopa.net.server.server: the record sent at the end names the honest seed instead of the one dealt."""
    original = module.record_to_dict

    def record_to_dict(record):  # type: ignore[no-untyped-def]
        data = original(record)
        honest = _HONEST.get(record.seed)
        if honest is not None:
            data["seed"] = data["state"]["seed"] = honest.hex()
        return data

    module.record_to_dict = record_to_dict


def _hold_sync(path: str):  # type: ignore[no-untyped-def]
    """scopa.net.server.store: the flush to the disk waits while ``path`` exists (a disk that takes its time)."""
    def patch(module) -> None:  # type: ignore[no-untyped-def]
        import time
        original = module.RoomStore.sync

        def sync(self):  # type: ignore[no-untyped-def]
            while os.path.exists(path):
                time.sleep(0.01)
            return original(self)

        module.RoomStore.sync = sync
    return patch


def _server_gives_share(module) -> None:  # type: ignore[no-untyped-def]
    """scopa.net.server.rooms: a joining seat gets a share of the server's making at once."""
    original = module.Room.join

    def join(self, name, key_hash):  # type: ignore[no-untyped-def]
        seat, entries = original(self, name, key_hash)
        if self.server_seed:
            self.contributions[seat] = bytes([0xEE]) * 32
        return seat, entries

    module.Room.join = join


def _computer_share(module) -> None:  # type: ignore[no-untyped-def]
    """scopa.net.server.rooms: at the start, a share of the server's own for every computer seat (and
    every free seat, which a computer takes at the start: a quick match's), used in the seed and shown
    in the info as if a person had given it."""
    original_start, original_humans = module.Room.start, module.Room.humans

    def start(self, seat, now, least=2):  # type: ignore[no-untyped-def]
        if self.phase == "lobby" and self.server_seed:
            for n, taken in enumerate(self.seats):
                if taken is None or not taken.is_human:
                    self.contributions[n] = bytes([0xC0 + n]) * 32
        return original_start(self, seat, now, least)

    def humans(self):  # type: ignore[no-untyped-def]
        return sorted(set(original_humans(self)) | set(self.contributions))

    module.Room.start, module.Room.humans = start, humans


def _replace_share(module) -> None:  # type: ignore[no-untyped-def]
    """scopa.net.server.rooms: the info keeps showing seat 2's real share; the seed and the record use another."""
    original = module.Room.start

    def start(self, seat, now, least=2):  # type: ignore[no-untyped-def]
        real = self.contributions.get(1)
        if real is not None and self.phase == "lobby":
            self.contributions[1] = bytes([0xAB]) * 32
            try:
                return original(self, seat, now, least)
            finally:
                self.contributions[1] = real
        return original(self, seat, now, least)

    module.Room.start = start


def _no_fairness(module) -> None:  # type: ignore[no-untyped-def]
    """scopa.net.server.server: the finished match's record without its fairness block."""
    original = module.record_to_dict

    def record_to_dict(record):  # type: ignore[no-untyped-def]
        data = original(record)
        data.pop("fairness", None)
        return data

    module.record_to_dict = record_to_dict


def _two_commitments(module) -> None:  # type: ignore[no-untyped-def]
    """scopa.net.server.server: every welcome to seat 2 names the commitment of another seed."""
    import hashlib
    real = module.Welcome

    def welcome(code, seat, *args, **kwargs):  # type: ignore[no-untyped-def]
        made = real(code, seat, *args, **kwargs)
        if seat == 1 and made.commitment is not None:
            import dataclasses
            made = dataclasses.replace(made, commitment=hashlib.sha256(b"another seed" + made.commitment).digest())
        return made

    module.Welcome = welcome


def _older_contribute(module) -> None:  # type: ignore[no-untyped-def]
    """scopa.net.protocol.client_messages: contribute as it was read before issue 37 (value only)."""
    module._CLIENT_PARSERS["contribute"] = (lambda f: module.Contribute(module._hex(f("value"), "value")),
                                            frozenset())


class _FixedSeed:
    """``secrets`` for scopa.net.server.server: its one call of ``token_bytes`` (a room's server seed)
    gives the fixed seed; anything else is the real module's."""

    def __init__(self, real, seed: bytes) -> None:  # type: ignore[no-untyped-def]
        self.real, self.seed = real, seed

    def token_bytes(self, n=None):  # type: ignore[no-untyped-def]
        return self.seed if n == len(self.seed) else self.real.token_bytes(n)

    def __getattr__(self, name):  # type: ignore[no-untyped-def]
        return getattr(self.real, name)


def _server_seed(seed: bytes):  # type: ignore[no-untyped-def]
    def patch(module) -> None:  # type: ignore[no-untyped-def]
        module.secrets = _FixedSeed(module.secrets, seed)
    return patch


_ROOM_FAULTS = {"server_gives_share": _server_gives_share, "computer_share": _computer_share,
                "replace_share": _replace_share}
if _FAULT in _ROOM_FAULTS:
    sys.meta_path.insert(0, _PatchAfterImport("scopa.net.server.rooms", _ROOM_FAULTS[_FAULT]))
if _FAULT.startswith("server_seed:"):
    sys.meta_path.insert(0, _PatchAfterImport("scopa.net.server.server", _server_seed(bytes.fromhex(_FAULT[12:]))))
if _FAULT == "no_fairness":
    sys.meta_path.insert(0, _PatchAfterImport("scopa.net.server.server", _no_fairness))
if _FAULT == "older_contribute":
    sys.meta_path.insert(0, _PatchAfterImport("scopa.net.protocol.client_messages", _older_contribute))
if _FAULT == "two_commitments":
    sys.meta_path.insert(0, _PatchAfterImport("scopa.net.server.server", _two_commitments))
if _WHEN.startswith("import:"):
    sys.meta_path.insert(0, _InterruptOnImport(_WHEN.partition(":")[2]))
elif _WHEN == "exit":
    atexit.register(_interrupt)  # registered first, so it runs last
if _FAULT == "stop_saving":
    sys.meta_path.insert(0, _PatchAfterImport("scopa.storage.saves", _stop_saving))
if _FAULT == "reveal_other_seed":
    sys.meta_path.insert(0, _PatchAfterImport("scopa.net.server.server", _reveal_other_seed))
if _FAULT == "deal_other_deck":
    sys.meta_path.insert(0, _PatchAfterImport("scopa.net.server.rooms", _deal_other_deck))
    sys.meta_path.insert(0, _PatchAfterImport("scopa.net.server.server", _name_the_honest_seed))
if _FAULT.startswith("hold_sync:"):
    sys.meta_path.insert(0, _PatchAfterImport("scopa.net.server.store", _hold_sync(_FAULT.partition(":")[2])))
