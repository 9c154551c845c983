"""Message catalogues: every text the game prints or speaks, by key, per language.

Catalogues are JSON files beside this module (``catalogues/en.json``, ``catalogues/it.json``).
A value is a ``str.format`` template. Plural forms are keys with ``.one`` and ``.other``
suffixes chosen by ``plural(key, n)``.
"""
from __future__ import annotations

import json
import locale
import os
from functools import lru_cache
from importlib import resources
from typing import Any

LANGUAGES = ("en", "it")
DEFAULT_LANGUAGE = "en"


@lru_cache(maxsize=None)
def load_catalogue(lang: str) -> dict[str, str]:
    text = resources.files("scopa.narration").joinpath("catalogues", f"{lang}.json").read_text("utf-8")
    return json.loads(text)


def system_language() -> str:
    """The language of the system locale if the game has it, else English."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = os.environ.get(name, "")
        if value:
            code = value.split(":")[0][:2].lower()
            return code if code in LANGUAGES else DEFAULT_LANGUAGE
    try:
        code = (locale.getlocale()[0] or "")[:2].lower()
    except ValueError:
        code = ""
    return code if code in LANGUAGES else DEFAULT_LANGUAGE


class Messages:
    """Looks up and fills message templates of one language."""

    def __init__(self, lang: str = DEFAULT_LANGUAGE) -> None:
        if lang not in LANGUAGES:
            raise ValueError(f"Unknown language {lang!r}: choose {', '.join(LANGUAGES)}.")
        self.lang = lang
        self._catalogue = load_catalogue(lang)
        self._fallback = load_catalogue(DEFAULT_LANGUAGE)

    def __call__(self, key: str, **params: Any) -> str:
        template = self._catalogue.get(key)
        if template is None:
            template = self._fallback[key]  # a missing key is a bug; tests keep catalogues equal
        return template.format(**params) if params else template

    def plural(self, key: str, n: int, **params: Any) -> str:
        return self(f"{key}.{'one' if n == 1 else 'other'}", n=n, **params)

    def has(self, key: str) -> bool:
        return key in self._catalogue
