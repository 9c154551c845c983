"""Saving matches: the autosave after every turn, export and import, and the results log.

Quick tour::

    store = SavedMatches(data_dir)           # data_dir None: the platform's user data folder
    listing = store.list()                   # Listing(saves, set_aside): most recently played first
    lock = store.create(record)              # a new saved match beside the others, locked
    store.save(lock.match_id, record)        # after every completed turn; atomic
    store.delete(match_id)                   # SaveLockedError while another copy has it open
    AutosaveStore(data_dir).load().record    # the most recently played match

    print(EXPORT_WARNING); export_match(record, "match.json")
    record = import_match("match.json")      # SaveFileError otherwise: str() in English,
                                             # error.localised(messages) in the player's language

    record_result(record, when="2024-05-01 20:15", data_dir=data_dir); load_results(data_dir)
"""
from .atomic import NotAPlainFileError, atomic_write_text
from .codec import (
    EXPORT_WARNING,
    FORMAT,
    KINDS,
    LEVELS,
    MIGRATIONS,
    VERSION,
    SaveFileError,
    match_from_json,
    match_to_json,
    record_from_dict,
    record_to_dict,
)
from .files import (
    AUTOSAVE_NAME,
    default_data_dir,
    export_match,
    import_match,
    read_match_file,
    resolve_data_dir,
    user_path,
)
from .results import (
    RESULTS_NAME,
    MatchResult,
    iter_results,
    load_results,
    record_result,
    recorded_match,
    result_at,
    result_of,
)
from .saves import AutosaveStore, Listing, LoadResult, MatchLock, SavedMatch, SavedMatches, SaveLockedError, SetAside

__all__ = [
    "AUTOSAVE_NAME", "EXPORT_WARNING", "FORMAT", "KINDS", "LEVELS", "MIGRATIONS", "RESULTS_NAME", "VERSION",
    "AutosaveStore", "Listing", "LoadResult", "MatchLock", "MatchResult", "NotAPlainFileError", "SaveFileError",
    "SaveLockedError", "SavedMatch", "SavedMatches", "SetAside", "atomic_write_text", "default_data_dir",
    "export_match", "import_match", "iter_results", "load_results", "match_from_json", "match_to_json",
    "read_match_file", "record_from_dict", "record_result", "record_to_dict", "recorded_match",
    "resolve_data_dir", "result_at", "result_of", "user_path",
]
