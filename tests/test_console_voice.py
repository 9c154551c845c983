"""The game voice inside the match loop: the private-hand warning, Stop, and an unavailable voice."""
from __future__ import annotations

from helpers.console import program_for, request_for
from scopa.config import Settings
from scopa.speech import RecordingSpeaker

WARNING = "Your hand will be read aloud, and anyone nearby can hear it. Enter to allow, N to keep hands silent."


def _voiced_game(tmp_path, script: str):
    program, out, speaker = program_for(tmp_path, script, settings=Settings(voice=True))
    program.run(request_for("--seed", "5", "--seats", "human,computer:easy"))
    return out.getvalue().splitlines(), speaker


def test_the_warning_comes_before_any_hand_and_n_keeps_hands_silent(tmp_path):
    lines, speaker = _voiced_game(tmp_path, "n\nq\n\n")
    warning = lines.index(WARNING)
    hand_lines = [i for i, line in enumerate(lines) if line.startswith("Hand, ")]
    assert hand_lines and all(i > warning for i in hand_lines)
    assert WARNING in speaker.said
    assert not [text for text in speaker.said if text.startswith("Hand, ")]
    assert "Hands stay silent. They are only printed." in speaker.said


def test_enter_at_the_warning_lets_the_voice_read_the_hand(tmp_path):
    lines, speaker = _voiced_game(tmp_path, "\nq\n\n")
    printed = [line for line in lines if line.startswith("Hand, ")]
    spoken = [text for text in speaker.said if text.startswith("Hand, ")]
    assert printed and spoken == printed[:len(spoken)] and spoken


def test_the_warning_is_asked_once_a_match(tmp_path):
    lines, _ = _voiced_game(tmp_path, "\n1\n\n1\n\n1\n\nq\n\n")
    assert lines.count(WARNING) == 1


def test_with_the_voice_off_nothing_is_spoken_and_no_warning_is_given(tmp_path):
    program, out, _speaker = program_for(tmp_path, "q\n\n", settings=Settings(voice=False))
    program.run(request_for("--seed", "5", "--seats", "human,computer:easy"))
    assert WARNING not in out.getvalue()
    assert any(line.startswith("Hand, ") for line in out.getvalue().splitlines())


def test_stop_key_silences_the_voice_and_the_game_goes_on(tmp_path):
    lines, speaker = _voiced_game(tmp_path, "n\nx\nt\nq\n\n")
    assert speaker.stops >= 1
    assert any(line.startswith("Table, ") for line in lines[lines.index(WARNING):])


def test_an_unavailable_voice_is_said_once_and_play_goes_on_in_text(tmp_path):
    broken = RecordingSpeaker(available=False,
                              unavailable_reason="The game voice is unavailable. No sound device could be opened.")
    program, out, _ = program_for(tmp_path, "q\n\n", settings=Settings(voice=True))
    program.speaker_factory = lambda on, voice: broken
    program.run(request_for("--seed", "5", "--seats", "human,computer:easy"))
    text = out.getvalue()
    assert text.count("No sound device could be opened.") == 1
    assert "Card?" in text and WARNING not in text
