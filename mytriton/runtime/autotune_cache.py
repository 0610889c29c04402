"""The autotuner's disk cache (``autotune(..., cache_results=True)``): one small JSON file per
tuning, named by a hash of the kernel source, the tuning key, the configs and the device.

Files live under ``autotune/`` in the kernel cache's folder (``disk_cache.cache_dir``:
``$MYTRITON_CACHE_DIR``, ``$TRITON_CACHE_DIR``, else ``~/.cache/mytriton``). A file that cannot
be read is a miss.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from mytriton.version import __version__


def cache_dir() -> Path:
    """Where the autotuner's results are stored."""
    from mytriton.runtime import disk_cache

    return disk_cache.cache_dir() / "autotune"


def cache_path(kernel_name: str, parts: list[str]) -> Path:
    """The file for one tuning: ``parts`` (source hash, key, configs, device...) name it."""
    digest = hashlib.sha256("\0".join([__version__, *parts]).encode("utf-8")).hexdigest()
    return cache_dir() / f"{kernel_name[:100]}-{digest[:32]}.autotune.json"


def load(path: Path) -> dict[str, Any] | None:
    """The stored tuning at ``path``, or None (missing or unreadable)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def store(path: Path, data: dict[str, Any]) -> None:
    """Write ``data`` atomically (another process may read the same file)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f)
        os.replace(tmp, path)
    except OSError:
        pass  # a cache that cannot be written only costs a re-tuning
