"""The ISA table's rows (contract/isa.py assembles them into its Op table): the operand kinds,
then the nine groups in opcode order (int, numeric, list, str, value, dict, exc, module, math),
each row (name, operand kind, pops, pushes, cost, meaning) with the group's conventions above it.
A row's opcode is its place in this order: add a row at the end of its group."""

# operand kinds
OPERAND_KINDS = ("NONE", "LOCAL", "CONST", "IMM", "JUMP", "FUNC", "TYPED_CMP", "LOCAL2", "LOCAL_IMM", "IMM_JUMP",
                 "LOCAL_JUMP", "LOCAL2_JUMP", "LOCAL_IMM_JUMP")  # fmt: skip
(ARG_NONE, ARG_LOCAL, ARG_CONST, ARG_IMM, ARG_JUMP, ARG_FUNC, ARG_TYPED_CMP, ARG_LOCAL2, ARG_LOCAL_IMM,
 ARG_IMM_JUMP, ARG_LOCAL_JUMP, ARG_LOCAL2_JUMP, ARG_LOCAL_IMM_JUMP) = range(len(OPERAND_KINDS))  # fmt: skip

# Pseudo stack effect: CALL pops the callee's parameter count, NEW_LIST its operand.
VARIABLE = -1


# name, operand kind, pops, pushes, cost, meaning
_INT_ROWS = [    ("NOP", ARG_NONE, 0, 0, 1, "do nothing"),
    ("LOAD_CONST", ARG_CONST, 0, 1, 1, "push consts[arg]"),
    ("LOAD_INT", ARG_IMM, 0, 1, 1, "push the immediate arg"),
    ("LOAD_VAR", ARG_LOCAL, 0, 1, 1, "push local slot arg"),
    ("STORE_VAR", ARG_LOCAL, 1, 0, 1, "pop into local slot arg"),
    ("POP_TOP", ARG_NONE, 1, 0, 1, "drop the top of stack"),
    ("DUP_TOP", ARG_NONE, 1, 2, 1, "a -> a a"),
    ("ROT_TWO", ARG_NONE, 2, 2, 1, "a b -> b a"),
    ("ROT_THREE", ARG_NONE, 3, 3, 1, "a b c -> c a b"),
    ("BINARY_ADD", ARG_NONE, 2, 1, 1, "int a + b; OverflowError outside int64"),
    ("BINARY_SUB", ARG_NONE, 2, 1, 1, "int a - b; OverflowError outside int64"),
    ("BINARY_MUL", ARG_NONE, 2, 1, 2, "int a * b; OverflowError outside int64"),
    ("BINARY_FLOORDIV", ARG_NONE, 2, 1, 4, "int a // b (floor); ZeroDivisionError, OverflowError"),
    ("BINARY_MOD", ARG_NONE, 2, 1, 4, "int a % b (sign of b); ZeroDivisionError"),
    ("UNARY_NEG", ARG_NONE, 1, 1, 1, "int -a; OverflowError for -(2**63)"),
    ("UNARY_NOT", ARG_NONE, 1, 1, 1, "bool not a"),
    ("COMPARE_LT", ARG_NONE, 2, 1, 1, "a < b"),
    ("COMPARE_LE", ARG_NONE, 2, 1, 1, "a <= b"),
    ("COMPARE_EQ", ARG_NONE, 2, 1, 1, "a == b"),
    ("COMPARE_NE", ARG_NONE, 2, 1, 1, "a != b"),
    ("COMPARE_GT", ARG_NONE, 2, 1, 1, "a > b"),
    ("COMPARE_GE", ARG_NONE, 2, 1, 1, "a >= b"),
    ("JUMP", ARG_JUMP, 0, 0, 1, "pc = entry + arg"),
    ("JUMP_IF_FALSE", ARG_JUMP, 1, 0, 1, "pop; jump if it is false"),
    ("JUMP_IF_TRUE", ARG_JUMP, 1, 0, 1, "pop; jump if it is true"),
    ("JUMP_IF_FALSE_OR_POP", ARG_JUMP, 1, 1, 1, "if top is false jump (keep it), else pop (`and`)"),
    ("JUMP_IF_TRUE_OR_POP", ARG_JUMP, 1, 1, 1, "if top is true jump (keep it), else pop (`or`)"),
    (
        "FOR_RANGE",
        ARG_LOCAL,
        0,
        1,
        1,
        "slots arg, arg+1, arg+2 hold counter, stop, step: if the counter is inside the range "
        "push it, advance the counter and skip the next instruction; else fall through to the "
        "next instruction (a JUMP out of the loop) pushing nothing",
    ),
    ("RANGE_CHECK", ARG_LOCAL, 0, 0, 1, "ValueError if the step in slot arg+2 is 0"),
    ("CALL", ARG_FUNC, VARIABLE, 1, 5, "call unit function arg with its nparams arguments"),
    ("RETURN", ARG_NONE, 1, 0, 2, "return the top of stack to the caller"),
    ("ASSERT_TRUE", ARG_NONE, 1, 0, 1, "pop; AssertionError if false"),
    ("ASSERT_CMP", ARG_TYPED_CMP, 2, 0, 1, "pop b, a; AssertionError unless a <cmp> b (cmp, types: typed_cmp_fields(arg))"),
    # Superinstructions (optional peepholes for codegen).  Each costs what the sequence it
    # replaces costs, so a candidate's cost does not depend on whether they were used.
    ("JUMP_IF_NOT_LT", ARG_JUMP, 2, 0, 2, "pop b, a; jump unless a < b (COMPARE_LT + JUMP_IF_FALSE)"),
    ("JUMP_IF_NOT_LE", ARG_JUMP, 2, 0, 2, "pop b, a; jump unless a <= b"),
    ("JUMP_IF_NOT_EQ", ARG_JUMP, 2, 0, 2, "pop b, a; jump unless a == b"),
    ("JUMP_IF_NOT_NE", ARG_JUMP, 2, 0, 2, "pop b, a; jump unless a != b"),
    ("JUMP_IF_NOT_GT", ARG_JUMP, 2, 0, 2, "pop b, a; jump unless a > b"),
    ("JUMP_IF_NOT_GE", ARG_JUMP, 2, 0, 2, "pop b, a; jump unless a >= b"),
    ("BINARY_ADD_INT", ARG_IMM, 1, 1, 2, "a + arg (LOAD_INT arg + BINARY_ADD)"),
    ("BINARY_SUB_INT", ARG_IMM, 1, 1, 2, "a - arg (LOAD_INT arg + BINARY_SUB)"),
    ("BINARY_MUL_INT", ARG_IMM, 1, 1, 3, "a * arg (LOAD_INT arg + BINARY_MUL)"),
    ("BINARY_FLOORDIV_INT", ARG_IMM, 1, 1, 5, "a // arg (LOAD_INT arg + BINARY_FLOORDIV)"),
    ("BINARY_MOD_INT", ARG_IMM, 1, 1, 5, "a % arg (LOAD_INT arg + BINARY_MOD)"),
    ("INC_VAR", ARG_LOCAL, 0, 0, 4, "local slot arg += 1 (LOAD_VAR, LOAD_INT 1, BINARY_ADD, STORE_VAR)"),
    # register-style superinstructions with packed operands (lo, hi)
    ("LOAD_VAR2", ARG_LOCAL2, 0, 2, 2, "push local lo, then local hi"),
    ("STORE_LOAD", ARG_LOCAL2, 1, 1, 2, "pop into local lo, then push local hi"),
    ("RETURN_VAR", ARG_LOCAL, 0, 0, 3, "return local arg (LOAD_VAR arg + RETURN)"),
    ("VAR_ADD_INT", ARG_LOCAL_IMM, 0, 1, 3, "push local lo + hi; OverflowError outside int64"),
    ("VAR_SUB_INT", ARG_LOCAL_IMM, 0, 1, 3, "push local lo - hi; OverflowError outside int64"),
    ("VAR_MUL_INT", ARG_LOCAL_IMM, 0, 1, 4, "push local lo * hi; OverflowError outside int64"),
    ("VAR_FLOORDIV_INT", ARG_LOCAL_IMM, 0, 1, 6, "push local lo // hi; ZeroDivisionError, OverflowError"),
    ("VAR_MOD_INT", ARG_LOCAL_IMM, 0, 1, 6, "push local lo % hi; ZeroDivisionError"),
    ("ADD_TO_VAR", ARG_LOCAL_IMM, 0, 0, 4, "local lo += hi; OverflowError outside int64"),
    ("JUMP_IF_NOT_LT_INT", ARG_IMM_JUMP, 1, 0, 3, "pop a; jump to lo unless a < hi"),
    ("JUMP_IF_NOT_LE_INT", ARG_IMM_JUMP, 1, 0, 3, "pop a; jump to lo unless a <= hi"),
    ("JUMP_IF_NOT_EQ_INT", ARG_IMM_JUMP, 1, 0, 3, "pop a; jump to lo unless a == hi"),
    ("JUMP_IF_NOT_NE_INT", ARG_IMM_JUMP, 1, 0, 3, "pop a; jump to lo unless a != hi"),
    ("JUMP_IF_NOT_GT_INT", ARG_IMM_JUMP, 1, 0, 3, "pop a; jump to lo unless a > hi"),
    ("JUMP_IF_NOT_GE_INT", ARG_IMM_JUMP, 1, 0, 3, "pop a; jump to lo unless a >= hi"),
    (
        "FOR_LOOP",
        ARG_LOCAL_JUMP,
        0,
        1,
        1,
        "the bottom test of a for loop over slots hi, hi+1, hi+2 (counter, stop, step): if the "
        "counter is inside the range push it, advance the counter and jump to lo; else fall "
        "through pushing nothing",
    ),
    # compare locals (or a local and a small immediate) and branch: the loop and if tests
    ("JUMP_IF_NOT_LT_VARS", ARG_LOCAL2_JUMP, 0, 0, 4, "jump unless local a < local b"),
    ("JUMP_IF_NOT_LE_VARS", ARG_LOCAL2_JUMP, 0, 0, 4, "jump unless local a <= local b"),
    ("JUMP_IF_NOT_EQ_VARS", ARG_LOCAL2_JUMP, 0, 0, 4, "jump unless local a == local b"),
    ("JUMP_IF_NOT_NE_VARS", ARG_LOCAL2_JUMP, 0, 0, 4, "jump unless local a != local b"),
    ("JUMP_IF_NOT_GT_VARS", ARG_LOCAL2_JUMP, 0, 0, 4, "jump unless local a > local b"),
    ("JUMP_IF_NOT_GE_VARS", ARG_LOCAL2_JUMP, 0, 0, 4, "jump unless local a >= local b"),
    ("JUMP_IF_NOT_LT_VAR_INT", ARG_LOCAL_IMM_JUMP, 0, 0, 4, "jump unless local x < k"),
    ("JUMP_IF_NOT_LE_VAR_INT", ARG_LOCAL_IMM_JUMP, 0, 0, 4, "jump unless local x <= k"),
    ("JUMP_IF_NOT_EQ_VAR_INT", ARG_LOCAL_IMM_JUMP, 0, 0, 4, "jump unless local x == k"),
    ("JUMP_IF_NOT_NE_VAR_INT", ARG_LOCAL_IMM_JUMP, 0, 0, 4, "jump unless local x != k"),
    ("JUMP_IF_NOT_GT_VAR_INT", ARG_LOCAL_IMM_JUMP, 0, 0, 4, "jump unless local x > k"),
    ("JUMP_IF_NOT_GE_VAR_INT", ARG_LOCAL_IMM_JUMP, 0, 0, 4, "jump unless local x >= k"),]
_NUMERIC_ROWS = [    # ints beyond + - * // %: bitwise, shifts, power, abs / min / max, truth
    ("BINARY_AND", ARG_NONE, 2, 1, 1, "int a & b"),
    ("BINARY_OR", ARG_NONE, 2, 1, 1, "int a | b"),
    ("BINARY_XOR", ARG_NONE, 2, 1, 1, "int a ^ b"),
    ("BINARY_LSHIFT", ARG_NONE, 2, 1, 1, "int a << b; ValueError if b < 0, OverflowError outside int64"),
    ("BINARY_RSHIFT", ARG_NONE, 2, 1, 1, "int a >> b (floor); ValueError if b < 0"),
    ("UNARY_INVERT", ARG_NONE, 1, 1, 1, "int ~a"),
    ("BINARY_POW", ARG_NONE, 2, 1, 4, "int a ** b; ValueError if b < 0, OverflowError outside int64"),
    ("INT_ABS", ARG_NONE, 1, 1, 1, "int abs(a); OverflowError for -(2**63)"),
    ("INT_MIN2", ARG_NONE, 2, 1, 1, "int min(a, b)"),
    ("INT_MAX2", ARG_NONE, 2, 1, 1, "int max(a, b)"),
    ("INT_TRUTH", ARG_NONE, 1, 1, 1, "bool(a) of an int"),
    # floats (IEEE doubles as their bits in a slot), Python's semantics
    ("INT_TO_FLOAT", ARG_NONE, 1, 1, 1, "float(a) of an int (round to nearest)"),
    ("FLOAT_TO_INT", ARG_NONE, 1, 1, 1, "int(a) of a float (toward 0); ValueError nan, OverflowError outside int64"),
    ("FLOAT_TRUTH", ARG_NONE, 1, 1, 1, "bool(a) of a float (a != 0.0)"),
    ("FLOAT_ADD", ARG_NONE, 2, 1, 1, "float a + b"),
    ("FLOAT_SUB", ARG_NONE, 2, 1, 1, "float a - b"),
    ("FLOAT_MUL", ARG_NONE, 2, 1, 2, "float a * b"),
    ("FLOAT_DIV", ARG_NONE, 2, 1, 4, "float a / b; ZeroDivisionError"),
    ("FLOAT_FLOORDIV", ARG_NONE, 2, 1, 4, "float a // b (floor); ZeroDivisionError"),
    ("FLOAT_MOD", ARG_NONE, 2, 1, 4, "float a % b (sign of b); ZeroDivisionError"),
    ("FLOAT_POW", ARG_NONE, 2, 1, 4, "float a ** b; ZeroDivisionError 0.0 ** -x, ValueError (-a) ** fraction, "
     "OverflowError"),
    ("FLOAT_NEG", ARG_NONE, 1, 1, 1, "float -a"),
    ("FLOAT_ABS", ARG_NONE, 1, 1, 1, "float abs(a)"),
    ("FLOAT_MIN2", ARG_NONE, 2, 1, 1, "float min(a, b): b if b < a else a (Python's order for nan)"),
    ("FLOAT_MAX2", ARG_NONE, 2, 1, 1, "float max(a, b): b if b > a else a"),
    ("COMPARE_NUM", ARG_TYPED_CMP, 2, 1, 1, "a <cmp> b of the operand types in arg (exact for int vs float)"),
    ("FELL_OFF", ARG_NONE, 0, 0, 1, "end the job with NONE_RETURNED: a function declared to return a value reached "
     "the end of its body (CPython would return None)"),]
# a list value is a handle into the job's heap (vm/kernel_heap.py); `float` operands
# (IMM 0 / 1) say whether the elements are floats.  Ops touching n elements add n to the
# cost (the table cost is the base) -- see vm/kernel_lists.py
_LIST_ROWS = [    ("NEW_LIST", ARG_IMM, VARIABLE, 1, 2, "pop arg values (pushed first to last) into a new list"),
    ("LIST_GET", ARG_NONE, 2, 1, 1, "xs[i] (negative i counts from the end); IndexError"),
    ("LIST_SET", ARG_NONE, 3, 0, 1, "xs[i] = v (pops v, xs, i: v is evaluated first, as in Python); IndexError"),
    ("LIST_LEN", ARG_NONE, 1, 1, 1, "len(xs)"),
    ("LIST_APPEND", ARG_NONE, 2, 0, 2, "xs.append(v) (pops xs, v); MemoryError past the heap"),
    ("LIST_CONTAINS", ARG_TYPED_CMP, 2, 1, 2, "x in xs (pops x, xs): == of x's and the elements' types in arg"),
    ("LIST_SUM", ARG_IMM, 1, 1, 2, "sum(xs) from 0, left to right; OverflowError (ints)"),
    ("LIST_MIN", ARG_IMM, 1, 1, 2, "min(xs); ValueError if empty"),
    ("LIST_MAX", ARG_IMM, 1, 1, 2, "max(xs); ValueError if empty"),
    ("LIST_SORTED", ARG_IMM, 1, 1, 4, "a new list: sorted(xs) (stable, by <)"),
    ("LIST_SORT", ARG_IMM, 1, 0, 4, "xs.sort() in place (stable, by <)"),
    ("LIST_SLICE", ARG_IMM, 4, 1, 3, "xs[start:stop:step] (pops xs, start, stop, step; arg bits 1, 2, 4: "
     "which are given, the others are None); ValueError for step 0"),
    ("LIST_CONCAT", ARG_NONE, 2, 1, 3, "a new list xs + ys"),
    ("LIST_REPEAT", ARG_NONE, 2, 1, 3, "a new list xs * n (n <= 0: empty)"),
    ("LIST_EQ", ARG_IMM, 2, 1, 2, "xs == ys (arg 1: compare elements as floats)"),
    ("FOR_LIST", ARG_LOCAL, 0, 1, 1, "slots arg, arg+1 hold list, index: if index < len(list) push "
     "list[index], advance the index and skip the next instruction; else fall through (a JUMP out)"),
    ("LIST_CLEAR", ARG_NONE, 1, 0, 2, "xs.clear() (pops xs): its length 0, its block kept"),
    ("LIST_EXTEND", ARG_NONE, 2, 0, 2, "xs.extend(ys), xs += ys (pops xs, ys: a list of xs's elements, maybe xs): ys's "
     "elements appended in order; MemoryError past the heap"),
    ("LIST_POP", ARG_NONE, 2, 1, 2, "xs.pop(i) (pops xs, i; pop() is pop(-1)): removes and pushes xs[i] (negative i "
     "counts from the end), the later elements moved down; IndexError when empty or out of range"),
    ("LIST_INSERT", ARG_NONE, 3, 0, 2, "xs.insert(i, v) (pops xs, i, v): i clamped to 0 .. len(xs) as CPython's "
     "(negative counts from the end), the later elements moved up; MemoryError past the heap"),
    ("LIST_REVERSE", ARG_NONE, 1, 0, 2, "xs.reverse() in place (pops xs)"),
    ("LIST_SET_SLICE", ARG_IMM, 5, 0, 3, "xs[start:stop:step] = ys (pops ys, xs, start, stop, step; arg as LIST_SLICE's; "
     "ys a list of xs's elements, copied first when it is xs): a slice of step 1 replaced by ys (xs grows or "
     "shrinks), an extended one's elements assigned in order; ValueError for step 0 or an extended slice of "
     "another length; MemoryError past the heap"),]

# A str is a list (same heap header, vm/kernel_heap.py) whose elements are Unicode code points;
# the list instructions serve it where Python's meaning is the same (len, slices, +, *, ==,
# FOR_LIST gives code points).  A list[str] is a list of str handles.  An optional str
# operand not given is pushed as -1 (NO_ARG).  Ops touching n code points add n to the cost.
_STR_ROWS = [
    ("LOAD_STR", ARG_CONST, 0, 1, 2, "a new str of the code points consts[arg + 1 .. arg + 1 + consts[arg])"),
    ("STR_GET", ARG_IMM, 2, 1, 2, "s[i] (pops s, i): arg 0 a new 1-char str, 1 its code point (ord(s[i]), "
     "nothing allocated); IndexError"),
    ("STR_CHR", ARG_NONE, 1, 1, 2, "chr(i) as a new 1-char str; ValueError unless 0 <= i <= 0x10FFFF "
     "(OverflowError past a C int, as CPython)"),
    ("STR_ORD", ARG_NONE, 1, 1, 1, "ord(s); TypeError unless len(s) == 1"),
    ("STR_CONTAINS", ARG_NONE, 2, 1, 2, "a in b (pops a, b): substring test (the empty str is in every str)"),
    ("STR_FIND", ARG_IMM, 2, 1, 2, "pops s, sub: arg 0 s.find(sub), 1 rfind, 2 index, 3 rindex (ValueError when "
     "absent), 4 count (non-overlapping), 5 startswith (bool), 6 endswith (bool)"),
    ("STR_CASE", ARG_IMM, 1, 1, 2, "a new str: arg 0 s.lower(), 1 upper, 2 swapcase, 3 capitalize, 4 title, "
     "5 casefold (Unicode full case mappings, as CPython)"),
    ("STR_IS", ARG_IMM, 1, 1, 2, "bool: arg 0 s.isdigit(), 1 isalpha, 2 isalnum, 3 isspace, 4 isupper, 5 islower, "
     "6 isdecimal, 7 isnumeric (Unicode properties, as CPython)"),
    ("STR_STRIP", ARG_IMM, 2, 1, 2, "a new str (pops s, chars or NO_ARG: whitespace): arg 0 s.strip(chars), "
     "1 lstrip, 2 rstrip"),
    ("STR_SPLIT", ARG_IMM, 3, 1, 3, "a new list[str] (pops s, sep or NO_ARG: runs of whitespace, maxsplit: -1 "
     "none): arg 0 s.split(sep, maxsplit), 1 rsplit; ValueError for an empty sep"),
    ("STR_JOIN", ARG_NONE, 2, 1, 3, "sep.join(xs) (pops sep, xs: a list[str]) as a new str"),
    ("STR_REPLACE", ARG_NONE, 4, 1, 3, "s.replace(old, new, count) (pops s, old, new, count: -1 all) as a new str"),
    ("STR_PAD", ARG_IMM, 3, 1, 2, "a new str (pops s, width, fill: a 1-char str or NO_ARG: ' '): arg 0 "
     "s.zfill(width) (fill NO_ARG), 1 center, 2 ljust, 3 rjust; TypeError unless len(fill) == 1"),
    ("STR_FROM", ARG_IMM, 1, 1, 3, "str(x) as a new str, x of type arg (contract.valuetypes: int, bool, float; "
     "a float as CPython's repr, the shortest that reads back)"),
    ("STR_TO_NUM", ARG_IMM, 1, 1, 3, "int(s) (arg T_INT) or float(s) (arg T_FLOAT), parsed as CPython does "
     "(whitespace, sign, '_'); ValueError"),
    ("STR_RADIX", ARG_IMM, 1, 1, 3, "a new str of int i in base arg, as CPython: 2 bin(i) '-0b101', 8 oct '0o17', "
     "16 hex '0xff' (lower case)"),
    ("FLOAT_ROUND", ARG_NONE, 2, 1, 4, "round(x, n) of a float x (pops x, n): CPython's correctly rounded result (the "
     "exact decimal rounded half to even, then the nearest double); OverflowError when that is past the largest "
     "double; its scratch is the free heap, as STR_FROM's (MemoryError)"),]
NO_ARG = -1  # an optional str operand not given (STR_STRIP, STR_SPLIT, STR_PAD)

# Structured values (static types: contract/typecodes.py).  A tuple is a list object (same heap
# header) of fixed length, never written after it is built: LIST_GET, LIST_LEN, FOR_LIST and
# LIST_SLICE serve it.  A list[bool] holds 0 / 1, a list of lists, strs or tuples holds handles.
# Optional[T]: None is NONE_REF; a T in the heap is its handle, a scalar T is boxed (the handle
# of a 1-element list).  The types an instruction works on are one constant: VALUE_* ops whose
# CONST operand names `typed_values(cmp, ltype, rtype)` (ltype, rtype packed type codes) or, for
# MIN / MAX / SORT / SORTED, the element's packed type code.  Constants are untrusted like all
# bytecode: a malformed type code ends the job with INVALID_BYTECODE.  Cost: base plus the
# elements and code points visited, as for lists.
_VALUE_ROWS = [
    ("VALUE_CMP", ARG_CONST, 2, 1, 2, "pop b, a; push a <cmp> b (cmp, a's type, b's type: typed_values_fields("
     "consts[arg])): == / != deep equality of any values (int vs float exact, as COMPARE_NUM), the four "
     "orderings lexicographic over tuples, lists and strs; TypeError when an ordering meets None"),
    ("ASSERT_VALUE", ARG_CONST, 2, 0, 2, "pop b, a; AssertionError unless a <cmp> b, as VALUE_CMP"),
    ("VALUE_CONTAINS", ARG_CONST, 2, 1, 2, "x in xs (pops x, xs: a list or tuple; consts[arg] = typed_values(CMP_EQ, "
     "x's type, xs's type)): any element == x, as VALUE_CMP"),
    ("VALUE_MIN", ARG_CONST, 1, 1, 2, "min(xs), xs a list of element type consts[arg], by VALUE_CMP's <; ValueError "
     "if empty"),
    ("VALUE_MAX", ARG_CONST, 1, 1, 2, "max(xs), as VALUE_MIN"),
    ("VALUE_SORTED", ARG_CONST, 1, 1, 4, "a new list sorted(xs) (stable, by VALUE_CMP's <; element type consts[arg])"),
    ("VALUE_SORT", ARG_CONST, 1, 0, 4, "xs.sort() in place (stable, by VALUE_CMP's <; element type consts[arg])"),
    ("UNPACK_CHECK", ARG_IMM, 1, 1, 1, "ValueError unless len(top) == arg (the top stays): `a, b = xs` of a list"),
    ("BOX", ARG_NONE, 1, 1, 2, "a new 1-element box holding the top (a scalar as an Optional value)"),
    ("UNBOX", ARG_IMM, 1, 1, 1, "an Optional value as its T: TypeError if it is NONE_REF (None); arg 1: T is a "
     "scalar, push the value in the box; arg 0: the handle stays"),
    ("VALUE_INDEX", ARG_CONST, 2, 1, 2, "xs.index(x) (pops xs, x; consts[arg] = typed_values(CMP_EQ, x's type, xs's "
     "type)): the first k with xs[k] == x, as VALUE_CMP; ValueError when none"),
    ("VALUE_COUNT", ARG_CONST, 2, 1, 2, "xs.count(x), as VALUE_INDEX: how many elements == x"),
    ("VALUE_REMOVE", ARG_CONST, 2, 0, 2, "xs.remove(x), as VALUE_INDEX: the first element == x deleted, the later "
     "ones moved down; ValueError when none"),]
NONE_REF = -1  # None as an Optional value (no handle is negative)

# Dicts and sets (vm/reference_dict.py and reference_set.py are the spec, vm/kernel_keyed.py the
# kernel's; the heap layout of the objects is vm/kernel_dict.py's and vm/kernel_set.py's doc).  CONST operands name the dict's or set's
# packed type code (contract/typecodes.py): its key / element type says how keys hash and
# compare (int, bool, float, str, or a tuple of those); a malformed one is INVALID_BYTECODE.
# A dict iterates in insertion order, a set in CPython's table order (its hash, probing and
# resizing rules).  Cost: base plus the table slots probed, the code points and fields hashed,
# the entries moved by a resize and the elements visited.
_DICT_ROWS = [
    ("NEW_DICT", ARG_NONE, 0, 1, 3, "push a new empty dict"),
    ("DICT_SET", ARG_CONST, 3, 0, 2, "d[k] = v (pops v, d, k: v is evaluated first, as in Python)"),
    ("DICT_GET", ARG_CONST, 2, 1, 2, "d[k] (pops d, k); KeyError"),
    ("DICT_GET_DEFAULT", ARG_CONST, 3, 1, 2, "d.get(k, default) (pops d, k, default)"),
    ("DICT_CONTAINS", ARG_CONST, 2, 1, 2, "k in d (pops k, d)"),
    ("DICT_DEL", ARG_CONST, 2, 0, 2, "del d[k] (pops d, k); KeyError"),
    ("DICT_POP", ARG_CONST, 2, 1, 2, "d.pop(k) (pops d, k); KeyError"),
    ("DICT_POP_DEFAULT", ARG_CONST, 3, 1, 2, "d.pop(k, default) (pops d, k, default)"),
    ("DICT_SETDEFAULT", ARG_CONST, 3, 1, 2, "d.setdefault(k, default) (pops d, k, default)"),
    ("DICT_UPDATE", ARG_CONST, 2, 0, 2, "d.update(e) (pops d, e: a dict of d's type), e's entries in order"),
    ("DICT_EQ", ARG_CONST, 2, 1, 2, "a == b of dicts (pops a, b): the same keys, == values (as VALUE_CMP)"),
    ("COLL_LEN", ARG_NONE, 1, 1, 1, "len(x) of a dict or set"),
    ("DICT_LIST", ARG_IMM, 1, 1, 3, "a new list of a dict's arg 0 keys, 1 values, 2 (key, value) tuples, in order; "
     "3 a set's elements, in its table's order"),
    ("FOR_DICT_KEYS", ARG_LOCAL, 0, 1, 1, "slots arg, arg+1 hold a dict and the loop's state: push the next key "
     "and skip the next instruction, or fall through at the end (a JUMP out); RuntimeError when the dict "
     "changed size since the loop began"),
    ("FOR_DICT_VALUES", ARG_LOCAL, 0, 1, 1, "as FOR_DICT_KEYS, pushing the next value"),
    ("FOR_DICT_ITEMS", ARG_LOCAL, 0, 1, 2, "as FOR_DICT_KEYS, pushing a new (key, value) tuple"),
    ("FOR_SET", ARG_LOCAL, 0, 1, 1, "as FOR_DICT_KEYS over a set's elements in table order"),
    ("NEW_SET", ARG_NONE, 0, 1, 3, "push a new empty set"),
    ("SET_FROM", ARG_CONST, 1, 1, 3, "set(xs) of a list xs: its elements added in order"),
    ("SET_ADD", ARG_CONST, 2, 0, 2, "s.add(x) (pops s, x)"),
    ("SET_DISCARD", ARG_CONST, 2, 0, 2, "s.discard(x) (pops s, x)"),
    ("SET_REMOVE", ARG_CONST, 2, 0, 2, "s.remove(x) (pops s, x); KeyError"),
    ("SET_CONTAINS", ARG_CONST, 2, 1, 2, "x in s (pops x, s)"),
    ("SET_OR", ARG_CONST, 2, 1, 3, "a new set a | b (pops a, b), built as CPython's set_or"),
    ("SET_AND", ARG_CONST, 2, 1, 3, "a new set a & b, as CPython's set_intersection"),
    ("SET_SUB", ARG_CONST, 2, 1, 3, "a new set a - b, as CPython's set_difference"),
    ("SET_XOR", ARG_CONST, 2, 1, 3, "a new set a ^ b, as CPython's set_symmetric_difference"),
    ("SET_LE", ARG_CONST, 2, 1, 2, "a <= b of sets (pops a, b): a.issubset(b)"),
    ("SET_EQ", ARG_CONST, 2, 1, 2, "a == b of sets"),
    ("ASSERT_KEYED", ARG_CONST, 2, 0, 2, "pop b, a (dicts or sets of type consts[arg]); AssertionError unless a == b "
     "(DICT_EQ, SET_EQ), both operands then left on the stack for the failure record"),
    # in place, as CPython (vm/reference_set.py): t is a set when consts[arg] is a set type, a list
    # of elements when a list type (CPython's path for an iterable), a dict's keys list when a dict type
    ("SET_IOR", ARG_CONST, 2, 0, 3, "s |= t, s.update(t) (pops s, t): set_update_internal (set_merge; a dict's keys "
     "after one resize; a list's elements added in order)"),
    ("SET_IAND", ARG_CONST, 2, 0, 3, "s &= t, s.intersection_update(t) (pops s, t): s takes SET_INTERSECT's table"),
    ("SET_ISUB", ARG_CONST, 2, 0, 3, "s -= t, s.difference_update(t) (pops s, t): t's elements discarded, then the "
     "table resized when more than a quarter of it are dummies; s -= s clears s"),
    ("SET_IXOR", ARG_CONST, 2, 0, 3, "s ^= t, s.symmetric_difference_update(t) (pops s, t): t's elements toggled in "
     "t's order (a list's: in the order of a new set of it); s ^= s clears s"),
    ("SET_INTERSECT", ARG_CONST, 2, 1, 3, "a new set s.intersection(t) (pops s, t): t's elements in s, in t's order"),
    ("SET_LT", ARG_CONST, 2, 1, 2, "a < b of sets (pops a, b): len(a) < len(b) and a <= b"),
    ("SET_POP", ARG_CONST, 1, 1, 2, "s.pop(): the first element from s's finger on, which then follows it; "
     "KeyError when s is empty"),
]

# Exceptions (contract/status.py: RAISABLE, catchable).  A handler is a row of the job's
# frames table (from its end: calls and open handlers together hold fewer than max_depth rows,
# RECURSION_LIMIT past it): the absolute pc it jumps to, the operand-stack pointer and the
# call depth at SETUP_TRY.  A catchable status ends no job while a handler is open: the
# innermost is popped, the frames above its depth are left (the job's cost attribution follows),
# the operand stack is cut back to its pointer, the exception value is pushed and the handler
# runs.  An exception value is status | g << 8 | pc << 32: the status and where it was raised
# (global function g, absolute pc), so that RERAISE ends a job with the first failure record.
# A RETURN drops the handlers its frame opened.
_EXC_ROWS = [
    ("RAISE", ARG_IMM, 0, 0, 1, "raise status arg (one of status.RAISABLE; INVALID_BYTECODE for another)"),
    ("RERAISE", ARG_NONE, 1, 0, 1, "pop an exception value and raise it again (INVALID_BYTECODE unless its status is "
     "status.RAISABLE, its function and pc exist)"),
    ("SETUP_TRY", ARG_JUMP, 0, 0, 1, "open a handler: a catchable status raised before its POP_TRY jumps to arg "
     "with the operand stack as here and the exception value pushed"),
    ("POP_TRY", ARG_NONE, 0, 0, 1, "close the innermost handler, opened by this frame (INVALID_BYTECODE if none)"),
    ("EXC_MATCH", ARG_IMM, 1, 1, 1, "pop an exception value; push whether bit `its status` of arg is set (an except "
     "clause's classes: status.EXCEPTION_MASKS)"),]

# Module code (a unit's statements outside its functions) is the unit's last function, marked
# contract.image.MODULE_CODE in func_import.  A job runs the candidate's module code, then the
# suite's, then its function, each frame at depth 0 above the one before: a module code's
# frame stays, its locals are the unit's globals, which the unit's functions read by LOAD_GLOBAL.
_MODULE_ROWS = [
    ("LOAD_GLOBAL", ARG_IMM, 0, 1, 1, "push global arg of the running unit: local slot arg of its module code's frame "
     "(arg < that function's nlocals)"),
    ("MODULE_END", ARG_NONE, 0, 0, 1, "the end of module code: its frame stays (the unit's globals); the next module "
     "code, or the job's function, starts above it"),]

# The math module (compiler/modules.py): CPython's math functions on the value on top.  A float
# function's result is the platform libm's (as CPython's on the same machine); the errors are
# CPython's: ValueError outside the domain, OverflowError when the result overflows.
_MATH_ROWS = [
    ("MATH_FLOAT", ARG_IMM, 1, 1, 4, "the float math.f(x) of the float x on top, f by arg: 0 sqrt, 1 exp, 2 log, "
     "3 log2, 4 log10, 5 sin, 6 cos, 7 tan, 8 asin, 9 acos, 10 atan, 11 fabs, 12 degrees, 13 radians"),
    ("MATH_FLOAT2", ARG_IMM, 2, 1, 4, "pop y, x; the float of arg: 0 math.pow(x, y), 1 atan2(x, y), 2 copysign(x, y), "
     "3 log(x, y) (ZeroDivisionError for y == 1.0)"),
    ("MATH_TO_INT", ARG_IMM, 1, 1, 1, "the int math.floor(x) (arg 0) or math.ceil(x) (arg 1) of the float x on top; "
     "ValueError nan, OverflowError inf and outside int64"),
    ("MATH_TEST", ARG_IMM, 1, 1, 1, "the bool of the float on top: arg 0 math.isnan, 1 isinf, 2 isfinite"),
    ("MATH_ISCLOSE", ARG_NONE, 2, 1, 2, "pop b, a; math.isclose(a, b) (rel_tol 1e-09, abs_tol 0.0)"),
    ("MATH_INT", ARG_IMM, 1, 1, 2, "the int of the int n on top: arg 0 math.isqrt(n), 1 factorial(n) (cost + n); "
     "ValueError if n < 0, OverflowError past int64"),
    ("MATH_INT2", ARG_IMM, 2, 1, 2, "pop b, a; the int of arg: 0 math.gcd(a, b), 1 lcm, 2 comb(a, b), 3 perm(a, b) "
     "(cost + the factors multiplied); ValueError for comb / perm of a negative, OverflowError past int64"),
    ("MATH_PROD", ARG_IMM, 1, 1, 2, "math.prod(xs) from 1, left to right (arg 1: floats; cost + n); OverflowError "
     "(ints: at the first partial product past int64)"),]
