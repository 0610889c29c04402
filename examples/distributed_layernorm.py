"""Layer norm on several GPUs: a mytriton kernel per rank, the results joined by NCCL.

    torchrun --standalone --nproc-per-node=2 examples/distributed_layernorm.py
    python examples/distributed_layernorm.py          # one process (world size 1)

Each rank of ``torchrun`` takes the GPU of its ``LOCAL_RANK``, normalises its share of the rows
of one seeded input with the forward kernel of Triton's layer-norm tutorial (on that GPU: a
kernel runs on the device of its arguments), writes them into a zero output of the full size,
and ``all_reduce(SUM)`` through ``torch.distributed`` adds the ranks' outputs together. Rank 0
then checks the sum against ``torch.nn.functional.layer_norm`` of the whole input computed in
this one process, prints ``ok: ...`` or ``MISMATCH: ...``, and every rank exits non-zero on a
mismatch.

Started without ``torchrun``, it is one process of world size 1 (``RANK``, ``WORLD_SIZE`` and
``LOCAL_RANK`` default to 0, 1 and 0), so it runs on one GPU. Without a CUDA device, or with
``MYTRITON_BACKEND=interpreter``, it runs on the CPU interpreter with the gloo backend instead
of NCCL, so the distributed part can be tried on any machine.

NVLink multicast (NVLS, symmetric memory) stays off: NCCL_NVLS_ENABLE=0 and
TORCH_SYMM_MEM_DISABLE_MULTICAST=1 are set before torch is imported, unless already set.
"""

from __future__ import annotations

import os

os.environ.setdefault("NCCL_NVLS_ENABLE", "0")
os.environ.setdefault("TORCH_SYMM_MEM_DISABLE_MULTICAST", "1")

import sys

import torch
import torch.distributed as dist

import mytriton as triton
import mytriton.language as tl

M, N, EPS = 1031, 1000, 1e-5  # an odd number of rows (unequal shares), N not a power of 2


@triton.jit
def _layer_norm_fwd_fused(
    X,  # pointer to the input
    Y,  # pointer to the output
    W,  # pointer to the weights
    B,  # pointer to the biases
    Mean,  # pointer to the mean
    Rstd,  # pointer to the 1/std
    stride,  # how much to increase the pointer when moving by 1 row
    N,  # number of columns in X
    eps,  # epsilon to avoid division by zero
    BLOCK_SIZE: tl.constexpr,
):
    # Map the program id to the row of X and Y it should compute.
    row = tl.program_id(0)
    Y += row * stride
    X += row * stride
    # Compute mean
    _mean = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        a = tl.load(X + cols, mask=cols < N, other=0.0).to(tl.float32)
        _mean += a
    mean = tl.sum(_mean, axis=0) / N
    # Compute variance
    _var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.0).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.0)
        _var += x * x
    var = tl.sum(_var, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    # Write mean / rstd
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    # Normalize and apply linear transformation
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.0).to(tl.float32)
        x_hat = (x - mean) * rstd
        y = x_hat * w + b
        # Write output
        tl.store(Y + cols, y, mask=mask)


def layer_norm_rows(
    x: torch.Tensor, y: torch.Tensor, w: torch.Tensor, b: torch.Tensor, lo: int, hi: int
) -> None:
    """``y[lo:hi] = layer_norm(x[lo:hi])`` by the kernel, one program per row, on the device of
    the tensors."""
    if hi <= lo:
        return
    mean = torch.empty(hi - lo, dtype=torch.float32, device=x.device)
    rstd = torch.empty(hi - lo, dtype=torch.float32, device=x.device)
    block = min(65536 // x.element_size(), triton.next_power_of_2(x.shape[1]))
    num_warps = min(max(block // 256, 1), 8)
    _layer_norm_fwd_fused[(hi - lo,)](
        x[lo:hi], y[lo:hi], w, b, mean, rstd, x.stride(0), x.shape[1], EPS,
        BLOCK_SIZE=block, num_warps=num_warps,
    )  # fmt: skip


def on_gpu() -> bool:
    """Whether kernels run on CUDA tensors here (else on CPU tensors with the interpreter)."""
    interpret = any(
        os.environ.get(v, "") not in ("", "0") for v in ("MYTRITON_INTERPRET", "TRITON_INTERPRET")
    )
    host_backend = os.environ.get("MYTRITON_BACKEND", "") in ("interpreter", "gpusim")
    return not interpret and not host_backend and torch.cuda.is_available()


def init_process_group(backend: str, rank: int, world: int) -> None:
    """Join the ranks ``torchrun`` started (``env://``); alone, an in-process store (no port)."""
    if "MASTER_ADDR" in os.environ:
        dist.init_process_group(backend=backend, rank=rank, world_size=world)
    elif world == 1:
        dist.init_process_group(backend=backend, store=dist.HashStore(), rank=0, world_size=1)
    else:
        raise SystemExit(f"WORLD_SIZE={world} without MASTER_ADDR: start the ranks with torchrun")


def main() -> int:
    rank = int(os.environ.get("RANK", "0"))
    world = int(os.environ.get("WORLD_SIZE", "1"))
    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    if on_gpu():
        if local_rank >= torch.cuda.device_count():
            raise SystemExit(
                f"rank {rank} needs cuda:{local_rank}, but {torch.cuda.device_count()} CUDA "
                "devices are visible"
            )
        torch.cuda.set_device(local_rank)
        device, backend = torch.device("cuda", local_rank), "nccl"
    else:
        os.environ.setdefault("MYTRITON_BACKEND", "interpreter")
        device, backend = torch.device("cpu"), "gloo"
    init_process_group(backend, rank, world)
    try:
        # the same seeded input on every rank, made on the CPU
        gen = torch.Generator().manual_seed(0)
        x_host = -2.3 + 0.5 * torch.randn((M, N), generator=gen)
        w_host = torch.rand(N, generator=gen)
        b_host = torch.rand(N, generator=gen)
        x, w, b = x_host.to(device), w_host.to(device), b_host.to(device)

        lo, hi = rank * M // world, (rank + 1) * M // world
        y = torch.zeros((M, N), dtype=torch.float32, device=device)
        layer_norm_rows(x, y, w, b, lo, hi)  # on torch's current stream of `device`
        print(f"rank {rank}/{world}: rows {lo}:{hi} normalised on {device}", flush=True)
        dist.all_reduce(y, op=dist.ReduceOp.SUM)  # ordered after the kernel on that stream

        verdict = torch.ones(1, dtype=torch.int32, device=device)
        if rank == 0:
            reference = torch.nn.functional.layer_norm(x_host, (N,), w_host, b_host, EPS)
            got = y.cpu()
            error = (got - reference).abs().max().item()
            if torch.allclose(got, reference, atol=1e-4, rtol=1e-4):
                print(
                    f"ok: layer norm of {M}x{N} over {world} rank(s) ({backend}) matches "
                    f"torch.nn.functional.layer_norm; max error {error:.2e}",
                    flush=True,
                )
            else:
                verdict.zero_()
                print(
                    f"MISMATCH: layer norm of {M}x{N} over {world} rank(s) ({backend}) differs "
                    f"from torch.nn.functional.layer_norm by up to {error:.3e}",
                    flush=True,
                )
        dist.broadcast(verdict, src=0)  # every rank exits with rank 0's verdict
        return 0 if int(verdict.item()) == 1 else 1
    finally:
        dist.destroy_process_group()


if __name__ == "__main__":
    sys.exit(main())
