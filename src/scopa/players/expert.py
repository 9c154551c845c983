"""The expert level: determinised search over deals consistent with what its seat has seen.

For each sample it deals the unseen cards (``view.unseen_cards()``) into the other hands and the
stock, in the sizes the view shows, and weighs the sample by how likely the other seats' plays
of this round were in it, if they chose as the hard level scores moves, softened
(``scopa.players.inference``; importance weights with rejection control, tempered when few
samples carry the weight). With ``infer=False`` it draws the deals leaning on the throws instead
(a seat that threw a card this round while some value would have swept or taken the settebello
probably holds no card of that value). It builds a full ``GameState`` for that deal and searches
it with the engine's own ``legal_moves`` and ``apply``: its side maximising, at least its move
and the next seat's reply and deeper while the tree stays small (growing with the time budget;
to the end of the deal once every hidden card's place is known, and with four players from the
last ``ENDGAME_CARDS`` cards in hand). At another side's turn the value is ``MODEL`` times that
of the reply the hard level would make there, reading that seat's own view of the sampled deal,
plus the rest times the worst reply's: plain minimax would credit the other seat with this
side's cards, which lie face up in the sampled deal but not at the table. In scopone (hands of
ten cards) a scopa inside the tree counts ``SCOPONE_TEMPO`` more than its point, only the other
seats' last lap of plays is read (``READ_PLAYS``), and only the modelled reply is searched at
another side's turn (``SCOPONE_MODEL``), which leaves time to search a play deeper
(``SCOPONE_LEAF_BUDGET``): its move, the next seat's reply and its partner's play, so a table
its partner cannot close is seen. With two players each sample is expanded four plays deep (its
move, the reply, its own next play, the next reply) into a public tree
(``scopa.players.infoset``), and the samples' trees are read together: its own next play is
chosen once for all the samples that reached it by the same plays, as it will be at the table,
where it cannot see which sample is the real deal; searched on its own, each sample would let it
plan that play knowing the other hand. Material is followed along the way with the root's worth
tables; a leaf adds most of the best capture waiting for the seat to move; a finished deal is
scored exactly. Each of its moves collects its value over the same samples; every 16 samples
(with the public trees, at 16, 32, 48, 72, ... samples, since reading them costs more as they
grow, and that reading is timed into the budget), moves clearly worse than the best (paired
difference over 2.5 standard errors) are dropped, so the time goes to the close calls. The move
played has the best mean plus a share of the hard level's score (``PRIOR``): that score weighs
every hand the other seats may hold, which one sampled deal searched with all cards face up
cannot.

Under scopa a perdere (the fewest points win) the same search plays with every value turned
round: its side maximises the others' points minus its own, the other seats are modelled as the
hard level plays there (its reading turned round), and so is the prior (``_Searcher``).

It stops sampling when its time budget is spent (the clock is read between samples), or after
exactly ``iterations`` samples when that is set, which makes it deterministic for a seed.
"""
from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable
from typing import Any

from scopa.engine import Card, GameState, Move, Phase, PlayerView, Rules, legal_captures, moves_for_hand
from scopa.engine.captures import is_sweep_capture

from .evaluate import WorthMemo, material, worth_tables
from .heuristic import CaptureSums, HardAnalyser, check_view
from .inference import PlayModel
from .infoset import Tree, public_tree, set_values
from .knowledge import inference_weights, side_of, throw_cost

_INF = float("inf")
_NO_CARDS: frozenset[Card] = frozenset()  # ``_NO_CARDS.union(*piles)``: the cards in the piles, as a set


def sample_world(view: PlayerView, rng: random.Random,
                 weights: dict[int, dict[Card, float]] | None = None) -> GameState:
    """A full state consistent with ``view``: unseen cards dealt to the other hands and the stock.

    Only the view goes in; the hidden cards are drawn from ``view.unseen_cards()`` with ``rng``,
    each other seat taking cards with the chances ``weights`` give (default: all alike).
    """
    pool = sorted(view.unseen_cards())
    rng.shuffle(pool)
    hands: list[tuple[Card, ...]] = [()] * view.rules.players
    hands[view.seat] = tuple(view.hand)
    weights = weights or {}
    # Seats with information first: they pick among the cards they most probably hold.
    others = [s for s in range(view.rules.players) if s != view.seat]
    others.sort(key=lambda s: (s not in weights, s))
    for seat in others:
        shown = view.shown_hand(seat) or ()  # Cirulla: a hand shown to claim a bonus is known
        need = view.hand_counts[seat] - len(shown)
        seat_weights = weights.get(seat)
        if shown:
            hands[seat] = tuple(shown)
        if not need:
            continue
        if not seat_weights:
            hand, pool = pool[:need], pool[need:]
        else:
            hand = []
            for _ in range(need):
                w = [seat_weights.get(c, 1.0) for c in pool]
                pick = rng.random() * sum(w)
                i = 0
                acc = w[0]
                while acc < pick and i < len(pool) - 1:
                    i += 1
                    acc += w[i]
                hand.append(pool.pop(i))
        hands[seat] = tuple(sorted((*shown, *hand)))
    stock = tuple(pool[:view.stock_count])
    return GameState(rules=view.rules, seed=0, deal_number=view.deal_number, dealer=view.dealer,
                     to_move=view.to_move, round=view.round, hands=tuple(hands), table=tuple(view.table),
                     stock=stock, piles=tuple(view.piles), scope=tuple(view.scope),
                     last_capturer=view.last_capturer, history=tuple(view.history),
                     match_scores=tuple(view.match_scores), deal_totals=tuple(view.deal_totals),
                     phase=Phase.PLAYING, winner=None, redeals=0, claims=tuple(view.claims))


def _only_one_world(view: PlayerView) -> bool:
    """True when every hidden card's place is known: the stock is empty and one other hand holds them."""
    if view.stock_count:
        return False
    return sum(1 for s, n in enumerate(view.hand_counts) if s != view.seat and n) <= 1


def search_depth(view: PlayerView, leaf_budget: float) -> int:
    """How many plays to look ahead, counting this seat's own move.

    At least this move and the next seat's reply; then further while the tree below each of
    this seat's moves stays within about ``leaf_budget`` leaves, and never past the deal's end.
    """
    players, size = view.rules.players, view.rules.hand_size
    counts = list(view.hand_counts)
    stock = view.stock_count
    seat = view.to_move
    leaves = 1.0
    depth = 0
    while True:
        if not any(counts):
            if not stock:
                return depth  # the deal ends here
            counts = [size] * players
            stock -= size * players
        branch = max(1, counts[seat])
        if depth >= 2 and leaves * branch > leaf_budget:
            return depth
        if depth > 0:
            leaves *= branch
        counts[seat] -= 1
        seat = (seat - 1) % players
        depth += 1


DEFAULT_BUDGET = 0.1  # seconds a move: measured as strong as 1 s (0.502 and 0.515 of the points, docs/opponents.md)


class ExpertPlayer:
    """Determinised search within a time budget per move (or a fixed number of samples)."""

    level = "expert"
    KEEP = 0.2            # cost of throwing a high card while others are still in hand (as the hard level)
    TEMPO = 0.0           # worth of a scopa inside the tree beyond its point (the next seat must throw)
    SCOPONE_TEMPO = 1.0   # the same with hands of more than three cards (scopone), where the throw is often matched
    QUIET = 0.8           # share of the waiting capture counted at a leaf
    LEAF_BUDGET = 6.0     # rough tree size below each move, per sample, at a tenth of a second
    SCOPONE_LEAF_BUDGET = 100.0  # the same with hands of more than three cards: the partner's play too
    BASE_BUDGET = 0.1     # the time budget LEAF_BUDGET is for
    GROWTH = 0.0          # the tree grows as (budget / BASE_BUDGET) ** GROWTH: 0, more time buys samples
    SOLVE_BUDGET = 2000.0  # when every hidden card's place is known
    ENDGAME_CARDS = 8     # four players: each sample searched to the deal's end from this many cards in hand
    PRIOR = 0.3           # weight of the hard level's own score of each move (it averages over hands)
    MODEL = 0.5           # weight, at another side's turn in the tree, of the reply the hard level would make
    SCOPONE_MODEL = 1.0   # the same with hands of more than three cards: only that reply is searched
    PARTNER_MODEL = 0.0   # the same at the partner's turn (blended with its best play there)
    PRUNE_EVERY = 16      # samples between checks for moves clearly worse than the best
    PRUNE_Z = 2.5         # how clearly: standard errors of the paired difference
    THREW_PAST_SWEEP = 0.15  # sampling weight of a value a seat would have swept with, yet threw
    THREW_PAST_TAKE = 0.6    # the same for a value that would only have taken something
    INFER = True          # weigh each sampled deal by how likely the other seats' plays were in it
    TEMPERATURE = 0.05    # softmax temperature (points) of the model of their choices: hard's scores
    FLOOR = 0.1           # share of that model spread over every legal move: no deal is impossible
    READ_PLAYS: int | None = 3  # with hands of more than three cards (scopone), the most recent plays read
    MIN_ESS = 10.0        # fewest effective samples: flatter weights (tempered) below that
    REJECT = 0.02         # a deal far less likely than the best so far is searched only this often
    INFORMATION_SETS = True  # two players: its own later plays chosen once for all alike samples
    SET_DEPTH = 4         # plays looked at then: its move, the reply, its next play, the next reply

    def __init__(self, seed: int = 0, budget: float = DEFAULT_BUDGET, iterations: int | None = None,
                 infer: bool | None = None, information_sets: bool | None = None) -> None:
        if iterations is not None and iterations < 1:
            raise ValueError("iterations must be at least 1.")
        if budget <= 0:
            raise ValueError("The time budget must be more than zero seconds.")
        self.seed = seed
        self.budget = budget
        self.iterations = iterations
        self.infer = self.INFER if infer is None else infer
        self.information_sets = self.INFORMATION_SETS if information_sets is None else information_sets
        self._rng = random.Random(seed)
        self.last_samples = 0
        self.last_ess = 0.0
        self._worth = WorthMemo()  # the positions of a round recur from one move to the next

    def leaf_budget(self, view: PlayerView, single: bool) -> float:
        """About how many leaves each sample's tree may have below each move.

        With every card placed there is one deal to search: (nearly) to the end. Otherwise the
        tree grows as (budget / 0.1 s) ** ``GROWTH``, and once the stock is empty by as much
        again (the last round has few plays left). With ``GROWTH`` 0.5 that is 6 leaves at
        0.1 s, 19 at 1 s and 60 in the last round at 1 s; but at 1 s that tree took 0.453 of the
        points against the expert at 0.1 s where the 0.1 s tree took 0.514 on the same deals, so
        ``GROWTH`` is 0 and more time buys more samples. A fixed ``iterations`` keeps 6. In
        scopone (hands of more than three cards) the base is ``SCOPONE_LEAF_BUDGET``, 100: with ten
        cards a hand that is its move, the next seat's reply and its partner's play (counted as if
        every reply were searched; there only the modelled one is, ``SCOPONE_MODEL``), and deeper
        as the hands empty.
        """
        if single:
            return self.SOLVE_BUDGET
        leaves = self.SCOPONE_LEAF_BUDGET if view.rules.hand_size > 3 else self.LEAF_BUDGET
        if self.iterations is not None:
            return leaves
        scale: float = min(10.0, max(1.0, self.budget / self.BASE_BUDGET) ** self.GROWTH)
        budget = leaves * scale
        return budget * scale if not view.stock_count else budget

    def choose_move(self, view: PlayerView) -> Move:
        check_view(view)
        return self.move_values(view)[0][0]

    def move_values(self, view: PlayerView) -> list[tuple[Move, float]]:
        """Every legal move with the score the expert gives it (about points for its side; a perdere,
        the others' points less its own); the expert's choice first, then the other moves still in
        the running, then those it dropped.

        The score is the mean over the sampled deals plus ``PRIOR`` times the hard level's own
        score; a move dropped early keeps the mean of the samples it was searched over. Ties keep
        the hard level's preference. With ``iterations`` set the same view gets the same values."""
        check_view(view)
        start = time.perf_counter()
        moves = view.legal_moves()
        if not moves:
            raise ValueError("It is not this seat's turn: there is no move to choose.")
        if len(moves) == 1:
            self.last_samples = 0
            return [(moves[0], 0.0)]
        rules = view.rules
        side = side_of(rules, view.seat)
        every_worth = self._worth.every_side(view.piles, view.scope, rules)
        worth = every_worth[side]
        prior = HardAnalyser(view, worth).totals(moves)
        if rules.a_perdere:  # the fewest points win: the hard level plays its reading turned round
            prior = [-x for x in prior]
        # Scopone deals ten cards a hand at once: reading every play of that round for every sampled
        # deal left time for one or two deals a move at 0.1 s. Only the last lap is read there.
        last = self.READ_PLAYS if rules.hand_size > 3 else None
        model = PlayModel(view, self.TEMPERATURE, self.FLOOR, self._worth.every_side, last) if self.infer else None
        # With the model, deals are drawn alike and weighed by the likelihood of the plays seen;
        # without it (or with nothing to read yet), drawn leaning on the throws (the old reading).
        # A perdere a seat throws rather than sweeps anyway: its throws then say nothing.
        weights = (None if model or rules.a_perdere
                   else inference_weights(view, self.THREW_PAST_SWEEP, self.THREW_PAST_TAKE))
        single = _only_one_world(view)
        depth = search_depth(view, self.leaf_budget(view, single))
        left = sum(view.hand_counts)
        if rules.players == 4 and not view.stock_count and left <= self.ENDGAME_CARDS:
            depth = left  # the last plays of the deal: each sample to its end, scored exactly
        base = material(view.piles, view.scope, rules, side)
        tempo = self.TEMPO + (self.SCOPONE_TEMPO if rules.hand_size > 3 else 0.0)
        searcher = _Searcher(side, rules, worth, self.QUIET, base, 1.0 + tempo, self.KEEP,
                             model=self.SCOPONE_MODEL if rules.hand_size > 3 else self.MODEL,
                             piles=view.piles, scope=view.scope,
                             partner_model=self.PARTNER_MODEL, seat=view.seat, perdere=rules.a_perdere,
                             every_worth=every_worth)
        # Two players: the samples' public trees, read together (``infoset``), so its own next
        # play is chosen knowing only what it will have seen. Otherwise each sample on its own.
        sets = self.information_sets and rules.players == 2 and not single
        if sets:
            depth = max(depth, self.SET_DEPTH)
        trees: list[list[Tree]] = [[] for _ in moves]
        values: list[list[float]] = [[] for _ in moves]
        next_prune = self.PRUNE_EVERY
        reading = 0.0  # seconds the last reading of the trees took, per sample
        log_weights: list[float] = []
        active = list(range(len(moves)))
        samples = draws = 0
        best_log = -_INF
        reject = math.log(self.REJECT)
        while True:
            world = sample_world(view, self._rng, weights)
            draws += 1
            log_w = 0.0
            if model and not single:
                log_w = model.log_likelihood(world.hands)
                best_log = max(best_log, log_w)
                # Rejection control: an unlikely deal is searched with chance w / c, then counts c.
                cut = best_log + reject
                if log_w < cut:
                    if self._rng.random() >= math.exp(log_w - cut) and draws < 50 * (samples + 1):
                        if (self.iterations is None and samples
                                and time.perf_counter() - start > self.budget * 0.98):
                            break
                        continue
                    log_w = cut
            for i in active:
                if sets:
                    trees[i].append(searcher.root_tree(world, moves[i], depth - 1, view.round))
                else:
                    values[i].append(searcher.root_value(world, moves[i], depth - 1))
            log_weights.append(log_w)
            samples += 1
            if single:
                break
            if self.iterations is not None:
                if samples >= self.iterations:
                    break
            else:
                elapsed = time.perf_counter() - start
                # Time for one more sample and the last reading of the trees; when the trees are
                # due to be read for pruning now, for that reading as well.
                reads = 2 if sets and samples == next_prune else 1
                if elapsed + elapsed / samples + reads * reading * samples > self.budget:
                    break
            if samples == next_prune:
                w = sample_weights(log_weights, self.MIN_ESS)
                if sets:  # read the trees (timed: the last reading must fit in the budget too)
                    began = time.perf_counter()
                    _read_trees(trees, values, active, w)
                    reading = (time.perf_counter() - began) / samples
                    # Reading the trees costs more as they grow: read them less often.
                    next_prune = max(next_prune + self.PRUNE_EVERY, next_prune * 3 // 2)
                else:
                    next_prune += self.PRUNE_EVERY
                if len(active) > 2:
                    active = _prune(active, values, w, self.PRUNE_Z)
        self.last_samples = samples
        w = sample_weights(log_weights, self.MIN_ESS)
        self.last_ess = effective_size(w)
        if sets:
            _read_trees(trees, values, active, w)
        # The moves still searched share every sample; dropped moves are out of the running.
        score = {i: round(_mean(values[i], w) + self.PRIOR * prior[i], 9) for i in range(len(moves))}
        running = set(active)
        order = sorted(range(len(moves)), key=lambda i: (i in running, score[i], prior[i]), reverse=True)
        return [(moves[i], score[i]) for i in order]


def _read_trees(trees: list[list[Tree]], values: list[list[float]], active: list[int], weights: list[float]) -> None:
    """Each move still in the running: its value in every sample so far, from the samples' trees
    read together (a dropped move keeps the values it had when it was dropped)."""
    for i in active:
        values[i] = set_values(trees[i], weights[:len(trees[i])])


def effective_size(weights: list[float]) -> float:
    """Kish's effective sample size of importance weights."""
    total = sum(weights)
    return total * total / sum(x * x for x in weights) if total > 0 else 0.0


def sample_weights(log_weights: list[float], min_ess: float) -> list[float]:
    """Weights from log likelihoods, flattened (tempered) when too few samples carry them.

    The likelihoods are raised to the largest power of a half (1, 1/2, 1/4, ..., 0) that leaves
    at least ``min_ess`` effective samples (or all of them, when there are fewer).
    """
    if not log_weights:
        return []
    top = max(log_weights)
    need = min(min_ess, 0.999 * len(log_weights))
    power = 1.0
    while True:
        w = [math.exp(power * (x - top)) for x in log_weights]
        if power < 1e-3 or effective_size(w) >= need:
            return w if power >= 1e-3 else [1.0] * len(log_weights)
        power /= 2.0


def _mean(values: list[float], weights: list[float]) -> float:
    """Weighted mean of a move's values (a dropped move has values for the first samples only)."""
    w = weights[:len(values)]
    return sum(a * b for a, b in zip(values, w, strict=True)) / sum(w)


def _prune(active: list[int], values: list[list[float]], weights: list[float], z: float) -> list[int]:
    """Drop moves clearly worse than the best so far (paired over the same weighted samples)."""
    n = len(values[active[0]])
    w = weights[:n]
    total = sum(w)
    ess = effective_size(w)
    means = {i: _mean(values[i], w) for i in active}
    best = max(active, key=means.__getitem__)
    keep = []
    for i in active:
        if i == best:
            keep.append(i)
            continue
        mean = means[best] - means[i]
        var = sum(x * (a - b - mean) ** 2 for x, a, b in zip(w, values[best], values[i], strict=True)) / total
        var *= ess / max(1.0, ess - 1.0)
        if mean <= z * (var / ess) ** 0.5 + 0.01:
            keep.append(i)
    if len(keep) < 2:  # always keep a runner-up to compare with
        rest = sorted((i for i in active if i not in keep), key=means.__getitem__, reverse=True)
        keep.extend(rest[:2 - len(keep)])
    return sorted(keep)


class _Searcher:
    """Search of one sampled deal: ``side`` maximises (alpha-beta); at every other side's turn
    the value blends the reply the hard level would make with the worst one (``model``; 0 is
    plain minimax).

    Between the root and the leaves, material is followed linearly: each capture adds the
    worth of its cards for the capturing side (from the root's worth tables) and each scopa a
    point. A finished deal is scored exactly from its piles.

    With ``perdere`` (scopa a perdere: the fewest points win) every value is turned round: the
    worth tables, the scopa's point, the high-card cost, the material at the root and at the end
    are counted negated, so ``side`` still maximises, now the others' points minus its own; the
    hard level's reply is its reading turned round, as it plays; and at a leaf a seat may be
    forced to take (``_waiting``).
    """

    def __init__(self, side: int, rules: Rules, worth: list[list[float]], quiet: float, base: float,
                 scopa: float = 1.0, keep: float = 0.0, *, model: float = 0.0,
                 piles: tuple[tuple[Card, ...], ...] = (), scope: tuple[int, ...] = (),
                 partner_model: float = 0.0, seat: int | None = None, perdere: bool = False,
                 every_worth: list[list[list[float]]] | None = None) -> None:
        sign = -1.0 if perdere else 1.0
        self.perdere = perdere
        self.sign = sign  # the value of a point for ``side``: -1 a perdere
        self.side = side
        self.seat = side if seat is None else seat  # the root's seat (its partner shares the side)
        self.partner_model = partner_model  # the same as ``model``, at the partner's turns
        self.model = model  # weight of the modelled reply against the worst reply, at other sides' turns
        self.piles, self.scope = piles, scope  # the root's, for the other sides' worth tables
        # Each side's worth tables as read by the hard level (``every_worth``: all of them, at once).
        self.side_worth: dict[int, list[list[float]]] = dict(enumerate(every_worth)) if every_worth else {side: worth}
        self.side_sums: dict[int, CaptureSums] = {}  # the same, with the capture sums read from them
        self.keep = sign * keep  # a thrown card's value (out of 10) times this: the sums it could have taken
        self.scopa = sign * scopa  # a scopa's point, plus the tempo of leaving the next seat an empty table
        self.rules = rules
        self.worth = [[-x for x in row] for row in worth] if perdere else worth
        self.quiet = quiet
        self.base = sign * base
        self.four = rules.players == 4
        self.cache: dict[Any, Any] = {}
        self.replies: dict[Any, dict[Move, float]] = {}  # the hard level's scores: ``predicted_reply``

    def material(self, state: GameState) -> float:
        key = (state.piles, state.scope)
        found = self.cache.get(key)
        if found is None:
            found = self.cache[key] = self.sign * material(state.piles, state.scope, self.rules, self.side)
        return found

    def root_value(self, state: GameState, move: Move, depth: int) -> float:
        child, acc = self.after(state, move, self.base)
        return self.value(child, depth, acc)

    def root_tree(self, state: GameState, move: Move, depth: int, root_round: int) -> Tree:
        """``root_value``'s public tree (``infoset``): every move kept, to be read with the other samples'."""
        child, acc = self.after(state, move, self.base)
        return public_tree(self, child, depth, acc, root_round)

    def after(self, state: GameState, move: Move, acc: float) -> tuple[GameState, float]:
        """The state after ``move``, and the material then: ``acc`` plus what the move changes."""
        mover = state.to_move
        kept = len(state.hands[mover]) > 1  # read before the move: see ``_delta``
        child = state.apply_legal(move)[0]  # one of its own legal moves: no need to check it
        return child, acc + self._delta(mover, move, child, kept)

    def _delta(self, mover: int, move: Move, child: GameState, kept_cards: bool) -> float:
        """What ``move`` changes in material; ``kept_cards``: the mover still holds cards after it
        (read before the move: at a round's last card ``child`` already holds the next round)."""
        mover_side = mover % 2 if self.four else mover
        if not move.capture:
            return self._throw(mover_side, move.card) if kept_cards else 0.0
        row = self.worth[mover_side]
        d = row[move.card] + sum([row[c] for c in move.capture])
        if child.history and child.history[-1].scopa:
            d += self.scopa if mover_side == self.side else -self.scopa
        return d

    def _throw(self, mover_side: int, card: Card) -> float:
        """The high-card cost of a throw, for this side: a cost when it throws, a gain when others do."""
        cost = throw_cost(card, self.keep)
        return -cost if mover_side == self.side else cost

    def value(self, state: GameState, depth: int, acc: float, alpha: float = -_INF, beta: float = _INF) -> float:
        if state.phase is not Phase.PLAYING:
            return self.material(state)
        if depth <= 0:
            return self.leaf(state, acc)
        mover = state.to_move
        moves = moves_for_hand(state.hands[mover], state.table, self.rules)  # legal_moves() without its memo
        mover_side = mover % 2 if self.four else mover
        row = self.worth[mover_side]
        if len(moves) > 1:
            moves.sort(key=lambda m: -abs(row[m.card] + sum(row[c] for c in m.capture)) if m.capture else 0.0)
        maximise = mover_side == self.side
        if len(moves) > 1:
            if not maximise and self.model > 0.0:
                return self.modelled(state, moves, depth, acc, self.model, min)
            if maximise and self.partner_model > 0.0 and mover != self.seat:
                return self.modelled(state, moves, depth, acc, self.partner_model, max)
        best = -_INF if maximise else _INF
        # Leaves one play ahead are scored without building the next state (unless the round ends).
        quick = depth == 1 and sum([len(h) for h in state.hands]) > 1
        for move in moves:
            if quick:
                v = self.quick_leaf(state, move, acc)
            else:
                child, after = self.after(state, move, acc)
                v = self.value(child, depth - 1, after, alpha, beta)
            if maximise:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            elif v < best:
                best = v
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        break
        return best

    def predicted_reply(self, state: GameState, moves: list[Move]) -> int:
        """Which of ``moves`` the hard level would play from the seat to move, reading its own view.

        The hard level's score of a move reads the seat's hand, the cards on the table and in the
        piles (as sets: it counts what is unseen), how many cards each hand and the stock hold,
        and the worth tables, which are the root's here. Different orders of the same plays (and
        samples alike there) meet the same reading, so the scores are kept by what it reads
        (``replies``); the pick is made from ``moves`` in their order, as the ties fall."""
        mover = state.to_move
        hands = state.hands
        key = (mover, state.round, hands[mover], tuple(sorted(state.table)),
               _NO_CARDS.union(*state.piles), tuple(map(len, hands)), len(state.stock))
        scores = self.replies.get(key)
        if scores is None:
            totals = HardAnalyser(state.view(mover), sums=self._sums(self.rules.side_of(mover))).totals(moves)
            scores = self.replies[key] = {move: round(total, 9) for move, total in zip(moves, totals, strict=True)}
        ranked = [scores[move] for move in moves]
        if self.perdere:  # the hard level plays its reading turned round (heuristic._ScoringPlayer)
            return min(range(len(moves)), key=ranked.__getitem__)
        return max(range(len(moves)), key=ranked.__getitem__)

    def _sums(self, side: int) -> CaptureSums:
        """``side``'s worth tables as the hard level reads them there, with their capture sums."""
        sums = self.side_sums.get(side)
        if sums is None:
            worth = self.side_worth.get(side)
            if worth is None:
                worth = self.side_worth[side] = worth_tables(self.piles, self.scope, self.rules, side)
            sums = self.side_sums[side] = CaptureSums(worth, self.rules)
        return sums

    def modelled(self, state: GameState, moves: list[Move], depth: int, acc: float, weight: float,
                 extreme: Callable[[Iterable[float]], float] = min) -> float:
        """Another side's turn: the reply the hard level would make there, blended with the worst reply
        (``extreme`` is ``min``); at the partner's turn, with the best (``max``).

        Searching every reply as the worst for this side credits the other seat with this side's
        cards, face up in the sampled deal; the hard level's reply reads only its own view. The
        partner, likewise, cannot see this seat's hand: counting on its best play there would
        count on help it cannot know to give.
        """
        pick = self.predicted_reply(state, moves)
        chosen = range(len(moves)) if weight < 1.0 else (pick,)
        quick = depth == 1 and sum([len(h) for h in state.hands]) > 1
        values: dict[int, float] = {}
        for i in chosen:
            move = moves[i]
            if quick:
                values[i] = self.quick_leaf(state, move, acc)
            else:
                child, after = self.after(state, move, acc)
                values[i] = self.value(child, depth - 1, after)
        return weight * values[pick] + (1.0 - weight) * extreme(values.values())

    def quick_leaf(self, state: GameState, move: Move, acc: float) -> float:
        """``leaf`` of the state after ``move``, worked out without applying it (mid-round only)."""
        rules = self.rules
        mover = state.to_move
        mover_side = mover % 2 if self.four else mover
        table = state.table
        if move.capture:
            row = self.worth[mover_side]
            taken = move.capture
            acc += row[move.card] + sum([row[c] for c in taken])
            table = tuple([c for c in table if c not in taken])
            if not table and is_sweep_capture(move.card, taken, rules):
                acc += self.scopa if mover_side == self.side else -self.scopa
        else:
            table = (*table, move.card)
            if len(state.hands[mover]) > 1:
                acc += self._throw(mover_side, move.card)
        nxt = (mover - 1) % rules.players
        nxt_side = nxt % 2 if self.four else nxt
        row = self.worth[nxt_side]
        mine = nxt_side == self.side
        last = not state.stock and sum([len(h) for h in state.hands]) == 2
        if self.perdere:
            options = [(card, legal_captures(card, table, rules)) for card in state.hands[nxt]]
            return acc + self.quiet * self._waiting(options, row, mine, len(table), last)
        best = 0.0
        for card in state.hands[nxt]:
            for cap in legal_captures(card, table, rules):
                v = row[card] + sum([row[c] for c in cap])
                if not last and len(cap) == len(table) and is_sweep_capture(card, cap, rules):
                    v += self.scopa if mine else -self.scopa
                if (mine and v > best) or (not mine and v < best):
                    best = v
        return acc + self.quiet * best

    def leaf(self, state: GameState, acc: float) -> float:
        """Material now, plus most of the best capture the seat to move can make at once."""
        base = acc
        mover = state.to_move
        mover_side = mover % 2 if self.four else mover
        row = self.worth[mover_side]
        table = state.table
        last = not state.stock and sum(len(h) for h in state.hands) == 1
        best = 0.0
        mine = mover_side == self.side
        if self.perdere:
            options = [(card, legal_captures(card, table, self.rules)) for card in state.hands[mover]]
            return base + self.quiet * self._waiting(options, row, mine, len(table), last)
        for move in moves_for_hand(state.hands[mover], state.table, self.rules):
            if not move.capture:
                continue
            v = row[move.card] + sum([row[c] for c in move.capture])
            if not last and len(move.capture) == len(table) and is_sweep_capture(move.card, move.capture, self.rules):
                v += self.scopa if mine else -self.scopa
            if (mine and v > best) or (not mine and v < best):
                best = v
        return base + self.quiet * best

    def _waiting(self, options: list[tuple[Card, list[tuple[Card, ...]]]], row: list[float], mine: bool,
                 table_size: int, last: bool) -> float:
        """A perdere, the capture the seat to move would make at once: at best none (it throws a
        card that takes nothing, worth 0), but a card that can take must take, so a hand whose
        every card takes is forced to the least bad capture. ``options``: each card in the hand
        with what it can take; ``row``: that seat's worth table (turned round); ``mine``: the
        seat is on this side, which maximises (the others minimise)."""
        best: float | None = None
        for card, caps in options:
            values = [0.0] if not caps else [self._take(card, cap, row, mine, table_size, last) for cap in caps]
            v = max(values) if mine else min(values)
            if best is None or (v > best if mine else v < best):
                best = v
        return best or 0.0

    def _take(self, card: Card, cap: tuple[Card, ...], row: list[float], mine: bool, table_size: int,
              last: bool) -> float:
        """The value of taking ``cap`` with ``card`` for this side: its cards, and a scopa's point."""
        v = row[card] + sum([row[c] for c in cap])
        if not last and len(cap) == table_size and is_sweep_capture(card, cap, self.rules):
            v += self.scopa if mine else -self.scopa
        return v
