"""NumPy arrays the host backends (gpusim and the interpreter) must take alike: byte-swapped
arrays compute on their numbers (and are written back in their byte order), read-only arrays
can be loaded but a store into one is a ``LaunchError`` naming the argument."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.gpusim import SimulationError, run_lowered
from mytriton.errors import LaunchError
from tests.gpusim.util import gpu_module

pytestmark = pytest.mark.execution

SWAPPED = ">" if np.little_endian else "<"


@pytest.fixture(params=["interpreter", "gpusim"])
def backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setenv("MYTRITON_BACKEND", request.param)
    monkeypatch.delenv("MYTRITON_INTERPRET", raising=False)
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    yield request.param


@triton.jit
def scale_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=mask) * 3, mask=mask)


@triton.jit
def two_stores_kernel(a, b):
    tl.store(a + 0, 1.5)
    tl.store(b + 1, 2.5)


@pytest.mark.parametrize("kind", ["f4", "i4"])
def test_byte_swapped_arrays_compute_their_numbers(backend: str, kind: str) -> None:
    x = np.arange(-5, 12).astype(SWAPPED + kind)
    out = np.full(20, 7, SWAPPED + kind)
    scale_kernel[(3,)](x, out, 17, BLOCK=8)
    assert out.dtype.str == SWAPPED + kind  # written back in the array's own byte order
    assert out.tolist() == [3 * v for v in range(-5, 12)] + [7, 7, 7]


def test_byte_swapped_and_native_arrays_mix(backend: str) -> None:
    x = np.linspace(-1, 1, 16, dtype=np.float32)
    out = np.zeros(16, SWAPPED + "f4")
    scale_kernel[(2,)](x, out, 16, BLOCK=8)
    np.testing.assert_array_equal(out, x * np.float32(3))
    back = np.zeros(16, np.float32)
    scale_kernel[(2,)](out, back, 16, BLOCK=8)
    np.testing.assert_array_equal(back, x * np.float32(3) * np.float32(3))


def test_byte_swapped_arguments_sharing_memory_share_their_copy(backend: str) -> None:
    """With a copy per argument, the second write-back would undo the first argument's store."""
    x = np.zeros(4, SWAPPED + "f4")
    two_stores_kernel[(1,)](x, x)
    assert x.tolist() == [1.5, 2.5, 0, 0]
    y = np.zeros(8, SWAPPED + "f4")
    two_stores_kernel[(1,)](y[3:], y[:5])  # overlapping, not identical
    assert y.tolist() == [0, 2.5, 0, 1.5, 0, 0, 0, 0]


def test_byte_orders_mixed_in_shared_memory_are_rejected(backend: str) -> None:
    x = np.zeros(4, SWAPPED + "f4")
    with pytest.raises(LaunchError, match="share memory with mixed byte orders"):
        two_stores_kernel[(1,)](x, x.view(x.dtype.newbyteorder()))
    assert (x == 0).all()


def test_read_only_arrays_load_but_do_not_store(backend: str) -> None:
    x = np.arange(8, dtype=np.float32)
    x.setflags(write=False)
    out = np.zeros(8, np.float32)
    scale_kernel[(1,)](x, out, 8, BLOCK=8)
    assert out.tolist() == [3.0 * v for v in range(8)]
    with pytest.raises(LaunchError, match=r"store into argument [`']out[`'], a read-only array"):
        scale_kernel[(1,)](out, x, 8, BLOCK=8)
    assert x.tolist() == list(range(8))


def test_byte_swapped_read_only_arrays(backend: str) -> None:
    x = np.arange(8, dtype=SWAPPED + "f4")
    x.setflags(write=False)
    out = np.zeros(8, SWAPPED + "f4")
    scale_kernel[(1,)](x, out, 8, BLOCK=8)
    assert out.tolist() == [3.0 * v for v in range(8)]
    with pytest.raises(LaunchError, match=r"store into argument [`']out[`'], a read-only array"):
        scale_kernel[(1,)](out, x, 8, BLOCK=8)


def test_masked_off_store_into_a_read_only_array_writes_nothing(backend: str) -> None:
    x = np.arange(8, dtype=np.float32)
    out = np.zeros(8, np.float32)
    out.setflags(write=False)
    scale_kernel[(1,)](x, out, 0, BLOCK=8)  # n = 0: every lane masked off
    assert (out == 0).all()


# ---- the simulator on its own: run_lowered takes native arrays ----

STORE_TID = """
      %t = "gpu.thread_id"() <{dimension = #gpu<dim x>}> : () -> index
      %ti = arith.index_cast %t : index to i32
      %xo = llvm.getelementptr %po[%ti] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
      llvm.store %ti, %xo : i32, !llvm.ptr<1>"""


def test_run_lowered_rejects_byte_swapped_arrays() -> None:
    module = gpu_module("%po: !llvm.ptr<1>", "i32", STORE_TID)
    with pytest.raises(SimulationError, match="argument `po` is in non-native byte order"):
        run_lowered(module, (1, 1, 1), [np.zeros(32, SWAPPED + "i4")])


def test_run_lowered_store_into_read_only_array() -> None:
    module = gpu_module("%po: !llvm.ptr<1>", "i32", STORE_TID)
    out = np.zeros(32, np.int32)
    out.setflags(write=False)
    with pytest.raises(LaunchError, match=r"store into argument `po`, a read-only array.*thread 0"):
        run_lowered(module, (1, 1, 1), [out])
