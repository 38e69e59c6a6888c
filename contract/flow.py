"""The control-flow / stack-depth walk over one function's bytecode: written once, used by the
verifier (vm/verify.py, on every function before a launch) and by the peephole pass
(compiler/peephole.py, to measure a fused function's stack depth).  A kernel body: plain
Python, numba CPU and CUDA; it allocates nothing and raises nothing.

Successors of an instruction at i (jump targets are relative to the function's entry, i = 0):
* JUMP: its target; RETURN / RETURN_VAR / FELL_OFF / RAISE / RERAISE / MODULE_END (isa.TERMINATORS):
  none;
* SETUP_TRY: i + 1, and its handler (the target) with the raised status pushed;
* a for test (isa.FOR_TESTS: FOR_RANGE, FOR_LIST, ...): i + 1 (the JUMP out of the loop) with
  nothing pushed, i + 2 with the value pushed;
* every other jump: i + 1 and its target, where the fall-through pops what a jump keeps
  (contract.isa KEEPS: `and` / `or` keep their operand when they jump, FOR_LOOP pushes the
  counter only when it jumps);
* everything else: i + 1.
CALL pops its callee's parameter count, NEW_LIST its operand's count, the rest isa.POPS.
"""

from __future__ import annotations

from gpucc.contract.isa import (
    CALL,
    FELL_OFF,
    IS_FOR_TEST,
    IS_JUMP,
    JUMP,
    KEEPS,
    MODULE_END,
    NEW_LIST,
    POPS,
    PUSHES,
    RAISE,
    RERAISE,
    RETURN,
    RETURN_VAR,
    SETUP_TRY,
)
from gpucc.contract.jitable import jump_target, nrt_free

# what stack_depths finds: name, message ({pc}, {op}, {a}, {b}: its details; vm.verify renders)
PROBLEMS = (
    ("OK", "ok"),
    ("UNDERFLOW", "pc {pc}: {op} pops {b} of a stack of {a}"),
    ("OVERFLOW", "pc {pc}: {op} makes the stack {a} deep, above max_stack {b}"),
    ("JOIN", "pc {pc}: reached with stack depths {a} and {b}"),
    ("FALLS_OFF", "pc {pc}: {op} falls off the end of the function"),
)
FLOW_OK = 0
FLOW_UNDERFLOW = 1
FLOW_OVERFLOW = 2
FLOW_JOIN = 3
FLOW_FALLS_OFF = 4


@nrt_free
def pops_of(op, arg, callee_nparams):
    """Values instruction (op, arg) pops: CALL its callee's arity (callee_nparams[arg]: arg is
    a unit-local function index), NEW_LIST its operand, the rest the table's count."""
    if op == CALL:
        return callee_nparams[arg]
    if op == NEW_LIST:
        return arg
    return POPS[op]


@nrt_free
def stack_depths(ops, args, callee_nparams, max_stack, depth, work):
    """Walk one function (ops[i], args[i] for i < len(ops); operands already checked in range)
    from its entry with an empty operand stack.  depth[i] := the depth before instruction i,
    -1 where unreachable; work is the walk's scratch (as long as ops).  Returns (problem, i, a,
    b): FLOW_OK, or the first of FLOW_UNDERFLOW (i pops b of a), FLOW_OVERFLOW (i makes the
    stack a deep, above max_stack b), FLOW_JOIN (i reached with depths a and b) and
    FLOW_FALLS_OFF (i's successor lies past the end)."""
    n = ops.shape[0]
    for i in range(n):
        depth[i] = -1
    depth[0] = 0
    work[0] = 0
    n_work = 1
    while n_work > 0:
        n_work -= 1
        i = work[n_work]
        op = ops[i]
        arg = args[i]
        pops = pops_of(op, arg, callee_nparams)
        if depth[i] < pops:
            return FLOW_UNDERFLOW, i, depth[i], pops
        after = depth[i] - pops + PUSHES[op]
        if after > max_stack:
            return FLOW_OVERFLOW, i, after, max_stack
        n_succ = 1  # up to two successors: (nxt1, d1) and (nxt2, after)
        nxt1 = i + 1
        d1 = after
        nxt2 = i
        d2 = after
        if op == JUMP:
            nxt1 = jump_target(op, arg)
        elif op == RETURN or op == RETURN_VAR or op == FELL_OFF or op == RAISE or op == RERAISE or op == MODULE_END:
            n_succ = 0
        elif op == SETUP_TRY:  # the handler starts with the status pushed
            nxt2 = jump_target(op, arg)
            d2 = after + 1
            n_succ = 2
            if d2 > max_stack:
                return FLOW_OVERFLOW, i, d2, max_stack
        elif IS_FOR_TEST[op]:
            d1 = after - 1
            nxt2 = i + 2
            n_succ = 2
        elif IS_JUMP[op]:
            d1 = after - KEEPS[op]
            nxt2 = jump_target(op, arg)
            n_succ = 2
        for k in range(n_succ):
            nxt = nxt1 if k == 0 else nxt2
            d = d1 if k == 0 else d2
            if nxt >= n:
                return FLOW_FALLS_OFF, i, 0, 0
            if depth[nxt] < 0:
                depth[nxt] = d
                work[n_work] = nxt
                n_work += 1
            elif depth[nxt] != d:
                return FLOW_JOIN, nxt, depth[nxt], d
    return FLOW_OK, -1, 0, 0
