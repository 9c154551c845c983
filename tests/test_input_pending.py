"""Whether a key or line waits to be read, without reading it (the online wait's quiet start)."""
from __future__ import annotations

import io
import os

from scopa.console.terminal import LineInput


def test_a_line_typed_ahead_is_seen_waiting_and_still_read_whole() -> None:
    read_end, write_end = os.pipe()
    with os.fdopen(read_end, "r") as stream, os.fdopen(write_end, "w") as typing:
        lines = LineInput(stream, io.StringIO())
        assert not lines.pending()
        typing.write("t\n")
        typing.flush()
        assert lines.pending()
        assert lines.read("Waiting? ") == "t"
        assert not lines.pending()


def test_a_stream_with_no_file_descriptor_never_says_it_has_input() -> None:
    assert not LineInput(io.StringIO("t\n"), io.StringIO()).pending()


def test_a_wake_left_in_the_reader_queue_is_not_a_line_waiting() -> None:
    from scopa.console.terminal import WOKEN, Wake
    read_end, write_end = os.pipe()
    with os.fdopen(read_end, "r") as stream, os.fdopen(write_end, "w") as typing:
        lines = LineInput(stream, io.StringIO())
        wake = Wake()
        wake.raise_()
        assert lines.read("Waiting? ", wake) == WOKEN  # the reader thread runs from now on
        lines._reader().put(WOKEN)  # as a wake raised after its prompt ended leaves one
        assert not lines.pending()
        typing.write("t\n")
        typing.flush()
        import time
        for _ in range(100):
            if lines.pending():
                break
            time.sleep(0.01)
        assert lines.pending()
