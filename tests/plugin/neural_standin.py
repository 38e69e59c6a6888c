"""A stand-in neural compiler for the plugin tests: it writes known samples, so neural-mode
verdicts are exact.  For each source, k = 3: the traditional compiler's own unit (faithful),
the unit of RIGHT (a "repair" for a wrong source; not valid for a source of other functions),
and one that does not decode."""

from gpucc.compiler import compile_batch
from gpucc.neural.bytecode import unit_code
from gpucc.neural.compile import Sample, check

SUITE = '''
def double(x: int) -> int:
    ...


@cases([(0, 0), (3, 6), (-4, -8)])
def test_double(x: int, want: int) -> None:
    assert double(x) == want
'''
RIGHT = "def double(x: int) -> int:\n    return x * 2\n"
WRONG = "def double(x: int) -> int:\n    return x + 2\n"
TWO_FUNCTIONS = "def twice(x: int) -> int:\n    return x * 2\n\n\ndef double(x: int) -> int:\n    return twice(x)\n"
K = 3


class StandIn:
    def __init__(self):
        self.right = unit_code(compile_batch([RIGHT]), 0)

    def compile(self, sources, wants, k):
        assert k == K
        return [[Sample(want, True), Sample(self.right, not check(self.right, want), check(self.right, want)),
                 Sample(None, False, "did not decode")] for want in wants]  # fmt: skip
