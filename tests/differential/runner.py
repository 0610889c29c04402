"""Runs generated programs on mytriton's backends and, in a subprocess, on real Triton."""

from __future__ import annotations

import importlib.util
import os
import pickle
import subprocess
import tempfile
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from tests.differential.generator import Program
from tests.differential.values import numpy_dtype

REPO = Path(__file__).resolve().parents[2]
ENV_VAR = "MYTRITON_TRITON_REFERENCE_PYTHON"
HEADER = "import mytriton as triton\nimport mytriton.language as tl\n\n\n"


def reference_python() -> str | None:
    """The Python with real Triton: ``$MYTRITON_TRITON_REFERENCE_PYTHON``, else the venv
    ``make triton-reference`` creates, else None."""
    if os.environ.get(ENV_VAR):
        return os.environ[ENV_VAR]
    default = REPO / ".triton-reference" / "bin" / "python"
    return str(default) if default.exists() else None


def _bits(a: np.ndarray) -> np.ndarray:
    """bfloat16 as its uint16 bits: the reference has no ml_dtypes."""
    return a.view(np.uint16) if a.dtype.name == "bfloat16" else a


def plain_batch(programs: list[Program]) -> list[dict[str, Any]]:
    """The programs as plain dicts and NumPy arrays, for reference.py."""
    out = []
    for p in programs:
        args = []
        for a in p.args:
            data = None if a.data is None else _bits(a.data)
            args.append(
                {"kind": a.kind, "name": a.name, "dtype": a.dtype, "shape": a.shape, "data": data}
                | {"value": a.value}
            )
        out.append({"name": p.name, "source": p.source, "args": args})
    return out


def run_reference(
    programs: list[Program], python: str, mode: str, timeout: float = 1800
) -> list[dict[str, Any]]:
    """Results of the whole batch under real Triton (reference.py), in one subprocess."""
    with tempfile.TemporaryDirectory(prefix="mytriton-diff-") as folder:
        batch, results = Path(folder, "batch.pkl"), Path(folder, "results.pkl")
        batch.write_bytes(pickle.dumps(plain_batch(programs)))
        script = Path(__file__).with_name("reference.py")
        env = {k: v for k, v in os.environ.items() if not k.startswith("MYTRITON_")}
        env.pop("PYTHONPATH", None)  # the reference must not see mytriton
        proc = subprocess.run(
            [python, str(script), str(batch), str(results), mode],
            capture_output=True,
            text=True,
            timeout=timeout,
            env=env,
            cwd=folder,
        )
        if proc.returncode != 0:
            raise RuntimeError(f"the Triton reference failed:\n{proc.stdout}\n{proc.stderr}")
        data = pickle.loads(results.read_bytes())
    res: list[dict[str, Any]] = data["results"]
    for p, r in zip(programs, res, strict=True):  # bfloat16 bits back into bfloat16
        if r["status"] == "ok":
            outs = [a for a in p.args if a.kind == "out"]
            r["outputs"] = [
                arr.view(numpy_dtype_of(o.dtype)) if o.dtype == "bfloat16" else arr
                for o, arr in zip(outs, r["outputs"], strict=True)
            ]
    return res


def numpy_dtype_of(name: str) -> np.dtype:
    from tests.differential.typerules import DTYPES

    return numpy_dtype(DTYPES[name])


@dataclass
class Outcome:
    status: str  # "ok" | "rejected"
    outputs: list[np.ndarray]
    error: str = ""
    typed: bool = True  # a rejection raised a mytriton error, not a raw exception


class MyTritonRunner:
    """Writes each program into a module importing mytriton and launches it on a backend."""

    def __init__(self) -> None:
        self.folder = tempfile.TemporaryDirectory(prefix="mytriton-diff-kernels-")
        self.kernels: dict[str, Any] = {}

    def kernel(self, program: Program) -> Any:
        if program.name not in self.kernels:
            path = Path(self.folder.name, f"{program.name}.py")
            path.write_text(HEADER + program.source)
            spec = importlib.util.spec_from_file_location(program.name, path)
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            self.kernels[program.name] = getattr(module, program.name)
        return self.kernels[program.name]

    def run(self, program: Program, backend: str, device: str = "cpu") -> Outcome:
        from mytriton.errors import MyTritonError

        positional: list[Any] = []
        constexprs: dict[str, Any] = {}
        outs: list[np.ndarray] = []
        for a in program.args:
            if a.kind == "in":
                assert a.data is not None
                positional.append(a.data.copy())
            elif a.kind == "out":
                o = np.zeros(a.shape, numpy_dtype_of(a.dtype))
                outs.append(o)
                positional.append(o)
            elif a.kind == "scalar":
                positional.append(a.value)
            else:
                constexprs[a.name] = a.value
        saved = os.environ.get("MYTRITON_BACKEND")
        os.environ["MYTRITON_BACKEND"] = backend
        try:
            kernel = self.kernel(program)
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                if device == "cuda":
                    return self._run_cuda(kernel, positional, constexprs, outs)
                kernel[(1,)](*positional, **constexprs)
        except Exception as e:
            typed = isinstance(e, MyTritonError)
            return Outcome("rejected", [], f"{type(e).__name__}: {e}", typed)
        finally:
            if saved is None:
                os.environ.pop("MYTRITON_BACKEND", None)
            else:
                os.environ["MYTRITON_BACKEND"] = saved
        return Outcome("ok", outs)

    @staticmethod
    def _run_cuda(
        kernel: Any, positional: list[Any], constexprs: dict[str, Any], outs: list[np.ndarray]
    ) -> Outcome:
        """On the GPU backends: torch CUDA tensors in, NumPy copies out."""
        import torch

        def dev(x: Any) -> Any:
            if not isinstance(x, np.ndarray):
                return x
            if x.dtype.name == "bfloat16":
                return torch.from_numpy(x.view(np.uint16)).view(torch.bfloat16).cuda()
            return torch.from_numpy(x).cuda()

        args = [dev(x) for x in positional]
        kernel[(1,)](*args, **constexprs, enable_fp_fusion=False)  # as the reference (known.py)
        torch.cuda.synchronize()
        result = []
        out_ids = {id(o) for o in outs}
        for host, d in zip(positional, args, strict=True):
            if id(host) in out_ids:
                t = d.cpu()
                arr = t.view(torch.uint16).numpy() if t.dtype == torch.bfloat16 else t.numpy()
                result.append(arr.view(host.dtype).copy())
        return Outcome("ok", result)
