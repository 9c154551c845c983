"""Online play, in three rooms split the way the wire splits it.

- ``protocol``: what travels on the wire, both directions: the messages and their checks, the
  version, the limits, the error codes, room codes and seat keys, chat's rules, the daily deal's
  seeds. Plain data and pure functions: no socket, and neither side's logic.
- ``server``: the room server (``scopa serve``): rooms, stores, the Redis cluster, ratings, the
  daily deal, the turn clock, metrics, health, launch.
- ``client``: the link, ``RemoteTable`` and the short requests, invites. Its faces are the console
  (``scopa.console``) and, later, a page in a browser; they import the client and the protocol,
  never the server.

The only package that opens sockets (the server and the client; never the protocol).
"""
