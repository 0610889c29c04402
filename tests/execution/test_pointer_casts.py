"""Pointers as integers and back (``tt.int_to_ptr``/``tt.ptr_to_int``), with Triton 3.6's rules:
an int64 address loaded from a table is a pointer (a grouped GEMM over a table of matrix
addresses), ``p.to(tl.int64)``/``tl.uint64`` is its address, ``p.to(tl.int1)`` whether it is
non-null, and a cast between pointer types keeps the address."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.gpusim.errors import SimulationError
from mytriton.backends.interpreter import InterpreterError, OutOfBoundsAccess
from tests.execution.conftest import AddressTable

pytestmark = pytest.mark.execution


@triton.jit
def grouped_matmul_kernel(a_table, b_table, c_table, sizes, BLOCK: tl.constexpr):
    """C[g] = A[g] @ B[g] for each group g, the matrices found through address tables."""
    g = tl.program_id(0)
    m = tl.load(sizes + 3 * g)
    n = tl.load(sizes + 3 * g + 1)
    k = tl.load(sizes + 3 * g + 2)
    a = tl.load(a_table + g).to(tl.pointer_type(tl.float16))
    b = tl.load(b_table + g).to(tl.pointer_type(tl.float16))
    c = tl.load(c_table + g).to(tl.pointer_type(tl.float32))
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK, BLOCK], tl.float32)
    for kk in range(0, tl.cdiv(k, BLOCK)):
        ks = kk * BLOCK + offs
        a_blk = tl.load(
            a + offs[:, None] * k + ks[None, :],
            mask=(offs[:, None] < m) & (ks[None, :] < k),
            other=0.0,
        )
        b_blk = tl.load(
            b + ks[:, None] * n + offs[None, :],
            mask=(ks[:, None] < k) & (offs[None, :] < n),
            other=0.0,
        )
        acc += tl.dot(a_blk, b_blk)
    tl.store(c + offs[:, None] * n + offs[None, :], acc, mask=(offs[:, None] < m) & (offs < n))


def test_grouped_matmul_through_an_address_table(run: Any) -> None:
    rng = np.random.default_rng(3)
    shapes = [(16, 16, 16), (8, 16, 32), (16, 8, 24)]
    a_mats = [rng.integers(-3, 4, (m, k)).astype(np.float16) for m, _, k in shapes]
    b_mats = [rng.integers(-3, 4, (k, n)).astype(np.float16) for _, n, k in shapes]
    c_mats = [np.zeros((m, n), np.float32) for m, n, _ in shapes]
    sizes = np.array(shapes, np.int32).reshape(-1)
    run(
        grouped_matmul_kernel,
        (len(shapes),),
        AddressTable(tuple(a_mats)),
        AddressTable(tuple(b_mats)),
        AddressTable(tuple(c_mats)),
        sizes,
        BLOCK=16,
    )
    for a, b, c in zip(a_mats, b_mats, c_mats, strict=True):
        np.testing.assert_array_equal(c, a.astype(np.float32) @ b.astype(np.float32))


@triton.jit
def address_kernel(base, x, out_f, out_b, out_i, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_i, x.to(tl.int64) - base.to(tl.int64))  # bytes between two views of one array
    tl.store(out_i + 1, (x.to(tl.uint64) - base.to(tl.uint64)).to(tl.int64))
    two_on = (base.to(tl.int64) + 8).to(tl.pointer_type(tl.float32))
    tl.store(out_f + offs, tl.load(two_on + offs))
    x_bytes = x.to(tl.pointer_type(tl.uint8))
    tl.store(out_b + offs, tl.load(x_bytes + offs))
    x_bits = x.to(tl.pointer_type(tl.int32), bitcast=True)
    tl.store(out_i + 2 + offs, tl.load(x_bits + offs).to(tl.int64))
    tl.store(out_i + 2 + BLOCK, x.to(tl.int1).to(tl.int64))


def test_addresses_and_pointer_types(run: Any) -> None:
    base = np.arange(16, dtype=np.float32) * 1.5
    x = base[4:]
    out_f = np.zeros(4, np.float32)
    out_b = np.zeros(4, np.uint8)
    out_i = np.zeros(7, np.int64)
    run(address_kernel, (1,), base, x, out_f, out_b, out_i, BLOCK=4)
    np.testing.assert_array_equal(out_i[:2], [16, 16])
    np.testing.assert_array_equal(out_f, base[2:6])
    np.testing.assert_array_equal(out_b, x.view(np.uint8)[:4])
    np.testing.assert_array_equal(out_i[2:6], x.view(np.int32)[:4])
    assert out_i[6] == 1


@triton.jit
def gather_by_address_kernel(data, perm, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    addresses = data.to(tl.int64) + tl.load(perm + offs).to(tl.int64) * 4
    tl.store(out + offs, tl.load(addresses.to(tl.pointer_type(tl.float32))))


def test_a_block_of_addresses(run: Any) -> None:
    data = np.arange(32, dtype=np.float32) ** 2
    perm = np.random.default_rng(5).permutation(32).astype(np.int32)
    out = np.zeros(32, np.float32)
    run(gather_by_address_kernel, (1,), data, perm, out, BLOCK=32)
    np.testing.assert_array_equal(out, data[perm])


# ---- what only the CPU backends can check ----


@triton.jit
def load_at_kernel(table, out, BLOCK: tl.constexpr):
    p = tl.load(table).to(tl.pointer_type(tl.float32))
    tl.store(out + tl.arange(0, BLOCK), tl.load(p + tl.arange(0, BLOCK)))


@pytest.mark.parametrize(
    ("backend", "error", "words"),
    [
        ("interpreter", OutOfBoundsAccess, "outside argument 'the memory at address 0x10'"),
        ("gpusim", SimulationError, "made from address 0x10, which is in no array"),
    ],
)
def test_an_address_in_no_array_fails_at_the_access(
    monkeypatch: pytest.MonkeyPatch, backend: str, error: type[Exception], words: str
) -> None:
    monkeypatch.setenv("MYTRITON_BACKEND", backend)
    out = np.zeros(4, np.float32)
    with pytest.raises(error, match=words):
        load_at_kernel[(1,)](np.array([16], np.int64), out, BLOCK=4)


@pytest.mark.parametrize(
    ("backend", "error", "words"),
    [
        ("interpreter", InterpreterError, "not a multiple of 4 bytes from its start"),
        ("gpusim", SimulationError, "misaligned load"),
    ],
)
def test_a_misaligned_address_fails(
    monkeypatch: pytest.MonkeyPatch, backend: str, error: type[Exception], words: str
) -> None:
    monkeypatch.setenv("MYTRITON_BACKEND", backend)
    data = np.zeros(8, np.float32)
    out = np.zeros(4, np.float32)
    with pytest.raises(error, match=words):
        load_at_kernel[(1,)](np.array([data.ctypes.data + 2], np.int64), out, BLOCK=4)


def test_a_found_array_is_bounds_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    """An array reached only through its address is checked like an argument."""
    monkeypatch.setenv("MYTRITON_BACKEND", "interpreter")
    data = np.arange(6, dtype=np.float32)
    out = np.zeros(4, np.float32)
    load_at_kernel[(1,)](np.array([data.ctypes.data], np.int64), out, BLOCK=4)
    np.testing.assert_array_equal(out, data[:4])
    with pytest.raises(OutOfBoundsAccess, match="offset 6"):
        load_at_kernel[(1,)](np.array([data.ctypes.data + 12], np.int64), out, BLOCK=4)


@triton.jit
def two_arrays_kernel(a, b, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    which = tl.where(offs % 2 == 0, a.to(tl.int64), b.to(tl.int64)) + offs * 4
    tl.store(out + offs, tl.load(which.to(tl.pointer_type(tl.float32))))


def test_lanes_into_two_arrays(monkeypatch: pytest.MonkeyPatch) -> None:
    """gpusim keeps an array per lane; the interpreter one per value, and says so."""
    a = np.arange(4, dtype=np.float32)
    b = -np.arange(4, dtype=np.float32)
    out = np.zeros(4, np.float32)
    monkeypatch.setenv("MYTRITON_BACKEND", "gpusim")
    two_arrays_kernel[(1,)](a, b, out, BLOCK=4)
    np.testing.assert_array_equal(out, [0, -1, 2, -3])
    monkeypatch.setenv("MYTRITON_BACKEND", "interpreter")
    with pytest.raises(InterpreterError, match="pointers into different arrays"):
        two_arrays_kernel[(1,)](a, b, out, BLOCK=4)
