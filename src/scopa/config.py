"""The player's settings: a small JSON file in the platform's config folder.

A broken file never stops the game: the defaults are used and the problem is reported
in one line; the broken file is left as it is until settings are saved again.
"""
from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .narration.news import (
    PROFILE_NEWS,
    PROFILE_OF_VERBOSITY,
    VERBOSITY_OF_PROFILE,
    WORDS_OF_PROFILE,
    News,
    VerbosityName,
)

if TYPE_CHECKING:
    from .narration.cards import Naming
    from .narration.narrator import Verbosity

VERBOSITIES = ("brief", "short", "full")  # the profiles brief, default and full (scopa.narration.news)
SETTINGS_FILE = "settings.json"
NAMINGS = ("french", "napoletane")


def default_config_dir() -> Path:
    import platformdirs
    return Path(platformdirs.user_config_dir("scopa", appauthor=False))


@dataclass(frozen=True)
class Settings:
    """What the player chose. ``voice`` is ``None`` until the first-start question is answered."""

    voice: bool | None = None
    voice_id: str | None = None
    rate: int = 175
    volume: float = 1.0
    verbosity: VerbosityName = "short"  # the profile: brief, short (the default) or full
    language: str | None = None
    card_names: Naming = "french"
    earcons: bool = False  # short sounds for your turn, a capture, a scopa and the settebello
    sounds_replace_words: bool = False  # with earcons on: "Your turn." and "Scopa!" are not said
    card_symbols: bool = False  # an extra printed line "7♦ K♣" for the table and the hand; never spoken
    tips: bool = False  # a tip a turn at tables of beginner and easy computers: chosen, never assumed
    tips_offered: bool = False  # the first beginner or easy match has said once how to turn tips on
    # The kinds of news told unasked (scopa.narration.news): other players' plays, the table after
    # each play, your hand when new cards come, the whole score sheet after a deal. None: as the
    # profile the verbosity names says (a settings file from before the switches, or a profile chosen).
    news_plays: bool | None = None
    news_table: bool | None = None
    news_hand: bool | None = None
    news_score: bool | None = None
    transcript_hands: bool = False  # pass-and-play: the players chose to keep hands in the match's transcript
    chat: bool = True  # table chat said as it comes (online; ``:chat off`` at the table)
    lessons_done: tuple[int, ...] = field(default_factory=tuple)
    last_server: str | None = None  # the room server played on last, offered again by "Play online"

    def with_changes(self, **changes: Any) -> Settings:
        return replace(self, **changes)

    @property
    def words(self) -> Verbosity:
        """The length of the lines, "short" or "full", as the narrator takes it."""
        return WORDS_OF_PROFILE[PROFILE_OF_VERBOSITY[self.verbosity]]

    @property
    def news(self) -> News:
        """The switches, each as chosen or else as the verbosity's profile sets it; tips as chosen."""
        base = PROFILE_NEWS[PROFILE_OF_VERBOSITY[self.verbosity]]
        chosen = {"plays": self.news_plays, "table": self.news_table, "hand": self.news_hand,
                  "score": self.news_score}
        return replace(base, tips=self.tips, **{kind: value for kind, value in chosen.items() if value is not None})

    def with_news(self, news: News) -> Settings:
        """The switches as given; tips switched here are chosen as in the settings' tips item."""
        offered = self.tips_offered or news.tips != self.tips
        return replace(self, news_plays=news.plays, news_table=news.table, news_hand=news.hand,
                       news_score=news.score, tips=news.tips, tips_offered=offered)

    def with_profile(self, profile: str) -> Settings:
        """A profile chosen: its words and every switch as it sets them. Tips stay as the player
        chose them: they are never assumed (no profile turns them on, none off)."""
        name = PROFILE_OF_VERBOSITY[profile]
        return replace(self, verbosity=VERBOSITY_OF_PROFILE[name], news_plays=None, news_table=None, news_hand=None,
                       news_score=None)


def _checked(data: dict[str, Any]) -> Settings:
    known = {f.name for f in fields(Settings)}
    values = {k: v for k, v in data.items() if k in known}
    settings = Settings(**values)
    if settings.voice is not None and not isinstance(settings.voice, bool):
        raise ValueError("voice must be true, false or null")
    if not isinstance(settings.rate, int) or not 80 <= settings.rate <= 450:
        raise ValueError("rate must be a whole number from 80 to 450")
    if not isinstance(settings.volume, (int, float)) or not 0 <= settings.volume <= 1:
        raise ValueError("volume must be from 0 to 1")
    for name in ("earcons", "sounds_replace_words", "card_symbols", "tips", "tips_offered", "transcript_hands",
                 "chat"):
        if not isinstance(getattr(settings, name), bool):
            raise TypeError(f"{name} must be true or false")
    for name in ("news_plays", "news_table", "news_hand", "news_score"):
        if getattr(settings, name) is not None and not isinstance(getattr(settings, name), bool):
            raise TypeError(f"{name} must be true, false or null")
    if settings.verbosity not in VERBOSITIES:
        raise ValueError("verbosity must be brief, short or full")
    if settings.card_names not in NAMINGS:
        raise ValueError("card_names must be french or napoletane")
    from .narration.messages import LANGUAGES
    if settings.language is not None and settings.language not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}")
    if settings.last_server is not None and (not isinstance(settings.last_server, str)
                                             or len(settings.last_server) > 300):
        raise ValueError("last_server must be a server address")
    done = settings.lessons_done
    if not isinstance(done, (list, tuple)) or not all(isinstance(n, int) and not isinstance(n, bool) for n in done):
        raise ValueError("lessons_done must be a list of lesson numbers")
    return replace(settings, lessons_done=tuple(done))


SETTINGS_MAX_BYTES = 64_000  # a settings file is well under 1 KB


def load_settings(config_dir: Path) -> tuple[Settings, str | None]:
    """The saved settings, or the defaults and the reason the file cannot be read.

    The reason is a short phrase ("voice must be true, false or null"); the console words it
    in the player's language with the catalogue's ``settings.unreadable``."""
    from .narration import Messages, capitalised
    from .storage.codec import SaveFileError
    from .storage.files import read_text_file  # opened without waiting: a pipe or device never hangs start-up

    path = config_dir / SETTINGS_FILE
    if not os.path.lexists(path):
        return Settings(), None
    try:
        data = json.loads(read_text_file(path, SETTINGS_MAX_BYTES))
        if not isinstance(data, dict):
            raise TypeError("it is not a set of named settings")
        return _checked(data), None
    except SaveFileError as error:  # a pipe, a device, a folder, too large, not UTF-8
        # In English, as the other reasons here.
        return Settings(), capitalised(error.reason_in(Messages("en")).rstrip("."))
    except (OSError, ValueError, TypeError, RecursionError) as error:  # RecursionError: JSON nested too deep
        return Settings(), str(error) or type(error).__name__


def save_settings(settings: Settings, config_dir: Path) -> OSError | None:
    """Write the settings as saves are written (``storage.atomic``); the error when they could
    not be saved, or None.

    A temporary file of its own (two copies saving at once never share one), synced, swapped in,
    and the folder synced, so a crash or power cut leaves the old settings or the new ones. A
    ``settings.json`` that is a symbolic link (a dotfiles folder) is written through: the file it
    names gets the new settings and the link stays. The caller words the error in the player's
    language (``narration.os_problem``)."""
    from .storage.atomic import atomic_write_text
    try:
        config_dir.mkdir(parents=True, exist_ok=True)
        data = asdict(settings) | {"lessons_done": list(settings.lessons_done)}
        atomic_write_text(config_dir / SETTINGS_FILE, json.dumps(data, indent=1))
        return None
    except OSError as error:
        return error
