"""gpusim's ``nvvm.cp.async.shared.global``, ``commit.group`` and ``wait.group``: copies land as
the reference says (raw bytes, zeros where ``cpSize`` is 0, any element type), when a wait of
the issuing thread completes their group and not before; and the mistakes a lowering can make
with them (a missing wait, commit or barrier, a slot reused while in flight, bad addresses)
fail, naming the op."""

from __future__ import annotations

import re

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from mytriton.backends.gpusim import SimulationError, run_lowered
from mytriton.backends.gpusim.dtypes import dtype_of
from tests.cp_async_samples import (
    CASE_IDS,
    CASES,
    ELEMENTS,
    CpAsyncKernel,
    cp_async_inputs,
    cp_async_module,
    cp_async_reference,
)

BLOCK = 32


def _per(element: str, size: int) -> int:
    return size // dtype_of(ELEMENTS[element]).itemsize


def _run(
    module: ModuleOp,
    element: str,
    size: int,
    slots: int,
    *,
    n: int | None = None,
    start: int = 0,
    src_len: int | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Run ``module`` on random ``src`` (``src_len`` elements, by default exactly what the
    copies below ``n`` read); returns (src, out)."""
    total = slots * BLOCK * _per(element, size)
    n = total if n is None else n
    src = cp_async_inputs(
        element, start + n if src_len is None else src_len, np.random.default_rng(3)
    )
    out = np.zeros(total, src.dtype)
    run_lowered(module, (1, 1, 1), [src, out, n, start])
    return src, out


@pytest.mark.parametrize("stages", [1, 2, 3])
@pytest.mark.parametrize(("element", "size", "cg"), CASES, ids=CASE_IDS)
def test_copies_match_the_reference(element: str, size: int, cg: bool, stages: int) -> None:
    """Masked-off copies (the last 5 threads of the last slot) read nothing, past the end of
    ``src``, and leave zeros."""
    per = _per(element, size)
    n, start = stages * BLOCK * per - 5 * per, 2 * per
    module = cp_async_module(element, size, stages=stages, cache_global=cg)
    src, out = _run(module, element, size, stages, n=n, start=start)
    assert src.size == n + start
    expected = cp_async_reference(src, n, start, size, stages=stages)
    np.testing.assert_array_equal(out.view(np.uint8), expected.view(np.uint8))


def test_all_masked_off_reads_nothing() -> None:
    module = cp_async_module("f16", 16, stages=1)
    _, out = _run(module, "f16", 16, 1, n=0, src_len=1)
    assert not out.view(np.uint16).any()


def test_partial_copy_zero_fills() -> None:
    """``cpSize`` 6 of 16 bytes: three f16 read, five zeros; a byte count that splits an f32
    element is read byte by byte."""
    for element, read in (("f16", 6), ("f32", 6)):
        k = CpAsyncKernel(element, 16)
        k.issue(0, bytes_read=read)
        k.commit()
        k.wait(0)
        k.barrier()
        k.read(0)
        src, out = _run(k.build(), element, 16, 1, src_len=BLOCK * _per(element, 16))
        rows = src.view(np.uint8).reshape(BLOCK, 16).copy()
        rows[:, read:] = 0
        np.testing.assert_array_equal(out.view(np.uint8).reshape(BLOCK, 16), rows[::-1])


def test_cp_size_beyond_the_copy_fails() -> None:
    k = CpAsyncKernel("f16", 8)
    k.issue(0, bytes_read=12)
    with pytest.raises(SimulationError, match="cpSize 12 is not in 0 to 8"):
        _run(k.build(), "f16", 8, 1)


def test_unmasked_copy_past_the_array_fails() -> None:
    module = cp_async_module("f16", 16, stages=1, masked=False)
    with pytest.raises(SimulationError, match=r"out-of-bounds cp\.async read of `src`") as e:
        _run(module, "f16", 16, 1, n=8 * 30, src_len=8 * 30)
    assert e.value.op_name == "nvvm.cp.async.shared.global"
    assert e.value.thread == 30


def test_misaligned_shared_address_fails() -> None:
    k = CpAsyncKernel("f16", 16)
    k.issue(0, skew=1)
    with pytest.raises(SimulationError, match="16-byte shared access at address 2 is misaligned"):
        _run(k.build(), "f16", 16, 1)


def test_misaligned_source_fails() -> None:
    """``start`` = 4 f16: 8 bytes into ``src``, not 16-byte aligned."""
    module = cp_async_module("f16", 16, stages=1)
    with pytest.raises(SimulationError, match=r"misaligned cp.async read of `src`: byte offset 8"):
        _run(module, "f16", 16, 1, start=4)


def test_read_before_the_wait_fails() -> None:
    k = CpAsyncKernel("f32", 16)
    k.issue(0)
    k.commit()
    k.barrier()
    k.read(0)
    with pytest.raises(
        SimulationError, match=r"reads staged\[\d+\] while a cp.async copy to it"
    ) as e:
        _run(k.build(), "f32", 16, 1)
    assert e.value.op_name == "memref.load"


def test_wait_completes_only_the_older_groups() -> None:
    """``wait.group 1`` with two groups pending lands the first: its slot reads fine, the second
    is still in flight."""
    k = CpAsyncKernel("f16", 16, slots=2)
    for s in (0, 1):
        k.issue(s)
        k.commit()
    k.wait(1)
    k.barrier()
    k.read(0)
    k.read(1)
    with pytest.raises(SimulationError, match=r"reads staged\[(\d+)\] while") as e:
        _run(k.build(), "f16", 16, 2)
    found = re.search(r"staged\[(\d+)\]", e.value.message)
    assert found is not None and int(found[1]) >= BLOCK * 8  # slot 1, not slot 0


def test_wait_with_too_many_pending_lands_nothing() -> None:
    k = CpAsyncKernel("f16", 16)
    k.issue(0)
    k.commit()
    k.wait(1)
    k.barrier()
    k.read(0)
    with pytest.raises(SimulationError, match=r"while a cp\.async copy to it"):
        _run(k.build(), "f16", 16, 1)


def test_waits_with_nothing_pending_are_fine() -> None:
    k = CpAsyncKernel("f16", 16)
    k.wait(0)
    k.wait(3)
    k.commit()  # an empty group
    k.issue(0)
    k.commit()
    k.wait(0)
    k.wait(0)
    k.barrier()
    k.read(0)
    src, out = _run(k.build(), "f16", 16, 1)
    np.testing.assert_array_equal(out, cp_async_reference(src, src.size, 0, 16, stages=1))


def test_uncommitted_copies_are_not_waited_for() -> None:
    k = CpAsyncKernel("f16", 16)
    k.issue(0)
    k.wait(0)
    k.barrier()
    k.read(0)
    with pytest.raises(SimulationError, match=r"while a cp\.async copy to it"):
        _run(k.build(), "f16", 16, 1)


def test_missing_barrier_after_the_wait_is_a_race() -> None:
    """The copy lands as the issuing thread's store: another thread must not read it before a
    barrier."""
    k = CpAsyncKernel("f16", 16)
    k.issue(0)
    k.commit()
    k.wait(0)
    k.read(0)
    with pytest.raises(SimulationError, match=r"data race: reads staged\[\d+\] written by thread"):
        _run(k.build(), "f16", 16, 1)


def test_copy_never_waited_for_fails_at_the_end() -> None:
    k = CpAsyncKernel("f16", 16)
    k.issue(0)
    k.commit()
    with pytest.raises(SimulationError, match=r"ends before an nvvm\.cp\.async\.wait\.group") as e:
        _run(k.build(), "f16", 16, 1)
    assert e.value.op_name == "nvvm.cp.async.shared.global"
    assert e.value.loc is not None and e.value.loc.line == 82


def test_copy_never_committed_fails_at_the_end() -> None:
    k = CpAsyncKernel("f16", 16)
    k.issue(0)
    with pytest.raises(SimulationError, match="never committed"):
        _run(k.build(), "f16", 16, 1)


def test_copy_into_a_slot_in_flight_fails() -> None:
    """A pipeline reusing a slot before the wait for its previous copy."""
    k = CpAsyncKernel("f16", 16)
    k.issue(0)
    k.commit()
    k.issue(0)
    with pytest.raises(
        SimulationError,
        match=r"copies to staged\[\d+\] while a cp.async copy to it by thread \d+ is in flight",
    ):
        _run(k.build(), "f16", 16, 1)


def test_copy_over_elements_others_read_needs_a_barrier() -> None:
    """Slot 0 read by every thread, then refilled without a barrier: the copy may land before
    another thread's read."""
    k = CpAsyncKernel("f16", 16)
    k.issue(0)
    k.commit()
    k.wait(0)
    k.barrier()
    k.read(0)
    k.issue(0, from_slot=1)  # other data (the same data again would change nothing)
    k.commit()
    k.wait(0)
    with pytest.raises(SimulationError, match="data race: overwrites staged") as e:
        _run(k.build(), "f16", 16, 1, src_len=2 * BLOCK * 8)
    assert e.value.op_name == "nvvm.cp.async.shared.global"


def test_refill_after_a_barrier_is_fine() -> None:
    k = CpAsyncKernel("f16", 16)
    k.issue(0)
    k.commit()
    k.wait(0)
    k.barrier()
    k.issue(0)
    k.commit()
    k.wait(0)
    k.barrier()
    k.read(0)
    src, out = _run(k.build(), "f16", 16, 1)
    np.testing.assert_array_equal(out, cp_async_reference(src, src.size, 0, 16, stages=1))


def test_several_programs_keep_their_own_groups() -> None:
    """Programs of one batch have their own shared memory and copies."""
    module = cp_async_module("f32", 16, stages=2)
    per = _per("f32", 16)
    total = 2 * BLOCK * per
    src = cp_async_inputs("f32", total, np.random.default_rng(5))
    out = np.zeros(total, src.dtype)
    run_lowered(module, (4, 1, 1), [src, out, total, 0])  # every program writes the same out
    np.testing.assert_array_equal(out, cp_async_reference(src, total, 0, 16, stages=2))
