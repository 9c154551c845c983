"""Message catalogues: every text the game prints or speaks, by key, per language.

Catalogues are JSON files beside this module (``catalogues/en.json``, ``catalogues/it.json``).
A value is a ``str.format`` template. Plural forms are keys with ``.one`` and ``.other``
suffixes chosen by ``plural(key, n)``.
"""
from __future__ import annotations

import json
import locale
import os
import re
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

LANGUAGES = ("en", "it")
DEFAULT_LANGUAGE = "en"


@cache
def load_catalogue(lang: str) -> dict[str, str]:
    text = resources.files("scopa.narration").joinpath("catalogues", f"{lang}.json").read_text("utf-8")
    result: dict[str, str] = json.loads(text)
    return result


def _code(value: str) -> str:
    """The two-letter language of a locale name: "it_IT.UTF-8" -> "it", "Italian_Italy" -> "it"."""
    value = value.strip().split(".")[0].split("@")[0]
    if not value or value.upper() in {"C", "POSIX"}:
        return ""
    head = value.replace("-", "_").split("_")[0].lower()
    return _WINDOWS_NAMES.get(head, head)


_WINDOWS_NAMES = {"english": "en", "italian": "it"}  # locale.getlocale() on Windows: "Italian_Italy"


def system_language(environ: Mapping[str, str] | None = None) -> str:
    """The language of the system locale if the game has it, else English.

    Follows gettext: ``LANGUAGE`` (a colon-separated list of preferences) comes first unless
    the locale is C or POSIX, then the first of ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that
    is set, then the locale Python reports (Windows sets no variables).
    """
    env = os.environ if environ is None else environ
    locale_value = next((env[name] for name in ("LC_ALL", "LC_MESSAGES", "LANG") if env.get(name)), "")
    plain_c = locale_value.split(".")[0].upper() in {"C", "POSIX"}
    if env.get("LANGUAGE") and not plain_c:
        for item in env["LANGUAGE"].split(":"):
            if _code(item) in LANGUAGES:
                return _code(item)
    if locale_value:
        code = _code(locale_value)
        return code if code in LANGUAGES else DEFAULT_LANGUAGE
    if environ is None:
        try:
            code = _code(locale.getlocale()[0] or "")
        except ValueError:
            code = ""
        return code if code in LANGUAGES else DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


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
        text = template.format(**params) if params else template
        return _euphonic_d(text) if self.lang == "it" and params else text

    def plural(self, key: str, n: int, **params: Any) -> str:
        """The ``.one`` form for exactly 1, else ``.other`` (English and Italian agree on this)."""
        return self(f"{key}.{'one' if n == 1 else 'other'}", n=n, **params)

    def has(self, key: str) -> bool:
        return key in self._catalogue

    def decimal(self, value: float, places: int = 1) -> str:
        """A number with ``places`` decimals as people say it, in words a screen reader and the
        voice read right: "3 point 4", "minus 1 point 8" ("3 virgola 4", "meno 1 virgola 8"),
        whole when it is whole ("3", never "3.0"). Digits and a dot were read "3 .4", "three dot
        four", and a minus sign "dash" (issue 38)."""
        text = f"{abs(value):.{places}f}"
        whole, _, fraction = text.partition(".")
        fraction = fraction.rstrip("0")
        said = f"{whole} {self('number.point')} {fraction}" if fraction else whole
        return self("number.minus", n=said) if value < 0 and said != "0" else said


_E_BEFORE_E = re.compile(r"(?<![\w'\u2019])([Ee]) (?=[eEèÈéÉ])")


def _euphonic_d(text: str) -> str:
    """Italian "e" before a word starting with e is "ed": "Tu ed Elena", never "Tu e Elena"."""
    return _E_BEFORE_E.sub(r"\1d ", text)


def capitalised(text: str) -> str:
    """``text`` with its first letter a capital, the rest as it is ("the settebello takes" ->
    "The settebello takes"; ``str.capitalize`` would lower the rest)."""
    return text[:1].upper() + text[1:]
