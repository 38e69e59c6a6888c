"""The reference interpreter: plain Python, one job at a time.  THE spec of the ISA.

vm/kernel.py must agree with it bit for bit (status, value, cost, steps and the failure
record) on every program, verified or not.  The rules, in the order they are applied:

Verification.  Only functions that pass vm.verify.check_function run.  Entering any other
(as the job's function or by CALL) is INVALID_BYTECODE, and so is a CALL of a stub whose
link is missing, a stub itself, or a function of another arity than the stub's.

Job start.  The job's function (a stub resolves through the job's link row) is entered like
a CALL at depth 0 with its nparams arguments from args[j]: INVALID_BYTECODE as above, then
max_depth < 1 RECURSION_LIMIT, nlocals + max_stack > stack_size STACK_LIMIT.  These failures
record no instruction (fail_unit = fail_line = -1).

Module code.  Before the job's function, the candidate's module code runs, then the suite's
(`Job.start`, MODULE_END), each at depth 0 above the frame before, whose locals stay as its
unit's globals (LOAD_GLOBAL); the job's arguments are built when its function starts.  A unit
whose module code fails to verify makes every job running it INVALID_BYTECODE.

Exceptions.  A status an instruction ends the job with is caught instead when a handler is open
(SETUP_TRY) and contract.status.catchable says it may be (`Job.catch`): the handler runs with
the frames above its depth left.  Calls and open handlers together hold fewer than max_depth
frames (a CALL or SETUP_TRY past that is RECURSION_LIMIT); a RETURN drops its frame's
handlers.

Each instruction.  A job may execute at most step_limit instructions: reaching the next one
with steps == step_limit is STEP_LIMIT (it is not executed).  Otherwise steps += 1 and the
instruction runs, adding its cost to the job's if it is candidate code: the running
function's unit differs from the unit of the job's function (job_func as given, before
link resolution), or the job has no link row (link -1: then every instruction counts).  So
a CALL counts to the caller, a RETURN to the callee.  A CALL checks, in order, the callee
(INVALID_BYTECODE), the depth (RECURSION_LIMIT: max_depth frames at most) and room for the
callee's nlocals + max_stack on the value stack (STACK_LIMIT).  A failing instruction (for
STEP_LIMIT: the one not run) records fail_unit / fail_line / fail_op / fail_arg (and
assert operands in fail_lhs / fail_rhs).

List arguments (JobTable.pool / arg_lists) are copied into the job's heap as its function is
entered, in argument order; when they do not fit, once more after a collection (module code
may have left garbage), then MEMORY_LIMIT.  The heap, its handles and its collector are
vm/kernel_heap.py's and vm/kernel_gc.py's doc (vm/reference_heap.py implements them: an
instruction whose allocation does not fit runs once more after a collection, at no cost, before
any handler sees its status; Job.on_heap), the list and str
instructions' extra costs vm/kernel_lists.py's, vm/kernel_order.py's and vm/kernel_str.py's;
vm/reference_lists.py and vm/reference_str.py implement them, and vm/reference_value.py the
value instructions (tuples, Optional, values of any structured type), vm/reference_dict.py
the dict and set instructions.

What each instruction does is `Job.step` below (and the doc column of contract.isa.TABLE); the
frames, operand stack, module code, handlers and heap retries it runs on are vm/reference_machine.py's.
Arithmetic is Python's on ints, and any result outside int64 is OVERFLOW (// and % round
toward -inf; a zero divisor is ZERO_DIVISION).  A FOR_RANGE counter that would step past
int64 ends its loop.  A superinstruction runs the sequence contract.isa.EXPANSIONS gives for
it, as one step; each instruction of the sequence it reaches costs what it costs (all of
them: the superinstruction's table cost; one that fails midway, only those run).

The stack and operand checks below can never fire on verified code; they keep this
interpreter safe on its own.
"""

from __future__ import annotations

from gpucc.contract import isa as O
from gpucc.contract import status as S
from gpucc.contract.image import ImageArrays, JobArrays, JobTable, LaunchLimits, Program, Results
from gpucc.vm import reference_dict, reference_lists, reference_math, reference_methods, reference_numeric
from gpucc.vm import reference_str, reference_value
from gpucc.vm.prepare import prepare_launch
from gpucc.vm.reference_heap import Heap
from gpucc.vm.reference_machine import Machine
from gpucc.vm.reference_numeric import (
    COMPARISONS,
    INT64_MAX,
    INT64_MIN,
    Stop,
    int64,
    typed_compare,
)


def floordiv(a: int, b: int) -> int:
    if b == 0:
        raise Stop(S.ZERO_DIVISION)
    return a // b


def mod(a: int, b: int) -> int:
    if b == 0:
        raise Stop(S.ZERO_DIVISION)
    return a % b


JUMPS = (O.JUMP, O.JUMP_IF_FALSE, O.JUMP_IF_TRUE, O.JUMP_IF_FALSE_OR_POP, O.JUMP_IF_TRUE_OR_POP)
BINARY = {
    O.BINARY_ADD: lambda a, b: a + b,
    O.BINARY_SUB: lambda a, b: a - b,
    O.BINARY_MUL: lambda a, b: a * b,
    O.BINARY_FLOORDIV: floordiv,
    O.BINARY_MOD: mod,
}


class Job(Machine):
    """The state of one running job; `run()` returns (status, value, lhs, rhs)."""

    def __init__(self, image: ImageArrays, jobs: JobArrays, limits: LaunchLimits, j: int):
        self.image = image
        self.code = image.code.reshape(-1, 2)
        self.links, self.pool = jobs.links, jobs.pool
        self.func, self.link, self.args = int(jobs.func[j]), int(jobs.link[j]), jobs.args[j]
        self.arg_lists = int(jobs.arg_lists[j])
        self.heap = Heap(limits.heap_size)
        self.counts = True  # whether the running instruction's cost is the candidate's
        self.limits = limits
        self.stack = [0] * (limits.stack_size + 2)  # + a superinstruction's headroom
        self.headroom = 0  # values a running superinstruction's sequence may hold beyond it
        self.frames: list[tuple[int, int, int]] = []  # (return pc, caller fp, caller g)
        self.handlers: list[tuple[int, int, int]] = []  # open handlers: (pc, sp, call depth) at SETUP_TRY
        self.reraised = 0  # the exception value RERAISE popped
        self.job_g, self.inits = -1, []  # the job's function, the module codes run before it
        self.gbase: dict[int, int] = {}  # unit -> where its globals (its module code's frame) begin
        self.steps = self.cost = 0
        self.pc = -1  # the instruction being run; -1 before the first
        self.entry_unit = -1  # unit of the job's function (the suite, for linked jobs)
        self.g = self.fp = self.sp = 0

    # -- running
    def run(self) -> tuple[int, int, int, int]:
        try:
            self.job_g = self.resolve(self.func)
            self.entry_unit = su = int(self.image.func_unit[self.func])
            row = self.links[self.link] if 0 <= self.link < self.links.shape[0] and self.links.shape[1] else [-1]
            cu = int(self.image.func_unit[row[0]]) if 0 <= row[0] < len(self.image.func_unit) else -1
            self.inits = [i for i in (self.module_code(cu) if cu != su else -1, self.module_code(su)) if i >= 0]
            if not all(self.image.func_ok[i] for i in self.inits):
                raise Stop(S.INVALID_BYTECODE)
            if self.limits.max_depth < 1:
                raise Stop(S.RECURSION_LIMIT)
            self.start((self.inits + [self.job_g])[0], 0)
            while True:
                try:
                    value = self.step()
                except Stop as stop:
                    if not self.catch(stop.status):
                        raise
                    continue
                if value is not None:
                    return S.OK, value, 0, 0
        except Stop as stop:
            return stop.status, 0, stop.lhs, stop.rhs

    def step(self) -> int | None:
        """Run one instruction; the job's value when it returned from depth 0."""
        if self.steps >= self.limits.step_limit:
            raise Stop(S.STEP_LIMIT)
        entry, pc = int(self.image.func_entry[self.g]), self.pc
        if not entry <= pc < int(self.image.func_end[self.g]):
            raise Stop(S.INVALID_BYTECODE)
        op, arg = int(self.code[pc, 0]), int(self.code[pc, 1])
        if not 0 <= op < O.NUM_OPCODES:
            raise Stop(S.INVALID_BYTECODE)
        self.steps += 1
        self.counts = counts = self.link < 0 or self.unit != self.entry_unit  # candidate code
        self.next_pc = pc + 1  # jumps overwrite it; self.pc stays on the running instruction
        expand = O.EXPANSIONS.get(op)  # a superinstruction runs its sequence
        self.headroom = 2 if expand else 0  # which may hold two values more than it does
        for sub_op, sub_arg in expand(arg) if expand else [(op, arg)]:
            self.cost += O.TABLE[sub_op].cost if counts else 0
            if sub_op == O.CALL:
                self.call(sub_arg)
                return None  # enter() has set pc
            if sub_op == O.RETURN:
                self.headroom = 0
                return self.ret()
            self.execute(sub_op, sub_arg, entry)
        self.headroom = 0
        self.pc = self.next_pc
        return None

    def execute(self, op: int, arg: int, entry: int) -> None:
        """What one plain instruction (not CALL or RETURN) does."""
        if op == O.NOP:
            pass
        elif op == O.LOAD_CONST:
            u = self.unit
            lo, hi = int(self.image.unit_const_start[u]), int(self.image.unit_const_start[u + 1])
            if not 0 <= arg < hi - lo:
                raise Stop(S.INVALID_BYTECODE)
            self.push(int(self.image.consts[lo + arg]))
        elif op == O.LOAD_INT:
            self.push(arg)
        elif op == O.LOAD_VAR:
            self.push(self.stack[self.slot(arg)])
        elif op == O.STORE_VAR:
            s = self.slot(arg)
            self.stack[s] = self.pop()
        elif op == O.POP_TOP:
            self.pop()
        elif op == O.DUP_TOP:
            self.need(1, 2)
            self.push(self.stack[self.sp - 1])
        elif op == O.ROT_TWO:
            self.need(2, 2)
            b, a = self.pop(), self.pop()
            self.push(b)
            self.push(a)
        elif op == O.ROT_THREE:
            self.need(3, 3)
            c, b, a = self.pop(), self.pop(), self.pop()
            for v in (c, a, b):
                self.push(v)
        elif op in BINARY:
            self.need(2, 1)
            b, a = self.pop(), self.pop()
            self.push(int64(BINARY[op](a, b)))
        elif op == O.UNARY_NEG:
            self.push(int64(-self.pop()))
        elif op == O.UNARY_NOT:
            self.push(int(self.pop() == 0))
        elif O.COMPARE_LT <= op <= O.COMPARE_GE:
            self.need(2, 1)
            b, a = self.pop(), self.pop()
            self.push(int(COMPARISONS[op - O.COMPARE_LT](a, b)))
        elif op in JUMPS:
            self.jump(op, entry + arg)
        elif op == O.FOR_RANGE:
            if self.next_value(arg):
                self.next_pc += 1  # skip the JUMP out of the loop
        elif op == O.FOR_LOOP:
            target, slot = O.unpack(arg)
            if self.next_value(slot):
                self.next_pc = entry + target
        elif op == O.RANGE_CHECK:
            if self.stack[self.slot(arg, 3) + 2] == 0:
                raise Stop(S.VALUE_ERROR)
        elif op == O.ASSERT_TRUE:
            v = self.pop()
            if v == 0:
                raise Stop(S.ASSERT_FAILED, v)
        elif op == O.ASSERT_CMP:
            self.need(2)
            a, b = self.stack[self.sp - 2], self.stack[self.sp - 1]
            if reference_lists.list_typed(arg):  # lists: a failure records their lengths
                holds, extra = reference_lists.list_compare(self.heap, arg, a, b)
                self.cost += extra if self.counts else 0
                a, b = len(self.heap.slots(a)), len(self.heap.slots(b))
            else:
                holds = typed_compare(arg, a, b)
            if not holds:
                raise Stop(S.ASSERT_FAILED, a, b)
            self.sp -= 2
        elif op >= O.FIRST_MATH:  # vm/reference_math.py
            extra = reference_math.execute(self, op, arg)
            self.cost += extra if self.counts else 0
        elif op >= O.FIRST_MODULE:
            self.module_op(op, arg)
        elif op >= O.FIRST_EXC:
            self.exception_op(op, arg, entry)
        elif reference_methods.serves(op):  # vm/reference_methods.py
            extra = self.on_heap(reference_methods.execute, op, arg)
            self.cost += extra if self.counts else 0
        elif op >= O.FIRST_DICT:  # vm/reference_dict.py
            extra = self.on_heap(reference_dict.execute, op, arg)
            self.cost += extra if self.counts else 0
        elif op >= O.FIRST_VALUE:  # vm/reference_value.py
            extra = self.on_heap(reference_value.execute, op, arg)
            self.cost += extra if self.counts else 0
        elif op >= O.FIRST_STR:  # vm/reference_str.py
            extra = self.on_heap(reference_str.execute, op, arg)  # runs in suite code too; only candidate code counts
            self.cost += extra if self.counts else 0
        elif op == O.FELL_OFF:
            raise Stop(S.NONE_RETURNED)
        elif op >= O.NEW_LIST or (op == O.COMPARE_NUM and reference_lists.list_typed(arg)):
            extra = self.on_heap(reference_lists.execute, op, arg)  # vm/reference_lists.py
            self.cost += extra if self.counts else 0
        elif op >= O.BINARY_AND:  # the numeric instructions: vm/reference_numeric.py
            n = O.TABLE[op].pops
            self.need(n, 1)
            b = self.pop() if n == 2 else 0
            self.push(reference_numeric.run(op, arg, self.pop(), b))
        else:
            raise Stop(S.INVALID_BYTECODE)

    def next_value(self, slot: int) -> bool:
        """FOR_RANGE / FOR_LOOP over slots slot .. slot + 2 (counter, stop, step): push the
        counter and advance it if it is inside the range (past int64 it becomes stop)."""
        s = self.slot(slot, 3)
        counter, stop, step = self.stack[s : s + 3]
        if not ((step > 0 and counter < stop) or (step < 0 and counter > stop)):
            return False
        self.push(counter)
        nxt = counter + step
        self.stack[s] = nxt if INT64_MIN <= nxt <= INT64_MAX else stop
        return True

    def jump(self, op: int, target: int) -> None:
        if op == O.JUMP:
            self.next_pc = target
            return
        keep = op in (O.JUMP_IF_FALSE_OR_POP, O.JUMP_IF_TRUE_OR_POP)
        v = self.pop()
        if (v != 0) == (op in (O.JUMP_IF_TRUE, O.JUMP_IF_TRUE_OR_POP)):
            self.next_pc = target
            if keep:
                self.push(v)


def run_reference(program: Program, jobs: JobTable, limits: LaunchLimits | None = None) -> Results:
    """Run every job of `jobs` on `program`, one after the other, in plain Python."""
    limits, image, job_cols, results = prepare_launch(program, jobs, limits, "reference")
    code, lines, func_unit = image.code.reshape(-1, 2), image.lines, image.func_unit
    for j in range(len(results.status)):
        job = Job(image, job_cols, limits, j)
        st, value, lhs, rhs = job.run()
        results.status[j], results.value[j] = st, value
        results.cost[j], results.steps[j] = job.cost, job.steps
        results.heap_peak_words[j] = job.heap.peak_words
        # a failure inside an instruction records it (job.pc is where it ran)
        failed_at = job.pc if st != S.OK else -1
        if 0 <= failed_at < len(code):
            results.fail_unit[j] = func_unit[job.g]
            results.fail_line[j] = lines[failed_at]
            results.fail_arg[j] = code[failed_at, 1]
            results.fail_op[j] = code[failed_at, 0]
            results.fail_lhs[j], results.fail_rhs[j] = lhs, rhs
    return results
