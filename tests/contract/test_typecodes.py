"""Packed prefix type codes: equal iff the types are equal, self-delimiting, bounded."""

import itertools

from gpucc.contract import typecodes as T


def _types():
    leaves = [T.NONE, T.INT, T.BOOL, T.FLOAT, T.STR]
    one = leaves + [T.list_of(x) for x in leaves] + [T.optional_of(x) for x in leaves if x != T.NONE]
    two = [T.tuple_of(list(p)) for p in itertools.product([T.INT, T.STR, T.list_of(T.INT)], repeat=2)]
    nested = [T.list_of(x) for x in two] + [T.list_of(T.list_of(T.INT)), T.dict_of(T.STR, T.list_of(T.INT)),
                                             T.set_of(T.INT), T.tuple_of([]), T.tuple_of([T.NONE, T.INT])]
    return one + two + nested


def test_names_are_distinct_and_codes_are_distinct():
    types = _types()
    assert all(t >= 0 for t in types)
    assert len({T.name(t) for t in types}) == len(types) == len(set(types))


def test_widths_fields_and_elements_read_back():
    t = T.list_of(T.tuple_of([T.INT, T.list_of(T.STR), T.NONE]))
    assert T.name(t) == "list[tuple[int, list[str], None]]"
    assert T.width(t) == 7
    inner = T.element(t)
    assert [T.name(T.field(inner, i)) for i in range(T.arity(inner))] == ["int", "list[str]", "None"]
    assert T.name(T.value_of(T.dict_of(T.tuple_of([T.INT, T.INT]), T.FLOAT))) == "float"


def test_scalars_keep_their_flat_codes_and_lists_map_to_runtime_kinds():
    from gpucc.contract import valuetypes as V

    assert (T.INT, T.BOOL, T.FLOAT, T.STR, T.NONE) == (V.T_INT, V.T_BOOL, V.T_FLOAT, V.T_STR, V.T_NONE)
    assert T.runtime_kind(T.list_of(T.FLOAT)) == V.T_LIST_FLOAT
    assert T.runtime_kind(T.list_of(T.STR)) == V.T_LIST_STR
    assert T.runtime_kind(T.list_of(T.list_of(T.INT))) == -1


def test_too_deep_types_are_refused_and_optional_collapses():
    assert T.list_of(T.tuple_of([T.INT] * 4)) > 0
    assert T.list_of(T.tuple_of([T.INT] * 5)) == T.TOO_DEEP
    assert T.list_of(T.TOO_DEEP) == T.TOO_DEEP
    assert T.optional_of(T.optional_of(T.INT)) == T.optional_of(T.INT)
    assert T.optional_of(T.NONE) == T.NONE
    assert T.width(0x7777777) == 0  # a malformed code reads as width 0
