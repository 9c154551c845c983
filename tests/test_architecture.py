"""The floors of docs/architecture.md, checked on the source: no import cycle, no full state in the console."""
from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "scopa"


def module_name(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in PACKAGE.rglob("*.py")}


def _base(module: str, path: Path, node: ast.ImportFrom) -> str:
    """The absolute module a ``from ... import`` names (relative imports resolved)."""
    if not node.level:
        return node.module or ""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for _ in range(node.level - 1):
        package = package.rpartition(".")[0]
    return f"{package}.{node.module}" if node.module else package


def imports_of(module: str) -> set[str]:
    """Every scopa module this one imports anywhere: at the top, in a function, or only for type checking.

    ``from package import submodule`` is an edge to the submodule alone; ``from package import
    Name`` is an edge to the package."""
    path = MODULES[module]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _base(module, path, node)
            submodules = {f"{base}.{alias.name}" for alias in node.names} & MODULES.keys()
            found.update(submodules)
            if len(submodules) < len(node.names):
                found.add(base)
    return {name for name in found if name in MODULES and name != module}


def cycles() -> list[list[str]]:
    """One cycle through each strongly connected group of modules (Tarjan), shortest names first."""
    graph = {module: sorted(imports_of(module)) for module in MODULES}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return groups


def test_the_cycle_finder_finds_a_cycle(tmp_path, monkeypatch):
    """The check itself can fail: two modules importing each other are one group."""
    a, b = tmp_path / "scopa" / "a.py", tmp_path / "scopa" / "b.py"
    a.parent.mkdir()
    a.write_text("from . import b\n")
    b.write_text("from .a import thing\n")
    monkeypatch.setitem(globals(), "SRC", tmp_path)
    monkeypatch.setitem(globals(), "MODULES", {module_name(p): p for p in (a, b)})
    assert cycles() == [["scopa.a", "scopa.b"]]


def test_no_scopa_module_imports_itself_round_a_circle():
    assert cycles() == []


def test_the_console_never_imports_the_full_state_or_the_match_record():
    """The console plays through a table: it holds views and updates, never a GameState or a MatchRecord."""
    forbidden = {"GameState", "MatchRecord"}
    found = []
    for path in sorted((PACKAGE / "console").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                names = {alias.name for alias in node.names}
                if names & forbidden or ((node.module or "").endswith(("engine.state", "match")) and "*" in names):
                    found.append(f"{path.name}: {sorted(names & forbidden) or '*'}")
            elif isinstance(node, ast.Import):
                found += [f"{path.name}: {a.name}" for a in node.names
                          if a.name in ("scopa.match", "scopa.engine.state")]
    assert found == []


def outside_imports(module: str) -> set[str]:
    """The top-level names of every module outside scopa this one imports, anywhere in it."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(MODULES[module].read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.add(node.module.split(".")[0])
    return found - {"scopa"}


def in_room(name: str, room: str) -> bool:
    """Whether the module ``name`` is ``room`` (``scopa.net.server``) or inside it."""
    return name == room or name.startswith(room + ".")


def test_only_net_touches_sockets():
    """docs/architecture.md: net is the only code with sockets: no websockets or socket elsewhere
    in the game."""
    sockets = {"websockets", "socket"}
    found = [f"{module}: {name}" for module in sorted(MODULES)
             if not in_room(module, "scopa.net") and not in_room(module, "scopa.bench")
             for name in sorted(outside_imports(module) & sockets)]
    assert found == []


# Who may import which room of net (docs/architecture.md). The composition root starts the server
# (``scopa serve``) and the benchmarks measure it; nothing else of the game may reach it.
SERVER_USERS = ("scopa.net.server", "scopa.__main__", "scopa.bench")
PROTOCOL_FORBIDS = {"websockets", "socket", "ssl", "asyncio", "selectors", "http", "urllib", "redis"}


def room_breaches() -> list[str]:
    """Every import that crosses a wall of net: the protocol importing either side or anything that
    opens a connection, the client importing the server, anything else of the game importing the server."""
    found = []
    for module in sorted(MODULES):
        scopa_imports = imports_of(module)
        if in_room(module, "scopa.net.protocol"):
            found += [f"{module}: {name}" for name in sorted(scopa_imports)
                      if in_room(name, "scopa.net.client") or in_room(name, "scopa.net.server")]
            found += [f"{module}: {name}" for name in sorted(outside_imports(module) & PROTOCOL_FORBIDS)]
        elif not any(in_room(module, user) for user in SERVER_USERS):
            found += [f"{module}: {name}" for name in sorted(scopa_imports) if in_room(name, "scopa.net.server")]
    return found


def test_net_is_three_rooms_and_only_the_server_imports_the_server():
    """The protocol imports neither side and nothing that opens sockets; the client (and its faces,
    the console among them) imports the protocol and the client, never the server."""
    assert room_breaches() == []


def test_the_room_check_finds_each_breach(tmp_path, monkeypatch):
    """The check itself can fail: one module of each kind importing what it must not."""
    net = tmp_path / "scopa" / "net"
    sources = {"protocol/wire.py": "import asyncio\nfrom ..client import link\n",
               "client/link.py": "from ..server.rooms import Room\n",
               "server/rooms.py": "from ..protocol import wire\n",
               "../console/online.py": "from ..net.server import rooms\nfrom ..net.client import link\n"}
    paths = []
    for name, text in sources.items():
        path = (net / name).resolve()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        paths.append(path)
    monkeypatch.setitem(globals(), "SRC", tmp_path)
    monkeypatch.setitem(globals(), "MODULES", {module_name(p): p for p in paths})
    assert room_breaches() == ["scopa.console.online: scopa.net.server.rooms",
                               "scopa.net.client.link: scopa.net.server.rooms",
                               "scopa.net.protocol.wire: scopa.net.client.link",
                               "scopa.net.protocol.wire: asyncio"]


def test_nothing_is_attached_to_a_class_or_module_at_run_time():
    """Methods and attributes are written where their class is, so readers and checkers see them:
    no ``setattr`` and no module-level assignment to an attribute (``GameState.from_dict = ...``
    was one; the lessons used to set four callables on the program, now declared ``Extras``)."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr":
                found.append(f"{path.relative_to(SRC)}:{node.lineno}: setattr")
        for node in tree.body:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
                node, (ast.AnnAssign, ast.AugAssign)) else []
            found += [f"{path.relative_to(SRC)}:{node.lineno}: {ast.unparse(t)}" for t in targets
                      if isinstance(t, ast.Attribute)]
    assert found == []
