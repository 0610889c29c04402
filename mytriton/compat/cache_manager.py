"""Triton's cache-manager API (``triton.runtime.cache.CacheManager`` and friends).

Libraries subclass ``FileCacheManager`` and name their class in ``TRITON_CACHE_MANAGER``
(Liger-Kernel's ``apply_liger_triton_cache_manager`` does, to write entries through a private
temporary folder). mytriton's disk cache (``runtime/disk_cache.py``) keeps its own layout
unless such a class is named; then every entry is stored and found through it, so the
library's manager really is the one that writes.

A manager is made per key and keeps that key's files in one folder, as Triton's does:
``knobs.cache.dir/<key>`` (``dump_dir`` or ``override_dir`` for the dump and override
managers).
"""

from __future__ import annotations

import json
import os
import uuid
from abc import ABC, abstractmethod

from mytriton import knobs
from mytriton.compat.cache import _base32

__all__ = [
    "CacheManager",
    "FileCacheManager",
    "get_cache_manager",
    "get_dump_manager",
    "get_override_manager",
]

_GROUP_PREFIX = "__grp__"


class CacheManager(ABC):
    """Stores files of one cache key; ``get_file`` gives a stored file's path or None."""

    def __init__(self, key: str, override: bool = False, dump: bool = False) -> None:  # noqa: B027
        """Subclasses take Triton's arguments: the key, and whether it is for overrides or dumps."""

    @abstractmethod
    def get_file(self, filename: str) -> str | None: ...

    @abstractmethod
    def put(self, data: bytes | str, filename: str, binary: bool = True) -> str: ...

    @abstractmethod
    def get_group(self, filename: str) -> dict[str, str] | None: ...

    @abstractmethod
    def put_group(self, filename: str, group: dict[str, str]) -> str | None: ...


class FileCacheManager(CacheManager):
    """One folder per key; ``put`` writes through a temporary folder and renames, so a
    reader never sees half a file."""

    def __init__(self, key: str, override: bool = False, dump: bool = False) -> None:
        self.key = key
        self.lock_path: str | None = None
        if dump:
            self.cache_dir = os.path.join(knobs.cache.dump_dir, key)
        elif override:
            self.cache_dir = os.path.join(knobs.cache.override_dir, key)
            return  # read-only: an override folder is the user's
        else:
            root = knobs.cache.dir
            if not root:
                raise RuntimeError("Could not create or locate cache dir")
            self.cache_dir = os.path.join(root, key)
        self.lock_path = os.path.join(self.cache_dir, "lock")
        os.makedirs(self.cache_dir, exist_ok=True)

    def _make_path(self, filename: str) -> str:
        return os.path.join(self.cache_dir, filename)

    def has_file(self, filename: str) -> bool:
        return os.path.exists(self._make_path(filename))

    def get_file(self, filename: str) -> str | None:
        return self._make_path(filename) if self.has_file(filename) else None

    def get_group(self, filename: str) -> dict[str, str] | None:
        path = self.get_file(_GROUP_PREFIX + filename)
        if path is None:
            return None
        with open(path) as f:
            children = json.load(f).get("child_paths")
        if children is None:
            return None
        return {name: p for name, p in children.items() if os.path.exists(p)}

    def put_group(self, filename: str, group: dict[str, str]) -> str:
        return self.put(json.dumps({"child_paths": group}), _GROUP_PREFIX + filename)

    def put(self, data: bytes | str, filename: str, binary: bool = True) -> str:
        if self.lock_path is None:
            raise RuntimeError(f"the cache folder {self.cache_dir} is read-only")
        binary = isinstance(data, bytes)
        path = self._make_path(filename)
        temp_dir = os.path.join(self.cache_dir, f"tmp.pid_{os.getpid()}_{uuid.uuid4()}")
        os.makedirs(temp_dir, exist_ok=True)
        temp_path = os.path.join(temp_dir, filename)
        if binary:
            with open(temp_path, "wb") as fb:
                fb.write(data)  # type: ignore[arg-type]
        else:
            with open(temp_path, "w") as ft:
                ft.write(str(data))
        os.replace(temp_path, path)
        os.removedirs(temp_dir)
        return path


def _manager_class() -> type[CacheManager]:
    return knobs.cache.manager_class or FileCacheManager


def get_cache_manager(key: str) -> CacheManager:
    """The manager of the cache entry ``key`` (a hex digest), of ``knobs.cache.manager_class``."""
    return _manager_class()(_base32(key))


def get_override_manager(key: str) -> CacheManager:
    return _manager_class()(_base32(key), override=True)


def get_dump_manager(key: str) -> CacheManager:
    return _manager_class()(_base32(key), dump=True)
