"""Expert speed at a fixed number of samples: the same positions, the same moves, less time.

    python -m scopa.bench expert [--iterations 64] [--deals 3] [--repeat 3] [--only "scopa 2"]
                                 [--save moves.json | --check moves.json] [--level expert]

The positions are the views met in seeded single deals between the hard and medium levels
(two players, four players, scopa a perdere, scopone scientifico, scopa a 15 and cirulla):
every third decision that has more than one legal move. At each the expert, made afresh with
``iterations`` samples and a seed of its own (deterministic), gives its ``move_values``. It
prints, for each setting (``--only`` picks some), the positions, milliseconds a move and samples
a second (its fastest of ``--repeat`` runs), then a digest of every move chosen with its score
(a change that only makes the expert faster keeps the digest) and the totals. ``--save`` writes
the moves and scores to a file, ``--check`` compares with such a file and ends with code 1 on
any difference. ``--level`` runs another level's ``choose_move`` on the same positions instead
(its digest, to check it too).
The last line is ``samples/s: N``.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import time
from pathlib import Path
from typing import NamedTuple

from scopa.engine import PlayerView, Rules, new_deal
from scopa.players import LEVELS, make_player
from scopa.players.expert import ExpertPlayer


class Setting(NamedTuple):
    """One kind of game the positions come from."""

    name: str
    rules: Rules


SETTINGS = (
    Setting("scopa 2", Rules(players=2, target=None)),
    Setting("scopa 4", Rules(players=4, target=None)),
    Setting("a perdere 2", Rules(players=2, target=None, a_perdere=True)),
    Setting("scopone 4", Rules.scopone_scientifico(target=None)),
    # The rule sets these settings were first measured with (before issue 43 changed the two games'
    # defaults), so the moves digest stays comparable from one speed-up to the next.
    Setting("scopa a 15 2", Rules.scopa_15(players=2, target=None, kings_redeal=True, opening_pairs=False)),
    Setting("cirulla 2", Rules.cirulla(players=2, target=None, grande_piccola=False, ace_scopa=False)),
)
EVERY = 3  # one decision in this many becomes a position


def positions(deals: int, settings: tuple[Setting, ...] = SETTINGS) -> list[tuple[str, PlayerView]]:
    """The views of seeded deals between hard (even seats) and medium (odd seats), every ``EVERY``-th
    decision with more than one legal move, each named by its setting."""
    found: list[tuple[str, PlayerView]] = []
    for setting in settings:
        rules = setting.rules
        decision = 0
        for deal in range(deals):
            state, _ = new_deal(rules, 1000 + deal, deal % rules.players)
            players = [make_player("hard" if seat % 2 == 0 else "medium", seed=deal * 8 + seat)
                       for seat in range(rules.players)]
            while not state.is_deal_over:
                view = state.view(state.to_move)
                if view.claimable():  # Cirulla: claimed, as the tournament does
                    state, _ = state.claim()
                    continue
                if len(view.legal_moves()) > 1:
                    if decision % EVERY == 0:
                        found.append((setting.name, view))
                    decision += 1
                state, _ = state.apply(players[state.to_move].choose_move(view))
    return found


class Timing(NamedTuple):
    """One run over the positions: each one's answer, seconds and samples."""

    answers: list[str]
    seconds: list[float]
    samples: list[int]


def run(level: str, views: list[tuple[str, PlayerView]], iterations: int) -> Timing:
    """Each position's chosen move (with the expert, its score too), seconds and samples."""
    timing = Timing([], [], [])
    for index, (_, view) in enumerate(views):
        if level == "expert":
            expert = ExpertPlayer(index, iterations=iterations)
            start = time.perf_counter()
            move, score = expert.move_values(view)[0]
            timing.seconds.append(time.perf_counter() - start)
            timing.samples.append(expert.last_samples)
            timing.answers.append(f"{move} {score!r}")
        else:
            player = make_player(level, seed=index)
            start = time.perf_counter()
            timing.answers.append(str(player.choose_move(view)))
            timing.seconds.append(time.perf_counter() - start)
            timing.samples.append(0)
    return timing


def compare(path: Path, names: list[str], moves: list[str]) -> int:
    """How many positions differ from the moves saved at ``path`` (each one printed)."""
    saved = json.loads(path.read_text())
    differ = 0
    if len(saved) != len(moves):
        print(f"{path}: {len(saved)} positions saved, {len(moves)} now")
        return max(1, abs(len(saved) - len(moves)))
    for index, (name, before, now) in enumerate(zip(names, saved, moves, strict=True)):
        if before != now:
            differ += 1
            print(f"position {index} ({name}): {before} then, {now} now")
    return differ


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m scopa.bench expert", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--iterations", type=int, default=64, help="the expert's samples a move")
    parser.add_argument("--deals", type=int, default=3, help="deals played for positions, per setting")
    parser.add_argument("--repeat", type=int, default=3, help="runs timed; the fastest is printed")
    parser.add_argument("--level", choices=LEVELS, default="expert", help="the level asked at each position")
    parser.add_argument("--only", action="append", choices=[x.name for x in SETTINGS],
                        help="only this setting's positions (may be given again)")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--save", type=Path, help="write the moves chosen to this file")
    group.add_argument("--check", type=Path, help="compare the moves chosen with this file")
    args = parser.parse_args(argv)
    settings = tuple(x for x in SETTINGS if not args.only or x.name in args.only)
    views = positions(args.deals, settings)
    names = [name for name, _ in views]
    repeat = max(1, args.repeat)
    runs = [run(args.level, views, args.iterations) for _ in range(repeat)]
    moves = runs[-1].answers
    print(f"level: {args.level}" + (f", {args.iterations} samples a move" if args.level == "expert" else "")
          + f", best of {repeat} runs")
    best = samples = 0.0
    for setting in settings:  # each setting's fastest run
        where = [i for i, name in enumerate(names) if name == setting.name]
        seconds = min(sum(timing.seconds[i] for i in where) for timing in runs)
        count = sum(runs[0].samples[i] for i in where)
        best += seconds
        samples += count
        rate = f", {count / seconds:.0f} samples/s" if args.level == "expert" else ""
        print(f"{setting.name}: {len(where)} positions, {1000 * seconds / len(where):.2f} ms/move{rate}")
    digest = hashlib.sha256("\n".join(moves).encode()).hexdigest()[:16]
    print(f"moves digest: {digest}")
    print(f"all: {len(views)} positions, {best:.3f} s, {1000 * best / len(views):.2f} ms/move")
    if args.save:
        args.save.write_text(json.dumps(moves, indent=0) + "\n")
        print(f"saved: {args.save}")
    code = 0
    if args.check:
        differ = compare(args.check, names, moves)
        print(f"differ from {args.check}: {differ} of {len(views)}")
        code = 1 if differ else 0
    if args.level == "expert":
        print(f"samples/s: {samples / best:.0f}")
    return code


if __name__ == "__main__":
    import sys
    sys.exit(main(sys.argv[1:]))
