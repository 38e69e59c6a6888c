"""Types of an untyped interface function, inferred from the literal values its tests use.

A problem written for Python (an un-annotated human-eval prompt, an MBPP problem) names no
types; its tests call the function with literals and compare the result with literals:
``assert f([1, 2], 3) == 4.5``.  Each parameter's type is the one type all its literal
arguments share, and the return type the one all expected values share:

* ``int``, ``float``, ``bool``, ``str``, ``list[int]``, ``list[float]``, ``list[str]``
  (gpucc's types);
* an int where others are floats widens to ``float`` (in a list too); an empty list takes the
  element type of the other lists;
* ``bool`` and ``int`` together, or a value of no gpucc type (a tuple, None, a nested list),
  is a reason, as is a parameter no test passes a literal to.

A result used only as a truth value (``assert f(x)``, ``assert not f(x)``) counts as ``bool``
when nothing else says what it is.  An annotation already given (``n: int``) is kept, and a bare
``list`` annotation takes its element type from the literals.
"""

from __future__ import annotations

from dataclasses import dataclass, field

GPUCC_TYPES = ("int", "float", "bool", "str", "list[int]", "list[float]", "list[str]")
EMPTY_LIST = "list[?]"  # an empty list: a list of any element type


class CannotInfer(Exception):
    """No gpucc type fits; the message says why."""


def literal_type(value) -> str:
    """The gpucc type of a literal value; CannotInfer when it has none."""
    if type(value) in (bool, int, float, str):
        return type(value).__name__
    if type(value) is list:
        elements = {literal_type(v) for v in value}
        if not elements:
            return EMPTY_LIST
        if elements <= {"int", "float"}:
            return f"list[{'float' if 'float' in elements else 'int'}]"
        if elements == {"str"}:
            return "list[str]"
        raise CannotInfer(f"{_show(value)} is not a list of ints, floats or strs")
    raise CannotInfer(f"{_show(value)} is a {type(value).__name__}, which gpucc does not have")


def join(types: set[str], what: str) -> str:
    """The one type values of all `types` (not empty) have; `what` names them in the reason."""
    if types <= {"int", "float"}:
        return "float" if "float" in types else "int"
    if all(t.startswith("list[") for t in types):
        lists = types - {EMPTY_LIST}
        if not lists:
            raise CannotInfer(f"{what}: only empty lists, so no element type")
        if len(lists) == 1 or lists == {"list[int]", "list[float]"}:
            return "list[float]" if "list[float]" in lists else next(iter(lists))
        raise CannotInfer(f"{what} has values of several types ({', '.join(sorted(types))})")
    if len(types) == 1:
        return next(iter(types))
    raise CannotInfer(f"{what} has values of several types ({', '.join(sorted(types))})")


@dataclass
class Evidence:
    """The literal values a function is called with and compared to, gathered from its tests."""

    params: list[str]
    args: list[set[str]] = field(init=False)
    returns: set[str] = field(default_factory=set)
    truthy: bool = False  # the result is used as a truth value
    problems: list[str] = field(default_factory=list)  # values of no gpucc type

    def __post_init__(self):
        self.args = [set() for _ in self.params]

    def call(self, args: list, expected=None, has_expected: bool = False) -> None:
        """One call with literal `args` (and, when it is compared, its `expected` result)."""
        for i, value in enumerate(args[: len(self.params)]):
            self._add(self.args[i], value, f"parameter {self.params[i]!r}")
        if has_expected:
            self._add(self.returns, expected, "the return value")

    def _add(self, into: set[str], value, what: str) -> None:
        try:
            into.add(literal_type(value))
        except CannotInfer as e:
            self.problems.append(f"{what}: {e}")


def infer(evidence: Evidence, given: list[str | None], given_return: str | None) -> tuple[list[str], str]:
    """Parameter and return types: each annotation in `given` / `given_return` that is a gpucc
    type kept (a bare ``list`` refined), the others inferred from `evidence`."""
    if evidence.problems:
        raise CannotInfer(evidence.problems[0])
    params = [_one(g, seen, f"parameter {p!r}") for p, g, seen in zip(evidence.params, given, evidence.args)]
    returns = evidence.returns or ({"bool"} if evidence.truthy else set())
    return params, _one(given_return, returns, "the return value")


def _one(given: str | None, seen: set[str], what: str) -> str:
    if given in GPUCC_TYPES:
        return given
    if given not in (None, "list", "List"):
        raise CannotInfer(f"{what} is annotated {given}, which gpucc does not have")
    if not seen:
        raise CannotInfer(f"{what}: no test gives it a literal value to infer its type from")
    found = join(seen, what)
    if given is not None and not found.startswith("list["):
        raise CannotInfer(f"{what} is annotated list but gets {found} values")
    return found


def _show(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
