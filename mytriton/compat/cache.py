"""What Triton's ``triton.runtime.cache`` offers callers outside Triton: the compiler's
identity (``triton_key``) and the encodings of hashes in cache paths (``_base64``,
``_base32``). mytriton's own disk cache is ``runtime/disk_cache.py``."""

from __future__ import annotations

import base64

from mytriton.compat.compiler import get_cache_key, triton_key

__all__ = ["_base32", "_base64", "get_cache_key", "triton_key"]


def _base64(key: str) -> str:
    """A hex digest as unpadded URL-safe base64 (a shorter folder name)."""
    return base64.urlsafe_b64encode(bytes.fromhex(key)).decode("ascii").rstrip("=")


def _base32(key: str) -> str:
    """A hex digest as unpadded base32 (for case-insensitive file systems)."""
    return base64.b32encode(bytes.fromhex(key)).decode("ascii").rstrip("=")
