"""What run_job (vm/kernel.py) calls around its dispatch, beside the instructions themselves: the
heap instructions and the job's arguments, each run once more after a collection when an
allocation did not fit (vm/kernel_gc.py); the cost attribution when the running unit changes;
a call's target through the job's link row; a unit's module code.  Written once, as the kernel."""

from __future__ import annotations

import numpy as np
from numba.extending import register_jitable

from gpucc.contract.image import MODULE_CODE
from gpucc.contract.jitable import nrt_free
from gpucc.contract.isa import FIRST_DICT, FIRST_STR, FIRST_VALUE
from gpucc.contract.status import MEMORY_LIMIT, OK
from gpucc.vm.kernel_keyed import dict_op
from gpucc.vm.kernel_gc import collect
from gpucc.vm.kernel_lists import enter_arguments, list_op
from gpucc.vm.kernel_str import str_op
from gpucc.vm.kernel_value import value_op


@nrt_free
def heap_op(op, arg, stack, sp, fp, heap, hp, walk, consts, const_base, collect_first):
    """(status, sp, hp, extra cost, pc advance) of a list, str, value, dict or set instruction; one
    whose allocation did not fit (it changed nothing else) runs once more after a collection of
    the heap with the stack below sp as roots (vm/kernel_gc.py).  collect_first: it ran already
    (run_job calls the list and str instructions directly) and did not fit: collect, then run it."""
    st = OK
    new_sp = sp
    extra = np.int64(0)
    advance = 1
    for attempt in range(1 if collect_first else 0, 2):
        if attempt == 1:
            st, hp = collect(heap, hp, stack, sp)
            if st != OK:
                break
        if op >= FIRST_DICT:  # vm/kernel_keyed.py
            st, new_sp, hp, extra, advance = dict_op(op, arg, stack, sp, fp, heap, hp, walk, consts, const_base)
        elif op >= FIRST_VALUE:  # vm/kernel_value.py
            st, new_sp, hp, extra = value_op(op, arg, stack, sp, heap, hp, walk, consts, const_base)
            advance = 1
        elif op >= FIRST_STR:  # vm/kernel_str.py
            st, new_sp, hp, extra, advance = str_op(op, arg, stack, sp, heap, hp, consts, const_base)
        else:  # vm/kernel_lists.py
            st, new_sp, hp, extra, advance = list_op(op, arg, stack, sp, fp, heap, hp, walk)
        if st != MEMORY_LIMIT:
            break
    return st, new_sp, hp, extra, advance


@nrt_free
def arguments(j, n_params, jobs, stack, base, heap, walk, hp):
    """(status, hp): job j's arguments into stack[base ..] (vm/kernel_lists.enter_arguments); when
    they do not fit, once more after a collection whose roots are the stack below base (the
    module code's globals)."""
    st, hp = enter_arguments(j, n_params, jobs, stack[base:], heap, walk, hp)
    if st == MEMORY_LIMIT:
        st, hp = collect(heap, hp, stack, base)
        if st == OK:
            st, hp = enter_arguments(j, n_params, jobs, stack[base:], heap, walk, hp)
    return st, hp


@register_jitable
def attribute(now, counting, n_cost, hidden, mark):
    """(counting, hidden, mark) after the running unit changed at a CALL or RETURN: `now`
    says whether the instructions from here on count (see the module doc)."""
    if now and not counting:
        hidden += n_cost - mark
    elif counting and not now:
        mark = n_cost
    return now, hidden, mark


@nrt_free
def resolve(g, link_row, func_import, func_nparams, func_ok, links):
    """Global id a call of g runs (a stub resolves through the job's link row to a function
    with a body and the stub's arity); -1 if that fails or the function did not verify."""
    if g < 0 or g >= func_import.shape[0]:
        return -1
    imp = func_import[g]
    t = g
    if imp >= 0:
        if link_row < 0 or link_row >= links.shape[0] or imp >= links.shape[1]:
            return -1
        t = links[link_row, imp]
        if t < 0 or t >= func_import.shape[0] or func_import[t] >= 0 or func_nparams[t] != func_nparams[g]:
            return -1
    if func_ok[t] == 0:
        return -1
    return t


@nrt_free
def module_code(u, unit_func_start, func_import):
    """Global id of unit u's module code (its last function, func_import MODULE_CODE), or -1."""
    if u < 0 or u + 1 >= unit_func_start.shape[0]:
        return -1
    last = unit_func_start[u + 1] - 1
    if last < unit_func_start[u] or func_import[last] != MODULE_CODE:
        return -1
    return last
