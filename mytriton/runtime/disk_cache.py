"""The on-disk compile cache: a new process gets a kernel compiled by an earlier one from disk.

Where: ``$MYTRITON_CACHE_DIR`` (or Triton's ``$TRITON_CACHE_DIR``), else
``$XDG_CACHE_HOME/mytriton``, else ``~/.cache/mytriton``. ``MYTRITON_ALWAYS_COMPILE=1`` (or
``TRITON_ALWAYS_COMPILE=1``) bypasses it, and so do stage dumps and overrides (they need the
stages to run).

The key (sha256), computed before compiling: mytriton's version and the sha256 of its own
source files, xDSL's version; the kernel's file, line and source and, found by scanning the
AST (``dependencies.py``), every ``@jit`` function it calls (recursively) and every global
value it reads; the specialization key, launch options and pass pipeline; the backend's name
and what it says decides its output (``Backend.cache_identity``: toolkit versions, target
architecture). Only backends that give an identity are cached: cuda and mlir. The interpreter
and gpusim execute a parsed module, which costs as much to rebuild from text as to compile.
A pipeline naming a plugin pass is not cached either (the plugin's code is not in the key).

The dependencies are found by a pre-scan of the AST (as Triton's dependency finder does)
rather than recorded while compiling and validated on load: the key must exist before
compiling, and a scan costs about a millisecond; a dependency it cannot describe stably only
means that kernel is compiled as before.

An entry is one file ``<key[:2]>/<key>.kernel``: a header with the sha256 of the body, then a
JSON body with every stage's text (binary stages in base64), the metadata, and what launching needs
(the kernel's ABI signature), so a hit parses no IR and runs no pass. Writes go to a temporary
file in the same folder, fsynced, then ``os.replace``d: concurrent processes each write a
whole entry and the last one wins. An entry that does not check out (truncated, edited) is
reported once with a ``CacheEntryWarning`` and rebuilt.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import hashlib
import json
import os
import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mytriton.backends import Backend, LaunchOptions
from mytriton.backends.compiled import CompiledKernel, KernelMetadata
from mytriton.errors import CacheEntryWarning
from mytriton.knobs import env_flag
from mytriton.runtime.dependencies import Unstable, fingerprint, stable_text
from mytriton.version import PACKAGE_DIR, __version__

FORMAT = 1
MAGIC = f"mytriton-cache-entry {FORMAT}\n".encode()
SUFFIX = ".kernel"


def cache_dir() -> Path:
    """The cache folder the environment selects now."""
    for var in ("MYTRITON_CACHE_DIR", "TRITON_CACHE_DIR"):
        value = os.environ.get(var, "")
        if value:
            return Path(value)
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "mytriton"


def bypassed() -> bool:
    """Whether compiles skip the disk cache: always-compile, or dumps/overrides/printing on
    (those need every stage to run)."""
    return env_flag(
        "MYTRITON_ALWAYS_COMPILE",
        "TRITON_ALWAYS_COMPILE",
        "MYTRITON_KERNEL_DUMP",
        "TRITON_KERNEL_DUMP",
        "MYTRITON_KERNEL_OVERRIDE",
        "TRITON_KERNEL_OVERRIDE",
        "MYTRITON_DUMP",
    )


@dataclass
class CacheStats:
    """What this process's disk cache did (for tests and measurements)."""

    hits: int = 0
    misses: int = 0
    stores: int = 0
    rejected: int = 0  # entries that did not check out


stats = CacheStats()
_reported: set[str] = set()  # entries and folders already warned about


@functools.cache
def compiler_identity() -> str:
    """mytriton's version, the sha256 of its source files, xDSL's version, Python's."""
    return source_identity(PACKAGE_DIR, f"mytriton {__version__}")


def source_identity(root: Path, name: str) -> str:
    """``name``, the sha256 of the sources under ``root``, xDSL's version and Python's.

    Reading ~200 files and xDSL's package metadata costs more than a warm process may spend
    getting a kernel from disk, so the identity is kept in the cache directory under a hash of
    the files' names, sizes and modification times (and of xDSL's installed files and
    Python's version), and recomputed only when one of those changes."""
    import xdsl

    files = _source_files(str(root))
    stamp = hashlib.sha256(f"{name} {sys.version} {xdsl.__file__}\0".encode())
    for path in [*files, xdsl.__file__]:
        st = os.stat(path)
        stamp.update(f"{path} {st.st_size} {st.st_mtime_ns}\0".encode())
    memo = cache_dir() / "identity" / stamp.hexdigest()
    try:
        identity = memo.read_text()
        if identity.startswith(name + " "):
            return identity
    except OSError:
        pass
    h = hashlib.sha256()
    for path in files:
        h.update(Path(path).relative_to(root).as_posix().encode() + b"\0")
        h.update(Path(path).read_bytes() + b"\0")
    xdsl_version = getattr(xdsl, "__version__", "?")
    python = ".".join(map(str, sys.version_info[:2]))
    identity = f"{name} {h.hexdigest()} xdsl {xdsl_version} python {python}"
    with contextlib.suppress(OSError):  # a read-only cache: recomputed in each process
        _write_atomically(memo, identity.encode())
    return identity


def _source_files(root: str) -> list[str]:
    """mytriton's Python and C sources, in a stable order (plain strings: this runs in every
    process that reads the disk cache)."""
    found = []
    for folder, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        found += [os.path.join(folder, n) for n in names if n.endswith((".py", ".c"))]
    return sorted(found)


def entry_key(
    fn: Callable[..., Any], backend: Backend, options: LaunchOptions, key: Any
) -> str | None:
    """The entry's sha256, or None when this compile is not cached on disk."""
    try:
        identity = backend.cache_identity()
        if identity is None or not builtin_pipeline():
            return None
        parts = [
            f"format {FORMAT}",
            compiler_identity(),
            f"kernel {fingerprint(fn)}",
            f"key {stable_text(key)}",
            f"options {stable_text(options)}",
            f"backend {backend.name}: {identity}",
        ]
    except Unstable:
        return None
    except Exception:  # a toolchain probe failing: the compile itself says what is wrong
        return None
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def builtin_pipeline() -> bool:
    """Whether the `tt` pipeline runs mytriton's own passes only: a plugin pass's code is not
    part of the key, so a pipeline naming one is not cached on disk."""
    from xdsl.utils.arg_spec import parse_pipeline
    from xdsl.utils.exceptions import ArgSpecParseError

    from mytriton.passes.pipeline import pipeline_spec
    from mytriton.passes.registry import builtin_passes

    builtin = builtin_passes()
    try:
        return all(p.name in builtin for p in parse_pipeline(pipeline_spec()))
    except ArgSpecParseError:  # a BaseException in xDSL 0.74; the compile reports it
        return False


@dataclass(frozen=True)
class CacheEntry:
    """One kernel's entry: ``load`` it (None on a miss), ``store`` a freshly compiled one."""

    key: str
    path: Path

    def load(self) -> CompiledKernel | None:
        try:
            data = self._read()
        except FileNotFoundError:
            stats.misses += 1
            return None
        except OSError as e:
            self._reject(f"cannot be read ({e})")
            return None
        try:
            kernel = _decode(data, self.key)
        except (ValueError, KeyError, TypeError, AttributeError) as e:
            self._reject(f"is damaged ({e})")
            return None
        if kernel is None:  # a valid entry this process cannot use (another format)
            stats.misses += 1
            return None
        stats.hits += 1
        return kernel

    def store(self, kernel: CompiledKernel) -> None:
        body = _encode(kernel, self.key)
        if body is None:
            return
        try:
            self._write(MAGIC + hashlib.sha256(body).hexdigest().encode() + b"\n" + body)
        except OSError as e:
            _warn_once(
                str(self.path.parent), f"cannot write the compile cache in {self.path.parent}: {e}"
            )
            return
        stats.stores += 1

    def _reject(self, why: str) -> None:
        stats.rejected += 1
        _warn_once(str(self.path), f"compile cache entry {self.path} {why}; compiling again")

    def _read(self) -> bytes:
        return self.path.read_bytes()

    def _write(self, data: bytes) -> None:
        _write_atomically(self.path, data)


@dataclass(frozen=True)
class ManagedCacheEntry(CacheEntry):
    """An entry stored through the ``CacheManager`` class ``knobs.cache.manager_class`` names
    (Triton's ``TRITON_CACHE_MANAGER``), as Triton stores its own: ``path`` is the file's
    name in the manager's folder for the key."""

    def _read(self) -> bytes:
        from mytriton.compat.cache_manager import get_cache_manager

        found = get_cache_manager(self.key).get_file(self.path.name)
        if found is None:
            raise FileNotFoundError(self.path.name)
        return Path(found).read_bytes()

    def _write(self, data: bytes) -> None:
        from mytriton.compat.cache_manager import get_cache_manager

        get_cache_manager(self.key).put(data, self.path.name, binary=True)


def entry_for(
    fn: Callable[..., Any], backend: Backend, options: LaunchOptions, key: Any
) -> CacheEntry | None:
    """The disk cache entry of this compile, or None when it is not cached on disk."""
    if key is None or bypassed():
        return None
    k = entry_key(fn, backend, options, key)
    if k is None:
        return None
    if os.environ.get("TRITON_CACHE_MANAGER"):
        return ManagedCacheEntry(k, Path(f"{k}{SUFFIX}"))
    return CacheEntry(k, cache_dir() / k[:2] / f"{k}{SUFFIX}")


def _warn_once(what: str, message: str) -> None:
    if what in _reported:
        return
    _reported.add(what)
    warnings.warn(message, CacheEntryWarning, stacklevel=4)


# ---- the entry format ----


def _encode(kernel: CompiledKernel, key: str) -> bytes | None:
    """The JSON body of ``kernel``'s entry, or None when it cannot be rebuilt from one."""
    body = kernel_body(kernel)
    if body is None:
        return None
    try:
        return json.dumps({"key": key, **body}).encode()
    except (TypeError, ValueError):  # metadata that JSON cannot hold
        return None


def kernel_body(kernel: CompiledKernel) -> dict[str, Any] | None:
    """What rebuilds ``kernel`` (``fill_kernel``): every stage's text, the metadata and the
    launch ABI, as JSON values; None where it has a binary this format cannot hold. The disk
    cache stores it, and a parallel-compile worker sends it back (``parallel_compile.py``)."""
    from mytriton.backends.nvidia.cuda_driver import DeviceKernel

    device: dict[str, Any] | None = None
    if isinstance(kernel.binary, DeviceKernel):
        sig = kernel.binary.signature
        device = {
            "name": sig.name,
            "params": list(sig.params),
            "block": list(sig.block),
            "shared": sig.shared,
            "has_assertions": kernel.binary.has_assertions,
        }
    elif kernel.binary is not None:  # a backend artifact we do not know how to rebuild
        return None
    asm: dict[str, Any] = {}
    for stage, text in kernel.asm.items():
        if isinstance(text, bytes):
            asm[stage] = {"base64": base64.b64encode(text).decode()}
        elif isinstance(text, str):
            asm[stage] = text
        else:
            return None
    return {
        "name": kernel.name,
        "backend": kernel.backend,
        "hash": kernel.hash,
        "asm": asm,
        "metadata": dict(kernel.metadata),
        "device": device,
    }


def _decode(data: bytes, key: str) -> CompiledKernel | None:
    """The kernel of an entry's bytes (ValueError & co. when they do not check out)."""
    if not data.startswith(MAGIC):
        if data.startswith(b"mytriton-cache-entry "):
            return None
        raise ValueError("not a mytriton cache entry")
    rest = data[len(MAGIC) :]
    checksum, newline, body = rest.partition(b"\n")
    if not newline or hashlib.sha256(body).hexdigest().encode() != checksum:
        raise ValueError("checksum mismatch: truncated or modified")
    entry = json.loads(body)
    if entry["key"] != key:
        raise ValueError("it holds another kernel")
    kernel = CompiledKernel(name=entry["name"], backend=entry["backend"], hash=entry["hash"])
    fill_kernel(kernel, entry)
    return kernel


def fill_kernel(kernel: CompiledKernel, body: dict[str, Any]) -> None:
    """Give ``kernel`` the stages, metadata and binary of ``kernel_body``'s ``body``."""
    for stage, text in body["asm"].items():
        kernel.asm[stage] = base64.b64decode(text["base64"]) if isinstance(text, dict) else text
    kernel.metadata = KernelMetadata(body["metadata"])
    device = body["device"]
    if device is not None:
        from mytriton.backends.nvidia.cuda_driver import attach_device_kernel
        from mytriton.kernel_signature import KernelSignature

        signature = KernelSignature(
            device["name"],
            tuple(device["params"]),
            tuple(device["block"]),
            int(device.get("shared", 0)),  # entries written before dynamic shared memory: 0
        )
        attach_device_kernel(
            kernel,
            kernel.asm.get("cubin"),
            kernel.asm.get("ptx"),
            signature,
            bool(device["has_assertions"]),
        )


def _write_atomically(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    import tempfile  # writes only: its import costs a warm process's read a few ms

    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
