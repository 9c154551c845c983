"""The files of deploy/ that docs/online.md shows, checked by the tools that read them where this
machine has them (systemd-analyze, nginx, redis-server), and run together over loopback: two
room servers on Redis behind nginx serving TLS, a match played through it. Each test skips
cleanly when its tool is missing (.ci/run installs nginx and redis-server)."""
from __future__ import annotations

import http.client
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from scopa.bench.serving import ServerProcess
from scopa.engine import Phase, Rules
from scopa.net.client.client import RemoteTable, tls_context
from scopa.net.protocol.client_messages import CreateRoom, Join

pytestmark = pytest.mark.linux  # systemd-analyze, nginx and SIGQUIT

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
FILES = sorted(path for path in DEPLOY.rglob("*") if path.is_file())
INSTALLED = "/opt/scopa/bin/scopa"  # where docs/online.md installs the command


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for_port(port: int, proc: subprocess.Popen[bytes], what: str) -> None:
    end = time.monotonic() + 20
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return
        except OSError:
            if proc.poll() is not None or time.monotonic() > end:
                raise AssertionError(f"{what} did not start") from None
            time.sleep(0.05)


def needs(tool: str) -> pytest.MarkDecorator:
    return pytest.mark.skipif(shutil.which(tool) is None, reason=f"{tool} is not installed")


@pytest.mark.parametrize("path", FILES, ids=[str(path.relative_to(DEPLOY)) for path in FILES])
def test_each_deploy_file_is_shown_whole_in_the_deployment_docs(path: Path) -> None:
    shown = (ROOT / "docs" / "online.md").read_text("utf-8")
    block = "\n".join(f"    {line}".rstrip() for line in path.read_text("utf-8").splitlines())
    assert f"deploy/{path.relative_to(DEPLOY)}" in shown and block in shown


@needs("systemd-analyze")
@pytest.mark.parametrize(("unit", "verified"), [("scopa.service", "scopa.service"),
                                                ("scopa@.service", "scopa@9001.service")])
def test_the_systemd_units_verify(tmp_path: Path, unit: str, verified: str) -> None:
    scopa = shutil.which("scopa", path=str(Path(sys.executable).parent))
    if scopa is None:
        pytest.skip("no scopa command beside this Python (python3 dev.py makes one)")
    text = (DEPLOY / "systemd" / unit).read_text("utf-8")
    assert INSTALLED in text
    (tmp_path / verified).write_text(text.replace(INSTALLED, scopa), "utf-8")  # installed here, not in /opt
    result = subprocess.run(["systemd-analyze", "verify", str(tmp_path / verified)], capture_output=True, text=True,
                            timeout=60, check=False)
    assert (result.returncode, result.stdout + result.stderr) == (0, "")  # an unknown key is only a warning


def certificate(folder: Path) -> tuple[Path, Path]:
    cert, key = folder / "scopa.pem", folder / "scopa.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
                    "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
                   check=True, capture_output=True)
    return cert, key


SHIPPED_UPSTREAM = "    server 127.0.0.1:8765 max_fails=1 fail_timeout=5s;\n"


def nginx_prefix(folder: Path, listen: int, upstreams: tuple[int, ...]) -> Path:
    """deploy/nginx/scopa.conf with this machine's certificate and ports (the upstream's servers
    listed as its comment says to), inside a minimal main configuration of its own (its pid, logs
    and temporary files in ``folder``); the main file."""
    cert, key = certificate(folder)
    site = (DEPLOY / "nginx" / "scopa.conf").read_text("utf-8")
    servers = "".join(SHIPPED_UPSTREAM.replace("8765", str(port)) for port in upstreams)
    for old, new in (("/etc/ssl/certs/scopa.pem", str(cert)), ("/etc/ssl/private/scopa.key", str(key)),
                     ("listen 443 ssl", f"listen 127.0.0.1:{listen} ssl"), (SHIPPED_UPSTREAM, servers)):
        assert old in site
        site = site.replace(old, new)
    (folder / "scopa.conf").write_text(site, "utf-8")
    main = folder / "nginx.conf"
    main.write_text(f"""pid {folder}/nginx.pid;
error_log {folder}/error.log;
events {{}}
http {{
    access_log off;
    client_body_temp_path {folder}/client; proxy_temp_path {folder}/proxy; fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi; scgi_temp_path {folder}/scgi;
    include {folder}/scopa.conf;
}}
""", "utf-8")
    return main


@needs("nginx")
@needs("openssl")
def test_the_nginx_configuration_is_valid(tmp_path: Path) -> None:
    main = nginx_prefix(tmp_path, free_port(), (9001, 9002))
    result = subprocess.run(["nginx", "-t", "-c", str(main), "-p", str(tmp_path)], capture_output=True, text=True,
                            timeout=60, check=False)
    assert result.returncode == 0 and "test is successful" in result.stderr, result.stderr


def listened_ports(unit: str) -> set[int]:
    command = next(line for line in (DEPLOY / "systemd" / unit).read_text("utf-8").splitlines()
                   if line.startswith("ExecStart="))
    return {int(port) for port in re.findall(r"--port (\d+)", command)}


def upstream_ports() -> set[int]:
    site = (DEPLOY / "nginx" / "scopa.conf").read_text("utf-8")
    block = re.search(r"^upstream scopa \{(.*?)^\}", site, re.DOTALL | re.MULTILINE)
    assert block is not None
    return {int(port) for port in re.findall(r"^\s*server 127\.0\.0\.1:(\d+)", block.group(1), re.MULTILINE)}


def test_the_shipped_nginx_sends_players_to_the_port_the_shipped_service_listens_on() -> None:
    """Together as shipped they serve: nginx's upstream was 9001 and 9002 while the unit listened on 8765 (502)."""
    assert upstream_ports() == listened_ports("scopa.service") == {8765}


@needs("systemd-analyze")
@pytest.mark.parametrize(("unit", "verified"), [("scopa.service", "scopa.service"),
                                                ("scopa@.service", "scopa@9001.service")])
def test_the_systemd_units_are_confined_below_an_exposure_of_2_5(tmp_path: Path, unit: str, verified: str) -> None:
    """systemd-analyze security rated the unit 5.5 (MEDIUM) before its system call filter, no capabilities and
    the rest; --offline reads the file (systemd 250 and later), no running systemd is needed."""
    (tmp_path / verified).write_text((DEPLOY / "systemd" / unit).read_text("utf-8"), "utf-8")
    result = subprocess.run(["systemd-analyze", "security", "--offline=yes", "--no-pager", str(tmp_path / verified)],
                            capture_output=True, text=True, timeout=60, check=False)
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d)", result.stdout)
    if found is None and "offline" in result.stderr:
        pytest.skip("this systemd-analyze has no --offline (systemd 250 and later)")
    assert found is not None, result.stdout + result.stderr
    assert float(found.group(1)) < 2.5, result.stdout


@needs("nginx")
@needs("openssl")
def test_healthz_through_nginx_answers_this_machine_and_refuses_others(tmp_path: Path) -> None:
    """/healthz is the servers' own check, for the machine's monitor: from 127.0.0.2 (another address,
    still loopback) nginx refuses it, and the websocket side is open to it as to anyone."""
    server = ServerProcess(["--db", str(tmp_path / "rooms.sqlite3")])
    listen = free_port()
    main = nginx_prefix(tmp_path, listen, (server.port,))
    nginx = subprocess.Popen(["nginx", "-c", str(main), "-p", str(tmp_path), "-g", "daemon off;"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_port(listen, nginx, "nginx")
        trusted = tls_context(tmp_path / "scopa.pem")
        assert https_get(listen, "/healthz", trusted) == (200, b"ok\n")
        assert https_get(listen, "/healthz", trusted, source="127.0.0.2")[0] == 403
        room = CreateRoom("Ann", Rules(target=None), ("human", "human"), "easy")
        table = RemoteTable(f"wss://localhost:{listen}", room, tls=trusted)
        try:
            table.open(timeout=30)
            assert table.code
        finally:
            table.close()
    finally:
        stop_nginx(nginx)
        server.stop()


def https_get(port: int, path: str, context: ssl.SSLContext, source: str | None = None) -> tuple[int, bytes]:
    https = http.client.HTTPSConnection("127.0.0.1", port, context=context, timeout=10,
                                        source_address=(source, 0) if source else None)
    try:
        https.request("GET", path, headers={"Host": "localhost"})
        answer = https.getresponse()
        return answer.status, answer.read()
    finally:
        https.close()


def stop_nginx(nginx: subprocess.Popen[bytes]) -> None:
    nginx.send_signal(signal.SIGQUIT)  # nginx's graceful stop
    try:
        nginx.wait(15)
    except subprocess.TimeoutExpired:
        nginx.kill()
        nginx.wait(10)


@pytest.fixture
def redis_port(tmp_path: Path) -> Iterator[int]:
    """redis-server on deploy/redis/scopa.conf, moved to a free loopback port and a folder of the test."""
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    port = free_port()
    proc = subprocess.Popen(["redis-server", str(DEPLOY / "redis" / "scopa.conf"), "--port", str(port), "--dir",
                             str(tmp_path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port, proc, "redis-server")
        yield port
    finally:
        proc.terminate()
        proc.wait(10)


def test_the_redis_configuration_keeps_the_rooms_and_never_evicts_them(redis_port: int) -> None:
    import redis
    client = redis.Redis(port=redis_port, decode_responses=True)
    try:
        got = {name: client.config_get(name)[name] for name in ("appendonly", "appendfsync", "maxmemory-policy",
                                                                 "protected-mode")}
    finally:
        client.close()
    assert got == {"appendonly": "yes", "appendfsync": "everysec", "maxmemory-policy": "noeviction",
                   "protected-mode": "yes"}


@needs("nginx")
@needs("openssl")
def test_two_servers_on_redis_behind_nginx_serve_a_match_over_tls(tmp_path: Path, redis_port: int) -> None:
    """The deployment of docs/online.md on loopback: players on wss:// through nginx, two processes behind it."""
    store = f"redis://127.0.0.1:{redis_port}/0"
    servers = [ServerProcess(["--store", store, "--computer-delay", "0"]) for _ in range(2)]
    listen = free_port()
    main = nginx_prefix(tmp_path, listen, (servers[0].port, servers[1].port))
    nginx = subprocess.Popen(["nginx", "-c", str(main), "-p", str(tmp_path), "-g", "daemon off;"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    tables: list[RemoteTable] = []
    try:
        wait_for_port(listen, nginx, "nginx")
        trusted = tls_context(tmp_path / "scopa.pem")
        https = http.client.HTTPSConnection("127.0.0.1", listen, context=trusted, timeout=10)
        https.request("GET", "/healthz")
        answer = https.getresponse()
        assert (answer.status, answer.read()) == (200, b"ok\n")
        https.request("GET", "/K7MQ3T")  # the browser page, at a room, through the proxy (docs/web.md)
        answer = https.getresponse()
        assert answer.status == 200 and b'<script src="page.js"' in answer.read()
        assert "script-src 'self'" in answer.getheader("Content-Security-Policy", "")
        https.close()
        assert page_opens(listen, trusted, f"https://localhost:{listen}")  # the page's websocket, from its own page
        assert not page_opens(listen, trusted, "https://evil.example")  # another site's page is refused
        url = f"wss://localhost:{listen}"
        host = RemoteTable(url, CreateRoom("Ann", Rules(target=None), ("human", "human"), "easy"), tls=trusted)
        tables.append(host)
        host.open(timeout=30)  # a TLS handshake through nginx is slow on a loaded machine (a parallel run)
        guest = RemoteTable(url, Join(host.code, "Ben"), tls=trusted)
        tables.append(guest)
        guest.open(timeout=30)
        guest.ready()
        until(lambda: (seat := host.room().seats[1]) is not None and seat.ready)  # type: ignore[union-attr]
        host.start()
        until(lambda: host.has_view() and guest.has_view() and host.latest() == guest.latest())
        play(host, guest, moves=3)
        first = next(s for s in servers if re.search(r"room \w+: created", "".join(s.lines)))
        assert first.stop() == 0  # restarted for an upgrade: its players go on through the proxy
        play(host, guest)
        until(lambda: guest.view(guest.seat).phase is Phase.MATCH_OVER)
        assert host.view(host.seat).match_scores == guest.view(guest.seat).match_scores
        assert host.problem is None and guest.problem is None
        assert host.drops >= 1  # the host was on the stopped one: it reconnected, to the other, and played on
        other = next(s for s in servers if s is not first)
        assert any("seat 1 back" in line for line in other.lines)
    finally:
        for table in tables:
            table.close()
        stop_nginx(nginx)
        for server in servers:
            server.stop()


def page_opens(listen: int, trusted: ssl.SSLContext, origin: str) -> bool:
    """Whether a page of ``origin`` opens the page's websocket through nginx and hears its first line."""
    import asyncio
    import json

    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidStatus

    async def opens() -> bool:
        try:
            async with connect(f"wss://localhost:{listen}/web", ssl=trusted, origin=origin,  # type: ignore[arg-type]
                               open_timeout=30) as ws:
                await ws.send(json.dumps({"type": "start", "lang": "en"}))
                first = json.loads(await asyncio.wait_for(ws.recv(), 30))
                if first == {"type": "language", "lang": "en"}:  # the game's language, for the page's own words
                    first = json.loads(await asyncio.wait_for(ws.recv(), 30))
                return bool(first["type"] == "say")
        except InvalidStatus as refused:
            assert refused.response.status_code == 403
            return False
    return asyncio.run(opens())


def play(host: RemoteTable, guest: RemoteTable, moves: int | None = None) -> None:
    """Each seat plays its first legal move on its turn, ``moves`` of them or to the match's end;
    a move made while its connection is down (a server restarting) is made again once it is up."""
    played = 0
    tables = (host, guest)

    def over() -> bool:
        return host.view(host.seat).phase is Phase.MATCH_OVER

    while not over() and (moves is None or played < moves):
        until(lambda: over() or (all(t.connected for t in tables) and any(t.view(t.seat).is_my_turn for t in tables)))
        if over():
            return
        mover = next(t for t in tables if t.view(t.seat).is_my_turn)
        if mover.submit(mover.seat, mover.view(mover.seat).legal_moves()[0], mover.latest()).accepted:
            played += 1
            until(lambda: host.latest() == guest.latest() or not all(t.connected for t in tables))


def until(condition: Callable[[], object], seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)
