"""Command-line flags: everything the set-up questions ask can also be given up front."""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Sequence

from .engine import Rules, RulesError, Variant
from .config import Settings
from .console.keys import typed_number
from .match import SeatSetup, clean_name
from .narration import Messages

LEVELS = ("beginner", "easy", "medium", "hard", "expert")
OPTIONS = ("faces_match_only", "most_cards", "napola", "re_bello", "asso_piglia_tutto")


class UsageError(ValueError):
    """A flag value the game cannot use: one plain sentence, a catalogue key and its values.

    ``str()`` is English; ``localised(messages)`` is the sentence in the player's language.
    """

    def __init__(self, key: str, **params: object) -> None:
        self.key, self.params = key, params
        super().__init__(self.localised(Messages("en")))

    def localised(self, messages: Messages) -> str:
        return messages(self.key, **self.params)


def _help_formatter(prefix: str) -> type[argparse.HelpFormatter]:
    """A help formatter whose "usage" line starts with ``prefix`` (argparse's own is English only)."""

    class LocalisedFormatter(argparse.HelpFormatter):
        def add_usage(self, usage, actions, groups, prefix_=None):  # type: ignore[no-untyped-def]
            super().add_usage(usage, actions, groups, prefix if prefix_ is None else prefix_)

        def _format_action_invocation(self, action):  # type: ignore[no-untyped-def]
            if isinstance(action, _HelpAction):
                return ", ".join(action.option_strings)  # not argparse's "[HELP]": Orca says the brackets
            return super()._format_action_invocation(action)

    return LocalisedFormatter


# argparse's own error messages (English only: Python ships no other language for them), each
# matched to a catalogue sentence. A message of another shape, or from another Python version,
# is shown as argparse wrote it.
_ARGPARSE_ERRORS = (
    (re.compile(r"argument (?P<flag>\S+): expected one argument$"), "cli.error.needs_value"),
    (re.compile(r"argument (?P<flag>\S+): invalid (?:int|float) value: (?P<value>.*)$"), "cli.error.not_a_number"),
    (re.compile(r"argument (?P<flag>\S+): invalid choice: (?P<value>.*?) \(choose from (?P<choices>.*)\)$"),
     "cli.error.choice"),
    (re.compile(r"argument (?P<flag>\S+): not allowed with argument (?P<other>\S+)$"), "cli.error.not_with"),
    (re.compile(r"argument (?P<flag>\S+): ignored explicit argument (?P<value>.*)$"), "cli.error.no_value"),
    (re.compile(r"ambiguous option: (?P<flag>\S+) could match (?P<choices>.*)$"), "cli.error.ambiguous"),
    (re.compile(r"unrecognized arguments: (?P<value>.*)$"), "cli.error.unknown"),
)


def _unquoted(text: str) -> str:
    """'x' -> x: a screen reader would say the quotes."""
    return ", ".join(part.strip().strip("'\"") for part in text.split(","))


def argparse_problem(message: str, messages: Messages) -> str:
    """argparse's one-line error as a sentence in the player's language (its own words if unknown)."""
    for pattern, key in _ARGPARSE_ERRORS:
        found = pattern.match(message)
        if found:
            return messages(key, **{name: _unquoted(value) for name, value in found.groupdict().items()})
    return message


SHORT_HELP_FLAGS = ("--no-voice", "--voice", "--lang", "--plain", "--resume", "--lesson")
ALL_WORDS = {"all", "tutto", "tutte", "tutti"}


class _HelpAction(argparse.Action):
    """``--help``: the options used most, in a few lines a listener can take in; ``--help all``: every one."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):  # noqa: A002
        super().__init__(option_strings, dest, nargs="?", const="", default=default, help=help)

    def __call__(self, parser, namespace, values, option_string=None):  # type: ignore[no-untyped-def]
        wants_all = str(values or "").lower() in ALL_WORDS
        parser._print_message(parser.format_help() if wants_all else parser.short_help(),  # type: ignore[attr-defined]
                              sys.stdout)
        parser.exit()


class _Parser(argparse.ArgumentParser):
    """Help without the colon argparse puts after each section title: a screen reader says "colon".

    A bad flag gets one sentence in the player's language and where to find the flags, not
    argparse's usage synopsis.
    """

    help_hint = ""
    messages = Messages("en")

    def error(self, message: str):  # type: ignore[override]
        self.exit(2, f"{self.prog}: {argparse_problem(message, self.messages)}\n{self.help_hint}\n")

    def short_help(self) -> str:
        """The description, the commonest flags one a line, and how to get them all."""
        m = self.messages
        lines = [m("cli.description"), m("cli.short.intro")]
        by_flag = {flag: action for action in self._actions for flag in action.option_strings}
        for flag in SHORT_HELP_FLAGS:
            action = by_flag[flag]
            metavar = f" {action.metavar}" if action.metavar else ""
            lines.append(f"{flag}{metavar}, {action.help}")
        lines.append(m("cli.help_hint", command="scopa --help all"))
        return "\n".join(lines) + "\n"

    def format_help(self) -> str:
        titles = {group.title for group in self._action_groups if group.title}
        lines = super().format_help().split("\n")
        return "\n".join(line[:-1] if line.endswith(":") and line[:-1] in titles else line for line in lines)


def build_parser(messages: Messages | None = None) -> argparse.ArgumentParser:
    """The flags, with their help in the language of ``messages`` (English by default).

    The usage line is a short sentence rather than argparse's synopsis of every flag, which a
    screen reader spells out bracket by bracket; the flags are listed below it anyway.

    argparse's own errors (an unknown flag, a value out of its choices) are matched to
    catalogue sentences by ``argparse_problem``.
    """
    from .lessons import LESSON_COUNT

    m = messages or Messages("en")
    p = _new_parser("scopa", m("cli.usage_line"), m)
    p.help_hint = m("cli.help_hint", command="scopa --help all")
    g = _add_match_flags(p, m, names=True)
    g.add_argument("--seed", type=int, metavar=m("cli.metavar.seed"), help=m("cli.seed"))
    g.add_argument("--budget", type=float, default=1.0, metavar=m("cli.metavar.budget"), help=m("cli.budget"))
    _add_sound_flags(p, m)
    f = p.add_argument_group(m("cli.group.files"))
    file = m("cli.metavar.file")
    f.add_argument("--resume", action="store_true", help=m("cli.resume"))
    f.add_argument("--export", metavar=file, help=m("cli.export", file=file))
    f.add_argument("--import", dest="import_file", metavar=file, help=m("cli.import", file=file))
    f.add_argument("--lesson", type=int, metavar="N", help=m("cli.lesson", lessons=LESSON_COUNT))
    f.add_argument("--stats", action="store_true", help=m("cli.stats"))
    f.add_argument("--review", metavar=m("cli.metavar.review"), help=m("cli.review"))
    f.add_argument("--data-dir", type=Path, metavar=m("cli.metavar.data_dir"), help=m("cli.data_dir"))
    f.add_argument("--config-dir", type=Path, metavar=m("cli.metavar.config_dir"), help=m("cli.config_dir"))
    other = p.add_argument_group(m("cli.group.other"))
    other.add_argument("-h", "--help", action=_HelpAction, help=m("cli.help", command="--help all"))
    other.add_argument("--version", action="store_true", help=m("cli.version"))
    return p


def _new_parser(prog: str, usage: str, m: Messages) -> "_Parser":
    p = _Parser(prog=prog, usage=usage, description=m("cli.description"), add_help=False,
                formatter_class=_help_formatter(m("cli.usage")))
    p.help_hint = m("cli.help_hint", command=f"{prog} --help")
    p.messages = m
    return p


def _add_match_flags(p: argparse.ArgumentParser, m: Messages, names: bool = False) -> argparse._ArgumentGroup:
    """The rules and seats of a new match (the main command, with --names, and ``scopa host``)."""
    g = p.add_argument_group(m("cli.group.match"))
    g.add_argument("--players", type=int, choices=(2, 3, 4), metavar="N", help=m("cli.players"))
    g.add_argument("--seats", metavar=m("cli.metavar.seats"),
                   help=m("cli.seats", example="human,computer:hard,human,computer:easy", levels=", ".join(LEVELS)))
    if names:
        g.add_argument("--names", metavar=m("cli.metavar.names"), help=m("cli.names", example="Alice,Bob"))
    g.add_argument("--target", metavar=m("cli.metavar.target"), help=m("cli.target"))
    g.add_argument("--variant", choices=[v.value for v in Variant], metavar=m("cli.metavar.variant"),
                   help=m("cli.variant"))
    g.add_argument("--options", metavar=m("cli.metavar.options"), help=m("cli.options", options=", ".join(OPTIONS)))
    g.add_argument("--no-kings-redeal", action="store_true", help=m("cli.no_kings_redeal"))
    return g


def _add_sound_flags(p: argparse.ArgumentParser, m: Messages) -> None:
    o = p.add_argument_group(m("cli.group.sound"))
    voice = o.add_mutually_exclusive_group()
    voice.add_argument("--voice", dest="voice", action="store_true", default=None, help=m("cli.voice"))
    voice.add_argument("--no-voice", dest="voice", action="store_false", help=m("cli.no_voice"))
    o.add_argument("--voice-id", metavar="ID", help=m("cli.voice_id"))
    o.add_argument("--rate", type=int, metavar=m("cli.metavar.rate"), help=m("cli.rate"))
    o.add_argument("--volume", type=int, metavar=m("cli.metavar.volume"), help=m("cli.volume"))
    o.add_argument("--plain", action="store_true", help=m("cli.plain"))
    o.add_argument("--lang", choices=("en", "it"), metavar=m("cli.metavar.lang"), help=m("cli.lang"))
    o.add_argument("--cards", choices=("french", "napoletane"), metavar=m("cli.metavar.cards"), help=m("cli.cards"))
    o.add_argument("--verbosity", choices=("short", "full"), metavar=m("cli.metavar.verbosity"),
                   help=m("cli.verbosity"))


ONLINE_COMMANDS = ("host", "join")


def build_online_parser(command: str, messages: Messages | None = None) -> argparse.ArgumentParser:
    """``scopa host`` (a new room: the match flags, --level for seats nobody takes) or
    ``scopa join CODE``; both take --server, --name and the sound and folder flags."""
    m = messages or Messages("en")
    p = _new_parser(f"scopa {command}", m(f"cli.{command}.usage_line"), m)
    if command == "join":
        p.add_argument("code", nargs="?", metavar=m("cli.metavar.code"), help=m("cli.code"))
    n = p.add_argument_group(m("cli.group.online"))
    n.add_argument("--server", metavar=m("cli.metavar.server"), help=m("cli.server"))
    n.add_argument("--name", metavar=m("cli.metavar.name"), help=m("cli.name"))
    if command == "host":
        _add_match_flags(p, m)
        n.add_argument("--level", choices=LEVELS, metavar=m("cli.metavar.level"),
                       help=m("cli.level", levels=", ".join(LEVELS)))
    _add_sound_flags(p, m)
    f = p.add_argument_group(m("cli.group.files"))
    f.add_argument("--data-dir", type=Path, metavar=m("cli.metavar.data_dir"), help=m("cli.data_dir"))
    f.add_argument("--config-dir", type=Path, metavar=m("cli.metavar.config_dir"), help=m("cli.config_dir"))
    other = p.add_argument_group(m("cli.group.other"))
    other.add_argument("-h", "--help", action="help", help=m("cli.help", command=f"scopa {command} --help"))
    return p


def online_seats(args: argparse.Namespace, players: int) -> tuple[str, ...]:
    """The seats of a hosted room: "human" (open to players) or a computer level, the host first."""
    if not args.seats:
        return ("human",) * players
    return tuple(seat_kinds(args, players))


def help_language_flags(argv: Sequence[str]) -> argparse.Namespace:
    """``--lang`` and ``--config-dir`` read ahead of the rest, so that ``--help`` is in the right language.

    Unknown flags and bad values are left for the full parser to report.
    """
    early = _QuietParser(add_help=False)
    early.add_argument("--lang")
    early.add_argument("--config-dir", type=Path)
    try:
        return early.parse_known_args(list(argv))[0]
    except ValueError:  # e.g. "--lang" with no value: the full parser says so
        return argparse.Namespace(lang=None, config_dir=None)


class _QuietParser(argparse.ArgumentParser):
    """Raises instead of printing and exiting, so a problem is reported once, by the full parser."""

    def error(self, message: str):  # type: ignore[override]
        raise ValueError(message)


def check_resume(args: argparse.Namespace) -> None:
    """``--resume`` continues a saved match, so a flag that starts a new one cannot go with it."""
    if args.resume and wants_new_match(args):
        raise UsageError("usage.resume_new_match", resume="--resume", players="--players", seed="--seed")


def wants_new_match(args: argparse.Namespace) -> bool:
    return any(getattr(args, name) is not None for name in ("players", "seats", "target", "variant", "options",
                                                               "seed")) or args.no_kings_redeal


def rules_from_args(args: argparse.Namespace) -> Rules:
    seats = args.seats.split(",") if args.seats else None
    players = args.players or (len(seats) if seats else None)
    if args.variant and args.variant != "scopa":
        players = players or 4
    players = players or 2
    options: dict[str, object] = {"players": players}
    if args.variant:
        options["variant"] = Variant(args.variant)
        if args.variant != "scopa":
            options["target"] = 21
    if args.target is not None:
        if args.target.lower() in {"single", "1", "one"}:
            options["target"] = None
        elif (target := typed_number(args.target)) is not None:
            options["target"] = target
        else:
            raise UsageError("usage.target")
    for name in (args.options.split(",") if args.options else []):
        name = name.strip().replace("-", "_")
        if name not in OPTIONS:
            raise UsageError("usage.option", name=repr(name), options=", ".join(OPTIONS))
        options[name] = True
    if args.no_kings_redeal:
        options["kings_redeal"] = False
    try:
        return Rules(**options)
    except RulesError:
        raise _rules_error(options) from None


def _rules_error(options: dict[str, object]) -> UsageError:
    """Which of the checks ``Rules`` makes the flags failed, as a sentence of the catalogue."""
    players, target = options["players"], options.get("target")
    if players not in (2, 3, 4):
        return UsageError("usage.players", players=players)
    if options.get("variant", Variant.SCOPA) is not Variant.SCOPA and players != 4:
        return UsageError("usage.scopone")
    return UsageError("usage.target_points", target=target)


def seat_kinds(args: argparse.Namespace, players: int) -> list[str]:
    """"human" or a level for each seat, from --seats or the default (you against easy computers)."""
    if not args.seats:
        return ["human"] + ["easy"] * (players - 1)
    kinds = []
    for item in args.seats.split(","):
        item = item.strip().lower()
        if item == "human":
            kinds.append("human")
            continue
        kind, _, level = item.partition(":")
        level = level or "easy"
        if kind not in {"computer", "cpu", "ai"} or level not in LEVELS:
            raise UsageError("usage.seat", item=repr(item), levels=", ".join(LEVELS))
        kinds.append(level)
    if len(kinds) != players:
        raise UsageError("usage.seats_count", count=len(kinds), players=players)
    if "human" not in kinds:
        raise UsageError("usage.no_human")
    return kinds


def human_names(args: argparse.Namespace, kinds: Sequence[str], messages: Messages | None = None) -> dict[int, str]:
    """Names of the human seats: from --names, else "You" (one human) or "Player N", in the game's language."""
    messages = messages or Messages()
    humans = [i for i, k in enumerate(kinds) if k == "human"]
    given = [clean_name(n) for n in args.names.split(",")] if args.names else []
    names = {}
    for index, seat in enumerate(humans):
        if index < len(given) and given[index]:
            names[seat] = given[index]
        else:
            names[seat] = messages("seat.you") if len(humans) == 1 else messages("seat.player", n=seat + 1)
    return names


def seats_from_args(args: argparse.Namespace, rules: Rules,
                    messages: Messages | None = None) -> tuple[SeatSetup, ...]:
    from .console.app import build_seats
    kinds = seat_kinds(args, rules.players)
    return build_seats(kinds, human_names(args, kinds, messages), seed=args.seed or 0)


BUDGET_RANGE = (0.05, 60.0)  # seconds an expert may think per move


def budget_from_args(args: argparse.Namespace) -> float:
    """The expert's time per move from ``--budget``: a number of seconds in ``BUDGET_RANGE``
    (argparse takes "nan", "inf" and negatives as floats; none of them is a budget)."""
    low, high = BUDGET_RANGE
    if not low <= args.budget <= high:  # false for nan too
        raise UsageError("usage.budget", low=low, high=int(high))
    return args.budget


def review_from_args(args: argparse.Namespace) -> int | None:
    """Which finished match ``--review`` asks for (1 is the latest), or None without the flag."""
    if args.review is None:
        return None
    from .record.console import ReviewChoiceError, review_choice
    try:
        return review_choice(args.review)
    except ReviewChoiceError:
        raise UsageError("usage.review") from None


def settings_from_args(args: argparse.Namespace, settings: Settings) -> Settings:
    """The saved settings with this run's voice and verbosity flags applied."""
    changes: dict[str, object] = {}
    if args.rate is not None:
        if not 80 <= args.rate <= 450:
            raise UsageError("usage.rate")
        changes["rate"] = args.rate
    if args.volume is not None:
        if not 0 <= args.volume <= 100:
            raise UsageError("usage.volume")
        changes["volume"] = args.volume / 100
    if args.voice_id:
        changes["voice_id"] = args.voice_id
    if args.verbosity:
        changes["verbosity"] = args.verbosity
    return settings.with_changes(**changes) if changes else settings
