"""The shape of the code base: packages depend only downward (compiler -> contract <- vm;
pytest_gpucc and neural on top), no import cycle between modules (imports inside functions
count), and the installed distribution adds no generic top-level name."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = {"compiler": "gpucc.compiler", "vm": "gpucc.vm", "contract": "gpucc.contract", "neural": "gpucc.neural",
            "pytest_gpucc": "pytest_gpucc"}  # fmt: skip
# which package may import which (besides itself)
ALLOWED = {
    "contract": set(),
    "compiler": {"contract"},
    "vm": {"contract"},
    "neural": {"contract", "compiler", "vm"},
    "pytest_gpucc": {"contract", "compiler", "vm", "neural"},
}


def modules() -> dict[str, Path]:
    """Dotted module name -> file, for every module of the five packages."""
    out = {}
    for folder, dotted in PACKAGES.items():
        for path in sorted((ROOT / folder).glob("*.py")):
            out[dotted if path.stem == "__init__" else f"{dotted}.{path.stem}"] = path
    return out


def import_graph() -> dict[str, set[str]]:
    """module -> the modules it imports anywhere in its file (function bodies included).
    `from pkg import name` is an edge to pkg.name when that is a module, else to pkg."""
    mods = modules()
    graph = {}
    for name, path in mods.items():
        package = name if path.stem == "__init__" else name.rpartition(".")[0]
        edges = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                edges |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + [base]).strip(".")
                edges |= {f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base for a in node.names}
        graph[name] = {e for e in edges if e in mods and e != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iteratively)."""
    index, low, on_stack, stack, out = {}, {}, set(), [], []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, children = work[-1]
            w = next(children, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == v:
                        break
                if len(component) > 1:
                    out.append(sorted(component))
    return out


def test_no_import_cycle_between_modules():
    assert cycles(import_graph()) == []


def test_the_cycle_finder_finds_one():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_packages_depend_only_downward():
    owner = {dotted: folder for folder, dotted in PACKAGES.items()}
    top = lambda module: owner[module if module in owner else module.rpartition(".")[0]]  # noqa: E731
    wrong = sorted(f"{a} -> {b}" for a, bs in import_graph().items() for b in bs
                   if top(b) != top(a) and top(b) not in ALLOWED[top(a)])  # fmt: skip
    assert wrong == []


def test_the_distribution_installs_under_gpucc_and_pytest_gpucc_only():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert sorted(config["packages"]) == sorted(PACKAGES.values())
    assert config["package-dir"] == {dotted: folder for folder, dotted in PACKAGES.items() if folder != "pytest_gpucc"}


def test_generic_names_are_not_importable_outside_the_repository(tmp_path):
    code = ("import importlib.util as u, gpucc.vm\n"
            "print([n for n in ('compiler', 'vm', 'neural', 'contract') if u.find_spec(n)])")  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def readme_modules() -> set[str]:
    """Modules the README's "How it works" table names: a row's first cell names
    `folder/file.py` and then bare `file.py` names of the same folder."""
    readme = (ROOT / "README.md").read_text()
    table = readme[readme.index("## How it works") : readme.index("### Device residency")]
    named = set()
    for line in table.splitlines():
        cell = line.split("|")[1] if line.startswith("| `") else ""
        folder = ""
        for name in re.findall(r"`([\w/.]+\.py)`", cell):
            folder, _, name = name.rpartition("/") if "/" in name else (folder, "", name)
            named.add(f"{folder}/{name}")
    return named


def test_the_readme_module_map_lists_every_module():
    modules = {f"{folder}/{p.name}" for folder in PACKAGES for p in (ROOT / folder).glob("*.py") if p.stem != "__init__"}
    assert sorted(modules - readme_modules()) == [], "README 'How it works' does not name these modules"
    assert sorted(readme_modules() - modules) == [], "README 'How it works' names modules that do not exist"


def kernel_entry_points() -> dict[str, int]:
    """Every function decorated with numba's @njit or @cuda.jit in compiler/, vm/ and contract/
    (the launchers' kernels), with its parameter count."""
    out = {}
    for folder in ("compiler", "vm", "contract"):
        for path in sorted((ROOT / folder).glob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.FunctionDef) and any(
                    "njit" in ast.unparse(d) or "cuda.jit" in ast.unparse(d) for d in node.decorator_list
                ):
                    out[f"{folder}/{path.name}:{node.name}"] = len(node.args.args)
    return out


def test_kernel_entry_points_take_a_handful_of_parameters():
    entry_points = kernel_entry_points()
    assert len(entry_points) >= 10  # the launchers' kernels are found
    assert {name: n for name, n in entry_points.items() if n > 8} == {}
