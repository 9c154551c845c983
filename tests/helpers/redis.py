"""A real redis-server for the tests, and what the store fixtures (tests/conftest.py) share."""
from __future__ import annotations

import socket


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def redis_cli(port: int, *args: str) -> str:
    import redis
    client = redis.Redis(port=port, decode_responses=True)
    try:
        return client.execute_command(*args)
    finally:
        client.close()


FULL_TRIGGERS = (("full", "UPDATE", "rooms"), ("full_health", "INSERT", "health"),
                 ("full_health_again", "UPDATE", "health"))
