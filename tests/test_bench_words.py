"""The words benchmark counts what a listener hears between two decisions."""
from scopa.bench.words import percentile, words_per_turn


def test_a_turn_runs_from_the_card_key_to_the_next_card_prompt_included() -> None:
    lines = ["New match. You against Felix.", "Card?", "The ace takes the ace. Enter to play.", "Play?",
             "You play the ace.", "Felix plays the four.", "Your turn.", "Card?", "You play the king.", "Card?"]
    # turn 1: 8 + 1 + 4 + 4 + 2 + 1 (Card?) words; turn 2: 4 + 1
    assert words_per_turn(lines) == [20, 5]


def test_lines_before_the_first_card_prompt_are_no_turn() -> None:
    assert words_per_turn(["Deal 1.", "Your turn.", "Card?"]) == []


def test_percentile_takes_the_value_at_that_share_of_the_sorted_turns() -> None:
    assert percentile([5, 1, 4, 2, 3, 6, 7, 8, 9, 10], 0.9) == 10
    assert percentile([3, 1, 2], 0.5) == 2


def test_top_shows_the_wordiest_turns_text_wordiest_first() -> None:
    from scopa.bench.words import longest, turns_of
    match = ["Deal 1.", "Card?", "Five of clubs, no capture.", "Play?", "Card?", "King of clubs takes king of hearts.",
             "Play?", "Card?"]
    assert turns_of(match) == [["Five of clubs, no capture.", "Play?", "Card?"],
                               ["King of clubs takes king of hearts.", "Play?", "Card?"]]
    shown = longest([match], 1)
    assert shown == ["--- 9 words (match 1)", "    King of clubs takes king of hearts.", "    Play?", "    Card?"]


def test_the_report_counts_the_turns_that_end_a_deal() -> None:
    from scopa.bench.words import TABLES, report
    match = ["Card?", "King of clubs takes king of hearts.", "Play?", "Deal 1 score.", "Next?", "Deal 2.", "Card?",
             "Five of clubs, no capture.", "Play?", "Card?"]
    figures = report(TABLES[0], [match], 170.0)
    assert "2p turns that end a deal (score sheet and new deal): 1 (50%), the wordiest turns" in figures
