"""Audio players: the ways this system plays a sound file (``scopa.system`` chooses them), and the
short silent file that checks one can open the sound device.

Linux and macOS play each file with a player process the game owns, in a group of its own, so
that Stop ends it and anything it started with one kill; Windows plays it in the game's own
process with ``winsound`` (``scopa.system.sound``).
"""
from __future__ import annotations

from .. import system
from ..system.processes import kill_group, popen_quietly
from ..system.sound import CommandPlayback, Playback, Playing, first_working, write_silence


def find_players() -> list[Playback]:
    """The ways of playing present on this machine, best first."""
    return system.current().find_players()


def as_playback(player: list[str] | Playback) -> Playback:
    """A player's command (the file is appended to it), or a way of playing as it is."""
    return CommandPlayback(player) if isinstance(player, list) else player


__all__ = ["CommandPlayback", "Playback", "Playing", "as_playback", "find_players", "first_working", "kill_group",
           "popen_quietly", "write_silence"]
