"""``triton.backends.driver``: ``DriverBase`` and ``GPUDriver`` (``mytriton/compat/target.py``)."""

from __future__ import annotations

from mytriton.compat.target import DriverBase, GPUDriver

__all__ = ["DriverBase", "GPUDriver"]
