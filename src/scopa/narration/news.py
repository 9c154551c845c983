"""Which kinds of news a match tells unasked, and the three profiles that set them together.

Each kind is one switch, so players shape what they hear: other players' plays, the table
after each play, the new hand of each round, the whole score sheet after a deal, and tips.
Whatever a switch leaves out is still there on request: L the last plays, T the table, H the
hand, B the score sheet. A profile also picks the words' length: ``brief`` and ``default``
use the short forms ("Table, ..."), ``full`` the long ones with articles ("On the table, the
...").
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Literal

Profile = Literal["brief", "default", "full"]
VerbosityName = Literal["brief", "short", "full"]  # a profile as the settings file names it
PROFILES: tuple[Profile, ...] = ("brief", "default", "full")
KINDS = ("plays", "table", "hand", "score", "tips")  # the switches, in the order the settings list them

# --verbosity and the settings file name the profiles as they did before: short is the default.
VERBOSITY_OF_PROFILE: dict[Profile, VerbosityName] = {"brief": "brief", "default": "short", "full": "full"}
PROFILE_OF_VERBOSITY: dict[str, Profile] = {"brief": "brief", "short": "default", "default": "default",
                                            "full": "full"}


@dataclass(frozen=True)
class News:
    """What is said without being asked. ``table`` off still says the table at your turn when
    you could not follow it from what you heard (see ``MatchConsole``)."""

    plays: bool = True  # other players' plays, as they happen
    table: bool = False  # the table after each play, yours and everyone's
    hand: bool = True  # your hand when new cards come
    score: bool = True  # the whole score sheet after a deal (off: deal points and the match only)
    tips: bool = False  # a tip a turn at tables of beginner and easy computers: chosen, never assumed

    def switched(self, kind: str) -> News:
        """The same news with one kind turned the other way."""
        if kind not in KINDS:
            raise ValueError(f"no kind of news called {kind}")
        return replace(self, **{kind: not getattr(self, kind)})

    def as_dict(self) -> dict[str, bool]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


# The profiles set the four kinds of news, never tips: the player turns tips on or off (the
# settings' tips item, or the tips switch here), and a profile keeps that choice.
PROFILE_NEWS: dict[Profile, News] = {
    "brief": News(plays=False, table=False, hand=True, score=False),
    "default": News(),
    "full": News(plays=True, table=True, hand=True, score=True),
}
WORDS_OF_PROFILE: dict[Profile, Literal["short", "full"]] = {"brief": "short", "default": "short", "full": "full"}


def profile_of(news: News, words: str) -> Profile | None:
    """The profile these switches and words are, or None when they were set one by one to something
    else; tips, on or off, belong to no profile."""
    return next((name for name, preset in PROFILE_NEWS.items()
                 if replace(preset, tips=news.tips) == news and WORDS_OF_PROFILE[name] == words), None)


def next_profile(profile: Profile | None) -> Profile:
    """The profile the cycling key goes to: brief, default, full, brief; from switches of one's own, default."""
    if profile is None:
        return "default"
    return PROFILES[(PROFILES.index(profile) + 1) % len(PROFILES)]
