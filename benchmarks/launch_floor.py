"""What one launch costs below mytriton: the driver call alone (CuPy's binding of
``cuLaunchKernel``, and ``ctypes`` with and without releasing the GIL) on torch's default
stream and on a stream of its own, beside mytriton's whole launch (native fast path) and the
time of each of its fast paths alone (their driver call replaced by a no-op). Run on the GPU to
see where a launch's host time goes.

    python3 benchmarks/launch_floor.py
"""

from __future__ import annotations

import ctypes
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))


def per_call_us(fn: Callable[[], Any], n: int = 5000, rounds: int = 5) -> float:
    import torch

    for _ in range(200):
        fn()
    torch.cuda.synchronize()
    out = []
    for _ in range(rounds):
        t = time.perf_counter()
        for _ in range(n):
            fn()
        out.append((time.perf_counter() - t) / n * 1e6)
        torch.cuda.synchronize()
    return statistics.median(out)


def main() -> None:
    import cupy
    import torch
    from compare import load_kernels

    import mytriton
    import mytriton.language as tl

    mod = load_kernels("floor_mytriton", mytriton, tl)
    x, y = torch.rand(1024, device="cuda"), torch.rand(1024, device="cuda")
    out = torch.empty_like(x)
    k = mod.add_kernel
    k[(1,)](x, y, out, 1024, BLOCK_SIZE=1024)
    plan = next(iter(k._plans.values()))
    fn = plan.kernel.binary.function(0)
    f = int(fn.ptr)
    block = plan.kernel.binary.block
    # a parameter buffer and its pointer array, made once
    vals = (ctypes.c_uint64 * 3)(x.data_ptr(), y.data_ptr(), out.data_ptr())
    n = ctypes.c_int32(1024)
    ptrs = (ctypes.c_void_p * 4)(
        ctypes.addressof(vals),
        ctypes.addressof(vals) + 8,
        ctypes.addressof(vals) + 16,
        ctypes.addressof(n),
    )
    params = ctypes.addressof(ptrs)
    launch = cupy.cuda.driver.launchKernel
    side = torch.cuda.Stream()
    rows = {}
    rows["empty python loop body"] = per_call_us(lambda: None)
    rows["cupy launchKernel, default stream"] = per_call_us(
        lambda: launch(f, 1, 1, 1, block[0], 1, 1, 0, 0, params, 0)
    )
    sp = side.cuda_stream
    rows["cupy launchKernel, own stream"] = per_call_us(
        lambda: launch(f, 1, 1, 1, block[0], 1, 1, 0, sp, params, 0)
    )
    for label, lib in (("ctypes CDLL (GIL released)", ctypes.CDLL), ("ctypes PyDLL", ctypes.PyDLL)):
        cuda = lib("libcuda.so.1")
        cu = cuda.cuLaunchKernel
        cu.argtypes = [ctypes.c_void_p] + [ctypes.c_uint] * 7 + [ctypes.c_void_p] * 3
        cu.restype = ctypes.c_int
        rows[f"{label}, default stream"] = per_call_us(
            lambda cu=cu: cu(f, 1, 1, 1, block[0], 1, 1, 0, 0, params, None)
        )
    rows["mytriton add_kernel[(1,)], default stream"] = per_call_us(
        lambda: k[(1,)](x, y, out, 1024, BLOCK_SIZE=1024)
    )
    with torch.cuda.stream(side):
        rows["mytriton add_kernel[(1,)], own stream"] = per_call_us(
            lambda: k[(1,)](x, y, out, 1024, BLOCK_SIZE=1024)
        )
    rows["torch.add(out=)"] = per_call_us(lambda: torch.add(x, y, out=out))
    # the Python fast path's own time: its driver call (CuPy's) replaced by a no-op
    os.environ["MYTRITON_NATIVE_LAUNCH"] = "0"
    k2 = load_kernels("floor_mytriton2", mytriton, tl).add_kernel
    k2[(1,)](x, y, out, 1024, BLOCK_SIZE=1024)
    k2[(1,)](x, y, out, 1024, BLOCK_SIZE=1024)
    cupy.cuda.driver.launchKernel = lambda *a: None
    try:
        k2.clear_cache()
        k2[(1,)](x, y, out, 1024, BLOCK_SIZE=1024)
        rows["mytriton Python fast path, driver call a no-op"] = per_call_us(
            lambda: k2[(1,)](x, y, out, 1024, BLOCK_SIZE=1024)
        )
    finally:
        cupy.cuda.driver.launchKernel = launch
    # the native fast path's own time: cuLaunchKernel's address replaced by a C no-op
    os.environ.pop("MYTRITON_NATIVE_LAUNCH", None)
    from mytriton.backends.nvidia import device_launcher
    from mytriton.runtime import native_build

    native = native_build.load()
    if native is not None:
        saved = list(device_launcher._LAUNCH_KERNEL)
        device_launcher._LAUNCH_KERNEL[:] = [native.NOOP_LAUNCH]
        try:
            k3 = load_kernels("floor_mytriton3", mytriton, tl).add_kernel
            for _ in range(2):
                k3[(1,)](x, y, out, 1024, BLOCK_SIZE=1024)
            rows["mytriton native fast path, driver call a no-op"] = per_call_us(
                lambda: k3[(1,)](x, y, out, 1024, BLOCK_SIZE=1024)
            )
        finally:
            device_launcher._LAUNCH_KERNEL[:] = saved
    for label, us in rows.items():
        print(f"{label:<48} {us:7.2f} us")


if __name__ == "__main__":
    main()
