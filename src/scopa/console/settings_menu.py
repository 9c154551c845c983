"""The settings menu: voice, speech rate and volume, verbosity, language, card names, sounds, card symbols and tips."""
from __future__ import annotations

from typing import Protocol

from ..config import Settings
from ..narration import LANGUAGES, NAMINGS, Announcement, CardNames, Messages, Narrator
from ..narration.cards import Naming
from ..narration.narrator import Verbosity
from ..narration.news import KINDS, next_profile, profile_of
from ..speech import Speaker, VoiceInfo, spoken_voice_name, voices_in_language_first
from .announcer import Announcer
from .menus import choose
from .terminal import ENTER, ESCAPE, Input


class SettingsHost(Protocol):
    """What the settings menu changes and asks of the program (``console.app.Program`` is one).

    Named here so that the menu does not import the program, which opens the menu."""

    @property
    def input(self) -> Input: ...
    @property
    def announcer(self) -> Announcer: ...
    @property
    def speaker(self) -> Speaker: ...
    settings: Settings
    messages: Messages
    lang: str
    naming: Naming
    verbosity: Verbosity
    narrator: Narrator | None

    def say(self, *lines: str | Announcement) -> None: ...
    def voice_is_on(self) -> bool: ...
    def screen_reader_mode(self) -> bool: ...
    def toggle_voice(self) -> str: ...
    def apply_voice_settings(self) -> None: ...
    def match_voice_to_language(self) -> str | None: ...
    def _save_settings(self, quiet: bool = False) -> None: ...


def run_settings_menu(program: SettingsHost) -> None:
    """Show the settings until the player goes back; every change is saved at once.

    After a change only the change is said, then the prompt; R reads the menu again."""
    announce = True
    while True:
        m, s = program.messages, program.settings
        on_off = m("settings.on") if program.voice_is_on() else m("settings.off")
        items = [m("settings.voice", state=on_off),
                 m("settings.voice_choice", name=_voice_name(program)),
                 m("settings.rate", value=s.rate),
                 m("settings.volume", value=round(s.volume * 100)),
                 m("settings.verbosity", value=m(f"profile.value.{profile_name(program.settings)}")),
                 m("settings.language", value=m(f"language.{program.lang}")),
                 m("settings.cards", value=m(f"naming.{program.naming}")),
                 m("settings.sounds", value=m(f"settings.sounds.{_sounds_state(s)}")),
                 m("settings.symbols", state=m("settings.symbols.on" if s.card_symbols else "settings.symbols.off")),
                 m("settings.tips", state=m("settings.on" if s.tips else "settings.off"))]
        index = choose(program.input, program.announcer, m("settings.title"), items, m("prompt.menu"),
                       messages=program.messages, announce=announce)
        if index is None:  # Escape, as the title says: ten items, so that one key picks each
            program.say(m("settings.closed"))  # in a match only the prompt would follow
            return
        before = program.settings
        ACTIONS[index](program)
        if program.settings != before:  # "Settings saved." only for a change (not for a voice list that is off)
            program._save_settings()
        announce = False


def _voice(program: SettingsHost) -> None:
    program.say(program.toggle_voice())


def _voice_name(program: SettingsHost) -> str:
    """The chosen voice as the settings menu says it: its spoken name, or "default"."""
    voice_id = program.settings.voice_id
    if not voice_id:
        return program.messages("settings.default_voice")
    for voice in program.speaker.voices():
        if voice.id == voice_id:
            return spoken_voice_name(voice)
    return spoken_voice_name(VoiceInfo(voice_id, "", ()))


def _choose_voice(program: SettingsHost) -> None:
    if not program.voice_is_on():
        program.say(program.messages("settings.voices.off"))  # not "none found": none was looked for
        return
    voices = program.speaker.voices()
    if not voices:
        program.say(program.messages("settings.voices.none"))
        return
    voices = voices_in_language_first(voices, program.lang)  # English voices first in an English game
    index = choose(program.input, program.announcer, program.messages("settings.voices.title"),
                   [spoken_voice_name(v) for v in voices], program.messages("prompt.menu"),
                   messages=program.messages)
    if index is not None:
        program.settings = program.settings.with_changes(voice_id=voices[index].id)
        program.apply_voice_settings()


def _adjust(program: SettingsHost, field: str, step: float, low: float, high: float, prompt_key: str) -> None:
    program.say(program.messages(prompt_key))
    while True:
        token = program.input.read(program.messages("prompt.menu") + " ")
        if token in (ENTER, ESCAPE):
            return
        if token in {"u", "d"}:
            value = getattr(program.settings, field) + (step if token == "u" else -step)
            value = min(high, max(low, round(value, 2)))
            program.settings = program.settings.with_changes(**{field: value})
            program.apply_voice_settings()
            shown = round(value * 100) if field == "volume" else value
            line = program.messages(f"settings.{field}.now", value=shown)  # a sentence: not "200 Choice?"
            if value in (low, high):
                line += " " + program.messages("settings.at_most" if value == high else "settings.at_least")
            program.say(line)
        else:
            program.say(program.messages(prompt_key))


def _rate(program: SettingsHost) -> None:
    _adjust(program, "rate", 25, 80, 450, "settings.rate.prompt")


def _volume(program: SettingsHost) -> None:
    _adjust(program, "volume", 0.1, 0.0, 1.0, "settings.volume.prompt")


def profile_name(settings: Settings) -> str:
    """brief, default or full; "own" when the switches were set one by one to something else."""
    return profile_of(settings.news, settings.words) or "own"


def cycle_profile(program: SettingsHost) -> str:
    """The next profile (brief, default, full, brief...) with every switch it sets; the line saying it.

    The A key of a match and the first item of the announcements menu; the caller saves."""
    current = profile_of(program.settings.news, program.settings.words)
    program.settings = program.settings.with_profile(next_profile(current))
    program.verbosity = program.settings.words
    _update_narrator(program)
    return program.messages(f"profile.{profile_name(program.settings)}")


def _verbosity(program: SettingsHost) -> None:
    """The announcements: the profile, then one switch for each kind of news; Escape goes back."""
    announce = True
    while True:
        m, news = program.messages, program.settings.news
        items = [m("settings.news.profile", value=m(f"profile.value.{profile_name(program.settings)}"))]
        items += [m(f"settings.news.{kind}", state=m(f"settings.news.{'on' if getattr(news, kind) else 'off'}"))
                  for kind in KINDS]
        hands = program.settings.transcript_hands
        items.append(m("settings.transcript_hands", state=m("settings.news.on" if hands else "settings.news.off")))
        index = choose(program.input, program.announcer, m("settings.news.title"), items, m("prompt.menu"),
                       messages=m, announce=announce)
        if index is None:
            program.say(m("settings.news.closed"))
            return
        if index == 0:
            program.say(cycle_profile(program))
        elif index == len(items) - 1:  # not news: what a pass-and-play transcript keeps
            hands = not program.settings.transcript_hands
            program.settings = program.settings.with_changes(transcript_hands=hands)
            program.say(m("settings.transcript_hands.now.on" if hands else "settings.transcript_hands.now.off"))
        else:
            kind = KINDS[index - 1]
            program.settings = program.settings.with_news(news.switched(kind))
            _update_narrator(program)
            state = "on" if getattr(program.settings.news, kind) else "off"
            program.say(m(f"settings.news.{kind}.now", state=m(f"settings.news.{state}")))
        program._save_settings(quiet=True)
        announce = False


def _language(program: SettingsHost) -> None:
    program.lang = LANGUAGES[(LANGUAGES.index(program.lang) + 1) % len(LANGUAGES)]
    program.messages = Messages(program.lang)
    program.settings = program.settings.with_changes(language=program.lang)
    _update_narrator(program)
    program.say(program.messages("settings.language.now", value=program.messages(f"language.{program.lang}")))
    if program.voice_is_on():
        note = program.match_voice_to_language()
        if note:
            program.say(note)


def _cards(program: SettingsHost) -> None:
    program.naming = NAMINGS[(NAMINGS.index(program.naming) + 1) % len(NAMINGS)]
    program.settings = program.settings.with_changes(card_names=program.naming)
    _update_narrator(program)
    program.say(program.messages("settings.cards.now", value=program.messages(f"naming.{program.naming}")))


def _update_narrator(program: SettingsHost) -> None:
    narrator = getattr(program, "narrator", None)
    if narrator is None:
        return
    narrator.verbosity = program.verbosity
    narrator.news = program.settings.news
    narrator.messages = program.messages
    narrator.cards = CardNames(program.messages, program.naming)


SOUND_STATES = ("off", "on", "instead")  # earcons off; on beside the words; on in place of a few words


def _sounds_state(settings: Settings) -> str:
    if not settings.earcons:
        return "off"
    return "instead" if settings.sounds_replace_words else "on"


def _sounds(program: SettingsHost) -> None:
    """Off, on, on in place of "Your turn." and "Scopa!", then off again."""
    state = SOUND_STATES[(SOUND_STATES.index(_sounds_state(program.settings)) + 1) % len(SOUND_STATES)]
    program.settings = program.settings.with_changes(earcons=state != "off", sounds_replace_words=state == "instead")
    program.say(program.messages(f"settings.sounds.now.{state}"))


def _symbols(program: SettingsHost) -> None:
    program.settings = program.settings.with_changes(card_symbols=not program.settings.card_symbols)
    if not program.settings.card_symbols:
        program.say(program.messages("settings.symbols.now.off"))
    elif program.screen_reader_mode():
        program.say(program.messages("settings.symbols.now.on"), program.messages("settings.symbols.hidden"))
    else:
        program.say(program.messages("settings.symbols.now.on"))


def _tips(program: SettingsHost) -> None:
    """Tips at beginner and easy tables, on or off; from the next turn, in a match too."""
    program.settings = program.settings.with_changes(tips=not program.settings.tips, tips_offered=True)
    _update_narrator(program)
    program.say(program.messages("settings.tips.now.on" if program.settings.tips else "settings.tips.now.off"))


ACTIONS = [_voice, _choose_voice, _rate, _volume, _verbosity, _language, _cards, _sounds, _symbols, _tips]
