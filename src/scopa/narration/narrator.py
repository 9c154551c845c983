"""Turns engine events and positions into announcements: one plain line each.

An ``Announcement`` that reveals a hand carries ``private_to`` (the seat whose hand it is),
so the console and the voice can keep it behind that seat's gate and out of Repeat.
Every method that names a card still in a hand (the hand itself, the card being chosen and
what it takes, a suggestion) returns such private announcements, never plain text, so no
caller can pass a hand on as a public line by forgetting to mark it.
"""
from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from ..engine import (
    SETTEBELLO,
    Card,
    CardPlayed,
    CardsCaptured,
    CardsDealt,
    CardStaysOnTable,
    Category,
    DealScore,
    DealScored,
    DealStarted,
    Event,
    HandClaimed,
    LeftoversTaken,
    Move,
    OpeningTableTaken,
    Play,
    PlayerView,
    Rules,
    Scopa,
    Variant,
    match_result,
    primiera,
)
from ..engine.captures import is_sweep_capture
from ..engine.cards import RANKS
from ..engine.fifteen import opening_scope
from ..engine.scoring import grande_points, piccola_points
from .cards import CardNames, Naming
from .messages import Messages, capitalised
from .news import News

if TYPE_CHECKING:
    from ..players.heuristic import MoveAnalysis

Verbosity = Literal["short", "full"]


@dataclass(frozen=True)
class Announcement:
    """One line for the screen and the voice. ``private_to`` marks a hand's contents.

    ``spoken``, when given, is what the voice says instead of ``text`` (a room code spelt out
    character by character, which the screen shows whole and then spelt)."""

    text: str
    private_to: int | None = None
    spoken: str | None = None
    unsaid: bool = False  # neither printed nor spoken: the line stands only for its earcon

    @property
    def private(self) -> bool:
        return self.private_to is not None

    def reworded(self, text: str) -> Announcement:
        """Another line built around this one ("Suggestion. {reason}"): it keeps this one's privacy."""
        return Announcement(text, self.private_to, unsaid=self.unsaid)


KEYS_LEARNT = 3  # moves confirmed with Enter after which the key hints of Play? are left out (short)


class Narrator:
    """Words for one match: seat names, who "you" is, language, card naming and verbosity.

    ``you`` is the seat addressed as "you" (the only human at the table), or ``None`` in
    pass-and-play, where everyone is called by name.
    """

    def __init__(self, seat_names: Sequence[str], rules: Rules, you: int | None = None, lang: str = "en",
                 naming: Naming = "french", verbosity: Verbosity = "short", news: News | None = None) -> None:
        self.seat_names = tuple(seat_names)
        self.rules = rules
        self.you = you
        self.messages = Messages(lang)
        self.cards = CardNames(self.messages, naming)
        self.verbosity = verbosity
        self.news = news or News()  # what the match tells unasked; the settings change it in place
        self._confirmed: dict[int, int] = {}  # seat -> moves confirmed with Enter: after KEYS_LEARNT, no key hints

    @property
    def terse(self) -> bool:
        return self.verbosity == "short"

    def _t(self, key: str, **params: object) -> str:
        """A message in this verbosity's words: the ``.short`` form at short verbosity, when there is one."""
        if self.terse and self.messages.has(f"{key}.short"):
            key = f"{key}.short"
        return self.messages(key, **params)

    def named(self, card: Card) -> str:
        """A card as a line names it: with its article at full verbosity, bare at short."""
        return self.cards.name(card) if self.terse else self.cards.the(card)

    def _list(self, cards: Sequence[Card]) -> str:
        return self.cards.list(cards, article=not self.terse)

    def confirmed(self, seat: int) -> None:
        """``seat``'s player confirmed a move with Enter: they are learning the keys of Play?."""
        self._confirmed[seat] = self._confirmed.get(seat, 0) + 1

    def key_hints(self, seat: int) -> bool:
        """Whether Play? still tells its keys to ``seat``'s player (each player of a pass-and-play
        table learns them for themselves): always at full verbosity, else until they have used them."""
        return not self.terse or self._confirmed.get(seat, 0) < KEYS_LEARNT

    # Names ---------------------------------------------------------------
    def seat(self, seat: int, capital: bool = True) -> str:
        if seat == self.you:
            return self.messages("you.capital" if capital else "you")
        return self.seat_names[seat]

    def side(self, side: int, capital: bool = True, object_form: bool = False) -> str:
        """A side's name: a seat name, or both partners' names in four-player games.

        ``object_form`` names "you" as the object of a preposition ("Punto a te", "Point to you").
        """
        if self.rules.players != 4:
            if object_form and side == self.you:
                return self.messages("you.object")
            return self.seat(side, capital)
        a, b = side, side + 2
        if self.you in (a, b):
            partner = b if self.you == a else a
            key = "side.you_and.object" if object_form else "side.you_and"
            text = self.messages(key, partner=self.seat_names[partner])
            return text[0].upper() + text[1:] if capital and not object_form else text
        return self.messages("side.pair", a=self.seat_names[a], b=self.seat_names[b])

    def _partner_of_you(self, side: int) -> str | None:
        """In four-player games, your partner's name when ``side`` is your side; else None."""
        if self.rules.players != 4 or self.you is None or self.rules.side_of(self.you) != side:
            return None
        return self.seat_names[(self.you + 2) % 4]

    def _is_you_side(self, side: int) -> bool:
        return self.you is not None and self.rules.side_of(self.you) == side and self.rules.players != 4

    def _you(self, key: str, seat: int | None, **params: object) -> str:
        """The ".you" form of a message when ``seat`` is the player addressed as you."""
        if seat is not None and seat == self.you:
            return self.messages(f"{key}.you", **params)
        return self.messages(key, name=self.seat(seat) if seat is not None else "", **params)

    def _you_t(self, key: str, seat: int | None, **params: object) -> str:
        """``_you`` in this verbosity's words."""
        if self.terse and self.messages.has(f"{key}.short"):
            key = f"{key}.short"  # with its own ".you" form beside it
        return self._you(key, seat, **params)

    # Events ----------------------------------------------------------------
    def events(self, events: Sequence[Event], own_move_known: bool = False,
               untold: bool = False, played_for_you: bool = False) -> list[Announcement]:
        """Announcements for a transition's events, a play with its capture and scopa on one line,
        whose scopa first ("Scopa for Felix! Felix plays ...").

        ``own_move_known``: the player here (addressed as you, or by name in pass-and-play) has
        just confirmed this move, so at short verbosity its line is unsaid (kept for its earcon)
        and only the scopa line it made is said. ``untold``: another player's play while their plays
        are switched off (``News.plays``): the play and its scopa are unsaid, L tells them.
        ``played_for_you``: a computer plays the seat of "you" (online, while its player was away),
        so its move is "Played for you, king of clubs, takes king of spades." (a comma: a colon is heard)."""
        lines: list[Announcement] = []
        for event in events:
            if played_for_you and isinstance(event, (CardsCaptured, CardStaysOnTable)) and event.seat == self.you:
                text: str | None = self._played_for_you(event)
            else:
                text = self._event_text(event)
            if text is None:
                continue
            if isinstance(event, Scopa) and lines:
                lines[-1] = replace(lines[-1], text=f"{text} {lines[-1].text}")
                if lines[-1].unsaid and not untold:
                    lines.append(Announcement(text))
            else:
                play = isinstance(event, (CardsCaptured, CardStaysOnTable))
                mine = isinstance(event, (CardsCaptured, CardStaysOnTable)) and (
                    self.you is None or event.seat == self.you)  # pass-and-play: the move is the mover's
                known = play and (untold or (own_move_known and self.terse and mine))
                lines.append(Announcement(text, unsaid=known))
        return lines

    def _event_text(self, event: Event) -> str | None:
        m, c = self.messages, self.cards
        if isinstance(event, DealStarted):
            text = self._you("deal.started", event.dealer, number=event.deal_number, dealer=self.seat(event.dealer))
            if event.redeals:
                key = "deal.redealt.aces" if self.rules.variant is Variant.CIRULLA else "deal.redealt"
                text += " " + m.plural(key, event.redeals)
            return text
        if isinstance(event, OpeningTableTaken):
            return self.opening_text(event)
        if isinstance(event, HandClaimed):  # public from now on: said to everyone, with the cards
            return self._you(f"claim.{event.kind}", event.seat, cards=self.cards.list(event.cards))
        if isinstance(event, CardsDealt):
            if event.table is not None:
                table = self.table_text(event.table)
                each = m("deal.first_round") if event.cards_each == 3 else m("deal.first_round.count",
                                                                             count=event.cards_each)
                return f"{each} {table}"
            if event.stock_left:
                return self._t("deal.new_round", stock=event.stock_left)
            return self._t("deal.new_round.last")
        if isinstance(event, CardPlayed):
            return None  # told together with what the card did
        if isinstance(event, CardsCaptured):
            key = ("play.whole_table" if event.whole_table
                   else "play.capture.fifteen" if self.makes_fifteen(event.card, event.cards) else "play.capture")
            return self._you_t(key, event.seat, card=self.named(event.card), cards=self._list(event.cards))
        if isinstance(event, CardStaysOnTable):
            return self._you_t("play.stays", event.seat, card=self.named(event.card))
        if isinstance(event, Scopa):
            return self.scopa_text(event.seat)
        if isinstance(event, LeftoversTaken):
            if event.seat is None:
                return m.plural("leftovers.nobody", len(event.cards), cards=c.list(event.cards, article=True))
            # short: "Greta takes the last cards, two of clubs and ...", without "on the table" and the articles
            return self._you_t("leftovers", event.seat, cards=self._list(event.cards))
        if isinstance(event, DealScored):
            return None  # the console reads the score sheet with score_lines()
        # MatchWon is the kind left (mypy checks that no kind of Event is left out above).
        return self.match_result(event.side, event.match_scores)

    def opening_text(self, event: OpeningTableTaken) -> str:
        """Who took the first table and for how many scopas, and the matta when it made the total."""
        key = {1: "opening.fifteen", 2: "opening.thirty", 3: "opening.nine"}.get(event.scope, "opening.fifteen")
        if self.rules.opening_to_leader:
            key += ".leader"
        text = self._you(key, event.dealer)
        plain = replace(self.rules, matta_table=False)
        if self.rules.matta_table and opening_scope(event.cards, plain) != event.scope:
            text = f"{text} {self.messages('opening.matta')}"
        return text

    def _played_for_you(self, event: CardsCaptured | CardStaysOnTable) -> str:
        card = self.cards.name(event.card)
        if isinstance(event, CardStaysOnTable):
            return self.messages("play.for_you.stays", card=card)
        key = "play.for_you.whole_table" if event.whole_table else "play.for_you.capture"
        return self.messages(key, card=card, cards=self.cards.list(event.cards))

    def scopa_text(self, seat: int) -> str:
        """Whose scopa, first: "Your scopa!", "Scopa for Felix!", "Scopa for Elena, your partner!".

        A bare "Scopa!" sounded the same for every seat, and ran into the next line heard."""
        if seat == self.you:
            return self.messages("play.scopa.you")
        if self.rules.players == 4 and self.you is not None and seat == (self.you + 2) % 4:
            return self.messages("play.scopa.partner", name=self.seat_names[seat])
        return self.messages("play.scopa", name=self.seat_names[seat])

    # Positions -------------------------------------------------------------
    def makes_fifteen(self, card: Card, cards: Sequence[Card]) -> bool:
        """Scopa a 15 and Cirulla: the capture makes fifteen with the card played (said so)."""
        return self.rules.fifteen and card.value + sum(c.value for c in cards) == 15

    def table_text(self, table: Sequence[Card]) -> str:
        if not table:
            return self.messages("table.empty")
        return self._t("table.cards", cards=self.cards.list(table))

    def hand(self, view: PlayerView) -> Announcement:
        """The numbered hand, private to its owner: "Your hand. 1, seven of diamonds, 2, ...".

        At short verbosity "Hand, seven of diamonds, ...": up to three cards, their order is their number."""
        if not view.hand:
            return Announcement(self.messages("hand.empty"), view.seat)
        if self.terse and len(view.hand) <= 3:  # three cards in order: their numbers go without saying
            items = [self.cards.name(card) for card in view.hand]
        else:
            items = [self.messages("hand.item", number=i + 1, card=self.cards.name(card))
                     for i, card in enumerate(view.hand)]
        return Announcement(self._t("hand.list", cards=self.messages("list.sep").join(items)), view.seat)

    def hand_known(self, heard: Sequence[Card] | None, hand: Sequence[Card]) -> bool:
        """Short verbosity: the hand is the one read at the last turn less the card played, so it
        need not be read again (H reads it; the card picked is named before Enter plays it)."""
        return (self.terse and heard is not None and len(hand) < len(heard) and set(hand) <= set(heard))

    def notice(self, kind: str, seat: int, name: str = "") -> str:
        """A fact about the people at the table (one joined, left, is back...), naming the seat's
        player; said to that player as their own ("You are away.", not "Ann is away.")."""
        return notice_words(self.messages, kind, seat, name or self.seat_names[seat], self.you)

    def turn(self, seat: int) -> str:
        if seat == self.you:
            return self.messages("turn.yours")
        return self.messages("turn.named", name=self.seat_names[seat])

    def turn_line(self, seat: int) -> Announcement:
        """The turn's first line. "Your turn." is unsaid at short verbosity (the hand and Card?
        follow anyway) but kept for its earcon; "Robin, your turn." is always said."""
        return Announcement(self.turn(seat), unsaid=self.terse and seat == self.you)

    def capture_choice(self, seat: int, card: Card, options: Sequence[tuple[Card, ...]], table: Sequence[Card],
                       last_play: bool = False) -> list[Announcement]:
        """What the chosen card of ``seat``'s hand will do: stay, take one group, or a numbered menu.

        One option a line, all private to ``seat``: the card is still in the hand (and the options
        tell its value). A single capture that clears the table is called a sweep only when it
        scores one: not on the last play of the deal, and not for an ace taking the whole table
        (asso piglia tutto).
        """
        m, card_name = self.messages, self.named(card)
        if not options:
            lines = [self._with_keys(seat, capitalised(self._t("choose.stays", card=card_name)))]
        elif len(options) == 1:
            sweeps = (len(options[0]) == len(table) and not last_play
                      and is_sweep_capture(card, options[0], self.rules))
            key = ("choose.one.scopa" if sweeps else "choose.one.fifteen" if self.makes_fifteen(card, options[0])
                   else "choose.one")
            lines = [self._with_keys(seat, capitalised(self._t(key, card=card_name, cards=self._list(options[0]))))]
        else:
            lines = [self._with_keys(seat, capitalised(self._t("choose.many", card=card_name)), "choose.keys.pick")]
            lines += [m("choose.option.fifteen" if self.makes_fifteen(card, opt) else "choose.option", number=i + 1,
                        cards=self._list(opt)) for i, opt in enumerate(options)]
        return [Announcement(text, seat) for text in lines]

    def picked_option(self, seat: int, number: int, option: Sequence[Card]) -> Announcement:
        """The capture picked from the menu, private to ``seat``: what it takes tells the card's value.

        At short verbosity only its number: the menu was read just before."""
        text = self._t("choose.picked", number=number, cards=self._list(option))
        return Announcement(self._with_keys(seat, text), seat)

    def _with_keys(self, seat: int, text: str, keys: str = "choose.keys") -> str:
        """A Play? or Capture? line with its key hint while the player may still need it."""
        return f"{text} {self.messages(keys)}" if self.key_hints(seat) else text

    # Scores ------------------------------------------------------------------
    def _counts(self, values: Sequence[object]) -> str:
        parts = [self.messages("score.count", name=self.side(i, capital=i == 0), value=v)
                 for i, v in enumerate(values)]
        return self.messages("list.sep").join(parts)

    def _award(self, side: int | None, tied_text: str = "score.tied") -> str:
        if side is None:
            return self.messages(tied_text)
        return self.messages("score.point_to", name=self.side(side, capital=False, object_form=True))

    def score_lines(self, deal_number: int, score: DealScore, match_scores: Sequence[int],
                    assisted: bool = False, whole: bool = True, asked: bool = False) -> list[Announcement]:
        """The end-of-deal score sheet, one category per line, then deal points and match totals.

        At short verbosity the match totals are left out when the deal ends the match: the
        result line that follows says the final score, and the score is said once. ``whole``
        false: only the header, the deal points, the match and the assisted mark (the whole
        score after a deal switched off; B says the sheet). The cards that make each side's
        primiera are said at full verbosity, or when ``asked`` (B, a lesson's sheet): at short
        verbosity the primiera line says each side's total and whose point it is, and the
        cards behind those totals, two lines of a dozen words each, are detail."""
        m = self.messages
        sides = score.sides
        if not whole:
            lines = [m("score.header", number=deal_number),
                     m("score.deal_points", counts=self._counts([s.total for s in sides]))]
            if not (self.terse and match_result(tuple(match_scores), self.rules, score.cappotto)[1]):
                lines.append(self.match_line(match_scores))
            if assisted:
                lines.append(m("score.assisted"))
            return [Announcement(text) for text in lines]
        duel = self.terse and not asked and len(sides) == 2  # "Cards to Robin, 22 to 18.": B says it whole
        lines = [m("score.header", number=deal_number),
                 self._category_line(duel, "cards", [s.cards for s in sides], score.awarded[Category.CARDS]),
                 self._category_line(duel, f"coins.{self.cards.naming}", [s.coins for s in sides],
                                     score.awarded[Category.COINS])]
        holder = score.awarded[Category.SETTEBELLO]
        lines.append(m("score.settebello.nobody") if holder is None
                     else m("score.settebello", name=self.side(holder, capital=False, object_form=True)))
        if duel and all(s.primiera.eligible for s in sides):
            lines.append(self._category_line(duel, "primiera", [s.primiera.total for s in sides],
                                             score.awarded[Category.PRIMIERA]))
        else:
            lines.extend(self._primiera_lines(score, cards=asked or not self.terse))
        if duel:
            scored = [s for s in sides if s.scope]
            lines.append(m("score.duel.scope", counts=m("list.sep").join(
                m("score.count", name=self.side(s.side, capital=False), value=s.scope)
                for s in scored)) if scored else m("score.duel.scope.none"))
        else:
            lines.append(m("score.scope", counts=self._counts([s.scope for s in sides])))
        if Category.NAPOLA in score.categories:
            lines.append(m("score.napola", counts=self._counts([s.napola for s in sides])))
        if Category.RE_BELLO in score.categories:
            holder = score.awarded[Category.RE_BELLO]
            lines.append(m("score.re_bello.nobody") if holder is None
                         else m("score.re_bello", name=self.side(holder, capital=False, object_form=True)))
        if Category.GRANDE in score.categories:  # at short verbosity only a run somebody made
            runs = (("score.grande", [s.grande for s in sides]), ("score.piccola", [s.piccola for s in sides]))
            for key, values in runs:
                if any(values) or asked or not self.terse:
                    lines.append(m(key, counts=self._counts(values)))
        if Category.BONUS in score.categories:
            lines.append(m("score.bonus", counts=self._counts([s.bonus for s in sides])))
        if score.cappotto is not None:
            lines.append(m(f"score.cappotto.{self.cards.naming}",
                           name=self.side(score.cappotto, capital=False, object_form=True)))
        lines.append(m("score.deal_points", counts=self._counts([s.total for s in sides])))
        if not (self.terse and match_result(tuple(match_scores), self.rules, score.cappotto)[1]):
            lines.append(self.match_line(match_scores))
        if assisted:
            lines.append(m("score.assisted"))
        return [Announcement(text) for text in lines]

    def _category_line(self, duel: bool, category: str, values: Sequence[int], side: int | None) -> str:
        """One category of the sheet, ``side`` taking its point (None: nobody). Each side's count
        named ("Cards. You 18, Robin 22. Point to Robin."); or, of two sides (``duel``), whose
        first, the winner's count first ("Cards to Robin, 22 to 18.", "Cards tied, 20 each.")."""
        if not duel:
            return self.messages(f"score.{category}", counts=self._counts(values), result=self._award(side))
        if side is None:
            return self.messages(f"score.duel.{category}.tied", value=values[0])
        return self.messages(f"score.duel.{category}", name=self.side(side, capital=False, object_form=True),
                             won=values[side], lost=values[1 - side])

    def _primiera_lines(self, score: DealScore, cards: bool = True) -> list[str]:
        """The primiera line; with ``cards``, a line a side too: its cards, or the suits it lacks."""
        m = self.messages
        eligible = [s.primiera.eligible for s in score.sides]
        parts = []
        for s in score.sides:
            if s.primiera.eligible:
                parts.append(m("score.count", name=self.side(s.side, capital=s.side == 0), value=s.primiera.total))
            else:
                parts.append(m("score.not_eligible", name=self.side(s.side, capital=s.side == 0)))
        tied = "score.tied" if any(eligible) else "score.nobody"
        lines = [m("score.primiera", counts=m("list.sep").join(parts),
                   result=self._award(score.awarded[Category.PRIMIERA], tied))]
        if not cards:
            return lines
        for s in score.sides:
            if not s.primiera.eligible:
                lines.append(m("score.primiera.not_eligible", name=self.side(s.side, False, object_form=True),
                               suits=self.cards.suits(s.primiera.missing)))
            else:
                lines.append(m("score.primiera.cards", name=self.side(s.side), total=s.primiera.total,
                               cards=self.cards.list(s.primiera.cards)))
        return lines

    def match_line(self, match_scores: Sequence[int]) -> str:
        if self.rules.target is None:
            return self.messages("score.running.match.single", counts=self._counts(match_scores))
        return self.messages("score.match", counts=self._counts(match_scores), target=self.rules.target)

    def players_line(self) -> str:
        """Who plays, partners together: "You and Elena against Giulia and Greta.".

        "You" is capitalised only at the start; after "against" it is the object form: an online
        guest across the table hears "Ann and Bruno against you and Paolo." ("contro te e Paolo")."""
        count = len(self.seat_names)
        order = (0, 2, 1, 3) if count == 4 else tuple(range(count))  # at four, partners (opposite seats) together
        after_against = {1: (), 2: (1,), 3: (), 4: (2, 3)}[count]  # the places in the sentence after "against"
        names = [self._player_in_line(seat, place, place in after_against) for place, seat in enumerate(order)]
        key = {2: "setup.players.two", 3: "setup.players.three", 4: "setup.players.four"}[count]
        return self.messages(key, **dict(zip("abcd"[:count], names, strict=True)))

    def _player_in_line(self, seat: int, place: int, object_form: bool) -> str:
        if seat != self.you:
            return self.seat_names[seat]
        return self.messages("you.capital" if place == 0 else "you.object" if object_form else "you")

    def resumed(self, deal_number: int, match_scores: Sequence[int]) -> list[Announcement]:
        """A resumed match: the deal, who is playing, and the match score."""
        return [Announcement(self.messages("resume.position", deal=deal_number)), Announcement(self.players_line()),
                Announcement(self.match_line(match_scores))]

    def match_result(self, side: int | None, scores: Sequence[int]) -> str:
        counts = self._counts(scores)
        if side is None:
            return self.messages("match.draw", scores=counts)
        if self._is_you_side(side) or (self.rules.players != 4 and side == self.you):
            return self.messages("match.won.you", scores=counts)
        partner = self._partner_of_you(side)
        if partner is not None:
            return self.messages("match.won.side.you", partner=partner, scores=counts)
        key = "match.won.side" if self.rules.players == 4 else "match.won"
        return self.messages(key, name=self.side(side), scores=counts)

    def running_score(self, view: PlayerView) -> list[Announcement]:
        """Match totals and this deal's counts so far (public information)."""
        m = self.messages
        if self.rules.target is None:
            match = m("score.running.match.single", counts=self._counts(view.match_scores))
        else:
            match = m("score.running.match", counts=self._counts(view.match_scores), target=self.rules.target)
        lines = [match,
                 m("score.running", counts=self._counts([len(p) for p in view.piles]),
                   scope=self._counts(view.scope))]
        return [Announcement(t) for t in lines]

    def pile(self, view: PlayerView, side: int) -> Announcement:
        """A side's captures so far: cards, coins, settebello, primiera."""
        m = self.messages
        pile = view.piles[side]
        partner = self._partner_of_you(side)
        if self._is_you_side(side):
            owner = m("pile.owner.you")
        elif partner is not None:
            owner = m("pile.owner.you_and", partner=partner)
        else:
            owner = m("pile.owner", name=self.side(side))
        coins = sum(1 for c in pile if c.suit == 0)
        prim = primiera(pile)
        if prim.eligible:
            prim_text = m("pile.primiera", total=prim.total)
        else:
            prim_text = m("pile.primiera.missing", suits=self.cards.suits(prim.missing))
        sette = m("pile.settebello.yes") if SETTEBELLO in pile else m("pile.settebello.no")
        text = m("pile.summary", owner=owner, cards=m.plural("pile.cards", len(pile)),
                 coins=m.plural(f"pile.coins.{self.cards.naming}", coins), settebello=sette, primiera=prim_text)
        if self.rules.grande_piccola:  # Cirulla: the runs of coins made so far, points of their own
            runs = [m(key, points=points) for key, points in (("pile.grande", grande_points(pile)),
                                                               ("pile.piccola", piccola_points(pile))) if points]
            text = " ".join((text, *runs))
        return Announcement(text)

    def last_plays(self, history: Sequence[Play], count: int, played_for: Collection[int] = ()) -> list[Announcement]:
        """The last few plays of the deal, oldest first; at short verbosity in the short words of
        a play ("Ben played five of clubs, took five of hearts."). ``played_for``: the indexes in
        ``history`` of plays a computer made for "you" (online), told "Played for you, ...", not "You played"."""
        if not history:
            return [Announcement(self.messages("last.none"))]
        lines = []
        first = max(0, len(history) - count)
        for index, play in enumerate(history[first:], first):
            card = self.named(play.card)
            if index in played_for and play.seat == self.you:
                key = "last.for_you.capture" if play.capture else "last.for_you.stays"
                lines.append(self.messages(key, card=card, cards=self._list(play.capture)))
            elif play.capture:
                key = "last.capture.scopa" if play.scopa else "last.capture"
                lines.append(self._you_t(key, play.seat, card=card, cards=self._list(play.capture)))
            else:
                lines.append(self._you_t("last.stays", play.seat, card=card))
        return [Announcement(t) for t in lines]

    def past_move(self, seat: int, move: Move, table: Sequence[Card], last_play: bool = False) -> Announcement:
        """A move just made, told as past for Repeat: "You played the king of hearts and took the
        king of spades." (public: the card is on the table or in a pile now)."""
        card = self.cards.the(move.card)
        if not move.capture:
            return Announcement(self._you("last.stays", seat, card=card))
        scopa = len(move.capture) == len(table) and not last_play and is_sweep_capture(move.card, move.capture,
                                                                                        self.rules)
        key = "last.capture.scopa" if scopa else "last.capture"
        return Announcement(self._you(key, seat, card=card, cards=self.cards.list(move.capture, article=True)))

    # Suggestions --------------------------------------------------------------------
    def suggestion(self, view: PlayerView) -> tuple[Move, Announcement]:
        """The hard level's suggested move for ``view`` and the reason, in this narrator's words.

        Same move as ``scopa.players.suggest_move``; the reason comes from the catalogue and is
        private to ``view.seat`` (it names a card of the hand).
        """
        from ..players import suggest_move
        from ..players.heuristic import HardAnalyser
        move, _ = suggest_move(view)
        return move, self.hint_reason(view, HardAnalyser(view).analyse(move))

    def hint_reason(self, view: PlayerView, analysis: MoveAnalysis) -> Announcement:
        """One sentence saying why a move is good, from public facts only; private to ``view.seat``.

        ``analysis`` is a ``scopa.players.heuristic.MoveAnalysis`` (its ``move``, ``sweep``,
        ``table_left`` and ``sweep_with``); the wording mirrors ``scopa.players.reason_text``.
        """
        m, c = self.messages, self.cards
        move, left = analysis.move, analysis.table_left
        if move.capture:
            key = "hint.take.fifteen" if self.makes_fifteen(move.card, move.capture) else "hint.take"
            action = m(key, cards=c.list(move.capture, article=True), card=c.the(move.card, "your"))
        else:
            action = m("hint.play", card=c.the(move.card))
        if analysis.sweep:
            return Announcement(m("hint.reason.sweep", action=action), view.seat)
        if move.capture and SETTEBELLO in (*move.capture, move.card):
            why = m("hint.why.settebello")
        elif move.capture and not left:
            why = m("hint.why.clears")
        elif move.capture:
            why = m.plural("hint.why.cards", len(move.capture))  # the cards taken, as the player hears them
        elif any(other.capture for other in view.legal_moves()):
            why = m("hint.why.safer")
        else:
            why = m("hint.why.nothing")
        total = sum(card.value for card in left)
        if not left:
            tail = ""
        elif analysis.sweep_with:
            unseen = [0] * 11
            for card in view.unseen_cards():
                unseen[card.value] += 1
            risky = [v for v in analysis.sweep_with if unseen[v]]
            if risky:
                words = c.join(c.count(RANKS[v - 1], unseen[v]) for v in risky)
                tail = m.plural("hint.tail.risky", sum(unseen[v] for v in risky), total=total, unseen=words)
            else:
                tail = m("hint.tail.safe", total=total)
        elif total > (14 if view.rules.fifteen else 10):  # no card makes the sum (or 15 with it)
            tail = m("hint.tail.too_much", total=total)
        else:
            tail = m("hint.tail.no_single", total=total)
        return Announcement(m("hint.reason", action=action, why=why, tail=tail), view.seat)


def watching_together(messages: Messages, kinds_and_names: Sequence[tuple[str, str]]) -> tuple[str | None, int]:
    """The spectators come in one change said in one line, "3 are watching, Carla, Dan, Eve.",
    and the place of the first of them among the notices (None and -1: fewer than two came)."""
    names = [name for kind, name in kinds_and_names if kind == "watching"]
    if len(names) < 2:
        return None, -1
    first = next(n for n, (kind, _) in enumerate(kinds_and_names) if kind == "watching")
    return messages("notice.watching.many", count=len(names), names=", ".join(names)), first


def notice_words(messages: Messages, kind: str, seat: int, name: str, you: int | None) -> str:
    """A notice's line: the ``.you`` form when it is about the listener's own seat and the
    catalogue has one (a player heard "Ann is away. A computer plays for now." of herself)."""
    own = f"notice.{kind}.you"
    if seat == you and messages.has(own):
        return messages(own, seat=seat + 1)
    return messages(f"notice.{kind}", name=name, seat=seat + 1)
