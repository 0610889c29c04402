"""Arrays with any strides and offsets, as Triton takes them: the kernel gets the address of the
view's first element and indexes with the strides it is passed. Transposed, sliced, reversed
and broadcast views are read right, stores through a view land in its base array (leaving the
other elements alone), and on the CPU backends an access is out of bounds only outside the
memory block the view points into (its base array), as on a GPU."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.gpusim import SimulationError
from mytriton.backends.interpreter import OutOfBoundsAccess

pytestmark = pytest.mark.execution

SWAPPED = ">" if np.little_endian else "<"


@triton.jit
def affine_2d_kernel(x, out, M, N, sxm, sxn, som, son, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    v = tl.load(x + rm[:, None] * sxm + rn[None, :] * sxn, mask=mask)
    tl.store(out + rm[:, None] * som + rn[None, :] * son, v * 2 + 1, mask=mask)


@triton.jit
def scale_1d_kernel(x, sx, out, so, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    tl.store(out + i * so, tl.load(x + i * sx, mask=mask) * 3, mask=mask)


@triton.jit
def shifted_copy_kernel(x, out, shift, n, BLOCK: tl.constexpr):
    i = tl.arange(0, BLOCK)
    mask = i < n
    tl.store(out + i + shift, tl.load(x + i + shift, mask=mask), mask=mask)


def strides(a: np.ndarray) -> tuple[int, ...]:
    """Element strides, what a Triton user passes (``x.stride(i)``)."""
    return tuple(s // a.itemsize for s in a.strides)


def affine_2d(run: Any, x: np.ndarray, out: np.ndarray) -> None:
    m, n = x.shape
    run(affine_2d_kernel, (triton.cdiv(m, 8), triton.cdiv(n, 8)), x, out, m, n,
        *strides(x), *strides(out), BM=8, BN=8)  # fmt: skip


def scale_1d(run: Any, x: np.ndarray, out: np.ndarray) -> None:
    n = x.shape[0]
    run(scale_1d_kernel, (triton.cdiv(n, 16),), x, *strides(x), out, *strides(out), n, BLOCK=16)


def test_read_a_transposed_matrix(run: Any) -> None:
    a = np.arange(60, dtype=np.float32).reshape(6, 10)
    x = a.T
    out = np.zeros((10, 6), np.float32)
    affine_2d(run, x, out)
    np.testing.assert_array_equal(out, x * 2 + 1)
    np.testing.assert_array_equal(a, np.arange(60).reshape(6, 10))


def test_write_into_a_column_slice(run: Any) -> None:
    base = np.full((8, 5), -1, np.float32)
    src = np.arange(8, dtype=np.float32)
    expected = base.copy()
    expected[:, 1] = src * 3
    scale_1d(run, src, base[:, 1])
    np.testing.assert_array_equal(base, expected)


def test_write_into_a_strided_slice(run: Any) -> None:
    base = np.full(41, -1, np.int32)
    src = np.arange(21, dtype=np.int32) - 10
    expected = base.copy()
    expected[::2] = src * 3
    scale_1d(run, src, base[::2])
    np.testing.assert_array_equal(base, expected)


def test_write_into_a_transposed_view_with_an_offset(run: Any) -> None:
    base = np.full((8, 13), -1, np.float32)
    out = base[1:7, 2:12].T  # (10, 6), strides (1, 13), first element at [1, 2]
    x = np.arange(60, dtype=np.float32).reshape(10, 6)
    expected = base.copy()
    expected[1:7, 2:12].T[...] = x * 2 + 1
    affine_2d(run, x, out)
    np.testing.assert_array_equal(base, expected)


def test_views_with_offsets(run: Any) -> None:
    """``a[3:]`` starts 12 bytes into its base: not 16-byte aligned, so no aligned vector access
    may be assumed (gpusim faults on a misaligned one)."""
    base = np.arange(40, dtype=np.float32)
    out_base = np.full(40, -1, np.float32)
    expected = out_base.copy()
    expected[5:] = base[3:38] * 3
    scale_1d(run, base[3:38], out_base[5:])
    np.testing.assert_array_equal(out_base, expected)
    np.testing.assert_array_equal(base, np.arange(40))


def test_negative_strides(run: Any) -> None:
    base = np.arange(35, dtype=np.float32)
    out_base = np.full(70, -1, np.float32)
    expected = out_base.copy()
    expected[69::-2] = base[::-1] * 3
    scale_1d(run, base[::-1], out_base[69::-2])
    np.testing.assert_array_equal(out_base, expected)


def test_negative_strides_in_two_dimensions(run: Any) -> None:
    a = np.arange(99, dtype=np.float32).reshape(9, 11)
    out_base = np.full((10, 12), -1, np.float32)
    out = out_base[8::-1, :11].T  # reversed rows, transposed
    expected = out_base.copy()
    expected[8::-1, :11].T[...] = a[::-1, ::-1].T * 2 + 1
    affine_2d(run, a[::-1, ::-1].T, out)
    np.testing.assert_array_equal(out_base, expected)


@pytest.mark.parametrize("axis", [0, 1])
def test_zero_strides(run: Any, axis: int) -> None:
    """Broadcast views (Triton's test_zero_strided_tensors): every row (or column) reads one."""
    line = np.arange(9 if axis == 0 else 7, dtype=np.float32) - 3
    x = np.broadcast_to(line if axis == 0 else line[:, None], (7, 9))
    out = np.zeros((7, 9), np.float32)
    affine_2d(run, x, out)
    np.testing.assert_array_equal(out, x * 2 + 1)


def test_views_of_one_array_share_its_memory(run: Any) -> None:
    a = np.arange(64, dtype=np.float32)
    expected = a.copy()
    expected[1::2] = a[::2] * 3
    scale_1d(run, a[::2], a[1::2])
    np.testing.assert_array_equal(a, expected)


def test_a_view_reaches_its_base_around_it(run: Any) -> None:
    """As on a GPU, memory of the base array before and after a view is valid memory."""
    base = np.arange(16, dtype=np.float32)
    out_base = np.full(16, -1, np.float32)
    run(shifted_copy_kernel, (1,), base[5:8], out_base[5:8], -5, 16, BLOCK=16)
    np.testing.assert_array_equal(out_base, base)


@pytest.mark.parametrize("shift", [-6, -5])
def test_out_of_bounds_through_a_view(run: Any, shift: int) -> None:
    """Beyond the base array is out of bounds: an error naming the argument on the CPU."""
    if run.framework != "numpy":
        pytest.skip("an out-of-bounds access is undefined behaviour on a GPU")
    base = np.arange(16, dtype=np.float32)
    out = np.full(20, -1, np.float32)
    x = base[5:8]
    n = 1 if shift == -6 else 17  # x - 6 is before the base's start, x + 11 past its end
    error = OutOfBoundsAccess if run.backend == "interpreter" else SimulationError
    with pytest.raises(error) as info:
        run(shifted_copy_kernel, (1,), x, out[6:], shift, n, BLOCK=32)
    message = str(info.value)
    if run.backend == "interpreter":
        bad = -6 if shift == -6 else 11
        assert f"offset {bad} " in message and "outside argument 'x'" in message
        assert "(16 elements, valid offsets -5..10)" in message
    else:
        assert "out-of-bounds load of `x`" in message
        assert "holds 16 such elements, from element -5 to 10" in message


def test_out_of_bounds_store_through_a_view(run: Any) -> None:
    if run.framework != "numpy":
        pytest.skip("an out-of-bounds access is undefined behaviour on a GPU")
    x = np.zeros(32, np.float32)
    out_base = np.full(8, -1, np.float32)
    with pytest.raises((OutOfBoundsAccess, SimulationError), match="out-of-bounds store"):
        run(shifted_copy_kernel, (1,), x[4:], out_base[4:], -4, 9, BLOCK=16)
    assert (out_base == -1).all()


@pytest.mark.parametrize("backend", ["interpreter", "gpusim"])
def test_byte_swapped_views_are_written_in_place(
    backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A byte-swapped view runs on a native copy of its base, written back in place."""
    monkeypatch.setenv("MYTRITON_BACKEND", backend)
    src = np.arange(24, dtype=np.float32).astype(SWAPPED + "f4")
    base = np.full((6, 5), -1, SWAPPED + "f4")
    expected = base.copy()
    expected[::-2, 3] = src[:12:4] * 3
    scale_1d_kernel[(1,)](src[:12:4], 4, base[::-2, 3], -10, 3, BLOCK=4)
    assert base.dtype.str == SWAPPED + "f4"
    np.testing.assert_array_equal(base, expected)


@pytest.mark.parametrize("backend", ["interpreter", "gpusim"])
def test_cpu_torch_views(backend: str, monkeypatch: pytest.MonkeyPatch) -> None:
    torch = pytest.importorskip("torch")
    monkeypatch.setenv("MYTRITON_BACKEND", backend)
    a = torch.arange(60, dtype=torch.float32).reshape(6, 10)
    base = torch.full((8, 13), -1.0)
    out = base[1:7, 2:12].t()
    affine_2d_kernel[(2, 1)](a.t(), out, 10, 6, *a.t().stride(), *out.stride(), BM=8, BN=8)
    expected = torch.full((8, 13), -1.0)
    expected[1:7, 2:12] = a * 2 + 1
    assert torch.equal(base, expected)
    x = torch.arange(16, dtype=torch.float32)
    got = torch.full((16,), -1.0)
    shifted_copy_kernel[(1,)](x[5:8], got[5:8], -5, 16, BLOCK=16)  # the storage around the view
    assert torch.equal(got, x)
