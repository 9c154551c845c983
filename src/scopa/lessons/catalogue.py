"""The lessons' own words: a message catalogue per language and the rules text.

``text/en.json`` and ``text/it.json`` hold every lesson, tip and rules-reader line by key
(``str.format`` templates; plural forms end in ``.one`` and ``.other``). ``text/rules_en.md``
is the same file as ``docs/rules.md``; ``text/rules_it.md`` is its Italian translation.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

LANGUAGES = ("en", "it")
DEFAULT_LANGUAGE = "en"


def _text_file(name: str) -> str:
    return resources.files("scopa.lessons").joinpath("text", name).read_text("utf-8")


@cache
def load_catalogue(lang: str) -> dict[str, str]:
    result: dict[str, str] = json.loads(_text_file(f"{lang}.json"))
    return result


class LessonText:
    """Looks up and fills the lessons' message templates in one language (English as fallback)."""

    def __init__(self, lang: str = DEFAULT_LANGUAGE) -> None:
        self.lang = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
        self._catalogue = load_catalogue(self.lang)
        self._fallback = load_catalogue(DEFAULT_LANGUAGE)

    def __call__(self, key: str, **params: Any) -> str:
        template = self._catalogue.get(key)
        if template is None:
            template = self._fallback[key]  # a missing key is a bug: the tests keep catalogues equal
        return template.format(**params) if params else template

    def plural(self, key: str, n: int, **params: Any) -> str:
        return self(f"{key}.{'one' if n == 1 else 'other'}", n=n, **params)

    def has(self, key: str) -> bool:
        return key in self._catalogue


# The rules text ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Section:
    """One ``## `` section of the rules: its heading and its lines, ready to print and speak."""

    title: str
    lines: tuple[str, ...]


def rules_markdown(lang: str = DEFAULT_LANGUAGE) -> str:
    """The rules as shipped: ``rules_en.md`` (identical to docs/rules.md) or ``rules_it.md``."""
    lang = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
    return _text_file(f"rules_{lang}.md")


_MARKUP = re.compile(r"\*\*|__|`")


def plain(text: str) -> str:
    """Markdown emphasis and code marks removed: they would be spoken as punctuation."""
    return _MARKUP.sub("", text).strip()


def split_sections(markdown: str, opening: bool = True) -> tuple[str, tuple[Section, ...]]:
    """The document title and its sections, split on ``## `` headings.

    Each paragraph or list item becomes one line; ``### `` headings become a line of their own.
    Text before the first ``## `` heading (after the ``# `` title) is the opening section,
    titled like the document; ``opening=False`` leaves it out.
    """
    title = ""
    sections: list[Section] = []
    current_title: str | None = None
    lines: list[str] = []
    paragraph: list[str] = []

    def end_paragraph() -> None:
        if paragraph:
            lines.append(plain(" ".join(paragraph)))
            paragraph.clear()

    def end_section() -> None:
        end_paragraph()
        if current_title is not None and lines:
            sections.append(Section(current_title, tuple(lines)))
        lines.clear()

    for raw in markdown.splitlines():
        line = raw.strip()
        if line.startswith("## "):
            end_section()
            current_title = plain(line[3:])
        elif line.startswith("# "):
            end_section()
            title = plain(line[2:])
            current_title = title if opening else None
        elif line.startswith("### "):
            end_paragraph()
            heading = plain(line[4:])
            lines.append(heading if heading.endswith((".", "?", "!")) else heading + ".")
        elif not line:
            end_paragraph()
        elif line.startswith(("- ", "* ")):
            end_paragraph()
            paragraph.append(line[2:])
        elif re.match(r"\d+\. ", line):
            end_paragraph()
            paragraph.append(line)
        else:
            paragraph.append(line)
    end_section()
    return title, tuple(sections)
