"""Random programs for the differential tests: well-formed ones (stack-correct by
construction) and garbage (random code under sane tables)."""

from __future__ import annotations

import random

import numpy as np

from gpucc.contract import isa as O
from gpucc.contract.image import Program
from gpucc.contract.limits import MAX_IMPORTS

BINOPS = ["BINARY_ADD", "BINARY_SUB", "BINARY_MUL", "BINARY_FLOORDIV", "BINARY_MOD"]
CMPS = ["LT", "LE", "EQ", "NE", "GT", "GE"]
INTS = [0, 1, -1, 2, 3, 7, -7, 100, 2**31 - 1, -(2**31)]
BIG = [2**62, -(2**63), 2**63 - 1, 10**18, -(10**15), 3037000500]
SMALL = [0, 1, -1, 2, 3, 7, -7, 100, 2**15 - 1, -(2**15)]  # packed immediates


class Gen:
    """Writes one random, verifiable assembly text."""

    def __init__(self, seed: int):
        self.r = random.Random(seed)
        self.lines: list[str] = []
        self.labels = 0
        self.slots: list[str] = []

    def label(self) -> str:
        self.labels += 1
        return f"L{self.labels}"

    def emit(self, *lines: str) -> None:
        self.lines += lines

    def expr(self, depth: int = 0) -> None:
        """Code that pushes exactly one value."""
        r = self.r
        kind = r.randrange(10) if depth < 3 else r.randrange(3)
        if kind == 0:
            v = r.choice(self.vars)
            if r.random() < 0.3:
                self.emit(f"VAR_{r.choice(BINOPS)[7:]}_INT {v}, {r.choice(SMALL)}")
            elif r.random() < 0.2:
                self.emit(f"LOAD_VAR2 {v}, {r.choice(self.vars)}", r.choice(BINOPS))
            else:
                self.emit(f"LOAD_VAR {v}")
        elif kind == 1:
            self.emit(f"LOAD_INT {r.choice(INTS)}")
        elif kind == 2:
            self.emit(f"LOAD_CONST {r.choice(BIG + INTS)}")
        elif kind in (3, 4):
            self.expr(depth + 1)
            op = r.choice(BINOPS)
            if r.random() < 0.4:
                self.emit(f"{op}_INT {r.choice(INTS)}")
            else:
                self.expr(depth + 1)
                self.emit(op)
        elif kind == 5:
            self.expr(depth + 1)
            self.expr(depth + 1)
            self.emit(f"COMPARE_{r.choice(CMPS)}")
        elif kind == 6:
            self.expr(depth + 1)
            self.emit(r.choice(["UNARY_NEG", "UNARY_NOT"]))
        elif kind == 7:  # a and b / a or b
            end = self.label()
            self.expr(depth + 1)
            self.emit(f"{r.choice(['JUMP_IF_FALSE_OR_POP', 'JUMP_IF_TRUE_OR_POP'])} {end}")
            self.expr(depth + 1)
            self.emit(f"{end}: NOP")
        elif kind == 8:  # a < b < c, as CPython compiles it
            clean, end = self.label(), self.label()
            self.expr(depth + 1)
            self.expr(depth + 1)
            self.emit("DUP_TOP", "ROT_THREE", f"COMPARE_{r.choice(CMPS)}", f"JUMP_IF_FALSE_OR_POP {clean}")
            self.expr(depth + 1)
            self.emit(f"COMPARE_{r.choice(CMPS)}", f"JUMP {end}", f"{clean}: ROT_TWO", "POP_TOP", f"{end}: NOP")
        else:
            self.expr(depth + 1)
            self.emit("CALL helper")

    def block(self, depth: int) -> None:
        for _ in range(self.r.randrange(1, 4)):
            self.stmt(depth)

    def stmt(self, depth: int) -> None:
        r = self.r
        kind = r.randrange(9) if depth < 3 else r.randrange(3)
        if kind == 0:
            self.expr()
            if r.random() < 0.3:
                self.emit(f"STORE_LOAD {r.choice(self.vars)}, {r.choice(self.vars)}")
            self.emit(f"STORE_VAR {r.choice(self.vars)}")
        elif kind == 1:
            v = r.choice(self.vars)
            self.emit(f"INC_VAR {v}" if r.random() < 0.5 else f"ADD_TO_VAR {v}, {r.choice(SMALL)}")
        elif kind == 2:
            self.expr()
            if r.random() < 0.5:
                self.expr()
                self.emit(f"ASSERT_CMP {r.choice(O.CMP_NAMES)} {r.choice(['int', 'bool'])}")
            else:
                self.emit("ASSERT_TRUE")
        elif kind in (3, 4):  # if / else
            other, end = self.label(), self.label()
            if r.random() < 0.3:  # compare locals, or a local and a small int, and branch
                v, w = r.choice(self.vars), r.choice(self.vars + [-128, 127, 0, 5])
                suffix = "VARS" if isinstance(w, str) else "VAR_INT"
                self.emit(f"JUMP_IF_NOT_{r.choice(CMPS)}_{suffix} {v}, {w}, {other}")
                self.emit("NOP")
                self.expr()
                self.emit("POP_TOP")
            self.expr()
            if r.random() < 0.3:
                self.emit(f"JUMP_IF_NOT_{r.choice(CMPS)}_INT {r.choice(SMALL)}, {other}")
            elif r.random() < 0.5:
                self.expr()
                self.emit(f"JUMP_IF_NOT_{r.choice(CMPS)} {other}")
            else:
                self.emit(f"{r.choice(['JUMP_IF_FALSE', 'JUMP_IF_TRUE'])} {other}")
            self.block(depth + 1)
            self.emit(f"JUMP {end}", f"{other}: NOP")
            self.block(depth + 1)
            self.emit(f"{end}: NOP")
        elif kind in (5, 6):  # for v in range(start, stop, step)
            k = len(self.slots)
            c, e, s = f"c{k}", f"e{k}", f"s{k}"
            self.slots += [c, e, s]
            top, done = self.label(), self.label()
            for slot in (c, e):
                self.expr()
                self.emit("BINARY_MOD_INT 9", f"STORE_VAR {slot}")
            self.emit(f"LOAD_INT {r.choice([1, 2, -1, -2, 0, 1])}", f"STORE_VAR {s}", f"RANGE_CHECK {c}")
            self.emit(f"{top}: FOR_RANGE {c}", f"JUMP {done}", f"STORE_VAR {r.choice(self.vars)}")
            self.block(depth + 1)
            self.emit(f"JUMP {top}", f"{done}: NOP")
        elif kind == 7:  # while loop (may spin until the step limit)
            top, done = self.label(), self.label()
            self.emit(f"{top}: NOP")
            self.expr()
            self.emit(f"JUMP_IF_FALSE {done}")
            self.block(depth + 1)
            self.emit(f"JUMP {top}", f"{done}: NOP")
        elif r.random() < 0.3:
            self.emit(f"RETURN_VAR {r.choice(self.vars)}")
        else:
            self.expr()
            self.emit("RETURN")

    def program(self) -> str:
        self.vars = ["a", "b", "x", "y"]
        self.emit(".func main a b", "@LOCALS")
        self.block(0)
        self.emit("LOAD_VAR x", "RETURN")
        main = self.lines
        self.lines, self.slots_main, self.slots = [], self.slots, []
        self.vars = ["p", "q"]
        self.emit(".func helper p", "@LOCALS", "LOAD_VAR p", "BINARY_SUB_INT 1", "STORE_VAR p",
                  "LOAD_VAR p", "LOAD_INT 0", "JUMP_IF_NOT_GT base")  # fmt: skip
        self.block(2)
        self.emit("LOAD_VAR p", "CALL helper", "RETURN", "base: NOP")
        self.expr(2)
        self.emit("RETURN")
        helper = self.lines
        main[1] = ".local x y " + " ".join(self.slots_main)
        helper[1] = ".local q " + " ".join(self.slots)
        return "\n".join(main + helper) + "\n"


def garbage(seed: int) -> Program:
    """Random code (often meaningless) under tables that are consistent."""
    r = random.Random(seed)
    n_units = r.randrange(1, 3)
    code, funcs, consts = [], [], []
    starts = {"code": [0], "const": [0], "func": [0]}
    for u in range(n_units):
        n_imports = 0
        for _ in range(r.randrange(1, 4)):
            is_import = r.random() < 0.2 and n_imports < MAX_IMPORTS
            n_params = r.randrange(0, 3)
            n_code = 0 if is_import else r.randrange(1, 12)
            funcs.append((len(code), n_params, n_params + r.randrange(0, 4), r.randrange(0, 5), 1, u,
                          n_imports if is_import else -1))  # fmt: skip
            n_imports += is_import
            ending = [(O.LOAD_INT, 7), (O.RETURN, 0)] if n_code and r.random() < 0.3 else []
            for _ in range(n_code - len(ending)):
                op = r.choice([r.randrange(-2, O.NUM_OPCODES + 3)] + [O.BY_NAME[n].number for n in (
                    "LOAD_INT", "LOAD_VAR", "RETURN", "BINARY_ADD", "JUMP", "CALL", "FOR_RANGE")])  # fmt: skip
                packed = O.pack(r.randrange(0, 5), r.randrange(-3, 4))  # fields of LOCAL2 / LOCAL_IMM / IMM_JUMP
                code.append((op, r.choice([0, 0, 1, 2, 3, -1, 5, 2**31 - 1, -(2**31), r.randrange(-9, 20), packed])))
            code += ending
        consts += [r.choice(BIG + INTS) for _ in range(r.randrange(0, 3))]
        for key, n in (("code", len(code)), ("const", len(consts)), ("func", len(funcs))):
            starts[key].append(n)
    cols = np.array(funcs, dtype=np.int64).T
    i32 = lambda a: np.asarray(a, dtype=np.int32)  # noqa: E731
    return Program(
        code=i32(code).reshape(-1, 2), lines=i32(range(1, len(code) + 1)), consts=np.array(consts, np.int64),
        func_entry=i32(cols[0]), func_nparams=i32(cols[1]), func_nlocals=i32(cols[2]),
        func_max_stack=i32(cols[3]), func_ret_type=i32(cols[4]), func_unit=i32(cols[5]),
        func_import=i32(cols[6]), unit_code_start=i32(starts["code"]),
        unit_const_start=i32(starts["const"]), unit_func_start=i32(starts["func"]),
    )  # fmt: skip
