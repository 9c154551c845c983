"""Openings over TLS: ``python -m scopa.bench openings [--openings N] [--processes P] [--client C]``.

Starts ``scopa serve`` with a self-signed certificate (made by ``openssl``) on a loopback port,
then ``P`` processes each open ``N`` connections to it, one after another: connect, the TLS and
websocket handshakes, ask for the open tables, read the answer, close. It does so with the
game's client (``link``: ``net/client/link.py``, websockets' asyncio client in a thread of its own) and,
for comparison, with websockets' threading client (``threading``), which reads and sends on one
TLS socket from two threads and now and then hangs an opening until its timeout. Prints, for each
client, the openings, how many failed and why, and the time taken; the exit code is 1 when an
opening through the game's client failed.
"""
from __future__ import annotations

import argparse
import shutil
import ssl
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from scopa.bench.serving import ServerProcess, certificate
from scopa.net.protocol.client_messages import ListTables
from scopa.net.protocol.server_messages import TablesMessage, parse_server_message
from scopa.net.protocol.wire import MAX_RECORD_MESSAGE, encode

CLIENTS = ("link", "threading")
TIMEOUT = 3.0  # seconds an opening, or the answer, may take


def open_once(client: str, url: str, context: ssl.SSLContext) -> None:
    """One opening and one request, by ``client``; raises whatever went wrong."""
    if client == "link":
        from scopa.net.client.link import open_link
        with open_link(url, context, TIMEOUT, MAX_RECORD_MESSAGE) as link:
            link.send(encode(ListTables()))
            answer = parse_server_message(link.recv(TIMEOUT))
    else:
        from websockets.sync.client import connect
        with connect(url, ssl=context, open_timeout=TIMEOUT, close_timeout=1, max_size=MAX_RECORD_MESSAGE) as ws:
            ws.send(encode(ListTables()))
            answer = parse_server_message(ws.recv(timeout=TIMEOUT))
    if not isinstance(answer, TablesMessage):
        raise TypeError(f"the answer was {type(answer).__name__}")


def open_many(client: str, url: str, cafile: str, count: int) -> Counter[str]:
    """``count`` openings one after another: the failures, by kind."""
    context = ssl.create_default_context(cafile=cafile)
    failures: Counter[str] = Counter()
    for _ in range(count):
        try:
            open_once(client, url, context)
        except Exception as error:  # noqa: BLE001 (every failure is counted, whatever it is)
            failures[f"{type(error).__name__}: {error}"[:90]] += 1
    return failures


def measure(client: str, url: str, cafile: str, openings: int, processes: int) -> Counter[str]:
    """Run ``processes`` processes of ``openings`` each; print the figures; the failures."""
    start = time.monotonic()
    failures: Counter[str] = Counter()
    with ProcessPoolExecutor(processes) as pool:
        for counted in pool.map(open_many, *zip(*[(client, url, cafile, openings)] * processes, strict=True)):
            failures += counted
    total = openings * processes
    print(f"{client}: {sum(failures.values())} of {total} openings failed, {time.monotonic() - start:.1f} s")
    for kind, count in failures.most_common():
        print(f"  {count} {kind}")
    return failures


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m scopa.bench openings")
    parser.add_argument("--openings", type=int, default=1000, help="openings a process makes, one after another")
    parser.add_argument("--processes", type=int, default=4, help="processes opening at the same time")
    parser.add_argument("--client", choices=(*CLIENTS, "both"), default="both")
    args = parser.parse_args(argv)
    if shutil.which("openssl") is None:
        print("openssl is needed to make the certificate (apt-get install openssl)")
        return 2
    with tempfile.TemporaryDirectory() as folder:
        cert, key = certificate(Path(folder))
        server = ServerProcess(["--db", str(Path(folder) / "rooms.sqlite3"), "--certfile", str(cert),
                                "--keyfile", str(key)], keep=20)
        try:
            url = f"wss://127.0.0.1:{server.port}"
            print(f"{args.processes} processes of {args.openings} openings each, to {url}, {TIMEOUT:g} s allowed")
            chosen = CLIENTS if args.client == "both" else (args.client,)
            failed = {client: measure(client, url, str(cert), args.openings, args.processes) for client in chosen}
        finally:
            server.stop()
    return 1 if failed.get("link") else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
