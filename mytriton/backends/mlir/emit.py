"""The lowered xDSL module (``asm["gpu"]``) as MLIR text that upstream MLIR 22 parses.

We print xDSL's generic form, which upstream parses for every op of ``docs/gpu-ir.md``, with each
op's ``loc("file":line:col)`` so MLIR diagnostics name the kernel's Python line. Where xDSL's
ops differ from upstream's, the difference is fixed here, on a copy, before printing; upstream
would otherwise drop or reject it, often silently. Each fix is one function below:

* ``builtin.module`` gets ``gpu.container_module`` (upstream requires it around a ``gpu.module``);
* ``gpu.module``'s ``sym_name`` is a string (xDSL's constructor stores a symbol reference, which
  upstream rejects as an invalid property);
* ``gpu.func``'s ``kernel`` property becomes the discardable ``gpu.kernel`` attribute (upstream
  drops the unknown property without a word: the kernel would be a ``.func``, not an ``.entry``);
* ``gpu.func``'s block size (``gpu.known_block_size``) becomes ``nvvm.reqntid``: PTX's
  ``.reqntid``, the exact block every launch uses, as Triton's PTX has it. Upstream ignores the
  prefixed name (PTX would lack the directive) and makes the inherent ``known_block_size`` a
  ``.maxntid`` (at most so many threads), under which ptxas allocates registers for a loop
  differently: ``cumsum_rows`` 80 registers under ``.maxntid 256``, 56 under ``.reqntid 256``
  (3 programs per SM -> 4). LLVM takes the thread-id ranges from either;
* ``llvm.load``'s ``mytriton.volatile`` (``tl.load(volatile=True)``) becomes upstream's
  ``volatile_`` property, which xDSL's op lacks; an ``llvm.load``/``llvm.store`` with a cache
  modifier or eviction policy becomes inline PTX (``access_hints``);
* a masked global load or store (an ``scf.if`` around one access) becomes one predicated inline
  PTX access, as Triton's (NVPTX would branch around it: ``access_hints``);
* each ``i1`` ``arith.cmpi`` moves down its block to just before its first user
  (``sink_predicates``: NVPTX computes it where it stands, and a predicate the lowering made at
  the kernel's entry for its last store cost ``rms_norm`` two registers);
* an ordered ``llvm.atomicrmw`` becomes a relaxed one between fences (NVPTX drops its ordering:
  ``atomic_fences``);
* ``ptx.wgmma.mma_async`` (a warpgroup MMA with A in registers, which upstream's wgmma op
  cannot say) becomes ``llvm.inline_asm`` with its PTX (``inline_wgmma``), as do
  ``ptx.mma.sync`` (an fp8 ``mma.sync``: ``inline_mma``) and ``ptx.tensormap.replace`` (a tensor
  map's field set in the kernel: ``inline_tensormap``);
* ``math.absi`` becomes ``llvm.intr.abs`` (the minimum wraps to itself), as upstream's
  math-to-llvm makes it: ``convert-gpu-to-nvvm`` turns only an i32 one into libdevice's
  ``__nv_abs`` and leaves i8, i16 and i64 ones without an LLVM translation;
* a ``gpu.module`` using dynamic shared memory declares it as an external array, which NVPTX
  prints as ``.extern .shared`` (upstream's own global takes a byte of static shared memory:
  ``dynamic_shared``);
* float multiplies, adds and subtracts get the ``contract`` fast-math flag when the launch
  fuses multiply-adds (``enable_fp_fusion``, Triton's default; the cuda backend's NVRTC fuses
  the same way), so LLVM emits FMAs instead of separately rounded ``mul.rn``/``add.rn``.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from xdsl.dialects import arith, gpu, math
from xdsl.dialects.builtin import (
    DenseArrayBase,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
)
from xdsl.ir import Operation
from xdsl.rewriter import Rewriter

from mytriton.backends.mlir.access_hints import (
    predicate_masked_accesses,
    rewrite_hinted_access,
)
from mytriton.backends.mlir.atomic_fences import fence_atomicrmw
from mytriton.backends.mlir.dynamic_shared import declare_dynamic_shared
from mytriton.backends.mlir.inline_mma import inline_fp8_mma_sync
from mytriton.backends.mlir.inline_tensormap import (
    inline_tensormap_cp_fenceproxy,
    inline_tensormap_replace,
)
from mytriton.backends.mlir.inline_wgmma import inline_register_a_wgmma
from mytriton.backends.mlir.sink_predicates import sink_predicates
from mytriton.dialects.nvgpu.upstream import IntAbsOp
from mytriton.dialects.printing import LocatedPrinter
from mytriton.errors import BackendError

CONTAINER_MODULE = "gpu.container_module"
KERNEL_ATTR = "gpu.kernel"
BLOCK_SIZE_ATTR = "nvvm.reqntid"


def print_generic(module: ModuleOp, *, locations: bool = False) -> str:
    """xDSL's generic form of ``module`` (``locations``: with each op's ``loc(...)``), by the
    stages' printer: the same text as xDSL's ``Printer``, in a quarter of its time (it prints
    each location's file name once, not byte by byte at every op)."""
    out = io.StringIO()
    LocatedPrinter(stream=out, print_generic_format=True, print_debuginfo=locations).print_op(
        module
    )
    return out.getvalue().rstrip("\n") + "\n"


def emit_mlir(module: ModuleOp, *, locations: bool = True, fp_fusion: bool = True) -> str:
    """MLIR text of the lowered ``module`` for upstream MLIR (the module itself is not
    changed); ``fp_fusion``: let LLVM contract float multiplies and adds into FMAs (Triton's
    ``enable_fp_fusion``, on by default)."""
    copy = module.clone()
    _fix_container_module(copy)
    declare_dynamic_shared(copy)
    predicate_masked_accesses(copy)
    sink_predicates(copy)
    for op in list(copy.walk()):  # a fix may replace its op
        fix = _FIXES.get(op.name)
        if fix is not None:
            fix(op)
        if fp_fusion and op.name in CONTRACTIBLE:
            _allow_contraction(op)
    kernel_function(copy)  # exactly one kernel, or a clear error before MLIR sees it
    return print_generic(copy, locations=locations)


#: float ops LLVM may fuse (a multiply and the add or subtract of its result: one FMA)
CONTRACTIBLE = ("arith.mulf", "arith.addf", "arith.subf")


def _allow_contraction(op: Operation) -> None:
    """Add ``contract`` to the op's fast-math flags: without it, NVPTX emits ``mul.rn``/
    ``add.rn``, which ptxas may not fuse either (every multiply-add rounded twice)."""
    flags = op.properties.get("fastmath")
    current = flags.data if isinstance(flags, arith.FastMathFlagsAttr) else set()
    op.properties["fastmath"] = arith.FastMathFlagsAttr(
        {*current, arith.FastMathFlag.ALLOW_CONTRACT}
    )


def kernel_function(module: ModuleOp) -> gpu.FuncOp:
    """The module's one kernel ``gpu.func``."""
    kernels = [op for op in module.walk() if isinstance(op, gpu.FuncOp) and _is_kernel(op)]
    if len(kernels) != 1:
        raise BackendError(
            f"the lowered module must hold exactly one kernel gpu.func, found {len(kernels)}"
        )
    return kernels[0]


def kernel_name(module: ModuleOp) -> str:
    """The symbol name of the module's kernel: the PTX ``.entry`` to launch."""
    return kernel_function(module).sym_name.data


def _is_kernel(op: gpu.FuncOp) -> bool:
    return KERNEL_ATTR in op.attributes or "kernel" in op.properties


def _fix_absi(op: Operation) -> None:
    assert isinstance(op, math.AbsIOp)
    abs_op = IntAbsOp(op.operand)
    abs_op.location = op.location
    Rewriter.replace_op(op, abs_op)


def _fix_container_module(module: ModuleOp) -> None:
    module.attributes[CONTAINER_MODULE] = UnitAttr()


def _fix_gpu_module(op: Operation) -> None:
    name = op.properties.get("sym_name")
    if isinstance(name, SymbolRefAttr):
        op.properties["sym_name"] = StringAttr(name.root_reference.data)


def _fix_gpu_func(op: Operation) -> None:
    if op.properties.pop("kernel", None) is not None:
        op.attributes[KERNEL_ATTR] = UnitAttr()
    blocks = [
        op.properties.pop("known_block_size", None),
        op.attributes.pop("known_block_size", None),
        op.attributes.pop("gpu.known_block_size", None),
    ]
    block = next((b for b in blocks if isinstance(b, DenseArrayBase)), None)
    if block is not None:
        op.attributes.setdefault(BLOCK_SIZE_ATTR, block)
    grid = op.attributes.pop("gpu.known_grid_size", None)
    if isinstance(grid, DenseArrayBase):
        op.attributes.setdefault("known_grid_size", grid)


_FIXES: dict[str, Callable[[Operation], None]] = {
    "llvm.atomicrmw": fence_atomicrmw,
    "gpu.module": _fix_gpu_module,
    "math.absi": _fix_absi,
    "gpu.func": _fix_gpu_func,
    "llvm.load": rewrite_hinted_access,
    "llvm.store": rewrite_hinted_access,
    "ptx.wgmma.mma_async": inline_register_a_wgmma,
    "ptx.mma.sync": inline_fp8_mma_sync,
    "ptx.tensormap.replace": inline_tensormap_replace,
    "ptx.tensormap.cp_fenceproxy": inline_tensormap_cp_fenceproxy,
}
