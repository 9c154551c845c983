"""The tests a Windows or macOS run can collect: a test that needs Linux is marked ``linux``
(tests/conftest.py skips it elsewhere, and does not even import a file marked whole), and every
other test file, the helpers and conftest import nothing at their top that only POSIX systems have."""
from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
POSIX_MODULES = {"pty", "termios", "tty", "fcntl", "resource", "grp", "pwd", "posix", "crypt", "syslog"}
POSIX_NAMES = {"SIGKILL", "SIGHUP", "SIGQUIT", "SIGCONT", "SIGSTOP", "SIGTSTP", "SIGUSR1", "SIGUSR2", "SIGALRM",
               "SIGCHLD", "SIGPIPE", "SIGWINCH", "mkfifo", "killpg", "getloadavg", "getpgid", "setsid", "fork"}
WHOLE_FILE_MARK = "pytestmark = pytest.mark.linux"


def run_at_import(tree: ast.Module) -> list[ast.AST]:
    """What Python runs when it imports the module: all but the bodies of its functions (their
    decorators and defaults included) and of the methods of its classes."""
    found: list[ast.AST] = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found += [*node.decorator_list, *node.args.defaults, *filter(None, node.args.kw_defaults)]
        elif isinstance(node, ast.ClassDef):
            found += [*node.decorator_list, *node.bases]
            found += [n for n in node.body if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        else:
            found.append(node)
    return found


def posix_only_at_import(path: Path, root: Path = TESTS) -> list[str]:
    tree = ast.parse(path.read_text("utf-8"))
    found = []
    for top in run_at_import(tree):
        for node in ast.walk(top):
            if isinstance(node, ast.Import):
                found += [a.name for a in node.names if a.name.split(".")[0] in POSIX_MODULES]
            elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in POSIX_MODULES:
                found.append(node.module or "")
            elif isinstance(node, ast.Attribute) and node.attr in POSIX_NAMES:
                found.append(ast.unparse(node))
    return [f"{path.relative_to(root)}:{name}" for name in found]


def portable_files() -> list[Path]:
    files = [*TESTS.glob("test_*.py"), *TESTS.glob("helpers/*.py"), TESTS / "conftest.py"]
    return sorted(path for path in files if WHOLE_FILE_MARK not in path.read_text("utf-8"))


def test_files_not_marked_linux_import_nothing_posix_only() -> None:
    found = [name for path in portable_files() for name in posix_only_at_import(path)]
    assert found == []


def test_the_check_finds_posix_at_import_and_not_inside_a_test(tmp_path: Path) -> None:
    sample = tmp_path / "test_sample.py"
    sample.write_text("import signal\nimport termios\n\n@pytest.mark.parametrize('n', [signal.SIGKILL])\n"
                      "def test_x(n):\n    import fcntl\n    os.killpg(1, signal.SIGHUP)\n")
    assert [name.split(":")[1] for name in posix_only_at_import(sample, tmp_path)] == ["termios", "signal.SIGKILL"]


def test_the_marked_files_are_those_the_conftest_leaves_alone_off_linux() -> None:
    import conftest
    marked = sorted(path.name for path in TESTS.glob("test_*.py") if WHOLE_FILE_MARK in path.read_text("utf-8"))
    assert conftest.WHOLE_FILE_MARK == WHOLE_FILE_MARK
    assert "test_e2e_pty.py" in marked and "test_system.py" not in marked
