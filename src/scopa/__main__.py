"""``scopa``: start the game. ``scopa --help`` lists every flag."""
from __future__ import annotations

import os
import sys
from typing import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """Run scopa; a closed output pipe or a Ctrl-C outside any prompt ends it quietly."""
    try:
        return _main(argv)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        _silence_stdout()
        return 0


def _silence_stdout() -> None:
    """After the reader of our output went away, stop Python complaining about it at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _main(argv: Sequence[str] | None) -> int:
    from . import __version__
    from .cli import (UsageError, budget_from_args, build_parser, check_resume, help_language_flags, review_from_args,
                      rules_from_args, seats_from_args, settings_from_args, wants_new_match)
    from .config import SETTINGS_FILE, default_config_dir, default_data_dir, load_settings

    argv = sys.argv[1:] if argv is None else list(argv)
    early = help_language_flags(argv)
    settings, problem = load_settings(early.config_dir or default_config_dir())
    # --help speaks the player's language too: --lang, else the saved setting, else the system's.
    parser = build_parser(_messages(early.lang or settings.language))
    args = parser.parse_args(argv)
    if args.version:
        print(f"scopa {__version__}")
        return 0
    config_dir = args.config_dir or default_config_dir()
    if args.config_dir != early.config_dir:  # an abbreviation the early reading did not take
        settings, problem = load_settings(config_dir)
    data_dir = args.data_dir or default_data_dir()
    messages = _messages(args.lang or settings.language)
    try:
        check_resume(args)
        settings = settings_from_args(args, settings)
        budget = budget_from_args(args)
        review = review_from_args(args)
        request = None
        if wants_new_match(args):
            from .console.app import MatchRequest
            rules = rules_from_args(args)
            request = MatchRequest(rules, seats_from_args(args, rules, messages), args.seed)
    except UsageError as error:
        print(f"scopa: {error.localised(messages)}", file=sys.stderr)
        return 2
    if args.export:
        return _export(data_dir, args.export, messages, args.cards or settings.card_names)
    if args.stats:
        from .record.console import print_stats
        return print_stats(data_dir, messages.lang)

    from .console.app import Program
    from .table.persistence import Persistence
    from .console.terminal import Output, make_input

    output = Output(sys.stdout)
    if problem:
        output.line(messages("settings.unreadable", problem=problem, path=config_dir / SETTINGS_FILE))
    program = Program(make_input(args.plain), output, settings, config_dir, Persistence(data_dir),
                      voice_override=args.voice, lang=args.lang, naming=args.cards, verbosity=args.verbosity,
                      budget=budget)
    _attach_extras(program)
    if args.import_file:
        record, message = program.persistence.import_match(args.import_file)
        output.line(message)
        if record is None:
            return 1
        return program.run(imported=record)  # saved beside the other matches, none replaced
    if review is not None:
        from .record.console import run_review
        return run_review(program, review)
    if args.lesson is not None:
        return program.run_lesson(args.lesson) if hasattr(program, "run_lesson") else 2
    return program.run(request, resume=args.resume)


def _attach_extras(program) -> None:
    """Lessons and the rules reader, when those modules are present."""
    try:
        from .lessons.console import attach
    except ImportError:
        return
    attach(program)


def _messages(lang: str | None):
    from .narration import LANGUAGES, Messages, system_language
    return Messages(lang if lang in LANGUAGES else system_language())


def _export(data_dir, path: str, messages, naming: str = "french") -> int:
    """``scopa --export FILE``: the most recently played saved match to a file, after the warning
    that it shows every hand."""
    from .table.persistence import Persistence
    from .narration import os_problem
    from .storage import export_match
    persistence = Persistence(data_dir, messages=lambda: messages, naming=lambda: naming)
    saves = persistence.saved_matches()
    for line in persistence.notices():  # anything set aside, and where it is kept
        print(line, file=sys.stderr)
    if not saves:
        print(messages("export.none"), file=sys.stderr)
        return 1
    refusal = persistence.export_refusal(path)  # a folder, a pipe or a device: said before the warning
    if refusal:
        print(refusal, file=sys.stderr)
        return 1
    print(messages("export.file_warning"))
    try:
        written = export_match(saves[0].record, path)  # never over a file already there: no one was asked
    except FileExistsError:
        print(messages("export.exists", path=path), file=sys.stderr)
        return 1
    except OSError as error:
        print(messages("export.failed", problem=os_problem(error, messages)), file=sys.stderr)
        return 1
    print(messages("export.done", path=written))
    return 0


if __name__ == "__main__":
    sys.exit(main())
