"""Room codes and seat keys: short codes people can read out, keys nobody can guess.

A room code is six characters from ``ALPHABET``, which leaves out the look-alikes (0 and O,
1, I and L, 2 and Z, 5 and S, 8 and B): a player reading one aloud or typing it from a screen
reader's spelling cannot confuse two. ``normalise_code`` ignores case, spaces and dashes, so
``abc-def``, ``ABC DEF`` and ``abcdef`` are the same room.

A seat key is ``secrets.token_urlsafe(KEY_BYTES)``: 192 random bits. The server keeps only
``key_hash(key)`` (SHA-256) and compares hashes with ``hmac.compare_digest``.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets

ALPHABET = "ACDEFGHJKMNPQRTUVWXY3479"
CODE_LENGTH = 6
KEY_BYTES = 24  # 192 bits; token_urlsafe gives 32 characters
KEY_MAX_LENGTH = 64
_KEY_CHARACTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
_IGNORED = " -\t_."


def new_code() -> str:
    """A fresh random room code (the caller checks it is not in use)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(text: str) -> str | None:
    """The code as the server keeps it, or ``None`` when ``text`` cannot be one."""
    if not isinstance(text, str) or len(text) > 32:
        return None
    cleaned = "".join(ch for ch in text if ch not in _IGNORED).upper()
    if len(cleaned) != CODE_LENGTH or any(ch not in ALPHABET for ch in cleaned):
        return None
    return cleaned


def spelt(code: str) -> str:
    """The code as separate characters, for a voice to say one by one: ``"A C D 3 4 7"``."""
    return " ".join(code)


def new_seat_key() -> str:
    return secrets.token_urlsafe(KEY_BYTES)


def is_key_shaped(text: object) -> bool:
    """A string that could be a seat key (checked before hashing: no huge or odd input)."""
    return (isinstance(text, str) and 16 <= len(text) <= KEY_MAX_LENGTH
            and all(ch in _KEY_CHARACTERS for ch in text))


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode("ascii")).hexdigest()


def key_matches(key: str, stored_hash: str) -> bool:
    """Whether ``key`` is the one whose hash is stored, compared in constant time."""
    return hmac.compare_digest(key_hash(key), stored_hash)
