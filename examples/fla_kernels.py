"""flash-linear-attention's Triton kernels (the ``fla-core`` wheel), unchanged, on mytriton:
linear-attention recurrences in their fused-recurrent and chunked forms, checked against a
plain step-by-step recurrence in PyTorch.

    pip install --no-deps fla-core einops   # pure-Python wheels; they need torch
    python examples/fla_kernels.py                          # CUDA if present, else the CPU
    MYTRITON_BACKEND=gpusim python examples/fla_kernels.py --device cpu
    python examples/fla_kernels.py --impl triton            # the same on the real Triton
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from library_cases import Case, main

B, T, H, K, V = 1, 40, 2, 16, 16


def recurrence(
    q: Any,
    k: Any,
    v: Any,
    *,
    g: Any = None,
    gk: Any = None,
    beta: Any = None,
) -> tuple[Any, Any]:
    """Outputs ``[B, T, H, V]`` and the final state ``[B, H, K, V]`` of the recurrence
    ``S = decay * S``, then ``S += k (v - S^T k)^T * beta`` (delta rule) or ``S += k v^T``,
    and ``o = S^T q / sqrt(K)``; ``g`` (per head) or ``gk`` (per key) are log decays."""
    import torch

    q, k, v = q.float(), k.float(), v.float()
    state = q.new_zeros(q.shape[0], q.shape[2], q.shape[3], v.shape[3])
    outs = []
    for t in range(q.shape[1]):
        if g is not None:
            state = state * g[:, t].float().exp()[..., None, None]
        if gk is not None:
            state = state * gk[:, t].float().exp()[..., None]
        kt, vt = k[:, t], v[:, t]
        if beta is not None:
            vt = (vt - torch.einsum("bhkv,bhk->bhv", state, kt)) * beta[:, t].float()[..., None]
        state = state + kt[..., None] * vt[..., None, :]
        outs.append(torch.einsum("bhkv,bhk->bhv", state, q[:, t] * q.shape[-1] ** -0.5))
    return torch.stack(outs, 1), state


def cases() -> list[Case]:
    import torch
    import torch.nn.functional as F  # noqa: N812 (torch's usual name)
    from fla.modules import RMSNorm
    from fla.modules.l2norm import l2norm
    from fla.ops.delta_rule import chunk_delta_rule, fused_recurrent_delta_rule
    from fla.ops.gated_delta_rule import (
        chunk_gated_delta_rule,
        fused_recurrent_gated_delta_rule,
    )
    from fla.ops.gla import chunk_gla, fused_recurrent_gla
    from fla.ops.simple_gla import chunk_simple_gla, fused_recurrent_simple_gla

    def qkv(dev: Any, dtype: Any = torch.float32) -> list[Any]:
        q = torch.randn(B, T, H, K, device=dev)
        k = F.normalize(torch.randn(B, T, H, K, device=dev), dim=-1)
        return [q.to(dtype), k.to(dtype), torch.randn(B, T, H, V, device=dev).to(dtype)]

    def with_g(dev: Any) -> list[Any]:
        return [*qkv(dev), F.logsigmoid(torch.randn(B, T, H, device=dev))]

    def with_gk(dev: Any) -> list[Any]:
        return [*qkv(dev), F.logsigmoid(torch.randn(B, T, H, K, device=dev))]

    def with_beta(dtype: Any) -> Any:
        return lambda dev: [*qkv(dev, dtype), torch.rand(B, T, H, device=dev).to(dtype)]

    def with_g_beta(dtype: Any) -> Any:
        def make(dev: Any) -> list[Any]:
            g = F.logsigmoid(torch.randn(B, T, H, device=dev))
            return [*qkv(dev, dtype), g, torch.rand(B, T, H, device=dev).to(dtype)]

        return make

    def rms_norm(x: Any, w: Any) -> Any:
        norm = RMSNorm(64, eps=1e-6).to(x.device)
        with torch.no_grad():
            norm.weight.copy_(w)
        return norm(x)

    tf32 = (5e-3, 5e-3)  # the chunked forms multiply with tl.dot: tf32 on GPUs and gpusim
    bf16 = (5e-2, 2e-2)
    return [
        Case(
            "fused_recurrent_simple_gla",
            with_g,
            lambda q, k, v, g: fused_recurrent_simple_gla(q, k, v, g, output_final_state=True),
            lambda q, k, v, g: recurrence(q, k, v, g=g),
        ),
        Case(
            "chunk_simple_gla",
            with_g,
            lambda q, k, v, g: chunk_simple_gla(q, k, v, g, output_final_state=True),
            lambda q, k, v, g: recurrence(q, k, v, g=g),
            grads=(0, 1, 2),
            atol=tf32[0],
            rtol=tf32[1],
        ),
        Case(
            "fused_recurrent_gla",
            with_gk,
            lambda q, k, v, gk: fused_recurrent_gla(q, k, v, gk, output_final_state=True),
            lambda q, k, v, gk: recurrence(q, k, v, gk=gk),
        ),
        Case(
            "chunk_gla",
            with_gk,
            lambda q, k, v, gk: chunk_gla(q, k, v, gk, output_final_state=True),
            lambda q, k, v, gk: recurrence(q, k, v, gk=gk),
            grads=(0, 1, 2, 3),
            atol=tf32[0],
            rtol=tf32[1],
        ),
        Case(
            "fused_recurrent_delta_rule",
            with_beta(torch.float32),
            lambda q, k, v, b: fused_recurrent_delta_rule(q, k, v, b, output_final_state=True),
            lambda q, k, v, b: recurrence(q, k, v, beta=b),
        ),
        Case(
            "chunk_delta_rule_bf16",  # the library refuses float32 here
            with_beta(torch.bfloat16),
            lambda q, k, v, b: chunk_delta_rule(q, k, v, b, output_final_state=True),
            lambda q, k, v, b: recurrence(q, k, v, beta=b),
            atol=bf16[0],
            rtol=bf16[1],
        ),
        Case(
            "fused_recurrent_gated_delta",
            with_g_beta(torch.float32),
            lambda q, k, v, g, b: fused_recurrent_gated_delta_rule(
                q, k, v, g=g, beta=b, output_final_state=True
            ),
            lambda q, k, v, g, b: recurrence(q, k, v, g=g, beta=b),
        ),
        Case(
            "chunk_gated_delta_rule_bf16",
            with_g_beta(torch.bfloat16),
            lambda q, k, v, g, b: chunk_gated_delta_rule(q, k, v, g, b, output_final_state=True),
            lambda q, k, v, g, b: recurrence(q, k, v, g=g, beta=b),
            atol=bf16[0],
            rtol=bf16[1],
        ),
        Case(
            "rms_norm",
            lambda d: [torch.randn(5, 64, device=d), torch.randn(64, device=d)],
            rms_norm,
            lambda x, w: x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * w,
            grads=(0,),
        ),
        Case(
            "l2norm",
            lambda d: [torch.randn(5, 64, device=d)],
            l2norm,
            lambda x: F.normalize(x, dim=-1),
            grads=(0,),
        ),
    ]


if __name__ == "__main__":
    sys.exit(main(cases, "flash-linear-attention"))
