"""The table boundary between a console seat and whoever holds the full match (see ``protocol``)."""
from .protocol import (Notice, NoticeKind, Refusal, Resync, SeatInfo, SeatKind, SeatUpdate, SubmitResult, Table,
                       TableEvent, TableInfo)

__all__ = ["Notice", "NoticeKind", "Refusal", "Resync", "SeatInfo", "SeatKind", "SeatUpdate", "SubmitResult",
           "Table", "TableEvent", "TableInfo"]
