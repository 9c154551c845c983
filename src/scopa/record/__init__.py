"""The player's record: statistics, achievements, and a review of any finished match with a coach.

Everything here reads the results log (``scopa.storage.results``) and never writes it; it keeps
what it works out from it in ``results-cache.json`` and what it announced in ``achievements.json``:

- ``replay``: a logged match played again from its seed and move log, deal by deal, play by play.
- ``stats``: the facts of each logged match from the player's seat, and their sums.
- ``facts_cache``: each logged match's facts, kept so a match is replayed once.
- ``achievements``: what the log shows the player has earned, and when.
- ``coach``: the expert level's opinion of each of the player's own plays (fixed samples and seed).
- ``console``: ``scopa --stats``, ``scopa --review``, and the Statistics and Review menus.
"""
