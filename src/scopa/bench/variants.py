"""Expert variants to measure against the expert itself, through the tournament's outside-player hook.

    python -m scopa.bench ai --a expert --b scopa.bench.variants:expert_without_inference --budget 0.1
    python -m scopa.bench ai --a expert --b scopa.bench.variants:expert_tenth_second --budget 1.0
    python -m scopa.bench ai --a expert --b scopa.bench.variants:expert_sample_by_sample --budget 1.0

Both seats meet the same duplicate deals, so the difference between the two is measured paired.
"""
from __future__ import annotations

from scopa.players.expert import ExpertPlayer


def expert_without_inference(seed: int = 0, budget: float = 1.0) -> ExpertPlayer:
    """The expert at the same budget with the reading of plays switched off (deals drawn, not weighed)."""
    return ExpertPlayer(seed, budget=budget, infer=False)


def expert_tenth_second(seed: int = 0) -> ExpertPlayer:
    """The expert at 0.1 s a move, whatever --budget says (to set against the expert at --budget)."""
    return ExpertPlayer(seed, budget=0.1)


def expert_sample_by_sample(seed: int = 0, budget: float = 1.0) -> ExpertPlayer:
    """The expert at the same budget searching each sampled deal on its own, as it did before its
    own later plays were chosen across samples (``scopa.players.infoset``)."""
    return ExpertPlayer(seed, budget=budget, information_sets=False)
