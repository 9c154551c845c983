"""Computer opponents: legal, deterministic, fair (they see only their own seat), and sensible."""
from __future__ import annotations

import dataclasses
import random
import re
import typing
from enum import Enum

import pytest

from helpers.positions import random_positions, unique_hard_choices
from scopa.engine import ALL_CARDS, SETTEBELLO, Card, GameState, PlayerView, Rules, new_deal, parse_cards
from scopa.players import (
    COMPUTER_NAMES,
    LEVEL_DESCRIPTIONS,
    LEVELS,
    ComputerPlayer,
    computer_names,
    make_player,
    suggest_move,
)
from scopa.players.expert import ExpertPlayer, sample_world
from scopa.players.infoset import set_values

RULE_SETS = {
    "two": Rules(target=None),
    "three": Rules(players=3, target=None),
    "four": Rules(players=4, target=None),
    "scientifico": Rules.scopone_scientifico(target=None),
    "classico": Rules.scopone_classico(target=None),
    "faces-most": Rules(faces_match_only=True, most_cards=True, target=None),
    "napola-rebello": Rules(napola=True, re_bello=True, target=None),
    "asso": Rules(asso_piglia_tutto=True, players=4, target=None),
    "all-options": Rules(players=3, faces_match_only=True, napola=True, re_bello=True, asso_piglia_tutto=True,
                         kings_redeal=False, target=None),
    "scopa_15": Rules.scopa_15(target=None),
    "scopa_15-four": Rules.scopa_15(players=4, target=None),
    "cirulla": Rules.cirulla(target=None),
    "cirulla-three": Rules.cirulla(players=3, target=None),
}


def player(level: str, seed: int = 0) -> ComputerPlayer:
    """Any level; the expert with a small fixed number of samples (deterministic and fast)."""
    return make_player(level, seed, iterations=2)


def shuffle_hidden(state: GameState, seat: int, rng: random.Random) -> GameState:
    """The same state for ``seat``'s eyes: other hands and the stock dealt again from their cards."""
    others = [s for s in range(state.players) if s != seat]
    pool = [c for s in others for c in state.hands[s]] + list(state.stock)
    for _ in range(20):
        rng.shuffle(pool)
        hands = list(state.hands)
        rest = list(pool)
        for s in others:
            hands[s], rest = tuple(sorted(rest[:len(state.hands[s])])), rest[len(state.hands[s]):]
        changed = state._replace(hands=tuple(hands), stock=tuple(rest))
        if len(pool) < 2 or changed.hands != state.hands or changed.stock != state.stock:
            return changed
    return changed


def position(rules: Rules, hand: str, table: str, seed: int = 1) -> GameState:
    """A first-round state where the seat to move holds ``hand`` and ``table`` is on the table.

    The other cards go to the other hands and the stock in the usual sizes.
    """
    state, _ = new_deal(rules, seed, dealer=1)
    mine, board = parse_cards(hand), parse_cards(table)
    rest = [c for c in ALL_CARDS if c not in mine and c not in board]
    random.Random(seed).shuffle(rest)
    hands = []
    for s in range(rules.players):
        if s == state.to_move:
            hands.append(tuple(sorted(mine)))
        else:
            hands.append(tuple(sorted(rest[:len(mine)])))
            rest = rest[len(mine):]
    return state._replace(hands=tuple(hands), table=tuple(board), stock=tuple(rest))


# API --------------------------------------------------------------------------------------------

def test_levels_descriptions_and_names():
    assert LEVELS == ("beginner", "easy", "medium", "hard", "expert")
    assert set(LEVEL_DESCRIPTIONS) == set(LEVELS)
    for text in LEVEL_DESCRIPTIONS.values():
        assert text and text.endswith(".") and "\n" not in text
    assert len(set(COMPUTER_NAMES)) == len(COMPUTER_NAMES)
    names = computer_names(3, seed=4)
    assert len(names) == len(set(names)) == 3 and set(names) <= set(COMPUTER_NAMES)
    assert computer_names(3, seed=4) == names
    assert len({tuple(computer_names(3, seed=s)) for s in range(10)}) > 1
    with pytest.raises(ValueError):
        computer_names(len(COMPUTER_NAMES) + 1)


def test_make_player_levels_and_errors():
    for level in LEVELS:
        p = make_player(level, seed=3)
        assert isinstance(p, ComputerPlayer) and p.level == level
    with pytest.raises(ValueError, match="beginner, easy, medium, hard, expert"):
        make_player("grandmaster")


# Legal moves and determinism ---------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_every_level_plays_legal_moves(name):
    rules = RULE_SETS[name]
    every = 7 if rules.hand_size > 3 else 3
    for seed in range(2):
        for state in random_positions(rules, seed, every):
            legal = state.legal_moves()
            view = state.view(state.to_move)
            for level in LEVELS:
                assert player(level, seed).choose_move(view) in legal, (name, level)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("name", ["two", "four", "all-options"])
def test_levels_play_whole_deals_deterministically(level, name):
    rules = RULE_SETS[name]

    def play(seed: int) -> list:
        state, _ = new_deal(rules, 11, dealer=0)
        seats = [player(level, seed * 10 + s) for s in range(rules.players)]
        moves = []
        while not state.is_deal_over:
            move = seats[state.to_move].choose_move(state.view(state.to_move))
            moves.append(move)
            state, _ = state.apply(move)
        return moves

    assert play(1) == play(1)


def test_beginner_depends_on_its_seed():
    state, _ = new_deal(Rules(target=None), 5)
    view = state.view(state.to_move)
    picks = {make_player("beginner", seed).choose_move(view) for seed in range(30)}
    assert len(picks) > 1


# Fairness ----------------------------------------------------------------------------------------

def test_choose_move_takes_only_a_view():
    state, _ = new_deal(Rules(target=None), 2)
    for level in LEVELS:
        p = player(level)
        hints = typing.get_type_hints(type(p).choose_move)
        assert hints["view"] is PlayerView and GameState not in hints.values()
        with pytest.raises(TypeError):
            p.choose_move(state)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["two", "three", "four", "classico", "all-options", "scopa_15", "cirulla"])
def test_hidden_cards_do_not_change_any_choice(name):
    rules = RULE_SETS[name]
    rng = random.Random(7)
    checked = 0
    for seed in range(3):
        for state in random_positions(rules, seed, every=4 if rules.hand_size == 3 else 9):
            seat = state.to_move
            other = shuffle_hidden(state, seat, rng)
            assert other.view(seat) == state.view(seat)
            if other.hands == state.hands and other.stock == state.stock:
                continue
            for level in LEVELS:
                a = make_player(level, seed=21, iterations=3).choose_move(state.view(seat))
                b = make_player(level, seed=21, iterations=3).choose_move(other.view(seat))
                assert a == b, (name, level)
            checked += 1
    assert checked >= 5


def _cards_reachable(obj, seen: set[int], found: set[Card], names: set[str]) -> None:
    if id(obj) in seen:
        return
    seen.add(id(obj))
    if isinstance(obj, Card):
        found.add(obj)
    elif isinstance(obj, (str, int, float, bool, type(None), Enum)):
        return
    elif dataclasses.is_dataclass(obj):
        for field in dataclasses.fields(obj):
            names.add(field.name)
            _cards_reachable(getattr(obj, field.name), seen, found, names)
    elif hasattr(obj, "_fields"):
        names.update(obj._fields)
        for item in obj:
            _cards_reachable(item, seen, found, names)
    elif isinstance(obj, (tuple, list, set, frozenset)):
        for item in obj:
            _cards_reachable(item, seen, found, names)
    elif isinstance(obj, dict):
        for key, item in obj.items():
            _cards_reachable(key, seen, found, names)
            _cards_reachable(item, seen, found, names)
    else:
        raise AssertionError(f"unexpected object in a view: {obj!r}")


@pytest.mark.parametrize("name", ["two", "four", "scientifico"])
def test_a_view_holds_no_hidden_card_and_no_seed(name):
    rules = RULE_SETS[name]
    for state in random_positions(rules, 3, every=5):
        for seat in range(rules.players):
            view = state.view(seat)
            assert not hasattr(view, "seed") and not hasattr(view, "__dict__")
            found: set[Card] = set()
            names: set[str] = set()
            _cards_reachable(view, set(), found, names)
            hidden = {c for s in range(rules.players) if s != seat for c in state.hands[s]} | set(state.stock)
            assert not found & hidden
            assert "seed" not in names and "stock" not in names and "hands" not in names


def test_sampled_worlds_agree_with_the_view():
    rules = RULE_SETS["four"]
    rng = random.Random(3)
    for state in random_positions(rules, 4, every=2):
        seat = state.to_move
        view = state.view(seat)
        world = sample_world(view, rng)
        assert world.view(seat) == view
        assert sorted(c for h in world.hands for c in h) + sorted(world.stock) != []
        every = [c for h in world.hands for c in h] + list(world.stock) + list(world.table)
        every += [c for p in world.piles for c in p]
        assert sorted(every) == list(ALL_CARDS)


def test_a_seat_that_passes_up_a_sweep_probably_holds_no_sweeping_card():
    from scopa.players.knowledge import inference_weights
    state = position(Rules(target=None), "KC 4D 6H", "2C 3S")
    thrower = state.to_move
    state, _ = state.apply(state.legal_moves()[-1])  # the king stays on the table
    view = state.view(state.to_move)
    weights = inference_weights(view)[thrower]
    assert weights[Card.parse("5H")] == pytest.approx(0.15)   # a five would have swept
    assert weights[Card.parse("2D")] == pytest.approx(0.6)    # a two would have taken something
    assert Card.parse("4H") not in weights                    # a four takes nothing there
    assert thrower not in inference_weights(state.view(thrower))


def _mid_round_positions(rules: Rules, seeds: range):
    """Positions where another seat has already played in the current round (the model reads them)."""
    from scopa.players.knowledge import round_start
    for seed in seeds:
        for state in random_positions(rules, seed, every=1):
            view = state.view(state.to_move)
            if any(p.seat != view.seat for p in view.history[round_start(view):]):
                yield state


@pytest.mark.parametrize("name", ["two", "four", "scientifico"])
def test_the_reading_of_plays_sees_only_the_view(name):
    """The likelihood of the others' plays, and the expert's values with it, are the same in two
    states that differ only in hidden cards: the model tries sampled hands, never the real ones."""
    from scopa.players.inference import PlayModel
    rules = RULE_SETS[name]
    rng = random.Random(5)
    checked = 0
    for state in _mid_round_positions(rules, range(2)):
        seat = state.to_move
        other = shuffle_hidden(state, seat, rng)
        if other.hands == state.hands and other.stock == state.stock:
            continue
        world = sample_world(state.view(seat), random.Random(checked))
        likelihood = PlayModel(state.view(seat), 0.1, 0.05).log_likelihood(world.hands)
        assert PlayModel(other.view(seat), 0.1, 0.05).log_likelihood(world.hands) == likelihood
        a = ExpertPlayer(3, iterations=6, infer=True).move_values(state.view(seat))
        b = ExpertPlayer(3, iterations=6, infer=True).move_values(other.view(seat))
        assert a == b
        checked += 1
        if checked >= 6:
            break
    assert checked >= 3


def test_a_seat_that_left_the_settebello_on_the_table_probably_holds_no_seven():
    """Under the model of the others' choices, a hand with a seven makes leaving the settebello
    unlikely (the hard level takes it), a hand without one makes it a likely play."""
    from scopa.players.inference import PlayModel
    state = position(Rules(target=None), "KC 4D 6H", "7D 2S")
    thrower = state.to_move
    state, _ = state.apply(next(m for m in state.legal_moves() if m.card == Card.parse("KC")))
    view = state.view(state.to_move)
    model = PlayModel(view, 0.1, 0.05)
    assert [p.seat for p in model.plays] == [thrower]
    hands = list(sample_world(view, random.Random(1)).hands)
    hands[thrower] = tuple(parse_cards("4D 7S"))
    with_seven = model.log_likelihood(hands)
    hands[thrower] = tuple(parse_cards("4D 6H"))
    without = model.log_likelihood(hands)
    assert with_seven < without - 1.5
    assert with_seven < -3.5   # near the floor: the hard level takes the settebello
    assert not PlayModel(state.view(thrower), 0.1, 0.05)  # its own plays tell a seat nothing new


def test_sample_weights_keep_enough_effective_samples():
    from scopa.players.expert import effective_size, sample_weights
    plain = sample_weights([0.0, -1.0, -2.0], 1.0)
    assert plain == pytest.approx([1.0, 0.36788, 0.13534], rel=1e-4)
    peaked = sample_weights([0.0] + [-60.0] * 39, 10.0)
    assert effective_size(peaked) >= 10.0 and peaked[0] == max(peaked)
    assert effective_size(sample_weights([-1e9, 0.0, 0.0, 0.0], 10.0)) >= 3.99  # fewer than 10: all of them


def test_the_expert_weighs_its_samples_only_with_inference_on():
    state = position(Rules(target=None), "KC 4D 6H", "7D 2S")
    state, _ = state.apply(next(m for m in state.legal_moves() if m.card == Card.parse("KC")))
    view = state.view(state.to_move)
    off = ExpertPlayer(2, iterations=40, infer=False)
    off.move_values(view)
    assert off.last_ess == pytest.approx(40.0)
    on = ExpertPlayer(2, iterations=40)
    on.move_values(view)
    assert on.infer and on.last_samples == 40 and on.last_ess < 35.0
    assert ExpertPlayer(2, iterations=40).move_values(view) == ExpertPlayer(2, iterations=40).move_values(view)


# Sensible play -----------------------------------------------------------------------------------

def test_easy_takes_the_settebello():
    # The six would take three cards (2 + 3 + ace); the seven takes the settebello.
    state = position(Rules(target=None), "7H 6S 4C", "7D 2C 3H AS")
    for seed in range(5):
        move = make_player("easy", seed).choose_move(state.view(state.to_move))
        assert move.card == Card.parse("7H") and move.capture == (SETTEBELLO,)


def test_medium_does_not_leave_a_sweepable_table():
    # Nothing can be taken. The two leaves 4 + 3 + 2 = 9, which a queen sweeps; a king or jack is safe.
    state = position(Rules(target=None), "2H JC KS", "4C 3S")
    for seed in range(5):
        move = make_player("medium", seed).choose_move(state.view(state.to_move))
        assert move.card != Card.parse("2H")


def test_hard_does_not_set_up_a_sweep_for_the_opponents_in_four_players():
    rules = Rules(players=4, target=None)
    # The ace would leave 6 and the four 9 (a six or a queen sweeps); the king leaves 15.
    state = position(rules, "AH 4D KC", "5C")
    seat = state.to_move
    assert seat % 2 != (seat - 1) % 4 % 2  # the next seat is an opponent
    for seed in range(5):
        move = make_player("hard", seed).choose_move(state.view(seat))
        assert move.card == Card.parse("KC")


def test_hard_and_expert_take_a_sweep():
    state = position(Rules(target=None), "6C KD 2S", "2D 3H AS")
    for level in ("hard", "expert"):
        move = player(level).choose_move(state.view(state.to_move))
        assert move.card == Card.parse("6C") and len(move.capture) == 3


def test_expert_respects_iterations():
    state = position(Rules(target=None), "6C KD 2S", "4D 3H QS")
    view = state.view(state.to_move)
    expert = make_player("expert", 5, iterations=4)
    assert isinstance(expert, ExpertPlayer)
    first = expert.choose_move(view)
    assert expert.last_samples == 4
    assert make_player("expert", 5, iterations=4).choose_move(view) == first
    one = make_player("expert", 5, iterations=1, budget=100.0)
    one.choose_move(view)
    assert one.last_samples == 1
    with pytest.raises(ValueError):
        make_player("expert", iterations=0)


# Hints -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["two", "four", "faces-most", "asso"])
def test_suggest_move_is_legal_explained_and_public(name):
    rules = RULE_SETS[name]
    rng = random.Random(9)
    for seed in range(2):
        for state in random_positions(rules, seed, every=2):
            seat = state.to_move
            move, reason = suggest_move(state.view(seat))
            assert move in state.legal_moves()
            assert reason and "\n" not in reason and reason.endswith(".")
            assert re.search(r"\b[2-7AJQK][DHSC]\b", reason) is None  # card names, not codes
            other = shuffle_hidden(state, seat, rng)
            assert suggest_move(other.view(seat)) == (move, reason)


def test_suggest_move_reasons_read_well():
    state = position(Rules(target=None), "6C KD 2S", "2D 3H AS")
    move, reason = suggest_move(state.view(state.to_move))
    assert move.card == Card.parse("6C")
    assert reason == ("Take the ace of spades, the two of diamonds and the three of hearts with your six of clubs, "
                      "it clears the table for a scopa.")
    state = position(Rules(target=None), "7D 5S KC", "4C 3H 2D QS")
    move, reason = suggest_move(state.view(state.to_move))
    assert move in state.legal_moves() and reason.startswith(("Take", "Play"))
    assert ": " not in reason  # Orca says "colon"


# Tournament --------------------------------------------------------------------------------------

def test_tournament_prints_the_share_line(capsys):
    from scopa.bench import ai
    assert ai.main(["--a", "easy", "--b", "beginner", "--deals", "3", "--seed", "2"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert re.fullmatch(r"A point share: 0\.\d{3} \[0\.\d{3}, [01]\.\d{3}\]", lines[-1])
    assert any(line.startswith("time per move, easy") for line in lines)


@pytest.mark.parametrize("players", [2, 4])
def test_tournament_splits_each_sides_points_by_category(capsys, players):
    """The category line adds up to the points per deal, side by side (partners pooled), and the
    ones a deal can give once (cards, coins, settebello, primiera) never exceed one a deal."""
    from scopa.bench import ai
    assert ai.main(["--a", "hard", "--b", "medium", "--deals", "4", "--seed", "5",
                    "--players", str(players)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    per_deal = re.fullmatch(r"points per deal: A (\S+), B (\S+)", lines[1])
    line = next(x for x in lines if x.startswith("points per deal by category: "))
    parts = re.findall(r"(\w+) A (\d\.\d{3}) B (\d\.\d{3})", line)
    assert [name for name, _, _ in parts] == ["cards", "coins", "settebello", "primiera", "scope"]
    for column, total in ((1, per_deal[1]), (2, per_deal[2])):
        assert sum(float(p[column]) for p in parts) == pytest.approx(float(total), abs=0.006)
    for name, a, b in parts[:4]:
        assert float(a) + float(b) <= 1.0 + 1e-9, name


OUTSIDE_PLAYER = """
from scopa.engine import PlayerView
from scopa.players import make_player

calls = []


class Hard:
    def __init__(self, seed, budget):
        self.inner = make_player("hard", seed)
        self.seed, self.budget = seed, budget

    def choose_move(self, view):
        calls.append((type(view), self.budget))
        return self.inner.choose_move(view)


def hard(seed, budget):
    return Hard(seed, budget)


def first_move():
    class First:
        def choose_move(self, view):
            return view.legal_moves()[0]
    return First()
"""


def test_an_outside_player_meets_the_same_duplicate_deals(capsys, tmp_path, monkeypatch):
    """``--a module:factory`` plays an object with choose_move(view): wrapping our hard level, it
    gives the very figures of ``--a hard`` (same deals, same seeds), seeing only PlayerViews."""
    from scopa.bench import ai
    (tmp_path / "outside_scopa_player.py").write_text(OUTSIDE_PLAYER)
    monkeypatch.syspath_prepend(str(tmp_path))
    import outside_scopa_player as outside
    common = ["--b", "medium", "--deals", "3", "--seed", "4", "--budget", "0.3"]
    assert ai.main(["--a", "hard", *common]) == 0
    ours = capsys.readouterr().out.strip().splitlines()
    assert ai.main(["--a", "outside_scopa_player:hard", *common]) == 0
    theirs = capsys.readouterr().out.strip().splitlines()
    assert theirs[0].startswith("A = outside_scopa_player:hard, B = medium: 3 duplicate deals")
    for prefix in ("points per deal", "deals won", "matches to", "A point share"):
        assert [x for x in ours if x.startswith(prefix)] == [x for x in theirs if x.startswith(prefix)]
    assert len(outside.calls) == 3 * 2 * 18  # every card A plays in six two-player games (36 each)
    assert set(outside.calls) == {(PlayerView, 0.3)}
    assert ai.main(["--a", "outside_scopa_player:first_move", "--b", "beginner", "--deals", "2"]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1].startswith("A point share: ")


def test_the_bench_variants_switch_off_inference_or_fix_the_budget():
    from scopa.bench.ai import build_player
    off = build_player("scopa.bench.variants:expert_without_inference", 3, 0.2)
    assert isinstance(off, ExpertPlayer) and not off.infer and off.budget == 0.2
    tenth = build_player("scopa.bench.variants:expert_tenth_second", 3, 1.0)
    assert tenth.infer and tenth.budget == 0.1
    assert build_player("expert", 3, 0.2).infer
    apart = build_player("scopa.bench.variants:expert_sample_by_sample", 3, 0.2)
    assert not apart.information_sets and build_player("expert", 3, 0.2).information_sets
    assert apart.budget == 0.2


def test_the_tournament_refuses_an_unknown_player(capsys):
    from scopa.bench import ai
    reasons = {"grandmaster": "neither a level", "no_such_module_here:factory": "cannot import",
               "scopa.players:no_such_factory": "has no callable 'no_such_factory'"}
    for bad, reason in reasons.items():
        with pytest.raises(SystemExit) as exit_:
            ai.main(["--a", bad, "--b", "easy", "--deals", "1"])
        assert exit_.value.code == 2
        err = capsys.readouterr().err
        assert "--a" in err and reason in err


def test_judge_prints_the_regret_line(capsys):
    from scopa.bench import judge
    args = ["--level", "beginner", "--against", "hard", "--deals", "2", "--positions", "5", "--worlds", "3",
            "--seed", "4", "--details"]
    assert judge.main(args) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    details = [line for line in lines if line.startswith("round ")]
    assert details, "a random player loses points somewhere in five positions"
    for line in details:
        assert re.fullmatch(r"round \d, stock \d+, table [^:]+, hand [^:]+: beginner .+ \(regret \d+\.\d{3}\), "
                            r"best .+, hard .+", line)
    assert lines[len(details)].startswith("beginner judged at 5 of its ")
    assert re.fullmatch(r"beginner regret per decision: \d\.\d{3} \(hard at the same positions: \d\.\d{3}\)",
                        lines[-1])


def test_judge_refuses_bad_counts(capsys):
    from scopa.bench import judge
    for bad in (["--worlds", "0"], ["--deals", "0"], ["--positions", "-1"], ["--budget", "0"]):
        with pytest.raises(SystemExit) as exit_:
            judge.main(["--level", "easy", *bad])
        assert exit_.value.code == 2
        assert "--" in capsys.readouterr().err


def test_judge_oracle_values_a_sweep_above_a_throw_and_regret_is_zero_at_the_best():
    from scopa.bench import judge
    state = position(Rules(target=None), "6C 2S KD", "AS 2D 3H")
    moves = state.legal_moves()
    values = judge.oracle_values(state, moves, worlds=6, seed=1)
    sweep = next(i for i, m in enumerate(moves) if len(m.capture) == 3)
    throw = next(i for i, m in enumerate(moves) if not m.capture and m.card == parse_cards("KD")[0])
    assert values[sweep] > values[throw] + 0.5  # the scopa's point, and the cards it takes
    judged = judge.Judged(moves, values, moves[sweep], moves[throw])
    assert judge.regret(judged, moves[sweep]) == 0.0 < judge.regret(judged, moves[throw])


def test_the_expert_charges_the_high_card_cost_only_while_cards_stay_in_hand():
    """Throwing a king gives up the sums it could take later, unless it was the hand's last card
    (the search once charged it there too: the state after the play already held the next round)."""
    from scopa.players.evaluate import material, worth_tables
    from scopa.players.expert import _Searcher
    base_state = position(Rules(target=None), "KC 2S 3S", "4D 5H")
    seat, other = base_state.to_move, 1 - base_state.to_move
    king = Card.parse("KC")

    def value(mine: str, theirs: str, keep: float) -> float:
        hands = [()] * 2
        hands[seat], hands[other] = tuple(parse_cards(mine)), tuple(parse_cards(theirs))
        state = base_state._replace(hands=tuple(hands))
        worth = worth_tables(state.piles, state.scope, state.rules, seat)
        searcher = _Searcher(seat, state.rules, worth, 0.8, material(state.piles, state.scope, state.rules, seat),
                             keep=keep)
        return searcher.root_value(state, next(m for m in state.legal_moves() if m.card == king), 0)

    assert value("KC", "", 0.2) == pytest.approx(value("KC", "", 0.0))  # the round's last card
    assert value("KC 2S", "6D", 0.0) - value("KC 2S", "6D", 0.2) == pytest.approx(0.2)


def _searcher_for(state: GameState, model: float):
    from scopa.players.evaluate import material, worth_tables
    from scopa.players.expert import _Searcher
    side = state.rules.side_of(state.to_move)
    worth = worth_tables(state.piles, state.scope, state.rules, side)
    return _Searcher(side, state.rules, worth, 0.8, material(state.piles, state.scope, state.rules, side),
                     model=model, piles=state.piles, scope=state.scope)


def test_one_samples_public_tree_reads_as_its_own_search():
    """Read alone, a sample's public tree gives what searching that sample gives (the same depth,
    the same modelled replies): the trees only add the choosing across samples."""
    checked = 0
    for seed in range(6):
        for state in random_positions(Rules(target=None), seed, every=1):
            if len(state.hands[state.to_move]) != 3 or not state.stock:
                continue  # four plays on stay in this round
            searcher = _searcher_for(state, 0.5)
            for move in state.legal_moves():
                tree = searcher.root_tree(state, move, ExpertPlayer.SET_DEPTH - 1, state.round)
                alone = set_values([tree], [1.0])[0]
                assert alone == pytest.approx(searcher.root_value(state, move, ExpertPlayer.SET_DEPTH - 1))
                checked += 1
    assert checked > 30


def test_the_expert_chooses_its_own_later_play_once_for_samples_that_look_alike():
    """At its own later turn one move is chosen for every sample that reached that node by the same
    public plays, the best on their weighted mean; a sample reached by another reply chooses apart."""
    from scopa.engine import Move
    from scopa.players.infoset import OTHER, OURS
    a, b = Move(parse_cards("1c")[0]), Move(parse_cards("2c")[0])
    r, q = Move(parse_cards("3s")[0]), Move(parse_cards("4s")[0])
    alike = [(OURS, {a: 1.0, b: 0.0}), (OURS, {a: 0.0, b: 1.0}), (OURS, {a: 1.0, b: 0.0})]
    assert set_values(alike, [1.0, 1.0, 1.0]) == [1.0, 0.0, 1.0]  # a, for all three
    assert set_values(alike, [1.0, 5.0, 1.0]) == [0.0, 1.0, 0.0]  # b, weighed
    # Two samples share the reply r and so the node after it; the third saw q instead.
    trees = [(OTHER, False, 1.0, r, {r: alike[0]}), (OTHER, False, 1.0, r, {r: alike[1]}),
             (OTHER, False, 1.0, q, {q: alike[1]})]
    assert set_values(trees, [2.0, 1.0, 1.0]) == [1.0, 0.0, 1.0]
    # The worst reply of each sample is blended with its modelled one, as in a single search.
    both = [(OTHER, False, 0.5, r, {r: 2.0, q: 0.0})]
    assert set_values(both, [1.0]) == [1.0]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_expert_predicts_the_reply_the_hard_level_makes(players):
    """In its tree, another seat's predicted reply is the one the hard level picks from that seat's
    own view (of the sampled deal), with that seat's worth tables."""
    checked = 0
    for state, moves, hard in unique_hard_choices(Rules(players=players, target=None)):
        # The searcher belongs to the seat before: the reply is another seat's.
        root = _searcher_for(state._replace(to_move=(state.to_move + 1) % players), 0.5)
        assert moves[root.predicted_reply(state, moves)] == hard
        checked += 1
    assert checked > 20


def test_the_expert_weighs_the_predicted_reply_against_the_worst():
    """At another side's turn the tree's value is MODEL times the predicted reply's value plus the
    rest times the worst reply's: 0 is plain minimax, 1 trusts the prediction alone."""
    for seed in range(8):
        for state in random_positions(Rules(target=None), seed, every=2):
            reply = state.to_move
            moves = state.legal_moves()
            if len(moves) < 2 or not state.stock:
                continue
            mine = state._replace(to_move=1 - reply)  # the searching seat is the other one
            searcher = _searcher_for(mine, 0.0)
            children = []
            for move in moves:
                child, acc = searcher.after(state, move, 0.0)
                children.append(searcher.value(child, 1, acc))
            worst = min(children)
            pick = searcher.predicted_reply(state, moves)
            if children[pick] == pytest.approx(worst):
                continue
            assert searcher.value(state, 2, 0.0) == pytest.approx(worst)
            for model in (1.0, 0.5):
                searcher = _searcher_for(mine, model)
                expected = model * children[pick] + (1 - model) * worst
                assert searcher.value(state, 2, 0.0) == pytest.approx(expected)
            return
    pytest.fail("no position where the predicted reply is not the worst")


def test_the_expert_counts_its_partners_captures_for_its_side():
    """Four players: at a leaf, the best capture waiting for the partner adds to the side's value,
    the same capture waiting for an opponent takes from it (the evaluation counts sides)."""
    from scopa.players.evaluate import material, worth_tables
    from scopa.players.expert import _Searcher
    state = position(Rules(players=4, target=None), "7D 5S KC", "7C 4D")
    mover = state.to_move
    for seat, sign in (((mover + 2) % 4, 1.0), ((mover + 1) % 4, -1.0)):
        side = seat % 2
        worth = worth_tables(state.piles, state.scope, state.rules, side)
        base = material(state.piles, state.scope, state.rules, side)
        searcher = _Searcher(side, state.rules, worth, 0.8, base, seat=seat)
        assert sign * searcher.leaf(state, 0.0) > 0.5  # the settebello is waiting for the seat to move


def test_the_partner_may_be_modelled_like_the_other_seats():
    """With ``partner_model`` 1 the partner's turn is worth the hard level's predicted play there, not
    its best play with every card face up; 0 (the default) keeps the best."""
    from scopa.players.evaluate import material, worth_tables
    from scopa.players.expert import _Searcher
    for seed in range(8):
        for state in random_positions(Rules(players=4, target=None), seed, every=2):
            moves = state.legal_moves()
            if len(moves) < 3 or not state.stock:
                continue
            partner = state.to_move
            seat = (partner + 2) % 4
            side = seat % 2
            worth = worth_tables(state.piles, state.scope, state.rules, side)
            base = material(state.piles, state.scope, state.rules, side)

            def searcher(weight: float, state: GameState = state, side: int = side, worth: list = worth,
                         base: float = base, seat: int = seat) -> _Searcher:
                return _Searcher(side, state.rules, worth, 0.8, base, model=0.5, piles=state.piles,
                                 scope=state.scope, partner_model=weight, seat=seat)
            children = [searcher(0.0).quick_leaf(state, m, 0.0) for m in moves]
            pick = searcher(1.0).predicted_reply(state, moves)
            if children[pick] == pytest.approx(max(children)):
                continue
            assert searcher(0.0).value(state, 1, 0.0) == pytest.approx(max(children))
            assert searcher(1.0).value(state, 1, 0.0) == pytest.approx(children[pick])
            return
    pytest.fail("no position where the partner's predicted play is not its best")


def test_more_thinking_time_can_search_deeper():
    """With GROWTH set the tree grows with the budget (reaching the partner in four players at 1 s),
    and more again in the last round; by default (GROWTH 0, measured) more time buys samples only.
    A fixed number of iterations keeps the tenth of a second's tree."""
    from scopa.players.expert import search_depth

    class Growing(ExpertPlayer):
        GROWTH = 0.5
    view = position(Rules(players=4, target=None), "7D 5S KC", "7C 4D").view(1)
    quick, slow = Growing(budget=0.1), Growing(budget=1.0)
    assert quick.leaf_budget(view, False) == 6.0 == Growing(iterations=5, budget=1.0).leaf_budget(view, False)
    assert slow.leaf_budget(view, False) > 18.0
    assert search_depth(view, quick.leaf_budget(view, False)) == 2
    assert search_depth(view, slow.leaf_budget(view, False)) == 3
    last = dataclasses.replace(view, stock_count=0)
    assert slow.leaf_budget(last, False) > 3 * slow.leaf_budget(view, False)
    assert quick.leaf_budget(last, False) == 6.0
    assert quick.leaf_budget(view, True) == ExpertPlayer.SOLVE_BUDGET
    assert ExpertPlayer(budget=1.0).leaf_budget(last, False) == 6.0

