"""``triton.set_allocator`` records the allocator; setting it allocates nothing (kernels that
write tensor maps call it at launch: ``tests/execution/test_device_tma.py``)."""

from __future__ import annotations

import pytest

import mytriton as triton
from mytriton.runtime import _allocation


def test_set_allocator_records_the_allocator() -> None:
    calls: list[tuple[int, int, int | None]] = []

    def alloc(size: int, alignment: int, stream: int | None) -> bytearray:
        calls.append((size, alignment, stream))
        return bytearray(size)

    token = _allocation._allocator.set(_allocation._NULL_ALLOCATOR)
    try:
        triton.set_allocator(alloc)
        assert _allocation._allocator.get() is alloc
        triton.set_allocator(_allocation.NullAllocator())
        with pytest.raises(RuntimeError, match="set_allocator"):
            _allocation._allocator.get()(16, 16, None)
    finally:
        _allocation._allocator.reset(token)
    assert calls == []
