"""``triton.runtime.cache``: ``triton_key``, ``_base64``, ``_base32``, ``knobs``
(``mytriton/compat/cache.py``). mytriton's own disk cache is ``runtime/disk_cache.py``."""

from __future__ import annotations

from mytriton import knobs
from mytriton.compat.cache import _base32, _base64, get_cache_key, triton_key

__all__ = ["_base32", "_base64", "get_cache_key", "knobs", "triton_key"]
