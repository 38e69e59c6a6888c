"""Modules written in the gpucc language (host side): a unit that imports one gets the prelude
functions it names appended to its source before it compiles, as functions of the unit whose
parameters are typed from their calls (one signature per function, as any such function).
compiler/modules.py lists them (PRELUDE_FUNCTIONS: a member code each); the type checker
resolves `bisect.bisect_left(a, x)` and `from bisect import bisect_left as bl` to them
(compiler/typecheck_import.py).  The bodies are CPython's own pure-Python ones (Lib/bisect.py),
without the optional `lo`, `hi` and `key` parameters (giving them is a located arity or keyword
error).  A prelude is appended after the unit's last line, so the unit's lines keep their
numbers; a unit defining a function of a prelude's name it uses is E_DUPLICATE_FUNCTION.
collections' Counter is a prelude too, with one for each Counter method a unit calls
(`c.most_common(2)`: `_gpucc_most_common_n(c, 2)`, compiler/typecheck_counter.py), and
collections' deque (`q.popleft()`: `_gpucc_popleft(q)`, compiler/typecheck_deque.py).
"""

from __future__ import annotations

import re

from gpucc.compiler.modules import (
    COUNTER_PARAM,
    COUNTER_PRELUDES,
    DEQUE_PARAM,
    DEQUE_PRELUDES,
    MODULES,
    PRELUDE_FUNCTIONS,
)
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
    "Counter": (f"""
def Counter({COUNTER_PARAM}):
    c = {{}}
    for x in {COUNTER_PARAM}:
        c[x] = c.get(x, 0) + 1
    return c
""", ()),
    "deque": (f"""
def deque({DEQUE_PARAM}):
    return [x for x in {DEQUE_PARAM}]
""", ()),
}  # fmt: skip
_BODIES.update(HEAPQ_BODIES)
assert set(_BODIES) == {name for _, name in PRELUDE_FUNCTIONS}, "a prelude function without a body"
# a Counter's methods (compiler/typecheck_counter.py): COUNTER_PRELUDES' bodies, each appended
# to a unit with Counter's prelude whose source calls it (the pattern after the method's name)
_METHOD_BODIES = {
    "_gpucc_most_common": (r"\.\s*most_common\s*\(\s*\)", """
def _gpucc_most_common(c):
    return sorted(c.items(), key=lambda kv: kv[1], reverse=True)
"""),
    "_gpucc_most_common_n": (r"\.\s*most_common\s*\(\s*[^)\s]", """
def _gpucc_most_common_n(c, n):
    return sorted(c.items(), key=lambda kv: kv[1], reverse=True)[:max(n, 0)]
"""),
    "_gpucc_elements": (r"\.\s*elements\s*\(", """
def _gpucc_elements(c):
    out = []
    for k, v in c.items():
        for _ in range(v):
            out.append(k)
    return out
"""),
    "_gpucc_total": (r"\.\s*total\s*\(", """
def _gpucc_total(c):
    return sum(c.values())
"""),
}  # fmt: skip
# a deque's methods a list has not (compiler/typecheck_deque.py): DEQUE_PRELUDES' bodies, as
# Counter's; a deque is a list in the heap, so popleft and appendleft move its other elements
# (their cost counts each, as list.pop(0) and insert(0, x): no ring buffer); popleft's q.pop(0)
# is the one pop(i) of a deque the type checker takes
_DEQUE_ROTATE = """
def _gpucc_rotate(q, n):
    k = len(q)
    if k > 1:
        xs = list(q)
        for i in range(k):
            q[(i + n) % k] = xs[i]
"""
_DEQUE_BODIES = {
    "_gpucc_popleft": (r"popleft\s*\(", """
def _gpucc_popleft(q):
    return q.pop(0)
"""),
    "_gpucc_appendleft": (r"appendleft\s*\(", """
def _gpucc_appendleft(q, x):
    q.insert(0, x)
"""),
    "_gpucc_extendleft": (r"extendleft\s*\(", """
def _gpucc_extendleft(q, xs):
    for x in xs:
        q.insert(0, x)
"""),
    "_gpucc_rotate1": (r"rotate\s*\(\s*\)", """
def _gpucc_rotate1(q):
    _gpucc_rotate(q, 1)
""" + _DEQUE_ROTATE),
    "_gpucc_rotate": (r"rotate\s*\(\s*[^)\s]", _DEQUE_ROTATE),
}  # fmt: skip
assert tuple(_DEQUE_BODIES) == DEQUE_PRELUDES, "a deque method without a body"

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


_KEYED = ("nlargest", "nsmallest")  # with key=, a sort (compiler/desugar_heapq.py), not the prelude's call


def _arguments(source: str, name: str) -> list[str]:
    """The text between the parentheses of each call of `name` (or of its alias) in source."""
    out = []
    for n in [name] + re.findall(rf"\b{name}\s+as\s+(\w+)", source):
        for m in re.finditer(rf"\b{n}\s*\(", source):
            depth, i = 1, m.end()
            while i < len(source) and depth:
                depth += {"(": 1, ")": -1}.get(source[i], 0)
                i += 1
            out.append(source[m.end() : i - 1])
    return out


def _called_without_key(source: str, name: str) -> bool:
    """Whether source calls `name` (nlargest or nsmallest) without key= once at least: only
    such a call types the prelude function (an uncalled one is no function of the unit)."""
    return any(not re.search(r"\bkey\s*=", a) for a in _arguments(source, name))


def _deque_called(source: str) -> bool:
    """Whether source calls deque (or its alias) with an argument: deque's prelude is typed by
    such a call (`deque()` is the type checker's empty display, compiler/typecheck_deque.py)."""
    return any(a.strip() for a in _arguments(source, "deque"))


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
    wanted = [n for n in wanted if n not in _KEYED or _called_without_key(source, n)]
    uses_deque = "deque" in wanted
    if uses_deque and not _deque_called(source):  # deque() alone: an empty display (no prelude)
        wanted.remove("deque")
    bodies = [_BODIES[n][0] for n in sorted(wanted)]
    if "Counter" in wanted:
        bodies += [body for pattern, body in _METHOD_BODIES.values() if re.search(pattern, source)]
    if uses_deque:
        found = [body for pattern, body in _DEQUE_BODIES.values() if re.search(rf"\.\s*{pattern}", source)]
        bodies += [b for k, b in enumerate(found) if not (b == _DEQUE_ROTATE and _DEQUE_ROTATE in "".join(found[:k]))]
    if re.search(r"\bpow\s*\(", source):  # pow(a, b, m): compiler/prelude_builtins.py
        bodies.append(BUILTIN_PRELUDE)
    if not bodies:
        return source
    return source + ("" if source.endswith("\n") else "\n") + "".join("\n" + b for b in bodies)


# CPython's Counter.update / subtract (of an iterable; of a mapping's counts: `_counts`, one
# body with it), its + - & | (a new Counter of the positive counts, the left's keys first)
# and unary + and -
_COUNTING = """
def _gpucc_{verb}(c, xs):
    for x in xs:
        c[x] = c[x] {sign} 1

def _gpucc_{verb}_counts(c, m):
    for k, v in m.items():
        c[k] = c[k] {sign} v
"""
_OPERATOR = """
def _gpucc_counter_{name}(a, b):
    out = {{}}
    for k, v in a.items():
        n = {count}
        if n > 0:
            out[k] = n{rest}
    return out
"""
_RIGHTS = """
    for k, v in b.items():
        if k not in a and {test}:
            out[k] = {value}"""
_SIGNED = """
def _gpucc_counter_{name}(c):
    return {{k: {value} for k, v in c.items() if {test}}}
"""
_METHOD_BODIES.update({
    "_gpucc_update": (r"\.\s*update\s*\(", _COUNTING.format(verb="update", sign="+")),
    "_gpucc_update_counts": (r"$^", ""),  # in _gpucc_update's body
    "_gpucc_subtract": (r"\.\s*subtract\s*\(", _COUNTING.format(verb="subtract", sign="-")),
    "_gpucc_subtract_counts": (r"$^", ""),
    "_gpucc_counter_add": (r"\+", _OPERATOR.format(name="add", count="v + b[k]",
                                                   rest=_RIGHTS.format(test="v > 0", value="v"))),
    "_gpucc_counter_sub": (r"-", _OPERATOR.format(name="sub", count="v - b[k]",
                                                  rest=_RIGHTS.format(test="v < 0", value="0 - v"))),
    "_gpucc_counter_and": (r"&", _OPERATOR.format(name="and", count="v if v < b[k] else b[k]", rest="")),
    "_gpucc_counter_or": (r"\|", _OPERATOR.format(name="or", count="b[k] if v < b[k] else v",
                                                  rest=_RIGHTS.format(test="v > 0", value="v"))),
    "_gpucc_counter_pos": (r"\+", _SIGNED.format(name="pos", value="v", test="v > 0")),
    "_gpucc_counter_neg": (r"-", _SIGNED.format(name="neg", value="0 - v", test="v < 0")),
})  # fmt: skip
assert tuple(_METHOD_BODIES) == COUNTER_PRELUDES, "a Counter method without a body"
