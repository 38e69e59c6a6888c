"""What the plugin imports: no import cycle among pytest_gpucc's modules."""

import ast
from pathlib import Path

import pytest_gpucc

PACKAGE = Path(pytest_gpucc.__file__).parent


def package_imports(path: Path) -> set[str]:
    """The pytest_gpucc modules a module imports, anywhere in it (inside functions too)."""
    modules = {f"pytest_gpucc.{p.stem}" for p in PACKAGE.glob("*.py")}
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
    return found & modules


def test_no_import_cycle_among_the_package_modules():
    graph = {f"pytest_gpucc.{p.stem}": package_imports(p) for p in PACKAGE.glob("*.py")}
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, f"import cycle: {' -> '.join(path[path.index(module):] + (module,))}"
        if module not in done:
            for imported in sorted(graph[module]):
                visit(imported, path + (module,))
            done.add(module)

    for module in sorted(graph):
        visit(module, ())
