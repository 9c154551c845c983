"""``scopa``: start the game. ``scopa --help`` lists every flag."""
from __future__ import annotations

import sys
from typing import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    from . import __version__
    from .cli import UsageError, build_parser, rules_from_args, seats_from_args, wants_new_match
    from .config import default_config_dir, default_data_dir, load_settings

    parser = build_parser()
    args = parser.parse_args(argv)
    if args.version:
        print(f"scopa {__version__}")
        return 0
    config_dir = args.config_dir or default_config_dir()
    data_dir = args.data_dir or default_data_dir()
    try:
        request = None
        if wants_new_match(args):
            from .console.app import MatchRequest
            rules = rules_from_args(args)
            request = MatchRequest(rules, seats_from_args(args, rules), args.seed)
    except UsageError as error:
        print(f"scopa: {error}", file=sys.stderr)
        return 2
    if args.export:
        return _export(data_dir, args.export)

    from .console.app import Program
    from .console.persistence import Persistence
    from .console.terminal import Output, make_input

    settings, problem = load_settings(config_dir)
    output = Output(sys.stdout)
    if problem:
        output.line(problem)
    program = Program(make_input(args.plain), output, settings, config_dir, Persistence(data_dir),
                      voice_override=args.voice, lang=args.lang, naming=args.cards, verbosity=args.verbosity,
                      budget=args.budget)
    _attach_extras(program)
    if args.import_file:
        record, message = program.persistence.import_match(args.import_file)
        output.line(message)
        if record is None:
            return 1
        program.persistence.start_new(record)
        return program.run(resume=True)
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


def _export(data_dir, path: str) -> int:
    from .storage import EXPORT_WARNING, AutosaveStore, export_match
    result = AutosaveStore(data_dir).load()
    if result.record is None:
        print(result.problem or "There is no saved match to export.", file=sys.stderr)
        return 1
    print(EXPORT_WARNING)
    written = export_match(result.record, path, overwrite=True)
    print(f"Exported to {written}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
