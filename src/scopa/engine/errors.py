"""Errors the engine raises. Each message is a sentence a player can be shown."""


class ScopaError(ValueError):
    """Base class: every engine error is a ``ValueError`` with a plain message."""


class RulesError(ScopaError):
    """An impossible combination of rule options (for example scopone with two players)."""


class IllegalMoveError(ScopaError):
    """A move that the rules do not allow in this position. The state is unchanged."""
