"""Compile-time values as library kernels use them, with Triton 3.6's semantics: a dtype handed
to a helper is a ``tl.constexpr`` (``dtype.value``), constexpr functions (``@tl.constexpr``,
``@triton.constexpr_function``), ``if tl.constexpr(FLAG)``, a block passed for a parameter
annotated ``tl.constexpr``, same-type casts with a rounding mode, ``x.numel``, and a bitonic sort
built from ``tl.core`` internals (as libraries write them)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.language import core
from mytriton.language.extra import libdevice
from mytriton.language.standard import _log2
from tests.frontend.util import ops, tt

pytestmark = pytest.mark.execution


# ---- a dtype handed to a helper is a constexpr: ``dtype.value`` is the dtype ----


@triton.jit
def _convert(x, dtype, offset):
    if dtype.value.is_floating():
        return x.to(dtype) * 2
    return x.to(dtype) + dtype.value.int_bitwidth + offset.value


@triton.jit
def dtype_helper_kernel(x_ptr, out_ptr, half_ptr, DT: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.static_assert(DT.value == DT)
    tl.store(out_ptr + offs, _convert(x, DT, BLOCK))
    tl.store(half_ptr + offs, _convert(x, tl.float16, 0))


@pytest.mark.parametrize(
    ("dt", "np_dt", "bits"), [(tl.int32, np.int32, 32), (tl.int16, np.int16, 16)]
)
def test_a_dtype_argument_is_a_constexpr(run: Any, dt: Any, np_dt: Any, bits: int) -> None:
    x = np.array([1.5, -2.25, 7.0, 100.75], np.float32)
    out = np.zeros(4, np_dt)
    half = np.zeros(4, np.float16)
    run(dtype_helper_kernel, (1,), x, out, half, DT=dt, BLOCK=4)
    np.testing.assert_array_equal(out, x.astype(np_dt) + bits + 4)
    np.testing.assert_array_equal(half, x.astype(np.float16) * 2)


# ---- constexpr functions pick an accumulator dtype from the pointer's element type ----


@tl.constexpr
def _acc_dtype(dt):
    return tl.float32 if dt.is_floating() else tl.int32


@triton.constexpr_function
def _acc_dtype_fn(dt, wide=False):
    if dt.is_floating():
        return tl.float64 if wide else tl.float32
    return tl.int64 if wide else tl.int32


@triton.constexpr_function
def _twice(n):
    return 2 * n


@triton.jit
def _accumulate(x, WIDE: tl.constexpr):
    acc = tl.zeros(x.shape, _acc_dtype_fn(x.dtype, wide=WIDE))
    return acc + x + x


@triton.jit
def accumulate_kernel(x_ptr, out_ptr, wide_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    acc = tl.zeros([BLOCK], _acc_dtype(x_ptr.type.element_ty))
    tl.static_assert(acc.dtype == _acc_dtype_fn(x_ptr.dtype.element_ty))
    acc += x
    acc += x
    tl.store(out_ptr + tl.arange(0, _twice(BLOCK) // 2), acc)
    wide = _accumulate(x, True)
    tl.static_assert(wide.dtype.primitive_bitwidth == 64)
    tl.store(wide_ptr + tl.arange(0, BLOCK), wide)


@pytest.mark.parametrize(("np_in", "np_acc"), [(np.int8, np.int32), (np.float16, np.float32)])
def test_constexpr_functions_pick_the_accumulator(run: Any, np_in: Any, np_acc: Any) -> None:
    x = np.array([100, -100, 127, 3], np_in)
    out = np.zeros(4, np_acc)
    wide = np.zeros(4, np.float64 if np_acc is np.float32 else np.int64)
    run(accumulate_kernel, (1,), x, out, wide, BLOCK=4)
    np.testing.assert_array_equal(out, 2 * x.astype(np_acc))  # int8 would have wrapped
    np.testing.assert_array_equal(wide, 2 * x.astype(wide.dtype))


def test_constexpr_functions_still_run_in_python() -> None:
    assert _acc_dtype_fn(tl.float16) is tl.float32
    assert _acc_dtype(tl.int8) is tl.int32  # a function decorated @tl.constexpr
    assert _acc_dtype_fn(tl.constexpr(tl.int8), wide=tl.constexpr(True)) is tl.int64
    assert triton.constexpr_function is triton.runtime.jit.constexpr_function  # type: ignore[attr-defined]


# ---- ``if tl.constexpr(FLAG)`` compiles only the branch taken ----


@triton.jit
def optional_bias_kernel(x_ptr, bias_ptr, out_ptr, HAS_BIAS: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    if tl.constexpr(HAS_BIAS):
        x += tl.load(bias_ptr + offs)
    y = x * 2 if tl.constexpr(HAS_BIAS) else x - 1
    tl.store(out_ptr + offs, y)


@pytest.mark.parametrize("has_bias", [False, True])
def test_if_constexpr_compiles_only_the_branch_taken(run: Any, has_bias: bool) -> None:
    x = np.arange(8, dtype=np.float32)
    bias = np.full(8, 10, np.float32) if has_bias else None
    out = np.zeros(8, np.float32)
    run(optional_bias_kernel, (1,), x, bias, out, HAS_BIAS=has_bias, BLOCK=8)
    np.testing.assert_array_equal(out, (x + 10) * 2 if has_bias else x - 1)


def test_a_constexpr_tests_its_value() -> None:
    assert not tl.constexpr(False)
    assert not tl.constexpr(0)
    assert tl.constexpr(3)
    assert [10, 20][tl.constexpr(1)] == 20


# ---- a block passed for a parameter annotated tl.constexpr (Triton's attention tutorial) ----


@triton.jit
def _load_rows(ptr, offs_m: tl.constexpr, n, SCALE: tl.constexpr):
    return tl.load(ptr + offs_m, mask=offs_m < n, other=0.0) * SCALE


@triton.jit
def constexpr_block_param_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs_m = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs_m, _load_rows(x_ptr, offs_m, n, n), mask=offs_m < n)


def test_a_block_for_a_constexpr_parameter_is_an_ordinary_argument(run: Any) -> None:
    n = 13
    x = np.arange(n, dtype=np.float32) - 4
    out = np.zeros(n, np.float32)
    run(constexpr_block_param_kernel, (2,), x, out, n, BLOCK=8)
    np.testing.assert_array_equal(out, x * n)


# ---- a cast to the value's own type is the value, whatever the rounding option says ----


@triton.jit
def same_type_cast_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = x.to(tl.float32, fp_downcast_rounding="rtne")
    z = tl.cast(x, tl.float32, fp_downcast_rounding="rtz")
    tl.store(out_ptr + offs, y - z + x)


def test_a_same_type_cast_with_rounding_is_the_value(run: Any) -> None:
    x = np.array([1 / 3, -2.5e-39, 3.4e38, np.pi], np.float32)
    out = np.zeros(4, np.float32)
    run(same_type_cast_kernel, (1,), x, out, BLOCK=4)
    np.testing.assert_array_equal(out, x)


def test_a_same_type_cast_emits_nothing() -> None:
    ir = tt(same_type_cast_kernel, np.zeros(4, np.float32), np.zeros(4, np.float32), BLOCK=4)
    assert not [o for o in ops(ir) if o in ("tt.cast", "tt.fp_to_fp", "tt.bitcast")], ir


# ---- ``x.numel`` ----


@triton.jit
def numel_kernel(out_ptr, BLOCK: tl.constexpr):
    x = tl.zeros([BLOCK, 2], tl.float32)
    tl.static_assert(x.numel == 2 * BLOCK)
    s = tl.program_id(0)
    tl.static_assert(s.numel == 1)
    idx = tl.arange(0, x.numel)
    tl.store(out_ptr + idx, idx + tl.core._unwrap_if_constexpr(x.numel))


def test_numel_is_the_element_count(run: Any) -> None:
    out = np.zeros(16, np.int32)
    run(numel_kernel, (1,), out, BLOCK=8)
    np.testing.assert_array_equal(out, np.arange(16) + 16)


# ---- a bitonic sort written from ``tl.core`` internals, as libraries copy it ----


@triton.jit
def _compare_and_swap(x, flip, i: core.constexpr, n_dims: core.constexpr):
    n_outer: core.constexpr = x.numel >> n_dims
    shape: core.constexpr = [n_outer * 2**i, 2, 2 ** (n_dims - i - 1)]
    y = core.reshape(x, shape)
    mask = core.arange(0, 2)[None, :, None]
    left = core.broadcast_to(tl.sum(y * (1 - mask), 1)[:, None, :], shape).to(y.dtype)
    right = core.broadcast_to(tl.sum(y * mask, 1)[:, None, :], shape).to(y.dtype)
    left = core.reshape(left, x.shape)
    right = core.reshape(right, x.shape)
    idtype = core.get_int_dtype(bitwidth=x.dtype.primitive_bitwidth, signed=True)
    ileft = left.to(idtype, bitcast=True)
    iright = right.to(idtype, bitcast=True)
    ix = x.to(idtype, bitcast=True)
    swap = (left > right) ^ flip
    ret = ix ^ core.where(swap, ileft ^ iright, tl.standard.zeros_like(ix))
    return ret.to(x.dtype, bitcast=True)


@triton.jit
def _bitonic_merge(x, stage: core.constexpr, order: core.constexpr, n_dims: core.constexpr):
    n_outer: core.constexpr = x.numel >> n_dims
    core.static_assert(stage <= n_dims)
    if order == 2:
        shape: core.constexpr = [n_outer * 2 ** (n_dims - 1 - stage), 2, 2**stage]
        flip = core.reshape(core.broadcast_to(core.arange(0, 2)[None, :, None], shape), x.shape)
    else:
        flip = order
    for i in core.static_range(stage):
        x = _compare_and_swap(x, flip, i + (n_dims - stage), n_dims)
    return x


@triton.jit
def _bitonic_sort(x, dim: core.constexpr = None, descending: core.constexpr = core.CONSTEXPR_0):
    _dim: core.constexpr = len(x.shape) - 1 if dim is None else dim
    core.static_assert(_dim == len(x.shape) - 1)
    n_dims: core.constexpr = _log2(x.shape[_dim])
    tl.static_assert(tl.standard._is_power_of_two(x.shape[_dim]))
    for i in core.static_range(1, n_dims + 1):
        x = _bitonic_merge(x, i, 2 if i < n_dims else descending, n_dims)
    return x


@triton.jit
def bitonic_sort_kernel(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr, DESC: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    tl.store(out_ptr + offs, _bitonic_sort(tl.load(x_ptr + offs), descending=DESC))


@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.int16])
def test_bitonic_sort_from_core_internals(run: Any, descending: bool, dtype: Any) -> None:
    rng = np.random.default_rng(7)
    x = (rng.standard_normal((2, 16)) * 100).astype(dtype)
    out = np.zeros_like(x)
    run(bitonic_sort_kernel, (1,), x, out, M=2, N=16, DESC=descending)
    expected = np.sort(x, axis=1)
    np.testing.assert_array_equal(out, expected[:, ::-1] if descending else expected)


# ---- ``triton.language.extra.libdevice`` as a module ----


@triton.jit
def libdevice_module_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, libdevice.log1p(tl.load(x_ptr + offs)))


def test_the_libdevice_module_path(run: Any) -> None:
    import mytriton.language.extra.cuda.libdevice as cuda_libdevice
    import mytriton.language.extra.libdevice as module

    assert module.log1p is cuda_libdevice.log1p and module.__all__ == cuda_libdevice.__all__
    x = np.array([1e-7, 0.5, 3.0, 1e6], np.float32)
    out = np.zeros(4, np.float32)
    run(libdevice_module_kernel, (1,), x, out, BLOCK=4)
    np.testing.assert_allclose(out, np.log1p(x), rtol=1e-6)


# ---- ``tl.tuple`` is a kernel's (Python) tuple ----


@triton.jit
def tuple_kernel(out_ptr):
    pair = tl.tuple((4, 5)) + (6, 7)  # noqa: RUF005 (the + is what is tested)
    tl.static_assert(isinstance(pair, tl.tuple))
    for i in tl.static_range(4):
        tl.store(out_ptr + i, pair[i])
    tl.store(out_ptr + 4, tl.tuple((1, 2)) == (1, 2))
    x = tl.program_id(0) + 10
    both = tl.tuple([x, x + 1])
    tl.store(out_ptr + 5, both[1])


def test_tl_tuple(run: Any) -> None:
    out = np.zeros(6, np.int32)
    run(tuple_kernel, (1,), out)
    np.testing.assert_array_equal(out, [4, 5, 6, 7, 1, 11])


# ---- functions marked ``__triton_builtin__`` (TorchInductor's ``triton_helpers``) ----


def _triton_builtin(f: Any) -> Any:
    """Inductor's ``triton_builtin`` decorator (for a Triton whose builtins take ``_builder``)."""
    f.__triton_builtin__ = True
    return f


@_triton_builtin
def constexpr_next_power_of_2(n: Any, *, _builder: object = None) -> Any:
    assert isinstance(n, tl.constexpr)  # called as Triton calls builtins: constexprs wrapped
    return tl.constexpr(triton.next_power_of_2(n.value))


@_triton_builtin
def if_mask(mask: Any, val: Any, *, _builder: object = None) -> Any:
    if isinstance(mask, tl.constexpr) and mask.value is None:
        return tl.constexpr(None)
    return val


@_triton_builtin
def failing_builtin(n: Any, *, _builder: object = None) -> Any:
    raise ValueError("no such size")


@triton.jit
def builtin_helpers_kernel(x_ptr, out_ptr, N: tl.constexpr):
    BLOCK: tl.constexpr = constexpr_next_power_of_2(N)
    offs = tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(x_ptr + offs, mask, other=if_mask(mask, -1.0))
    y = tl.load(x_ptr + offs, other=if_mask(None, 5.0), mask=None) if BLOCK == N else x
    tl.store(out_ptr + offs, x + y, mask)


def test_triton_builtin_functions_run_while_compiling(run: Any) -> None:
    x = np.arange(6, dtype=np.float32)
    out = np.zeros(6, np.float32)
    run(builtin_helpers_kernel, (1,), x, out, N=6)  # BLOCK = 8, masked loads
    np.testing.assert_array_equal(out, 2 * x)


@triton.jit
def failing_builtin_kernel(out_ptr, N: tl.constexpr):
    B: tl.constexpr = failing_builtin(N)
    tl.store(out_ptr, B)


def test_a_failing_triton_builtin_is_a_kernel_error() -> None:
    from mytriton.errors import KernelValueError

    with pytest.raises(KernelValueError, match=r"failing_builtin\(\) failed at compile time"):
        tt(failing_builtin_kernel, np.zeros(1, np.int32), N=3)
