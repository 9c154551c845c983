"""The expert's own later plays, chosen once for all the sampled deals that look alike to it.

Searching each sampled deal on its own lets the expert plan its next play knowing the other
hand of that deal: in every sample it finds the throw that happens to be safe there, so a line
that leaves it a hard choice later looks better than it is (strategy fusion). At a real table
it chooses that play knowing only what it has seen: its own hand, the table and the plays. All
of that is public but the hand, and within a round the hand is the same in every sample.

So each sampled deal is expanded into a *public tree*: at each node the moves, keyed by the
move itself (a card and what it takes, both seen by everyone). The trees of all samples are
then read together (``set_values``): at the expert's own turn one move is chosen for every
sample that reached that node, the one with the best weighted mean over them, and each sample
gets that move's value; at another seat's turn each sample blends, as the expert's tree always
has, the reply the hard level would make in that sample with the worst one, each reply's value
read from the samples that share it. A node of the expert's own turn after a new round was
dealt holds a different hand in each sample; there the tree stops and the leaf scores it.
"""
from __future__ import annotations

from typing import Any, Protocol, cast

from scopa.engine import GameState, Move, Phase, moves_for_hand

OURS, OTHER = 0, 1
Node = tuple[Any, ...]
Tree = float | Node  # a value; (OURS, {move: Tree}); (OTHER, same_side, weight, pick, {move: Tree})


class _Search(Protocol):
    """What the tree needs of the expert's searcher (``expert._Searcher``)."""

    seat: int
    side: int
    four: bool
    model: float
    partner_model: float

    def material(self, state: GameState) -> float: ...
    def leaf(self, state: GameState, acc: float) -> float: ...
    def quick_leaf(self, state: GameState, move: Move, acc: float) -> float: ...
    def predicted_reply(self, state: GameState, moves: list[Move]) -> int: ...
    def after(self, state: GameState, move: Move, acc: float) -> tuple[GameState, float]: ...


def public_tree(search: _Search, state: GameState, depth: int, acc: float, root_round: int) -> Tree:
    """One sampled deal searched ``depth`` plays on from ``state``, every move kept (no pruning:
    the samples are compared node by node afterwards). ``acc``: material so far."""
    if state.phase is not Phase.PLAYING:
        return search.material(state)
    mover = state.to_move
    if depth <= 0 or (mover == search.seat and state.round != root_round):
        return search.leaf(state, acc)
    moves = moves_for_hand(state.hands[mover], state.table, state.rules)  # legal_moves() without its memo
    quick = depth == 1 and sum([len(h) for h in state.hands]) > 1
    children: dict[Move, Tree] = {}
    for move in moves:
        if quick:
            children[move] = search.quick_leaf(state, move, acc)
        else:
            child, after = search.after(state, move, acc)
            children[move] = public_tree(search, child, depth - 1, after, root_round)
    if mover == search.seat:
        return (OURS, children)
    same = (mover % 2 if search.four else mover) == search.side
    weight = search.partner_model if same else search.model
    pick = moves[search.predicted_reply(state, moves)] if weight > 0.0 and len(moves) > 1 else moves[0]
    return (OTHER, same, weight, pick, children)


def set_values(trees: list[Tree], weights: list[float]) -> list[float]:
    """Each sample's value of the trees of one public node (one tree per sample, ``weights``
    theirs), with the expert's choices made once for all the samples at each of its nodes."""
    first = trees[0]
    if not isinstance(first, tuple):
        return cast(list[float], trees)  # one public node: leaves in every sample when in the first
    nodes = cast(list[Node], trees)  # and inner nodes of the same kind in every sample when not
    if first[0] == OURS:
        return _our_turn(nodes, weights)
    return _their_turn(nodes, weights)


def _our_turn(trees: list[Node], weights: list[float]) -> list[float]:
    best: list[float] = []
    best_total = -float("inf")
    for move in trees[0][1]:  # the same moves in every sample (same hand, table)
        values = set_values([t[1][move] for t in trees], weights)
        total = sum([v * w for v, w in zip(values, weights, strict=True)])
        if total > best_total:
            best, best_total = values, total
    return best


def _their_turn(trees: list[Node], weights: list[float]) -> list[float]:
    # The samples that share a reply share the node after it: read each reply's node once.
    groups: dict[Move, list[int]] = {}
    for s, tree in enumerate(trees):
        for move in tree[4]:
            members = groups.get(move)
            if members is None:
                groups[move] = [s]
            else:
                members.append(s)
    # Each sample's modelled reply and its extreme reply (the best at a partner's turn, else the
    # worst), over its replies in the order they were first met, the first of equals kept.
    picked = [0.0] * len(trees)
    extreme: list[float | None] = [None] * len(trees)
    for move, members in groups.items():
        nodes = [trees[s][4][move] for s in members]
        values = (cast(list[float], nodes) if not isinstance(nodes[0], tuple)  # leaves: their own values
                  else set_values(nodes, [weights[s] for s in members]))
        for s, v in zip(members, values, strict=True):
            tree = trees[s]
            if move == tree[3]:
                picked[s] = v
            found = extreme[s]
            if found is None or (v > found if tree[1] else v < found):
                extreme[s] = v
    out = []
    for tree, pick, worst in zip(trees, picked, extreme, strict=True):
        weight = tree[2]
        out.append(weight * pick + (1.0 - weight) * cast(float, worst))
    return out
