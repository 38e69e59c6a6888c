"""contract.isa's operand functions, registered so that kernels (numba CPU and CUDA) can call
them.  contract/isa.py imports no numba; kernel code imports these names from here."""

from numba.extending import register_jitable

from gpucc.contract import isa

# register_jitable returns the function itself: these are isa's functions, callable from kernels
typed_cmp = register_jitable(isa.typed_cmp)
typed_cmp_fields = register_jitable(isa.typed_cmp_fields)
jump_target = register_jitable(isa.jump_target)
pack_fields = register_jitable(isa.pack_fields)

from gpucc.contract import status  # noqa: E402

catchable = register_jitable(status.catchable)

# Kernel functions that allocate nothing and return no array are compiled without numba's
# reference counting (NRT): its atomic increfs / decrefs of every array argument (every array
# of a bundle, at every call) are left in branchy functions by its pruning.  CUDA has no NRT.
nrt_free = register_jitable(_nrt=False)

# contract.typecodes' functions on packed type codes (the compiler's types, the VM's VALUE_* ops)
from gpucc.contract import typecodes  # noqa: E402

register_jitable(typecodes._wrap)  # called by list_of, optional_of, set_of
type_head = register_jitable(typecodes.head)
type_width = register_jitable(typecodes.width)
type_list_of = register_jitable(typecodes.list_of)
type_optional_of = register_jitable(typecodes.optional_of)
type_set_of = register_jitable(typecodes.set_of)
type_dict_of = register_jitable(typecodes.dict_of)
type_element = register_jitable(typecodes.element)
type_value_of = register_jitable(typecodes.value_of)
type_tuple_start = register_jitable(typecodes.tuple_start)
type_append_field = register_jitable(typecodes.append_field)
type_arity = register_jitable(typecodes.arity)
type_field = register_jitable(typecodes.field)
type_is_heap = register_jitable(typecodes.is_heap)
type_runtime_kind = register_jitable(typecodes.runtime_kind)
typed_values = register_jitable(isa.typed_values)
typed_values_fields = register_jitable(isa.typed_values_fields)
