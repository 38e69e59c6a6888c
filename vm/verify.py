"""Bytecode verifier: what the kernel relies on instead of checking at run time.

`check_function` (one source: plain Python, numba CPU, CUDA) decides whether one function
is safe to run unchecked: every opcode known, every operand in range (LOCAL < nlocals,
FOR_RANGE / RANGE_CHECK slot + 2 < nlocals, CONST < the unit's pool (LOAD_STR: a length
n >= 0 there and its n code points after it inside the pool), FUNC < the unit's
functions, JUMP inside the function, ASSERT cmp < 6 and a known type, NONE operands 0; the
packed kinds: every LOCAL field < nlocals, every jump target inside the function, the
LOCAL_JUMP (FOR_LOOP) slot + 2 < nlocals),
LOAD_GLOBAL < the unit's module code's nlocals, the for tests (isa.FOR_TESTS) followed by a JUMP, the list instructions' immediates in range
(NEW_LIST's count 0 .. 255, LIST_SLICE's bits 0 .. 7, the float flags 0 / 1), and, walking the control-flow graph, a stack depth that never
goes below zero or above max_stack, is the same at every join, and never falls off the end.
Every launch runs it on all functions (`function_checks`); a job that enters a function
failing it ends with INVALID_BYTECODE.  `verify(program)` renders the same checks (plus
unit layout) as messages.

Operand kinds, slot widths and immediate ranges come from contract.isa's table; the stack-depth
walk over the control-flow graph is contract.flow.stack_depths (the peephole pass runs it too).
CALL pops the callee's nparams (an import: its stub's; links must match, see verify_jobs).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange
from numba.extending import register_jitable

from gpucc.contract import flow
from gpucc.contract import isa as O
from gpucc.contract.cachekey import source_fingerprint
from gpucc.contract.flow import FLOW_OK, stack_depths
from gpucc.contract.image import MODULE_CODE, ImageArrays, image_arrays
from gpucc.contract.isa import (
    ARG_CONST,
    ARG_FUNC,
    ARG_IMM,
    ARG_IMM_JUMP,
    ARG_JUMP,
    ARG_LOCAL,
    ARG_LOCAL2,
    ARG_LOCAL2_JUMP,
    ARG_LOCAL_IMM,
    ARG_LOCAL_IMM_JUMP,
    ARG_LOCAL_JUMP,
    ARG_NONE,
    ARG_TYPED_CMP,
    IMM_MAX,
    IS_FOR_TEST,
    JUMP,
    LOAD_GLOBAL,
    LOAD_STR,
    NUM_OPCODES,
    OPERAND_KIND,
    SLOT_WIDTH,
)
from gpucc.contract.jitable import typed_cmp_fields
from gpucc.contract.valuetypes import TYPE_NAMES

# the modules check_function is compiled from: its launchers (here, vm/cuda.py) hash them into numba's cache key
VERIFIER_SOURCES = ("vm/verify.py", "contract/isa*.py", "contract/opcodes.py", "contract/valuetypes.py",
                    "contract/flow.py", "contract/jitable.py", "contract/image.py")  # fmt: skip

N_CMPS, N_TYPES = len(O.CMP_NAMES), len(TYPE_NAMES)
# problem codes of check_function: name, message ({pc}, {a}, {b}: its details), then the
# stack-depth walk's (contract.flow) as V_UNDERFLOW ...
_PROBLEMS = [
    ("V_OK", "ok"),
    ("V_NO_CODE", "has no code"),
    ("V_OPCODE", "pc {pc}: unknown opcode {a}"),
    ("V_OPERAND", "pc {pc}: {op} operand {a} is out of range"),
    ("V_FOR_RANGE", "pc {pc}: {op} must be followed by a JUMP inside the function"),
] + [("V_" + name, message) for name, message in flow.PROBLEMS[1:]]
PROBLEM_NAMES = tuple(r[0] for r in _PROBLEMS)
V_OK = 0
V_NO_CODE = 1
V_OPCODE = 2
V_OPERAND = 3
V_FOR_RANGE = 4
V_FLOW = V_FOR_RANGE  # V_FLOW + a contract.flow problem is its code here
V_UNDERFLOW = V_FLOW + flow.FLOW_UNDERFLOW
V_OVERFLOW = V_FLOW + flow.FLOW_OVERFLOW
V_JOIN = V_FLOW + flow.FLOW_JOIN
V_FALLS_OFF = V_FLOW + flow.FLOW_FALLS_OFF
assert PROBLEM_NAMES.index("V_FALLS_OFF") == V_FALLS_OFF and PROBLEM_NAMES.index("V_FOR_RANGE") == V_FOR_RANGE


@register_jitable
def check_function(g, image, depth_at, work):
    """(problem, pc, a, b) of global function g of `image` (contract.image.ImageArrays);
    problem 0 (V_OK) when it is safe to run.

    depth_at / work (int32[N]) are scratch, used only on the function's own range [entry, end)."""
    if image.func_import[g] >= 0:
        return V_OK, -1, 0, 0  # stubs never run: calls resolve through the link table
    code = image.code
    entry = image.func_entry[g]
    end = image.func_end[g]
    if end <= entry:
        return V_NO_CODE, entry, 0, 0
    nlocals = image.func_nlocals[g]
    u = image.func_unit[g]
    n_consts = image.unit_const_start[u + 1] - image.unit_const_start[u]
    f_lo = image.unit_func_start[u]
    n_funcs = image.unit_func_start[u + 1] - f_lo
    last = f_lo + n_funcs - 1
    n_globals = image.func_nlocals[last] if n_funcs > 0 and image.func_import[last] == MODULE_CODE else 0
    for pc in range(entry, end):
        op = code[2 * pc]
        arg = code[2 * pc + 1]
        if op < 0 or op >= NUM_OPCODES:
            return V_OPCODE, pc, op, 0
        kind = OPERAND_KIND[op]
        bad = False
        if kind == ARG_NONE:
            bad = arg != 0
        elif kind == ARG_LOCAL:
            bad = arg < 0 or arg > nlocals - SLOT_WIDTH[op]
        elif kind == ARG_CONST:  # LOAD_STR: consts[arg] = n >= 0 code points follow inside the pool
            bad = arg < 0 or arg >= n_consts
            if op == LOAD_STR and not bad:
                n = image.consts[image.unit_const_start[u] + arg]
                bad = n < 0 or n > n_consts - arg - 1
        elif kind == ARG_JUMP:
            bad = arg < 0 or arg >= end - entry
        elif kind == ARG_FUNC:
            bad = arg < 0 or arg >= n_funcs
        elif kind == ARG_TYPED_CMP:
            cmp, ltype, rtype = typed_cmp_fields(arg)
            bad = arg < 0 or cmp >= N_CMPS or ltype >= N_TYPES or rtype >= N_TYPES
        elif kind == ARG_IMM:
            bad = IMM_MAX[op] >= 0 and (arg < 0 or arg > IMM_MAX[op])
        elif kind == ARG_LOCAL2:
            bad = (arg & 0xFFFF) >= nlocals or arg < 0 or (arg >> 16) >= nlocals
        elif kind == ARG_LOCAL_IMM:
            bad = (arg & 0xFFFF) >= nlocals
        elif kind == ARG_IMM_JUMP:
            bad = (arg & 0xFFFF) >= end - entry
        elif kind == ARG_LOCAL_JUMP:
            bad = (arg & 0xFFFF) >= end - entry or arg < 0 or (arg >> 16) > nlocals - 3
        elif kind == ARG_LOCAL2_JUMP:
            bad = (arg & 0xFFFF) >= end - entry or arg < 0 or ((arg >> 16) & 0xFF) >= nlocals
            bad = bad or (arg >> 24) >= nlocals
        elif kind == ARG_LOCAL_IMM_JUMP:
            bad = (arg & 0xFFFF) >= end - entry or ((arg >> 16) & 0xFF) >= nlocals
        if op == LOAD_GLOBAL:  # a slot of the unit's module code
            bad = arg < 0 or arg >= n_globals
        if bad:
            return V_OPERAND, pc, arg, 0
        if IS_FOR_TEST[op] and (pc + 2 >= end or code[2 * pc + 2] != JUMP):
            return V_FOR_RANGE, pc, 0, 0
    problem, i, a, b = stack_depths(code[2 * entry : 2 * end : 2], code[2 * entry + 1 : 2 * end : 2],
                                    image.func_nparams[f_lo : f_lo + n_funcs], image.func_max_stack[g],
                                    depth_at[entry:end], work[entry:end])  # fmt: skip
    if problem != FLOW_OK:
        return V_FLOW + problem, entry + i, a, b
    return V_OK, -1, 0, 0


def _make_checker(fingerprint):
    @njit(parallel=True, cache=True)
    def check_all(image, out):
        n = image.code.shape[0] // 2
        depth_at = np.empty(n, np.int32)
        work = np.empty(n, np.int32)
        for g in prange(image.func_entry.shape[0]):
            problem, pc, a, b = check_function(g, image, depth_at, work)
            out[g, 0] = problem
            out[g, 1] = pc
            out[g, 2] = a
            out[g, 3] = b
        return len(fingerprint)

    return check_all


_check_all = _make_checker(source_fingerprint(*VERIFIER_SOURCES))


def function_checks(image: ImageArrays, jit: bool = True) -> np.ndarray:
    """int64[F, 4]: (problem, pc, a, b) of every function of `image` (contract.image.image_arrays);
    jit=False runs check_function as plain Python."""
    n_funcs = len(image.func_entry)
    out = np.zeros((n_funcs, 4), np.int64)
    if jit and n_funcs:
        _check_all(image, out)
    elif n_funcs:
        depth_at, work = np.empty(len(image.code) // 2, np.int32), np.empty(len(image.code) // 2, np.int32)
        for g in range(n_funcs):
            out[g] = check_function(g, image, depth_at, work)
    return out


def verify(program, unit: int | None = None) -> list[str]:
    """Problems of `program` (of one unit when given); an empty list means it is valid."""
    try:
        image = image_arrays(program)
    except ValueError as e:
        return [f"malformed image: {e}"]
    checks = function_checks(image)
    ends = image.func_end
    problems: list[str] = []
    for u in range(program.n_units) if unit is None else [unit]:
        problems += _layout_problems(program, u, ends)
        for g in range(int(program.unit_func_start[u]), int(program.unit_func_start[u + 1])):
            problem, pc, a, b = (int(x) for x in checks[g])
            if problem != V_OK:
                op = int(program.code[pc, 0]) if 0 <= pc < len(program.code) else -1
                name = O.TABLE[op].name if 0 <= op < NUM_OPCODES else "?"
                msg = _PROBLEMS[problem][1].format(pc=pc, a=a, b=b, op=name)
                problems.append(f"unit {u} function {g}: {msg}")
    return problems


def _layout_problems(p, u: int, ends) -> list[str]:
    """Function bodies must tile the unit's code in table order."""
    c_lo, c_hi = int(p.unit_code_start[u]), int(p.unit_code_start[u + 1])
    expect = c_lo
    for g in range(int(p.unit_func_start[u]), int(p.unit_func_start[u + 1])):
        if p.func_import[g] >= 0:
            continue
        if int(p.func_entry[g]) != expect:
            return [f"unit {u}: function {g} must start at pc {expect}, where the previous "
                    f"function ends (the unit's code is [{c_lo}, {c_hi}))"]
        expect = int(ends[g])
    return [] if expect == c_hi else [f"unit {u}: code [{expect}, {c_hi}) belongs to no function"]


def verify_jobs(program, jobs) -> list[str]:
    """Problems of a job table against its program: bad function ids, and link rows whose
    targets are missing, stubs themselves, or differ in arity from the stub they resolve."""
    problems = []
    n_funcs = len(program.func_entry)
    seen = set()
    for j in range(len(jobs)):
        g, row = int(jobs.func[j]), int(jobs.link[j])
        if not 0 <= g < n_funcs:
            problems.append(f"job {j}: function {g} does not exist")
            continue
        u = int(program.func_unit[g])
        if (u, row) in seen:
            continue
        seen.add((u, row))
        for stub in range(int(program.unit_func_start[u]), int(program.unit_func_start[u + 1])):
            imp = int(program.func_import[stub])
            if imp < 0:
                continue
            if not (0 <= row < len(jobs.links) and imp < jobs.links.shape[1]):
                problems.append(f"job {j}: unit {u} imports function {stub} but has no link row")
                continue
            t = int(jobs.links[row, imp])
            if not 0 <= t < n_funcs or program.func_import[t] >= 0:
                problems.append(f"link row {row}: import {imp} -> {t} is not a function with a body")
            elif program.func_nparams[t] != program.func_nparams[stub]:
                problems.append(f"link row {row}: import {imp} -> function {t} takes "
                                f"{program.func_nparams[t]} arguments, its stub {stub} {program.func_nparams[stub]}")
    return problems
