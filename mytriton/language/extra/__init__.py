"""``tl.extra``: ``libdevice`` (CUDA's math library, as ``tl.extra.libdevice`` and
``tl.extra.cuda.libdevice``)."""

from __future__ import annotations

from mytriton.language.extra import cuda
from mytriton.language.extra.cuda import libdevice

__all__ = ["cuda", "libdevice"]
