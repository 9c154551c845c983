"""The ``rules`` command: the rules of docs/rules.md read section by section.

The first section says how this match is played (players, target, which options are on);
the others are the ``## `` sections of the rules text in the player's language, in the same
words as docs/rules.md with the markdown marks left out. The document's opening paragraph,
which tells a reader of the document about this reader, is left out, and so is its last
section, the web addresses of the sources, which are for a browser. N or Enter reads the next section,
P the previous one, a number jumps to a section, Escape goes back to where the player was.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..console.keys import typed_number
from ..engine import Rules, Variant
from ..narration import capitalised
from .catalogue import LessonText, Section, rules_markdown, split_sections

if TYPE_CHECKING:
    from ..console.app import Program

ENTER = "enter"
ESCAPE = "escape"


def match_section(rules: Rules, text: LessonText, in_match: bool = True) -> Section:
    """How the current match is played, in a few lines (outside a match: the usual rules)."""
    if rules.variant is Variant.SCOPA:
        lines = [text("rules.match.players", n=rules.players)]
    else:
        lines = [text(f"rules.match.{rules.variant.value}", n=rules.players)]
    lines.append(text("rules.match.single") if rules.target is None else text("rules.match.target",
                                                                               target=rules.target))
    options = rules.available_options()  # only the options this game can have
    on = [text(f"option.{name}") for name in options if getattr(rules, name)]
    off = [text(f"option.{name}") for name in options if not getattr(rules, name)]
    sep = text("list.sep")
    lines.append(text("rules.match.on", names=capitalised(sep.join(on))) if on else text("rules.match.none_on"))
    if off:
        lines.append(text("rules.match.off", names=capitalised(sep.join(off))))
    return Section(text("rules.match.title" if in_match else "rules.default.title"), tuple(lines))


def rules_sections(lang: str, rules: Rules | None) -> list[Section]:
    """Every section the reader offers: this match first (``None``: no match, the usual rules),
    then the ``## `` sections of the rules text (not its opening, which is about this reader)."""
    text = LessonText(lang)
    _, sections = split_sections(rules_markdown(text.lang), opening=False)
    addresses = text("rules.addresses.title")  # web addresses, to open in a browser: not read aloud
    return [match_section(rules or Rules(), text, in_match=rules is not None),
            *(s for s in sections if s.title != addresses)]


def current_rules(program: Program) -> Rules | None:
    """The rules of the match being played, or None outside a match."""
    narrator = getattr(program, "narrator", None)
    rules = getattr(narrator, "rules", None)
    return rules if isinstance(rules, Rules) else None


def read_rules(program: Program) -> None:
    """Page through the rules until the player presses Escape."""
    text = LessonText(program.lang)
    sections = rules_sections(text.lang, current_rules(program))
    count = len(sections)

    def say(*lines: str) -> None:
        program.announcer.say(list(lines))

    def show(index: int) -> None:
        section = sections[index]
        say(text("rules.section", title=section.title, n=index + 1, count=count), *section.lines)

    say(text("rules.opening", count=count), text("rules.keys"))
    index = 0
    show(index)
    while True:
        token = program.input.read(text("prompt.rules") + " ")
        key = token.lower()
        if token == ESCAPE:
            say(text("rules.closed"))
            return
        if token == ENTER or key in {"n", "next"}:
            if index + 1 < count:
                index += 1
                show(index)
            else:
                say(text("rules.end"))
        elif key in {"p", "previous"}:
            if index > 0:
                index -= 1
                show(index)
            else:
                say(text("rules.first"))
        elif (number := typed_number(token)) is not None:
            if 1 <= number <= count:
                index = number - 1
                show(index)
            else:
                say(text("rules.no_section", count=count))
        elif key in {"r", "repeat"}:
            program.announcer.repeat()
        elif key in {"x", "stop"}:
            program.announcer.stop()
        else:
            say(text("rules.keys"))
