"""The table boundary between a console seat and whoever holds the full match (see ``protocol``).

``LocalTable`` (``local``) is the table of a match played in this process."""
from .local import LocalTable, SaveHooks, computer_seed, computers_for, fresh_seed, held_record, start_match
from .protocol import (
    Notice,
    NoticeKind,
    Refusal,
    Resync,
    SeatInfo,
    SeatKind,
    SeatUpdate,
    SubmitResult,
    Table,
    TableEvent,
    TableInfo,
    own_arrival,
)

__all__ = ["LocalTable", "Notice", "NoticeKind", "Refusal", "Resync", "SaveHooks", "SeatInfo", "SeatKind",
           "SeatUpdate", "SubmitResult", "Table", "TableEvent", "TableInfo", "computer_seed", "computers_for",
           "fresh_seed", "held_record", "own_arrival", "start_match"]
