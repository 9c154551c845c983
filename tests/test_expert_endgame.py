"""The expert's search of a deal's last plays at four players, against brute force; and the tournament's
count of the scope each level gave away (issue 44)."""
from __future__ import annotations

import pytest

from scopa.bench.ai import given_away, left_open
from scopa.engine import Card, GameState, Move, Rules, new_deal
from scopa.engine.state import Play
from scopa.players import make_player
from scopa.players.evaluate import every_side_worth_tables, material
from scopa.players.expert import ExpertPlayer, _Searcher


def _points(state: GameState, side: int) -> float:
    """``side``'s deal points less the other side's, as the engine scores the finished deal."""
    score = state.deal_score
    assert score is not None
    mine = sum(score.sides[side].points.values())
    return float(mine - sum(sum(s.points.values()) for s in score.sides if s.side != side))


def _brute(state: GameState, side: int) -> float:
    """Every line of play to the deal's end: ``side`` maximises, the other side minimises."""
    if state.is_deal_over:
        return _points(state, side)
    values = [_brute(state.apply(move)[0], side) for move in state.legal_moves()]
    return max(values) if state.rules.side_of(state.to_move) == side else min(values)


def _late_positions(rules: Rules, cards_left: int, deals: int) -> list[GameState]:
    """Positions of seeded deals between hard players with ``cards_left`` cards still in the hands."""
    found = []
    for deal in range(deals):
        state, _ = new_deal(rules, 500 + deal, deal % 4)
        players = [make_player("hard", seed=deal * 4 + seat) for seat in range(4)]
        while sum(len(h) for h in state.hands) > cards_left:
            state = state.apply(players[state.to_move].choose_move(state.view(state.to_move)))[0]
        found.append(state)
    return found


@pytest.mark.parametrize("cards_left", [4, 6, 8])
def test_the_search_to_the_end_is_exact_minimax(cards_left: int) -> None:
    rules = Rules.scopone_scientifico(target=None)
    for state in _late_positions(rules, cards_left, 6):
        side = rules.side_of(state.to_move)
        worth = every_side_worth_tables(state.piles, state.scope, rules)
        searcher = _Searcher(side, rules, worth[side], 0.8, material(state.piles, state.scope, rules, side),
                             seat=state.to_move, every_worth=worth)  # no modelled replies: plain minimax
        for move in state.legal_moves():
            exact = _brute(state.apply(move)[0], side)
            assert searcher.root_value(state, move, cards_left - 1) == pytest.approx(exact)


def test_the_expert_searches_the_last_eight_cards_to_the_end(monkeypatch: pytest.MonkeyPatch) -> None:
    """From ``ENDGAME_CARDS`` cards in hand at four players every sample is searched to the deal's end
    (the plays after its move: the cards left less one); with more cards, a few plays deep."""
    depths: list[int] = []
    searched = _Searcher.root_value

    def spy(self: _Searcher, state: GameState, move: Move, depth: int) -> float:
        depths.append(depth)
        return searched(self, state, move, depth)

    monkeypatch.setattr(_Searcher, "root_value", spy)
    rules = Rules.scopone_scientifico(target=None)
    for cards_left in (ExpertPlayer.ENDGAME_CARDS, ExpertPlayer.ENDGAME_CARDS + 4):
        for state in _late_positions(rules, cards_left, 2):
            depths.clear()
            ExpertPlayer(seed=3, iterations=4).move_values(state.view(state.to_move))
            deepest = cards_left - 1
            assert depths and (set(depths) == {deepest} if cards_left <= ExpertPlayer.ENDGAME_CARDS
                               else max(depths) < deepest)


def test_in_scopone_the_expert_searches_its_partners_play_and_only_the_modelled_replies(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With ten cards a hand the tree holds its move, the next seat's reply and its partner's play (the
    table the partner leaves to the other opponent is seen), and at an opponent's turn only the reply the
    hard level would make is searched; with three-card hands at four players, two plays, and every reply
    searched, blended with the modelled one (``MODEL``)."""
    depths: list[int] = []
    weights: list[float] = []
    searched, modelled = _Searcher.root_value, _Searcher.modelled

    def spy_root(self: _Searcher, state: GameState, move: Move, depth: int) -> float:
        depths.append(depth)
        return searched(self, state, move, depth)

    def spy_modelled(self: _Searcher, state: GameState, moves: list[Move], depth: int, acc: float,
                     weight: float, extreme=min) -> float:
        weights.append(weight)
        return modelled(self, state, moves, depth, acc, weight, extreme)

    monkeypatch.setattr(_Searcher, "root_value", spy_root)
    monkeypatch.setattr(_Searcher, "modelled", spy_modelled)
    scopone, scopa = Rules.scopone_scientifico(target=None), Rules(players=4, target=None)
    for rules, plays, weight in ((scopone, 3, 1.0), (scopa, 2, ExpertPlayer.MODEL)):
        state, _ = new_deal(rules, 7, 0)
        while len(state.legal_moves()) < 3:  # a first position with a choice
            state = state.apply(state.legal_moves()[0])[0]
        depths.clear()
        weights.clear()
        ExpertPlayer(seed=3, iterations=4).move_values(state.view(state.to_move))
        assert set(depths) == {plays - 1}  # the plays after its move
        assert weights and set(weights) == {weight}  # 1: only the hard level's reply is searched


def _play(seat: int, card: str, takes: str = "", scopa: bool = False) -> Play:
    return Play(seat, Card.parse(card), tuple(Card.parse(c) for c in takes.split()), scopa)


def test_scope_given_away_are_counted_against_the_side_that_left_the_table() -> None:
    rules = Rules(players=4, target=None)
    plays = [
        _play(1, "3S"),                        # side 1 throws a three
        _play(0, "3C", "3S", scopa=True),      # side 0 sweeps it: side 1 gave it away
        _play(3, "5D"),                        # side 1 throws on the empty table
        _play(2, "5C", "5D", scopa=True),      # side 0 again: a second for side 1
        _play(1, "KD"),                        # side 1 throws
        _play(0, "2C"),                        # side 0 throws
        _play(3, "2S", "2C"),                  # side 1 takes, leaving the king: no scopa
        _play(2, "KS", "KD", scopa=True),      # side 0 sweeps after side 1's take
        _play(1, "7D"),
        _play(0, "7C", "7D", scopa=True),
    ]
    assert given_away(plays, rules) == {0: [], 1: [0, 2, 6, 8]}
    two = Rules(players=2, target=None)
    assert given_away([_play(0, "4S"), _play(1, "4C", "4S", scopa=True), _play(0, "6D"),
                       _play(1, "6C", "6D", scopa=True), _play(0, "AC")], two) == {0: [0, 2], 1: []}


def test_a_table_left_open_is_one_another_move_would_have_closed() -> None:
    rules = Rules(players=2, target=None)
    state, _ = new_deal(rules, 7, 0)
    hand = tuple(sorted(Card.parse(c) for c in ("JC", "2D", "KS")))
    table = tuple(sorted(Card.parse(c) for c in ("5S", "3D")))
    rest = [c for c in state.stock + state.table + state.hands[0] + state.hands[1] if c not in hand + table]
    state = state._replace(to_move=0, hands=(hand, tuple(rest[:3])), table=table, stock=tuple(rest[3:]))
    view = state.view(0)
    by_card = {str(m.card): m for m in view.legal_moves()}
    assert left_open(view, by_card["2D"])      # 5 + 3 + 2: a king clears it, and kings are unseen
    assert not left_open(view, by_card["KS"])  # 5 + 3 + king: no card clears it
    assert not left_open(view, by_card["JC"])  # the jack sweeps: an empty table is left
    # With every king in sight, the table 5 + 3 + 2 can no longer be cleared: not open.
    kings = [c for c in rest if str(c)[0] == "K"]
    seen = state._replace(piles=(tuple(kings), ()), stock=tuple(c for c in state.stock if c not in kings),
                          hands=(hand, tuple(c for c in state.hands[1] if c not in kings)))
    assert not left_open(seen.view(0), by_card["2D"])
