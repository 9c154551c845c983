"""The client of the room server: the ``Link`` (a websocket in a thread of its own),
``RemoteTable`` (a ``Table`` played through the server), the short requests (tables, the
leaderboard, the daily deal) and invite links.

It speaks ``net.protocol`` and never imports ``net.server``. The console is one face of it; a
page in a browser can be another.
"""
