"""``import mytriton`` loads no compiler: no xDSL, no dialect, frontend, pass or backend module
(the runtime imports them at the first compile). Tools and subprocesses that only import
mytriton, or only read ``tl``'s names, start in a fraction of the compiler's import time."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_PROBE = """
import json, sys
import mytriton as triton
import mytriton.language as tl
names = (tl.extra.libdevice.hypot, tl.extra.cuda.libdevice.j0, triton.cdiv, tl.constexpr)
print(json.dumps(sorted(sys.modules)))
"""

# the dtype table (tl's dtypes are its rows) and the libdevice table (names and signatures of
# tl.extra.libdevice) live beside the tt dialect; neither imports xDSL until its IR types are used
ALLOWED_DIALECT_MODULES = {
    "mytriton.dialects",
    "mytriton.dialects.tt",
    "mytriton.dialects.tt.dtype_table",
    "mytriton.dialects.tt.libdevice_table",
    "mytriton.dialects.tt.libdevice_semantics",
    "mytriton.dialects.tt.libdevice_bessel",
}
COMPILER_PACKAGES = ("mytriton.frontend", "mytriton.passes", "mytriton.backends")


def test_import_mytriton_loads_no_compiler() -> None:
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    )
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE], capture_output=True, text=True, env=env, cwd=ROOT
    )
    assert proc.returncode == 0, proc.stderr
    modules = json.loads(proc.stdout)
    assert not [m for m in modules if m.split(".")[0] == "xdsl"]
    assert not [m for m in modules if m.startswith(COMPILER_PACKAGES)]
    dialects = {m for m in modules if m.startswith("mytriton.dialects")}
    assert dialects <= ALLOWED_DIALECT_MODULES, sorted(dialects - ALLOWED_DIALECT_MODULES)


_LAUNCH_PROBE = """
import json, sys
import numpy as np
import mytriton as triton
import mytriton.language as tl

@triton.jit
def add_one(x, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x + offs, tl.load(x + offs) + 1)

x = np.zeros(16, np.float32)
add_one[(1,)](x, BLOCK=16)  # compiled
add_one[(1,)](x, BLOCK=16)  # cached
assert (x == 2).all()
print(json.dumps(sorted(sys.modules)))
"""


def test_compiling_and_launching_loads_no_parallel_compile(tmp_path: Path) -> None:
    """The autotuner's parallel compilation (its worker pool, subprocess, pickling) is
    imported by an autotuning only: a compile looks it up in ``sys.modules``."""
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
        MYTRITON_BACKEND="interpreter",
    )
    probe = tmp_path / "probe.py"  # a kernel's source is read from its file
    probe.write_text(_LAUNCH_PROBE)
    proc = subprocess.run(
        [sys.executable, str(probe)], capture_output=True, text=True, env=env, cwd=ROOT
    )
    assert proc.returncode == 0, proc.stderr
    modules = json.loads(proc.stdout.splitlines()[-1])
    assert "mytriton.runtime.compile_on_miss" in modules
    assert "mytriton.runtime.parallel_compile" not in modules


_COMPILE_BF16 = """
import os
import sys
import traceback

PACKAGE = os.environ["MYTRITON_PACKAGE_DIR"] + os.sep
importers = []  # the file of the code whose import statement loaded ml_dtypes


class Watch:
    def find_spec(self, name, path=None, target=None):
        if name == "ml_dtypes":
            frames = [f.filename for f in traceback.extract_stack()[:-1]]
            outside = [f for f in frames if "importlib" not in f and f != __file__]
            importers.append(outside[-1] if outside else "?")
        return None


sys.meta_path.insert(0, Watch())
import mytriton as triton
import mytriton.language as tl
from mytriton.compat.compiler import ASTSource, GPUTarget, compile

@triton.jit
def row_max(X, Y, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < N, other=-float("inf"))
    tl.store(Y, tl.max(x.to(tl.float32), axis=0).to(Y.dtype.element_ty))

@triton.jit
def dot_rows(A, B, C, K, BLOCK: tl.constexpr):
    rows = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK, BLOCK), dtype=tl.float32)
    for k in range(0, K, BLOCK):
        cols = k + rows
        a = tl.load(A + rows[:, None] * K + cols[None, :], mask=cols[None, :] < K, other=0.0)
        b = tl.load(B + cols[:, None] * BLOCK + rows[None, :], mask=cols[:, None] < K, other=0.0)
        acc = tl.dot(a, b, acc)
    tl.store(C + rows[:, None] * BLOCK + rows[None, :], acc.to(tl.bfloat16))

@triton.jit
def dequant(Q, Y, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    q = tl.load(Q + offs, mask=offs < N, other=0.0).to(tl.float32)
    tl.store(Y + offs, q * 2.0, mask=offs < N)

target = GPUTarget("cuda", 90, 32)
for src in (
    ASTSource(row_max, {"X": "*bf16", "Y": "*bf16", "N": "i32", "BLOCK": "constexpr"},
              {(3,): 1024}),
    ASTSource(dot_rows, {"A": "*bf16", "B": "*bf16", "C": "*bf16", "K": "i32",
                         "BLOCK": "constexpr"}, {(4,): 64}),
    ASTSource(dequant, {"Q": "*fp8e4nv", "Y": "*fp32", "N": "i32", "BLOCK": "constexpr"},
              {(3,): 1024}),
):
    kernel = compile(src, target=target)
    assert "cuda" in kernel.asm, sorted(kernel.asm)
# a GPU's toolchain (CuPy's NVRTC) may load ml_dtypes itself: only mytriton's imports count
print(any(f.startswith(PACKAGE) for f in importers), importers)
"""


def test_compiling_bf16_and_fp8_kernels_loads_no_ml_dtypes(tmp_path: Path) -> None:
    """Folding a bf16 load's ``other=-inf`` or an fp8 load's ``other=0.0``, and testing a
    pipelined bf16 dot operand's ``other=0.0``, loaded ml_dtypes, whose import takes longer than such a kernel's whole
    compile (up to a second on a busy 2-core machine); Triton has none."""
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
        MYTRITON_CACHE_DIR=str(tmp_path / "cache"),
        MYTRITON_BACKEND="cuda",
        MYTRITON_PACKAGE_DIR=str(ROOT / "mytriton"),
    )
    script = tmp_path / "row_max.py"  # a kernel's source is read from its file
    script.write_text(_COMPILE_BF16)
    proc = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=env, cwd=ROOT
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1].startswith("False"), proc.stdout
