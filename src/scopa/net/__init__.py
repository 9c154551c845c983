"""Online play: the room server's wire protocol (``messages``), codes and keys, and the server.

The only package that opens sockets. ``messages`` is plain data and checks, importable by a
client without the server.
"""
