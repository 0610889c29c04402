"""Liger-Kernel's Triton kernels, unchanged, on mytriton: each function runs forward and
backward on torch tensors and is checked against eager PyTorch.

    pip install --no-deps liger-kernel     # a pure-Python wheel; it needs torch
    python examples/liger_kernels.py                         # CUDA if present, else the CPU
    MYTRITON_BACKEND=gpusim python examples/liger_kernels.py --device cpu
    python examples/liger_kernels.py --impl triton           # the same on the real Triton

The example switches ``import triton`` to mytriton itself (``install_as_triton()``), before
Liger-Kernel is imported; ``MYTRITON_AS_TRITON=1`` does the same for any program.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from library_cases import Case, main


def cases() -> list[Case]:
    import torch
    import torch.nn.functional as F  # noqa: N812 (torch's usual name)
    from liger_kernel.ops.fused_moe import LigerFusedMoEFunction
    from liger_kernel.ops.mlp import LigerMLPFunction, gemm_swiglu
    from liger_kernel.transformers import functional as LF  # noqa: N812

    def randn(*shape: int, dtype: Any = torch.float32) -> Any:
        return lambda dev: torch.randn(*shape, device=dev, dtype=dtype)

    def rms(x: Any, w: Any, eps: float = 1e-6, offset: float = 0.0) -> Any:
        xf = x.float()
        y = xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + eps) * (w.float() + offset)
        return y.to(x.dtype)

    def rotate(t: Any) -> Any:
        t1, t2 = t.chunk(2, -1)
        return torch.cat((-t2, t1), -1)

    def rope_inputs(dev: Any) -> list[Any]:
        q, k = torch.randn(2, 4, 8, 16, device=dev), torch.randn(2, 2, 8, 16, device=dev)
        angle = torch.randn(1, 8, 8, device=dev)
        emb = torch.cat([angle, angle], -1)
        return [q, k, emb.cos(), emb.sin()]

    def rope_ref(q: Any, k: Any, cos: Any, sin: Any) -> Any:
        c, s = cos.unsqueeze(1), sin.unsqueeze(1)
        return q * c + rotate(q) * s, k * c + rotate(k) * s

    vocab = 3000

    def ce_inputs(dev: Any) -> list[Any]:
        target = torch.randint(0, vocab, (6,), device=dev)
        target[1] = -100  # ignored
        return [torch.randn(6, vocab, device=dev) * 3, target]

    def flce_inputs(dev: Any) -> list[Any]:
        t = torch.randint(0, 96, (6,), device=dev)
        return [torch.randn(6, 32, device=dev), torch.randn(96, 32, device=dev), t]

    def dist_pair(log: bool) -> Any:
        def make(dev: Any) -> list[Any]:
            a = torch.log_softmax(torch.randn(6, 96, device=dev), -1)
            b = torch.randn(6, 96, device=dev)
            return [a, torch.log_softmax(b, -1) if log else torch.softmax(b, -1)]

        return make

    def jsd_ref(log_q: Any, log_p: Any) -> Any:
        log_m = torch.logsumexp(torch.stack([log_q, log_p]), 0) - math.log(2)
        kl = F.kl_div(log_m, log_q, reduction="sum", log_target=True)
        return 0.5 * (kl + F.kl_div(log_m, log_p, reduction="sum", log_target=True)) / 6

    def sparsemax_ref(z: Any) -> Any:
        zs = torch.sort(z, dim=-1, descending=True).values
        k = torch.arange(1, z.shape[-1] + 1, device=z.device, dtype=z.dtype)
        cs = zs.cumsum(-1)
        kz = (1 + k * zs > cs).sum(-1, keepdim=True)
        return torch.clamp(z - (cs.gather(-1, kz - 1) - 1) / kz, min=0)

    def moe_inputs(dev: Any) -> list[Any]:
        tokens, hidden, inter, experts, top = 8, 32, 16, 4, 2
        idx = torch.stack([torch.randperm(experts)[:top] for _ in range(tokens)]).int()
        return [
            torch.randn(tokens, hidden, device=dev),
            torch.randn(experts, 2 * inter, hidden, device=dev) * 0.1,
            torch.randn(experts, hidden, inter, device=dev) * 0.1,
            idx.to(dev),
            torch.rand(tokens, top, device=dev),
        ]

    def moe_ref(x: Any, gate_up: Any, down: Any, idx: Any, weights: Any) -> Any:
        out = torch.zeros_like(x)
        for j in range(idx.shape[1]):
            e = idx[:, j].long()
            g, u = torch.einsum("th,tnh->tn", x, gate_up[e]).chunk(2, -1)
            out += weights[:, j : j + 1] * torch.einsum("thi,ti->th", down[e], F.silu(g) * u)
        return out

    def mlp_inputs(dev: Any) -> list[Any]:
        dim, hidden = 128, 256
        weights = [torch.randn(hidden, dim), torch.randn(hidden, dim), torch.randn(dim, hidden)]
        x = torch.randn(2, 64, dim)
        return [t.to(dev, torch.bfloat16) for t in [x, *(w * 0.1 for w in weights)]]

    def mlp_ref(x: Any, gate: Any, up: Any, down: Any) -> Any:
        xf = x.float()
        return F.linear(F.silu(xf @ gate.float().T) * (xf @ up.float().T), down.float())

    return [
        Case(
            "rms_norm",
            lambda d: [torch.randn(6, 96, device=d), torch.randn(96, device=d)],
            lambda x, w: LF.liger_rms_norm(x, w, 1e-6, in_place=False),
            rms,
            grads=(0, 1),
            atol=1e-5,
            rtol=1e-5,
        ),
        Case(
            "rms_norm_gemma_bf16",
            lambda d: [randn(300, 64, dtype=torch.bfloat16)(d), randn(64, dtype=torch.bfloat16)(d)],
            lambda x, w: LF.liger_rms_norm(x, w, 1e-6, offset=1.0, casting_mode="gemma"),
            lambda x, w: rms(x, w, 1e-6, 1.0),
            grads=(0, 1),
            atol=1e-2,
            rtol=1e-2,
        ),
        Case(
            "layer_norm",
            lambda d: [randn(6, 96)(d), randn(96)(d), randn(96)(d)],
            lambda x, w, b: LF.liger_layer_norm(x, w, b, 1e-6),
            lambda x, w, b: F.layer_norm(x, (96,), w, b, 1e-6),
            grads=(0, 1, 2),
        ),
        Case(
            "swiglu",
            lambda d: [randn(6, 200)(d), randn(6, 200)(d)],
            LF.liger_swiglu,
            lambda a, b: F.silu(a) * b,
            grads=(0, 1),
        ),
        Case(
            "geglu",
            lambda d: [randn(6, 200)(d), randn(6, 200)(d)],
            LF.liger_geglu,
            lambda a, b: F.gelu(a, approximate="tanh") * b,
            grads=(0, 1),
        ),
        Case(
            "cross_entropy_smooth_ignore",
            ce_inputs,
            lambda x, t: LF.liger_cross_entropy(x, t, label_smoothing=0.1),
            lambda x, t: F.cross_entropy(x, t, label_smoothing=0.1),
            grads=(0,),
        ),
        Case(
            "cross_entropy_softcap_sum",
            ce_inputs,
            lambda x, t: LF.liger_cross_entropy(x, t, softcap=5.0, reduction="sum"),
            lambda x, t: F.cross_entropy(5.0 * torch.tanh(x / 5.0), t, reduction="sum"),
            grads=(0,),
            atol=1e-4,
        ),
        Case(
            "fused_linear_cross_entropy",
            flce_inputs,
            LF.liger_fused_linear_cross_entropy,
            lambda x, w, t: F.cross_entropy(x @ w.T, t),
            grads=(0, 1),
            gpu_tol=(1e-3, 1e-3),
        ),
        Case(
            "rope",
            rope_inputs,
            lambda q, k, cos, sin: LF.liger_rope(q, k, cos, sin),
            rope_ref,
            grads=(0, 1),
        ),
        Case(
            "kl_div",
            dist_pair(log=False),
            lambda a, b: LF.liger_kl_div(a, b, reduction="batchmean"),
            lambda a, b: F.kl_div(a, b, reduction="batchmean"),
            grads=(0,),
        ),
        Case("jsd", dist_pair(log=True), LF.liger_jsd, jsd_ref, grads=(0,)),
        Case(
            "softmax",
            lambda d: [randn(5, 5000)(d)],
            LF.liger_softmax,
            lambda x: torch.softmax(x, -1),
            grads=(0,),
        ),
        Case(
            "sparsemax",
            lambda d: [randn(6, 96)(d)],
            LF.liger_sparsemax,
            sparsemax_ref,
            grads=(0,),
        ),
        Case(
            "group_norm",
            lambda d: [randn(3, 8, 20)(d), randn(8)(d), randn(8)(d)],
            lambda x, w, b: LF.liger_group_norm(x, w, b, 8, 2, 1e-6),
            lambda x, w, b: F.group_norm(x, 2, w, b, 1e-6),
            grads=(0, 1, 2),
        ),
        Case(
            "dyt_forward",
            lambda d: [randn(6, 96)(d), torch.tensor([0.7], device=d), randn(96)(d), randn(96)(d)],
            LF.liger_dyt,
            lambda x, a, g, b: g * torch.tanh(a * x) + b,
        ),
        Case(
            # its backward sizes a buffer by the GPU's multiprocessor count (torch.cuda)
            "dyt",
            lambda d: [randn(6, 96)(d), torch.tensor([0.7], device=d), randn(96)(d), randn(96)(d)],
            LF.liger_dyt,
            lambda x, a, g, b: g * torch.tanh(a * x) + b,
            grads=(0, 1, 2, 3),
            atol=1e-4,
            rtol=1e-4,
            cuda_only=True,
        ),
        Case(
            "fused_moe",
            moe_inputs,
            lambda *a: LigerFusedMoEFunction.apply(*a),
            moe_ref,
            atol=2e-3,  # its tl.dot rounds to tf32 on the GPU and on gpusim
            rtol=2e-3,
        ),
        Case(
            # the MLP's fused gate/up GEMM + SwiGLU kernel (tensor descriptors whose block
            # shapes an autotune pre-hook sets), called directly: it takes CPU tensors
            "mlp_gemm_swiglu_bf16",
            mlp_inputs,
            lambda x, g, u, d: F.linear(gemm_swiglu(x, g, u, 1.0, False)[0], d),
            mlp_ref,
            atol=1e-2,
            rtol=2e-2,
        ),
        Case(
            # the whole MLP, forward and backward: the library asserts CUDA tensors
            "mlp_swiglu_bf16",
            mlp_inputs,
            lambda *a: LigerMLPFunction.apply(*a),
            mlp_ref,
            grads=(0, 1, 2, 3),
            atol=1e-2,
            rtol=2e-2,
            cuda_only=True,
        ),
    ]


if __name__ == "__main__":
    sys.exit(main(cases, "liger-kernel"))
