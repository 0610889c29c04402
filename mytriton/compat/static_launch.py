"""TorchInductor's static CUDA launcher for kernels compiled through ``triton.compile``.

Inductor launches a Triton kernel without Triton's launcher when it can: it finds the kernel's
cubin at ``$TRITON_CACHE_DIR/<key>/<kernel name>.cubin`` (the key: the kernel's hash as
``triton.runtime.cache`` encodes it for paths), loads it with torch's own C++ loader, and
launches it with ``32 * num_warps`` threads, ``metadata.shared`` bytes of dynamic shared memory
and one value per parameter that is not a constant, each converted to the C type its Triton
type names (``"*fp32"`` a pointer, ``"i32"`` an int, ``"fp16"`` a float...). Per call that
costs a few microseconds where ``CompiledKernel.run`` costs tens (it describes every array).

mytriton puts the cubin there only where that launch is exactly the one its own launcher does:
a GPU kernel from a cubin whose entry is the kernel's name, with ``32 * num_warps`` threads in
one dimension, the dynamic shared memory ``metadata.shared`` says, no scratch buffer, no
cooperative grid or cluster, and a parameter list that Inductor's conversion fills with values
of the same width and kind (``KernelSignature.params``); a kernel with, say, an ``i8`` scalar
(one byte to Inductor, four to mytriton's ABI) is left to ``run``. Without the file, Inductor
says it bypasses the static launcher and calls ``run``.

Opt-in (``MYTRITON_STATIC_LAUNCH=1``) until it has run on a GPU under TorchInductor.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from mytriton.kernel_signature import KernelSignature

#: the ABI kind (``KernelSignature.params``) a value of each Triton scalar type fills when the
#: static launcher converts it: its C type's width and kind; absent: a C type no kind matches
#: (``i8``, ``i16``, ``u8``, ``u16`` are passed as one or two bytes, the ABI takes four)
_STATIC_KINDS = {
    "i1": "i32",
    "i32": "i32",
    "u1": "i32",
    "u32": "i32",
    "i64": "i64",
    "u64": "i64",
    "fp16": "f32",
    "bf16": "f32",
    "fp32": "f32",
    "f32": "f32",
    "fp64": "f64",
}


def static_launch_enabled() -> bool:
    """Whether ``triton.compile`` puts cubins where Inductor's static launcher finds them."""
    return os.environ.get("MYTRITON_STATIC_LAUNCH", "") not in ("", "0")


def static_param_kinds(src: Any) -> list[str | None]:
    """The ABI kind each value the static launcher passes fills (None: no kind), in order:
    the parameters that are neither constants nor ``constexpr``-typed."""
    names = list(src.fn.arg_names)
    constants = {key[0] if isinstance(key, tuple) else key for key in src.constants}
    kinds: list[str | None] = []
    for i, name in enumerate(names):
        ty = src.signature.get(name)
        if i in constants or name in constants or ty == "constexpr":
            continue
        if isinstance(ty, str) and ty.startswith("*"):
            kinds.append("ptr")
        else:
            kinds.append(_STATIC_KINDS.get(ty) if isinstance(ty, str) else None)
    return kinds


def static_launch_blocker(src: Any, metadata: Mapping[str, Any], kernel: Any) -> str | None:
    """Why Inductor's static launch of ``kernel`` (the runtime's compiled kernel, with the
    Triton ``metadata`` of its compile) would not be the launch mytriton does; None: it is."""
    binary = getattr(kernel, "binary", None)
    signature = getattr(binary, "signature", None)
    cubin = kernel.asm.get("cubin") if hasattr(kernel, "asm") else None
    reason: str | None = None
    if not isinstance(signature, KernelSignature) or not isinstance(cubin, bytes):
        reason = "not a GPU kernel compiled to a cubin"
    elif getattr(binary, "image", None) != cubin:
        reason = "the loaded image is not the cubin"
    elif signature.name != getattr(src.fn, "__name__", None):
        reason = f"the entry `{signature.name}` is not the kernel's name"
    elif signature.block != (32 * int(metadata["num_warps"]), 1, 1):
        reason = f"a block of {signature.block} threads"
    elif int(metadata.get("shared", 0)) != signature.shared:
        reason = "the dynamic shared memory differs from metadata.shared"
    elif metadata.get("global_scratch_size", 0) or metadata.get("profile_scratch_size", 0):
        reason = "it needs a scratch buffer"
    elif metadata.get("launch_cooperative_grid") or metadata.get("launch_pdl"):
        reason = "a launch attribute"
    elif int(metadata.get("num_ctas", 1)) != 1:
        reason = "num_ctas > 1"
    elif (kinds := static_param_kinds(src)) != list(signature.params):
        reason = f"parameters {kinds} against the ABI's {signature.params}"
    return reason


def cubin_path(hash: str, name: str) -> Path | None:
    """Where Inductor looks for the cubin of the kernel ``name`` of this ``hash``: under
    ``$TRITON_CACHE_DIR`` (Inductor sets it before compiling; None where it is unset)."""
    root = os.environ.get("TRITON_CACHE_DIR")
    if not root:
        return None
    from mytriton.compat.cache import _base64  # (it imports the compiler, which imports this)

    return Path(root) / _base64(hash) / f"{name}.cubin"


def publish_cubin(src: Any, metadata: Mapping[str, Any], kernel: Any, hash: str) -> Path | None:
    """Put ``kernel``'s cubin where Inductor's static launcher finds it, where that launch is
    mytriton's own (``static_launch_blocker``) and ``MYTRITON_STATIC_LAUNCH=1``; the path, or
    None where nothing was written. The file is written whole (a temporary file renamed)."""
    if not static_launch_enabled() or static_launch_blocker(src, metadata, kernel) is not None:
        return None
    path = cubin_path(hash, src.fn.__name__)
    if path is None:
        return None
    cubin: bytes = kernel.asm["cubin"]
    if path.is_file() and path.read_bytes() == cubin:
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".cubin")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(cubin)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path
