"""The keys of the game: one place, so help, prompts and tests agree."""
from __future__ import annotations

# key -> command word. Every command also works as a typed word after ":".
COMMAND_KEYS = {
    "t": "table", "h": "hand", "l": "last", "s": "score", "p": "pile", "i": "suggest",
    "r": "repeat", "x": "stop", "v": "voice", "o": "settings", "u": "rules", "w": "save",
    "q": "quit", "?": "help", "b": "breakdown", "a": "announcements",
}
WORDS = set(COMMAND_KEYS.values()) | {"export", "import", "verbose", "short", "full"}
ALIASES = {"last plays": "last", "my pile": "pile", "stop speech": "stop", "hint": "suggest",
           "options": "settings", "exit": "quit"}
# The Italian words the Italian help lists; the single keys are the same in both languages.
ITALIAN = {"tavolo": "table", "mano": "hand", "ultime": "last", "punti": "score", "prese": "pile",
           "suggerisci": "suggest", "ripeti": "repeat", "voce": "voice", "brevi": "short", "completi": "full",
           "impostazioni": "settings", "resoconto": "breakdown", "regole": "rules", "salva": "save",
           "esporta": "export", "importa": "import", "esci": "quit", "aiuto": "help",
           "annunci": "announcements"}
YES = {"y", "yes", "s", "si", "sì"}


def typed_number(token: str) -> int | None:
    """The number a key or typed word gives, in ASCII digits (four at most); else None.

    ``str.isdigit`` also says yes to "²" and to thousands of digits, which ``int`` refuses."""
    if token.isascii() and token.isdigit() and len(token) <= 4:
        return int(token)
    return None


def command_of(token: str) -> tuple[str, str] | None:
    """(command, argument) for a key or typed command line, or None when it is no command."""
    if token in COMMAND_KEYS:
        return COMMAND_KEYS[token], ""
    word, _, argument = token.strip().partition(" ")
    lowered = token.strip().lower()
    if lowered in ALIASES:
        return ALIASES[lowered], ""
    word = ITALIAN.get(word.lower(), word.lower())
    if word in WORDS:
        return word, argument.strip()
    return None
