"""The leaderboard's lines, in the player's language: one a player, rank first, then the
player's own place ("You are 42nd of 310, rating 27.4."); ``scopa leaderboard``, the online
menu's "see the leaderboard" and the rating line of ``scopa --stats`` say them."""
from __future__ import annotations

from pathlib import Path

from ..narration import Messages
from ..net.protocol.server_messages import BoardPlace, BoardRow, Leaderboard
from ..storage.player_key import last_rating


def place(rank: int, lang: str) -> str:
    """A rank as said: "42nd" in English; Italian says "posto 42" around a plain number."""
    if lang != "en":
        return str(rank)
    suffix = "th" if 10 <= rank % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(rank % 10, "th")
    return f"{rank}{suffix}"


def rating_text(rating: float, lang: str) -> str:
    """A rating as said: "27 point 4", "minus 1 point 8" ("27 virgola 4", "meno 1 virgola 8")."""
    return Messages(lang).decimal(rating)


def row_line(row: BoardRow, messages: Messages) -> str:
    key = "leaderboard.row_one" if row.matches == 1 else "leaderboard.row"
    return messages(key, rank=place(row.rank, messages.lang), name=row.name,
                    rating=rating_text(row.rating, messages.lang), matches=row.matches)


def menu_items(board: Leaderboard, messages: Messages, keyed: bool) -> list[str]:
    """The board as a menu's items: a row whose rank is its number says no rank ("1, Ann, rating
    3 point 4, 12 matches", not "1, 1st, Ann", two numbers in a row; issue 38)."""
    items = []
    for number, row in enumerate(board.rows, 1):
        if row.rank == number:
            key = "leaderboard.item_one" if row.matches == 1 else "leaderboard.item"
            line = messages(key, name=row.name, rating=rating_text(row.rating, messages.lang), matches=row.matches)
        else:
            line = row_line(row, messages)
        items.append(line.removesuffix("."))
    rest = board_lines(board, messages, keyed)[len(board.rows):]
    return items + [line.removesuffix(".") for line in rest]


def you_line(you: BoardPlace, messages: Messages) -> str:
    return messages("leaderboard.you", rank=place(you.rank, messages.lang), of=you.of,
                    rating=rating_text(you.rating, messages.lang))


def board_lines(board: Leaderboard, messages: Messages, keyed: bool, programs: bool = False) -> list[str]:
    """Every line of the board, as printed and spoken: one a player, then the player's own
    (``programs``: the programs' board, docs/protocol.md)."""
    empty = "leaderboard.empty.programs" if programs else "leaderboard.empty"
    lines = [row_line(row, messages) for row in board.rows] or [messages(empty)]
    if board.you is not None:
        lines.append(you_line(board.you, messages))
    elif keyed:
        lines.append(messages("leaderboard.not_rated"))
    return lines


def stats_line(data_dir: Path, messages: Messages) -> str | None:
    """The rating line ``scopa --stats`` adds: the place last heard, on its server."""
    heard = last_rating(data_dir)
    if heard is None:
        return None
    server, rank, of, rating = heard
    from urllib.parse import urlsplit
    host = urlsplit(server).hostname or server
    return messages("leaderboard.stats", rating=rating_text(rating, messages.lang), host=host,
                    rank=place(rank, messages.lang), of=of)
