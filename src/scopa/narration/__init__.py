"""Narration: events and positions in words, per language, with a privacy mark on hands."""
from .cards import NAMINGS, CardNames, Naming
from .command import run_command, spoken_command
from .illegal import explain_illegal
from .invalid import explain_invalid
from .messages import DEFAULT_LANGUAGE, LANGUAGES, Messages, capitalised, system_language
from .narrator import Announcement, Narrator, Verbosity
from .problems import os_problem
from .voices import voice_for_language

__all__ = [
    "DEFAULT_LANGUAGE", "LANGUAGES", "NAMINGS", "Announcement", "CardNames", "Messages", "Naming", "Narrator",
    "Verbosity", "capitalised", "explain_illegal", "explain_invalid", "os_problem", "run_command", "spoken_command",
    "system_language", "voice_for_language",
]
