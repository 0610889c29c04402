"""``tl.extra``: ``libdevice`` (CUDA's math library, as ``tl.extra.libdevice`` and
``tl.extra.cuda.libdevice``: two modules holding the same function objects)."""

from __future__ import annotations

from mytriton.language.extra import cuda, libdevice

__all__ = ["cuda", "libdevice"]
