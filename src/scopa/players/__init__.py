"""Computer opponents: five levels that see only their own seat.

    >>> from scopa.engine import Rules, new_deal
    >>> from scopa.players import make_player
    >>> state, _ = new_deal(Rules(target=None), seed=3)
    >>> player = make_player("hard", seed=1)
    >>> move = player.choose_move(state.view(state.to_move))
    >>> move in state.legal_moves()
    True

Every level is given ``state.view(seat)`` (a ``PlayerView``), never the game state: it knows
its own hand, the table, what every side has captured, the plays of the deal and how many
cards each hand and the stock hold, as a player at a real table would. ``choose_move``
refuses anything else.
"""
from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from scopa.engine import Move, PlayerView

from .expert import DEFAULT_BUDGET, ExpertPlayer
from .heuristic import BeginnerPlayer, EasyPlayer, HardPlayer, MediumPlayer
from .hints import card_name, reason_text, suggest_move

__all__ = [
    "COMPUTER_NAMES", "DEFAULT_BUDGET", "LEVELS", "LEVEL_DESCRIPTIONS", "ComputerPlayer", "card_name",
    "computer_names", "make_player", "reason_text", "suggest_move",
]

LEVELS: tuple[str, ...] = ("beginner", "easy", "medium", "hard", "expert")

LEVEL_DESCRIPTIONS: dict[str, str] = {
    "beginner": "Beginner plays any card it is allowed to, at random. Good for learning the rules.",
    "easy": "Easy always takes cards when it can, and goes for the settebello, coins and sweeps.",
    "medium": "Medium also values sevens and sixes for the primiera, and avoids leaving a table "
              "you can sweep.",
    "hard": "Hard counts the cards already seen, weighs what you could take next, plans with its "
            "whole hand, and plays for its partner when four play.",
    "expert": "Expert thinks ahead: it tries many possible deals of the cards it cannot see and "
              "picks the move that does best. It takes about a second to move.",
}

COMPUTER_NAMES: tuple[str, ...] = ("Robin", "Giulia", "Marco", "Nina", "Paolo", "Sofia", "Luca", "Felix",
                                   "Greta", "Elena", "Bruno", "Rosa")


@runtime_checkable
class ComputerPlayer(Protocol):
    """A computer seat: it picks one of ``view.legal_moves()`` from its own view only."""

    level: str

    def choose_move(self, view: PlayerView) -> Move:
        """The move this seat plays; ``view`` must be its own ``PlayerView`` with the seat to move."""
        ...


_CLASSES = {"beginner": BeginnerPlayer, "easy": EasyPlayer, "medium": MediumPlayer, "hard": HardPlayer}


def make_player(level: str, seed: int = 0, *, budget: float = DEFAULT_BUDGET, iterations: int | None = None
                ) -> ComputerPlayer:
    """A computer player of this level, deterministic for a seed.

    ``budget`` is the expert's thinking time per move in seconds; ``iterations``, when set,
    replaces the time budget with a fixed number of sampled deals (deterministic, for tests).
    Other levels are fast and ignore both. An unknown level raises ``ValueError``.
    """
    name = str(level).strip().lower()
    if name == "expert":
        return ExpertPlayer(seed, budget=budget, iterations=iterations)
    if name not in _CLASSES:
        raise ValueError(f"Unknown computer level {level!r}: choose {', '.join(LEVELS)}.")
    return _CLASSES[name](seed)


def computer_names(count: int, seed: int = 0) -> list[str]:
    """``count`` distinct, short, easy-to-hear names for computer seats, picked by ``seed``."""
    if not 0 <= count <= len(COMPUTER_NAMES):
        raise ValueError(f"There are names for up to {len(COMPUTER_NAMES)} computer seats, not {count}.")
    names = list(COMPUTER_NAMES)
    random.Random(seed).shuffle(names)
    return names[:count]
