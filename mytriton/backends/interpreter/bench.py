"""Time the interpreter on the seed's vector add: ``python -m mytriton.backends.interpreter.bench``.

The target (issue 3) is a 2**20-element add on 256-element blocks (4096 programs) in under a
second on one CPU core. Also times the one-program-at-a-time fallback for comparison.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from mytriton.backends.interpreter import launch, run_kernel
from mytriton.dialects import make_context


def add_kernel_ir(block: int) -> str:
    """``out = x + y`` for ``offs < n``, one ``block``-element block per program."""
    t = f"tensor<{block}xi32>"
    p = f"tensor<{block}x!tt.ptr<f32>>"
    return f"""
func.func @add_kernel(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>, %out: !tt.ptr<f32>, %n: i32) {{
  %pid = tt.get_program_id x : i32
  %c = arith.constant {block} : i32
  %start = tt.mul %pid, %c : i32
  %r = tt.make_range {{start = 0 : i32, end = {block} : i32}} : {t}
  %s = tt.splat %start : i32 -> {t}
  %offs = tt.add %s, %r : {t}
  %ns = tt.splat %n : i32 -> {t}
  %mask = tt.cmp lt, %offs, %ns : {t}
  %xs = tt.splat %x : !tt.ptr<f32> -> {p}
  %xp = tt.addptr %xs, %offs : {p}, {t}
  %ys = tt.splat %y : !tt.ptr<f32> -> {p}
  %yp = tt.addptr %ys, %offs : {p}, {t}
  %os = tt.splat %out : !tt.ptr<f32> -> {p}
  %op = tt.addptr %os, %offs : {p}, {t}
  %xv = tt.load %xp, %mask : {p}
  %yv = tt.load %yp, %mask : {p}
  %sum = tt.add %xv, %yv : tensor<{block}xf32>
  tt.store %op, %sum, %mask : {p}
  func.return
}}"""


def time_add(
    module: ModuleOp, n: int, block: int, *, debug: bool = False, repeat: int = 3
) -> float:
    """Best wall time of ``repeat`` launches of the add over ``n`` elements; checks the result."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    best = float("inf")
    for _ in range(repeat):
        out = np.full(n, np.nan, dtype=np.float32)
        start = time.perf_counter()
        run_kernel(module, "add_kernel", (-(-n // block), 1, 1), [x, y, out, n], debug=debug)
        best = min(best, time.perf_counter() - start)
        if not np.array_equal(out, x + y):
            raise AssertionError("the interpreter computed a wrong sum")
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--log2n", type=int, default=20)
    parser.add_argument("--block", type=int, default=256)
    opts = parser.parse_args()
    n, block = 1 << opts.log2n, opts.block
    module = Parser(make_context(), add_kernel_ir(block)).parse_module()
    programs = -(-n // block)
    print(f"vector add, {n} elements, {programs} programs of {block}:")
    print(f"  batched:             {time_add(module, n, block):.3f} s")
    print(f"  batched, debug mode: {time_add(module, n, block, debug=True):.3f} s")
    saved = launch.BATCH_ELEMENTS
    launch.BATCH_ELEMENTS = 0
    try:
        print(f"  one program at a time: {time_add(module, n, block, repeat=1):.3f} s")
    finally:
        launch.BATCH_ELEMENTS = saved


if __name__ == "__main__":
    main()
