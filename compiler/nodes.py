"""AST node kinds and operator codes: the parser's output format, one table.

The AST of one source lives in parallel int arrays, one entry per node:

    kind[i]   node kind (below)          op[i]    sub-operator / type code / count
    tok[i]    token index (location)     val[i]   int64 literal value
    first[i]  first child (-1 if none)   next[i]  next sibling (-1 if none)

filled by the type checker:

    type[i]   static type code (contract.typecodes)   slot[i]  local slot / function index

Node 0 is the MODULE.  Children are linked first-child / next-sibling in source order.
Child layout per kind (``[x]`` = optional, ``x*`` = zero or more):

    MODULE     (FUNCDEF | IMPORT | statement)*
    FUNCDEF    PARAM* BLOCK            tok = name, op = return type, val = enclosing FUNCDEF (-1: none)
    PARAM      [default]                tok = name, op = type (NO_TYPE: none given)
    BLOCK      statement*
    ASSIGN     value                    tok = target name, op = annotated type or -1
    AUGASSIGN  value                    tok = target name, op = BIN_* code
    EXPR_STMT  expr
    IF         cond BLOCK [BLOCK|IF]    an elif chain is a nested IF in the else position
    WHILE      cond BLOCK
    FOR_RANGE  arg arg? arg? BLOCK      tok = loop variable, op = number of range() args
    BREAK CONTINUE PASS DOCSTRING ELLIPSIS   no children (tok = their first token)
    RETURN     [expr]
    ASSERT     expr
    INT BOOL   -                        val = value (bool: 0/1)
    FLOAT      -                        val = the IEEE double's bits
    NONE       -                        the literal None
    NAME       -                        tok = the name
    UNARY      operand                  op = UN_* code
    BINARY     left right               op = BIN_* code, tok = operator token
    BOOLOP     left right               op = BOOL_AND / BOOL_OR (a and b and c nests left)
    COMPARE    operand CMP_LINK+        a < b <= c  ->  COMPARE(a, LINK(<, b), LINK(<=, c))
    CMP_LINK   operand                  op = contract.isa CMP_* code, tok = operator token
    CALL       arg*                     tok = the called name, op = 0 (a function of the
                                        unit) or 1 + a supported builtin's scope.B_* code (or
                                        a module function's: compiler/modules.py)
    IFEXP      body cond orelse         `body if cond else orelse`
    LIST       element*                 a list literal
    SUBSCRIPT  obj index                obj[index]
    SLICE      obj part*                obj[start:stop:step]; op: bits 1, 2, 4 = which parts
                                        are given (the children, in that order)
    METHOD     obj arg*                 obj.name(args), tok = name (the type checker makes a
                                        module's function, math.sqrt(x), a CALL of its args)
    FOR_LIST   iterable BLOCK [TUPLE]   `for x in iterable:`, tok = x; `for a, (b, c) in
                                        iterable:`: op = 1, the target TUPLE last
    SETITEM    SUBSCRIPT value          obj[index] = value; op = -1, or the BIN_* code of
                                        an augmented assignment (obj[index] += value)
    STR        -                        a str literal: tok = its first token, op = the number
                                        of adjacent literals ('a' 'b'); codegen sets val = its
                                        entry in the constant pool
    COMP       clause+ element          `[element for ...]` / `(element for ...)`: tok = the first
                                        `for`, op = COMP_* (what consumes the elements; the
                                        parser sets COMP_LIST or COMP_GEN), val = its first slot
                                        (compiler/comp_scope.py's layout)
    COMP_FOR   iterable | arg arg? arg?  `for x in iterable`, tok = x; op = 0, or the number of
                                        range() arguments once the type checker saw range(...);
                                        `for a, (b, c) in ...`: val = its target TUPLE (not a child)
    COMP_IF    cond                     `if cond`
    TUPLE      element*                 a tuple display `(a, b)`, `a, b`; as a target (UNPACK,
                                        FOR_LIST) its elements are NAMEs and TUPLEs
    UNPACK     TUPLE value              `a, (b, c) = value`: the target, then the value
    KWARG      value                    `name=value` among a call's or method's arguments, tok = name
    LAMBDA     NAME* body               `lambda a, b: body`, tok = `lambda`; the NAMEs are its parameters
                                        (what takes a lambda: compiler/typecheck_builtins.py)
    DICT       (key value)*             a dict display `{k: v, ...}`, `{}`
    SET        element+                 a set display `{a, b}`
    DELETE     SUBSCRIPT                `del d[k]`
    RAISE      [NAME | CALL]            `raise E`, `raise E(args)` (op = the contract.status it raises),
                                        `raise e` / bare `raise` (op = -1: raise again what the
                                        innermost except clause caught)
    TRY        BLOCK clause+            `try:` body, then its clauses in order: EXCEPT*, [TRY_ELSE],
                                        [FINALLY]
    EXCEPT     BLOCK                    `except E:` / `except (E1, E2) as e:` / `except:`: op = the
                                        statuses it catches (a bit each), val = the token of `e`, or -1
    TRY_ELSE FINALLY  BLOCK             `else:`, `finally:`
    IMPORT     -                        a MODULE child: one name `import m [as a]` / `from m import
                                        x [as a]` binds; tok = the bound name, op = the module and
                                        the FUNCDEF whose import it is (compiler/modules.py:
                                        import_op), val = the member (-1: the module)
    ATTR       obj                      obj.name (no call), tok = name: the type checker makes a
                                        module's constant (math.pi) a FLOAT

COMPARE links also take CMP_IN / CMP_NOT_IN (`x in xs`, `x not in xs`) and CMP_IS /
CMP_IS_NOT (`x is None`, `x is not None`) after contract.isa' six comparison codes.
"""

from __future__ import annotations

KIND_NAMES = (
    "MODULE", "FUNCDEF", "PARAM", "BLOCK", "ASSIGN", "AUGASSIGN", "EXPR_STMT", "IF", "WHILE",
    "FOR_RANGE", "BREAK", "CONTINUE", "PASS", "DOCSTRING", "ELLIPSIS", "RETURN", "ASSERT",
    "INT", "BOOL", "NONE", "NAME", "UNARY", "BINARY", "BOOLOP", "COMPARE", "CMP_LINK", "CALL",
    "FLOAT", "IFEXP", "LIST", "SUBSCRIPT", "SLICE", "METHOD", "FOR_LIST", "SETITEM", "STR", "COMP",
    "COMP_FOR", "COMP_IF", "TUPLE", "UNPACK", "KWARG", "LAMBDA",
    "DICT", "SET", "DELETE",
    "RAISE", "TRY", "EXCEPT", "TRY_ELSE", "FINALLY",
    "IMPORT", "ATTR",
)  # fmt: skip
# node kinds as plain names (tests/contract/test_named_constants.py keeps them equal to KIND_NAMES)
N_MODULE = 0
N_FUNCDEF = 1
N_PARAM = 2
N_BLOCK = 3
N_ASSIGN = 4
N_AUGASSIGN = 5
N_EXPR_STMT = 6
N_IF = 7
N_WHILE = 8
N_FOR_RANGE = 9
N_BREAK = 10
N_CONTINUE = 11
N_PASS = 12
N_DOCSTRING = 13
N_ELLIPSIS = 14
N_RETURN = 15
N_ASSERT = 16
N_INT = 17
N_BOOL = 18
N_NONE = 19
N_NAME = 20
N_UNARY = 21
N_BINARY = 22
N_BOOLOP = 23
N_COMPARE = 24
N_CMP_LINK = 25
N_CALL = 26
N_FLOAT = 27
N_IFEXP = 28
N_LIST = 29
N_SUBSCRIPT = 30
N_SLICE = 31
N_METHOD = 32
N_FOR_LIST = 33
N_SETITEM = 34
N_STR = 35
N_COMP = 36
N_COMP_FOR = 37
N_COMP_IF = 38
N_TUPLE = 39
N_UNPACK = 40
N_KWARG = 41
N_LAMBDA = 42
N_DICT = 43
N_SET = 44
N_DELETE = 45
N_RAISE = 46
N_TRY = 47
N_EXCEPT = 48
N_TRY_ELSE = 49
N_FINALLY = 50
N_IMPORT = 51
N_ATTR = 52

BIN_NAMES = ("+", "-", "*", "//", "%", "/", "**", "&", "|", "^", "<<", ">>")
BIN_ADD, BIN_SUB, BIN_MUL, BIN_FLOORDIV, BIN_MOD, BIN_DIV, BIN_POW, BIN_AND, BIN_OR, BIN_XOR, BIN_LSHIFT, BIN_RSHIFT = (
    range(len(BIN_NAMES)))  # fmt: skip

UN_NAMES = ("-", "+", "not", "~")
UN_NEG, UN_POS, UN_NOT, UN_INVERT = range(len(UN_NAMES))

BOOL_NAMES = ("and", "or")
BOOL_AND, BOOL_OR = range(len(BOOL_NAMES))

CMP_IN, CMP_NOT_IN, CMP_IS, CMP_IS_NOT = 6, 7, 8, 9  # after contract.isa.CMP_NAMES

# what consumes a comprehension's elements (COMP's op): a new list (a list comprehension, a
# generator expression given to sorted / list / str.join); a generator expression no consumer
# claimed (yet: the type checker's); the folds of sum, any, all, min, max; a new set or dict
# (set and dict comprehensions)
COMP_NAMES = ("list", "gen", "sum", "any", "all", "min", "max", "set", "dict")
COMP_LIST, COMP_GEN, COMP_SUM, COMP_ANY, COMP_ALL, COMP_MIN, COMP_MAX, COMP_SET, COMP_DICT = range(len(COMP_NAMES))
# a dict comprehension's element is the TUPLE (key, value) with val PAIR: its two values pushed, no tuple built
PAIR = 1

# No annotation on an assignment, a parameter or a function's return (the op of ASSIGN, PARAM, FUNCDEF).
NO_TYPE = -1
