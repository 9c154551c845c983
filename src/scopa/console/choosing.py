"""Choosing a move by keys: a card by its number, then what it takes. One place for matches and lessons.

The Card?, Capture? and Play? prompts behave the same in a match and in a lesson: the same
number keys (0 is item 10 of a list of ten or more), the same lines for a wrong number, Enter
and Escape, and the same capture menu. What differs is passed in: how a prompt is read (a
match offers to save on Ctrl-C), which commands work, what the suggest key does at Card? (a
match offers its suggestion to play; a lesson's commands repeat the hint), and what Escape does
at Card? (nothing to cancel in a match; a lesson is left).

Privacy: the picked card is still in the hand, so what it would take (and a suggestion) comes
from the narrator as announcements private to the seat; the announcer keeps them out of the
voice while hands are silent. The chooser never builds a line naming a card itself.
"""
from __future__ import annotations

import contextlib
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass

from ..engine import Card, Move, PlayerView, legal_captures
from ..narration import Announcement, Narrator
from ..narration.typed import cards_named
from ..players.knowledge import is_last_play  # a sweep on the last play is no scopa: not called one
from .keys import command_of, typed_number
from .terminal import ENTER, ESCAPE


def item_number(token: str, count: int) -> int | None:
    """The number typed for one of ``count`` numbered items (a card, an option), or None.

    The 0 key is 10 when there are ten or more (a scopone hand), since a single key 1 already
    picks the first. The number may be out of range; the caller says so."""
    return 10 if token == "0" and count >= 10 else typed_number(token)


def unknown_key(token: str, at_card: bool = False) -> str:
    """The message key for a token that is neither a number nor a command: a key or a typed word
    (at Card?, a typed word that is not a card's name either)."""
    if len(token) == 1:
        return "error.unknown"
    return "error.not_card_or_key" if at_card else "error.unknown_command"


def _is_suggest(token: str) -> bool:
    command = command_of(token)
    return command is not None and command[0] == "suggest"


@dataclass
class MoveChooser:
    """The keys of one turn, from Card? to a move; nothing reaches the engine before Enter.

    ``read`` takes a prompt's message key and returns the token typed; ``command`` runs a command
    key or word and says False when the token is none. ``suggest``, when given, answers the
    suggest key at Card? with a move to offer (already said), or None. ``escape``, when given,
    is what Escape at Card? does (it may raise); without it the player is told how to pick.
    ``question`` opens the capture menu as one question until answered (``terminal.question`` on the
    input: the page's buttons for it come back when Capture? is asked again)."""

    read: Callable[[str], str]
    say: Callable[..., None]
    narrator: Narrator
    command: Callable[[str], bool]
    suggest: Callable[[], Move | None] | None = None
    escape: Callable[[], None] | None = None
    question: Callable[[], AbstractContextManager[None]] = contextlib.nullcontext

    def message(self, key: str, **params: object) -> str:
        return self.narrator.messages(key, **params)  # looked up each time: the settings may change the language

    def move(self, view: PlayerView) -> Move:
        """Card? until a card of the seat's hand, its capture and Enter make a move.

        At Play? another card's number switches to that card, as if it had been picked at Card?."""
        hand = view.hand
        switched: str | None = None  # a card's number typed at Play?
        while True:
            token = switched if switched is not None else self.read("prompt.card")
            switched = None
            number = item_number(token, len(hand))
            if number is not None:
                if not 1 <= number <= len(hand):
                    self.say(self.narrator.messages.plural("error.no_card", len(hand), number=number,
                                                           count=len(hand)))
                    continue
                move = self.capture(view, hand[number - 1])
                if isinstance(move, str):
                    switched = move
                elif move is not None:
                    return move
            elif token == ESCAPE and self.escape is not None:
                self.escape()
            elif token in (ENTER, ESCAPE):
                self.say(self.narrator.messages.plural("error.pick_card", len(hand), count=len(hand)))
            elif self.suggest is not None and _is_suggest(token):
                move = self.suggest()
                if move is not None:
                    answer = self.confirm(view.seat, len(hand))
                    if answer is True:
                        return move
                    if isinstance(answer, str):
                        switched = answer
                    else:
                        self.cancelled()
            elif self.command(token):
                pass
            elif (named := cards_named(token)) is not None and len(token) > 1:
                switched = self.named_card(view, named)
            else:
                self.say(self.message(unknown_key(token, at_card=True)))

    def named_card(self, view: PlayerView, named: frozenset[Card]) -> str | None:
        """A card's name typed at Card?: its number in the hand, to pick it as that key would; else
        None, with one line saying why (not in the hand, or which of two cards of a rank)."""
        numbers = [i + 1 for i, card in enumerate(view.hand) if card in named]
        if len(numbers) == 1:
            return str(numbers[0])
        if numbers:  # each with its number, to type: "3, king of hearts, or 5, king of spades"
            options = [self.message("choose.which.option", n=n, card=self.narrator.cards.name(view.hand[n - 1]))
                       for n in numbers]
            cards = ", ".join(options[:-1]) + self.message("choose.which.or") + options[-1]
            self.say(Announcement(self.message("choose.which", cards=cards), view.seat))  # names the hand
        else:
            self.say(self.message("choose.not_in_hand"))
        return None

    def capture(self, view: PlayerView, card: Card) -> Move | str | None:
        """What the card of the view's seat takes: confirm the only choice, or pick from the numbered capture menu.

        Escape goes back to Card? with the position untouched (None); another card's number at
        Play? is given back (a str) for that card to be picked instead."""
        options = legal_captures(card, view.table, view.rules)
        self.say(*self.narrator.capture_choice(view.seat, card, options, view.table, is_last_play(view)))
        if len(options) <= 1:
            answer = self.confirm(view.seat, len(view.hand))
            if isinstance(answer, str):
                return answer
            if not answer:
                self.cancelled()
                return None
            return Move(card, options[0] if options else ())
        option = self.capture_menu(view.seat, options)
        return None if option is None else Move(card, option)

    def capture_menu(self, seat: int, options: list[tuple[Card, ...]]) -> tuple[Card, ...] | None:
        """A number picks an option ("Capture?"), Enter plays it ("Play?"), Escape cancels."""
        with self.question():
            return self._capture_answer(seat, options)

    def _capture_answer(self, seat: int, options: list[tuple[Card, ...]]) -> tuple[Card, ...] | None:
        chosen: int | None = None
        while True:
            token = self.read("prompt.capture" if chosen is None else "prompt.play")
            if token == ESCAPE:
                self.cancelled()
                return None
            if token == ENTER and chosen is not None:
                self.narrator.confirmed(seat)
                return options[chosen]
            number = item_number(token, len(options))
            if number is not None and 1 <= number <= len(options):
                chosen = number - 1
                self.say(self.narrator.picked_option(seat, chosen + 1, options[chosen]))
            elif number is not None or token == ENTER:
                self.say(self.message("error.no_option", count=len(options)))
            elif not self._command_in_turn(token):
                self.say(self.message(unknown_key(token)))

    def confirm(self, seat: int, hand_size: int = 0) -> bool | str:
        """Play? Enter plays (True), Escape does not (False), a number of one of ``hand_size``
        cards switches to that card (the key, given back); anything else but a command says
        which is which."""
        while True:
            token = self.read("prompt.play")
            if token == ENTER:
                self.narrator.confirmed(seat)  # the key hints go once the player has shown they know them
                return True
            if token == ESCAPE:
                return False
            number = item_number(token, hand_size)
            if number is not None and 1 <= number <= hand_size:
                return token
            if not self._command_in_turn(token):
                self.say(self.message("error.confirm"))

    def _command_in_turn(self, token: str) -> bool:
        """A command at Capture? or Play?: the suggest key says how to get a suggestion from here."""
        if _is_suggest(token) and self.suggest is not None:
            self.say(self.message("hint.from_card"))
            return True
        return self.command(token)

    def cancelled(self) -> None:
        self.say(self.message("choose.cancelled"))
