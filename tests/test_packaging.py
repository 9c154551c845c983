"""The package as pip installs it: its metadata, its floors and what its commands need.

- every floor in pyproject.toml is pinned in .ci/lowest-versions.txt (which `python3 dev.py
  test-lowest` and .ci/run test against), so the two cannot drift apart;
- the version is written once;
- no module the wheel ships fails to import without the test tools or the redis extra, and
  the two commands that need one of them say what to install, in one line, exit code 2;
- the sdist holds what its own tests need, and the wheel the game alone (built offline, with
  the build and setuptools of the test extra).
"""
from __future__ import annotations

import importlib.metadata
import os
import pkgutil
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

import scopa

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = ROOT / "pyproject.toml"
LOWEST = ROOT / ".ci" / "lowest-versions.txt"
OPTIONAL = ("pexpect", "pytest", "hypothesis", "redis", "prometheus_client")  # the extras and test tools
FLOOR = re.compile(r"^([A-Za-z0-9_.-]+)\s*>=\s*([0-9][0-9.]*)(?:\s*,\s*<\s*[0-9][0-9.]*)?$")  # a cap may follow

needs_source_tree = pytest.mark.skipif(not PYPROJECT.exists() or not LOWEST.exists(),
                                       reason="pyproject.toml and .ci/ beside the tests")


def normalised(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def release(version: str) -> tuple[int, ...]:
    """3 and 3.0.0 are the same release."""
    parts = [int(part) for part in version.split(".")]
    while parts and parts[-1] == 0:
        parts.pop()
    return tuple(parts)


def floors() -> dict[str, str]:
    project = tomllib.loads(PYPROJECT.read_text("utf-8"))["project"]
    requirements = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        requirements += extra
    found = {}
    for requirement in requirements:
        match = FLOOR.match(requirement.strip())
        assert match, f"{requirement!r}: every dependency has a floor, written name>=version (then ,<cap)"
        found[normalised(match[1])] = match[2]
    return found


def pinned() -> dict[str, str]:
    pins = {}
    for text in LOWEST.read_text("utf-8").splitlines():
        line = text.split("#")[0].strip()
        if line:
            name, _, version = line.partition("==")
            pins[normalised(name)] = version
    return pins


@needs_source_tree
def test_every_floor_is_pinned_in_the_lowest_versions_ci_installs() -> None:
    assert {name: release(v) for name, v in pinned().items()} == {name: release(v) for name, v in floors().items()}


@needs_source_tree
def test_the_floors_the_code_is_known_to_need() -> None:
    """pyttsx3's Engine.driver_name came in 2.99; redis's Redis.from_pool in 5.0.1; websockets'
    sync recv(timeout=0) returns a message already received from 14.2 (14.0 and 14.1 failed
    tests/test_net_server.py on that)."""
    found = floors()
    assert release(found["pyttsx3"]) >= (2, 99)
    assert release(found["redis"]) >= (5, 0, 1)
    assert release(found["websockets"]) >= (14, 2)


@needs_source_tree
def test_the_version_is_written_once() -> None:
    project = tomllib.loads(PYPROJECT.read_text("utf-8"))
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "scopa.__version__"}
    assert importlib.metadata.version("scopa") == scopa.__version__
    shown = subprocess.run([sys.executable, "-m", "scopa", "--version"], capture_output=True, text=True,
                           timeout=60, check=False)
    assert shown.stdout == f"scopa {scopa.__version__}\n"


def test_the_licence_is_in_the_metadata() -> None:
    metadata = importlib.metadata.metadata("scopa")
    assert metadata["License-Expression"] == "MIT"
    licence = ROOT / "LICENSE"
    if licence.exists():
        assert "Copyright (c) 2026 The scopa developers" in licence.read_text("utf-8")


def without(*names: str) -> str:
    """Python code that makes ``import NAME`` fail for each name, as on a machine without it."""
    return "import sys\n" + "".join(f"sys.modules[{name!r}] = None\n" for name in names)


def run_without(names: tuple[str, ...], code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", without(*names) + code], capture_output=True, text=True,
                          timeout=120, env=dict(os.environ, PYTHONWARNINGS="ignore"), check=False)


def test_no_module_of_the_package_needs_a_test_tool_or_redis_to_import() -> None:
    modules = sorted(info.name for info in pkgutil.walk_packages(scopa.__path__, "scopa.")
                     if not info.name.endswith("__main__"))
    assert "scopa.bench.words" in modules and "scopa.net.server.redis_store" in modules
    result = run_without(OPTIONAL, "import importlib\n"
                                   f"for name in {modules!r}:\n"
                                   "    importlib.import_module(name)\n"
                                   "print('imported', len(" + repr(modules) + "))\n")
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"imported {len(modules)}\n"


def test_the_words_bench_without_pexpect_says_what_to_install() -> None:
    result = run_without(("pexpect",), "from scopa.bench.__main__ import main\nsys.exit(main(['words']))\n")
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("scopa: the words bench drives the game")
    assert "pip install pexpect" in result.stderr and "Traceback" not in result.stderr


def test_serve_with_a_redis_store_but_no_redis_says_what_to_install() -> None:
    result = run_without(("redis",), "from scopa.__main__ import main\n"
                                     "sys.exit(main(['serve', '--port', '0', '--store', 'redis://127.0.0.1:1/0']))\n")
    assert result.returncode == 2
    assert result.stderr == ("scopa: --store needs the redis package, which is not installed here. Install it "
                             "beside scopa (pipx inject scopa redis, or pip install redis), or install scopa with "
                             "it: pipx install '.[redis]' in the scopa folder.\n")


def test_serve_without_redis_still_serves_its_sqlite_rooms_and_checks_its_flags() -> None:
    result = run_without(("redis",), "from scopa.__main__ import main\n"
                                     "sys.exit(main(['serve', '--port', '70000']))\n")
    assert result.returncode == 2 and "--port must be from 0 to 65535" in result.stderr


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The sdist and the wheel, built once for this module, offline."""
    if not PYPROJECT.exists() or not LOWEST.exists():
        pytest.skip("pyproject.toml and .ci/ beside the tests")
    pytest.importorskip("build")
    tmp_path = tmp_path_factory.mktemp("built")
    # From a copy as a fresh checkout has it: setuptools also takes every file an old
    # src/scopa.egg-info/SOURCES.txt lists, which would hide a file MANIFEST.in no longer names.
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".git", ".venv*", "*.egg-info", "__pycache__", "build",
                                                                "dist", ".*_cache", ".hypothesis"))
    built = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(tmp_path / "dist"),
                            str(source)], capture_output=True, text=True, timeout=600, check=False)
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-2000:]
    (sdist,) = (tmp_path / "dist").glob("scopa-*.tar.gz")
    (wheel,) = (tmp_path / "dist").glob("scopa-*.whl")
    return sdist, wheel


def test_the_sdist_holds_the_tests_and_their_hooks_the_docs_and_dev_py_and_the_wheel_only_the_game(
        built: tuple[Path, Path]) -> None:
    """The sdist's own tests must run from it unpacked (``python3 dev.py test``): they take their
    helpers from tests/helpers/ and their fixtures from tests/conftest.py, two test files need
    tests/fault_hooks/sitecustomize.py, the README links docs/, CI's script is .ci/run."""
    sdist, wheel = built
    with tarfile.open(sdist) as tar:
        names = {name.partition("/")[2] for name in tar.getnames()}
    assert {"LICENSE", "README.md", "dev.py", "pyproject.toml", ".ci/run", ".ci/lowest-versions.txt",
            "tests/fault_hooks/sitecustomize.py", "tests/test_packaging.py", "docs/rules.md", "docs/online.md",
            "src/scopa/__init__.py", "src/scopa/narration/catalogues/it.json"} <= names
    assert {str(path.relative_to(ROOT)) for path in (ROOT / "deploy").rglob("*") if path.is_file()} <= names
    helpers = {str(path.relative_to(ROOT)) for path in (ROOT / "tests" / "helpers").glob("*.py")}
    assert "tests/helpers/__init__.py" in helpers and helpers | {"tests/conftest.py"} <= names
    assert not [name for name in names if "__pycache__" in name or name.startswith((".venv", ".git/"))]
    with zipfile.ZipFile(wheel) as archive:
        files = set(archive.namelist())
        metadata = archive.read(f"scopa-{scopa.__version__}.dist-info/METADATA").decode()
    assert f"scopa-{scopa.__version__}.dist-info/licenses/LICENSE" in files
    assert {"scopa/py.typed", "scopa/bench/serving.py", "scopa/lessons/text/rules_en.md"} <= files
    # the browser page scopa serve serves (docs/web.md): its three files are package data
    assert {"scopa/net/client/page/index.html", "scopa/net/client/page/page.js",
            "scopa/net/client/page/page.css"} <= files
    assert "tests/fixtures/axe/axe.min.js" in names and "tests/fixtures/axe/LICENSE" in names  # axe-core, MPL 2.0
    assert not [name for name in files if name.startswith(("tests/", "docs/"))]
    assert "License-Expression: MIT" in metadata
    requires = [line for line in metadata.splitlines() if line.startswith("Requires-Dist: redis")]
    assert requires == ['Requires-Dist: redis>=5.0.1; extra == "redis"']  # an extra, not a dependency


def test_the_unpacked_sdist_runs_its_own_tests(built: tuple[Path, Path], tmp_path: Path) -> None:
    """Issue 31: "The sdist's own tests pass from an unpacked sdist". A sample that needs what only
    the sdist brings besides the code: the fault hooks (test_crash_safety), the old-format fixtures
    (test_fairness_records), pyproject.toml and .ci/ (the floors and the version), tests/helpers/
    and tests/conftest.py (every one). The sdist's own src/ comes first on the path, so its code is
    the one tested. The whole suite from the sdist is ``python3 dev.py test`` in it (ten minutes)."""
    sdist, _ = built
    with tarfile.open(sdist) as tar:
        tar.extractall(tmp_path, filter="data")
    (unpacked,) = tmp_path.glob("scopa-*")
    sample = ["tests/test_crash_safety.py", "tests/test_fairness_records.py",
              "tests/test_packaging.py::test_every_floor_is_pinned_in_the_lowest_versions_ci_installs",
              "tests/test_packaging.py::test_the_floors_the_code_is_known_to_need"]
    env = dict(os.environ, PYTHONPATH=str(unpacked / "src"))
    found = subprocess.run([sys.executable, "-c", "import scopa; print(scopa.__file__)"], cwd=unpacked, env=env,
                           capture_output=True, text=True, timeout=60, check=False)
    assert found.stdout.strip() == str(unpacked / "src" / "scopa" / "__init__.py"), found.stdout + found.stderr
    ran = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *sample],
                         cwd=unpacked, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-2000:]
    assert re.search(r"^\d+ passed", ran.stdout, re.MULTILINE) and "skipped" not in ran.stdout, ran.stdout[-1000:]
