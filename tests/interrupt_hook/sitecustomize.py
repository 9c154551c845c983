"""Loaded by Python at start-up when a test puts this folder on PYTHONPATH: it sends the process
a Ctrl-C (SIGINT) at the moment ``SCOPA_TEST_INTERRUPT`` names, so that the first and the last
milliseconds of the program can be tested exactly rather than by guessing at timings.

    SCOPA_TEST_INTERRUPT=import:MODULE   just as MODULE starts loading
    SCOPA_TEST_INTERRUPT=exit            during Python's shutdown, after everything else
"""
import atexit
import os
import signal
import sys

_WHEN = os.environ.get("SCOPA_TEST_INTERRUPT", "")


def _interrupt() -> None:
    os.kill(os.getpid(), signal.SIGINT)


class _InterruptOnImport:
    """A finder that finds nothing: it only sends the Ctrl-C when the named module is looked up."""

    def __init__(self, module: str) -> None:
        self.module = module

    def find_spec(self, name, path=None, target=None):  # type: ignore[no-untyped-def]
        if name == self.module:
            sys.meta_path.remove(self)
            _interrupt()
        return None


if _WHEN.startswith("import:"):
    sys.meta_path.insert(0, _InterruptOnImport(_WHEN.partition(":")[2]))
elif _WHEN == "exit":
    atexit.register(_interrupt)  # registered first, so it runs last
