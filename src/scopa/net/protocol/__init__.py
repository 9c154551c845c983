"""The wire protocol of the room server, both directions: versioned JSON messages, strictly checked.

``client_messages``: what a client sends (and the server parses); ``server_messages``: what a
server sends (and a client parses); ``wire``: what both use (the version, the limits, the error
codes, room information, views, events, the field checks, ``encode``). ``codes``: room codes and
seat keys; ``chat``: the rules of a chat line; ``daily_seeds``: the daily deal's seeds and their
check. Nothing here opens a socket, and nothing here imports either side.

docs/protocol.md is this protocol written for people outside the project (every message with an
example, every error, the order of a session, reconnection, limits, versions and features); its
examples are read by these modules in tests/test_protocol_doc.py, so the two cannot drift apart.
"""
