"""The kernel a lowered module holds, and its launch ABI (``docs/gpu-ir.md``, "ABI").

It lives beside the lowering that defines it; the CUDA printer (parameter declarations), the
MLIR backend and the shared CUDA driver (argument packing, block size) read it from here, so
they cannot disagree.
"""

from __future__ import annotations

from xdsl.dialects import gpu, memref
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    IntAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
)
from xdsl.dialects.llvm import LLVMPointerType
from xdsl.ir import Attribute

from mytriton.dialects.tt import dtype_table
from mytriton.errors import BackendError
from mytriton.kernel_signature import KernelSignature

POINTEE_TYPES_ATTR = "mytriton.pointee_types"
#: the kernel's dynamic shared memory bytes, to launch with (absent: none; ``dynamic_shared.py``)
DYNAMIC_SHARED_ATTR = "mytriton.dynamic_shared_memory"


def dynamic_shared_bytes(kernel: gpu.FuncOp) -> int:
    """The dynamic shared memory ``kernel`` launches with (0: none)."""
    attr = kernel.attributes.get(DYNAMIC_SHARED_ATTR)
    return attr.value.data if isinstance(attr, IntegerAttr) else 0


def is_global_pointer(t: Attribute) -> bool:
    """``!llvm.ptr<1>`` (or an address-space-less ``!llvm.ptr``): a pointer to global memory."""
    if not isinstance(t, LLVMPointerType):
        return False
    space = t.addr_space
    return not isinstance(space, IntAttr) or space.data in (0, 1)


def is_shared_pointer(t: Attribute) -> bool:
    """``!llvm.ptr<3>``: an address in the program's shared memory (``nvvm.ldmatrix``'s)."""
    return isinstance(t, LLVMPointerType) and t.addr_space == IntAttr(3)


def find_kernel(module: ModuleOp) -> gpu.FuncOp:
    """The one ``gpu.func`` of a lowered module (the contract allows exactly one)."""
    funcs = [op for op in module.walk() if isinstance(op, gpu.FuncOp)]
    if len(funcs) != 1:
        raise BackendError(f"a lowered module must hold exactly one gpu.func, found {len(funcs)}")
    return funcs[0]


def shared_globals(module: ModuleOp) -> list[memref.GlobalOp]:
    return [op for op in module.walk() if isinstance(op, memref.GlobalOp)]


#: the ABI kind of each lowered parameter type of a scalar (the dtype table's ``abi`` column;
#: the lowering gives a bool parameter an ``i32``)
_PARAM_KINDS: dict[Attribute, str] = {t: kind for kind, t in dtype_table.ABI_TYPES.items()}


def _param_kind(t: Attribute) -> str:
    if is_global_pointer(t):
        return "ptr"
    # an integer of any signedness: the ABI passes its bits
    kind = _PARAM_KINDS.get(IntegerType(t.width.data) if isinstance(t, IntegerType) else t)
    if kind is None:
        raise BackendError(f"kernel parameters of type {t} are not part of the ABI")
    return kind


def pointee_types(func: gpu.FuncOp) -> list[Attribute]:
    """Element types of the pointer parameters, in order (``mytriton.pointee_types``)."""
    attr = func.attributes.get(POINTEE_TYPES_ATTR)
    if attr is None:
        return []
    if not isinstance(attr, ArrayAttr):
        raise BackendError(f"{POINTEE_TYPES_ATTR} must be an array of types, got {attr}")
    return list(attr.data)


def block_size(func: gpu.FuncOp) -> tuple[int, int, int] | None:
    """``known_block_size`` (the discardable attribute of the contract, or xDSL's own)."""
    attr = (
        func.attributes.get("known_block_size")
        or func.properties.get("known_block_size")
        or func.attributes.get("gpu.known_block_size")
    )
    if attr is None:
        return None
    if not isinstance(attr, DenseArrayBase):
        raise BackendError(f"known_block_size must be an array<i32: x, y, z>, got {attr}")
    dims = tuple(int(v) for v in attr.get_values())
    if len(dims) != 3 or any(d <= 0 for d in dims):
        raise BackendError(f"known_block_size must hold three positive sizes, got {dims}")
    return dims  # type: ignore[return-value]


def kernel_signature(module: ModuleOp) -> KernelSignature:
    func = find_kernel(module)
    params = tuple(_param_kind(t) for t in func.function_type.inputs.data)
    block = block_size(func)
    if block is None:
        raise BackendError(f"kernel `{func.sym_name.data}` has no known_block_size")
    return KernelSignature(func.sym_name.data, params, block, dynamic_shared_bytes(func))
