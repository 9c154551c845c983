"""Computer levels against each other: a duplicate tournament of single deals.

    python -m scopa.bench ai --a hard --b medium --deals 400 --seed 1 [--players 2|4]
                             [--budget 0.1] [--jobs 2] [--variant scopa]

Each deal is played twice from the same seed (so the same deck and the same dealer), first
with A in seats 0 (and 2 with four players) and B in the others, then with the seats swapped:
the luck of the cards cancels out. It prints points per deal for each level, A's share of all
points, deals won, matches won (consecutive deals of each seating summed into matches to 11),
each side's points per deal in each scoring category, a 95% confidence interval on A's point
share (ratio estimator over the duplicate pairs:
share ± 1.96 × sd of the pair residuals A − share × (A + B), over the mean pair total, / √n),
the median and 95th percentile thinking time per move of each level, and the scope each
level gave away a deal. The last line is ``A point share: 0.NNN [lo, hi]``.

A scopa *given away* by a level is a scopa made by a seat of the other side on the play right
after a play of that level's side (with two players, or four in partnerships, every play is
followed by an opponent's, so these are the opponents' scope; the last play of a deal makes no
scopa). It is counted against the side whose play left the table. Of those, *avoidable* ones
followed a play that left a table some value still unseen by that seat could clear, when
another of its legal moves left a table no unseen value could clear (read from that seat's view
only, before its play: ``left_open``). Both are printed per deal (per game of each seating).

``--a`` and ``--b`` take a level name or ``module:factory``, an outside player: the module is
imported (in each worker process too) and ``factory`` is called once per seat and game, with
``seed=`` and ``budget=`` when its signature takes them, and must return an object with
``choose_move(view)``. It gets the same ``PlayerView`` as our levels and meets the same deals.
"""
from __future__ import annotations

import argparse
import importlib
import inspect
import math
import multiprocessing
import statistics
import time
from collections.abc import Callable, Collection, Sequence
from typing import Any, NamedTuple

from scopa.engine import GameState, Move, PlayerView, Rules, Variant, new_deal
from scopa.engine.state import Play
from scopa.players import LEVELS, make_player
from scopa.players.heuristic import table_after
from scopa.players.knowledge import is_last_play, sweep_values, unseen_by_value

MATCH_TARGET = 11


class GameResult(NamedTuple):
    a_points: int
    b_points: int
    a_times: list[float]
    b_times: list[float]
    a_by_category: dict[str, int]  # A's points in each scoring category (cards, coins, scope, ...)
    b_by_category: dict[str, int]
    a_given: int = 0      # scope A's side gave away (``given_away``)
    b_given: int = 0
    a_avoidable: int = 0  # of those, after a play that left a table open when another move would not
    b_avoidable: int = 0


class PairResult(NamedTuple):
    deal: int
    first: GameResult   # A in the even seats (seat 0 with two players)
    second: GameResult  # seats swapped


def outside_factory(spec: str) -> Callable[..., Any]:
    """The factory named by ``module:factory`` (``ValueError`` with a short reason if it is not one)."""
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise ValueError(f"{spec!r} is neither a level ({', '.join(LEVELS)}) nor module:factory")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise ValueError(f"cannot import {module_name!r}: {error}") from None
    factory = getattr(module, attr, None)
    if not callable(factory):
        # ValueError, as every other bad spec: the caller says each in one line.
        raise ValueError(f"{module_name!r} has no callable {attr!r}")  # noqa: TRY004
    made: Callable[..., Any] = factory
    return made


def build_player(spec: str, seed: int, budget: float) -> Any:
    """A player for one seat: one of our levels, or an outside player from ``module:factory``."""
    if ":" not in spec:
        return make_player(spec, seed, budget=budget)
    factory = outside_factory(spec)
    accepted: Collection[str]
    try:
        accepted = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        accepted = ()
    offered = {"seed": seed, "budget": budget}
    player = factory(**{k: v for k, v in offered.items() if k in accepted})
    if not callable(getattr(player, "choose_move", None)):
        raise ValueError(f"{spec} returned {type(player).__name__}, which has no choose_move(view)")  # noqa: TRY004
    return player


def player_spec(text: str) -> str:
    """argparse type of --a and --b: a level name, or a ``module:factory`` that can be imported."""
    name = text.strip()
    if name.lower() in LEVELS:
        return name.lower()
    try:
        outside_factory(name)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return name


def bench_rules(players: int, variant: str, options: Sequence[str] = ()) -> Rules:
    """The rules of a benchmark game: one deal, no match target; ``options`` switched on (a_perdere...)."""
    return Rules.for_variant(variant, players=players, target=None, **dict.fromkeys(options, True))


def deal_seed(seed: int, deal: int) -> int:
    """The shuffle seed of duplicate deal number ``deal`` in a run with ``seed``."""
    return seed * 1_000_003 + deal


def left_open(view: PlayerView, move: Move) -> bool:
    """``move`` leaves a table that a value still unseen by this seat could clear, though another
    legal move would leave a table no unseen value can clear (from the seat's own view)."""
    if is_last_play(view) or (view.stock_count == 0 and sum(view.hand_counts) == 2):
        return False  # the next play is the deal's last: it makes no scopa
    unseen = unseen_by_value(view.unseen_cards())

    def open_after(m: Move) -> bool:
        return any(unseen[v] for v in sweep_values(table_after(m, view.table), view.rules))

    return open_after(move) and not all(open_after(m) for m in view.legal_moves())


def given_away(plays: Sequence[Play], rules: Rules) -> dict[int, list[int]]:
    """For each side, the indices in ``plays`` of the plays after which the other side swept at once
    (the scope that side gave away)."""
    given: dict[int, list[int]] = {side: [] for side in range(rules.sides)}
    for i in range(1, len(plays)):
        before, after = rules.side_of(plays[i - 1].seat), rules.side_of(plays[i].seat)
        if plays[i].scopa and after != before:
            given[before].append(i - 1)
    return given


def play_game(rules: Rules, deal_seed: int, dealer: int, a_level: str, b_level: str, a_first: bool,
              budget: float, player_seed: int,
              on_a_move: Callable[[GameState, Move], None] | None = None) -> GameResult:
    """One single deal; A sits in the even seats when ``a_first`` (seat 0 with two players), else odd.

    ``on_a_move(state, move)`` is told each move A makes, with the state it was made in.
    """
    state, _ = new_deal(rules, deal_seed, dealer)
    players = []
    a_seats = set()
    for seat in range(rules.players):
        is_a = (seat % 2 == 0) == a_first
        if is_a:
            a_seats.add(seat)
        players.append(build_player(a_level if is_a else b_level, player_seed * 8 + seat, budget))
    a_times: list[float] = []
    b_times: list[float] = []
    opened: set[int] = set()  # indices in the history of plays that left a table open (``left_open``)
    while not state.is_deal_over:
        seat = state.to_move
        view = state.view(seat)
        if view.claimable():  # Cirulla: every level claims its bonus, as at the table
            state, _ = state.claim()
            continue
        start = time.perf_counter()
        move = players[seat].choose_move(view)
        elapsed = time.perf_counter() - start
        (a_times if seat in a_seats else b_times).append(elapsed)
        if on_a_move is not None and seat in a_seats:
            on_a_move(state, move)
        if left_open(view, move):
            opened.add(len(state.history))
        state, _ = state.apply(move)
    score = state.deal_score
    assert score is not None
    a_side = rules.side_of(min(a_seats))
    given = given_away(state.history, rules)
    a_given = given[a_side]
    b_given = [i for side, found in given.items() if side != a_side for i in found]
    a_cats = {c.value: n for c, n in score.sides[a_side].points.items()}
    b_cats: dict[str, int] = {}
    for side in score.sides:
        if side.side != a_side:
            for c, n in side.points.items():
                b_cats[c.value] = b_cats.get(c.value, 0) + n
    return GameResult(sum(a_cats.values()), sum(b_cats.values()), a_times, b_times, a_cats, b_cats,
                      len(a_given), len(b_given), len(opened.intersection(a_given)), len(opened.intersection(b_given)))


def play_pair(task: tuple[Any, ...]) -> PairResult:
    """Both seatings of one deal (a top-level function so worker processes can import it)."""
    deal, seed, players, variant, a_level, b_level, budget, options = task
    rules = bench_rules(players, variant, options)
    shuffle = deal_seed(seed, deal)
    dealer = deal % players
    first = play_game(rules, shuffle, dealer, a_level, b_level, True, budget, shuffle)
    second = play_game(rules, shuffle, dealer, a_level, b_level, False, budget, shuffle)
    return PairResult(deal, first, second)


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))
    return ordered[index]


def share_interval(a: Sequence[float], b: Sequence[float]) -> tuple[float, float, float]:
    """A's point share over pairs and its 95% interval (ratio estimator, normal approximation)."""
    n = len(a)
    total_a, total = sum(a), sum(a) + sum(b)
    if total == 0:
        return 0.5, 0.0, 1.0
    share = total_a / total
    if n < 2:
        return share, 0.0, 1.0
    mean_total = total / n
    residuals = [(x - share * (x + y)) / mean_total for x, y in zip(a, b, strict=True)]
    half = 1.96 * statistics.stdev(residuals) / math.sqrt(n)
    return share, max(0.0, share - half), min(1.0, share + half)


def matches(games: Sequence[GameResult]) -> tuple[int, int]:
    """Consecutive deals summed into matches to 11 (the higher total wins once one side reaches it)."""
    a_wins = b_wins = 0
    a = b = 0
    for game in games:
        a += game.a_points
        b += game.b_points
        if max(a, b) >= MATCH_TARGET and a != b:
            if a > b:
                a_wins += 1
            else:
                b_wins += 1
            a = b = 0
    return a_wins, b_wins


def run(a_level: str, b_level: str, deals: int, seed: int, players: int, budget: float, jobs: int,
        variant: str = "scopa", options: Sequence[str] = ()) -> list[PairResult]:
    tasks = [(d, seed, players, variant, a_level, b_level, budget, tuple(options)) for d in range(deals)]
    if jobs <= 1:
        return [play_pair(t) for t in tasks]
    context = multiprocessing.get_context("spawn")
    with context.Pool(jobs) as pool:
        results = list(pool.imap_unordered(play_pair, tasks, chunksize=2))
    return sorted(results, key=lambda r: r.deal)


def report(a_level: str, b_level: str, results: list[PairResult], players: int, budget: float,
           seconds: float) -> list[str]:
    games_first = [r.first for r in results]
    games_second = [r.second for r in results]
    games = games_first + games_second
    n_games = len(games)
    a_total = sum(g.a_points for g in games)
    b_total = sum(g.b_points for g in games)
    pair_a = [r.first.a_points + r.second.a_points for r in results]
    pair_b = [r.first.b_points + r.second.b_points for r in results]
    share, lo, hi = share_interval(pair_a, pair_b)
    won = sum(g.a_points > g.b_points for g in games)
    lost = sum(g.a_points < g.b_points for g in games)
    m1 = matches(games_first)
    m2 = matches(games_second)
    a_times = [t for g in games for t in g.a_times]
    b_times = [t for g in games for t in g.b_times]
    def ms(seconds: float) -> str:
        return f"{seconds * 1000:.1f} ms"

    timed = [x for x in (a_level, b_level) if x == "expert" or ":" in x]
    budget_note = f", budget {budget:g} s ({', '.join(timed)})" if timed else ""
    return [
        (f"A = {a_level}, B = {b_level}: {len(results)} duplicate deals ({n_games} games), {players} players"
         f"{budget_note}, {seconds:.0f} s"),
        f"points per deal: A {a_total / n_games:.3f}, B {b_total / n_games:.3f}",
        f"deals won: A {won}, B {lost}, level {n_games - won - lost}",
        (f"matches to {MATCH_TARGET} (consecutive deals summed, each seating): A {m1[0] + m2[0]}, "
         f"B {m1[1] + m2[1]}"),
        (f"time per move, {a_level} (A): median {ms(statistics.median(a_times) if a_times else 0)}, "
         f"p95 {ms(percentile(a_times, 0.95))}, max {ms(max(a_times, default=0))}"),
        (f"time per move, {b_level} (B): median {ms(statistics.median(b_times) if b_times else 0)}, "
         f"p95 {ms(percentile(b_times, 0.95))}, max {ms(max(b_times, default=0))}"),
        by_category(games),
        given_line(games),
        f"A point share: {share:.3f} [{lo:.3f}, {hi:.3f}]",
    ]


def by_category(games: Sequence[GameResult]) -> str:
    """Points per deal in each scoring category, A then B: where one level gains on the other."""
    names: list[str] = []
    for game in games:
        names.extend(c for c in (*game.a_by_category, *game.b_by_category) if c not in names)
    n = max(1, len(games))
    parts = [f"{c} A {sum(g.a_by_category.get(c, 0) for g in games) / n:.3f} "
             f"B {sum(g.b_by_category.get(c, 0) for g in games) / n:.3f}" for c in names]
    return "points per deal by category: " + ", ".join(parts)


def given_line(games: Sequence[GameResult]) -> str:
    """Scope given away per deal by each level, and how many of them were avoidable (``left_open``)."""
    n = max(1, len(games))
    return (f"scope given away per deal: A {sum(g.a_given for g in games) / n:.3f} "
            f"(avoidable {sum(g.a_avoidable for g in games) / n:.3f}), "
            f"B {sum(g.b_given for g in games) / n:.3f} (avoidable {sum(g.b_avoidable for g in games) / n:.3f})")


def check_game_args(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """The checks every benchmark that plays duplicate deals makes on its --deals, --variant and --budget."""
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    if args.variant.startswith("scopone") and args.players != 4:
        parser.error("scopone is a four-player game: add --players 4")
    if args.budget <= 0:
        parser.error("--budget must be more than zero seconds")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m scopa.bench ai", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--a", required=True, type=player_spec, metavar="LEVEL|module:factory",
                        help=f"player A: a level ({', '.join(LEVELS)}) or an outside player's factory")
    parser.add_argument("--b", required=True, type=player_spec, metavar="LEVEL|module:factory",
                        help="player B, the same way")
    parser.add_argument("--deals", type=int, default=100, help="duplicate deals (each is played twice)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, choices=(2, 4), default=2)
    parser.add_argument("--variant", choices=[v.value for v in Variant], default="scopa",
                        help="scopone variants need --players 4")
    parser.add_argument("--budget", type=float, default=1.0,
                        help="seconds per move for the expert (and outside players that take budget=)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--options", default="", help="rule options on, by commas: a_perdere (fewer points "
                        "win: A's share should then be below 0.5), napola, re_bello")
    args = parser.parse_args(argv)
    check_game_args(parser, args)
    options = tuple(o.strip() for o in args.options.split(",") if o.strip())
    try:
        bench_rules(args.players, args.variant, options)
    except (TypeError, ValueError) as error:
        parser.error(f"--options: {error}")
    start = time.perf_counter()
    results = run(args.a, args.b, args.deals, args.seed, args.players, args.budget, max(1, args.jobs),
                  args.variant, options)
    for line in report(args.a, args.b, results, args.players, args.budget, time.perf_counter() - start):
        print(line)
    return 0


if __name__ == "__main__":
    import sys
    sys.exit(main(sys.argv[1:]))
