"""Saving matches: the autosave after every turn, export and import, and the results log.

Quick tour::

    store = AutosaveStore(data_dir)          # data_dir None: the platform's user data folder
    found = store.load()                     # LoadResult(record | None, problem | None, exists)
    store.save(record)                       # after every completed turn; atomic
    store.save(record, replace_bad=True)     # a new match or an import over an unreadable save
    store.discard()                          # the match is over

    print(EXPORT_WARNING); export_match(record, "match.json")
    record = import_match("match.json")      # SaveFileError otherwise: str() in English,
                                             # error.localised(messages) in the player's language

    record_result(record, when="2024-05-01 20:15", data_dir=data_dir); load_results(data_dir)
"""
from .atomic import atomic_write_text
from .codec import (EXPORT_WARNING, FORMAT, KINDS, LEVELS, MIGRATIONS, VERSION, SaveFileError, match_from_json,
                    match_to_json, record_from_dict, record_to_dict)
from .files import (AUTOSAVE_NAME, AutosaveBlockedError, AutosaveStore, LoadResult, default_data_dir,
                    export_match, import_match, read_match_file, resolve_data_dir, user_path)
from .results import RESULTS_NAME, MatchResult, load_results, record_result, recorded_match, result_of

__all__ = [
    "atomic_write_text",
    "EXPORT_WARNING", "FORMAT", "KINDS", "LEVELS", "MIGRATIONS", "VERSION", "SaveFileError", "match_from_json",
    "match_to_json", "record_from_dict", "record_to_dict",
    "AUTOSAVE_NAME", "AutosaveBlockedError", "AutosaveStore", "LoadResult", "default_data_dir",
    "export_match", "import_match", "read_match_file", "resolve_data_dir", "user_path",
    "RESULTS_NAME", "MatchResult", "load_results", "record_result", "recorded_match", "result_of",
]
