"""ptxas, run on PTX to make a cubin: both GPU backends' ``cubin`` stage where a toolkit has it.

The cuda backend used to leave PTX to the driver's JIT compiler. On the H200 the JIT made
slower code of the same PTX than the toolkit's ptxas of the same CUDA release: more registers,
and every ``wgmma.mma_async`` waited for before the next one was issued (the attention
benchmark's loop, `issues` 12). Triton runs ptxas too.
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from pathlib import Path

from mytriton.errors import BackendError

_TARGET_RE = re.compile(r"^\s*\.target\s+(sm_\w+)", re.M)


def ptx_target(ptx: str) -> str | None:
    """The ``.target`` chip of ``ptx`` (``sm_90a``), or None where it names none."""
    found = _TARGET_RE.search(ptx)
    return found.group(1) if found else None


def run_ptxas(ptxas: Path, ptx: str, chip: str, kernel: str) -> bytes:
    """The cubin ``ptxas`` makes of ``ptx`` for ``chip``; a ``BackendError`` with its log if it
    rejects the PTX."""
    with tempfile.TemporaryDirectory(prefix="mytriton-ptxas-") as tmp:
        src, out = Path(tmp) / f"{kernel}.ptx", Path(tmp) / f"{kernel}.cubin"
        src.write_text(ptx)
        done = subprocess.run(
            [str(ptxas), f"-arch={chip}", str(src), "-o", str(out)],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise BackendError(
                f"ptxas failed on kernel `{kernel}` for {chip}:\n{done.stderr or done.stdout}"
            )
        return out.read_bytes()
