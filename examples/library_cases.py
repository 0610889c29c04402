"""The harness of the library examples (``liger_kernels.py``, ``fla_kernels.py``): a case runs a
library function (forward and backward) and its eager PyTorch reference on the same inputs,
and reports the largest error of every output and gradient against a tolerance.

The library runs on mytriton through the switch (``install_as_triton()``, or
``MYTRITON_AS_TRITON=1``) unless ``--impl triton`` asks for the real Triton (the benchmark's
baseline, ``benchmarks/libraries.py``). ``--device cpu`` runs on the interpreter (or gpusim,
``MYTRITON_BACKEND=gpusim``); ``--device cuda`` on the GPU (``MYTRITON_BACKEND`` cuda or mlir).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

CPU_BACKENDS = ("interpreter", "gpusim")


def select(impl: str, device: str) -> str:
    """Make ``import triton`` give ``impl`` for ``device``; returns what runs the kernels.

    Call before the library is imported: it imports ``triton`` when it is imported."""
    if impl == "triton":
        if os.environ.get("MYTRITON_AS_TRITON"):
            raise SystemExit("--impl triton: unset MYTRITON_AS_TRITON")
        if device == "cpu":
            os.environ.setdefault("TRITON_INTERPRET", "1")
        return "triton " + ("interpreter" if device == "cpu" else "cuda")
    backend = os.environ.get("MYTRITON_BACKEND", "")
    if device == "cpu" and backend not in CPU_BACKENDS:
        # a GPU backend only compiles CPU tensors: nothing would run
        os.environ["MYTRITON_BACKEND"] = backend = "interpreter"
    if device == "cuda" and backend in CPU_BACKENDS:
        raise SystemExit(f"--device cuda needs a GPU backend, not MYTRITON_BACKEND={backend}")
    import mytriton

    mytriton.install_as_triton()
    import triton.language

    assert triton.language is mytriton.language, "import triton did not give mytriton"
    return "mytriton " + (backend or "cuda")


@dataclass
class Case:
    """A library call ``lib(*inputs)`` and its reference ``ref(*inputs)``: tensors or tuples
    of tensors. Gradients of the inputs at ``grads`` (indices) are compared after a backward
    pass with the same random cotangents; ``grads=()`` compares the forward only."""

    name: str
    make: Callable[[Any], Sequence[Any]]  # the inputs, from the torch device
    lib: Callable[..., Any]
    ref: Callable[..., Any]
    grads: tuple[int, ...] = ()
    #: ``|lib - ref| <= atol + rtol * max|ref|``, per output and gradient
    atol: float = 1e-5
    rtol: float = 1e-5
    #: on the GPU: a looser tolerance (tf32 dots, fast math)
    gpu_tol: tuple[float, float] | None = None
    cuda_only: bool = False
    errors: dict[str, float] = field(default_factory=dict)


def _tensors(out: Any) -> list[Any]:
    return list(out) if isinstance(out, (tuple, list)) else [out]


def _prepare(case: Case, inputs: Sequence[Any]) -> list[Any]:
    return [
        x.detach().clone().requires_grad_(i in case.grads) if hasattr(x, "detach") else x
        for i, x in enumerate(inputs)
    ]


def _forward_backward(case: Case, fn: Callable[..., Any], inputs: Sequence[Any], seed: int):
    import torch

    xs = _prepare(case, inputs)
    outs = _tensors(fn(*xs))
    grads: list[Any] = []
    if case.grads:
        gen = torch.Generator(device=outs[0].device).manual_seed(seed)
        loss = sum(
            (o.float() * torch.randn(o.shape, generator=gen, device=o.device)).sum()
            for o in outs
            if o.requires_grad
        )
        assert isinstance(loss, torch.Tensor), f"{case.name}: no output needs a gradient"
        loss.backward()
        grads = [xs[i].grad for i in case.grads]
    return outs, grads


def check(case: Case, device: Any) -> bool:
    """Run ``case``; fill ``case.errors`` and say whether every error is within tolerance."""
    import torch

    torch.manual_seed(0)
    inputs = case.make(device)
    outs, grads = _forward_backward(case, case.lib, inputs, seed=1)
    want_outs, want_grads = _forward_backward(case, case.ref, inputs, seed=1)
    atol, rtol = case.gpu_tol if case.gpu_tol and device.type == "cuda" else (case.atol, case.rtol)
    ok = len(outs) == len(want_outs)
    pairs = [(f"out{i}", o, w) for i, (o, w) in enumerate(zip(outs, want_outs, strict=False))]
    pairs += [(f"grad{i}", g, w) for i, g, w in zip(case.grads, grads, want_grads, strict=True)]
    for label, got, want in pairs:
        if got is None or want is None or got.shape != want.shape:
            case.errors[label] = float("inf")
            ok = False
            continue
        got, want = got.detach().float(), want.detach().float()
        err = (got - want).abs().max().item() if got.numel() else 0.0
        case.errors[label] = err
        ok = ok and err <= atol + rtol * (want.abs().max().item() if want.numel() else 0.0)
    return ok


def time_call(case: Case, device: Any, repeat: int) -> float:
    """Seconds per forward-and-backward call of the library, after a warm-up call."""
    import torch

    inputs = case.make(device)
    _forward_backward(case, case.lib, inputs, seed=1)
    sync = torch.cuda.synchronize if device.type == "cuda" else (lambda: None)
    sync()
    start = time.perf_counter()
    for _ in range(repeat):
        _forward_backward(case, case.lib, inputs, seed=1)
    sync()
    return (time.perf_counter() - start) / repeat


def main(cases: Callable[[], list[Case]], library: str, argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=f"{library} on mytriton, checked against torch")
    parser.add_argument("--device", choices=["cpu", "cuda"], default=None)
    parser.add_argument("--impl", choices=["mytriton", "triton"], default="mytriton")
    parser.add_argument("-k", dest="only", default="", help="run the cases whose name has this")
    parser.add_argument("--time", type=int, default=0, help="also time N calls of each case")
    parser.add_argument("--json", action="store_true", help="print one JSON line per case")
    args = parser.parse_args(argv)
    import torch

    device_name = args.device or ("cuda" if torch.cuda.is_available() else "cpu")
    runner = select(args.impl, device_name)
    device = torch.device(device_name)
    failed = 0
    for case in cases():
        if args.only and args.only not in case.name:
            continue
        if case.cuda_only and device.type != "cuda":
            print(f"{case.name:28s} skipped: the library runs it on CUDA tensors only")
            continue
        try:
            ok = check(case, device)
            seconds = time_call(case, device, args.time) if args.time and ok else None
            error = None
        except Exception as e:  # reported per case; the run goes on
            ok, seconds, error = False, None, f"{type(e).__name__}: {e}"
        failed += not ok
        if args.json:
            row = {"case": case.name, "ok": ok, "errors": case.errors, "seconds": seconds}
            print(
                json.dumps({"library": library, "runner": runner, **row, "error": error}),
                flush=True,
            )
            continue
        errs = " ".join(f"{k}={v:.1e}" for k, v in case.errors.items())
        timing = f"  {seconds * 1e3:.3f} ms/call" if seconds is not None else ""
        status = "ok  " if ok else "FAIL"
        print(f"{case.name:28s} {status} {errs}{timing}" + (f"  {error}" if error else ""))
    print(f"{library} on {runner} ({device}): {'all ok' if not failed else f'{failed} failed'}")
    sys.stdout.flush()
    return 1 if failed else 0
