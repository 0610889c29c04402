"""Array views as launch arguments: the pointer is the view's first element (its alignment is
the specialization), whatever the strides, and the CPU backends see the memory block it points
into (its base array) with the first element's place in it."""

from __future__ import annotations

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.arrays import describe_array, host_arrays, host_memory, memory_block
from mytriton.frontend import PointerArg
from mytriton.language import core
from mytriton.runtime.specialization import specialize

BASE = np.arange(48, dtype=np.float32).reshape(4, 12)
ADDRESS = BASE.ctypes.data


@pytest.mark.parametrize(
    ("view", "first"),
    [
        (BASE.T, 0),
        (BASE[1:], 48),
        (BASE[:, 3], 12),
        (BASE[::-1], 144),
        (BASE[::-1, ::-2], 144 + 44),
        (BASE.reshape(-1)[5::3], 20),
        (np.broadcast_to(BASE[2], (7, 12)), 96),
    ],
    ids=["transposed", "offset", "column", "reversed", "reversed-2d", "strided", "broadcast"],
)
def test_a_view_is_described_by_its_first_element(view: np.ndarray, first: int) -> None:
    info = describe_array(view, "argument `x`")
    assert (info.framework, info.dtype, info.device) == ("numpy", core.float32, None)
    assert info.address == ADDRESS + first
    assert info.nbytes == view.size * 4
    memory = host_memory(view)
    assert memory.raw.ctypes.data == ADDRESS and memory.raw.size == BASE.nbytes
    assert memory.origin == first
    assert memory.raw.flags.writeable == view.flags.writeable
    assert memory_block(view) == (ADDRESS, ADDRESS + BASE.nbytes)


@pytest.mark.parametrize(("offset", "divisibility"), [(0, 16), (1, 1), (3, 1), (4, 16), (8, 16)])
def test_alignment_of_the_first_element_is_specialized(offset: int, divisibility: int) -> None:
    assert ADDRESS % 16 == 0
    view = BASE.reshape(-1)[offset:][::2]
    reversed_view = BASE.reshape(-1)[: 48 - offset][::-1]  # first element at 47 - offset
    specs, key, _, _ = specialize(["x", "y"], frozenset(), [view, reversed_view])
    assert specs["x"] == PointerArg(core.float32, divisibility)
    reversed_div = 16 if (47 - offset) % 4 == 0 else 1
    assert specs["y"] == PointerArg(core.float32, reversed_div)
    contiguous = np.zeros(4, np.float32)[offset % 4 :]
    assert specialize(["x"], frozenset(), [contiguous])[1][0] == key[0]  # strides are no key


def test_memory_block_sees_through_as_strided_and_keeps_a_view_inside() -> None:
    base = np.zeros(10, np.int32)
    sliding = np.lib.stride_tricks.as_strided(base[2:], shape=(3, 4), strides=(8, 4))
    assert memory_block(sliding) == (base.ctypes.data, base.ctypes.data + 40)
    assert host_memory(sliding).origin == 8
    empty = base[10:]
    lo, hi = memory_block(empty)
    assert (lo, hi) == (base.ctypes.data, base.ctypes.data + 40)
    assert host_memory(empty).origin == empty.ctypes.data - base.ctypes.data


def test_host_memory_of_an_unaligned_view_starts_on_its_element_grid() -> None:
    raw = np.arange(19, dtype=np.uint8)
    view = raw[3:15].view(np.int32)  # elements at bytes 3, 7, 11
    memory = host_memory(view)
    assert memory.raw.ctypes.data == raw.ctypes.data + 3 and memory.origin == 0
    assert memory.raw.size == 16  # the whole int32 at bytes 15..18 is in the block
    memory = host_memory(raw[5:13].view(np.int32)[1:])
    assert memory.raw.ctypes.data == raw.ctypes.data + 1 and memory.origin == 8


def test_byte_swapped_view_copies_keep_strides_and_write_back_in_place() -> None:
    swapped = ">" if np.little_endian else "<"
    base = np.arange(12, dtype=swapped + "i4").reshape(3, 4)
    view = base[::-1, 1::2]
    with host_arrays([view, base[0]], [describe_array(view, "v"), None]) as host:
        copy = host[0]
        assert copy.dtype.isnative and copy.strides == view.strides
        np.testing.assert_array_equal(copy, view)
        memory = host_memory(copy)
        assert memory.origin == 36 and memory.raw.size == 48
        memory.raw.view(np.int32)[0] = 100  # the base's element [0, 0], outside the view
        copy[0, 0] = -1
    assert base[0, 0] == 100 and base[2, 1] == -1
    assert base.dtype.str == swapped + "i4"


def test_cpu_torch_views() -> None:
    torch = pytest.importorskip("torch")
    base = torch.arange(48, dtype=torch.float32).reshape(4, 12)
    view = base[1:, 2:].t()
    info = describe_array(view, "x")
    assert info.address == base.data_ptr() + (12 + 2) * 4
    with host_arrays([view], [info]) as host:
        array = host[0]
        assert array.strides == (4, 48) and array.ctypes.data == info.address
        memory = host_memory(array)
        assert memory.raw.ctypes.data == base.data_ptr() and memory.raw.size == 48 * 4
        assert memory.origin == 14 * 4
        array[0, 0] = -7
    assert float(base[1, 2]) == -7


@triton.jit
def _copy_kernel(x, out):
    tl.store(out, tl.load(x))


def test_fast_path_key_ignores_strides(monkeypatch: pytest.MonkeyPatch) -> None:
    """A view, then a contiguous array, then a view again: one compile (same alignment)."""
    monkeypatch.setenv("MYTRITON_BACKEND", "interpreter")
    _copy_kernel.clear_cache()
    out = np.zeros(1, np.float32)
    k = _copy_kernel[(1,)](BASE.T, out)
    assert out[0] == 0
    assert _copy_kernel[(1,)](BASE[1:], out) is k and out[0] == 12
    assert _copy_kernel[(1,)](BASE[::-1, ::-1].T, out) is not k  # 188: unaligned
    assert out[0] == 47
