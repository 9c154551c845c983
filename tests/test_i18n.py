"""Issue 8: English and Italian catalogues, French or Napoletane card names.

The catalogues must hold the same keys with the same placeholders; every card has a name and
article forms in every naming and language; plurals read right; and a whole seeded deal
narrated in Italian, and the real program run in Italian, show no English game text.
"""
from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from helpers.i18n import english_in, fields
from scopa.engine import ALL_CARDS, SETTEBELLO, Card, MatchWon, Rules, new_match
from scopa.engine.cards import RANKS
from scopa.narration import LANGUAGES, NAMINGS, CardNames, Messages, Narrator, system_language, voice_for_language
from scopa.narration.messages import load_catalogue
from scopa.speech import VoiceInfo

ROOT = Path(__file__).resolve().parents[1]
CATALOGUES = ROOT / "src" / "scopa" / "narration" / "catalogues"


# Catalogues ----------------------------------------------------------------------------------

def test_both_catalogues_hold_exactly_the_same_keys():
    en, it = load_catalogue("en"), load_catalogue("it")
    assert sorted(set(en) - set(it)) == []
    assert sorted(set(it) - set(en)) == []
    assert list(en) == list(it), "it.json keeps en.json's order, so the two read side by side"


def test_each_key_has_the_same_placeholders_in_both_languages():
    en, it = load_catalogue("en"), load_catalogue("it")
    different = {k: (sorted(fields(en[k])), sorted(fields(it[k]))) for k in en if fields(en[k]) != fields(it[k])}
    assert different == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalogue_files_are_valid_and_every_template_formats(lang):
    raw = (CATALOGUES / f"{lang}.json").read_text("utf-8")
    pairs = json.loads(raw, object_pairs_hook=lambda items: items)
    keys = [k for k, _ in pairs]
    assert len(keys) == len(set(keys)), "a key is written twice"
    for key, template in pairs:
        assert isinstance(template, str) and template.strip(), key
        template.format(**dict.fromkeys(fields(template), "x"))  # no stray brace


def test_italian_catalogue_has_no_english_words():
    it = {k: re.sub(r"\{\w*\}", " ", v) for k, v in load_catalogue("it").items()}
    leaks = {k: english_in(v) for k, v in it.items() if english_in(v)}
    assert leaks == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_lines_suit_a_screen_reader(lang):
    """No parentheses, no colons in the middle of a line and no hyphen between letters: Orca
    reads them out ("counter dash clockwise")."""
    lines = load_catalogue(lang)
    assert [k for k, v in lines.items() if re.search(r"[()]|:\s|[^\W\d_]-[^\W_]", v)] == []


# Card names ------------------------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("naming", NAMINGS)
def test_every_card_has_a_name_and_article_forms(lang, naming):
    names = CardNames(Messages(lang), naming)
    seen = set()
    for card in ALL_CARDS:
        name = names.name(card)
        assert name and name == name.strip() and "{" not in name
        seen.add(name)
        for form in (names.the(card), names.of(card), names.the(card, "your")):
            assert name in form and form != name
    assert len(seen) == 40, "two cards share a name"
    for rank in RANKS:
        assert names.count(rank, 1) and names.count(rank, 2) and "2" in names.count(rank, 2)


@pytest.mark.parametrize("lang, naming, card, name, the", [
    ("en", "french", "7H", "seven of hearts", "the seven of hearts"),
    ("en", "french", "QH", "queen of hearts", "the queen of hearts"),
    ("en", "french", "AC", "ace of clubs", "the ace of clubs"),
    ("en", "napoletane", "JH", "fante of cups", "the fante of cups"),
    ("en", "napoletane", "KC", "re of batons", "the re of batons"),
    ("en", "napoletane", "QS", "cavallo of swords", "the cavallo of swords"),
    ("en", "napoletane", "7S", "seven of swords", "the seven of swords"),
    ("it", "napoletane", "7H", "sette di coppe", "il sette di coppe"),
    ("it", "napoletane", "AH", "asso di coppe", "l'asso di coppe"),
    ("it", "napoletane", "2H", "due di coppe", "il due di coppe"),
    ("it", "napoletane", "5D", "cinque di denari", "il cinque di denari"),
    ("it", "napoletane", "QC", "cavallo di bastoni", "il cavallo di bastoni"),
    ("it", "napoletane", "JS", "fante di spade", "il fante di spade"),
    ("it", "french", "QH", "donna di cuori", "la donna di cuori"),
    ("it", "french", "AS", "asso di picche", "l'asso di picche"),
    ("it", "french", "KC", "re di fiori", "il re di fiori"),
    ("it", "french", "6D", "sei di quadri", "il sei di quadri"),
])
def test_known_card_names(lang, naming, card, name, the):
    names = CardNames(Messages(lang), naming)
    assert names.name(Card.parse(card)) == name
    assert names.the(Card.parse(card)) == the


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("naming", NAMINGS)
def test_the_settebello_is_named_so_in_every_naming_and_language(lang, naming):
    names = CardNames(Messages(lang), naming)
    assert Card.parse("7D") == SETTEBELLO
    assert names.name(SETTEBELLO) == "settebello"
    assert names.the(SETTEBELLO) == {"en": "the settebello", "it": "il settebello"}[lang]


def test_italian_contractions_and_possessives_follow_the_card():
    it = CardNames(Messages("it"), "french")
    assert it.of(Card.parse("AH")) == "dell'asso di cuori"
    assert it.of(Card.parse("QS")) == "della donna di picche"
    assert it.of(Card.parse("KD")) == "del re di quadri"
    assert it.of(SETTEBELLO) == "del settebello"
    assert it.the(Card.parse("QC"), "your") == "la tua donna di fiori"
    assert it.the(Card.parse("AC"), "your") == "il tuo asso di fiori"
    assert CardNames(Messages("en"), "napoletane").of(Card.parse("AH")) == "of the ace of cups"
    with pytest.raises(ValueError):
        it.the(Card.parse("AC"), "to")


def test_card_lists_join_naturally():
    it = CardNames(Messages("it"), "napoletane")
    cards = [Card.parse(c) for c in ("AH", "2S", "QC")]
    assert it.list(cards, article=True) == "l'asso di coppe, il due di spade e il cavallo di bastoni"
    assert it.list([]) == "nessuna carta"
    assert it.suits([1, 2]) == "coppe né spade"
    en = CardNames(Messages("en"), "french")
    assert en.list(cards[:2], article=True) == "the ace of hearts and the two of spades"
    assert en.suits([1, 2, 3]) == "hearts, spades or clubs"


# Plurals ---------------------------------------------------------------------------------------

def test_plural_forms():
    it, en = Messages("it"), Messages("en")
    assert it.plural("pile.cards", 1) == "1 carta"
    assert it.plural("pile.cards", 3) == "3 carte"
    assert it.plural("pile.cards", 0) == "0 carte"
    assert en.plural("pile.cards", 1) == "1 card"
    assert en.plural("pile.cards", 3) == "3 cards"
    assert it.plural("pile.coins.napoletane", 1) == "1 denaro"
    assert it.plural("pile.coins.napoletane", 6) == "6 denari"
    assert it.plural("pile.coins.french", 2) == "2 carte di quadri"
    assert en.plural("pile.coins.french", 1) == "1 diamond"
    assert CardNames(it, "french").count("Q", 1) == "una donna"
    assert CardNames(it, "french").count("Q", 2) == "2 donne"
    assert CardNames(it, "napoletane").count("A", 3) == "3 assi"
    assert CardNames(it, "napoletane").count("K", 2) == "2 re"
    assert CardNames(en, "french").count("6", 1) == "one six"
    assert CardNames(en, "french").count("6", 2) == "2 sixes"


# System language and voices ----------------------------------------------------------------------

@pytest.mark.parametrize("environ, expected", [
    ({}, "en"),
    ({"LANG": "it_IT.UTF-8"}, "it"),
    ({"LANG": "it_CH"}, "it"),
    ({"LANG": "en_GB.UTF-8"}, "en"),
    ({"LANG": "fr_FR.UTF-8"}, "en"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LANG": "POSIX"}, "en"),
    ({"LC_ALL": "it_IT.UTF-8", "LANG": "en_US.UTF-8"}, "it"),
    ({"LC_MESSAGES": "it_IT", "LANG": "en_US"}, "it"),
    ({"LANGUAGE": "fr:it:en", "LANG": "fr_FR.UTF-8"}, "it"),
    ({"LANGUAGE": "it", "LANG": "C"}, "en"),  # gettext ignores LANGUAGE under the C locale
    ({"LANG": "Italian_Italy.1252"}, "it"),
])
def test_system_language(environ, expected):
    assert system_language(environ) == expected


def test_system_language_reads_the_real_environment(monkeypatch):
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "it_IT.UTF-8")
    assert system_language() == "it"
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    assert system_language() == "en"


VOICES = [VoiceInfo("gmw/en", "English", ("en",)), VoiceInfo("gmw/en-gb-x-rp", "English RP", ("en-gb-x-rp",)),
          VoiceInfo("roa/it", "Italian", ("it",)), VoiceInfo("gmw/de", "German", ("de",))]


def test_voice_for_language_picks_a_voice_of_the_language():
    assert voice_for_language(VOICES, "it") == (VOICES[2], None)
    assert voice_for_language(VOICES, "en") == (VOICES[0], None)
    assert voice_for_language(VOICES, "en", preferred="gmw/en-gb-x-rp") == (VOICES[1], None)
    assert voice_for_language(VOICES, "it", preferred="gmw/en") == (VOICES[2], None)  # an English choice
    assert voice_for_language([], "it") == (None, None)


def test_voice_for_language_says_when_there_is_none():
    voice, note = voice_for_language([VOICES[0], VOICES[3]], "it")
    assert voice is None and note == Messages("it")("voice.missing.it")
    assert "italiana" in note
    voice, note = voice_for_language([VOICES[3]], "it", Messages("en"))
    assert voice is None and "No Italian voice" in note
    assert voice_for_language([VOICES[2]], "en")[1] == Messages("en")("voice.missing.en")


# Narration of whole seeded deals ------------------------------------------------------------------

SEATS = ("Giulia", "Marco", "Nina", "Paolo")


def narrate_deal(lang: str, naming: str, rules: Rules, seed: int, you: int | None) -> list[str]:
    """Every line the narrator gives over one seeded deal played with random legal moves."""
    names = SEATS[:rules.players]
    lines: list[str] = []
    narrator = Narrator(names, rules, you, lang, naming)
    rng = random.Random(seed)
    state, events = new_match(rules, seed=seed)
    lines += [a.text for a in narrator.events(events)]
    while not state.is_deal_over:
        seat = state.to_move
        view = state.view(seat)
        lines.append(narrator.turn(seat))
        lines.append(narrator.table_text(view.table))
        lines.append(narrator.hand(view).text)
        for card in view.hand:
            options = [m.capture for m in view.legal_moves() if m.card == card and m.capture]
            lines += [a.text for a in narrator.capture_choice(seat, card, options, view.table)]
            lines += [narrator.picked_option(seat, i + 1, o).text for i, o in enumerate(options)]
        _move, reason = narrator.suggestion(view)
        lines.append(reason.text)
        lines += [a.text for a in narrator.running_score(view)]
        lines += [narrator.pile(view, side).text for side in range(rules.sides)]
        lines += [a.text for a in narrator.last_plays(view.history, 4)]
        state, events = state.apply(rng.choice(state.legal_moves()))
        lines += [a.text for a in narrator.events(events)]
        for event in events:
            if isinstance(event, MatchWon):
                lines.append(narrator.match_result(event.side, event.match_scores))
    for verbosity in ("short", "full"):
        narrator.verbosity = verbosity
        lines += [a.text for a in narrator.score_lines(state.deal_number, state.deal_score, state.match_scores,
                                                       assisted=True)]
    lines.append(narrator.match_line(state.match_scores))
    lines += [narrator.match_result(side, state.match_scores) for side in (None, *range(rules.sides))]
    lines += [a.text for a in narrator.last_plays((), 4)]
    return lines


GAMES = [(Rules(players=2, target=None), 3, 0), (Rules(players=2), 11, None),
         (Rules(players=3, napola=True, re_bello=True), 5, 1),
         (Rules(players=4, target=None, asso_piglia_tutto=True, napola=True), 7, 2),
         (Rules.scopone_scientifico(), 8, 0), (Rules(players=4, faces_match_only=True), 9, None)]


@pytest.mark.parametrize("naming", NAMINGS)
@pytest.mark.parametrize("rules, seed, you", GAMES)
def test_a_seeded_deal_in_italian_has_no_english(naming, rules, seed, you):
    lines = narrate_deal("it", naming, rules, seed, you)
    assert len(lines) > 100
    leaks = [(line, english_in(line, SEATS)) for line in lines if english_in(line, SEATS)]
    assert leaks == []
    for line in lines:
        assert line and "{" not in line and "  " not in line and " ," not in line and " ." not in line, line


@pytest.mark.parametrize("rules, seed, you", GAMES[:3])
def test_narration_is_complete_in_both_languages(rules, seed, you):
    """Italian gets its own words for the same facts: same number of lines, none left in English."""
    it = narrate_deal("it", "napoletane", rules, seed, you)
    en = narrate_deal("en", "napoletane", rules, seed, you)
    assert len(it) == len(en)
    assert sum(a == b for a, b in zip(it, en, strict=True)) <= 2  # only lines that are names or numbers may agree


def test_italian_narration_reads_naturally():
    rules = Rules(players=2)
    n = Narrator(["Tu", "Giulia"], rules, you=0, lang="it", naming="napoletane", verbosity="full")
    from scopa.engine import CardsCaptured, CardStaysOnTable, DealStarted, Scopa
    card, two, ace = Card.parse("2H"), Card.parse("2S"), Card.parse("AS")
    events = [DealStarted(1, 1, 0, 0), CardsCaptured(1, card, (two,)), CardStaysOnTable(0, ace),
              CardsCaptured(0, SETTEBELLO, (Card.parse("7S"),)), Scopa(0, 0, 1)]
    lines = [a.text for a in n.events(events)]
    assert lines == ["Smazzata 1. Giulia dà le carte.",
                     "Giulia gioca il due di coppe e prende il due di spade.",
                     "Giochi l'asso di spade senza prendere.",
                     "Scopa tua! Giochi il settebello e prendi il sette di spade."]
    assert n.turn(0) == "Tocca a te."
    assert n.turn(1) == "Giulia, tocca a te."
    assert [a.text for a in n.capture_choice(0, ace, [], [])] == [
        "L'asso di spade non prende nulla e resta sul tavolo. Invio per giocare, Esc per annullare."]
    short = Narrator(["Tu", "Giulia"], rules, you=0, lang="it", naming="napoletane")
    assert [a.text for a in short.events(events, own_move_known=True) if not a.unsaid] == [
        "Smazzata 1. Giulia dà le carte.", "Giulia gioca due di coppe, prende due di spade.", "Scopa tua!"]
    assert [a.text for a in short.capture_choice(0, ace, [], [])] == [
        "Asso di spade, nessuna presa. Invio per giocare, Esc per annullare."]
    en = Narrator(["You", "Giulia"], rules, you=0, lang="en", naming="napoletane", verbosity="full")
    assert en.events([CardsCaptured(1, card, (two,))])[0].text == ("Giulia plays the two of cups and takes the two "
                                                                   "of swords.")
    en.verbosity = "short"
    assert en.events([CardsCaptured(1, card, (two,))])[0].text == "Giulia's two of cups takes two of swords."


def test_scores_name_you_in_the_right_form():
    from scopa.engine import score_deal
    rules = Rules(players=2)
    deck = list(ALL_CARDS)
    piles = (tuple(deck[:24]), tuple(deck[24:]))
    score = score_deal(piles, (1, 0), rules)
    it = [a.text for a in Narrator(["Tu", "Giulia"], rules, 0, "it", "napoletane").score_lines(1, score, (3, 1))]
    assert "Carte a te, 24 a 16." in it  # a two-sided sheet says whose first, with "te"
    whole = [a.text for a in Narrator(["Tu", "Giulia"], rules, 0, "it", "napoletane").score_lines(
        1, score, (3, 1), asked=True)]
    assert "Punto a te." in " ".join(whole)  # B: each side's counts, then whose point
    assert any(line.startswith("Settebello a ") for line in it)
    assert not any("Tu ha" in line or "a Tu" in line for line in it)
    four = Rules(players=4)
    n = Narrator(SEATS, four, you=0, lang="it", naming="french")
    assert n.match_result(0, (11, 5)) == ("Tu e Nina avete vinto la partita! Punteggio finale. Tu e Nina 11, "
                                          "Marco e Paolo 5.")
    assert n.match_result(1, (5, 11)) == ("Marco e Paolo hanno vinto la partita. Punteggio finale. "
                                          "Tu e Nina 5, Marco e Paolo 11.")
    assert n.side(0, capital=False, object_form=True) == "te e Nina"


def test_english_hint_reasons_match_the_players_module():
    """The catalogue wording of a hint reads exactly as scopa.players.reason_text in English."""
    from scopa.players import reason_text
    from scopa.players.heuristic import HardAnalyser
    checked = 0
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        rules = Rules(players=players)
        narrator = Narrator(SEATS[:players], rules, 0, "en", "french")
        state, _ = new_match(rules, seed=seed)
        rng = random.Random(seed)
        while not state.is_deal_over:
            view = state.view(state.to_move)
            analyser = HardAnalyser(view)
            for move in view.legal_moves():
                analysis = analyser.analyse(move)
                assert narrator.hint_reason(view, analysis).text == reason_text(view, analysis)
                checked += 1
            state, _ = state.apply(rng.choice(state.legal_moves()))
    assert checked > 100


# The real program --------------------------------------------------------------------------------

def run_program(tmp_path: Path, *args: str, keys: str) -> str:
    result = subprocess.run([sys.executable, "-m", "scopa", *args, "--no-voice", "--plain",
                             "--data-dir", str(tmp_path / "data"), "--config-dir", str(tmp_path / "config")],
                            input=keys, capture_output=True, text=True, timeout=120, cwd=ROOT,
                            env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONPATH": str(ROOT / "src")},
                            check=False)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_the_real_program_plays_a_match_in_italian(tmp_path):
    # Pick card 1, Enter to confirm; an extra Enter answers the capture menu or the next-deal prompt.
    keys = "1\n\n" * 400 + "t\nh\nl\ns\np\n?\n"
    out = run_program(tmp_path, "--lang", "it", "--cards", "napoletane", "--seed", "3", "--names", "Anna",
                      keys=keys)
    names = ("Anna", "Robin", "Giulia", "Marco", "Nina", "Paolo", "Sofia", "Luca", "Felix", "Greta", "Elena",
             "Bruno", "Rosa")
    leaks = [line for line in out.splitlines() if english_in(line, names)]
    assert leaks == []
    assert "Smazzata 1." in out and "In mano, " in out and "Tocca a te." not in out and "Fine della smazzata 1." in out
    assert "vinto la partita" in out


def test_pile_owner_is_you_whichever_seat_asks():
    rules = Rules(players=3)
    state, _ = new_match(rules, seed=4)
    view = state.view(state.to_move)
    it = Narrator(SEATS[:3], rules, you=1, lang="it", naming="napoletane")
    assert it.pile(view, 1).text.startswith("Le tue prese. ")
    assert it.pile(view, 0).text.startswith("Prese di Giulia. ")
    en = Narrator(SEATS[:3], rules, you=1, lang="en", naming="french")
    assert en.pile(view, 1).text == ("Your pile. 0 cards, 0 diamonds. No settebello. "
                                     "No primiera yet, no diamonds, hearts, spades or clubs.")


def test_voice_unavailable_keys_say_what_the_speech_module_says():
    """The console can map each speech reason to its catalogue key; English stays word for word."""
    from scopa.speech import pyttsx_speaker as sp
    en = Messages("en")
    for name, key in (("REASON_NO_PYTTSX3", "no_pyttsx3"), ("REASON_NO_ESPEAK", "no_espeak"),
                      ("REASON_ENGINE_FAILED", "engine_failed"), ("REASON_NO_PLAYER", "no_player"),
                      ("REASON_NO_DEVICE", "no_device")):
        assert en(f"voice.unavailable.{key}") == getattr(sp, name)


def test_the_settebello_keeps_its_article_in_a_bare_list():
    from scopa.engine import parse_cards
    assert CardNames(Messages("en"), "french").list(parse_cards("2S 7D")) == "two of spades and the settebello"
    assert CardNames(Messages("it"), "napoletane").list(parse_cards("7D 2S")).startswith("il settebello e ")


def test_a_suggestion_names_its_move_once():
    text = Messages("en")("hint.suggestion", reason="Play the two of clubs, you cannot take anything.")
    assert text == ("Suggestion. Play the two of clubs, you cannot take anything. Enter to play it, Escape to choose "
                    "yourself.")
    for lang in LANGUAGES:
        assert "{move}" not in load_catalogue(lang)["hint.suggestion"]
