"""Dynamic shared memory as an ``.extern .shared`` array, which takes no static shared memory.

Upstream's ``convert-gpu-to-nvvm`` gives ``gpu.dynamic_shared_memory`` an internal zero-length
``llvm.mlir.global``, which NVPTX prints as ``.shared .align 16 .b8 __dynamic_shmem__0;``: one
byte of *static* shared memory, placed before the dynamic memory the launch asks for. That byte
cost the attention benchmark a program per SM (57 344 + 1 bytes: three programs fit where four
did). The pattern reuses any zero-length shared global of its alignment (16 bytes), whatever its
linkage, so declaring an external one first makes NVPTX print the ``.extern .shared ...[]``
array that CUDA C++ (``extern __shared__``) and Triton use.
"""

from __future__ import annotations

from xdsl.dialects import gpu, llvm
from xdsl.dialects.builtin import IntAttr, ModuleOp, i8

from mytriton.dialects.nvgpu.upstream import DynamicSharedMemoryOp

#: the global's name (the cuda backend's array has the same one) and the alignment upstream's
#: lowering looks for
SYMBOL = "dynamic_smem"
ALIGNMENT = 16
SHARED_SPACE = 3


def declare_dynamic_shared(module: ModuleOp) -> None:
    """Declare the external shared array in each ``gpu.module`` that uses dynamic shared memory."""
    for op in module.walk():
        if not isinstance(op, gpu.ModuleOp):
            continue
        if not any(isinstance(inner, DynamicSharedMemoryOp) for inner in op.walk()):
            continue
        array = llvm.GlobalOp(
            llvm.LLVMArrayType(IntAttr(0), i8),
            SYMBOL,
            "external",
            addr_space=SHARED_SPACE,
            alignment=ALIGNMENT,
        )
        array.location = op.location
        block = op.body.block
        if block.first_op is None:
            block.add_op(array)
        else:
            block.insert_op_before(array, block.first_op)
