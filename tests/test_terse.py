"""Terse by default, and the menus and wording found by listening (issue 17).

Short announcements leave out what the player knows: their own move once confirmed, "Your
turn." when the hand and Card? follow, the key hints once used, a hand already heard; full
keeps today's detail. Each test here fails on the game before the change."""
from __future__ import annotations

import contextlib
import re

from helpers.console import lines_of, program_for, request_for
from scopa.config import Settings
from scopa.console.announcer import Announcer
from scopa.console.terminal import ENTER, ESCAPE, Output
from scopa.engine import Card, Rules
from scopa.narration import Messages, Narrator
from scopa.narration.narrator import KEYS_LEARNT
from scopa.speech import RecordingSpeaker

M = Messages("en")
KEYS = M("choose.keys")


def _turns(tmp_path, tokens, *flags, settings=None):
    program, out, _ = program_for(tmp_path, tokens, settings=settings)
    program.run(request_for(*flags))
    return lines_of(out)


def test_short_drops_the_key_hints_once_the_player_has_used_them_and_full_keeps_them(tmp_path):
    tokens = ["1", ENTER] * 6
    short = [line for line in _turns(tmp_path / "s", tokens, "--seed", "3") if "takes" in line or "capture" in line]
    picked = [line for line in short if line[:1].isupper() and not line.startswith(("Giulia", "Table"))]
    assert [line.endswith(KEYS) for line in picked] == [True] * KEYS_LEARNT + [False] * (len(picked) - KEYS_LEARNT)
    full = _turns(tmp_path / "f", tokens, "--seed", "3", settings=Settings(voice=False, verbosity="full"))
    chosen = [line for line in full if line.startswith("The ") and (" takes " in line or " stays " in line)]
    assert len(chosen) == 6 and all(line.endswith(KEYS) for line in chosen)
    assert M("help.1") and "Enter plays. Escape cancels." in M("help.1")  # the help key still lists them


def test_short_does_not_tell_back_the_move_just_confirmed_but_full_does(tmp_path):
    short = _turns(tmp_path / "s", ["1", ENTER], "--seed", "3")
    assert not any(line.startswith("You play") for line in short)
    at = short.index("Play? ")
    assert short[at + 1].startswith(("Giulia plays ", "Giulia's "))  # straight on to the reply
    full = _turns(tmp_path / "f", ["1", ENTER], "--seed", "3", settings=Settings(voice=False, verbosity="full"))
    at = full.index("Play? ")
    assert full[at + 1].startswith("You play the ")


def test_scopa_leads_its_line_and_the_players_own_scopa_is_said_alone():
    from scopa.engine import CardsCaptured, Scopa
    rules = Rules()
    short = Narrator(["You", "Giulia"], rules, you=0)
    full = Narrator(["You", "Giulia"], rules, you=0, verbosity="full")
    six, table = Card.parse("6C"), (Card.parse("2H"), Card.parse("4S"))
    theirs = [CardsCaptured(1, six, table, True), Scopa(1, 1, 1)]
    mine = [CardsCaptured(0, six, table, True), Scopa(0, 0, 1)]
    assert [a.text for a in full.events(theirs)] == [
        ("Scopa for Giulia! Giulia plays the six of clubs and takes the whole table, the two of hearts and the four of "
         "spades.")]
    assert [a.text for a in short.events(theirs)] == [
        "Scopa for Giulia! Giulia's six of clubs takes the whole table, two of hearts and four of spades."]
    said = short.events(mine, own_move_known=True)
    assert [(a.text, a.unsaid) for a in said] == [
        ("Your scopa! You play six of clubs, take the whole table, two of hearts and four of spades.", True),
        ("Your scopa!", False)]  # the unsaid line keeps the capture's earcon


def test_whose_scopa_it_is_comes_first_in_its_line_partners_and_italian_too():
    """Issue 30, item 1: a bare "Scopa!" sounded the same for every seat and ran into the next line."""
    from scopa.engine import CardsCaptured, Scopa
    four = Rules(players=4)
    names = ["You", "Felix", "Elena", "Rosa"]
    six, table = Card.parse("6C"), (Card.parse("2H"), Card.parse("4S"))
    en = Narrator(names, four, you=0)
    first = [en.events([CardsCaptured(seat, six, table, True), Scopa(seat, seat % 2, 1)])[0].text.split("!")[0]
             for seat in range(4)]
    assert first == ["Your scopa", "Scopa for Felix", "Scopa for Elena, your partner", "Scopa for Rosa"]
    it = Narrator(["Tu", "Felix", "Elena", "Rosa"], four, you=0, lang="it")
    first = [it.events([CardsCaptured(seat, six, table, True), Scopa(seat, seat % 2, 1)])[0].text.split("!")[0]
             for seat in range(4)]
    assert first == ["Scopa tua", "Scopa di Felix", "Scopa di Elena, in squadra con te", "Scopa di Rosa"]
    passed = Narrator(["Ann", "Ben"], Rules(), you=None)  # pass-and-play: everyone by name
    assert passed.events([CardsCaptured(0, six, table, True), Scopa(0, 0, 1)])[0].text.startswith("Scopa for Ann! Ann")


def test_the_final_score_is_said_once_at_short_and_as_before_at_full(tmp_path):
    short = _turns(tmp_path / "s", "1\n\n" * 600, "--seed", "3")
    result = [line for line in short if "wins the match" in line]
    assert len(result) == 1 and not short[short.index(result[0]) - 1].startswith("Match. ")
    full = _turns(tmp_path / "f", "1\n\n" * 600, "--seed", "3", settings=Settings(voice=False, verbosity="full"))
    result = [line for line in full if "wins the match" in line]
    assert full[full.index(result[0]) - 1].startswith("Match. ")


def test_the_hand_is_not_read_again_mid_round_at_short(tmp_path):
    lines = _turns(tmp_path, ["1", ENTER, "h"], "--seed", "3")
    hands = [line for line in lines if line.startswith("Hand, ")]
    assert len(hands) == 2  # the deal's, then the H key; not at the second turn of the round
    assert re.fullmatch(r"Hand, [a-z ]+, [a-z ]+\.", hands[1])  # the card played has left it


# Menus and wording ---------------------------------------------------------------------------------

def test_escape_in_the_main_menu_asks_before_quitting(tmp_path):
    program, out, _ = program_for(tmp_path, [ESCAPE, ESCAPE, ESCAPE, ENTER])
    assert program.run() == 0
    lines = lines_of(out)
    assert lines.count(M("app.quit_ask")) == 2
    assert lines.count("Main menu.") == 2  # Escape at the question goes back to the menu
    assert lines[-1] == M("app.bye")


def test_escape_twice_in_the_settings_goes_back_to_the_menu_not_out(tmp_path):
    program, out, _ = program_for(tmp_path, ["3", ESCAPE, ESCAPE, ESCAPE, "4"])
    assert program.run() == 0
    lines = lines_of(out)
    assert M("settings.closed") in lines and M("app.quit_ask") in lines
    assert lines.count("Main menu.") == 3


def test_after_a_change_the_settings_say_the_change_not_the_whole_menu(tmp_path):
    program, out, _ = program_for(tmp_path, ["3", "7", "7", ESCAPE, "4"])
    program.run()
    lines = lines_of(out)
    assert lines.count("Settings. Escape goes back.") == 1
    at = lines.index(M("settings.cards.now", value=M("naming.napoletane")))
    assert lines[at + 1:at + 4] == [M("settings.saved"), "Choice? ", M("settings.cards.now", value=M("naming.french"))]


def test_tips_can_be_switched_off_and_a_tip_marks_the_deal_assisted(tmp_path):
    from scopa.console.app import Extras
    from scopa.lessons.tips import tip_for
    from scopa.storage import AutosaveStore
    flags = ("--seed", "1", "--seats", "human,computer:beginner")
    program, out, _ = program_for(tmp_path / "on", ["1", ENTER] * 8, settings=Settings(voice=False, tips=True))
    program.extras = Extras(tip_source=tip_for)
    program.run(request_for(*flags))
    tipped = [line for line in lines_of(out) if line.startswith(("Scopa chance", "Settebello chance", "Careful"))]
    assert tipped
    assert 1 in AutosaveStore(tmp_path / "on" / "data").load().record.assisted_deals
    program, out, _ = program_for(tmp_path / "off", ["o", "0", ESCAPE] + ["1", ENTER] * 8,
                                  settings=Settings(voice=False, tips=True))
    program.extras = Extras(tip_source=tip_for)
    program.run(request_for(*flags))
    lines = lines_of(out)
    assert M("settings.tips.now.off") in lines
    assert not [line for line in lines if line.startswith(("Scopa chance", "Settebello chance", "Careful"))]
    assert AutosaveStore(tmp_path / "off" / "data").load().record.assisted_deals == frozenset()


def test_another_cards_number_at_play_switches_to_that_card(tmp_path):
    lines = _turns(tmp_path, "1\n2\n\n", "--seed", "3")
    at = lines.index("Play? 2")
    assert lines[at + 1] == "Three of spades takes ace of hearts and two of hearts. Enter to play, Escape to cancel."
    assert lines[at + 2] == "Play? "


def test_the_suggest_key_during_the_turn_says_how_to_get_one(tmp_path):
    lines = _turns(tmp_path, "1\ni\n", "--seed", "3")
    at = lines.index("Play? i")
    assert lines[at + 1] == M("hint.from_card")
    assert M("hint.not_now") not in lines


def test_a_wrong_card_number_is_told_in_a_sentence_even_with_one_card_left():
    from types import SimpleNamespace

    from scopa.console.choosing import MoveChooser
    said: list[str] = []
    tokens = iter(["5", ENTER])

    class Stop(Exception):
        pass

    def read(prompt: str) -> str:
        try:
            return next(tokens)
        except StopIteration:
            raise Stop from None

    narrator = Narrator(["You", "Giulia"], Rules(), you=0)
    chooser = MoveChooser(read, lambda *lines: said.extend(lines), narrator, lambda token: False)
    with contextlib.suppress(Stop):
        chooser.move(SimpleNamespace(hand=(Card.parse("KC"),)))  # the last card of a round
    assert said == ["No card 5. Your only card is number 1.", "Press 1 for your only card. Question mark for help."]


def test_the_seat_menu_reads_each_levels_short_description(tmp_path):
    program, out, _ = program_for(tmp_path, ["1", ENTER, ENTER, ESCAPE])
    program.run()
    listing = next(line for line in lines_of(out) if line.startswith("1, beginner"))
    assert listing.startswith("1, beginner, plays any card. 2, easy, takes whatever it can. 3, medium, ")


def test_no_voices_found_is_not_said_when_the_voice_is_merely_off(tmp_path):
    program, out, _ = program_for(tmp_path, ["3", "2", ESCAPE, "4"])
    program.run()
    lines = lines_of(out)
    assert M("settings.voices.none") not in lines
    assert M("settings.voices.off") in lines


def test_pass_and_play_tells_a_computers_play_between_two_humans_once(tmp_path):
    lines = _turns(tmp_path, "\n1\n\n\n" * 3, "--players", "3", "--seats", "human,computer:easy,human",
                   "--names", "Ann,Bob", "--seed", "4")
    assert lines.count("Rosa's settebello takes seven of clubs.") == 1
    assert not any(line.startswith("Rosa's settebello took") for line in lines)  # not again in the catch-up
    gate = max(i for i, line in enumerate(lines) if line.startswith("Pass to Ann."))
    # the short turn says no "Ann, your turn." after Open?: the gate has just named her
    assert lines[gate + 1:gate + 3] == ["Open? ", "Bob's five of clubs took five of diamonds."]


def test_repeat_steps_back_one_stretch_at_a_time_and_keeps_a_hand_to_its_seat():
    out = Output(__import__("io").StringIO())
    announcer = Announcer(out, RecordingSpeaker())
    announcer.say(["Deal 1."])
    announcer.acted()
    announcer.say(["Giulia plays four of hearts."])
    from scopa.narration import Announcement
    announcer.say([Announcement("Hand, ace of clubs.", private_to=0)])
    announcer.acted()
    announcer.say(["Giulia plays king of clubs."])
    speaker = announcer.speaker
    assert announcer.repeat_stretch() and speaker.said[-1] == "Giulia plays king of clubs."
    assert announcer.repeat_stretch() and speaker.said[-1] == "Giulia plays four of hearts."  # no hand: none open
    assert out.stream.getvalue().count("Hand, ace of clubs.") == 1
    assert announcer.repeat_stretch() and speaker.said[-1] == "Deal 1."
    assert not announcer.repeat_stretch()


def test_each_player_at_a_pass_and_play_table_learns_the_keys_for_themselves():
    narrator = Narrator(["Ann", "Bob"], Rules(), you=None)
    for _ in range(KEYS_LEARNT):
        narrator.confirmed(0)
    king = Card.parse("KC")
    assert narrator.capture_choice(0, king, [], [])[0].text == "King of clubs, no capture."
    assert narrator.capture_choice(1, king, [], [])[0].text == "King of clubs, no capture. " + KEYS
    narrator.verbosity = "full"
    assert narrator.capture_choice(0, king, [], [])[0].text == "The king of clubs stays on the table. " + KEYS
