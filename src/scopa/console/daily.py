"""The daily deal at the console (``scopa daily`` and "daily deal" in "play online"; docs/online.md).

The day's deals are played one after the other against the expert, each a room of one deal the
server begins at once. Then the day's board is read as the leaderboard is, one line a player,
rank first ("1st, Ann, 3 over par."), then the player's own place and their best and worst deal
against par. Before the day's deals, any earlier day this player heard and whose seed the
server now reveals is checked: its commitment, and each deal's ("Daily deal of 2026-12-04
checked, fair.").

Each deal is asked for with the day the run plays, and a server whose day has changed since
(midnight UTC passed during the run) refuses it: that day's seed is revealed, so its deals are
closed. The run then says so ("New day. ...") and goes on with the new day from its first deal the
player has not played; the summary says each day on its own, named, never a sum over two days.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .leaderboard import place

if TYPE_CHECKING:
    import ssl

    from ..narration import Messages
    from ..net.protocol.server_messages import DailyAnswer
    from .online import OnlineProgram, OnlineRequest


def par_words(score: int, m: Messages) -> str:
    """A duplicate score as said: "3 over par", "1 under par", "level with par"."""
    if score > 0:
        return m("daily.over", n=score)
    if score < 0:
        return m("daily.under", n=-score)
    return m("daily.level")


def result_lines(answer: DailyAnswer, m: Messages) -> list[str]:
    """What the player hears after the day's deals: their score (practice said so), the board
    one player a line, their place, their best and worst deal against par. A day that has ended
    (its seed revealed: midnight passed during its last deal) is named, not called today."""
    ended = answer.seed is not None
    lines = []
    if answer.played:
        total = par_words(sum(p.score for p in answer.played), m)
        practice = all(p.practice for p in answer.played)
        key = "daily.practice" if practice else "daily.score"
        lines.append(m(f"{key}_on", day=answer.day, score=total) if ended else m(key, score=total))
    rows = [m("daily.row", rank=place(r.rank, m.lang), name=r.name, score=par_words(r.score, m)) for r in answer.rows]
    lines += rows or [m("daily.empty_on", day=answer.day) if ended else m("daily.empty")]
    you = answer.you
    if you is not None:
        lines.append(m("daily.you", rank=place(you.rank, m.lang), of=you.of, score=par_words(you.score, m)))
        if len(you.deals) > 1:
            best = max(range(len(you.deals)), key=lambda i: (you.deals[i], -i))
            worst = min(range(len(you.deals)), key=lambda i: (you.deals[i], i))
            lines.append(m("daily.best_worst", best=par_words(you.deals[best], m), best_deal=best + 1,
                           worst=par_words(you.deals[worst], m), worst_deal=worst + 1))
    return lines


def deal_par_lines(answer: object, deal: int, m: Messages) -> list[str]:
    """After each of the day's deals, how it went against par ("Deal 1, 2 over par."): par was
    said only at the very end of the day (issue 38). Nothing when the server could not say."""
    from ..net.protocol.server_messages import DailyAnswer
    if not isinstance(answer, DailyAnswer):
        return []
    played = [p for p in answer.played if p.deal == deal]
    if not played:
        return []
    key = "daily.deal_par.practice" if played[-1].practice else "daily.deal_par"
    return [m(key, n=deal, score=par_words(played[-1].score, m))]


def past_day_lines(answer: DailyAnswer, m: Messages) -> list[str]:
    """An earlier day of this run, whose deals closed at midnight before the run had played them
    all, named: the player's place when they finished it before, else the deals they played of it
    and their score in those (not on its board)."""
    you = answer.you
    if you is not None:
        return [m("daily.day_you", day=answer.day, rank=place(you.rank, m.lang), of=you.of,
                  score=par_words(you.score, m))]
    if not answer.played:
        return []
    return [m("daily.day_unfinished", day=answer.day, played=len(answer.played), deals=answer.deals,
              score=par_words(sum(p.score for p in answer.played), m))]


def check_past_days(program: OnlineProgram, server: str, data_dir: Path, today: str,
                    tls: ssl.SSLContext | None = None) -> None:
    """Check each earlier day heard on ``server`` whose seed is now revealed; say each verdict once."""
    from ..net.client.board import fetch_daily
    from ..net.protocol.daily_seeds import day_checks
    from ..storage.daily_heard import forget_day, heard_days
    for day, (heard, deals) in sorted(heard_days(data_dir, server).items()):
        if day >= today:
            continue
        answer = fetch_daily(server, day, None, tls)
        seed = getattr(answer, "seed", None)
        if seed is None:
            continue  # not told now (the server could not say): checked next time
        fair = day_checks(seed, heard, deals)
        program.say(program.m("daily.checked" if fair else "daily.unfair", day=day))
        forget_day(data_dir, server, day)


def play_daily(program: OnlineProgram, request: OnlineRequest) -> int:
    """The day's deals against the expert, then the day's board; an exit code."""
    from dataclasses import replace

    from ..net.client.board import fetch_daily
    from ..net.client.client import TableClosed
    from ..net.protocol.server_messages import DailyAnswer
    from ..storage import resolve_data_dir
    from ..storage.daily_heard import remember_day
    from .online import board_problem_line, play_room, player_key, problem_line, server_address
    m = program.messages
    server = server_address(request.server)
    data_dir = resolve_data_dir(program.persistence.data_dir)
    key = player_key(program)
    program.say(m("online.connecting"))
    day = fetch_daily(server, None, key, request.tls)
    if not isinstance(day, DailyAnswer):  # a server before the daily deal does not know the request
        program.say(m("daily.unsupported") if day.code == "unknown_type"
                    else board_problem_line(day.code, day.values, m, server))
        return 1
    program.remember_server(server)
    check_past_days(program, server, data_dir, day.day, request.tls)
    if day.commitment is not None:
        remember_day(data_dir, server, day.day, day.commitment)
    played_before = {p.deal for p in day.played}
    program.say(m.plural("daily.opening", day.deals),
                *([m("daily.practice_ahead")] if len(played_before) == day.deals else []))
    days = [day.day]  # the days this run played deals of, in order
    deal, send_day = 1, True
    while deal <= day.deals:
        try:
            code, outcome = play_room(program, replace(request, mode="daily", server=server, deal=deal,
                                                       deals=day.deals, day=day.day, send_day=send_day),
                                      passed_up=("not_today", "unknown_field"))
        except TableClosed as closed:
            problem = closed.problem
            if problem.code == "unknown_field" and problem.values.get("field") == "day" and send_day:
                send_day = False  # a server before the day was named: today's deal, whichever day it is
                continue
            now = fetch_daily(server, None, key, request.tls) if problem.code == "not_today" else None
            if not isinstance(now, DailyAnswer) or now.day <= day.day:  # not a new day (or not told)
                program.say(problem_line(problem.code, problem.values, m, server))
                return 1
            day = now
            days.append(day.day)
            if day.commitment is not None:
                remember_day(data_dir, server, day.day, day.commitment)
            done = {p.deal for p in day.played}
            deal = next((n for n in range(1, day.deals + 1) if n not in done), 1)
            program.say(m("daily.new_day", deal=deal),
                        *([m("daily.practice_ahead")] if len(done) == day.deals else []))
            check_past_days(program, server, data_dir, day.day, request.tls)  # the day just closed is revealed
            continue
        if outcome != "finished":
            return code
        program.say(*deal_par_lines(fetch_daily(server, day.day, key, request.tls), deal, m))
        deal += 1
    for earlier in days[:-1]:  # each day on its own, named: never a sum over two days
        past = fetch_daily(server, earlier, key, request.tls)
        if isinstance(past, DailyAnswer):
            program.say(*past_day_lines(past, m))
    after = fetch_daily(server, day.day, key, request.tls)
    if not isinstance(after, DailyAnswer):
        program.say(board_problem_line(after.code, after.values, m, server))
        return 1
    program.say(*result_lines(after, m))
    return 0


def daily_for(program: OnlineProgram, server: str, name: str) -> int | None:
    from .online import OnlineRequest
    play_daily(program, OnlineRequest("daily", server, name))
    return None
