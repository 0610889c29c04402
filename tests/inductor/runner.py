"""Runs graphs of ``graphs.py`` through ``torch.compile`` in this process and prints one JSON
result per graph: ``python -m tests.inductor.runner --device cpu [--graphs a,b] [--time N]``.

It runs in a process of its own because ``triton`` must be mytriton (``MYTRITON_AS_TRITON=1``)
before ``torch._inductor`` looks for it, and so that one process serves many graphs. On the CPU
it sets ``torch._inductor.config.cpu_backend = "triton"``: Inductor then generates Triton
kernels for the host and runs them through ``triton.compile`` on mytriton's interpreter or
gpusim (``MYTRITON_CPU_BACKEND``), or, with ``TRITON_INTERPRET=1``, launches them as
``@jit`` kernels on the interpreter.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import traceback
from typing import Any

#: the line prefix of a result, so that other output (warnings, logs) is told apart
RESULT = "INDUCTOR-RESULT "


def parse_results(stdout: str) -> dict[str, Any]:
    """The runner's result lines in ``stdout``: graph name -> result (``""``: the header)."""
    results: dict[str, Any] = {}
    for line in stdout.splitlines():
        if line.startswith(RESULT):
            r = json.loads(line[len(RESULT) :])
            results[r.get("graph", "")] = r
    return results


def _compare(graph: Any, out: Any, ref: Any, inputs: tuple[Any, ...]) -> None:
    import torch

    if graph.check is not None:
        graph.check(out, ref, inputs)
        return
    torch.testing.assert_close(out, ref, rtol=graph.rtol, atol=graph.atol, equal_nan=True)


def _detach(inputs: tuple[Any, ...]) -> tuple[Any, ...]:
    """Fresh leaves with the same values (one set for eager, one for the compiled run)."""
    import torch

    return tuple(
        x.detach().clone().requires_grad_(x.requires_grad) if isinstance(x, torch.Tensor) else x
        for x in inputs
    )


def _to_float32(x: Any) -> Any:
    import torch

    if isinstance(x, torch.Tensor) and x.dtype in (torch.float16, torch.bfloat16):
        return x.float()
    return x


def _grads(inputs: tuple[Any, ...]) -> list[Any]:
    import torch

    return [x.grad for x in inputs if isinstance(x, torch.Tensor) and x.requires_grad]


def _call(graph: Any, fn: Any, inputs: tuple[Any, ...]) -> Any:
    out = fn(*inputs)
    if graph.backward:
        out.backward()
        return out.detach(), _grads(inputs)
    return out


def run_graph(graph: Any, device: str, repeat: int = 0) -> dict[str, Any]:
    """Compile ``graph`` on ``device``, compare every input set with eager; with ``repeat``,
    also time ``repeat`` calls of the compiled function (seconds per call, median)."""
    import torch
    import torch._dynamo
    import torch._inductor.config as inductor_config
    from torch._inductor import metrics

    torch._dynamo.reset()
    metrics.reset()
    start = time.perf_counter()
    with inductor_config.patch(graph.config):
        compiled = torch.compile(graph.fn, **graph.compile_kwargs)
        for make in (graph.inputs, *graph.more_inputs):
            torch.manual_seed(0)
            inputs = make(device)
            eager_inputs, compiled_inputs = _detach(inputs), _detach(inputs)
            if graph.upcast:
                eager_inputs = tuple(_to_float32(x) for x in eager_inputs)
            ref = _call(graph, graph.fn, eager_inputs)
            out = _call(graph, compiled, compiled_inputs)
            if graph.upcast:
                ref = torch.utils._pytree.tree_map(
                    lambda r, o: r.to(o.dtype) if isinstance(r, torch.Tensor) else r, ref, out
                )
            _compare(graph, out, ref, compiled_inputs)
            if device == "cuda":  # again: the launches take the fast paths the first one made
                again = _detach(inputs)
                _compare(graph, _call(graph, compiled, again), ref, again)
        kernels = metrics.generated_kernel_count
        seconds = time.perf_counter() - start
        per_call = None
        if repeat:
            per_call = _time_calls(compiled, graph, inputs, device, repeat)
    if kernels == 0 and graph.name != "user_triton_kernel":
        raise AssertionError(f"{graph.name}: Inductor generated no Triton kernel")
    return {"kernels": kernels, "seconds": seconds, "per_call": per_call}


def _time_calls(compiled: Any, graph: Any, inputs: tuple[Any, ...], device: str, n: int) -> float:
    """The median seconds of one call (forward only; a GPU's kernels timed with events)."""
    import torch

    args = _detach(inputs)
    times = []
    with torch.no_grad():
        for _ in range(3):
            compiled(*args)
        for _ in range(n):
            if device == "cuda":
                begin, end = (
                    torch.cuda.Event(enable_timing=True),
                    torch.cuda.Event(enable_timing=True),
                )
                begin.record()
                compiled(*args)
                end.record()
                end.synchronize()
                times.append(begin.elapsed_time(end) / 1e3)
            else:
                t = time.perf_counter()
                compiled(*args)
                times.append(time.perf_counter() - t)
    times.sort()
    return times[len(times) // 2]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    parser.add_argument("--graphs", default="", help="comma-separated names (default: all)")
    parser.add_argument("--time", type=int, default=0, help="also time N calls of each graph")
    args = parser.parse_args(argv)

    import torch._inductor.config as inductor_config

    if args.device == "cpu":
        inductor_config.cpu_backend = "triton"
    from tests.inductor.graphs import GRAPHS

    names = [n for n in args.graphs.split(",") if n] or list(GRAPHS)
    import triton

    header = {"triton": triton.__file__, "version": triton.__version__}
    if args.device == "cpu":
        from triton.backends import backends
        from triton.backends.compiler import GPUTarget
        from triton.runtime.driver import driver

        header["driver"] = type(driver.active).__name__  # before Inductor sets it
        target = GPUTarget("cpu", "host", 1)
        header["cpu_backend"] = backends["cpu"].compiler(target).mytriton_backend()
    print(RESULT + json.dumps(header), flush=True)
    for name in names:
        try:
            result = {"graph": name, "ok": True, **run_graph(GRAPHS[name], args.device, args.time)}
        except Exception as e:
            result = {
                "graph": name,
                "ok": False,
                "error": f"{type(e).__name__}: {e}"[:4000],
                "traceback": traceback.format_exc()[-6000:],
            }
        print(RESULT + json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
