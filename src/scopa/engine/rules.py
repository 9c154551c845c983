"""The rules object: every option of ``docs/rules.md`` as one frozen value."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from functools import cached_property
from typing import Any

from .errors import RulesError, reason

TARGETS = (11, 16, 21)


class Variant(StrEnum):
    """Which game: scopa (2, 3 or 4 players) or one of the two scopone deals (4 players)."""

    SCOPA = "scopa"
    SCOPONE_SCIENTIFICO = "scopone_scientifico"
    SCOPONE_CLASSICO = "scopone_classico"


def _is_int(value: Any) -> bool:
    """A whole number, not a bool and not a float such as 3.0 (which breaks range() later)."""
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Rules:
    """Every rule option, with the defaults of ``docs/rules.md``.

    ``target`` is the match target (11, 16 or 21), or ``None`` for a single deal.
    Invalid combinations raise ``RulesError`` when the object is made.
    """

    players: int = 2
    variant: Variant = Variant.SCOPA
    target: int | None = 11
    kings_redeal: bool = True
    faces_match_only: bool = False
    most_cards: bool = False
    napola: bool = False
    re_bello: bool = False
    asso_piglia_tutto: bool = False
    capture_mode: int = field(init=False, repr=False, compare=False, default=0)

    def __post_init__(self) -> None:
        variant: object = self.variant  # anything may come from a file or a flag, whatever the annotation says
        if not isinstance(variant, Variant):
            known = {v.value: v for v in Variant}
            if not isinstance(variant, str) or variant not in known:
                names = ", ".join(known)
                raise RulesError(f"Unknown variant {variant!r}: choose {names}.", reason("unknown_variant"))
            object.__setattr__(self, "variant", known[variant])
        if not _is_int(self.players) or self.players not in (2, 3, 4):
            raise RulesError(f"Scopa is played by 2, 3 or 4 players, not {self.players!r}.", reason("players"))
        if self.variant is not Variant.SCOPA and self.players != 4:
            raise RulesError("Scopone is a four-player game: set players to 4.", reason("scopone_players"))
        if self.target is not None and (not _is_int(self.target) or self.target not in TARGETS):
            raise RulesError(f"The match target is 11, 16 or 21 points, or a single deal; not {self.target!r}.",
                            reason("target"))
        for f in fields(self):
            if f.type == "bool" and not isinstance(getattr(self, f.name), bool):
                raise RulesError(f"The option {f.name} is on or off (true or false).", reason("on_off", option=f.name))
        # A small number naming the options that change captures: a cheap cache key.
        mode = self.faces_match_only | self.most_cards << 1 | self.asso_piglia_tutto << 2
        object.__setattr__(self, "capture_mode", mode)

    # Derived shape of a deal -------------------------------------------------
    # Cached: every deal reads them, and a cached_property is then a plain attribute.
    @cached_property
    def hand_size(self) -> int:
        return {Variant.SCOPA: 3, Variant.SCOPONE_SCIENTIFICO: 10, Variant.SCOPONE_CLASSICO: 9}[self.variant]

    @cached_property
    def table_size(self) -> int:
        return 0 if self.variant is Variant.SCOPONE_SCIENTIFICO else 4

    @cached_property
    def sides(self) -> int:
        """Number of scoring sides: partnerships pool their captures in four-player games."""
        return 2 if self.players == 4 else self.players

    @cached_property
    def rounds(self) -> int:
        """How many times hands are dealt in one deal."""
        return (40 - self.table_size) // (self.players * self.hand_size)

    @property
    def single_deal(self) -> bool:
        return self.target is None

    def side_of(self, seat: int) -> int:
        """The side (pile) a seat plays for: partners sit opposite in four-player games."""
        return seat % 2 if self.players == 4 else seat

    # Factories and serialisation -------------------------------------------
    @classmethod
    def scopone_scientifico(cls, **options: Any) -> Rules:
        """Scopone scientifico: 4 players, 10 cards each, empty table, target 21."""
        defaults: dict[str, Any] = {"players": 4, "variant": Variant.SCOPONE_SCIENTIFICO, "target": 21}
        return cls(**(defaults | options))

    @classmethod
    def scopone_classico(cls, **options: Any) -> Rules:
        """Scopone classico: 4 players, 9 cards each, 4 on the table, target 21."""
        defaults: dict[str, Any] = {"players": 4, "variant": Variant.SCOPONE_CLASSICO, "target": 21}
        return cls(**(defaults | options))

    def with_options(self, **options: Any) -> Rules:
        return replace(self, **options)

    def to_dict(self) -> dict[str, Any]:
        # Field by field rather than ``asdict`` (which deep-copies): the room server writes the
        # rules into every view it sends, and asdict made up a tenth of a move's cost there.
        data = {name: getattr(self, name) for name in _OPTION_NAMES}
        data["variant"] = self.variant.value
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        if not isinstance(data, Mapping):
            raise RulesError("The rules must be a set of named options.", reason("rules_not_options"))
        known = {f.name for f in fields(cls) if f.init}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RulesError(f"Unknown rule option {unknown[0]!r}.", reason("unknown_option"))
        return cls(**dict(data))

    def enabled_options(self) -> tuple[str, ...]:
        """Names of the house-rule options that are on, in a fixed order."""
        names = ("kings_redeal", "faces_match_only", "most_cards", "napola", "re_bello", "asso_piglia_tutto")
        return tuple(name for name in names if getattr(self, name))


_OPTION_NAMES = tuple(f.name for f in fields(Rules) if f.init)
