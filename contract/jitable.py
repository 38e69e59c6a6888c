"""contract.isa's operand functions, registered so that kernels (numba CPU and CUDA) can call
them.  contract/isa.py imports no numba; kernel code imports these names from here."""

from numba.extending import register_jitable

from gpucc.contract import isa

# register_jitable returns the function itself: these are isa's functions, callable from kernels
typed_cmp = register_jitable(isa.typed_cmp)
typed_cmp_fields = register_jitable(isa.typed_cmp_fields)
jump_target = register_jitable(isa.jump_target)
pack_fields = register_jitable(isa.pack_fields)

# Kernel functions that allocate nothing and return no array are compiled without numba's
# reference counting (NRT): its atomic increfs / decrefs of every array argument (every array
# of a bundle, at every call) are left in branchy functions by its pruning.  CUDA has no NRT.
nrt_free = register_jitable(_nrt=False)
