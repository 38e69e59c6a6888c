"""The VM kernel body: run one job.  Written once, run as plain Python, numba CPU and CUDA.

`run_job` takes flat bundles of arrays (contract.image's ImageArrays, JobArrays and
ResultArrays, and the job's Scratch below), allocates nothing and raises nothing: it writes
the job's row of the result arrays.  vm/reference.py is the readable spec it must agree with
bit for bit.  Only functions that passed vm.verify.check_function run (a job entering any
other ends with INVALID_BYTECODE), so the loop checks no opcode, operand, jump or stack depth:
every access stays inside the job's scratch because the verifier bounded it statically and
each CALL checks that the callee's frame (nlocals + max_stack) fits.  contract.image checks
the image's tables once per launch (vm/prepare.py).

A frame is `fp` (its first local; operands follow its nlocals slots), the function's
entry (jumps are relative to it) and its unit's first function id `ubase` (CALL operands
are relative to it); a record on `frames` is (return pc, caller fp | caller ubase << 32,
caller function id | caller entry << 32): a RETURN loads nothing else.

Cost attribution (contract.image.Results): `cost` counts only the candidate's instructions, those
run while the running function's unit differs from the unit of the job's function (all of
them for a job without a link row).  The loop adds every instruction's cost to one running
total; only CALL and RETURN, where the running unit can change, note where uncounted
stretches begin (`mark`) and add their length to `hidden`: no per-instruction test.  A
superinstruction costs its table cost; one failing midway (INC_VAR / ADD_TO_VAR overflow)
gives back the cost of the part of its sequence that did not run (vm/reference.py).

Speed notes: run_job reads the bundles' arrays that the loop uses into locals once, before
it: in the loop they are plain locals, as separate parameters were.  The dispatch is one
if/elif chain that LLVM turns into a jump table; LLVM inlines arith/compare and folds their
dispatch on the (constant) op; array indices go through ix().  The cost table is the global
contract.isa.COSTS (a constant address), not an argument: as an argument its pointer was
reloaded from the stack on every VM instruction.  No numba-level
inline="always": numba-cuda cannot compile that IR to PTX; vm/cpu.py sets LLVM's inliner options
instead (so that str_op and list_op inline new_list).
The hot loop holds only the int instructions: ASSERT_CMP, the numeric, list and str
instructions (calls) leave it and run in the loop around it.  Every call passes each array as
seven words, and functions compiled with numba's reference counting incref and decref each
array argument atomically: every function that takes the job's arrays is compiled without it,
run_job itself too (contract.jitable.nrt_free; tests/vm/test_vm_no_nrt.py: with it, run_job
increfed and decrefed every array of its four bundles once per job), and the list and str
instructions are one call from run_job (the ones loops run most, FOR_LIST, LIST_GET, LIST_SET,
LIST_LEN, LIST_APPEND, to list_access; the other list ones to list_op, the str ones to str_op,
each of which runs its frequent short ones itself and calls list_rest / str_rest for the rest;
COMPARE_NUM of strs or lists to list_compare), not heap_op and then list_op or str_op (two
calls, four arrays then three: list code was 2-3x slower, str code 1.3x); heap_op runs one
again after a collection.  Those arms come first in the loop around the hot loop.  LLVM
weighs every arm of the dispatch alike, so arms with calls inside the hot loop took registers
from the int instructions (spills in the dispatch itself, 15-20% slower per instruction: see
benchmarks/RESULTS.md).
Packed operands (contract.isa) are split as lo = arg & 0xFFFF, hi = arg >> 16 (and hi's two
bytes as (arg >> 16) & 0xFF, arg >> 24).

Module code and exceptions (contract.isa's module and exc groups): a job first runs the
candidate's and the suite's module code (`module_code`), each frame at depth 0 staying below the
next as its unit's globals (gbase_c, gbase_s); open handlers are rows of `frames` from its end
(nh of them).  A failure leaves both loops; below them, a status contract.status.catchable lets
through goes to the innermost handler instead of ending the job.

The heap (vm/kernel_heap.py) is garbage-collected: a list, str, value, dict or set instruction
whose allocation does not fit runs once more after a collection (heap_op in vm/kernel_frames.py,
vm/kernel_gc.py), at no cost or step, before any handler sees its status; the job's arguments
likewise (`arguments`).  The roots are the stack below sp: every frame, the module code's globals
too.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba.extending import register_jitable

from gpucc.contract.isa import (
    ADD_TO_VAR,
    ASSERT_CMP,
    ASSERT_TRUE,
    BINARY_ADD,
    BINARY_ADD_INT,
    BINARY_FLOORDIV,
    BINARY_FLOORDIV_INT,
    BINARY_MOD,
    BINARY_MOD_INT,
    BINARY_MUL,
    BINARY_MUL_INT,
    BINARY_POW,
    BINARY_SUB,
    BINARY_SUB_INT,
    CALL,
    COMPARE_EQ,
    COMPARE_GE,
    COMPARE_GT,
    COMPARE_LE,
    COMPARE_LT,
    COMPARE_NE,
    COMPARE_NUM,
    COSTS,
    DUP_TOP,
    FELL_OFF,
    FIRST_EXC,
    FIRST_LIST,
    FIRST_MODULE,
    FIRST_MATH,
    FIRST_NUMERIC,
    FIRST_STR,
    FIRST_VALUE,
    FLOAT_POW,
    FOR_LIST,
    FOR_LOOP,
    FOR_RANGE,
    INC_VAR,
    JUMP,
    JUMP_IF_FALSE,
    JUMP_IF_FALSE_OR_POP,
    JUMP_IF_NOT_EQ,
    JUMP_IF_NOT_EQ_INT,
    JUMP_IF_NOT_EQ_VAR_INT,
    JUMP_IF_NOT_EQ_VARS,
    JUMP_IF_NOT_GE,
    JUMP_IF_NOT_GE_INT,
    JUMP_IF_NOT_GE_VAR_INT,
    JUMP_IF_NOT_GE_VARS,
    JUMP_IF_NOT_GT,
    JUMP_IF_NOT_GT_INT,
    JUMP_IF_NOT_GT_VAR_INT,
    JUMP_IF_NOT_GT_VARS,
    JUMP_IF_NOT_LE,
    JUMP_IF_NOT_LE_INT,
    JUMP_IF_NOT_LE_VAR_INT,
    JUMP_IF_NOT_LE_VARS,
    JUMP_IF_NOT_LT,
    JUMP_IF_NOT_LT_INT,
    JUMP_IF_NOT_LT_VAR_INT,
    JUMP_IF_NOT_LT_VARS,
    JUMP_IF_NOT_NE,
    JUMP_IF_NOT_NE_INT,
    JUMP_IF_NOT_NE_VAR_INT,
    JUMP_IF_NOT_NE_VARS,
    JUMP_IF_TRUE,
    JUMP_IF_TRUE_OR_POP,
    LIST_APPEND,
    LIST_GET,
    LIST_LEN,
    LIST_SET,
    LOAD_CONST,
    LOAD_GLOBAL,
    LOAD_INT,
    LOAD_VAR,
    LOAD_VAR2,
    NOP,
    POP_TOP,
    POP_TRY,
    POPS,
    RAISE,
    RANGE_CHECK,
    RERAISE,
    RETURN,
    RETURN_VAR,
    ROT_THREE,
    ROT_TWO,
    SETUP_TRY,
    STORE_LOAD,
    STORE_VAR,
    UNARY_NEG,
    UNARY_NOT,
    VAR_ADD_INT,
    VAR_FLOORDIV_INT,
    VAR_MOD_INT,
    VAR_MUL_INT,
    VAR_SUB_INT,
)
from gpucc.contract.jitable import catchable, nrt_free
from gpucc.contract.status import (
    ASSERT_FAILED,
    INVALID_BYTECODE,
    MEMORY_LIMIT,
    NONE_RETURNED,
    OK,
    OVERFLOW,
    RAISABLE_MASK,
    RECURSION_LIMIT,
    STACK_LIMIT,
    STEP_LIMIT,
    VALUE_ERROR,
)
from gpucc.vm.floats import typed_compare
from gpucc.vm.intmath import INT64_MIN, arith, compare
from gpucc.vm.kernel_frames import arguments, attribute, heap_op, module_code, resolve
from gpucc.vm.kernel_heap import peak_words, start
from gpucc.vm.kernel_lists import list_access, list_op
from gpucc.vm.kernel_math import math_op
from gpucc.vm.kernel_numeric import numeric_value
from gpucc.vm.kernel_order import list_compare, list_length, list_typed
from gpucc.vm.kernel_str import str_op


# the modules this body is compiled from: launchers hash them into numba's cache key
KERNEL_SOURCES = ("vm/kernel*.py", "vm/unicode*", "vm/strconv.py", "vm/bigdecimal.py", "vm/intmath.py", "vm/floats.py",
                  "contract/isa*.py", "contract/opcodes.py", "contract/status.py", "contract/valuetypes.py",
                  "contract/typecodes.py", "contract/jitable.py", "contract/image.py")  # fmt: skip


class Scratch(NamedTuple):
    """One job's working memory; a thread reuses it for each job it runs."""

    stack: np.ndarray  # int64[stack_size]: every frame's locals, then its operands
    frames: np.ndarray  # int64[max_depth, 3]: the call records (see the module doc)
    heap: np.ndarray  # int64[heap_size]: the job's lists and strs (vm/kernel_heap.py)
    walk: np.ndarray  # int64[WALK_WORDS]: the open sequences of a value comparison (vm/kernel_walk.py)


@register_jitable
def ix(i):
    """An array index as uint64: numba then emits no negative-index wraparound (every index
    in run_job is >= 0, guaranteed by the verifier and the frame checks)."""
    return np.uint64(i)


@nrt_free
def operands(plain, imm, arg, stack, sp, fp):
    """(a, b, sp after) of a binary op in its three forms: `plain` == 0 on the stack (a b ->),
    `imm` == 0 the _INT form (a -> with b = arg), else the VAR_ _INT form (local lo, hi)."""
    if plain == 0:
        return stack[ix(sp - 2)], stack[ix(sp - 1)], sp - 1
    if imm == 0:
        return stack[ix(sp - 1)], arg, sp
    return stack[ix(fp + (arg & 0xFFFF))], arg >> 16, sp + 1


@nrt_free
def lo_local(stack, fp, arg):
    """The local a loop test reads first: slot (arg >> 16) & 0xFF of the frame at fp."""
    return stack[ix(fp + ((arg >> 16) & 0xFF))]


@nrt_free
def hi_local(stack, fp, arg):
    """The local a loop test of two locals compares it with: slot arg >> 24."""
    return stack[ix(fp + (arg >> 24))]


@nrt_free
def run_job(j, image, jobs, scratch, out, step_limit):
    """Run job j of `jobs` (JobArrays) on `image` (ImageArrays) to its end and write row j of
    `out` (ResultArrays), with `scratch` (Scratch) as its working memory.  Only functions with
    image.func_ok[g] == 1 run (their operands, jumps and stack depths need no checks here).
    Opcode costs are the global contract.isa.COSTS: a constant in the compiled code (CUDA:
    constant memory), no register or stack slot in the dispatch."""
    code = image.code
    consts = image.consts
    func_entry = image.func_entry
    func_nparams = image.func_nparams
    func_nlocals = image.func_nlocals
    func_max_stack = image.func_max_stack
    func_unit = image.func_unit
    func_import = image.func_import
    unit_const_start = image.unit_const_start
    unit_func_start = image.unit_func_start
    func_ok = image.func_ok
    links = jobs.links
    stack = scratch.stack
    frames = scratch.frames
    heap = scratch.heap
    walk = scratch.walk  # read once, before the loop nest
    stack_size = stack.shape[0]
    max_depth = frames.shape[0]
    link_row = jobs.link[j]
    left = step_limit  # instructions the job may still execute
    n_cost = 0  # cost of every instruction run
    hidden = 0  # the part of n_cost run outside candidate code (not counted)
    mark = 0  # n_cost where the current uncounted stretch began
    counting = True
    nh = 0  # open exception handlers: frames rows max_depth - nh .. max_depth - 1 (contract.isa)
    entry_unit = -1
    lhs = rhs = result = 0  # a failed assert's operands, the job's value
    ev = raised_g = raised_pc = np.int64(0)  # an exception value (contract.isa's exc group), where RERAISE's began
    pc = -1  # the failing instruction, -1 while none runs
    op = -1  # the running instruction
    job_g = resolve(jobs.func[j], link_row, func_import, func_nparams, func_ok, links)
    # module code (contract.isa's module group): the candidate's, then the suite's, then job_g
    su = func_unit[jobs.func[j]] if 0 <= jobs.func[j] < func_unit.shape[0] else -1
    cu = -1
    if link_row >= 0 and 0 <= link_row < links.shape[0] and links.shape[1] > 0:
        t = links[link_row, 0]
        cu = func_unit[t] if 0 <= t < func_unit.shape[0] and func_unit[t] != su else -1
    init_c = module_code(cu, unit_func_start, func_import)
    init_s = module_code(su, unit_func_start, func_import)
    gbase_c = gbase_s = -1  # where the candidate's and the suite's globals begin on the stack
    g = init_c if init_c >= 0 else (init_s if init_s >= 0 else job_g)
    if job_g < 0 or (init_c >= 0 and func_ok[init_c] == 0) or (init_s >= 0 and func_ok[init_s] == 0):
        st = INVALID_BYTECODE
        g = 0
    elif max_depth < 1:
        st = RECURSION_LIMIT
    elif func_nlocals[g] + func_max_stack[g] > stack_size:
        st = STACK_LIMIT
    else:
        st = OK
    hp = start(heap)  # the heap's top (vm/kernel_heap.py)
    if st == OK and g == job_g:  # the arguments (object arguments built in the heap)
        st, hp = arguments(j, func_nparams[g], jobs, stack, 0, heap, walk, hp)
    if st == OK:
        if link_row >= 0:
            entry_unit = func_unit[jobs.func[j]]
            counting = func_unit[g] != entry_unit
        # enter the first function like a CALL at depth 0, its arguments already pushed
        n_params = func_nparams[g]
        fp = 0
        depth = 0
        entry = func_entry[g]
        for k in range(n_params, func_nlocals[g]):
            stack[k] = 0
        sp = func_nlocals[g]
        pc = entry
        if g == init_c:
            gbase_c = 0
        elif g == init_s:
            gbase_s = 0
        ubase = unit_func_start[func_unit[g]]  # the running unit's first function: CALL operands add to it
        while True:
            other = False  # whether the hot loop stopped at an instruction it leaves to the code below it
            while True:  # the hot loop: the int instructions
                if left == 0:
                    st = STEP_LIMIT
                    break
                op = code[ix(2 * pc)]
                arg = np.int64(code[ix(2 * pc + 1)])  # int64 in plain Python too
                left -= 1
                n_cost += COSTS[ix(op)]
                if op == LOAD_VAR:
                    stack[ix(sp)] = stack[ix(fp + arg)]
                    sp += 1
                    pc += 1
                elif op == LOAD_INT:
                    stack[ix(sp)] = arg
                    sp += 1
                    pc += 1
                elif op == STORE_VAR:
                    sp -= 1
                    stack[ix(fp + arg)] = stack[ix(sp)]
                    pc += 1
                elif op == LOAD_VAR2:
                    stack[ix(sp)] = stack[ix(fp + (arg & 0xFFFF))]
                    stack[ix(sp + 1)] = stack[ix(fp + (arg >> 16))]
                    sp += 2
                    pc += 1
                elif op == STORE_LOAD:
                    stack[ix(fp + (arg & 0xFFFF))] = stack[ix(sp - 1)]
                    stack[ix(sp - 1)] = stack[ix(fp + (arg >> 16))]
                    pc += 1
                elif (op == JUMP_IF_NOT_LT_INT or op == JUMP_IF_NOT_LE_INT or op == JUMP_IF_NOT_EQ_INT
                      or op == JUMP_IF_NOT_NE_INT or op == JUMP_IF_NOT_GT_INT or op == JUMP_IF_NOT_GE_INT):
                    sp -= 1
                    if compare(op - JUMP_IF_NOT_LT_INT, stack[ix(sp)], arg >> 16) == 0:
                        pc = entry + (arg & 0xFFFF)
                    else:
                        pc += 1
                # one branch per binary op and its _INT / VAR_ forms: arith's dispatch on op folds away
                elif op == BINARY_ADD or op == BINARY_ADD_INT or op == VAR_ADD_INT:
                    a, b, sp = operands(op - BINARY_ADD, op - BINARY_ADD_INT, arg, stack, sp, fp)
                    st, r = arith(BINARY_ADD, a, b)
                    if st != OK:
                        break
                    stack[ix(sp - 1)] = r
                    pc += 1
                elif op == BINARY_SUB or op == BINARY_SUB_INT or op == VAR_SUB_INT:
                    a, b, sp = operands(op - BINARY_SUB, op - BINARY_SUB_INT, arg, stack, sp, fp)
                    st, r = arith(BINARY_SUB, a, b)
                    if st != OK:
                        break
                    stack[ix(sp - 1)] = r
                    pc += 1
                elif op == BINARY_MUL or op == BINARY_MUL_INT or op == VAR_MUL_INT:
                    a, b, sp = operands(op - BINARY_MUL, op - BINARY_MUL_INT, arg, stack, sp, fp)
                    st, r = arith(BINARY_MUL, a, b)
                    if st != OK:
                        break
                    stack[ix(sp - 1)] = r
                    pc += 1
                elif op == BINARY_FLOORDIV or op == BINARY_FLOORDIV_INT or op == VAR_FLOORDIV_INT:
                    a, b, sp = operands(op - BINARY_FLOORDIV, op - BINARY_FLOORDIV_INT, arg, stack, sp, fp)
                    st, r = arith(BINARY_FLOORDIV, a, b)
                    if st != OK:
                        break
                    stack[ix(sp - 1)] = r
                    pc += 1
                elif op == BINARY_MOD or op == BINARY_MOD_INT or op == VAR_MOD_INT:
                    a, b, sp = operands(op - BINARY_MOD, op - BINARY_MOD_INT, arg, stack, sp, fp)
                    st, r = arith(BINARY_MOD, a, b)
                    if st != OK:
                        break
                    stack[ix(sp - 1)] = r
                    pc += 1
                elif (op == JUMP_IF_NOT_LT or op == JUMP_IF_NOT_LE or op == JUMP_IF_NOT_EQ
                      or op == JUMP_IF_NOT_NE or op == JUMP_IF_NOT_GT or op == JUMP_IF_NOT_GE):
                    sp -= 2
                    if compare(op - JUMP_IF_NOT_LT, stack[ix(sp)], stack[ix(sp + 1)]) == 0:
                        pc = entry + arg
                    else:
                        pc += 1
                # the loop tests: one arm per comparison, a compare and a branch each (one arm for
                # all six computed the comparison from op: ~10 more instructions per test).  Written
                # out: a helper taking the comparison's bool compiled to a select, 13-15 instructions
                # with two stack operands, loop-heavy 1.045x fec3820 (RESULTS, session 26)
                elif op == JUMP_IF_NOT_LT_VARS:
                    pc = pc + 1 if lo_local(stack, fp, arg) < hi_local(stack, fp, arg) else entry + (arg & 0xFFFF)
                elif op == JUMP_IF_NOT_LE_VARS:
                    pc = pc + 1 if lo_local(stack, fp, arg) <= hi_local(stack, fp, arg) else entry + (arg & 0xFFFF)
                elif op == JUMP_IF_NOT_EQ_VARS:
                    pc = pc + 1 if lo_local(stack, fp, arg) == hi_local(stack, fp, arg) else entry + (arg & 0xFFFF)
                elif op == JUMP_IF_NOT_NE_VARS:
                    pc = pc + 1 if lo_local(stack, fp, arg) != hi_local(stack, fp, arg) else entry + (arg & 0xFFFF)
                elif op == JUMP_IF_NOT_GT_VARS:
                    pc = pc + 1 if lo_local(stack, fp, arg) > hi_local(stack, fp, arg) else entry + (arg & 0xFFFF)
                elif op == JUMP_IF_NOT_GE_VARS:
                    pc = pc + 1 if lo_local(stack, fp, arg) >= hi_local(stack, fp, arg) else entry + (arg & 0xFFFF)
                elif op == JUMP_IF_NOT_LT_VAR_INT:
                    pc = pc + 1 if lo_local(stack, fp, arg) < arg >> 24 else entry + (arg & 0xFFFF)
                elif op == JUMP_IF_NOT_LE_VAR_INT:
                    pc = pc + 1 if lo_local(stack, fp, arg) <= arg >> 24 else entry + (arg & 0xFFFF)
                elif op == JUMP_IF_NOT_EQ_VAR_INT:
                    pc = pc + 1 if lo_local(stack, fp, arg) == arg >> 24 else entry + (arg & 0xFFFF)
                elif op == JUMP_IF_NOT_NE_VAR_INT:
                    pc = pc + 1 if lo_local(stack, fp, arg) != arg >> 24 else entry + (arg & 0xFFFF)
                elif op == JUMP_IF_NOT_GT_VAR_INT:
                    pc = pc + 1 if lo_local(stack, fp, arg) > arg >> 24 else entry + (arg & 0xFFFF)
                elif op == JUMP_IF_NOT_GE_VAR_INT:
                    pc = pc + 1 if lo_local(stack, fp, arg) >= arg >> 24 else entry + (arg & 0xFFFF)
                elif op == JUMP:
                    pc = entry + arg
                elif op == JUMP_IF_FALSE or op == JUMP_IF_TRUE:
                    sp -= 1
                    if (stack[ix(sp)] != 0) == (op == JUMP_IF_TRUE):
                        pc = entry + arg
                    else:
                        pc += 1
                elif (op == COMPARE_LT or op == COMPARE_LE or op == COMPARE_EQ or op == COMPARE_NE
                      or op == COMPARE_GT or op == COMPARE_GE):
                    sp -= 1
                    stack[ix(sp - 1)] = compare(op - COMPARE_LT, stack[ix(sp - 1)], stack[ix(sp)])
                    pc += 1
                elif op == INC_VAR or op == ADD_TO_VAR:
                    s = fp + arg
                    k = 1
                    if op == ADD_TO_VAR:
                        s = fp + (arg & 0xFFFF)
                        k = arg >> 16
                    st, r = arith(BINARY_ADD, stack[ix(s)], k)
                    if st != OK:
                        n_cost -= COSTS[STORE_VAR]  # the sequence's STORE_VAR did not run
                        break
                    stack[ix(s)] = r
                    pc += 1
                elif op == FOR_LOOP or op == FOR_RANGE:
                    s = fp + (arg if op == FOR_RANGE else arg >> 16)
                    counter = stack[ix(s)]
                    stop = stack[ix(s + 1)]
                    step = stack[ix(s + 2)]
                    if (step > 0 and counter < stop) or (step < 0 and counter > stop):
                        stack[ix(sp)] = counter
                        sp += 1
                        st, r = arith(BINARY_ADD, counter, step)
                        stack[ix(s)] = r if st == OK else stop  # past int64: the loop ends
                        st = OK
                        pc = pc + 2 if op == FOR_RANGE else entry + (arg & 0xFFFF)
                    else:
                        pc += 1
                elif op == LOAD_CONST:
                    stack[ix(sp)] = consts[unit_const_start[func_unit[g]] + arg]
                    sp += 1
                    pc += 1
                elif op == CALL:
                    callee = ubase + arg
                    callee_base = ubase
                    if func_import[callee] >= 0:  # a stub: the job's link row says what runs
                        callee = resolve(callee, link_row, func_import, func_nparams, func_ok, links)
                        if callee < 0:
                            st = INVALID_BYTECODE
                            break
                        callee_base = unit_func_start[func_unit[callee]]  # another unit's
                    elif func_ok[callee] == 0:
                        st = INVALID_BYTECODE
                        break
                    if depth + 1 + nh >= max_depth:
                        st = RECURSION_LIMIT
                        break
                    new_fp = sp - func_nparams[callee]
                    new_sp = new_fp + func_nlocals[callee]
                    if new_sp + func_max_stack[callee] > stack_size:
                        st = STACK_LIMIT
                        break
                    frames[ix(depth), 0] = pc + 1
                    frames[ix(depth), 1] = fp | (np.int64(ubase) << 32)  # int64 in plain Python too
                    frames[ix(depth), 2] = g | (np.int64(entry) << 32)
                    depth += 1
                    g = callee
                    fp = new_fp
                    ubase = callee_base
                    entry = func_entry[g]
                    if link_row >= 0:
                        counting, hidden, mark = attribute(func_unit[g] != entry_unit, counting, n_cost, hidden, mark)
                    while sp < new_sp:  # zero the callee's locals after its arguments
                        stack[ix(sp)] = 0
                        sp += 1
                    pc = entry
                elif op == RETURN or op == RETURN_VAR:
                    result = stack[ix(sp - 1)] if op == RETURN else stack[ix(fp + arg)]
                    if depth == 0:
                        break
                    while nh > 0 and frames[ix(max_depth - nh), 2] >= depth:  # the frame's open handlers
                        nh -= 1
                    depth -= 1
                    sp = fp
                    stack[ix(sp)] = result
                    sp += 1
                    pc = frames[ix(depth), 0]
                    fp = frames[ix(depth), 1] & 0xFFFFFFFF
                    ubase = frames[ix(depth), 1] >> 32
                    g = frames[ix(depth), 2] & 0xFFFFFFFF
                    entry = frames[ix(depth), 2] >> 32
                    if link_row >= 0:
                        counting, hidden, mark = attribute(func_unit[g] != entry_unit, counting, n_cost, hidden, mark)
                elif op == ASSERT_TRUE:
                    sp -= 1
                    if stack[ix(sp)] == 0:
                        lhs = stack[ix(sp)]
                        st = ASSERT_FAILED
                        break
                    pc += 1
                elif op == JUMP_IF_FALSE_OR_POP or op == JUMP_IF_TRUE_OR_POP:
                    if (stack[ix(sp - 1)] != 0) == (op == JUMP_IF_TRUE_OR_POP):
                        pc = entry + arg
                    else:
                        sp -= 1
                        pc += 1
                elif op == RANGE_CHECK:
                    if stack[ix(fp + arg + 2)] == 0:
                        st = VALUE_ERROR
                        break
                    pc += 1
                elif op == UNARY_NEG:
                    if stack[ix(sp - 1)] == INT64_MIN:
                        st = OVERFLOW
                        break
                    stack[ix(sp - 1)] = -stack[ix(sp - 1)]
                    pc += 1
                elif op == UNARY_NOT:
                    stack[ix(sp - 1)] = 1 if stack[ix(sp - 1)] == 0 else 0
                    pc += 1
                elif op == POP_TOP:
                    sp -= 1
                    pc += 1
                elif op == DUP_TOP:
                    stack[ix(sp)] = stack[ix(sp - 1)]
                    sp += 1
                    pc += 1
                elif op == ROT_TWO:
                    t = stack[ix(sp - 1)]
                    stack[ix(sp - 1)] = stack[ix(sp - 2)]
                    stack[ix(sp - 2)] = t
                    pc += 1
                elif op == ROT_THREE:
                    t = stack[ix(sp - 1)]
                    stack[ix(sp - 1)] = stack[ix(sp - 2)]
                    stack[ix(sp - 2)] = stack[ix(sp - 3)]
                    stack[ix(sp - 3)] = t
                    pc += 1
                elif op == NOP:
                    pc += 1
                else:  # ASSERT_CMP, a numeric or a list instruction
                    other = True
                    break
            ran_other = other
            while other:  # ASSERT_CMP, the numeric, list, str, value, dict, exc, module and math instructions, out of
                # the hot loop (see the module doc): one pass, a failure breaks out of it
                other = False
                if op >= FIRST_LIST and op < FIRST_VALUE:  # the list and str instructions: one call, not heap_op's two
                    if op >= FIRST_STR:
                        st, new_sp, hp, extra, advance = str_op(op, arg, stack, sp, heap, hp, consts,
                                                                unit_const_start[func_unit[g]])  # fmt: skip
                    elif (op == FOR_LIST or op == LIST_GET or op == LIST_SET or op == LIST_LEN
                          or op == LIST_APPEND):  # the list instructions loops run most
                        st, new_sp, hp, extra, advance = list_access(op, arg, stack, sp, fp, heap, hp)
                    else:
                        st, new_sp, hp, extra, advance = list_op(op, arg, stack, sp, fp, heap, hp, walk)
                    if st == MEMORY_LIMIT:  # an allocation did not fit (nothing changed): again after a collection
                        st, new_sp, hp, extra, advance = heap_op(op, arg, stack, sp, fp, heap, hp, walk, consts,
                                                                 unit_const_start[func_unit[g]], True)  # fmt: skip
                    if st != OK:
                        break
                    sp = new_sp
                    n_cost += extra
                    pc += advance
                elif op == COMPARE_NUM and list_typed(arg):  # strs, lists, tuples: one call, as ASSERT_CMP
                    st, r, extra = list_compare(arg, stack[ix(sp - 2)], stack[ix(sp - 1)], heap, hp)
                    if st != OK:
                        break
                    sp -= 1
                    stack[ix(sp - 1)] = r
                    n_cost += extra
                    pc += 1
                elif op == ASSERT_CMP:
                    sp -= 2
                    a, b = stack[ix(sp)], stack[ix(sp + 1)]
                    if list_typed(arg):  # lists or strs; a failure records their lengths
                        st, r, extra = list_compare(arg, a, b, heap, hp)
                        if st != OK:
                            break
                        n_cost += extra
                        a, b = list_length(heap, hp, a), list_length(heap, hp, b)
                    else:
                        r = typed_compare(arg, a, b)
                    if r == 0:
                        lhs = a
                        rhs = b
                        st = ASSERT_FAILED
                        break
                    pc += 1
                elif op >= FIRST_MATH:  # vm/kernel_math.py
                    st, sp, extra = math_op(op, arg, stack, sp, heap, hp)
                    if st != OK:
                        break
                    n_cost += extra
                    pc += 1
                elif op >= FIRST_MODULE:  # module code and globals (contract.isa's module group)
                    if op == LOAD_GLOBAL:
                        u = func_unit[g]
                        b = gbase_c if u == cu else (gbase_s if u == su else -1)
                        if b < 0:
                            st = INVALID_BYTECODE
                            break
                        stack[ix(sp)] = stack[ix(b + arg)]
                        sp += 1
                        pc += 1
                    else:  # MODULE_END: the next module code, or the job's function, above this frame
                        if depth != 0 or nh != 0 or (g != init_c and g != init_s):
                            st = INVALID_BYTECODE
                            break
                        base = fp + func_nlocals[g]
                        nxt = init_s if g == init_c and init_s >= 0 else job_g
                        if base + func_nlocals[nxt] + func_max_stack[nxt] > stack_size:
                            st = STACK_LIMIT
                            break
                        if nxt == job_g:
                            st, hp = arguments(j, func_nparams[nxt], jobs, stack, base, heap, walk, hp)
                            if st != OK:
                                break
                        else:
                            gbase_s = base
                        g = nxt
                        fp = base
                        entry = func_entry[g]
                        for k in range(fp + func_nparams[g], fp + func_nlocals[g]):
                            stack[ix(k)] = 0
                        sp = fp + func_nlocals[g]
                        pc = entry
                        ubase = unit_func_start[func_unit[g]]
                        if link_row >= 0:
                            counting, hidden, mark = attribute(func_unit[g] != entry_unit, counting, n_cost, hidden, mark)
                elif op >= FIRST_EXC:  # raise, try / except (contract.isa's exc group)
                    if op == RAISE:
                        st = arg if 0 <= arg <= 62 and (RAISABLE_MASK >> arg) & 1 == 1 else INVALID_BYTECODE
                        break
                    if op == RERAISE:  # an exception value: status | function << 8 | pc << 32 where it was raised
                        sp -= 1
                        ev = stack[ix(sp)]
                        v = ev & 0xFF
                        raised_g = (ev >> 8) & 0xFFFFFF
                        raised_pc = ev >> 32
                        good = raised_g < func_entry.shape[0] and 0 <= raised_pc < code.shape[0] // 2
                        good = good and v <= 62  # RAISE's bound: a shift past 63 is undefined
                        st = v if good and (RAISABLE_MASK >> v) & 1 == 1 else INVALID_BYTECODE
                        break
                    if op == SETUP_TRY:
                        if depth + 1 + nh >= max_depth:
                            st = RECURSION_LIMIT
                            break
                        nh += 1
                        frames[ix(max_depth - nh), 0] = entry + arg
                        frames[ix(max_depth - nh), 1] = sp
                        frames[ix(max_depth - nh), 2] = depth
                    elif op == POP_TRY:
                        if nh == 0 or frames[ix(max_depth - nh), 2] != depth:
                            st = INVALID_BYTECODE
                            break
                        nh -= 1
                    else:  # EXC_MATCH of an exception value's status
                        v = stack[ix(sp - 1)] & 0xFF
                        stack[ix(sp - 1)] = (arg >> v) & 1 if v < 32 else 0
                    pc += 1
                elif op >= FIRST_VALUE:  # the value, dict and set instructions
                    st, sp, hp, extra, advance = heap_op(op, arg, stack, sp, fp, heap, hp, walk, consts,
                                                         unit_const_start[func_unit[g]], False)  # fmt: skip
                    n_cost += extra  # a value or dict assert's walk costs when it fails too
                    if st != OK:
                        if st == ASSERT_FAILED:  # ASSERT_VALUE / ASSERT_KEYED left their operands on the stack
                            lhs = stack[ix(sp - 2)]
                            rhs = stack[ix(sp - 1)]
                        break
                    pc += advance
                elif op >= FIRST_NUMERIC:  # vm/kernel_numeric.py (unknown opcodes: INVALID_BYTECODE); FELL_OFF ends the job
                    pops = POPS[ix(op)]
                    st, r = (numeric_value(op, arg, stack[ix(sp - pops)], stack[ix(sp - 1)], pops) if op != FELL_OFF
                             else (NONE_RETURNED, np.int64(0)))
                    if st != OK:
                        break
                    sp += 1 - pops
                    stack[ix(sp - 1)] = r
                    pc += 1
                else:  # verified code holds only opcodes of the table; one this kernel lacks
                    st = INVALID_BYTECODE
                    break
            if st == OK:
                if ran_other:
                    continue
                break  # the job returned
            reraised = op == RERAISE and st != INVALID_BYTECODE
            if not reraised:
                ev = st | (np.int64(g) << 8) | (np.int64(pc) << 32)
            if nh == 0 or not catchable(st, op == RAISE or op == RERAISE, op == BINARY_POW or op == FLOAT_POW):
                if reraised:  # the failure record: where it was first raised
                    g = raised_g
                    pc = raised_pc
                break  # the job ends with st
            # the innermost handler catches st: leave the frames above its depth, run it
            k = max_depth - nh
            nh -= 1
            hd = frames[ix(k), 2]
            if hd < depth:
                fp = frames[ix(hd), 1] & 0xFFFFFFFF
                ubase = frames[ix(hd), 1] >> 32
                g = frames[ix(hd), 2] & 0xFFFFFFFF
                entry = frames[ix(hd), 2] >> 32
                depth = hd
                if link_row >= 0:
                    counting, hidden, mark = attribute(func_unit[g] != entry_unit, counting, n_cost, hidden, mark)
            sp = frames[ix(k), 1]
            stack[ix(sp)] = ev
            sp += 1
            pc = frames[ix(k), 0]
            st = OK
            lhs = rhs = 0
        if st == OK:
            pc = -1
    if not counting:
        hidden += n_cost - mark
    out.status[j] = st
    out.value[j] = result if st == OK else 0
    out.cost[j] = n_cost - hidden
    out.steps[j] = step_limit - left
    out.heap_peak_words[j] = peak_words(heap)
    if st != OK and pc >= 0:
        out.fail_unit[j] = func_unit[g]
        out.fail_line[j] = image.lines[pc]
        out.fail_arg[j] = code[2 * pc + 1]
        out.fail_op[j] = code[2 * pc]
        out.fail_lhs[j] = lhs
        out.fail_rhs[j] = rhs
