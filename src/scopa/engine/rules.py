"""The rules object: every option of ``docs/rules.md`` as one frozen value."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from functools import cached_property
from typing import Any

from .errors import RulesError, reason

TARGETS = (11, 16, 21)
CIRULLA_TARGET = 51  # Cirulla's only target (docs/rules.md): its bonuses make a deal worth far more


class Variant(StrEnum):
    """Which game: scopa, scopa a 15 or cirulla (2, 3 or 4 players), or a scopone deal (4 players)."""

    SCOPA = "scopa"
    SCOPONE_SCIENTIFICO = "scopone_scientifico"
    SCOPONE_CLASSICO = "scopone_classico"
    SCOPA_15 = "scopa_15"
    CIRULLA = "cirulla"


SCOPONE = (Variant.SCOPONE_SCIENTIFICO, Variant.SCOPONE_CLASSICO)
FIFTEEN = (Variant.SCOPA_15, Variant.CIRULLA)  # the games that capture by making fifteen
# Scopa's capture options: the fifteen games have capture rules of their own.
SCOPA_CAPTURE_OPTIONS = ("faces_match_only", "most_cards", "asso_piglia_tutto")
# Cirulla's own options (docs/rules.md, "Cirulla" and "Rule options"): refused with any other game.
CIRULLA_OPTIONS = ("grande_piccola", "ace_scopa", "matta_table", "table_nine", "cappotto")
# Scopa a 15's own options: who takes a first table of fifteen, and when thirty is two scopas.
SCOPA_15_OPTIONS = ("opening_to_leader", "opening_pairs")
# Options added after the first rules records: ``to_dict`` names them only when on, so every rule set
# that could be made before them is written exactly as before (saves, rooms, the protocol), and data
# without them reads them as off, the game those records were played under.
LATER_OPTIONS = (*CIRULLA_OPTIONS, *SCOPA_15_OPTIONS)
# Every on-off option, in the order menus and summaries list them.
ALL_OPTIONS = ("kings_redeal", "faces_match_only", "most_cards", "napola", "re_bello", "asso_piglia_tutto",
               *CIRULLA_OPTIONS, *SCOPA_15_OPTIONS, "win_by_two", "a_perdere")


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
    win_by_two: bool = False
    a_perdere: bool = False
    grande_piccola: bool = False  # Cirulla: J-Q-K of coins 5 points, A-2-3 of coins 3, each +1 a coin further
    ace_scopa: bool = False  # Cirulla: an ace taking the whole table scores a scopa
    matta_table: bool = False  # Cirulla: the matta among the first table cards counts as any value
    table_nine: bool = False  # Cirulla: a first table worth 9 or less goes to the dealer for three scopas
    cappotto: bool = False  # Cirulla: a side taking all ten coins in a deal wins the match
    opening_to_leader: bool = False  # Scopa a 15: a first table of fifteen goes to the leader, not the dealer
    opening_pairs: bool = False  # Scopa a 15: thirty is two scopas only as two pairs of fifteen
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
        if self.variant in SCOPONE and self.players != 4:
            raise RulesError("Scopone is a four-player game: set players to 4.", reason("scopone_players"))
        if self.variant is Variant.CIRULLA:
            if self.target is not None and (not _is_int(self.target) or self.target != CIRULLA_TARGET):
                raise RulesError(f"Cirulla is played to 51 points, or a single deal; not {self.target!r}.",
                                reason("cirulla_target"))
        elif self.target is not None and (not _is_int(self.target) or self.target not in TARGETS):
            raise RulesError(f"The match target is 11, 16 or 21 points, or a single deal; not {self.target!r}.",
                            reason("target"))
        for f in fields(self):
            if f.type == "bool" and not isinstance(getattr(self, f.name), bool):
                raise RulesError(f"The option {f.name} is on or off (true or false).", reason("on_off", option=f.name))
        _check_variant_options(self)
        # A small number naming the options that change captures: a cheap cache key.
        mode = (self.faces_match_only | self.most_cards << 1 | self.asso_piglia_tutto << 2
                | (self.variant is Variant.SCOPA_15) << 3 | (self.variant is Variant.CIRULLA) << 4)
        object.__setattr__(self, "capture_mode", mode)

    # Derived shape of a deal -------------------------------------------------
    # Cached: every deal reads them, and a cached_property is then a plain attribute.
    @cached_property
    def hand_size(self) -> int:
        return {Variant.SCOPONE_SCIENTIFICO: 10, Variant.SCOPONE_CLASSICO: 9}.get(self.variant, 3)

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

    @classmethod
    def scopa_15(cls, **options: Any) -> Rules:
        """Scopa a 15 (Escoba): a card takes what makes fifteen with it; Scopa's targets and scoring.

        As the Escoba pages play it: no kings redeal, and a first table of thirty is two scopas
        only when it is two pairs of fifteen (docs/rules.md, "Scopa a 15")."""
        base: dict[str, Any] = {"variant": Variant.SCOPA_15, "kings_redeal": False, "opening_pairs": True}
        return cls(**(base | options))

    @classmethod
    def cirulla(cls, **options: Any) -> Rules:
        """Cirulla: match, sum or fifteen, the ace takes all (a scopa), hand bonuses, grande and
        piccola; to 51, no kings redeal."""
        base: dict[str, Any] = {"variant": Variant.CIRULLA, "target": CIRULLA_TARGET, "kings_redeal": False,
                                "grande_piccola": True, "ace_scopa": True}
        return cls(**(base | options))

    @classmethod
    def for_variant(cls, variant: Variant | str, **options: Any) -> Rules:
        """The rules of a variant with that variant's own defaults (target, redeal), then ``options``."""
        try:
            known = Variant(variant)
        except ValueError:
            unknown: dict[str, Any] = {"variant": variant}
            return cls(**(unknown | options))  # refused by the checks, with their reason
        factory = {Variant.SCOPONE_SCIENTIFICO: cls.scopone_scientifico, Variant.SCOPONE_CLASSICO: cls.scopone_classico,
                   Variant.SCOPA_15: cls.scopa_15, Variant.CIRULLA: cls.cirulla}.get(known)
        return factory(**options) if factory else cls(variant=known, **options)

    @property
    def fifteen(self) -> bool:
        """A game that captures by making fifteen (scopa a 15, cirulla): the opening table rule too."""
        return self.variant in FIFTEEN

    def with_options(self, **options: Any) -> Rules:
        return replace(self, **options)

    def to_dict(self) -> dict[str, Any]:
        # Field by field rather than ``asdict`` (which deep-copies): the room server writes the
        # rules into every view it sends, and asdict made up a tenth of a move's cost there.
        data = {name: getattr(self, name) for name in _OPTION_NAMES}
        data["variant"] = self.variant.value
        for name in LATER_OPTIONS:  # named only when on: see LATER_OPTIONS
            if not data[name]:
                del data[name]
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

    def available_options(self) -> tuple[str, ...]:
        """The on-off options this variant and target can have, in the order menus list them.

        The fifteen games have their own captures (no Scopa capture options), Cirulla and Scopa a 15
        have options of their own, Cirulla's piccola takes the napola's place, a perdere is for
        Scopa and Scopa a 15, and win by two needs a target."""
        names: tuple[str, ...] = ALL_OPTIONS
        if self.variant in FIFTEEN:
            names = tuple(n for n in names if n not in SCOPA_CAPTURE_OPTIONS)
        if self.variant is not Variant.CIRULLA:
            names = tuple(n for n in names if n not in CIRULLA_OPTIONS)
        elif not self.napola:  # the piccola is Cirulla's napola: only a Cirulla of older records has napola
            names = tuple(n for n in names if n != "napola")
        if self.variant is not Variant.SCOPA_15:
            names = tuple(n for n in names if n not in SCOPA_15_OPTIONS)
        if self.variant not in (Variant.SCOPA, Variant.SCOPA_15):
            names = tuple(n for n in names if n != "a_perdere")
        if self.target is None:
            names = tuple(n for n in names if n != "win_by_two")
        return names

    def enabled_options(self) -> tuple[str, ...]:
        """Names of the house-rule options that are on, in a fixed order."""
        return tuple(name for name in ALL_OPTIONS if getattr(self, name))


def _check_variant_options(rules: Rules) -> None:
    """Options that only some variants have: Scopa's capture options, Cirulla's and Scopa a 15's
    own, napola beside the piccola, a perdere, win by two."""
    if rules.variant in FIFTEEN:
        for name in SCOPA_CAPTURE_OPTIONS:
            if getattr(rules, name):
                raise RulesError(f"The option {name} changes Scopa's captures; {rules.variant.value} has its own.",
                                reason("variant_option", option=name))
    for names, variant in ((CIRULLA_OPTIONS, Variant.CIRULLA), (SCOPA_15_OPTIONS, Variant.SCOPA_15)):
        for name in names:
            if getattr(rules, name) and rules.variant is not variant:
                raise RulesError(f"The option {name} is played with {variant.value} only.",
                                reason("variant_option", option=name))
    if rules.napola and rules.grande_piccola:
        raise RulesError("Cirulla's piccola scores the ace, two and three of coins: napola would count them twice.",
                        reason("variant_option", option="napola"))
    if rules.a_perdere and rules.variant not in (Variant.SCOPA, Variant.SCOPA_15):
        raise RulesError("Scopa a perdere is played with Scopa or Scopa a 15 rules only.",
                        reason("variant_option", option="a_perdere"))
    if rules.win_by_two and rules.target is None:
        raise RulesError("Win by two needs a match target: a single deal has no next deal to play.",
                        reason("win_by_two_single"))


_OPTION_NAMES = tuple(f.name for f in fields(Rules) if f.init)
