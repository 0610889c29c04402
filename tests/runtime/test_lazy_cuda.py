"""Importing mytriton and defining kernels touch no GPU: CUDA is initialised at the first launch
or device query only. A process that has initialised CUDA cannot use it in children it forks
(torch: "Cannot re-initialize CUDA in forked subprocess"; the CUDA driver: an initialization
error), and Triton's own ``test_debug.py`` runs kernels under ``pytest --forked``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from tests.child_env import child_pythonpath

# Run in a fresh interpreter: records every import of CuPy and every call that initialises
# CUDA in torch (the real torch where installed, else a stand-in module in its place).
_PROBE = textwrap.dedent(
    """
    import json, sys, types

    touched = []

    class CupyImports:
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] == "cupy":
                touched.append("import " + name)
            return None

    sys.meta_path.insert(0, CupyImports())
    try:
        import torch
    except ImportError:
        torch = types.ModuleType("torch")
        torch.cuda = types.ModuleType("torch.cuda")
        torch._C = types.ModuleType("torch._C")
        sys.modules.update({"torch": torch, "torch.cuda": torch.cuda, "torch._C": torch._C})

    def recorder(where, name):
        def record(*args, **kwargs):
            touched.append(f"{where}.{name}")
            raise RuntimeError("CUDA touched")
        return record

    for name in ("_lazy_init", "init", "is_available", "device_count", "current_device",
                 "set_device", "get_device_capability", "get_device_properties",
                 "current_stream", "synchronize"):
        setattr(torch.cuda, name, recorder("torch.cuda", name))
    for name in ("_cuda_getDeviceCount", "_cuda_init"):
        setattr(torch._C, name, recorder("torch._C", name))

    import numpy as np
    import mytriton as triton
    import mytriton.language as tl
    import mytriton.knobs
    import mytriton.testing
    from mytriton.language.extra import cuda as tl_cuda
    from mytriton.runtime import driver

    active = driver.active  # made, not asked anything

    @triton.jit
    def kernel(x, N: tl.constexpr):
        tl.store(x + tl.arange(0, N), tl.load(x + tl.arange(0, N)) + 1)

    @triton.autotune(configs=[triton.Config({"N": 16}), triton.Config({"N": 32})], key=[])
    @triton.jit
    def tuned(x, N: tl.constexpr):
        tl.store(x + tl.arange(0, N), 0)

    @triton.heuristics({"N": lambda args: 16})
    @triton.jit
    def guessed(x, N: tl.constexpr):
        tl.store(x + tl.arange(0, N), 0)

    wrapped = triton.reinterpret(np.zeros(4, np.float32), tl.int32)
    repr(kernel), kernel.fn, tuned.configs, mytriton.knobs.runtime.interpret
    print(json.dumps(touched))
    """
)


def test_import_and_kernel_definitions_initialise_no_cuda(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": child_pythonpath(str(root))}
    for var in ("MYTRITON_BACKEND", "MYTRITON_INTERPRET", "TRITON_INTERPRET"):
        env.pop(var, None)  # the default backend: cuda
    out = subprocess.run(
        [sys.executable, "-c", _PROBE],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        check=True,
        timeout=120,
    )
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []
