"""A scripted player of the daily deal (issue 29), shared by its store tests and its pty test."""
from __future__ import annotations

import contextlib
import time
from collections.abc import Callable

from helpers.net import Client
from scopa.engine import CardsDealt
from scopa.net.protocol.client_messages import DailyDeal, MoveRequest
from scopa.net.protocol.server_messages import Accepted, ErrorMessage, Refused, UpdateMessage, Welcome


def play_deal(url: str, name: str, key: str | None, deal: int = 1, last: bool = False, day: str | None = None,
              begun: Callable[[], None] = lambda: None) -> tuple[Client, list]:
    """Play the day's deal ``deal`` to its end (the first legal move each turn, or the last one),
    of ``day`` when given (None: today's, as a client before the day was named); ``begun`` is
    called once its room is made. The client, and the cards of each hand the player was dealt."""
    client = Client(url)
    client.send(DailyDeal(name, deal, key, day))
    welcome = client.until(lambda m: isinstance(m, (Welcome, ErrorMessage)))
    assert isinstance(welcome, Welcome), welcome
    assert welcome.info.phase == "playing" and welcome.commitment is not None
    client.commitment = welcome.commitment
    begun()
    hands: list = []

    def note(message) -> bool:
        if isinstance(message, UpdateMessage) and isinstance(message.update.event, CardsDealt):
            hands.append(tuple(sorted(str(c) for c in message.update.view.hand)))
        return False

    ids = iter(range(1, 10 ** 6))
    end = time.monotonic() + 60
    while client.view is None or client.view.phase.value != "match_over":
        assert time.monotonic() < end, "the daily deal did not end in time"
        while True:  # read whatever is waiting: a move is made from the newest position
            try:
                note(client.recv(0.05))
            except TimeoutError:
                break
        view = client.view
        if view is not None and view.is_my_turn:
            moves = view.legal_moves()
            client.send(MoveRequest(next(ids), moves[-1] if last else moves[0], client.number))
            answer = client.until(lambda m: note(m) or isinstance(m, (Accepted, Refused)))
            assert isinstance(answer, Accepted) or answer.kind == "stale", answer
        else:
            with contextlib.suppress(TimeoutError):
                note(client.recv(0.5))
    return client, hands
