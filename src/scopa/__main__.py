"""``scopa``: start the game. ``scopa --help`` lists every flag.

``scopa.launch.run`` is the command's entry point (``scopa.startup`` makes Ctrl-C quiet from the
first line to the last); ``main`` is the program itself, callable with a list of flags.
"""
from __future__ import annotations

if __name__ == "__main__":  # python -m scopa: Ctrl-C is quiet from here on, before the imports below
    import scopa.startup  # noqa: F401

import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    import ssl
    from pathlib import Path

    from .console.app import Extras
    from .narration import Messages, Naming

NO_TERMINAL = 1  # exit code when the input or output cannot be used
INTERRUPTED = 130


class _Run:
    """What the top-level handlers need to word their line: the language, once the flags are read."""

    def __init__(self) -> None:
        self.messages: Messages | None = None

    def complain(self, key: str, **params: object) -> None:
        """One line on stderr, "scopa: ..." in the player's language (English before it is known)."""
        from .narration import Messages
        self.error_line((self.messages or Messages("en"))(key, **params))

    @staticmethod
    def error_line(text: str) -> None:
        try:
            sys.stderr.write(f"scopa: {text}\n")
            sys.stderr.flush()
        except (OSError, ValueError, AttributeError):  # stderr closed or full too: nothing more to do
            pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run scopa. A terminal that fails (input or output closed, a full device) or a Ctrl-C outside
    any prompt ends it with one line on stderr and the saves as the last completed turn left them;
    a closed output pipe ends it quietly."""
    from .console.terminal import OutputClosed, use_safe_rendering

    use_safe_rendering(sys.stdin, sys.stdout, sys.stderr)
    run = _Run()
    try:
        code = _main(argv, run)
    except KeyboardInterrupt:
        run.complain("app.interrupted")
        return INTERRUPTED
    except OutputClosed as closed:
        return _output_failed(run, closed.problem)
    except BrokenPipeError:
        _silence_stdout()
        return 0
    except OSError as error:  # files are handled where they are used: what reaches here is the output
        return _output_failed(run, error)
    except SystemExit:  # --help and usage errors: what argparse printed must reach the screen
        failed = _flush_failure(run)
        if failed is not None:
            return failed
        raise
    failed = _flush_failure(run)
    return code if failed is None else failed


def _flush_failure(run: _Run) -> int | None:
    """None once everything printed has reached the output; else the output failure's code."""
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except (OSError, ValueError) as error:
        return _output_failed(run, error)
    return None


def _output_failed(run: _Run, problem: OSError | ValueError) -> int:
    _silence_stdout()
    if isinstance(problem, BrokenPipeError):  # the reader went away: nothing to tell it
        return 0
    from .narration import Messages, os_problem
    messages = run.messages or Messages("en")
    why = os_problem(problem, messages) if isinstance(problem, OSError) else messages("terminal.closed")
    run.complain("terminal.output_failed", problem=why)
    return NO_TERMINAL


def _silence_stdout() -> None:
    """After the output failed or its reader went away, stop Python complaining about it at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def _main(argv: Sequence[str] | None, run: _Run) -> int:
    from . import __version__
    from .cli import (
        UsageError,
        budget_from_args,
        build_parser,
        check_flag_combination,
        help_language_flags,
        lesson_from_args,
        review_from_args,
        rules_from_args,
        seats_from_args,
        settings_from_args,
        shortened,
        wants_new_match,
    )
    from .config import SETTINGS_FILE, default_config_dir, load_settings
    from .storage import default_data_dir

    argv = sys.argv[1:] if argv is None else list(argv)
    early = help_language_flags(argv)
    settings, problem = load_settings(early.config_dir or default_config_dir())
    # --help speaks the player's language too: --lang, else the saved setting, else the system's.
    parser = build_parser(_messages(early.lang or settings.language), tuple(COMMANDS))
    args = parser.parse_args(argv)
    if args.command is not None:  # scopa serve|host|join ...: the command reads the flags after its name
        if argv[0] != args.command:  # scopa --no-voice join: the flag would be read and then dropped
            from .narration import run_command
            before = argv.index(args.command)
            example = " ".join([run_command(), args.command, *argv[:before], *argv[before + 1:]])
            run.error_line(_messages(early.lang or settings.language)("cli.error.command_first", name=args.command,
                                                                      example=shortened(example, 80)))
            return 2
        return COMMANDS[args.command](args.command_args)
    config_dir = args.config_dir or default_config_dir()
    if args.config_dir != early.config_dir:  # an abbreviation the early reading did not take
        settings, problem = load_settings(config_dir)
    data_dir = args.data_dir or default_data_dir()
    messages = run.messages = _messages(args.lang or settings.language)
    if sys.stdout is None:
        run.complain("terminal.no_output")
        return NO_TERMINAL
    if args.version:
        _print(f"scopa {__version__}")
        return 0
    try:
        check_flag_combination(args)
        settings = settings_from_args(args, settings)
        lesson = lesson_from_args(args)
        review = review_from_args(args)
        if args.transcript is not None and args.transcript not in ("last", "ultima"):
            raise UsageError("usage.transcript")
        request = None
        if wants_new_match(args):
            from .console.app import MatchRequest
            rules = rules_from_args(args)
            request = MatchRequest(rules, seats_from_args(args, rules, messages), args.seed)
        budget = budget_from_args(args, request.seats if request is not None else None)
    except UsageError as error:
        run.error_line(error.localised(messages))
        return 2
    if args.export:
        return _export(data_dir, args.export, messages, run, args.cards or settings.card_names)
    if args.stats:
        from .console.leaderboard import stats_line
        from .record.console import print_stats
        code = print_stats(data_dir, messages.lang)
        rating = stats_line(data_dir, messages)
        if rating is not None:
            _print(rating)
        return code
    if args.transcript:
        from .storage.saves import SavedMatches
        from .storage.transcripts import latest_transcript
        found = latest_transcript(SavedMatches(data_dir).folder)
        if found is None:
            _print(messages("transcript.none"))
            return 1
        _print(str(found))
        return 0

    from .console.app import Program
    from .console.terminal import Output, make_input
    from .table.persistence import Persistence

    if sys.stdin is None:
        run.complain("terminal.no_input")
        return NO_TERMINAL
    output = Output(sys.stdout)
    if problem:
        output.line(messages("settings.unreadable", problem=problem, path=config_dir / SETTINGS_FILE))
    program = Program(make_input(args.plain), output, settings, config_dir, Persistence(data_dir),
                      voice_override=args.voice, lang=args.lang, naming=args.cards, verbosity=args.verbosity,
                      budget=budget if args.budget is not None else None, extras=_extras())
    if args.import_file:
        record, message = program.persistence.import_match(args.import_file)
        output.line(message)
        if record is None:
            return 1
        return program.run(imported=record)  # saved beside the other matches, none replaced
    if review is not None:
        from .record.console import run_review
        return run_review(program, review)
    if lesson is not None:
        return program.run_lesson(lesson)
    return program.run(request, resume=args.resume)


def _client_tls(cafile: Path | None, server: str | None) -> ssl.SSLContext | None:
    """``--cafile``: the TLS context trusting it, for a ``wss://`` server; ``UsageError`` when the file
    is not certificates, or the server given is a plain ``ws://`` one."""
    import ssl

    from .cli import UsageError
    from .net.client.client import tls_context
    if cafile is None:
        return None
    if server and "://" in server and not server.lower().startswith("wss://"):
        raise UsageError("usage.cafile_ws", server=server)
    try:
        return tls_context(cafile)
    except (OSError, ssl.SSLError):
        raise UsageError("usage.cafile", path=cafile) from None


def _serve(argv: list[str]) -> int:
    """``scopa serve``: the room server, with its own flags (``scopa serve --help``), and the browser page
    whose consoles ``scopa.web`` plays in a worker process (docs/web.md)."""
    from .net.server.launch import main as serve
    from .web.workers import PageWorkers
    return serve(argv, PageWorkers.started)


def _host(argv: list[str]) -> int:
    return _online("host", argv)


def _join(argv: list[str]) -> int:
    return _online("join", argv)


def _watch(argv: list[str]) -> int:
    """``scopa watch CODE --server URL``: a room of the server, watched as a spectator."""
    return _online("watch", argv)


def _quick(argv: list[str]) -> int:
    """``scopa quick --server URL``: the first players waiting for the same game, or computers."""
    return _online("quick", argv)


def _tables(argv: list[str]) -> int:
    """``scopa tables --server URL``: the public rooms waiting, one chosen is joined."""
    return _online("tables", argv)


def _daily(argv: list[str]) -> int:
    """``scopa daily --server URL``: the day's deals against the expert, then the day's board."""
    return _online("daily", argv)


def _verify(argv: list[str]) -> int:
    """``scopa verify FILE``: the shuffle of a match file (docs/fairness.md)."""
    from .verify import main as verify
    return verify(argv)


def _leaderboard(argv: list[str]) -> int:
    """``scopa leaderboard``: the server's best players, then this player's place."""
    from .leaderboard import main as leaderboard
    return leaderboard(argv)


def _account(argv: list[str]) -> int:
    """``scopa account export|import FILE``: move the player key (docs/statistics.md)."""
    from .account import main as account
    return account(argv)


# The sub-commands: each name, and the function that runs it with the flags after its name (it
# builds its own parser, so that ``scopa NAME --help`` is its own). A new one is one entry here,
# its line of ``--help``, ``cli.command.NAME``, in both catalogues, and its function.
COMMANDS: dict[str, Callable[[list[str]], int]] = {
    "serve": _serve,
    "host": _host,
    "join": _join,
    "watch": _watch,
    "quick": _quick,
    "tables": _tables,
    "daily": _daily,
    "verify": _verify,
    "leaderboard": _leaderboard,
    "account": _account,
}


def _online(command: str, argv: list[str]) -> int:
    """``scopa host``, ``scopa join``, ``scopa watch``, ``scopa quick`` and ``scopa tables``: a room
    of the server, played (or watched) at this terminal."""
    from .cli import (
        UsageError,
        build_online_parser,
        help_language_flags,
        online_seats,
        rules_from_args,
        settings_from_args,
    )
    from .config import SETTINGS_FILE, default_config_dir, load_settings
    from .console.online import OnlineRequest, default_name
    from .storage import default_data_dir

    early = help_language_flags(argv)
    settings, problem = load_settings(early.config_dir or default_config_dir())
    args = build_online_parser(command, _messages(early.lang or settings.language)).parse_args(argv)
    config_dir = args.config_dir or default_config_dir()
    if args.config_dir != early.config_dir:
        settings, problem = load_settings(config_dir)
    messages = _messages(args.lang or settings.language)
    try:
        settings = settings_from_args(args, settings)
        rules = seats = None
        if command in ("host", "quick"):
            rules = rules_from_args(args)
            seats = online_seats(args, rules.players)
    except UsageError as error:
        print(f"scopa: {error.localised(messages)}", file=sys.stderr)
        return 2
    code = getattr(args, "code", None)
    from .net.client.invite import parse_invite
    invite = parse_invite(code) if code else None  # scopa join ws://HOST:PORT/K7MQ3T: the server and the code
    if invite is not None:
        args.server, code = invite
    # scopa join alone: the seat sat in last
    mode: Literal["host", "join", "resume", "watch", "quick", "tables", "daily"] = (
        "host" if command == "host" else "watch" if command == "watch" else "quick" if command == "quick"
        else "tables" if command == "tables" else "daily" if command == "daily" else "join" if code else "resume")
    if mode == "watch" and not code:
        print(f"scopa: {messages('online.watch_needs_code')}", file=sys.stderr)
        return 2
    server = args.server or settings.last_server or ""
    if not server and mode != "resume":
        print(f"scopa: {messages('online.need_server')}", file=sys.stderr)
        return 2
    try:
        tls = _client_tls(args.cafile, args.server)
    except UsageError as error:
        print(f"scopa: {error.localised(messages)}", file=sys.stderr)
        return 2
    from .match import clean_name
    name = clean_name(getattr(args, "name", None) or "") or default_name(messages)  # as a name typed in the menu
    level = getattr(args, "level", None) or ("easy" if mode == "quick" else None)
    request = OnlineRequest(mode, server, name, code or "", rules, seats or (),
                            level, tls, getattr(args, "turn_time", None), getattr(args, "public", False),
                            watchers_chat=getattr(args, "watchers_chat", False),
                            join_between_deals=getattr(args, "join_between_deals", False))

    from .console.app import Program
    from .console.terminal import Output, make_input
    from .table.persistence import Persistence
    output = Output(sys.stdout)
    if problem:
        output.line(messages("settings.unreadable", problem=problem, path=config_dir / SETTINGS_FILE))
    program = Program(make_input(args.plain), output, settings, config_dir,
                      Persistence(args.data_dir or default_data_dir()), voice_override=args.voice, lang=args.lang,
                      naming=args.cards, verbosity=args.verbosity, extras=_extras())
    return program.run_online(request)


def _extras() -> Extras:
    """Lessons, the rules reader and tips, when those modules are present."""
    from .console.app import Extras
    try:
        from .lessons.console import extras
    except ImportError:
        return Extras()
    return extras()


def _messages(lang: str | None) -> Messages:
    from .narration import LANGUAGES, Messages, system_language
    return Messages(lang if lang in LANGUAGES else system_language())


def _export(data_dir: Path, path: str, messages: Messages, run: _Run, naming: Naming = "french") -> int:
    """``scopa --export FILE``: the most recently played saved match to a file, after the warning
    that it shows every hand."""
    from .narration import os_problem
    from .storage import export_match
    from .table.persistence import Persistence
    persistence = Persistence(data_dir, messages=lambda: messages, naming=lambda: naming)
    saves = persistence.saved_matches()
    for line in persistence.notices():  # anything set aside, and where it is kept
        run.error_line(line)
    if not saves:
        run.error_line(messages("export.none"))
        return 1
    refusal = persistence.export_refusal(path)  # a folder, a pipe or a device: said before the warning
    if refusal:
        run.error_line(refusal)
        return 1
    _print(messages("export.file_warning"))
    try:
        written = export_match(saves[0].record, path)  # never over a file already there: no one was asked
    except FileExistsError:
        run.error_line(messages("export.exists", path=path))
        return 1
    except OSError as error:
        run.error_line(messages("export.failed", problem=os_problem(error, messages)))
        return 1
    _print(messages("export.done", path=written))
    return 0


def _print(text: str) -> None:
    from .console.terminal import write
    write(sys.stdout, text + "\n")


if __name__ == "__main__":
    from scopa.startup import run as _run
    sys.exit(_run(lambda: main))
