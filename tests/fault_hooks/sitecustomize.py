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
