"""Rebuilding a state from plain data, and the invariants every state must satisfy.

Used by ``state_from_dict`` and by save-file import: a file that fails gets one
plain sentence naming the check that failed.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal, overload

from .captures import is_sweep_capture, legal_captures
from .cards import Card
from .cirulla import BONUS_KINDS, Claim, bonuses
from .errors import ScopaError, reason
from .fifteen import opening_scope, opening_taker
from .rules import Rules
from .shuffle import SEED_HEX
from .state import GameState, Phase, Play, next_seat

_KEYS = ("rules", "seed", "deal_number", "dealer", "to_move", "round", "hands", "table", "stock", "piles",
         "scope", "last_capturer", "history", "match_scores", "deal_totals", "phase", "winner", "redeals")


def _whole(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


@overload
def _int(data: Mapping[str, Any], key: str, low: int, high: int, optional: Literal[False] = False,
         why: Any = None) -> int: ...
@overload
def _int(data: Mapping[str, Any], key: str, low: int, high: int, optional: bool = False,
         why: Any = None) -> int | None: ...
def _int(data: Mapping[str, Any], key: str, low: int, high: int, optional: bool = False,
         why: Any = None) -> int | None:
    """A whole number from ``low`` to ``high``; ``why`` replaces the reason that gives the range.

    Seats and sides are stored from 0, but players count them from 1: their reasons name how
    many there are ("one of the 2 seats"), never the stored range."""
    value = data[key]
    if value is None and optional:
        return None
    if not _whole(value, low, high):
        raise ScopaError(f"{key} must be a whole number from {low} to {high}.",
                         why or reason("number", field=key, low=low, high=high))
    whole: int = value
    return whole


@overload
def _seat(data: Mapping[str, Any], key: str, players: int, optional: Literal[False] = False) -> int: ...
@overload
def _seat(data: Mapping[str, Any], key: str, players: int, optional: bool = False) -> int | None: ...
def _seat(data: Mapping[str, Any], key: str, players: int, optional: bool = False) -> int | None:
    return _int(data, key, 0, players - 1, optional, reason("seat", where=key, count=players))


def _cards(value: Any, what: str, where: str, number: int | None = None) -> tuple[Card, ...]:
    """Cards written like "7D"; ``where`` (and ``number``) name the place for the reason."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ScopaError(f"{what} must be a list of cards such as \"7D\".",
                         reason("not_cards", where=where, number=number))
    try:
        return tuple(Card.parse(v) for v in value)
    except ValueError as error:
        raise ScopaError(f"{what}: {error}", reason("no_such_card", where=where, number=number)) from None


def _card_lists(value: Any, count: int, what: str, where: str) -> tuple[tuple[Card, ...], ...]:
    if not isinstance(value, list) or len(value) != count:
        raise ScopaError(f"{what} must be a list of {count}.", reason(f"{where}s_count", count=count))
    return tuple(_cards(v, f"{what} {i + 1}", where, i + 1) for i, v in enumerate(value))


def _int_list(value: Any, count: int, what: str, why: Any) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) != count or not all(_whole(v, 0, 1000) for v in value):
        raise ScopaError(f"{what} must be a list of {count} whole numbers.", why)
    return tuple(value)


def _play(item: Any, players: int, number: int) -> Play:
    """Play ``number`` (from 1) of the deal's history."""
    if not isinstance(item, Mapping) or set(item) != {"seat", "card", "capture", "scopa"}:
        raise ScopaError("Each play in the history needs seat, card, capture and scopa.",
                         reason("play_fields", number=number))
    seat = _int(item, "seat", 0, players - 1, why=reason("play_seat", number=number, count=players))
    card = _cards([item["card"]], "A played card", "play_card", number)[0]
    if not isinstance(item["scopa"], bool):
        raise ScopaError("A play's scopa mark must be true or false.", reason("play_scopa", number=number))
    capture = _cards(item["capture"], "A capture", "play_capture", number)
    return Play(seat, card, tuple(sorted(capture)), item["scopa"])


def state_from_dict(data: Mapping[str, Any]) -> GameState:
    if not isinstance(data, Mapping):
        raise ScopaError("The game state must be a set of named fields.", reason("not_fields"))
    missing = [k for k in _KEYS if k not in data]
    if missing:
        raise ScopaError(f"The game state lacks the field {missing[0]!r}.",
                         reason("missing_field", field=missing[0]))
    try:
        rules = Rules.from_dict(data["rules"])
    except (TypeError, ValueError) as error:
        raise ScopaError(f"Rules: {error}", reason("rules")) from None
    n, sides = rules.players, rules.sides
    seed = data["seed"]
    if isinstance(seed, str) and len(seed) == SEED_HEX and all(c in "0123456789abcdef" for c in seed):
        seed = bytes.fromhex(seed)  # a shuffle 2 seed, written as 64 lowercase hex digits
    elif not isinstance(seed, int) or isinstance(seed, bool):
        raise ScopaError("seed must be a whole number or 64 hex digits.", reason("seed"))
    try:
        phase = Phase(data["phase"])
    except (ValueError, TypeError):
        raise ScopaError("phase must be playing, deal_over or match_over.", reason("phase")) from None
    history = data["history"]
    if not isinstance(history, list):
        raise ScopaError("history must be a list of plays.", reason("history_list"))
    deal_totals = data["deal_totals"]
    if not isinstance(deal_totals, list):
        raise ScopaError("deal_totals must be a list.", reason("deal_totals_list"))
    state = GameState(
        rules=rules, seed=seed,
        deal_number=_int(data, "deal_number", 1, 10_000), dealer=_seat(data, "dealer", n),
        to_move=_seat(data, "to_move", n), round=_int(data, "round", 1, rules.rounds),
        hands=_card_lists(data["hands"], n, "Hand", "hand"), table=_cards(data["table"], "The table", "table"),
        stock=_cards(data["stock"], "The stock", "stock"), piles=_card_lists(data["piles"], sides, "Pile", "pile"),
        scope=_int_list(data["scope"], sides, "scope", reason("numbers", field="scope", count=sides)),
        last_capturer=_seat(data, "last_capturer", n, optional=True),
        history=tuple(_play(p, n, i) for i, p in enumerate(history, 1)),
        match_scores=_int_list(data["match_scores"], sides, "match_scores",
                               reason("numbers", field="match_scores", count=sides)),
        deal_totals=tuple(_int_list(t, sides, "Each deal total", reason("deal_total", number=i, count=sides))
                          for i, t in enumerate(deal_totals, 1)),
        phase=phase, winner=_int(data, "winner", 0, sides - 1, optional=True, why=reason("winner", count=sides)),
        redeals=_int(data, "redeals", 0, 1000),
        claims=_claims(data.get("claims", []), n, rules.rounds),  # older files have none
    )
    check_invariants(state)
    check_history(state)
    check_claims(state)
    return state


def _claims(value: Any, players: int, rounds: int) -> tuple[Claim, ...]:
    """Cirulla's claims of the deal: seat, round, kind and the three cards shown."""
    if not isinstance(value, list) or len(value) > players * rounds:
        raise ScopaError("claims must be a list of claimed hands.", reason("claim_wrong", number=1))
    claims = []
    for number, item in enumerate(value, 1):
        wrong = ScopaError(f"Claim {number} is not a claimed hand.", reason("claim_wrong", number=number))
        if not isinstance(item, Mapping) or set(item) != {"seat", "round", "kind", "cards"}:
            raise wrong
        if not _whole(item["seat"], 0, players - 1) or not _whole(item["round"], 1, rounds):
            raise wrong
        if item["kind"] not in BONUS_KINDS:
            raise wrong
        cards = _cards(item["cards"], "A claimed hand", "play_card", number)
        claims.append(Claim(item["seat"], item["round"], item["kind"], cards))
    return tuple(claims)


def check_claims(state: GameState) -> None:
    """Each claim is Cirulla's, once a seat and round, of a hand worth it that the seat held then.

    The hand shown is the seat's: the cards it still holds or has played since, this round."""
    seen: set[tuple[int, int]] = set()
    rules = state.rules
    for number, claim in enumerate(state.claims, 1):
        wrong = ScopaError(f"Claim {number} is not borne out by the hands and plays.",
                           reason("claim_wrong", number=number))
        if rules.variant.value != "cirulla" or (claim.seat, claim.round) in seen:
            raise wrong
        seen.add((claim.seat, claim.round))
        if claim.kind not in bonuses(claim.cards) or len(set(claim.cards)) != 3 or claim.round > state.round:
            raise wrong
        # The plays of that round: each round is players * hand_size plays, from the leader.
        size = rules.players * rules.hand_size
        plays = state.history[(claim.round - 1) * size:claim.round * size]
        played = {p.card for p in plays if p.seat == claim.seat}
        held = set(state.hands[claim.seat]) if claim.round == state.round else set()
        if set(claim.cards) != played | held:  # the hand shown is the one it played that round
            raise wrong


def check_invariants(state: GameState) -> None:
    """Raise ``ScopaError`` naming the first rule of consistency the state breaks."""
    rules, n = state.rules, state.rules.players
    everything: list[Card] = [c for h in state.hands for c in h] + list(state.table) + list(state.stock)
    everything += [c for p in state.piles for c in p]
    if len(everything) != 40 or len(set(everything)) != 40:
        dupes = len(everything) - len(set(everything))
        raise ScopaError(f"The cards do not make one 40-card pack: {len(set(everything))} distinct cards"
                         + (f", {dupes} repeated." if dupes else "."),
                         reason("pack_repeated") if dupes else reason("pack_count", total=len(everything)))
    size, table_size = rules.hand_size, rules.table_size
    expected_stock = 40 - table_size - state.round * n * size
    if len(state.stock) != expected_stock:
        raise ScopaError(f"The stock should hold {expected_stock} cards in round {state.round}, "
                         f"not {len(state.stock)}.",
                         reason("stock_size", round=state.round, expected=expected_stock, actual=len(state.stock)))
    in_hands = sum(len(h) for h in state.hands)
    plays_this_round = n * size - in_hands
    expected_plays = (state.round - 1) * n * size + plays_this_round
    if len(state.history) != expected_plays:
        raise ScopaError(f"The history should list {expected_plays} plays, not {len(state.history)}.",
                         reason("history_length", expected=expected_plays, actual=len(state.history)))
    _check_hands(state, plays_this_round)
    _check_history(state)
    if state.phase is Phase.PLAYING:
        if in_hands == 0:
            raise ScopaError("Every hand is empty, yet the deal is marked as still being played.",
                             reason("playing_no_cards"))
        if state.winner is not None:
            raise ScopaError("A winner is recorded while the deal is still being played.",
                             reason("winner_while_playing"))
    else:
        if in_hands or state.stock:
            raise ScopaError("The deal is marked over, yet cards are still in hand or in the stock.",
                             reason("over_with_cards"))
        if state.table and state.last_capturer is not None:
            raise ScopaError("The deal is over, yet leftovers were not given to the last capture.",
                             reason("leftovers"))
    if len(state.deal_totals) != state.deal_number - (1 if state.phase is Phase.PLAYING else 0):
        raise ScopaError("The list of deal results does not match the deal number.", reason("deal_results_count"))
    sums = tuple(sum(t[i] for t in state.deal_totals) for i in range(rules.sides))
    if sums != state.match_scores:
        raise ScopaError("The match scores are not the sum of the deal results.", reason("scores_sum"))


def _check_hands(state: GameState, plays_this_round: int) -> None:
    n, size = state.rules.players, state.rules.hand_size
    seat = state.leader
    for position in range(n):
        played = max(0, (plays_this_round - position + n - 1) // n)
        if len(state.hands[seat]) != size - played:
            raise ScopaError(f"Seat {seat + 1} should hold {size - played} cards, not {len(state.hands[seat])}.",
                             reason("hand_size", seat=seat + 1, expected=size - played,
                                    actual=len(state.hands[seat])))
        seat = next_seat(seat, n)
    if state.phase is Phase.PLAYING:
        expected = state.leader
        for _ in range(plays_this_round % n):
            expected = next_seat(expected, n)
        if state.to_move != expected:
            raise ScopaError(f"It should be seat {expected + 1} to move, not seat {state.to_move + 1}.",
                             reason("to_move", expected=expected + 1, actual=state.to_move + 1))


def _check_history(state: GameState) -> None:
    seat = state.leader
    placed: set[Card] = set(state.table) | {c for p in state.piles for c in p}
    for play in state.history:
        if play.seat != seat:
            raise ScopaError("The history does not follow the order of play.", reason("history_order"))
        if play.card not in placed or not set(play.capture) <= placed:
            raise ScopaError(f"The history plays {play.card}, which is neither on the table nor in a pile.",
                             reason("history_card", card=play.card))
        seat = next_seat(seat, state.rules.players)
    if state.last_capturer is None and any(p.capture for p in state.history):
        raise ScopaError("The history has captures but no last capture is recorded.", reason("no_last_capture"))


def first_table(table: Sequence[Card], piles: Sequence[Sequence[Card]], history: Sequence[Play]) -> set[Card]:
    """The cards that lay on the table when the deal began: on the table or in a pile, never played.

    Everything it reads is public, so a seat's view may ask it as well as the engine.
    """
    cards = set(table)
    for pile in piles:
        cards.update(pile)
    for play in history:
        cards.discard(play.card)
    return cards


def check_history(state: GameState) -> None:
    """Replay this deal's plays from its first table: captures, piles, scope and the last capture must agree.

    The first table is every card on the table or in a pile that no play put down. A save
    edited by hand could otherwise claim a scopa, or a pile, that the plays never made.
    ``state_from_dict`` runs it on every loaded state; the lessons' prepared positions, whose
    earlier rounds are only placeholders, need only ``check_invariants``.
    """
    rules = state.rules
    table = sorted(first_table(state.table, state.piles, state.history))
    if len(table) != rules.table_size:
        raise ScopaError(f"The plays in the history leave {len(table)} cards for the first table, "
                         f"not {rules.table_size}.", reason("first_table", count=len(table), expected=rules.table_size))
    piles: list[list[Card]] = [[] for _ in range(rules.sides)]
    scope = [0] * rules.sides
    plays_in_deal = 40 - rules.table_size
    last_capturer = None
    taken = opening_scope(table, rules)
    if taken:  # Scopa a 15 and Cirulla: a first table of 15 or 30 went to the dealer (or the leader)
        taker = opening_taker(rules, state.dealer)
        piles[rules.side_of(taker)] += table
        scope[rules.side_of(taker)] += taken
        table, last_capturer = [], taker
    for index, play in enumerate(state.history):
        side = rules.side_of(play.seat)
        scopa = False
        if play.capture:
            if tuple(sorted(play.capture)) not in legal_captures(play.card, tuple(table), rules):
                raise ScopaError(f"Play {index + 1} of the history is not a legal capture.",
                                 reason("play_not_legal", number=index + 1))
            table = [c for c in table if c not in play.capture]
            piles[side] += [*play.capture, play.card]
            last_capturer = play.seat
            scopa = (not table and index != plays_in_deal - 1
                     and is_sweep_capture(play.card, play.capture, rules))
            scope[side] += scopa
        else:
            if legal_captures(play.card, tuple(table), rules):
                raise ScopaError(f"Play {index + 1} of the history leaves a card that had to capture.",
                                 reason("play_had_to_capture", number=index + 1))
            table.append(play.card)
        if play.scopa != scopa:
            raise ScopaError(f"Play {index + 1} of the history marks a scopa wrongly.",
                             reason("play_scopa_wrong", number=index + 1))
    if last_capturer != state.last_capturer:
        raise ScopaError("The last capture recorded is not the last capture in the history.",
                         reason("last_capture_differs"))
    if state.phase is not Phase.PLAYING and last_capturer is not None:
        piles[rules.side_of(last_capturer)] += table
        table = []
    if sorted(table) != sorted(state.table):
        raise ScopaError("The table does not match the plays in the history.", reason("table_differs"))
    if [sorted(p) for p in piles] != [sorted(p) for p in state.piles]:
        raise ScopaError("The capture piles do not match the plays in the history.", reason("piles_differ"))
    if tuple(scope) != tuple(state.scope):
        raise ScopaError("The scope recorded do not match the sweeps in the history.", reason("scope_differ"))


def all_cards_accounted(states: Sequence[GameState]) -> bool:
    """True when every state holds each of the 40 cards exactly once (for tests and benchmarks)."""
    try:
        for state in states:
            check_invariants(state)
    except ScopaError:
        return False
    return True
