"""The reference job's machine, beside its instruction loop (vm/reference.py's Job): calls and
frames (a stub resolved through the job's link row), the operand stack and local slots with
their checks, module code and globals, exception handlers (raise, try, catch) and the heap
instructions' run once more after a collection.  Plain Python: part of the ISA's spec."""

from __future__ import annotations

from gpucc.contract import isa as O
from gpucc.contract import status as S
from gpucc.contract.image import MODULE_CODE
from gpucc.vm import reference_lists
from gpucc.vm.reference_numeric import Stop


class Machine:
    """What Job (vm/reference.py) runs its instructions on: the state __init__ there makes."""

    # -- functions and frames
    def resolve(self, g: int) -> int:
        if not 0 <= g < len(self.image.func_import):
            raise Stop(S.INVALID_BYTECODE)
        imp = int(self.image.func_import[g])
        target = g
        if imp >= 0:
            if not (0 <= self.link < self.links.shape[0] and imp < self.links.shape[1]):
                raise Stop(S.INVALID_BYTECODE)
            target = int(self.links[self.link, imp])
            if not 0 <= target < len(self.image.func_import) or self.image.func_import[target] >= 0:
                raise Stop(S.INVALID_BYTECODE)
            if self.image.func_nparams[target] != self.image.func_nparams[g]:
                raise Stop(S.INVALID_BYTECODE)
        if not self.image.func_ok[target]:
            raise Stop(S.INVALID_BYTECODE)
        return target

    @property
    def base(self) -> int:  # first operand slot of the running frame
        return self.fp + int(self.image.func_nlocals[self.g])

    @property
    def unit(self) -> int:
        return int(self.image.func_unit[self.g])

    def enter(self, g: int, fp: int) -> None:
        self.g, self.fp = g, fp
        for k in range(self.sp, self.base):
            self.stack[k] = 0
        self.sp = self.base
        self.pc = int(self.image.func_entry[g])

    def call(self, f: int) -> None:
        u = self.unit
        lo, hi = int(self.image.unit_func_start[u]), int(self.image.unit_func_start[u + 1])
        if not 0 <= f < hi - lo:
            raise Stop(S.INVALID_BYTECODE)
        callee = self.resolve(lo + f)
        new_fp = self.sp - int(self.image.func_nparams[callee])
        self.need(self.sp - new_fp, 1)  # its arguments, then room for its result
        if len(self.frames) + 1 + len(self.handlers) >= self.limits.max_depth:
            raise Stop(S.RECURSION_LIMIT)
        frame = int(self.image.func_nlocals[callee]) + int(self.image.func_max_stack[callee])
        if new_fp + frame > self.limits.stack_size:
            raise Stop(S.STACK_LIMIT)
        self.frames.append((self.pc + 1, self.fp, self.g))
        self.enter(callee, new_fp)

    def ret(self) -> int | None:
        """Return from the running frame; the job's value when it was the last one."""
        v = self.pop()
        if not self.frames:
            return v
        while self.handlers and self.handlers[-1][2] >= len(self.frames):  # the ones this frame opened
            self.handlers.pop()
        self.sp = self.fp  # the callee's arguments started here; CALL checked the room
        self.stack[self.sp] = v
        self.sp += 1
        self.pc, self.fp, self.g = self.frames.pop()
        return None

    # -- the operand stack
    def need(self, pops: int, pushes: int = 0) -> None:
        room = self.base + int(self.image.func_max_stack[self.g]) + self.headroom
        if self.sp - pops < self.base or self.sp - pops + pushes > room:
            raise Stop(S.INVALID_BYTECODE)

    def pop(self) -> int:
        self.need(1)
        self.sp -= 1
        return self.stack[self.sp]

    def push(self, v: int) -> None:
        self.need(0, 1)
        self.stack[self.sp] = v
        self.sp += 1

    def slot(self, arg: int, width: int = 1) -> int:
        """Stack index of local slot arg (width slots must lie inside nlocals)."""
        if not 0 <= arg <= int(self.image.func_nlocals[self.g]) - width:
            raise Stop(S.INVALID_BYTECODE)
        return self.fp + arg

    # -- module code (contract.isa's module group)
    def module_code(self, u: int) -> int:
        """Unit u's module code (its last function, MODULE_CODE in func_import), or -1."""
        if not 0 <= u < len(self.image.unit_func_start) - 1:
            return -1
        last = int(self.image.unit_func_start[u + 1]) - 1
        ok = last >= int(self.image.unit_func_start[u]) and self.image.func_import[last] == MODULE_CODE
        return last if ok else -1

    def start(self, g: int, base: int) -> None:
        """Enter module code or the job's function at depth 0 above `base` (the job's arguments
        built first: after module code, whose frames stay as the globals)."""
        if base + int(self.image.func_nlocals[g]) + int(self.image.func_max_stack[g]) > self.limits.stack_size:
            raise Stop(S.STACK_LIMIT)
        n = int(self.image.func_nparams[g])
        if g == self.job_g:  # when they do not fit, once more after a collection (roots: the globals)
            args = self.collecting(lambda: reference_lists.enter_arguments(self.heap, self.args[:n], self.arg_lists,
                                                                           self.pool), base)  # fmt: skip
            self.stack[base : base + n] = args
        else:
            self.gbase[int(self.image.func_unit[g])] = base
        self.sp = base + n
        self.enter(g, base)

    def module_op(self, op: int, arg: int) -> None:
        """LOAD_GLOBAL: a global of the running unit; MODULE_END: the next module code or the job's function."""
        if op == O.LOAD_GLOBAL:
            m = self.module_code(self.unit)
            if self.unit not in self.gbase or not 0 <= arg < int(self.image.func_nlocals[m]):
                raise Stop(S.INVALID_BYTECODE)
            self.push(self.stack[self.gbase[self.unit] + arg])
            return
        if self.frames or self.handlers or self.g not in self.inits:
            raise Stop(S.INVALID_BYTECODE)
        following = self.inits[self.inits.index(self.g) + 1 :] + [self.job_g]
        self.start(following[0], self.fp + int(self.image.func_nlocals[self.g]))
        self.next_pc = self.pc

    def catch(self, status: int) -> bool:
        """Whether the innermost open handler catches `status` (contract.status.catchable); if so
        the frames above its depth are left, its operand stack restored, the status pushed, and
        it runs next."""
        op = int(self.code[self.pc, 0]) if 0 <= self.pc < len(self.code) else -1
        reraised = op == O.RERAISE and status != S.INVALID_BYTECODE
        value = self.reraised if reraised else status | self.g << 8 | self.pc << 32  # the exception value
        if not self.handlers or not S.catchable(status, op in (O.RAISE, O.RERAISE), op in (O.BINARY_POW, O.FLOAT_POW)):
            if reraised:  # the failure record: where it was first raised
                self.g, self.pc = (value >> 8) & 0xFFFFFF, value >> 32
            return False
        pc, sp, depth = self.handlers.pop()
        while len(self.frames) > depth:
            _, self.fp, self.g = self.frames.pop()
        self.headroom = 0
        self.sp = sp
        self.push(value)
        self.pc = pc
        return True

    def exception_op(self, op: int, arg: int, entry: int) -> None:
        """RAISE, RERAISE, SETUP_TRY, POP_TRY, EXC_MATCH (contract.isa's exc group)."""
        if op == O.RAISE:
            raise Stop(arg if 0 <= arg <= 62 and (S.RAISABLE_MASK >> arg) & 1 else S.INVALID_BYTECODE)
        if op == O.RERAISE:  # an exception value: status | g << 8 | pc << 32 where it was raised
            self.reraised = v = self.pop()
            good = (v >> 8) & 0xFFFFFF < len(self.image.func_entry) and 0 <= v >> 32 < len(self.code)
            raise Stop(v & 0xFF if good and (S.RAISABLE_MASK >> (v & 0xFF)) & 1 else S.INVALID_BYTECODE)
        if op == O.SETUP_TRY:
            if len(self.frames) + 1 + len(self.handlers) >= self.limits.max_depth:
                raise Stop(S.RECURSION_LIMIT)
            self.handlers.append((entry + arg, self.sp, len(self.frames)))
        elif op == O.POP_TRY:
            if not self.handlers or self.handlers[-1][2] != len(self.frames):
                raise Stop(S.INVALID_BYTECODE)
            self.handlers.pop()
        else:  # EXC_MATCH of an exception value's status
            v = self.pop() & 0xFF
            self.push((arg >> v) & 1 if v < 32 else 0)

    def on_heap(self, run, op: int, arg: int) -> int:
        """run(self, op, arg): a list, str, value, dict or set instruction, once more after a
        collection (`collecting`) when its allocation does not fit."""
        sp = self.sp

        def attempt() -> int:
            self.sp = sp
            return run(self, op, arg)

        return self.collecting(attempt, sp)

    def collecting(self, run, top: int):
        """run(); when an allocation in it does not fit (it changed nothing else), run() once more
        after a collection of the heap whose roots are the stack below top (vm/reference_heap.py).
        Before any handler sees the status: the kernel's heap_op."""
        try:
            return run()
        except Stop as stop:
            if stop.status != S.MEMORY_LIMIT:
                raise
        self.heap.collect(self.stack[:top])
        return run()
