"""The room server (``scopa serve``): rooms, their stores (SQLite, Redis), the cluster, ratings,
the daily deal, the turn clock, computers thinking off the loop, metrics, health and launch.

It speaks ``net.protocol``; nothing outside ``net`` imports it but the composition root
(``scopa.__main__``) and the benchmarks.
"""
