"""What TorchInductor's static CUDA launcher makes of kernels compiled through ``triton.compile``
on mytriton, run in a process where ``triton`` is mytriton (``MYTRITON_AS_TRITON=1``) and
``MYTRITON_STATIC_LAUNCH=1``: ``python -m tests.inductor.static_launch_probe kernels ARCH`` prints
one JSON line per kernel (whether Inductor launches it statically, and what with); ``... graph``
(on a GPU) runs a compiled graph with Inductor's static launch made strict and prints whether
it matched eager.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import triton
import triton.language as tl


@triton.jit
def pointwise(in_ptr0, in_ptr1, out_ptr0, xnumel, scale, offset, XBLOCK: tl.constexpr):
    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)
    xmask = xindex < xnumel
    a = tl.load(in_ptr0 + xindex, xmask)
    b = tl.load(in_ptr1 + xindex, xmask)
    tl.store(out_ptr0 + xindex, a + b * scale + offset, xmask)


@triton.jit
def row_sum(in_ptr0, out_ptr0, rnumel, RBLOCK: tl.constexpr):
    rindex = tl.arange(0, RBLOCK)
    x = tl.load(in_ptr0 + tl.program_id(0) * rnumel + rindex, rindex < rnumel, other=0.0)
    tl.store(out_ptr0 + tl.program_id(0), tl.sum(x, 0))


@triton.jit
def matmul(a_ptr, b_ptr, c_ptr, K, BLOCK: tl.constexpr, BLOCK_K: tl.constexpr):
    rows = tl.arange(0, BLOCK)
    ks = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK, BLOCK), tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rows[:, None] * K + (k + ks)[None, :])
        b = tl.load(b_ptr + (k + ks)[:, None] * BLOCK + rows[None, :])
        acc += tl.dot(a, b)
    tl.store(c_ptr + rows[:, None] * BLOCK + rows[None, :], acc)


@triton.jit
def small_int(out_ptr0, value):
    tl.store(out_ptr0 + tl.arange(0, 32), tl.full((32,), 0, tl.int32) + value)


#: name -> (kernel, signature, constants, num_warps)
KERNELS: dict[str, tuple[Any, dict[str, str], dict[Any, Any], int]] = {
    "pointwise": (
        pointwise,
        {
            "in_ptr0": "*fp32",
            "in_ptr1": "*fp32",
            "out_ptr0": "*fp32",
            "xnumel": "i32",
            "scale": "fp32",
            "offset": "i64",
            "XBLOCK": "constexpr",
        },
        {(6,): 256},
        4,
    ),
    "pointwise_u32_fp64": (
        pointwise,
        {
            "in_ptr0": "*fp64",
            "in_ptr1": "*fp64",
            "out_ptr0": "*fp64",
            "xnumel": "u32",
            "scale": "fp64",
            "offset": "i1",
            "XBLOCK": "constexpr",
        },
        {(6,): 128},
        2,
    ),
    "row_sum": (
        row_sum,
        {"in_ptr0": "*fp32", "out_ptr0": "*fp32", "rnumel": "i32", "RBLOCK": "constexpr"},
        {(3,): 1024},
        8,
    ),
    "matmul": (
        matmul,
        {
            "a_ptr": "*fp16",
            "b_ptr": "*fp16",
            "c_ptr": "*fp32",
            "K": "i32",
            "BLOCK": "constexpr",
            "BLOCK_K": "constexpr",
        },
        {(4,): 64, (5,): 32},
        4,
    ),
    "small_int": (small_int, {"out_ptr0": "*i32", "value": "i8"}, {}, 1),
}


def probe_kernels(arch: int) -> None:
    from torch._inductor.runtime.hints import HeuristicType
    from torch._inductor.runtime.triton_heuristics import StaticTritonCompileResult
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    for name, (fn, signature, constants, warps) in KERNELS.items():
        src = ASTSource(fn, signature, constants)
        kernel = triton.compile(
            src, target=GPUTarget("cuda", arch, 32), options={"num_warps": warps}
        )
        static = StaticTritonCompileResult.can_statically_launch(
            kernel, {}, {"device_type": "cuda", "device": 0}, HeuristicType.POINTWISE
        )
        runtime_kernel = kernel._live.value[0]
        abi = runtime_kernel.binary.signature
        record: dict[str, Any] = {
            "kernel": name,
            "cubin": isinstance(kernel.asm.get("cubin"), bytes),
            "static": static is not None,
            "params": list(abi.params),
            "entry": abi.name,
            "block": list(abi.block),
            "abi_shared": abi.shared,
        }
        if static is not None:
            record.update(
                arg_tys=static.arg_tys,
                scratch=[static.has_global_scratch, static.has_profile_scratch],
                name=static.name,
                num_warps=static.num_warps,
                shared=static.shared,
                cubin_matches=Path(static.cubin_path).read_bytes() == kernel.asm["cubin"],
            )
        print(json.dumps(record), flush=True)


def run_graph() -> None:
    import torch
    import torch._inductor.config as inductor_config

    def f(x: torch.Tensor, y: torch.Tensor, s: float) -> tuple[torch.Tensor, torch.Tensor]:
        z = torch.relu(x * s + y)
        return z, z.sum(dim=-1)

    torch.manual_seed(0)
    with inductor_config.patch(
        {
            "use_static_cuda_launcher": True,
            "strict_static_cuda_launcher": True,
            "compile_threads": 1,
        }
    ):
        compiled = torch.compile(f)
        for shape in ((33, 129), (1024, 512)):
            x = torch.randn(shape, device="cuda")
            y = torch.randn(shape, device="cuda")
            for _ in range(2):
                got, want = compiled(x, y, 0.5), f(x, y, 0.5)
                torch.testing.assert_close(got, want)
    print(json.dumps({"graph": "ok"}), flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "kernels":
        probe_kernels(int(sys.argv[2]))
    else:
        run_graph()
