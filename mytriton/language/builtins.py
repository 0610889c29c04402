"""The builtins of Triton's kernel language (``tl.load``, ``tl.dot``, ``tl.sum`` ...): their
signatures, which the frontend binds a call's arguments against, so keyword arguments work as
in Triton. Bodies are never run (``core.builtin``); ``mytriton.language`` exports them."""

from __future__ import annotations

from typing import Any

from mytriton.language.core import PropagateNan, builtin, float32
from mytriton.language.core import must_use_result as _must_use_result

# ---- programming model ----


@builtin
def program_id(axis: int) -> Any:
    """Index of the current program along grid axis 0, 1 or 2."""


@builtin
def num_programs(axis: int) -> Any:
    """Number of programs along grid axis 0, 1 or 2."""


# ---- creation ----


@builtin
def arange(start: int, end: int) -> Any:
    """The i32 block ``[start, ..., end - 1]``; ``end - start`` must be a power of two."""


@builtin
def zeros(shape: Any, dtype: Any) -> Any:
    """A block of zeros."""


@builtin
def zeros_like(input: Any) -> Any:
    """A block of zeros with the shape and dtype of ``input``."""


@builtin
def full(shape: Any, value: Any, dtype: Any) -> Any:
    """A block filled with ``value`` converted to ``dtype``."""


@builtin
def empty(shape: Any, dtype: Any) -> Any:
    """A block with undefined contents."""


@builtin
def cast(input: Any, dtype: Any, fp_downcast_rounding: Any = None, bitcast: Any = False) -> Any:
    """``input`` converted to ``dtype`` (also ``x.to(dtype)``); ``bitcast=True`` keeps the bits
    (same width); ``fp_downcast_rounding`` is ``"rtne"`` (the default rounding of a narrowing
    float conversion; ``"rtz"`` is not supported yet)."""


# ---- shape ----


@builtin
def broadcast_to(input: Any, *shape: Any) -> Any:
    """``input`` broadcast to ``shape`` (a tuple, or the sizes as arguments)."""


@builtin
def broadcast(input: Any, other: Any) -> Any:
    """``input`` and ``other`` broadcast to a common shape (a tuple)."""


@builtin
def expand_dims(input: Any, axis: int) -> Any:
    """``input`` with a new size-1 dimension at ``axis``."""


# ---- memory ----


@builtin
def load(
    pointer: Any,
    mask: Any = None,
    other: Any = None,
    boundary_check: Any = (),
    padding_option: Any = "",
    cache_modifier: Any = "",
    eviction_policy: Any = "",
    volatile: Any = False,
) -> Any:
    """Load the elements ``pointer`` points to; lanes where ``mask`` is false give ``other``."""


@builtin
def store(
    pointer: Any,
    value: Any,
    mask: Any = None,
    boundary_check: Any = (),
    cache_modifier: Any = "",
    eviction_policy: Any = "",
) -> Any:
    """Store ``value`` where ``mask`` is true."""


# ---- block pointers and tensor descriptors (frontend/block_pointers.py) ----


@builtin
def make_block_ptr(
    base: Any, shape: Any, strides: Any, offsets: Any, block_shape: Any, order: Any
) -> Any:
    """A pointer to the ``block_shape`` block at ``offsets`` of the strided tensor at ``base``;
    ``tl.load``/``tl.store`` through it take ``boundary_check`` (and ``padding_option``)."""


@_must_use_result(
    "Note that tl.advance does not have any side effects. To move the block pointer, you need "
    "to assign the result of tl.advance to a variable."
)
@builtin
def advance(base: Any, offsets: Any) -> Any:
    """The block pointer ``base`` moved by ``offsets`` (one per dimension)."""


@builtin
def make_tensor_descriptor(
    base: Any, shape: Any, strides: Any, block_shape: Any, padding_option: Any = "zero"
) -> Any:
    """A descriptor of the tensor at ``base`` (last stride 1) whose ``load``/``store`` move
    ``block_shape`` blocks; out-of-bounds elements read as ``padding_option``, writes drop."""


@builtin
def load_tensor_descriptor(desc: Any, offsets: Any) -> Any:
    """``desc.load(offsets)``."""


@builtin
def store_tensor_descriptor(desc: Any, offsets: Any, value: Any) -> Any:
    """``desc.store(offsets, value)``."""


# ---- math ----


@builtin
def where(condition: Any, x: Any, y: Any) -> Any:
    """Elementwise ``x if condition else y``."""


@builtin
def maximum(x: Any, y: Any, propagate_nan: Any = PropagateNan.NONE) -> Any:
    """Elementwise maximum: a NaN operand is ignored unless ``propagate_nan`` is
    ``PropagateNan.ALL``; ``+0.0 > -0.0``."""


@builtin
def minimum(x: Any, y: Any, propagate_nan: Any = PropagateNan.NONE) -> Any:
    """Elementwise minimum: a NaN operand is ignored unless ``propagate_nan`` is
    ``PropagateNan.ALL``; ``-0.0 < +0.0``."""


@builtin
def clamp(x: Any, min: Any, max: Any, propagate_nan: Any = PropagateNan.NONE) -> Any:
    """``minimum(maximum(x, min), max)``, both with ``propagate_nan``; floats only."""


@builtin
def exp(x: Any) -> Any:
    """Natural exponential: f32 is ``ex2.approx.f32`` of ``x * log2(e)`` on the GPU, as in
    Triton (within ``2 + floor(|1.173 x|)`` ulp)."""


@builtin
def exp2(x: Any) -> Any:
    """``2 ** x``."""


@builtin
def log(x: Any) -> Any:
    """Natural logarithm."""


@builtin
def log2(x: Any) -> Any:
    """Base-2 logarithm."""


@builtin
def sqrt(x: Any) -> Any:
    """Square root: f32 is PTX's approximate ``sqrt.approx.ftz.f32`` (within 1 ulp), as in
    Triton; ``sqrt_rn`` is IEEE."""


@builtin
def rsqrt(x: Any) -> Any:
    """``1 / sqrt(x)``: f32 is PTX's ``rsqrt.approx.ftz.f32`` (within 2 ulp), as in Triton."""


@builtin
def sin(x: Any) -> Any:
    """Sine."""


@builtin
def cos(x: Any) -> Any:
    """Cosine."""


@builtin
def abs(x: Any) -> Any:
    """Absolute value."""


@builtin
def floor(x: Any) -> Any:
    """Round down."""


@builtin
def ceil(x: Any) -> Any:
    """Round up."""


@builtin
def sigmoid(x: Any) -> Any:
    """``1 / (1 + exp(-x))``."""


@builtin
def fdiv(x: Any, y: Any, ieee_rounding: Any = False) -> Any:
    """Float division of two floats of one dtype, in that dtype (no promotion): f32 is PTX's
    approximate ``div.full.f32`` (at most 2 ulp), as ``/``; ``ieee_rounding=True`` is IEEE."""


@builtin
def cdiv(x: Any, div: Any) -> Any:
    """Ceiling division ``(x + div - 1) // div``."""


@builtin
def div_rn(x: Any, y: Any) -> Any:
    """Float division rounded to nearest (IEEE ``div.rn``, where ``/`` of f32 is approximate)."""


@builtin
def sqrt_rn(x: Any) -> Any:
    """Square root rounded to nearest (IEEE ``sqrt.rn``, where ``sqrt`` of f32 is approximate)."""


@builtin
def fma(x: Any, y: Any, z: Any) -> Any:
    """``x * y + z`` rounded once."""


@builtin
def umulhi(x: Any, y: Any) -> Any:
    """High half of the unsigned double-width product of two int32 (int64)."""


@builtin
def erf(x: Any) -> Any:
    """The error function."""


@builtin
def softmax(x: Any, dim: Any = None, keep_dims: Any = False, ieee_rounding: Any = False) -> Any:
    """``exp(x - max(x)) / sum(exp(x - max(x)))`` along ``dim`` (0 when None)."""


# ---- reductions ----


@builtin
def sum(input: Any, axis: Any = None, keep_dims: Any = False, dtype: Any = None) -> Any:
    """Sum along ``axis`` (all axes when None)."""


@builtin
def max(
    input: Any,
    axis: Any = None,
    return_indices: Any = False,
    return_indices_tie_break_left: Any = True,
    keep_dims: Any = False,
) -> Any:
    """Maximum along ``axis``: NaN elements are ignored (NaN only if all are), as Triton's
    ``maximum`` combiner does."""


@builtin
def min(
    input: Any,
    axis: Any = None,
    return_indices: Any = False,
    return_indices_tie_break_left: Any = True,
    keep_dims: Any = False,
) -> Any:
    """Minimum along ``axis``: NaN elements are ignored (NaN only if all are), as Triton's
    ``minimum`` combiner does."""


@builtin
def reduce(input: Any, axis: Any, combine_fn: Any, keep_dims: Any = False) -> Any:
    """``input`` (a block or a tuple of blocks of one shape) reduced along ``axis`` (all axes
    when None) by the ``@jit`` function ``combine_fn`` of 2N scalars returning N."""


@builtin
def associative_scan(input: Any, axis: Any, combine_fn: Any, reverse: Any = False) -> Any:
    """Inclusive scan of ``input`` (a block or a tuple of blocks) along ``axis`` by the
    associative ``@jit`` function ``combine_fn``; from the end when ``reverse``."""


# ---- linear algebra ----


@builtin
def dot(
    input: Any,
    other: Any,
    acc: Any = None,
    input_precision: Any = None,
    allow_tf32: Any = None,
    max_num_imprecise_acc: Any = None,
    out_dtype: Any = float32,
) -> Any:
    """``input [M,K] @ other [K,N] (+ acc)``: int8 into int32, f16 into ``out_dtype`` (f32 or
    f16), bf16 and f32 into f32, f64 into f64 (Triton's rules)."""


# ---- iterators and compile-time helpers ----


@builtin
def static_range(arg1: Any, arg2: Any = None, step: Any = None) -> Any:
    """A range unrolled at compile time (bounds must be constexpr)."""


@builtin
def range(
    arg1: Any,
    arg2: Any = None,
    step: Any = None,
    num_stages: Any = None,
    loop_unroll_factor: Any = None,
    disallow_acc_multi_buffer: Any = False,
    flatten: Any = False,
    warp_specialize: Any = False,
    disable_licm: Any = False,
) -> Any:
    """A runtime loop range (``scf.for``) even when its bounds are constexpr; the options
    become ``tt.*`` attributes of the loop (``disable_licm`` keeps LICM out of it)."""


@builtin
def static_assert(cond: Any, msg: Any = "") -> Any:
    """Fail compilation when ``cond`` (a constexpr) is false."""


@builtin
def static_print(
    *values: Any, sep: Any = " ", end: Any = "\n", file: Any = None, flush: Any = False
) -> Any:
    """Print compile-time values while compiling (the arguments of Python's ``print``)."""


@builtin
def multiple_of(input: Any, values: Any) -> Any:
    """Hint: each run of ``input`` starts at a multiple of ``values[d]`` (per dimension); kept
    as ``tt.divisibility`` on its op for the axis analysis. Returns ``input``."""


@builtin
def max_contiguous(input: Any, values: Any) -> Any:
    """Hint: ``input`` holds runs of ``values[d]`` consecutive integers (``tt.contiguity``)."""


@builtin
def max_constancy(input: Any, values: Any) -> Any:
    """Hint: ``input`` holds runs of ``values[d]`` equal values (``tt.constancy``)."""


@builtin
def assume(cond: Any) -> Any:
    """Let the compiler assume ``cond`` is true (``tt.assume``; the interpreter checks it)."""


# ---- debugging ----


@builtin
def device_print(prefix: Any, *args: Any, hex: Any = False) -> Any:
    """Print ``args`` at run time, one line per element (also Python's ``print``)."""


@builtin
def device_assert(cond: Any, msg: Any = "", mask: Any = None) -> Any:
    """Check ``cond`` (where ``mask``) at run time in debug mode (``@jit(debug=True)``,
    ``MYTRITON_DEBUG=1`` or ``TRITON_DEBUG=1``); compiled out otherwise."""


@builtin
def debug_barrier() -> Any:
    """Synchronize the threads of a program (``gpu.barrier``)."""


@builtin
def inline_asm_elementwise(
    asm: Any, constraints: Any, args: Any, dtype: Any, is_pure: Any, pack: Any
) -> Any:
    """Run PTX ``asm`` on the broadcast ``args``, ``pack`` elements at a time (GPU backends)."""


__all__ = [
    "abs",
    "advance",
    "arange",
    "associative_scan",
    "assume",
    "broadcast",
    "broadcast_to",
    "cast",
    "cdiv",
    "ceil",
    "clamp",
    "cos",
    "debug_barrier",
    "device_assert",
    "device_print",
    "div_rn",
    "dot",
    "empty",
    "erf",
    "exp",
    "exp2",
    "expand_dims",
    "fdiv",
    "floor",
    "fma",
    "full",
    "inline_asm_elementwise",
    "load",
    "load_tensor_descriptor",
    "log",
    "log2",
    "make_block_ptr",
    "make_tensor_descriptor",
    "max",
    "max_constancy",
    "max_contiguous",
    "maximum",
    "min",
    "minimum",
    "multiple_of",
    "num_programs",
    "program_id",
    "range",
    "reduce",
    "rsqrt",
    "sigmoid",
    "sin",
    "softmax",
    "sqrt",
    "sqrt_rn",
    "static_assert",
    "static_print",
    "static_range",
    "store",
    "store_tensor_descriptor",
    "sum",
    "umulhi",
    "where",
    "zeros",
    "zeros_like",
]
