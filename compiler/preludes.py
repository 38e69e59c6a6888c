"""Modules written in the gpucc language (host side): a unit that imports one gets the prelude
functions it names appended to its source before it compiles, as functions of the unit whose
parameters are typed from their calls (one signature per function, as any such function).
compiler/modules.py lists them (PRELUDE_FUNCTIONS: a member code each); the type checker
resolves `bisect.bisect_left(a, x)` and `from bisect import bisect_left as bl` to them
(compiler/typecheck_import.py).  The bodies are CPython's own pure-Python ones (Lib/bisect.py),
without the optional `lo`, `hi` and `key` parameters (giving them is a located arity or keyword
error).  A prelude is appended after the unit's last line, so the unit's lines keep their
numbers; a unit defining a function of a prelude's name it uses is E_DUPLICATE_FUNCTION.
"""

from __future__ import annotations

import re

from gpucc.compiler.modules import MODULES, PRELUDE_FUNCTIONS
from gpucc.compiler.prelude_builtins import BUILTIN_PRELUDE
from gpucc.compiler.prelude_heapq import HEAPQ_BODIES

# name -> (source, the prelude functions it calls)
_BODIES = {
    "bisect_left": ("""
def bisect_left(a, x):
    lo = 0
    hi = len(a)
    while lo < hi:
        mid = (lo + hi) // 2
        if a[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo
""", ()),
    "bisect_right": ("""
def bisect_right(a, x):
    lo = 0
    hi = len(a)
    while lo < hi:
        mid = (lo + hi) // 2
        if x < a[mid]:
            hi = mid
        else:
            lo = mid + 1
    return lo
""", ()),
    "bisect": ("""
def bisect(a, x):
    return bisect_right(a, x)
""", ("bisect_right",)),
}  # fmt: skip
_BODIES.update(HEAPQ_BODIES)
assert set(_BODIES) == {name for _, name in PRELUDE_FUNCTIONS}, "a prelude function without a body"

_MODULE_OF = {name: MODULES[m] for m, name in PRELUDE_FUNCTIONS}


def _named(source: str, module: str) -> set[str]:
    """The prelude functions of module that source names: `m.f` of a name the module is bound
    to (`import bisect`, `import bisect as b`), or a name `from m import ...` lists and the
    source names again (a function never called has no types to infer)."""
    bound = {module} if re.search(rf"^\s*import\s[^\n#]*\b{module}\b(?!\s+as\b)", source, re.M) else set()
    bound |= set(re.findall(rf"\b{module}\s+as\s+(\w+)", source))
    listed = " ".join(re.findall(rf"^\s*from\s+{module}\s+import\s+\(?([^)\n]*(?:\n[^)]*\))?)", source, re.M))
    used = {n for n, alias in re.findall(r"(\w+)(?:\s+as\s+(\w+))?", listed)  # named again past its import
            if len(re.findall(rf"\b{alias or n}\b", source)) > 1}
    return {n for n in _BODIES if _MODULE_OF[n] == module and (
        n in used or any(re.search(rf"\b{b}\s*\.\s*{n}\b", source) for b in bound))}


def with_preludes(source: str) -> str:
    """source, and after it the prelude functions it names of the modules it imports (and the
builtins' prelude when it names pow)."""
    todo = sorted(set().union(*(_named(source, m) for m in set(_MODULE_OF.values()))))
    wanted: list[str] = []
    while todo:
        name = todo.pop()
        if name not in wanted:
            wanted.append(name)
            todo.extend(_BODIES[name][1])
    bodies = [_BODIES[n][0] for n in sorted(wanted)]
    if re.search(r"\bpow\s*\(", source):  # pow(a, b, m): compiler/prelude_builtins.py
        bodies.append(BUILTIN_PRELUDE)
    if not bodies:
        return source
    return source + ("" if source.endswith("\n") else "\n") + "".join("\n" + b for b in bodies)
