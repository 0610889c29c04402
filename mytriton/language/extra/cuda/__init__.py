"""``tl.extra.cuda``: the CUDA-specific extras (``libdevice``)."""

from __future__ import annotations

from mytriton.language.extra.cuda import libdevice

__all__ = ["libdevice"]
