"""Triton's cache-manager API (``triton.runtime.cache``): ``FileCacheManager`` stores files per
key, and a subclass named in ``TRITON_CACHE_MANAGER`` (as Liger-Kernel's
``apply_liger_triton_cache_manager`` names its own) stores the disk cache's entries."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mytriton import knobs
from mytriton.compat.cache import _base32
from mytriton.runtime import cache as runtime_cache
from mytriton.runtime import disk_cache
from tests.runtime.test_disk_cache import cache, compile_offset, entries, no_compiling
from tests.runtime.test_disk_cache import offset_kernel as offset_kernel

__all__ = ["cache"]  # the fixture, used by name

KEY = "ab" * 32


class RecordingManager(runtime_cache.FileCacheManager):
    """A library's manager: records each file it writes, then writes as its base does."""

    written: list[str] = []

    def put(self, data: bytes | str, filename: str, binary: bool = True) -> str:
        RecordingManager.written.append(filename)
        return super().put(data, filename, binary)


def test_file_manager_puts_gets_and_groups(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("MYTRITON_CACHE_DIR", raising=False)
    manager = runtime_cache.get_cache_manager(KEY)
    assert isinstance(manager, runtime_cache.FileCacheManager)
    assert manager.cache_dir == str(tmp_path / _base32(KEY))
    assert manager.get_file("k.json") is None
    path = manager.put(json.dumps({"a": 1}), "k.json")
    blob = manager.put(b"\x00\x01", "k.bin")
    assert manager.get_file("k.json") == path and json.loads(Path(path).read_text()) == {"a": 1}
    assert Path(blob).read_bytes() == b"\x00\x01"
    manager.put_group("k.json", {"k.json": path, "k.bin": blob, "gone": str(tmp_path / "x")})
    assert manager.get_group("k.json") == {"k.json": path, "k.bin": blob}
    assert manager.get_group("other") is None
    # no temporary folders are left behind
    assert sorted(p.name for p in Path(manager.cache_dir).iterdir()) == [
        "__grp__k.json",
        "k.bin",
        "k.json",
    ]


def test_override_manager_is_read_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("TRITON_OVERRIDE_DIR", str(tmp_path))
    manager = runtime_cache.get_override_manager(KEY)
    assert manager.get_file("k.ptx") is None
    with pytest.raises(RuntimeError, match="read-only"):
        manager.put("x", "k.ptx")


def test_manager_class_knob_names_a_class(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TRITON_CACHE_MANAGER", raising=False)
    assert knobs.cache.manager_class is None
    with knobs.cache.scope():
        knobs.cache.manager_class = RecordingManager
        assert knobs.cache.manager_class is RecordingManager
        assert isinstance(runtime_cache.get_cache_manager(KEY), RecordingManager)
    monkeypatch.setenv("TRITON_CACHE_MANAGER", "no_colon_here")
    with pytest.raises(ValueError, match=r"module\.path:ClassName"):
        _ = knobs.cache.manager_class  # reading parses it


def test_named_manager_stores_the_disk_cache(cache: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("TRITON_CACHE_MANAGER", f"{__name__}:RecordingManager")
    monkeypatch.setattr(RecordingManager, "written", [])
    first = compile_offset()
    [name] = RecordingManager.written
    assert name.endswith(disk_cache.SUFFIX)
    # the manager's layout (a folder per key), not mytriton's own
    [entry] = entries(cache)
    assert entry.name == name and entry.parent.name == _base32(name.removesuffix(disk_cache.SUFFIX))
    offset_kernel.clear_cache()
    no_compiling(monkeypatch)
    again = compile_offset()
    assert disk_cache.stats.hits == 1 and again.asm == first.asm
    assert RecordingManager.written == [name]  # a hit writes nothing
