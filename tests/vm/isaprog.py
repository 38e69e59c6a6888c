"""Untrusted bytecode for the fuzz (benchmarks/fuzz_bytecode.py) and its tests: random programs
over the whole ISA, mutations of real programs, and programs as units of one launch.

`isa_program(rng)` writes one unit of 1-3 functions from every row of contract.isa.TABLE,
mostly stack-correct (it tracks the depth along the code and aims jumps at instructions reached
with the depth the jump leaves), with operands mostly in range, a constant pool of ints, strs
and packed type codes, so that many programs verify and run, the rest being rejected.
`mutate(program, rng)` applies one of MUTATIONS to a one-unit Program (a copy).
`split_units` / `join_units` take a Program apart into one-unit Programs and lay many end to end;
`job_rows` / `job_table` give each unit its jobs in one JobTable.
"""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np

from gpucc.contract import isa as O
from gpucc.contract import typecodes as T
from gpucc.contract.image import JobTable, Program
from gpucc.contract.limits import MAX_IMPORTS, MAX_PARAMS
from gpucc.contract.pool import argument_slots
from gpucc.contract.valuetypes import TYPE_NAMES, float_to_bits

INTS = [0, 1, -1, 2, 3, 5, 7, -7, 100, 255, 256, 2**15 - 1, -(2**15), 2**31 - 1, -(2**31), 2**62, -(2**63),
        2**63 - 1, O.NONE_REF, float_to_bits(0.5), float_to_bits(-0.0), float_to_bits(float("nan"))]  # fmt: skip
TYPES = [T.INT, T.BOOL, T.FLOAT, T.STR, T.NONE, T.list_of(T.INT), T.list_of(T.STR), T.optional_of(T.INT),
         T.tuple_of([T.INT, T.STR]), T.list_of(T.tuple_of([T.INT, T.INT])), T.list_of(T.list_of(T.INT)),
         T.optional_of(T.list_of(T.FLOAT)), 0x7FFFFFF, 4, 13, 0x99, -1]  # fmt: skip (the last five malformed)
_INT_GROUP = [op for op in O.TABLE if op.group == "int"]
_PARTS = {O.ARG_LOCAL2: 2, O.ARG_LOCAL_IMM: 2, O.ARG_IMM_JUMP: 2, O.ARG_LOCAL_JUMP: 2, O.ARG_LOCAL2_JUMP: 3,
          O.ARG_LOCAL_IMM_JUMP: 3}  # fmt: skip


def _int32(v: int) -> int:
    return (v + 2**31) % 2**32 - 2**31


def _int64(v: int) -> int:
    return (v + 2**63) % 2**64 - 2**63


def _pool(r: random.Random) -> tuple[list[int], list[int], list[int]]:
    """(consts, offsets of strs, offsets of type constants) of a random constant pool."""
    consts, strs, types = [], [], []
    for i in range(r.randrange(3, 9)):
        kind = i if i < 3 else r.randrange(4)  # an int, a str and a type constant at least
        if kind == 0:
            consts.append(r.choice(INTS))
        elif kind == 1:
            strs.append(len(consts))
            text = r.choice(["", "a", "ab", "a b", "Z9", "\u00e9\u00df", "\U0001f600x", " x ", "1_0", "-3.5e2"])
            consts += [len(text), *map(ord, text)]
        else:
            types.append(len(consts))
            t = r.choice(TYPES)
            consts.append(int(O.typed_values(r.randrange(7), t, r.choice(TYPES))) if kind == 2 else t)
    return consts, strs, types


class _Func:
    """One function's code, written with its stack depth tracked (see the module doc)."""

    def __init__(self, r: random.Random, nparams: int, nlocals: int, arities: list[int], pool):
        self.r, self.nparams, self.nlocals, self.arities = r, nparams, nlocals, arities
        self.consts, self.strs, self.types = pool
        self.code: list[list[int]] = []
        self.depth_at: list[int] = []  # the depth before each instruction along the code
        self.jumps: list[tuple[int, int]] = []  # (pc, depth the jump leaves), targets chosen at the end
        self.depth = self.deepest = 0

    def local(self, width: int = 1) -> int:
        r = self.r
        return r.randrange(max(1, self.nlocals - width + 1)) if r.random() < 0.995 else r.choice([self.nlocals, 255])

    def operand(self, op: O.Op) -> int:
        r, kind = self.r, op.operand
        if kind == O.ARG_NONE:
            return 0 if r.random() < 0.99 else 1
        if kind == O.ARG_LOCAL:
            return self.local(op.slot_width)
        if kind == O.ARG_CONST:
            pick = self.strs if op.number == O.LOAD_STR else self.types if op.group == "value" else None
            if pick and r.random() < 0.9:
                return r.choice(pick)
            return r.randrange(max(1, len(self.consts) + (r.random() < 0.01)))
        if kind == O.ARG_IMM:
            if op.imm_max >= 0 and r.random() < 0.95:
                return r.randrange(op.imm_max + 1)
            return _int32(r.choice(INTS))
        if kind == O.ARG_FUNC:
            return r.randrange(len(self.arities) + (r.random() < 0.01))
        if kind == O.ARG_TYPED_CMP:
            n = len(TYPE_NAMES) + (r.random() < 0.01)
            return O.typed_cmp(r.randrange(6 + (r.random() < 0.01)), r.randrange(n), r.randrange(n))
        if kind == O.ARG_JUMP:
            return 0  # chosen at the end
        fields = [self.local(), r.randrange(-128, 128) if kind == O.ARG_LOCAL_IMM_JUMP else self.local(), 0]
        if kind == O.ARG_LOCAL_IMM:
            fields[1] = r.choice([0, 1, -1, 7, O.FIELD_MIN, O.FIELD_MAX])
        elif kind == O.ARG_IMM_JUMP:
            fields[0] = r.choice([0, 1, -1, 9, O.FIELD_MIN, O.FIELD_MAX])
        elif kind == O.ARG_LOCAL_JUMP:
            fields[0] = self.local(3)
        elif kind == O.ARG_LOCAL2_JUMP:
            fields[1] = min(fields[1], 127)
        return O.make_operand(kind, *fields[: _PARTS[kind]])

    def pops(self, op: O.Op, arg: int) -> int:
        if op.number == O.CALL:
            return self.arities[arg] if arg < len(self.arities) else 0
        return min(max(arg, 0), 255) if op.number == O.NEW_LIST else op.pops  # past 255: the verifier refuses it

    def emit(self, op: O.Op, arg: int) -> None:
        self.depth_at.append(self.depth)
        self.code.append([op.number, arg])
        after = self.depth - self.pops(op, arg) + op.pushes
        if op.number in (O.FOR_RANGE, O.FOR_LIST):  # falls through to a JUMP out with nothing pushed
            self.deepest = max(self.deepest, after)
            self.emit(O.TABLE[O.JUMP], 0)
            self.depth = after
            return
        if op.operand in O.JUMP_KINDS and op.number != O.JUMP:
            self.jumps.append((len(self.code) - 1, after))
            after -= op.keeps
        elif op.number == O.JUMP:
            self.jumps.append((len(self.code) - 1, after))
        self.depth = max(after, 0)
        self.deepest = max(self.deepest, self.depth, after + op.keeps)

    def write(self, n: int) -> list[list[int]]:
        r = self.r
        for _ in range(n):
            pool = _INT_GROUP if r.random() < 0.5 else O.TABLE
            op = pool[int(r.random() * len(pool))]
            arg = self.operand(op)
            if self.pops(op, arg) > self.depth and r.random() < 0.98:
                continue  # mostly stack-correct
            self.emit(op, arg)
        if self.depth == 0 or r.random() < 0.1:
            self.emit(O.TABLE[O.LOAD_INT], r.choice([0, 1, 42]))
        self.emit(O.TABLE[r.choice([O.RETURN] * 8 + [O.FELL_OFF])], 0)
        at_depth: dict[int, list[int]] = {}
        for t, d in enumerate(self.depth_at):
            at_depth.setdefault(d, []).append(t)
        for pc, depth in self.jumps:
            same = at_depth.get(depth)
            target = r.choice(same) if same and r.random() < 0.95 else r.randrange(len(self.code) + 1)
            op, arg = self.code[pc]
            if O.OPERAND_KIND[op] == O.ARG_JUMP:
                self.code[pc][1] = target
            else:
                self.code[pc][1] = (arg & ~0xFFFF) | (target & 0xFFFF)
        return self.code


def isa_program(r: random.Random) -> Program:
    """One unit of 1-3 random functions over the whole ISA (see the module doc)."""
    pool = _pool(r)
    arities = [r.randrange(0, 4) for _ in range(r.randrange(1, 4))]
    code, funcs = [], []
    for nparams in arities:
        nlocals = nparams + r.randrange(3, 8)
        f = _Func(r, nparams, nlocals, arities, pool)
        body = f.write(r.randrange(2, 30))
        max_stack = f.deepest + (r.random() < 0.05) - (r.random() < 0.05)
        funcs.append((len(code), nparams, nlocals, max(max_stack, 0)))
        code += body
    cols = np.array(funcs, np.int64).T
    n = len(funcs)
    i32 = lambda a: np.ascontiguousarray(a, dtype=np.int32)  # noqa: E731
    return Program(
        code=i32(code), lines=i32(range(1, len(code) + 1)), consts=np.array(pool[0], np.int64),
        func_entry=i32(cols[0]), func_nparams=i32(cols[1]), func_nlocals=i32(cols[2]), func_max_stack=i32(cols[3]),
        func_ret_type=i32([T.INT] * n), func_unit=i32([0] * n), func_import=i32([-1] * n),
        unit_code_start=i32([0, len(code)]), unit_const_start=i32([0, len(pool[0])]), unit_func_start=i32([0, n]),
    )  # fmt: skip


# ---- mutations of a one-unit Program (each returns a changed copy) ----


def _copy(p: Program) -> Program:
    return replace(p, **{k: np.array(v, copy=True) for k, v in vars(p).items()})


def _flip_operand(p: Program, r: random.Random) -> None:
    pc = r.randrange(len(p.code))
    a = int(p.code[pc, 1])
    p.code[pc, 1] = _int32(r.choice([a ^ (1 << r.randrange(32)), a + 1, a - 1, 0, -a, r.choice(INTS), a << 16]))


def _swap_opcode(p: Program, r: random.Random) -> None:
    pc = r.randrange(len(p.code))
    kind = O.OPERAND_KIND[p.code[pc, 0]] if 0 <= p.code[pc, 0] < O.NUM_OPCODES else -1
    same = [op.number for op in O.TABLE if op.operand == kind]
    p.code[pc, 0] = r.choice(same) if same and r.random() < 0.6 else r.randrange(-2, O.NUM_OPCODES + 2)


def _retarget_jump(p: Program, r: random.Random) -> None:
    jumps = [pc for pc, op in enumerate(p.code[:, 0]) if 0 <= op < O.NUM_OPCODES and O.IS_JUMP[op]]
    pc = r.choice(jumps) if jumps else r.randrange(len(p.code))
    target = r.randrange(-1, len(p.code) + 2)
    op = p.code[pc, 0]
    if 0 <= op < O.NUM_OPCODES and O.OPERAND_KIND[op] == O.ARG_JUMP:
        p.code[pc, 1] = target
    else:
        p.code[pc, 1] = (int(p.code[pc, 1]) & ~0xFFFF) | (target & 0xFFFF)


def _corrupt_const(p: Program, r: random.Random) -> None:
    if len(p.consts) == 0 or r.random() < 0.2:  # a LOAD_CONST / LOAD_STR / VALUE_* operand past the pool
        pcs = [pc for pc, op in enumerate(p.code[:, 0]) if 0 <= op < O.NUM_OPCODES and O.OPERAND_KIND[op] == O.ARG_CONST]
        if pcs:
            p.code[r.choice(pcs), 1] = len(p.consts) + r.randrange(-1, 2)
        return
    k = r.randrange(len(p.consts))
    v = int(p.consts[k])
    p.consts[k] = _int64(r.choice([v ^ (1 << r.randrange(64)), v + 1, v - 1, -v, r.choice(INTS), r.choice(TYPES),
                                   int(O.typed_values(r.randrange(8), r.choice(TYPES), r.choice(TYPES)))]))


def _truncate(p: Program, r: random.Random) -> Program:
    """Cut the code [a, b) out (b: often a function's or the unit's end); later entries move up."""
    n = len(p.code)
    a = r.randrange(n)
    ends = [int(e) for e in p.func_entry if e > a] + [n]
    b = min(r.choice(ends), a + r.randrange(1, n + 1)) if r.random() < 0.5 else r.choice(ends)
    q = _copy(p)
    q.code = np.ascontiguousarray(np.delete(p.code, range(a, b), axis=0))
    q.lines = np.ascontiguousarray(np.delete(p.lines, range(a, b)))
    q.func_entry = np.where(p.func_entry >= b, p.func_entry - (b - a), np.minimum(p.func_entry, a)).astype(np.int32)
    q.unit_code_start[-1] = len(q.code)
    return q


def _function_table(p: Program, r: random.Random) -> None:
    g = r.randrange(len(p.func_entry))
    column = r.choice([p.func_nlocals, p.func_max_stack, p.func_nparams])
    column[g] = max(0, int(column[g]) + r.choice([-2, -1, 1, 2]))


MUTATIONS = {"operand": _flip_operand, "opcode": _swap_opcode, "jump": _retarget_jump, "const": _corrupt_const,
             "truncate": _truncate, "table": _function_table}  # fmt: skip


def mutate(p: Program, r: random.Random, kind: str | None = None) -> tuple[Program, str]:
    """(a mutated copy of one-unit Program p, the mutation's name)."""
    kind = kind or r.choices(list(MUTATIONS), weights=[4, 4, 2, 2, 1, 1])[0]
    if len(p.code) == 0:  # truncated to nothing: only its tables are left to change
        kind = "table"
    q = _copy(p)
    out = MUTATIONS[kind](q, r)
    return (out if out is not None else q), kind


# ---- programs as units of one launch ----


def split_units(p: Program) -> list[Program]:
    """Each unit of p as a one-unit Program (its functions' entries made unit-relative)."""
    out = []
    for u in range(p.n_units):
        c0, c1 = int(p.unit_code_start[u]), int(p.unit_code_start[u + 1])
        k0, k1 = int(p.unit_const_start[u]), int(p.unit_const_start[u + 1])
        f0, f1 = int(p.unit_func_start[u]), int(p.unit_func_start[u + 1])
        f = slice(f0, f1)
        i32 = lambda a: np.ascontiguousarray(a, dtype=np.int32)  # noqa: E731
        out.append(Program(
            code=i32(p.code[c0:c1]), lines=i32(p.lines[c0:c1]), consts=np.array(p.consts[k0:k1], np.int64),
            func_entry=i32(p.func_entry[f] - c0), func_nparams=i32(p.func_nparams[f]),
            func_nlocals=i32(p.func_nlocals[f]), func_max_stack=i32(p.func_max_stack[f]),
            func_ret_type=i32(p.func_ret_type[f]), func_unit=i32(np.zeros(f1 - f0)),
            func_import=i32(p.func_import[f]), unit_code_start=i32([0, c1 - c0]),
            unit_const_start=i32([0, k1 - k0]), unit_func_start=i32([0, f1 - f0])))  # fmt: skip
    return out


def join_units(units: list[Program]) -> Program:
    """One Program of one-unit Programs laid end to end (unit k = units[k])."""
    code_n = np.cumsum([0] + [len(p.code) for p in units])
    const_n = np.cumsum([0] + [len(p.consts) for p in units])
    func_n = np.cumsum([0] + [len(p.func_entry) for p in units])
    cat = lambda name: np.concatenate([getattr(p, name) for p in units])  # noqa: E731
    i32 = lambda a: np.ascontiguousarray(a, dtype=np.int32)  # noqa: E731
    return Program(
        code=i32(np.concatenate([p.code.reshape(-1, 2) for p in units])), lines=i32(cat("lines")),
        consts=np.ascontiguousarray(cat("consts"), np.int64),
        func_entry=i32(np.concatenate([p.func_entry + code_n[k] for k, p in enumerate(units)])),
        func_nparams=i32(cat("func_nparams")), func_nlocals=i32(cat("func_nlocals")),
        func_max_stack=i32(cat("func_max_stack")), func_ret_type=i32(cat("func_ret_type")),
        func_unit=i32(np.repeat(np.arange(len(units)), np.diff(func_n))), func_import=i32(cat("func_import")),
        unit_code_start=i32(code_n), unit_const_start=i32(const_n), unit_func_start=i32(func_n),
    )  # fmt: skip


def job_rows(p: Program, cases: list, r: random.Random, n: int, pool: list[int]) -> list[tuple[int, list, int]]:
    """n jobs of one-unit program p: (function index, args row, object bits), real cases first
    (their objects appended to the batch's `pool`)."""
    rows = []
    for entry, args in r.sample(cases, min(n, len(cases))):
        try:
            row, bits = argument_slots(args, pool)
        except ValueError:
            continue
        rows.append((entry, row, bits))
    while len(rows) < n:
        g = r.randrange(-1, len(p.func_entry) + 1) if r.random() < 0.05 else r.randrange(len(p.func_entry))
        rows.append((g, [r.choice(INTS) for _ in range(r.randrange(MAX_PARAMS + 1))], 0))
    return rows


def job_table(units: list[Program], rows: list[list], pool: list[int]) -> tuple[Program, JobTable]:
    """The joined Program of `units` and the JobTable of each unit's job rows."""
    program = join_units(units)
    n_funcs = len(program.func_entry)
    func, args, bits = [], [], []
    for u, unit_rows in enumerate(rows):
        for g, row, b in unit_rows:  # g outside the unit: an id no function has
            func.append(int(program.unit_func_start[u]) + g if 0 <= g < len(units[u].func_entry) else
                        (-1 if g < 0 else n_funcs))  # fmt: skip
            args.append(row + [0] * (MAX_PARAMS - len(row)))
            bits.append(b)
    jobs = JobTable(func=np.array(func, np.int32), link=np.full(len(func), -1, np.int32),
                    args=np.array(args, np.int64).reshape(-1, MAX_PARAMS), links=np.zeros((1, MAX_IMPORTS), np.int32),
                    pool=np.array(pool, np.int64), arg_lists=np.array(bits, np.int32))  # fmt: skip
    return program, jobs
