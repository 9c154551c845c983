"""The Statistics page, the list of recent matches, achievements and the coach, in words.

Pure: facts in, lines out, in the language of a ``RecordText``.
"""
from __future__ import annotations

from collections.abc import Sequence

from ..narration import CardNames
from ..players import LEVELS
from .achievements import ACHIEVEMENTS, Earned
from .coach import Advice
from .stats import MIXED, PEOPLE, MatchFacts, Totals, grouped, totals
from .text import RecordText

RECENT = 10  # matches in the history
LEVEL_ORDER = (*LEVELS, PEOPLE, MIXED)
VARIANT_ORDER = ("scopa_2", "scopa_3", "scopa_4", "scopone_scientifico", "scopone_classico", "scopa_15", "cirulla")


def stats_lines(facts: Sequence[MatchFacts], logged: int, earned: Sequence[Earned], t: RecordText) -> list[str]:
    """The whole Statistics page, one fact a line, the most important first.

    ``logged`` counts every match in the log, ``facts`` those it could replay."""
    fair = [m for m in facts if not m.assisted]
    helped = [m for m in facts if m.assisted]
    overall = totals(fair)
    lines = [t.plural("stats.played", logged, won=sum(m.won for m in facts))]
    if helped:
        lines.append(t.plural("stats.assisted_apart", len(helped)))
    if logged > len(facts):
        lines.append(t.plural("stats.no_details", logged - len(facts)))
    if fair:
        lines.append(t("stats.streak", streak=overall.best_streak))
        if len(grouped(fair, "level")) > 1:  # else the one level's lines say it all
            lines += _group_lines(t("stats.group.all"), overall, t)
    for key, order, prefix in (("level", LEVEL_ORDER, "stats.level"), ("variant", VARIANT_ORDER, "stats.variant")):
        groups = grouped(fair, key)
        if len(groups) > 1 or key == "level":  # one variant only: the levels' lines cover it
            for name in order:
                if name in groups:
                    lines += _group_lines(t(f"{prefix}.{name}"), totals(groups[name]), t)
    if helped:
        lines += _group_lines(t("stats.group.assisted"), totals(helped), t)
    lines += achievement_lines(earned, t)
    if facts:
        lines.append(t("stats.recent"))
        lines += [f"{n}, {item}" for n, item in enumerate(history_items(facts, t), 1)]
    return lines


def _group_lines(name: str, group: Totals, t: RecordText) -> list[str]:
    """A group's heading, then one line each: matches, per deal, the shares of deals."""
    lines = [t("stats.group.heading", group=name),
             t.plural("stats.group.matches", group.played, won=group.won, streak=group.best_streak)]
    if group.deals:
        lines.append(t("stats.group.per_deal", points=t.decimal(group.per_deal(group.points)),
                       scope=t.decimal(group.per_deal(group.scope))))
        lines.append(t("stats.group.shares", settebello=group.share(group.settebello),
                       coins=group.share(group.coins), primiera=group.share(group.primiera)))
    return lines


def achievement_lines(earned: Sequence[Earned], t: RecordText) -> list[str]:
    if not earned:
        return [t("stats.achievements.none", total=len(ACHIEVEMENTS))]
    lines = [t("stats.achievements", n=len(earned), total=len(ACHIEVEMENTS))]
    lines += [t("stats.achievement", name=t(f"achievement.{e.key}"), date=t.date(e.when)) for e in earned]
    return lines


def announcement(earned: Earned, t: RecordText) -> str:
    """The one line said when an achievement is earned."""
    return t("achievement.earned", name=t(f"achievement.{earned.key}"))


def recent(facts: Sequence[MatchFacts]) -> list[MatchFacts]:
    """The latest matches first, at most ``RECENT``."""
    return list(reversed(facts))[:RECENT]


def history_items(facts: Sequence[MatchFacts], t: RecordText) -> list[str]:
    """One item per recent match: when, against whom, the final score and how it ended."""
    return [match_item(m, t) for m in recent(facts)]


def match_item(match: MatchFacts, t: RecordText) -> str:
    outcome = t("history.drawn" if match.drawn else "history.won" if match.won else "history.lost")
    item = t("history.item", date=t.date(match.when), names=CardNames(t).join(match.opponents),
             score=t("history.to").join(str(s) for s in match.scores), outcome=outcome)
    return f"{item} {t('history.assisted')}" if match.assisted else item


def advice_line(advice: Advice, cards: CardNames, t: RecordText, fifteen: bool = False) -> str:
    """One sentence (or two) saying what the expert would have played and why.

    ``fifteen``: a game that captures by making fifteen (scopa a 15, cirulla), said of such a capture."""
    better = advice.better
    if better is None:
        return t("coach.same")
    if better.capture:
        makes = fifteen and better.card.value + sum(c.value for c in better.capture) == 15
        action = t("coach.better.take.fifteen" if makes else "coach.better.take",
                   cards=cards.list(better.capture, article=True), card=cards.the(better.card, "your"))
    else:
        action = t("coach.better.play", card=cards.the(better.card))
    why = t(f"coach.why.{advice.reason}", points=t.decimal(advice.cost), card=cards.the(advice.played.card))
    return f"{action} {why}"
