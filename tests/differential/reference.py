"""Runs a batch of generated kernels under REAL Triton, in its own Python process.

    python reference.py BATCH.pkl RESULTS.pkl interpreter|compiled

``interpreter`` sets ``TRITON_INTERPRET=1`` before importing Triton and launches on torch CPU
tensors; ``compiled`` compiles each kernel for the GPU and launches on CUDA tensors. Each
kernel is written into its own module file that imports ``triton`` / ``triton.language as tl``
(Triton reads a kernel's source with ``inspect``). The batch is a list of plain dicts
(``runner.plain_batch``); the results, one per program, are ``{"status": "ok", "outputs":
[arrays]}`` or ``{"status": "rejected", "error": "Type: message"}``, with bfloat16 arrays as
their uint16 bits. This file imports neither mytriton nor the test package: it runs in the
reference venv, which has only triton, torch and numpy.
"""

from __future__ import annotations

import importlib.util
import os
import pickle
import sys
import tempfile
import traceback
import warnings
from typing import Any

HEADER = "import triton\nimport triton.language as tl\n\n\n"


def _torch_dtype(torch: Any, name: str) -> Any:
    return getattr(torch, {"int1": "bool"}.get(name, name))


def _to_tensor(torch: Any, arg: dict[str, Any], device: str) -> Any:
    data = arg["data"]
    if arg["dtype"] == "bfloat16":  # uint16 bits
        return torch.from_numpy(data.copy()).view(torch.bfloat16).to(device)
    return torch.from_numpy(data.copy()).to(device)


def _from_tensor(torch: Any, t: Any) -> Any:
    t = t.cpu()
    if t.dtype == torch.bfloat16:
        return t.view(torch.uint16).numpy().copy()
    return t.numpy().copy()


def _load(path: str, name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, name)


def run_one(torch: Any, folder: str, program: dict[str, Any], device: str) -> dict[str, Any]:
    path = os.path.join(folder, f"{program['name']}.py")
    with open(path, "w") as f:
        f.write(HEADER + program["source"])
    positional: list[Any] = []
    constexprs: dict[str, Any] = {}
    outs: list[Any] = []
    for arg in program["args"]:
        if arg["kind"] == "in":
            positional.append(_to_tensor(torch, arg, device))
        elif arg["kind"] == "out":
            t = torch.zeros(arg["shape"], dtype=_torch_dtype(torch, arg["dtype"]), device=device)
            outs.append(t)
            positional.append(t)
        elif arg["kind"] == "scalar":
            positional.append(arg["value"])
        else:
            constexprs[arg["name"]] = arg["value"]
    try:
        kernel = _load(path, program["name"])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            # no a*b+c contraction: which products a compiler fuses is its own choice (known.py)
            options = {"enable_fp_fusion": False} if device == "cuda" else {}
            kernel[(1,)](*positional, **constexprs, **options)
        if device == "cuda":
            torch.cuda.synchronize()
    except Exception as e:  # a rejection: the kernel does not compile (or run)
        text = "".join(traceback.format_exception_only(type(e), e)).strip()
        return {"status": "rejected", "error": f"{type(e).__name__}: {text[-2000:]}"}
    return {"status": "ok", "outputs": [_from_tensor(torch, t) for t in outs]}


def main() -> None:
    batch_path, results_path, mode = sys.argv[1:4]
    if mode == "interpreter":
        os.environ["TRITON_INTERPRET"] = "1"
    import numpy as np
    import torch

    np.seterr(all="ignore")
    device = "cpu" if mode == "interpreter" else "cuda"
    with open(batch_path, "rb") as f:
        batch = pickle.load(f)
    results = []
    with tempfile.TemporaryDirectory(prefix="triton-reference-") as folder:
        sys.path.insert(0, folder)
        for program in batch:
            results.append(run_one(torch, folder, program, device))
    import triton

    with open(results_path, "wb") as f:
        pickle.dump({"triton": triton.__version__, "mode": mode, "results": results}, f)


if __name__ == "__main__":
    main()
