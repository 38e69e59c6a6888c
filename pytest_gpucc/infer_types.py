"""Types of an untyped interface function, inferred from the literal values its tests use.

A problem written for Python (an un-annotated human-eval prompt, an MBPP problem) names no
types; its tests call the function with literals and compare the result with literals:
``assert f([1, 2], 3) == 4.5``.  Each parameter's type is the one type all its literal
arguments share, and the return type the one all expected values share:

* gpucc's types (pytest_gpucc.annotations): ``int``, ``float``, ``bool``, ``str``, ``None``,
  lists, tuples and Optionals of them, nested (``list[tuple[int, str]]``);
* an int where others are floats widens to ``float`` (in a list or tuple too); an empty list
  takes the element type of the other lists; None with values of a type T makes Optional[T];
* ``bool`` and ``int`` together, values of no one type, a value of no gpucc type (a dict, a
  set), or only empty lists, is a reason, as is a parameter no test passes a literal to.

A result used only as a truth value (``assert f(x)``, ``assert not f(x)``) counts as ``bool``
when nothing else says what it is.  An annotation already given (``n: int``) is kept, and a bare
``list`` annotation takes its element type from the literals.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gpucc.contract import typecodes
from pytest_gpucc.annotations import NoType, has_unknown, join, literal_type, packed_type


class CannotInfer(Exception):
    """No gpucc type fits; the message says why."""


@dataclass
class Evidence:
    """The literal values a function is called with and compared to, gathered from its tests."""

    params: list[str]
    args: list[set[int]] = field(init=False)  # packed types (contract.typecodes)
    returns: set[int] = field(default_factory=set)
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

    def _add(self, into: set[int], value, what: str) -> None:
        try:
            into.add(literal_type(value))
        except NoType as e:
            self.problems.append(f"{what}: {e}")


def infer(evidence: Evidence, given: list[str | None], given_return: str | None) -> tuple[list[str], str]:
    """Parameter and return types: each annotation in `given` / `given_return` that is a gpucc
    type kept (a bare ``list`` refined), the others inferred from `evidence`."""
    if evidence.problems:
        raise CannotInfer(evidence.problems[0])
    params = [_one(g, seen, f"parameter {p!r}") for p, g, seen in zip(evidence.params, given, evidence.args)]
    returns = evidence.returns or ({typecodes.BOOL} if evidence.truthy else set())
    return params, _one(given_return, returns, "the return value")


def _one(given: str | None, seen: set[int], what: str) -> str:
    if packed_type(given) is not None:
        return given
    if given not in (None, "list", "List"):
        raise CannotInfer(f"{what} is annotated {given}, which gpucc does not have")
    if not seen:
        raise CannotInfer(f"{what}: no test gives it a literal value to infer its type from")
    try:
        found = join(seen, what)
    except NoType as e:
        raise CannotInfer(str(e)) from None
    if has_unknown(found) and typecodes.head(found) == typecodes.DICT:
        raise CannotInfer(f"{what}: only empty dicts, so no key or value type")
    if has_unknown(found):
        raise CannotInfer(f"{what}: only empty lists, so no element type")
    if given is not None and typecodes.head(found) != typecodes.LIST:
        raise CannotInfer(f"{what} is annotated list but gets {typecodes.name(found)} values")
    return typecodes.name(found)
