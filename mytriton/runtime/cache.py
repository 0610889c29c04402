"""``triton.runtime.cache``: ``triton_key``, ``_base64``, ``_base32``, ``knobs``
(``mytriton/compat/cache.py``) and the cache managers (``mytriton/compat/cache_manager.py``).
mytriton's own disk cache is ``runtime/disk_cache.py``."""

from __future__ import annotations

from mytriton import knobs
from mytriton.compat.cache import _base32, _base64, get_cache_key, triton_key
from mytriton.compat.cache_manager import (
    CacheManager,
    FileCacheManager,
    get_cache_manager,
    get_dump_manager,
    get_override_manager,
)

__all__ = [
    "CacheManager",
    "FileCacheManager",
    "_base32",
    "_base64",
    "get_cache_key",
    "get_cache_manager",
    "get_dump_manager",
    "get_override_manager",
    "knobs",
    "triton_key",
]
