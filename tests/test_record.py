"""Issue 18: statistics from the results log, a review of a logged match, the coach, achievements."""
from __future__ import annotations

import json
import random
import re
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers.console import lines_of, program_for, request_for
from helpers.i18n import english_in, fields
from helpers.record import T, random_match
from scopa.config import Settings
from scopa.engine import SETTEBELLO, Phase, Rules
from scopa.match import MatchRecord, SeatSetup
from scopa.narration import Narrator
from scopa.record.achievements import ACHIEVEMENTS, DEAL_KEYS, earned
from scopa.record.coach import advise, coach_deal
from scopa.record.console import finish_match, run_review
from scopa.record.review import ReviewScript
from scopa.record.stats import all_facts, best_streak, totals
from scopa.record.text import RecordText, load_record_catalogue
from scopa.record.words import advice_line, stats_lines
from scopa.storage import load_results, record_result, result_of

VARIANTS = {
    "two": Rules(target=None),
    "three": Rules(players=3, target=None),
    "four": Rules(players=4, target=None),
    "scopone": Rules.scopone_scientifico(target=None),
    "eleven": Rules(),
}


def deal_ends(record: MatchRecord):
    """The engine's state at the end of every deal, replayed here from the move log."""
    state = MatchRecord.start(record.rules, record.seats, record.seed, record.first_dealer)[0].state
    ends = []
    for logged in record.moves:
        if state.is_deal_over:
            state = state.next_deal()[0]
        state = state.apply(logged.move)[0]
        if state.phase is not Phase.PLAYING:
            ends.append(state)
    return ends


def strictly_most(values, side) -> bool:
    return all(values[side] > v for i, v in enumerate(values) if i != side)


matches = st.lists(st.tuples(st.sampled_from(sorted(VARIANTS)), st.sampled_from(["easy", "hard"]),
                             st.integers(0, 10_000), st.integers(0, 100), st.booleans()), min_size=0, max_size=5)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(matches)
def test_statistics_sum_the_logged_matches(specs):
    records = [random_match(VARIANTS[v], level, seed, policy, assisted) for v, level, seed, policy, assisted in specs]
    results = [result_of(r, f"2026-01-{i + 1:02d}T10:00:00+00:00") for i, r in enumerate(records)]
    facts = all_facts(results)
    assert len(facts) == len(records)
    fair = [(r, f) for r, f in zip(records, facts, strict=True) if not r.assisted]
    sums = totals(f for _, f in fair)
    ends = [(r, end) for r, _ in fair for end in deal_ends(r)]
    assert sums.played == len(fair)
    assert sums.won == sum(r.state.winner == 0 for r, _ in fair)
    assert sums.deals == sum(r.state.deal_number for r, _ in fair) == len(ends)
    assert sums.points == sum(r.state.match_scores[0] for r, _ in fair)
    assert sums.scope == sum(end.scope[0] for _, end in ends)
    assert sums.settebello == sum(SETTEBELLO in end.piles[0] for _, end in ends)
    assert sums.coins == sum(strictly_most([sum(c.suit == 0 for c in p) for p in end.piles], 0) for _, end in ends)
    streak = run = 0
    for r, _ in fair:
        run = run + 1 if r.state.winner == 0 else 0
        streak = max(streak, run)
    assert sums.best_streak == streak
    lines = stats_lines(facts, len(results), earned(facts), T)
    assert lines[0] == T.plural("stats.played", len(records), won=sum(r.state.winner == 0 for r in records))
    helped = sum(r.assisted for r in records)
    assert (T.plural("stats.assisted_apart", helped) in lines) == bool(helped)
    by_index = {f.index: f for f in facts}
    for found in earned(facts):  # a match with help earns only what a deal played without help earned
        match = by_index[found.index]
        assert not match.assisted or (found.key in DEAL_KEYS and not all(d.assisted for d in match.deals))


def test_old_entries_without_the_match_still_load_and_count(tmp_path):
    record = random_match(Rules(), "easy", 4, 1)
    record_result(record, "2026-01-01T10:00:00+00:00", tmp_path)
    path = tmp_path / "results.json"
    data = json.loads(path.read_text())
    old = {k: v for k, v in data["results"][0].items() if k not in ("match", "online")}
    data["results"].insert(0, old)
    path.write_text(json.dumps(data))
    results = load_results(tmp_path)
    assert results[0].match is None and results[0].online is False
    facts = all_facts(results)
    assert len(facts) == 1 and facts[0].index == 1
    lines = stats_lines(facts, len(results), earned(facts), T)
    assert lines[0].startswith("2 matches played")
    assert T.plural("stats.no_details", 1) in lines


def test_best_streak_is_the_longest_run_of_wins():
    class M:
        def __init__(self, won):
            self.won = won
    assert best_streak([M(w) for w in (True, True, False, True, True, True, False)]) == 3
    assert best_streak([]) == 0


# Achievements -------------------------------------------------------------------------------

def scored_a_scopa(record: MatchRecord) -> bool:
    """Seat 0 itself swept the table at least once (told by the engine as the moves replay)."""
    state = MatchRecord.start(record.rules, record.seats, record.seed, record.first_dealer)[0].state
    for logged in record.moves:
        if state.is_deal_over:
            state = state.next_deal()[0]
        state = state.apply(logged.move)[0]
        if logged.seat == 0 and state.history and state.history[-1].scopa:
            return True
    return False


def test_achievements_come_from_the_first_fair_match_and_none_from_an_assisted_one():
    scopa = next(r for seed in range(300) if scored_a_scopa(r := random_match(Rules(target=None), "hard", seed, 1)))
    helped = replace(scopa, assisted_deals=frozenset({1}))
    assert earned(all_facts([result_of(helped, "2026-01-01T10:00:00+00:00")])) == []
    facts = all_facts([result_of(helped, "2026-01-01T10:00:00+00:00"), result_of(scopa, "2026-02-03T10:00:00+00:00"),
                       result_of(scopa, "2026-03-04T10:00:00+00:00")])
    found = earned(facts)
    assert "first_scopa" in [e.key for e in found]
    assert all(e.index == 1 and e.when.startswith("2026-02-03") for e in found)
    lines = stats_lines(facts, 3, found, T)
    assert T("stats.achievement", name=T("achievement.first_scopa"), date="3 February 2026") in lines
    assert T("stats.achievements", n=len(found), total=len(ACHIEVEMENTS)) in lines


def test_a_finished_match_announces_what_it_earned_once(tmp_path):
    program, out, _ = program_for(tmp_path, "")
    record = next(r for seed in range(200)
                  if (r := random_match(Rules(target=None), "easy", seed, 2)).state.winner == 0)
    finish_match(program, record)
    first = [line for line in lines_of(out) if line.startswith("Achievement earned.")]
    assert T("achievement.earned", name=T("achievement.beat_easy")) in first
    finish_match(program, record)  # the same match again: nothing new
    assert [line for line in lines_of(out) if line.startswith("Achievement earned.")] == first
    assert len(load_results(tmp_path / "data")) == 2


def test_a_deal_played_with_help_earns_nothing_and_the_deals_without_help_still_do():
    def scopa_deals(record):
        return [i for i, deal in enumerate(all_facts([result_of(record, "2026-01-01")])[0].deals, 1) if deal.own_scopa]
    record = next(r for seed in range(300) if (r := random_match(Rules(), "easy", seed, 1)).state.winner == 0
                  and 1 not in scopa_deals(r) and scopa_deals(r))
    helped = replace(record, assisted_deals=frozenset({1}))  # a hint in deal 1 only
    keys = [e.key for e in earned(all_facts([result_of(helped, "2026-01-01")]))]
    assert "first_scopa" in keys and "beat_easy" not in keys  # the match had help; its later deals did not
    everywhere = replace(record, assisted_deals=frozenset(range(1, record.state.deal_number + 1)))
    assert earned(all_facts([result_of(everywhere, "2026-01-01")])) == []


def test_an_imported_finished_match_says_all_it_earned_once_as_it_is_logged(tmp_path):
    record = next(r for seed in range(300) if (r := random_match(Rules(), "easy", seed, 2)).state.winner == 0
                  and any(d.own_scopa for d in all_facts([result_of(r, "2026-01-01")])[0].deals[:-1]))
    program, out, _ = program_for(tmp_path, "")
    program.run(imported=record)
    said = [line for line in lines_of(out) if line.startswith("Achievement earned.")]
    [facts] = all_facts(load_results(tmp_path / "data"))
    assert said == [T("achievement.earned", name=T(f"achievement.{e.key}")) for e in earned([facts])]
    assert T("achievement.earned", name=T("achievement.first_scopa")) in said  # earned before its last deal


def test_a_match_listed_for_review_is_read_again_from_the_log_and_a_replaced_log_is_said(tmp_path):
    from scopa.record.console import _review_listed, logged_facts
    program, out, _ = program_for(tmp_path, "")
    first, second = (random_match(Rules(target=None), "easy", seed, 1) for seed in (1, 2))
    record_result(first, "2026-01-01T10:00:00+00:00", tmp_path / "data")
    [listed], count, problem = logged_facts(tmp_path / "data")  # only the facts are kept
    assert count == 1 and problem is None
    (tmp_path / "data" / "results.json").unlink()  # another copy found the log unreadable and began a new one
    record_result(second, "2026-01-02T10:00:00+00:00", tmp_path / "data")
    _review_listed(program, listed)
    assert lines_of(out)[-1] == T("review.gone")


# Review ---------------------------------------------------------------------------------------

PLAY = re.compile(r"^(Your scopa! |Scopa for \w+! |You play |You take the last|\w+ plays |\w+ takes the last"
                  r"|Deal \d+ score\.|Deal points\. "
                  r"|Match\. |Cards\. |Settebello to |Primiera\. |Scope\. )")


def test_a_review_tells_every_play_of_a_logged_match_as_the_match_did(tmp_path):
    full = Settings(voice=False, verbosity="full")  # the match told every play, the player's own too
    program, out, _ = program_for(tmp_path, "1\n\n" * 600, settings=full)
    assert program.run(request_for("--seed", "3")) == 0
    played = [line for line in lines_of(out) if PLAY.match(line)]
    [result] = load_results(tmp_path / "data")
    moves = len(result.match["moves"])
    log = (tmp_path / "data" / "results.json").read_bytes()
    program, out, _ = program_for(tmp_path, "\n" * (moves + 30), settings=full)
    assert run_review(program, 1) == 0
    assert (tmp_path / "data" / "results.json").read_bytes() == log  # a review changes nothing
    lines = lines_of(out)
    told = [line for line in lines if PLAY.match(line)]
    assert told == played
    assert sum(1 for line in told if re.match(r"^(Your scopa! |Scopa for \w+! )?(You play |\w+ plays )", line)) == moves
    assert not any(" held " in line or line.startswith(("You held", "Your hand")) for line in lines)
    assert lines[-1] == T("review.left")


def test_show_hands_tells_the_hand_before_each_play_and_keys_move_back_and_on(tmp_path):
    record = random_match(Rules(), "easy", 8, 3)
    record_result(record, "2026-05-01T10:00:00+00:00", tmp_path / "data")
    program, out, _ = program_for(tmp_path, "h\n\n\np\nd\nw\nesc\n")
    assert run_review(program, 1) == 0
    lines = lines_of(out)
    narrator = Narrator([s.name for s in record.seats], record.rules, you=0)
    first, second = record.moves[0], record.moves[1]
    names = narrator.cards
    hand = record_start_hand(record, first.seat)
    held = T("review.hand.you" if first.seat == 0 else "review.hand", name=record.seats[first.seat].name,
             cards=names.list(hand, article=True))
    assert held in lines
    assert lines.index(held) < len(lines) - 1
    assert lines.count(held) == 2  # told with the first play, and again when P went back to it
    assert T("review.hands_on") in lines and lines[-1] == T("review.left")
    assert sum(line.startswith("Deal 2.") for line in lines) == 1  # D went to the next deal
    assert second.seat != first.seat


def record_start_hand(record: MatchRecord, seat: int):
    return MatchRecord.start(record.rules, record.seats, record.seed, record.first_dealer)[0].state.hands[seat]


# The coach -----------------------------------------------------------------------------------------

def settebello_missed() -> MatchRecord:
    """A deal in which the player, able to take the settebello, throws another card instead."""
    for seed in range(500):
        record, _ = MatchRecord.start(Rules(target=None), (SeatSetup("Ann"), SeatSetup("Bo", "computer", "easy")), seed)
        rng = random.Random(seed)
        missed = False
        while not record.state.is_match_over:
            moves = record.state.legal_moves()
            early = len(record.state.stock) >= 20  # the first rounds: the settebello is at risk
            if record.state.to_move == 0 and not missed and early and any(SETTEBELLO in m.capture for m in moves):
                throws = [m for m in moves if not m.capture]
                if throws:
                    record = record.play(throws[0])[0]
                    missed = True
                    continue
            record = record.play(rng.choice(moves))[0]
        if missed:
            return record
    raise AssertionError("no seed found")


def test_the_coach_names_the_settebello_the_player_left():
    record = settebello_missed()
    script = ReviewScript(record, Narrator(["Ann", "Bo"], record.rules, you=0), T, samples=16)
    deal = script.deals[0]
    step = next(s for s in deal.steps if s.seat == 0 and not s.move.capture and len(s.before.stock) >= 20
                and any(SETTEBELLO in m.capture for m in s.before.legal_moves()))
    advice = advise(step, record.seed, samples=16)
    assert advice.better is not None and SETTEBELLO in advice.better.capture
    assert advice.reason == "settebello" and advice.cost > 0.5
    line = advice_line(advice, script.narrator.cards, T)
    assert line.startswith("The expert would have taken the settebello with your ")
    assert line.endswith(T("coach.why.settebello")) and ":" not in line
    marked = coach_deal(deal, [0], record.seed, samples=16)
    assert marked[step.number].marked
    assert sum(a.marked for a in marked.values()) <= 2


def test_the_coach_says_the_same_every_time_and_in_any_order():
    record = random_match(Rules(), "hard", 21, 5)
    narrator = Narrator([s.name for s in record.seats], record.rules, you=0)
    once = ReviewScript(record, narrator, T, samples=8)
    again = ReviewScript(record, narrator, T, samples=8)
    last = len(once.deals) - 1
    backwards = [again.advice(i) for i in range(last, -1, -1)][::-1]
    forwards = [once.advice(i) for i in range(last + 1)]
    assert forwards == backwards
    assert [once.lines(i) for i in range(len(once.items))] == [again.lines(i) for i in range(len(again.items))]
    assert all(a.seat == 0 for deal in forwards for a in deal.values())


# Words ---------------------------------------------------------------------------------------------

def test_record_catalogues_match_and_suit_a_screen_reader():
    en, it = load_record_catalogue("en"), load_record_catalogue("it")
    assert list(en) == list(it)
    assert {k for k in en if fields(en[k]) != fields(it[k])} == set()
    for lines in (en, it):
        assert [k for k, v in lines.items() if re.search(r"[()]|:\s|[^\W\d_]-[^\W_]", v)] == []
    leaks = {k: english_in(re.sub(r"\{\w*\}", " ", v)) for k, v in it.items()}
    assert {k: v for k, v in leaks.items() if v} == {}


def test_dates_and_numbers_are_said_in_words():
    assert T.date("2026-12-01T09:14:49+00:00") == "1 December 2026"
    assert RecordText("it").date("2026-12-01T09:14:49+00:00") == "1 dicembre 2026"
    assert T.date("yesterday") == T("date.unknown")
    assert RecordText("it").decimal(0.25) in ("0 virgola 2", "0 virgola 3")  # in words (issue 38)


def test_the_main_menu_offers_statistics_and_review_once_a_match_is_logged(tmp_path):
    record = random_match(Rules(), "easy", 8, 3)
    record_result(record, "2026-05-01T10:00:00+00:00", tmp_path / "data")
    program, out, _ = program_for(tmp_path, "4\n1\n\nesc\nesc\n5\n\nesc\nesc\n8\n")
    assert program.run() == 0
    lines = lines_of(out)
    M = program.messages
    items = [M("app.menu.new"), M("app.menu.lessons"), M("app.menu.settings"), M("app.menu.statistics"),
             M("app.menu.review"), M("app.menu.online"), M("app.menu.quick"), M("app.menu.quit")]
    assert lines[1] == ". ".join(f"{i}, {item}" for i, item in enumerate(items, 1)) + "."
    page = lines.index(T.plural("stats.played", 1, won=int(record.state.winner == 0)))
    assert lines[page - 1] == M("prompt.menu") + " 4"
    assert lines[page + 2:page + 4] == [T("stats.level.easy") + ".", T.plural("stats.group.matches", 1, won=int(
        record.state.winner == 0), streak=int(record.state.winner == 0))]
    assert lines.count(T("review.choose")) == 4  # after Statistics, after Review, and again after each review
    assert lines.count(T("review.left")) == 2
    assert sum(line.startswith("Deal 1. ") for line in lines) == 2
    assert lines[-1] == M("app.bye")


def test_a_new_match_earns_only_what_no_earlier_fair_match_had():
    from scopa.record.achievements import newly_earned
    winner = next(r for seed in range(200)
                  if (r := random_match(Rules(target=None), "easy", seed, 2)).state.winner == 0)
    first, again = all_facts([result_of(winner, "2026-01-01T10:00:00+00:00"),
                              result_of(winner, "2026-01-02T10:00:00+00:00")])
    keys = [e.key for e in newly_earned(first, [])]
    assert "beat_easy" in keys and keys == [e.key for e in earned([first])]
    assert newly_earned(again, [first]) == []
    helped = replace(first, assisted=True, deals=tuple(replace(d, assisted=True) for d in first.deals))
    assert [e.key for e in newly_earned(again, [helped, None])] == keys


def test_the_coach_says_why_from_what_each_move_does():
    from scopa.engine import Move, new_deal, parse_cards
    from scopa.record.coach import reason
    state, _ = new_deal(Rules(target=None), seed=1, dealer=1)
    seat = state.to_move

    def at(hand: str, table: str):
        return state._replace(hands=tuple(tuple(parse_cards(hand)) if s == seat else h
                                          for s, h in enumerate(state.hands)), table=tuple(parse_cards(table)))

    def move(text: str) -> Move:
        return Move.parse(text)
    position = at("7H AD KC", "7D 4S")
    assert reason(position, move("KC"), move("7H 7D")) == "settebello"
    position = at("5H 2C KC", "5D")
    assert reason(position, move("KC"), move("5H 5D")) == "scopa"
    position = at("AD 4C KH", "QS JS")
    assert reason(position, move("AD"), move("4C")) == "threw_coin"
    position = at("6H 4C KH", "QS JS")
    assert reason(position, move("6H"), move("4C")) == "threw_primiera"
    line = advice_line(replace(advise_stub(move("AD"), move("4C")), reason="threw_coin"),
                       Narrator(["A", "B"], Rules()).cards, T)
    assert line == ("The expert would have played the four of clubs. Throwing the ace of diamonds offered the next "
                    "player a coin.")


def advise_stub(played, better):
    from scopa.record.coach import Advice
    return Advice(0, 0, played, better, 0.5, "value")


def test_statistics_in_the_menu_reads_the_recent_matches_once_as_a_menu(tmp_path):
    for day, seed in ((1, 8), (2, 9)):
        record_result(random_match(Rules(), "easy", seed, 3), f"2026-05-0{day}T10:00:00+00:00", tmp_path / "data")
    program, out, _ = program_for(tmp_path, "4\nesc\n6\n")
    program.run()
    lines = lines_of(out)
    assert T("stats.recent") not in lines
    title = lines.index(T("review.choose"))
    assert lines[title + 1].startswith("1, 2 May 2026 against ") and ". 2, 1 May 2026 against " in lines[title + 1]


def test_the_coach_says_when_a_play_made_the_grande_or_piccola_worth_more():
    from scopa.engine import Move, new_deal, parse_cards
    from scopa.record.coach import reason
    state, _ = new_deal(Rules.cirulla(target=None), seed=3, dealer=1)
    seat = state.to_move
    side = state.rules.side_of(seat)
    held = tuple(parse_cards(["AD", "2D"]))
    others = [c for pile in state.piles for c in pile]
    position = state._replace(hands=tuple(tuple(parse_cards(["3D", "4C"])) if s == seat else h
                                          for s, h in enumerate(state.hands)),
                              table=tuple(parse_cards(["3H", "4D"])),
                              piles=tuple(held if s == side else tuple(others) for s in range(state.rules.sides)))
    # The three of coins makes the piccola (the ace, two and three of coins); the four of coins does not.
    assert reason(position, Move.parse("4C 4D"), Move.parse("3D 3H")) == "runs"
    plain = position._replace(rules=Rules.cirulla(target=None, grande_piccola=False))
    assert reason(plain, Move.parse("4C 4D"), Move.parse("3D 3H")) != "runs"
    assert T("coach.why.runs") and RecordText("it")("coach.why.runs") != T("coach.why.runs")


def test_the_deal_that_loses_an_a_perdere_match_earns_no_achievement():
    lost = next(r for seed in range(300)
                if (r := random_match(Rules(target=11, a_perdere=True), "easy", seed, 2)).state.winner not in (0, None))
    facts = all_facts([result_of(lost, "2026-01-01T10:00:00+00:00")])[0]
    assert not facts.won and facts.deals[-1].lost_perdere and not any(d.lost_perdere for d in facts.deals[:-1])
    # Whatever the last deal took (a scopa, the settebello, all four), it lost the match: nothing for it.
    proud = replace(facts.deals[-1], own_scopa=True, own_settebello=True, settebello=True, coins=True,
                    primiera=True, cards=True)
    early = replace(facts.deals[0], own_scopa=False, own_settebello=False, settebello=False, coins=False,
                    primiera=False, cards=False, napola=False)
    only_last = replace(facts, deals=(*(early for _ in facts.deals[:-1]), proud))
    assert not {e.key for e in earned([only_last])} & DEAL_KEYS
    kept = replace(only_last, deals=(*only_last.deals[:-1], replace(proud, lost_perdere=False)))
    assert {"first_scopa", "first_settebello", "all_four"} <= {e.key for e in earned([kept])}
    won = next(r for seed in range(300)
               if (r := random_match(Rules(target=11, a_perdere=True), "easy", seed, 2)).state.winner == 0)
    assert not any(d.lost_perdere for d in all_facts([result_of(won, "2026-01-01T10:00:00+00:00")])[0].deals)
