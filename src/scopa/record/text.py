"""The record's own words (``text/en.json``, ``text/it.json``) on top of the game's catalogue.

A ``RecordText`` looks a key up in the record's catalogue first, then in the game's, so one
object names cards, levels and scores and says the Statistics and Review lines.
"""
from __future__ import annotations

import json
from datetime import datetime
from functools import cache
from importlib import resources

from ..narration import LANGUAGES, Messages


@cache
def load_record_catalogue(lang: str) -> dict[str, str]:
    result: dict[str, str] = (
        json.loads(resources.files("scopa.record").joinpath("text", f"{lang}.json").read_text("utf-8")))
    return result


class RecordText(Messages):
    """The game's messages of one language with the record's lines added."""

    def __init__(self, lang: str = "en") -> None:
        super().__init__(lang if lang in LANGUAGES else "en")
        self._catalogue = {**self._catalogue, **load_record_catalogue(self.lang)}
        self._fallback = {**self._fallback, **load_record_catalogue("en")}

    def date(self, when: str) -> str:
        """A logged date as words ("1 December 2026"): no hyphens or colons for a screen reader."""
        try:
            day = datetime.fromisoformat(when)
        except (TypeError, ValueError):
            return self("date.unknown")
        return self("date.day", day=day.day, month=self(f"month.{day.month}"), year=day.year)

    def decimal(self, value: float, places: int = 1) -> str:
        """A number with one decimal, said the way the language says it ("0 point 5", "0 virgola
        5"), and whole when it is whole: "3", not "3.0", which a voice reads as "three dot zero"."""
        return super().decimal(value, places)
