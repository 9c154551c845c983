"""Command-line flags: everything the set-up questions ask can also be given up front."""
from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from .config import Settings
from .console.keys import typed_number
from .engine import Rules, RulesError, Variant
from .engine.shuffle import seed_number
from .match import SeatSetup, clean_name
from .narration import Messages, run_command
from .numbers import decimal_number, seed_value, whole_number

LEVELS = ("beginner", "easy", "medium", "hard", "expert")
OPTIONS = ("faces_match_only", "most_cards", "napola", "re_bello", "asso_piglia_tutto", "matta_table", "table_nine",
           "cappotto", "opening_to_leader", "win_by_two", "a_perdere")
# Options a game has on unless switched off: "no_" before the name in --options switches one off.
DEFAULT_ON = ("grande_piccola", "ace_scopa", "opening_pairs")


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
        def add_usage(self, usage: str | None, actions: Iterable[argparse.Action],
                      groups: Iterable[argparse._MutuallyExclusiveGroup], prefix_: str | None = None) -> None:
            super().add_usage(usage, actions, groups, prefix if prefix_ is None else prefix_)

        def _format_action_invocation(self, action: argparse.Action) -> str:
            if isinstance(action, _HelpAction):
                return ", ".join(action.option_strings)  # not argparse's "[HELP]": Orca says the brackets
            return super()._format_action_invocation(action)

    return LocalisedFormatter


# argparse's own error messages (English only: Python ships no other language for them), each
# matched to a catalogue sentence. A message of another shape, or from another Python version,
# is shown as argparse wrote it.
_ARGPARSE_ERRORS = (
    (re.compile(r"argument (?P<flag>\S+): expected one argument$"), "cli.error.needs_value"),
    (re.compile(r"argument (?P<flag>\S+): invalid (?:whole_number|decimal_number|int|float) value: (?P<value>.*)$"),
     "cli.error.not_a_number"),
    (re.compile(r"argument (?P<flag>\S+): invalid seed_value value: (?P<value>.*)$"), "cli.error.not_a_seed"),
    (re.compile(r"argument (?P<flag>\S+): invalid (?:file_name|folder) value: (?P<value>.*)$"),
     "cli.error.needs_value"),
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


SHOWN_LENGTH = 40  # characters of a value the player typed that a message repeats


def shortened(text: str, limit: int = SHOWN_LENGTH) -> str:
    """A value the player typed, cut short for a message: 5000 characters of it help no one."""
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "\u2026"


def argparse_problem(message: str, messages: Messages) -> str:
    """argparse's one-line error as a sentence in the player's language (its own words if unknown).

    What the player typed (the value, an unknown flag) is cut short; the game's own words are not."""
    for pattern, key in _ARGPARSE_ERRORS:
        found = pattern.match(message)
        if found:
            params = {name: _unquoted(value) for name, value in found.groupdict().items()}
            params.update({name: shortened(params[name]) for name in ("value", "flag") if name in params})
            return messages(key, **params)
    return shortened(message, 200)


# Every flag's value is read the same way: spaces around it go, and a word of the game's own
# (a choice, a level, an option, "single") may be written in any case. Names and files keep
# their case. Numbers are ASCII digits only (``numbers``: int() also takes "２" and "٣").


def keyword(text: str) -> str:
    """A word of the game's own, as typed in any case and with spaces around it."""
    return text.strip().lower()


def trimmed(text: str) -> str:
    return text.strip()


def file_name(text: str) -> str:
    """A file named on the command line, spaces around it gone; an empty name is no name."""
    if not text.strip():
        raise ValueError(text)
    return text.strip()


def folder(text: str) -> Path:
    return Path(file_name(text))


SHORT_HELP_FLAGS = ("--no-voice", "--voice", "--lang", "--plain", "--resume", "--lesson")
ALL_WORDS = {"all", "tutto", "tutte", "tutti"}


class _HelpAction(argparse.Action):
    """``--help``: the options used most, in a few lines a listener can take in; ``--help all``: every one."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: Any = argparse.SUPPRESS, help: str | None = None) -> None:  # noqa: A002
        super().__init__(option_strings, dest, nargs="?", const="", default=default, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: str | Sequence[Any] | None, option_string: str | None = None) -> None:
        wants_all = str(values or "").lower() in ALL_WORDS
        text = parser.format_help() if wants_all or not isinstance(parser, _Parser) else parser.short_help()
        parser._print_message(text, sys.stdout)
        parser.exit()


class _Parser(argparse.ArgumentParser):
    """Help without the colon argparse puts after each section title: a screen reader says "colon".

    A bad flag gets one sentence in the player's language and where to find the flags, not
    argparse's usage synopsis.
    """

    help_hint = ""
    messages = Messages("en")
    commands: _Commands | None = None

    def error(self, message: str) -> NoReturn:
        problem = self.commands.problem(message) if self.commands is not None else None
        self.exit(2, f"{self.prog}: {problem or argparse_problem(message, self.messages)}\n{self.help_hint}\n")

    def _print_message(self, message: str, file: Any = None) -> None:  # argparse's: any writer, or None
        """Help and errors through the terminal's writer: an output that fails says so
        (argparse's own drops the text without a word, or sends help for a closed output to stderr)."""
        from .console.terminal import write
        if message:
            write(file, message)

    def short_help(self) -> str:
        """The description, the commonest flags one a line, and how to get them all."""
        m = self.messages
        lines = [m("cli.description"), m("cli.short.intro")]
        by_flag = {flag: action for action in self._actions for flag in action.option_strings}
        for flag in SHORT_HELP_FLAGS:
            action = by_flag[flag]
            metavar = f" {action.metavar}" if action.metavar else ""
            lines.append(f"{flag}{metavar}, {action.help}")
        if self.commands is not None and self.commands.names():
            names = self.commands.names()
            lines.append(m("cli.short.commands", commands=", ".join(names),
                           example=f"{run_command()} {names[-1]} --help"))
        lines.append(m("cli.help_hint", command=f"{run_command()} --help all"))
        return "\n".join(lines) + "\n"

    def format_help(self) -> str:
        titles = {group.title for group in self._action_groups if group.title}
        lines = super().format_help().split("\n")
        return "\n".join(line[:-1] if line.endswith(":") and line[:-1] in titles else line for line in lines)


if TYPE_CHECKING:  # generic in typeshed only: at run time the class takes no parameter
    _SubParsersAction = argparse._SubParsersAction[argparse.ArgumentParser]
else:
    _SubParsersAction = argparse._SubParsersAction


class _Commands(_SubParsersAction):
    """The sub-commands (``scopa serve``, ``scopa host``, ``scopa join``...), listed in ``--help`` as
    argparse lists its own, each read by a parser of its own.

    That parser is built only when its command runs, by the command itself, with the flags after
    its name (``serve``'s needs the server's modules, which the game never loads): this action
    only takes the command's name and what follows it, as ``args.command`` and ``args.command_args``.
    """

    messages = Messages("en")

    def add_command(self, name: str, help: str) -> None:  # noqa: A002  (argparse's own word)
        self._name_parser_map[name] = argparse.ArgumentParser(prog=name, add_help=False)  # a stand-in: never parses
        self._choices_actions.append(self._ChoicesPseudoAction(name, (), help))

    def names(self) -> list[str]:
        return list(self._name_parser_map)

    def problem(self, message: str) -> str | None:
        """The sentence for argparse's error when it is about the command (a word that is none)."""
        prefix = f"argument {self.metavar}: invalid choice: "
        if not message.startswith(prefix):
            return None
        value = shortened(_unquoted(message[len(prefix):].split(" (choose from")[0]))
        return self.messages("cli.error.command", value=value, choices=", ".join(self.names()))

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: str | Sequence[Any] | None, option_string: str | None = None) -> None:
        assert isinstance(values, list)  # nargs=PARSER: the command's name and every word after it
        namespace.command, namespace.command_args = values[0], list(values[1:])  # dest="command" (_add_commands)


def build_parser(messages: Messages | None = None, commands: Sequence[str] = ()) -> argparse.ArgumentParser:
    """The flags, with their help in the language of ``messages`` (English by default).

    The usage line is a short sentence rather than argparse's synopsis of every flag, which a
    screen reader spells out bracket by bracket; the flags are listed below it anyway.

    argparse's own errors (an unknown flag, a value out of its choices) are matched to
    catalogue sentences by ``argparse_problem``.
    """
    from .lessons import LESSON_TOTAL

    m = messages or Messages("en")
    p = _new_parser("scopa", m("cli.usage_line"), m)
    p.help_hint = m("cli.help_hint", command=f"{run_command()} --help all")
    if commands:
        _add_commands(p, m, commands)
    g = _add_match_flags(p, m, names=True)
    g.add_argument("--seed", type=seed_value, metavar=m("cli.metavar.seed"), help=m("cli.seed"))
    g.add_argument("--budget", type=decimal_number, metavar=m("cli.metavar.budget"), help=m("cli.budget"))
    _add_sound_flags(p, m)
    f = p.add_argument_group(m("cli.group.files"))
    file = m("cli.metavar.file")
    f.add_argument("--resume", action="store_true", help=m("cli.resume"))
    f.add_argument("--export", type=file_name, metavar=file, help=m("cli.export", file=file))
    f.add_argument("--import", dest="import_file", type=file_name, metavar=file, help=m("cli.import", file=file))
    f.add_argument("--lesson", type=whole_number, metavar="N", help=m("cli.lesson", lessons=LESSON_TOTAL))
    f.add_argument("--stats", action="store_true", help=m("cli.stats"))
    f.add_argument("--review", type=keyword, metavar=m("cli.metavar.review"), help=m("cli.review"))
    f.add_argument("--transcript", type=keyword, metavar="last", help=m("cli.transcript"))
    f.add_argument("--data-dir", type=folder, metavar=m("cli.metavar.data_dir"), help=m("cli.data_dir"))
    f.add_argument("--config-dir", type=folder, metavar=m("cli.metavar.config_dir"), help=m("cli.config_dir"))
    other = p.add_argument_group(m("cli.group.other"))
    other.add_argument("-h", "--help", action=_HelpAction, help=m("cli.help", command="--help all"))
    other.add_argument("--version", action="store_true", help=m("cli.version"))
    return p


def _add_commands(p: _Parser, m: Messages, commands: Sequence[str]) -> None:
    """The sub-commands, each with its line of help (``cli.command.NAME``) in ``--help all``."""
    action = p.add_subparsers(action=_Commands, dest="command", title=m("cli.group.commands"),
                              metavar=m("cli.metavar.command"))
    assert isinstance(action, _Commands)
    action.messages = m
    for name in commands:
        action.add_command(name, m(f"cli.command.{name}"))
    p.commands = action


def _new_parser(prog: str, usage: str, m: Messages) -> _Parser:
    p = _Parser(prog=prog, usage=usage, description=m("cli.description"), add_help=False,
                formatter_class=_help_formatter(m("cli.usage")))
    command = run_command() + prog.removeprefix("scopa")  # "python3 dev.py play host"
    p.help_hint = m("cli.help_hint", command=f"{command} --help")
    p.messages = m
    return p


def _add_match_flags(p: argparse.ArgumentParser, m: Messages, names: bool = False) -> argparse._ArgumentGroup:
    """The rules and seats of a new match (the main command, with --names, and ``scopa host``)."""
    g = p.add_argument_group(m("cli.group.match"))
    g.add_argument("--players", type=whole_number, choices=(2, 3, 4), metavar="N", help=m("cli.players"))
    g.add_argument("--seats", type=keyword, metavar=m("cli.metavar.seats"),
                   help=m("cli.seats", example="human,computer:hard,human,computer:easy", levels=", ".join(LEVELS)))
    if names:
        g.add_argument("--names", type=trimmed, metavar=m("cli.metavar.names"),
                       help=m("cli.names", example="Alice,Bob"))
    g.add_argument("--target", type=keyword, metavar=m("cli.metavar.target"), help=m("cli.target"))
    g.add_argument("--variant", type=keyword, choices=[v.value for v in Variant], metavar=m("cli.metavar.variant"),
                   help=m("cli.variant"))
    g.add_argument("--options", type=keyword, metavar=m("cli.metavar.options"),
                   help=m("cli.options", options=", ".join(OPTIONS), off=", ".join(f"no_{n}" for n in DEFAULT_ON)))
    g.add_argument("--no-kings-redeal", action="store_true", help=m("cli.no_kings_redeal"))
    return g


def _add_sound_flags(p: argparse.ArgumentParser, m: Messages) -> None:
    o = p.add_argument_group(m("cli.group.sound"))
    voice = o.add_mutually_exclusive_group()
    voice.add_argument("--voice", dest="voice", action="store_true", default=None, help=m("cli.voice"))
    voice.add_argument("--no-voice", dest="voice", action="store_false", help=m("cli.no_voice"))
    o.add_argument("--voice-id", type=trimmed, metavar="ID", help=m("cli.voice_id"))
    o.add_argument("--rate", type=whole_number, metavar=m("cli.metavar.rate"), help=m("cli.rate"))
    o.add_argument("--volume", type=whole_number, metavar=m("cli.metavar.volume"), help=m("cli.volume"))
    o.add_argument("--plain", action="store_true", help=m("cli.plain"))
    o.add_argument("--lang", type=keyword, choices=("en", "it"), metavar=m("cli.metavar.lang"), help=m("cli.lang"))
    o.add_argument("--cards", type=keyword, choices=("french", "napoletane"), metavar=m("cli.metavar.cards"),
                   help=m("cli.cards"))
    o.add_argument("--verbosity", type=keyword, choices=("brief", "default", "short", "full"),
                   metavar=m("cli.metavar.verbosity"), help=m("cli.verbosity"))


ONLINE_COMMANDS = ("host", "join", "watch", "quick", "tables", "daily")


def build_online_parser(command: str, messages: Messages | None = None) -> argparse.ArgumentParser:
    """``scopa host`` (a new room: the match flags, --level for seats nobody takes) or
    ``scopa join CODE``; both take --server, --name and the sound and folder flags."""
    m = messages or Messages("en")
    p = _new_parser(f"scopa {command}", m(f"cli.{command}.usage_line"), m)
    if command in ("join", "watch"):  # a code, or an invite link (net.client.invite) that names the server too
        p.add_argument("code", nargs="?", type=trimmed, metavar=m("cli.metavar.code"), help=m("cli.join.link"))
    n = p.add_argument_group(m("cli.group.online"))
    n.add_argument("--server", type=trimmed, metavar=m("cli.metavar.server"), help=m("cli.server"))
    n.add_argument("--name", type=trimmed, metavar=m("cli.metavar.name"), help=m("cli.name"))
    n.add_argument("--cafile", type=folder, metavar=m("cli.metavar.cafile"), help=m("cli.cafile"))
    if command == "host":
        _add_match_flags(p, m)
        n.add_argument("--public", action="store_true", help=m("cli.public"))
        n.add_argument("--watchers-chat", action="store_true", help=m("cli.watchers_chat"))
        n.add_argument("--join-between-deals", action="store_true", help=m("cli.join_between_deals"))
    if command == "quick":  # the game to be matched for: players, variant and target, no seats
        g = p.add_argument_group(m("cli.group.match"))
        g.add_argument("--players", type=whole_number, choices=(2, 4), metavar="N", help=m("cli.quick_players"))
        g.add_argument("--target", type=keyword, metavar=m("cli.metavar.target"), help=m("cli.target"))
        g.add_argument("--variant", type=keyword, choices=[v.value for v in Variant], metavar=m("cli.metavar.variant"),
                       help=m("cli.variant"))
        p.set_defaults(seats=None, options=None, no_kings_redeal=False)  # what rules_from_args reads besides
    if command in ("host", "quick"):
        n.add_argument("--level", type=keyword, choices=LEVELS, metavar=m("cli.metavar.level"),
                       help=m("cli.level", levels=", ".join(LEVELS)))
    if command in ("host", "quick"):  # quick: only players who chose the same timer meet (issue 38)
        n.add_argument("--turn-time", type=int, choices=(20, 30, 60, 90), metavar=m("cli.metavar.turn_time"),
                       help=m("cli.turn_time" if command == "host" else "cli.quick_turn_time"))
    _add_sound_flags(p, m)
    f = p.add_argument_group(m("cli.group.files"))
    f.add_argument("--data-dir", type=folder, metavar=m("cli.metavar.data_dir"), help=m("cli.data_dir"))
    f.add_argument("--config-dir", type=folder, metavar=m("cli.metavar.config_dir"), help=m("cli.config_dir"))
    other = p.add_argument_group(m("cli.group.other"))
    other.add_argument("-h", "--help", action="help", help=m("cli.help.this"))  # not "or every one with" itself
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
    early.add_argument("--lang", type=keyword)
    early.add_argument("--config-dir", type=folder)
    try:
        return early.parse_known_args(list(argv))[0]
    except ValueError:  # e.g. "--lang" with no value: the full parser says so
        return argparse.Namespace(lang=None, config_dir=None)


class _QuietParser(argparse.ArgumentParser):
    """Raises instead of printing and exiting, so a problem is reported once, by the full parser."""

    def error(self, message: str) -> NoReturn:
        raise ValueError(message)


# The flags that describe a new match; given with none of the modes below, they start it at once.
NEW_MATCH_FLAGS = ("players", "seats", "names", "target", "variant", "options", "no_kings_redeal", "seed")
# What each way of running the game cannot be given with, because it would be silently ignored:
# a resumed or imported match has its own seats and rules; an export, a lesson, the statistics
# and a review play nothing with the computers' thinking time. Two of these modes at once are
# refused too.
MODES = ("resume", "import_file", "export", "lesson", "stats", "review", "transcript")
REFUSED_WITH = {
    "resume": NEW_MATCH_FLAGS,
    "import_file": NEW_MATCH_FLAGS,
    "export": (*NEW_MATCH_FLAGS, "budget"),
    "lesson": (*NEW_MATCH_FLAGS, "budget"),
    "stats": (*NEW_MATCH_FLAGS, "budget"),
    "review": (*NEW_MATCH_FLAGS, "budget"),
    "transcript": (*NEW_MATCH_FLAGS, "budget"),
}
FLAG_NAMES = {"import_file": "--import"}  # dest -> the flag as typed, where they differ


def flag_name(dest: str) -> str:
    return FLAG_NAMES.get(dest, "--" + dest.replace("_", "-"))


def given(args: argparse.Namespace, dest: str) -> bool:
    """Whether the flag was on the command line (a switch is False, a value None, when not)."""
    value = getattr(args, dest, None)
    return value is not None and value is not False


def conflicting_flags(args: argparse.Namespace) -> tuple[str, str] | None:
    """The first two flags given together that cannot both be honoured, as typed; None if none.

    Table-driven (``MODES`` and ``REFUSED_WITH``), so that a new rule is one more entry."""
    modes = [mode for mode in MODES if given(args, mode)]
    if len(modes) > 1:
        return flag_name(modes[0]), flag_name(modes[1])
    for mode in modes:
        for other in REFUSED_WITH[mode]:
            if given(args, other):
                return flag_name(mode), flag_name(other)
    return None


def check_flag_combination(args: argparse.Namespace) -> None:
    """A usage error for flags that cannot go together (see ``conflicting_flags``)."""
    conflict = conflicting_flags(args)
    if conflict is None:
        return
    flag, other = conflict
    if flag == "--resume" and other in {flag_name(dest) for dest in NEW_MATCH_FLAGS}:
        raise UsageError("usage.resume_new_match", resume="--resume", players="--players", seed="--seed")
    raise UsageError("usage.not_with", flag=flag, other=other)


def wants_new_match(args: argparse.Namespace) -> bool:
    return any(given(args, name) for name in NEW_MATCH_FLAGS)


def lesson_from_args(args: argparse.Namespace) -> int | None:
    """The lesson asked for, if one is: a number from 1 to the last lesson."""
    from .lessons import LESSON_TOTAL
    if args.lesson is not None and not 1 <= args.lesson <= LESSON_TOTAL:
        raise UsageError("usage.lesson", n=args.lesson, count=LESSON_TOTAL)
    result: int | None = args.lesson
    return result


def rules_from_args(args: argparse.Namespace) -> Rules:
    seats = args.seats.split(",") if args.seats else None
    players = args.players or (len(seats) if seats else None)
    variant = Variant(args.variant or "scopa")
    if variant in (Variant.SCOPONE_SCIENTIFICO, Variant.SCOPONE_CLASSICO):
        players = players or 4
    players = players or 2
    options: dict[str, Any] = {"players": players}
    if args.variant:
        options["variant"] = variant
    if args.target is not None:
        if args.target.lower() in {"single", "1", "one"}:
            options["target"] = None
        elif (target := typed_number(args.target)) is not None:
            options["target"] = target
        else:
            raise UsageError("usage.target")
    for typed in (args.options.split(",") if args.options else []):
        name = typed.strip().replace("-", "_")
        off = name.startswith("no_") and name[3:] in DEFAULT_ON
        if name not in OPTIONS and not off:
            raise UsageError("usage.option", name=repr(shortened(name)), options=", ".join(_game_options(variant)))
        options[name[3:] if off else name] = not off
    if args.no_kings_redeal:
        options["kings_redeal"] = False
    try:
        return Rules.for_variant(variant, **{k: v for k, v in options.items() if k != "variant"})
    except RulesError as error:
        raise _rules_error(options, error) from None


def _game_options(variant: Variant) -> tuple[str, ...]:
    """The names --options takes for this game: the options to switch on, then "no_" and those on
    unless switched off."""
    names = Rules.for_variant(variant, players=4 if variant in (Variant.SCOPONE_SCIENTIFICO,
                                                                 Variant.SCOPONE_CLASSICO) else 2).available_options()
    return (*(n for n in OPTIONS if n in names), *(f"no_{n}" for n in DEFAULT_ON if n in names))


def _rules_error(options: dict[str, Any], error: RulesError) -> UsageError:
    """Which of the checks ``Rules`` makes the flags failed, as a sentence of the catalogue."""
    players, target = options["players"], options.get("target")
    if players not in (2, 3, 4):
        return UsageError("usage.players", players=players)
    if error.code == "scopone_players":
        return UsageError("usage.scopone")
    if error.code == "cirulla_target":
        return UsageError("usage.cirulla_target", target=target)
    if error.code == "variant_option":
        variant = options.get("variant", Variant.SCOPA)
        return UsageError("usage.variant_option", name=dict(error.reason.params).get("option"),
                          variant=variant.value if isinstance(variant, Variant) else variant)
    if error.code == "win_by_two_single":
        return UsageError("usage.win_by_two_single")
    return UsageError("usage.target_points", target=target)


def seat_kinds(args: argparse.Namespace, players: int) -> list[str]:
    """"human" or a level for each seat, from --seats or the default (you against easy computers)."""
    if not args.seats:
        return ["human"] + ["easy"] * (players - 1)
    kinds = []
    for typed in args.seats.split(","):
        item = typed.strip().lower()
        if item == "human":
            kinds.append("human")
            continue
        kind, _, level = item.partition(":")
        level = level or "easy"
        if kind not in {"computer", "cpu", "ai"} or level not in LEVELS:
            raise UsageError("usage.seat", item=repr(shortened(item)), levels=", ".join(LEVELS))
        kinds.append(level)
    if len(kinds) != players:
        raise UsageError("usage.seats_count", count=len(kinds), players=players)
    if "human" not in kinds:
        raise UsageError("usage.no_human")
    return kinds


def human_names(args: argparse.Namespace, kinds: Sequence[str], messages: Messages | None = None) -> dict[int, str]:
    """Names of the human seats: from --names, else "You" (one human) or "Player N", in the game's language.

    More names than human seats is a usage error: the extra ones would be dropped without a word."""
    messages = messages or Messages()
    humans = [i for i, k in enumerate(kinds) if k == "human"]
    given = [clean_name(n) for n in args.names.split(",")] if args.names else []
    if len(given) > len(humans):
        raise UsageError("usage.names_count", count=len(given), humans=len(humans))
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
    return build_seats(kinds, human_names(args, kinds, messages), seed=seed_number(args.seed or 0))


BUDGET_RANGE = (0.05, 60.0)  # seconds an expert may think per move
DEFAULT_BUDGET = 1.0


def budget_from_args(args: argparse.Namespace, seats: Sequence[SeatSetup] | None = None) -> float:
    """The expert's time per move from ``--budget``: a number of seconds in ``BUDGET_RANGE``.

    ``seats``: the seats of a match the flags start; ``--budget`` for one with no expert would be
    ignored without a word, so it is a usage error. Without ``seats`` (the menu, a resumed or
    imported match) it is the time of whichever expert plays."""
    if args.budget is None:
        return DEFAULT_BUDGET
    low, high = BUDGET_RANGE
    if not low <= args.budget <= high:  # false for nan too
        raise UsageError("usage.budget", low=low, high=int(high))
    if seats is not None and not any(seat.level == "expert" for seat in seats):
        raise UsageError("usage.budget_no_expert")
    result: float = args.budget
    return result


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
    if args.verbosity:  # a profile: its words and every switch it sets, tips too
        settings = settings.with_profile(args.verbosity)
    return settings.with_changes(**changes) if changes else settings
