"""What the table says of a player's own seat is said to them as theirs (heard under Orca: Ann
heard "Ann is away. A computer plays for now." of herself, and a daily deal began with
"Dora joined the table." for Dora)."""
from __future__ import annotations

import pytest

from scopa.engine import Rules
from scopa.narration import Messages, Narrator
from scopa.narration.narrator import notice_words

OWN = {
    "en": {"covered": "You are away. A computer plays for you for now.", "reclaimed": "You are back.",
           "timed_out": "Time. A card is played for you.", "more_time": "You ask for more time. Thirty seconds more.",
           "ready": "You are ready.", "assisted": "You used help in this deal."},
    "it": {"covered": "Non ci sei. Per ora il computer gioca per te.", "reclaimed": "Sei tornato.",
           "timed_out": "Tempo scaduto. Una carta è giocata per te."},
}


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_notice_about_the_listeners_own_seat_says_you(lang):
    narrator = Narrator(["Ann", "Ben"], Rules(), 0, lang)
    for kind, words in OWN[lang].items():
        assert narrator.notice(kind, 0) == words
        assert "Ben" in narrator.notice(kind, 1)  # the others' are said with their names


def test_a_notice_without_an_own_form_names_the_player_even_to_themselves():
    m = Messages("en")
    assert notice_words(m, "left", 0, "Ann", 0) == "Ann left the table."
    assert notice_words(m, "covered", 1, "Ben", None) == "Ben is away. A computer plays for now."  # a spectator
