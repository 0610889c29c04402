"""``triton.language.extra.libdevice``: CUDA's libdevice under Triton's backend-neutral module
path. Triton maps this module onto ``triton.language.extra.cuda.libdevice``; here it holds the
very same function objects, so a kernel may import either."""

from __future__ import annotations

from mytriton.language.extra.cuda.libdevice import *  # noqa: F403
from mytriton.language.extra.cuda.libdevice import __all__ as __all__
