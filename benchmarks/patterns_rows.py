"""The rows of ``benchmarks/patterns.py``: for each pattern, its inputs at the production shape
(or a tiny one, for the interpreter), the launch of its kernel(s) from ``patterns_src/``, torch's
reference (eager, f32), the check of the results against it, and torch's own op or composition
for the torch column. Nothing here imports triton or mytriton: the kernel module comes in the
``Env``, loaded by the benchmark under one implementation."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any


@dataclass
class Env:
    """What a row's builder gets: torch, the device, the row's kernel module under one
    implementation, and the sizes to use (``tiny``: a few elements, for the interpreter)."""

    torch: Any
    device: str
    k: ModuleType | None
    impl: str
    tiny: bool
    descriptor: Any = None  # the implementation's host TensorDescriptor class
    num_sms: int = 2
    seed: int = 0

    def randn(self, *shape: int, dtype: Any, scale: float = 1.0) -> Any:
        t = self.torch
        x = t.randn(*shape, device=self.device, dtype=t.float32)
        return (x * scale).to(dtype)

    def empty(self, *shape: int, dtype: Any) -> Any:
        return self.torch.empty(*shape, device=self.device, dtype=dtype)


@dataclass
class Case:
    """One row built at one size: ``launch`` runs the row's kernel(s) once (the autotuned
    kernel where the row autotunes), ``reference`` computes torch's results (before the first
    launch: some kernels write over their inputs) and ``check`` compares the outputs with them
    after it. ``torch_fn`` is torch's own op or composition, timed as the torch column."""

    launch: Callable[[], Any]
    reference: Callable[[], Any]
    check: Callable[[Any], None]
    outputs: Callable[[], Sequence[Any]]
    torch_fn: Callable[[], Any] | None = None
    first: Callable[[], Any] | None = None  # one fixed config, for the cold time of a tuned row
    nbytes: float = 0.0
    flops: float = 0.0


@dataclass
class Row:
    name: str
    source: str
    shape: str
    dtype: str
    build: Callable[[Env], Case]
    autotune: bool = False
    torch_op: str = ""


ROWS: dict[str, Row] = {}


def row(
    name: str, source: str, shape: str, dtype: str, torch_op: str = "", autotune: bool = False
) -> Callable[[Callable[[Env], Case]], Callable[[Env], Case]]:
    def register(build: Callable[[Env], Case]) -> Callable[[Env], Case]:
        ROWS[name] = Row(name, source, shape, dtype, build, autotune, torch_op)
        return build

    return register


def close(got: Any, want: Any, atol: float, rtol: float, what: str = "") -> None:
    """``got`` (any dtype) against ``want`` as float32, with the largest error in the message."""
    import torch

    g, w = got.float(), want.float()
    try:
        torch.testing.assert_close(g, w, atol=atol, rtol=rtol)
    except AssertionError as e:
        err = (g - w).abs().max().item()
        raise AssertionError(f"{what}: max |error| {err:.3g}; {str(e)[:300]}") from None


def cdiv(a: int, b: int) -> int:
    return (a + b - 1) // b


def pow2(n: int) -> int:
    return 1 << (n - 1).bit_length()


# ---- attention -------------------------------------------------------------------------------


def _paged_cache(e: Env, nseq: int, max_len: int, hkv: int, d: int, page: int, dtype: Any) -> Any:
    """K and V caches [blocks, page, hkv, d] and a block table [nseq, max_len / page] of
    shuffled physical blocks."""
    t = e.torch
    per_seq = cdiv(max_len, page)
    g = t.Generator().manual_seed(e.seed)
    table = t.randperm(nseq * per_seq, generator=g).view(nseq, per_seq).to(t.int32).to(e.device)
    kc = e.randn(nseq * per_seq, page, hkv, d, dtype=dtype)
    vc = e.randn(nseq * per_seq, page, hkv, d, dtype=dtype)
    return kc, vc, table


def _gather(cache: Any, table_row: Any, n: int) -> Any:
    """The first ``n`` tokens of one sequence's cache, [n, hkv, d]."""
    blocks = cache[table_row.long()]
    return blocks.reshape(-1, cache.shape[2], cache.shape[3])[:n]


def _sdpa_f32(q: Any, k: Any, v: Any, causal: bool, scale: float) -> Any:
    """Attention in f32 of q [hq, m, d] over k, v [hkv, n, d] (GQA by repeating k, v)."""
    import torch

    rep = q.shape[0] // k.shape[0]
    k, v = k.float().repeat_interleave(rep, 0), v.float().repeat_interleave(rep, 0)
    return torch.nn.functional.scaled_dot_product_attention(
        q.float(), k, v, is_causal=causal, scale=scale
    )


@row(
    "paged_attention",
    "attention.py",
    "2 seqs x 4096, 32 q / 8 kv heads, d 128, pages of 16, causal prefill",
    "f16",
    "SDPA on contiguous K/V (per sequence)",
)
def build_paged_attention(e: Env) -> Case:
    t = e.torch
    if e.tiny:
        seqlens, hq, hkv, d, page, bm, bn, warps = [40, 27], 4, 2, 16, 4, 16, 16, 4
    else:
        seqlens, hq, hkv, d, page, bm, bn, warps = [4096, 4096], 32, 8, 128, 16, 128, 64, 8
    nseq, total = len(seqlens), sum(seqlens)
    kc, vc, table = _paged_cache(e, nseq, max(seqlens), hkv, d, page, t.float16)
    cu = [0]
    for n in seqlens:
        cu.append(cu[-1] + n)
    cu_t = t.tensor(cu, dtype=t.int32, device=e.device)
    q = e.randn(total, hq, d, dtype=t.float16)
    o = t.zeros_like(q)
    scale = 1 / math.sqrt(d)
    grid = (cdiv(max(seqlens), bm), hq, nseq)

    def launch() -> Any:
        assert e.k is not None
        return e.k.paged_prefill[grid](
            q, kc, vc, o, table, cu_t, scale,
            q.stride(0), q.stride(1), kc.stride(0), kc.stride(1), kc.stride(2),
            vc.stride(0), vc.stride(1), vc.stride(2), o.stride(0), o.stride(1), table.stride(0),
            GQA=hq // hkv, PAGE=page, HEAD_DIM=d, BLOCK_M=bm, BLOCK_N=bn, num_warps=warps,
        )  # fmt: skip

    def per_seq() -> list[tuple[Any, Any, Any]]:
        out = []
        for s, n in enumerate(seqlens):
            qs = q[cu[s] : cu[s] + n].transpose(0, 1)
            ks = _gather(kc, table[s], n).transpose(0, 1)
            vs = _gather(vc, table[s], n).transpose(0, 1)
            out.append((qs, ks, vs))
        return out

    def reference() -> Any:
        return t.cat([_sdpa_f32(*qkv, True, scale).transpose(0, 1) for qkv in per_seq()])

    contiguous = per_seq()  # torch's column: SDPA over the gathered (contiguous) K/V

    def torch_fn() -> Any:
        sdpa = t.nn.functional.scaled_dot_product_attention
        return [
            sdpa(qs[None], ks[None], vs[None], is_causal=True, scale=scale, enable_gqa=True)
            for qs, ks, vs in contiguous
        ]

    flops = sum(4 * hq * n * n * d / 2 for n in seqlens)
    return Case(
        launch,
        reference,
        lambda ref: close(o, ref, 2e-2, 2e-2, "o"),
        lambda: [o],
        torch_fn,
        flops=flops,
    )


@row(
    "decode_attention",
    "attention.py",
    "32 seqs x 8192 ctx, 32 q / 8 kv heads, d 128, pages of 16, 16 KV splits",
    "bf16",
    "SDPA on contiguous K/V",
)
def build_decode_attention(e: Env) -> Case:
    t = e.torch
    if e.tiny:
        seqlens, hq, hkv, d, page, splits, bn = [50, 33], 4, 2, 16, 4, 4, 16
    else:
        seqlens, hq, hkv, d, page, splits, bn = [8192] * 32, 32, 8, 128, 16, 16, 64
    nb, gqa, block_h = len(seqlens), hq // hkv, 16
    kc, vc, table = _paged_cache(e, nb, max(seqlens), hkv, d, page, t.bfloat16)
    lens = t.tensor(seqlens, dtype=t.int32, device=e.device)
    q = e.randn(nb, hq, d, dtype=t.bfloat16)
    mid_o = e.empty(nb, hq, splits, d, dtype=t.float32)
    mid_lse = e.empty(nb, hq, splits, dtype=t.float32)
    o = t.zeros_like(q)
    scale = 1 / math.sqrt(d)

    def launch() -> Any:
        assert e.k is not None
        e.k.decode_split_kv[(nb, hkv, splits)](
            q, kc, vc, table, lens, mid_o, mid_lse, scale,
            q.stride(0), q.stride(1), kc.stride(0), kc.stride(1), kc.stride(2),
            vc.stride(0), vc.stride(1), vc.stride(2), table.stride(0),
            mid_o.stride(0), mid_o.stride(1), mid_o.stride(2),
            GQA=gqa, BLOCK_H=block_h, PAGE=page, HEAD_DIM=d, BLOCK_N=bn, NUM_SPLITS=splits,
        )  # fmt: skip
        return e.k.decode_combine[(nb, hq)](
            mid_o, mid_lse, o, mid_o.stride(0), mid_o.stride(1), mid_o.stride(2),
            o.stride(0), o.stride(1), HEAD_DIM=d, NUM_SPLITS=splits,
        )  # fmt: skip

    def reference() -> Any:
        outs = []
        for b, n in enumerate(seqlens):
            ks = _gather(kc, table[b], n).transpose(0, 1)
            vs = _gather(vc, table[b], n).transpose(0, 1)
            outs.append(_sdpa_f32(q[b][:, None], ks, vs, False, scale)[:, 0])
        return t.stack(outs)

    # torch's column: SDPA over the gathered (contiguous) K/V, batched where the lengths agree
    sdpa = t.nn.functional.scaled_dot_product_attention
    kv = [
        (_gather(kc, table[b], n).transpose(0, 1), _gather(vc, table[b], n).transpose(0, 1))
        for b, n in enumerate(seqlens)
    ]
    if len(set(seqlens)) == 1:
        kk, vv = t.stack([k_ for k_, _ in kv]), t.stack([v_ for _, v_ in kv])
        torch_fn = lambda: sdpa(q[:, :, None], kk, vv, scale=scale, enable_gqa=True)
    else:
        torch_fn = lambda: [
            sdpa(q[b][None, :, None], k_[None], v_[None], scale=scale, enable_gqa=True)
            for b, (k_, v_) in enumerate(kv)
        ]
    nbytes = 2 * sum(seqlens) * hkv * d * 2
    return Case(
        launch,
        reference,
        lambda ref: close(o, ref, 2e-2, 2e-2, "o"),
        lambda: [o],
        torch_fn,
        nbytes=nbytes,
    )


@row(
    "causal_attention",
    "attention.py",
    "1 x 8192 tokens, 32 q / 8 kv heads, d 128, causal",
    "bf16",
    "SDPA (causal, GQA)",
)
def build_causal_attention(e: Env) -> Case:
    t = e.torch
    if e.tiny:
        b, s, hq, hkv, d, bm, bn, warps = 2, 64, 4, 2, 16, 32, 16, 4
    else:
        b, s, hq, hkv, d, bm, bn, warps = 1, 8192, 32, 8, 128, 128, 64, 8
    q = e.randn(b, s, hq, d, dtype=t.bfloat16)
    k = e.randn(b, s, hkv, d, dtype=t.bfloat16)
    v = e.randn(b, s, hkv, d, dtype=t.bfloat16)
    o = t.zeros_like(q)
    scale = 1 / math.sqrt(d)

    def launch() -> Any:
        assert e.k is not None
        return e.k.causal_prefill[(s // bm, b * hq)](
            q, k, v, o, scale, q.stride(0), q.stride(1), q.stride(2),
            k.stride(0), k.stride(1), k.stride(2), v.stride(0), v.stride(1), v.stride(2),
            o.stride(0), o.stride(1), o.stride(2), hq,
            GQA=hq // hkv, HEAD_DIM=d, BLOCK_M=bm, BLOCK_N=bn, num_warps=warps,
        )  # fmt: skip

    def reference() -> Any:
        return t.stack(
            [
                _sdpa_f32(q[i].transpose(0, 1), k[i].transpose(0, 1), v[i].transpose(0, 1), True,
                          scale).transpose(0, 1)
                for i in range(b)
            ]
        )  # fmt: skip

    sdpa = t.nn.functional.scaled_dot_product_attention
    qt, kt, vt = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)
    return Case(
        launch,
        reference,
        lambda ref: close(o, ref, 2e-2, 2e-2, "o"),
        lambda: [o],
        lambda: sdpa(qt, kt, vt, is_causal=True, scale=scale, enable_gqa=True),
        flops=4 * b * hq * s * s * d / 2,
    )


# ---- cross entropy and other row reductions ---------------------------------------------------


def _cross_entropy_case(e: Env, rows: int, vocab: int, softcap: float | None) -> Case:
    t = e.torch
    logits = e.randn(rows, vocab, dtype=t.bfloat16, scale=2.0)
    g = t.Generator().manual_seed(e.seed + 1)
    labels = t.randint(0, vocab, (rows,), generator=g)
    labels[::7] = -100  # ignored positions (padding, prompts)
    labels = labels.to(e.device)
    n_valid = int((labels != -100).sum().item())
    loss = e.empty(rows, dtype=t.float32)
    block = min(32768, pow2(vocab)) if not e.tiny else 32
    warps = 32 if not e.tiny else 4
    original = logits.clone() if e.tiny else None  # the dry run's torch column

    def launch() -> Any:
        assert e.k is not None
        return e.k.cross_entropy_fwd_bwd[(rows,)](
            logits, logits.stride(0), labels, loss, vocab, float(n_valid), -100,
            softcap or 0.0, BLOCK_V=block, HAS_SOFTCAP=softcap is not None, num_warps=warps,
        )  # fmt: skip

    def capped(x: Any) -> Any:
        return x if softcap is None else softcap * t.tanh(x / softcap)

    def reference() -> Any:
        x = capped(logits.float())
        valid = labels != -100
        safe = labels.clamp(min=0).long()
        lse = t.logsumexp(x, dim=1)
        loss_ref = t.where(valid, lse - x.gather(1, safe[:, None])[:, 0], 0.0) / n_valid
        grad = t.softmax(x, dim=1)
        grad[t.arange(rows, device=e.device), safe] -= 1.0
        if softcap is not None:
            grad *= 1.0 - t.tanh(logits.float() / softcap) ** 2
        grad = t.where(valid[:, None], grad / n_valid, 0.0)
        return loss_ref, grad

    def check(ref: Any) -> None:
        loss_ref, grad = ref
        close(loss, loss_ref, 1e-6, 1e-3, "loss")
        close(logits, grad, 1e-3 / n_valid, 1.6e-2, "gradient")

    xr = (original if original is not None else logits.clone()).requires_grad_()
    ce = t.nn.functional.cross_entropy
    torch_fn = lambda: t.autograd.grad(ce(capped(xr), labels, ignore_index=-100), xr)
    # read twice, written once (bf16)
    return Case(launch, reference, check, lambda: [loss, logits], torch_fn, nbytes=6 * rows * vocab)


@row(
    "cross_entropy_128k",
    "rows.py",
    "8192 tokens x 128256 vocab, gradient in place",
    "bf16",
    "cross_entropy forward + backward",
)
def build_cross_entropy_128k(e: Env) -> Case:
    return _cross_entropy_case(e, *((9, 100) if e.tiny else (8192, 128256)), softcap=None)


@row(
    "cross_entropy_32k_softcap",
    "rows.py",
    "16384 tokens x 32000 vocab, soft-cap 30",
    "bf16",
    "30 * tanh(x / 30), cross_entropy forward + backward",
)
def build_cross_entropy_32k(e: Env) -> Case:
    return _cross_entropy_case(e, *((9, 70) if e.tiny else (16384, 32000)), softcap=30.0)


def _rows_shape(e: Env, m: int, n: int, tiny: tuple[int, int] = (5, 100)) -> tuple[int, int]:
    return tiny if e.tiny else (m, n)


def _whole_row_warps(e: Env, block: int) -> int:
    return 4 if e.tiny else (8 if block >= 2048 else 4)


@row(
    "softmax",
    "rows.py",
    "16384 x 4096, whole row per block, evict_first",
    "f16",
    "softmax",
)
def build_softmax(e: Env) -> Case:
    t = e.torch
    m, n = _rows_shape(e, 16384, 4096)
    x = e.randn(m, n, dtype=t.float16, scale=3.0)
    y = t.empty_like(x)
    block = pow2(n)

    def launch() -> Any:
        assert e.k is not None
        return e.k.softmax_row[(m,)](
            x, y, x.stride(0), y.stride(0), n, BLOCK_N=block, num_warps=_whole_row_warps(e, block)
        )

    return Case(
        launch,
        lambda: t.softmax(x.float(), dim=1),
        lambda ref: close(y, ref, 1e-5, 2e-3, "y"),
        lambda: [y],
        lambda: t.softmax(x, dim=1),
        nbytes=2 * m * n * 2,
    )


@row(
    "log_softmax",
    "rows.py",
    "8192 x 32000 (vocab), chunks of 4096",
    "bf16",
    "log_softmax",
)
def build_log_softmax(e: Env) -> Case:
    t = e.torch
    m, n = _rows_shape(e, 8192, 32000)
    x = e.randn(m, n, dtype=t.bfloat16, scale=3.0)
    y = t.empty_like(x)
    block = 32 if e.tiny else 4096

    def launch() -> Any:
        assert e.k is not None
        return e.k.log_softmax_chunked[(m,)](
            x, y, x.stride(0), y.stride(0), n, BLOCK_N=block, num_warps=4 if e.tiny else 8
        )

    return Case(
        launch,
        lambda: t.log_softmax(x.float(), dim=1),
        lambda ref: close(y, ref, 2e-2, 1e-2, "y"),
        lambda: [y],
        lambda: t.log_softmax(x, dim=1),
        nbytes=3 * m * n * 2,
    )


@row(
    "kl_div",
    "rows.py",
    "8192 x 32000 (vocab), per-row sums",
    "bf16",
    "kl_div(reduction='none').sum(-1)",
)
def build_kl_div(e: Env) -> Case:
    t = e.torch
    m, n = _rows_shape(e, 8192, 32000)
    logp = t.log_softmax(e.randn(m, n, dtype=t.float32), dim=1).to(t.bfloat16)
    target = t.softmax(e.randn(m, n, dtype=t.float32), dim=1).to(t.bfloat16)
    loss = e.empty(m, dtype=t.float32)
    block = 32 if e.tiny else 4096

    def launch() -> Any:
        assert e.k is not None
        return e.k.kl_div_rows[(m,)](
            logp, target, loss, logp.stride(0), target.stride(0), n, BLOCK_V=block,
            num_warps=4 if e.tiny else 8,
        )  # fmt: skip

    kl = t.nn.functional.kl_div
    return Case(
        launch,
        lambda: kl(logp.float(), target.float(), reduction="none").sum(-1),
        lambda ref: close(loss, ref, 1e-4, 1e-4, "loss"),
        lambda: [loss],
        lambda: kl(logp, target, reduction="none").sum(-1),
        nbytes=2 * m * n * 2,
    )


@row(
    "argmax",
    "rows.py",
    "256 x 128256 (greedy sampling over the vocab)",
    "bf16",
    "argmax",
)
def build_argmax(e: Env) -> Case:
    t = e.torch
    m, n = _rows_shape(e, 256, 128256, (5, 300))
    x = e.randn(m, n, dtype=t.bfloat16)
    out = e.empty(m, dtype=t.int32)
    block = 64 if e.tiny else 8192

    def launch() -> Any:
        assert e.k is not None
        return e.k.argmax_rows[(m,)](
            x, out, x.stride(0), n, BLOCK_N=block, num_warps=4 if e.tiny else 8
        )

    def check(ref: Any) -> None:
        first = t.stack([(x[i] == x[i].max()).nonzero()[0, 0] for i in range(m)])
        assert t.equal(out.long(), first.long()), f"argmax {out.tolist()[:8]} != {first[:8]}"

    return Case(
        launch,
        lambda: None,
        check,
        lambda: [out],
        lambda: t.argmax(x, dim=1),
        nbytes=m * n * 2,
    )


@row(
    "cumsum",
    "rows.py",
    "256 x 128256 probabilities (top-p), chunks of 4096",
    "f32",
    "cumsum",
)
def build_cumsum(e: Env) -> Case:
    t = e.torch
    m, n = _rows_shape(e, 256, 128256, (5, 300))
    x = t.softmax(e.randn(m, n, dtype=t.float32, scale=3.0), dim=1)
    y = t.empty_like(x)
    block = 64 if e.tiny else 4096

    def launch() -> Any:
        assert e.k is not None
        return e.k.cumsum_rows[(m,)](
            x, y, x.stride(0), y.stride(0), n, BLOCK_N=block, num_warps=4 if e.tiny else 8
        )

    return Case(
        launch,
        lambda: t.cumsum(x.double(), dim=1),
        lambda ref: close(y, ref, 2e-5, 1e-4, "y"),
        lambda: [y],
        lambda: t.cumsum(x, dim=1),
        nbytes=2 * m * n * 4,
    )


# ---- norms --------------------------------------------------------------------------------


@row(
    "layer_norm_fwd",
    "norms.py",
    "16384 x 4096, weight and bias, storing mean and rstd",
    "f16",
    "layer_norm",
)
def build_layer_norm_fwd(e: Env) -> Case:
    t = e.torch
    m, n = _rows_shape(e, 16384, 4096)
    x = e.randn(m, n, dtype=t.float16)
    x += 2.0  # an offset mean
    w, b = e.randn(n, dtype=t.float16), e.randn(n, dtype=t.float16)
    y, mean, rstd = t.empty_like(x), e.empty(m, dtype=t.float32), e.empty(m, dtype=t.float32)
    block, eps = pow2(n), 1e-5

    def launch() -> Any:
        assert e.k is not None
        return e.k.layer_norm_fwd[(m,)](
            x, y, w, b, mean, rstd, x.stride(0), y.stride(0), n, eps,
            BLOCK_N=block, num_warps=_whole_row_warps(e, block),
        )  # fmt: skip

    def reference() -> Any:
        xf = x.float()
        var, mu = t.var_mean(xf, dim=1, correction=0)
        y_ref = t.nn.functional.layer_norm(xf, (n,), w.float(), b.float(), eps)
        return y_ref, mu, t.rsqrt(var + eps)

    def check(ref: Any) -> None:
        close(y, ref[0], 1e-2, 1e-2, "y")
        close(mean, ref[1], 1e-5, 1e-5, "mean")
        close(rstd, ref[2], 1e-5, 1e-4, "rstd")

    ln = t.nn.functional.layer_norm
    return Case(
        launch,
        reference,
        check,
        lambda: [y, mean, rstd],
        lambda: ln(x, (n,), w, b, eps),
        nbytes=2 * m * n * 2,
    )


@row(
    "layer_norm_bwd",
    "norms.py",
    "16384 x 4096: dx, then dw and db from per-program partial sums",
    "f16",
    "layer_norm backward (autograd)",
)
def build_layer_norm_bwd(e: Env) -> Case:
    t = e.torch
    m, n = _rows_shape(e, 16384, 4096, (7, 100))
    eps = 1e-5
    x = e.randn(m, n, dtype=t.float16)
    dy = e.randn(m, n, dtype=t.float16)
    w, b = e.randn(n, dtype=t.float16), e.randn(n, dtype=t.float16)
    var, mu = t.var_mean(x.float(), dim=1, correction=0)
    mean, rstd = mu.contiguous(), t.rsqrt(var + eps).contiguous()
    programs = 3 if e.tiny else 4 * e.num_sms
    rows_per_program = cdiv(m, programs)
    dx = t.empty_like(x)
    dw_part = e.empty(programs, n, dtype=t.float32)
    db_part = e.empty(programs, n, dtype=t.float32)
    dw, db = t.empty_like(w), t.empty_like(b)
    block = pow2(n)
    bm, bn = (2, 32) if e.tiny else (32, 128)

    def launch() -> Any:
        assert e.k is not None
        e.k.layer_norm_bwd_dx[(programs,)](
            x, dy, dx, w, mean, rstd, dw_part, db_part, x.stride(0), m, n, rows_per_program,
            BLOCK_N=block, num_warps=_whole_row_warps(e, block),
        )  # fmt: skip
        return e.k.layer_norm_bwd_dwdb[(cdiv(n, bn),)](
            dw_part, db_part, dw, db, programs, n, BLOCK_M=bm, BLOCK_N=bn
        )

    def reference() -> Any:
        xf, wf, bf = (a.float().requires_grad_() for a in (x, w, b))
        yf = t.nn.functional.layer_norm(xf, (n,), wf, bf, eps)
        return t.autograd.grad(yf, (xf, wf, bf), dy.float())

    def check(ref: Any) -> None:
        close(dx, ref[0], 2e-2, 1e-2, "dx")
        close(dw, ref[1], 0.25, 1e-2, "dw")
        close(db, ref[2], 0.25, 1e-2, "db")

    xr, wr, br = (a.clone().requires_grad_() for a in (x, w, b))
    yr = t.nn.functional.layer_norm(xr, (n,), wr, br, eps)
    torch_fn = lambda: t.autograd.grad(yr, (xr, wr, br), dy, retain_graph=True)
    return Case(launch, reference, check, lambda: [dx, dw, db], torch_fn, nbytes=3 * m * n * 2)


@row("rms_norm", "norms.py", "16384 x 4096, storing rstd", "bf16", "rms_norm")
def build_rms_norm(e: Env) -> Case:
    t = e.torch
    m, n = _rows_shape(e, 16384, 4096)
    x, w = e.randn(m, n, dtype=t.bfloat16), e.randn(n, dtype=t.bfloat16)
    y, rstd = t.empty_like(x), e.empty(m, dtype=t.float32)
    block, eps = pow2(n), 1e-6

    def launch() -> Any:
        assert e.k is not None
        return e.k.rms_norm_fwd[(m,)](
            x, y, w, rstd, x.stride(0), y.stride(0), n, eps,
            BLOCK_N=block, num_warps=_whole_row_warps(e, block),
        )  # fmt: skip

    def reference() -> Any:
        xf = x.float()
        r = t.rsqrt(xf.pow(2).mean(1) + eps)
        return xf * r[:, None] * w.float(), r

    def check(ref: Any) -> None:
        close(y, ref[0], 2e-2, 1.6e-2, "y")
        close(rstd, ref[1], 1e-5, 1e-4, "rstd")

    rms = t.nn.functional.rms_norm
    return Case(
        launch,
        reference,
        check,
        lambda: [y, rstd],
        lambda: rms(x, (n,), w, eps),
        nbytes=2 * m * n * 2,
    )


@row(
    "add_rms_norm",
    "norms.py",
    "16384 x 4096, residual and output in place",
    "bf16",
    "x + r, rms_norm",
)
def build_add_rms_norm(e: Env) -> Case:
    t = e.torch
    m, n = _rows_shape(e, 16384, 4096)
    x, r = e.randn(m, n, dtype=t.bfloat16), e.randn(m, n, dtype=t.bfloat16)
    w = e.randn(n, dtype=t.bfloat16)
    block, eps = pow2(n), 1e-6
    x0, r0 = x.clone(), r.clone()  # torch's column works on its own copies

    def launch() -> Any:
        assert e.k is not None
        return e.k.fused_add_rms_norm[(m,)](
            x, r, w, x.stride(0), r.stride(0), n, eps,
            BLOCK_N=block, num_warps=_whole_row_warps(e, block),
        )  # fmt: skip

    def reference() -> Any:
        h = (x.float() + r.float()).to(t.bfloat16)
        hf = h.float()
        return hf * t.rsqrt(hf.pow(2).mean(1, keepdim=True) + eps) * w.float(), h

    def check(ref: Any) -> None:
        close(r, ref[1], 0, 0, "residual")
        close(x, ref[0], 2e-2, 1.6e-2, "out")

    rms = t.nn.functional.rms_norm
    return Case(
        launch,
        reference,
        check,
        lambda: [x, r],
        lambda: rms(x0 + r0, (n,), w, eps),
        nbytes=4 * m * n * 2,
    )


@row(
    "var_mean_welford",
    "norms.py",
    "16384 x 4096, tl.reduce of a 3-tuple (Welford)",
    "bf16",
    "var_mean",
)
def build_var_mean(e: Env) -> Case:
    t = e.torch
    m, n = _rows_shape(e, 16384, 4096)
    x = e.randn(m, n, dtype=t.bfloat16)
    x += 3.0
    mean, var = e.empty(m, dtype=t.float32), e.empty(m, dtype=t.float32)
    block = pow2(n)

    def launch() -> Any:
        assert e.k is not None
        return e.k.var_mean_welford[(m,)](
            x, mean, var, x.stride(0), n, BLOCK_N=block, num_warps=_whole_row_warps(e, block)
        )

    def check(ref: Any) -> None:
        close(var, ref[0], 1e-5, 1e-4, "var")
        close(mean, ref[1], 1e-5, 1e-5, "mean")

    return Case(
        launch,
        lambda: t.var_mean(x.float(), dim=1, correction=0),
        check,
        lambda: [mean, var],
        lambda: t.var_mean(x, dim=1, correction=0),
        nbytes=m * n * 2,
    )


# ---- elementwise ---------------------------------------------------------------------------


def _glu_case(e: Env, gelu: bool) -> Case:
    t = e.torch
    m, n = _rows_shape(e, 8192, 14336, (3, 100))
    a, b = e.randn(m, n, dtype=t.bfloat16), e.randn(m, n, dtype=t.bfloat16)
    c = t.empty_like(a)
    block = 32 if e.tiny else 1024
    kernel_name = "geglu_fwd" if gelu else "swiglu_fwd"

    def launch() -> Any:
        assert e.k is not None
        return getattr(e.k, kernel_name)[(m, cdiv(n, block))](
            a, b, c, a.stride(0), b.stride(0), c.stride(0), n, BLOCK_N=block
        )

    fn = t.nn.functional
    act = (lambda v: fn.gelu(v, approximate="tanh")) if gelu else fn.silu
    return Case(
        launch,
        lambda: act(a.float()).to(t.bfloat16).float() * b.float(),
        lambda ref: close(c, ref, 1e-2, 1.6e-2, "c"),
        lambda: [c],
        lambda: act(a) * b,
        nbytes=3 * m * n * 2,
    )


@row("swiglu", "elementwise.py", "8192 x 14336", "bf16", "silu(a) * b")
def build_swiglu(e: Env) -> Case:
    return _glu_case(e, gelu=False)


@row("geglu", "elementwise.py", "8192 x 14336, tanh GELU", "bf16", "gelu(a, 'tanh') * b")
def build_geglu(e: Env) -> Case:
    return _glu_case(e, gelu=True)


@row("dropout", "elementwise.py", "2^26 elements, p = 0.1", "bf16", "dropout")
def build_dropout(e: Env) -> Case:
    t = e.torch
    n = 4096 if e.tiny else 1 << 26
    p, seed = 0.1, 1234
    x = e.randn(n, dtype=t.bfloat16)
    y = t.empty_like(x)
    block = 256 if e.tiny else 1024

    def launch() -> Any:
        assert e.k is not None
        return e.k.dropout_fwd[(cdiv(n, block),)](x, y, n, p, seed, BLOCK=block)

    def check(ref: Any) -> None:
        dropped = (y == 0) & (x != 0)
        frac = dropped.float().mean().item()
        assert abs(frac - p) < 0.03, f"dropped {frac:.4f} of the elements, not {p}"
        kept = ~dropped
        close(y[kept], x[kept].float() / (1 - p), 1e-6, 1e-2, "kept")

    dropout = t.nn.functional.dropout
    return Case(
        launch,
        lambda: None,
        check,
        lambda: [y],
        lambda: dropout(x, p, training=True),
        nbytes=2 * n * 2,
    )


@row(
    "rotary",
    "elementwise.py",
    "8192 tokens, q 32 x 128, k 8 x 128, NeoX halves, in place",
    "bf16",
    "rotate-half composition",
)
def build_rotary(e: Env) -> Case:
    t = e.torch
    tokens, hq, hkv, d, block_q, block_k = (
        (6, 3, 2, 16, 4, 2) if e.tiny else (8192, 32, 8, 128, 32, 8)
    )
    half, max_pos = d // 2, 4096 if not e.tiny else 8
    q, k = e.randn(tokens, hq, d, dtype=t.bfloat16), e.randn(tokens, hkv, d, dtype=t.bfloat16)
    pos = (t.arange(tokens, device=e.device) % max_pos).to(t.int64)
    inv_freq = 1.0 / (10000.0 ** (t.arange(0, half, device=e.device, dtype=t.float32) / half))
    ang = t.arange(max_pos, device=e.device, dtype=t.float32)[:, None] * inv_freq[None, :]
    cos_sin = t.cat([ang.cos(), ang.sin()], dim=1).contiguous()
    q0, k0 = q.clone(), k.clone()

    def launch() -> Any:
        assert e.k is not None
        return e.k.rotary_neox[(tokens,)](
            q, k, pos, cos_sin, q.stride(0), q.stride(1), k.stride(0), k.stride(1),
            cos_sin.stride(0), hq, hkv, HALF=half, BLOCK_QH=block_q, BLOCK_KH=block_k,
        )  # fmt: skip

    def rope(v: Any) -> Any:
        c, s = cos_sin[pos, :half][:, None, :], cos_sin[pos, half:][:, None, :]
        v1, v2 = v.float().chunk(2, dim=-1)
        return t.cat([v1 * c - v2 * s, v2 * c + v1 * s], dim=-1)

    def check(ref: Any) -> None:
        close(q, ref[0], 1e-2, 1.6e-2, "q")
        close(k, ref[1], 1e-2, 1.6e-2, "k")

    return Case(
        launch,
        lambda: (rope(q), rope(k)),
        check,
        lambda: [q, k],
        lambda: (rope(q0).to(t.bfloat16), rope(k0).to(t.bfloat16)),
        nbytes=2 * tokens * (hq + hkv) * d * 2,
    )


# ---- GEMMs and fp8 -------------------------------------------------------------------------


@row(
    "matmul",
    "gemm.py",
    "4096^3, autotuned over 4 configs",
    "f16",
    "matmul (cuBLAS)",
    autotune=True,
)
def build_matmul(e: Env) -> Case:
    t = e.torch
    m, n, kk = (48, 40, 72) if e.tiny else (4096, 4096, 4096)
    a, b = e.randn(m, kk, dtype=t.float16), e.randn(kk, n, dtype=t.float16)
    c = e.empty(m, n, dtype=t.float16)
    strides = (a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1))

    def fixed(bm: int, bn: int, bk: int, g: int, warps: int, stages: int) -> Any:
        assert e.k is not None
        grid = (cdiv(m, bm) * cdiv(n, bn),)
        return e.k.matmul[grid](
            a, b, c, m, n, kk, *strides, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=g,
            num_warps=warps, num_stages=stages,
        )  # fmt: skip

    def tuned() -> Any:
        assert e.k is not None
        grid = lambda meta: (cdiv(m, meta["BLOCK_M"]) * cdiv(n, meta["BLOCK_N"]),)
        return e.k.matmul_autotuned[grid](a, b, c, m, n, kk, *strides)

    if e.tiny:  # the interpreter does not autotune: one small config
        launch = first = lambda: fixed(16, 32, 32, 2, 4, 2)
    else:
        launch, first = tuned, lambda: fixed(*e.k.MATMUL_CONFIGS[0]) if e.k else None
    return Case(
        launch,
        lambda: a.float() @ b.float(),
        lambda ref: close(c, ref, 0.1, 1e-2, "c"),
        lambda: [c],
        lambda: a @ b,
        first=first,
        flops=2 * m * n * kk,
    )


@row(
    "persistent_tma_matmul",
    "gemm.py",
    "4096^3, one program per SM, host tensor descriptors",
    "f16",
    "matmul (cuBLAS)",
)
def build_persistent_tma_matmul(e: Env) -> Case:
    t = e.torch
    if e.tiny:
        (m, n, kk), (bm, bn, bk, g, warps, stages) = (40, 48, 64), (16, 16, 32, 2, 4, 2)
        programs = 3
    else:
        (m, n, kk), (bm, bn, bk, g, warps, stages) = (4096,) * 3, (128, 256, 64, 8, 8, 3)
        programs = e.num_sms
    a, b = e.randn(m, kk, dtype=t.float16), e.randn(kk, n, dtype=t.float16)
    c = e.empty(m, n, dtype=t.float16)
    td = e.descriptor
    descs = (
        (td.from_tensor(a, [bm, bk]), td.from_tensor(b, [bk, bn]), td.from_tensor(c, [bm, bn]))
        if td is not None
        else None
    )

    def launch() -> Any:
        assert e.k is not None and descs is not None
        return e.k.matmul_persistent_tma[(min(programs, cdiv(m, bm) * cdiv(n, bn)),)](
            *descs, m, n, kk, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=g,
            NUM_PROGRAMS=programs, num_warps=warps, num_stages=stages,
        )  # fmt: skip

    return Case(
        launch,
        lambda: a.float() @ b.float(),
        lambda ref: close(c, ref, 0.1, 1e-2, "c"),
        lambda: [c],
        lambda: a @ b,
        flops=2 * m * n * kk,
    )


def moe_align(topk_ids: Any, num_experts: int, block_m: int) -> tuple[Any, Any, int]:
    """The routed rows (``token * top_k + j``) sorted by expert, each expert's list padded to a
    multiple of ``block_m`` with the number of routed rows (masked in the kernel), and each
    block's expert: what inference engines' ``moe_align_block_size`` makes on the GPU."""
    import torch

    flat = topk_ids.flatten()
    n_valid = flat.numel()
    ids, experts = [], []
    for ex in range(num_experts):
        rows = (flat == ex).nonzero().flatten().to(torch.int32)
        if rows.numel() == 0:
            continue
        pad = (-rows.numel()) % block_m
        ids.append(torch.cat([rows, rows.new_full((pad,), n_valid)]))
        experts += [ex] * ((rows.numel() + pad) // block_m)
    sorted_ids = torch.cat(ids)
    expert_ids = torch.tensor(experts, dtype=torch.int32, device=topk_ids.device)
    return sorted_ids, expert_ids, sorted_ids.numel()


@row(
    "fused_moe",
    "gemm.py",
    "8192 tokens, top-2 of 8 experts, 4096 -> 14336, routing weight applied",
    "bf16",
    "per-expert matmul loop",
)
def build_fused_moe(e: Env) -> Case:
    t = e.torch
    if e.tiny:
        tokens, ne, top_k, kk, n, (bm, bn, bk, g, warps, stages) = (
            10, 4, 2, 32, 24, (16, 16, 16, 2, 4, 2),
        )  # fmt: skip
    else:
        tokens, ne, top_k, kk, n, (bm, bn, bk, g, warps, stages) = (
            8192, 8, 2, 4096, 14336, (64, 128, 64, 8, 4, 3),
        )  # fmt: skip
    a = e.randn(tokens, kk, dtype=t.bfloat16)
    w = e.randn(ne, n, kk, dtype=t.bfloat16, scale=kk**-0.5)
    scores = t.softmax(e.randn(tokens, ne, dtype=t.float32), dim=1)
    topk_w, topk_ids = scores.topk(top_k, dim=1)
    topk_w = (topk_w / topk_w.sum(1, keepdim=True)).contiguous()
    sorted_ids, expert_ids, padded = moe_align(topk_ids, ne, bm)
    n_valid = tokens * top_k
    c = t.zeros(n_valid, n, device=e.device, dtype=t.bfloat16)
    grid = (cdiv(padded, bm) * cdiv(n, bn),)

    def launch() -> Any:
        assert e.k is not None
        return e.k.fused_moe_gemm[grid](
            a, w, c, topk_w, sorted_ids, expert_ids, padded, n_valid, n, kk,
            a.stride(0), a.stride(1), w.stride(0), w.stride(1), w.stride(2),
            c.stride(0), c.stride(1), TOP_K=top_k, MUL_ROUTED_WEIGHT=True,
            BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=g, num_warps=warps, num_stages=stages,
        )  # fmt: skip

    flat_ids, flat_w = topk_ids.flatten(), topk_w.flatten()

    def per_expert(dtype: Any) -> Any:
        out = t.empty(n_valid, n, device=e.device, dtype=dtype)
        for ex in range(ne):
            rows = (flat_ids == ex).nonzero().flatten()
            y = a[rows // top_k].to(dtype) @ w[ex].to(dtype).T
            out[rows] = (y * flat_w[rows, None].to(dtype)).to(dtype)
        return out

    return Case(
        launch,
        lambda: per_expert(t.float32),
        lambda ref: close(c, ref, 2e-2, 2e-2, "c"),
        lambda: [c],
        lambda: per_expert(t.bfloat16),
        flops=2 * n_valid * n * kk,
    )


def _fp8_reference(x: Any, group: int) -> tuple[Any, Any]:
    import torch

    m, kk = x.shape
    xg = x.float().view(m, kk // group, group)
    s = xg.abs().amax(-1).clamp(min=1e-10) / 448.0
    q = (xg / s[..., None]).clamp(-448.0, 448.0).to(torch.float8_e4m3fn)
    return q.view(m, kk), s


@row(
    "fp8_quant",
    "gemm.py",
    "16384 x 4096, e4m3, one scale per 128 of a token",
    "bf16->e4m3",
    "amax / 448 composition",
)
def build_fp8_quant(e: Env) -> Case:
    t = e.torch
    m, kk = _rows_shape(e, 16384, 4096, (3, 256))
    group = 128 if not e.tiny else 32
    x = e.randn(m, kk, dtype=t.bfloat16, scale=4.0)
    q = e.empty(m, kk, dtype=t.float8_e4m3fn)
    s = e.empty(m, kk // group, dtype=t.float32)

    def launch() -> Any:
        assert e.k is not None
        return e.k.quant_fp8_per_token_group[(m * kk // group,)](
            x, q, s, 1e-10, -448.0, 448.0, GROUP=group, num_warps=1
        )

    def check(ref: Any) -> None:
        close(s, ref[1], 0, 1e-6, "scales")
        close(q, ref[0], 0, 0.13, "q")  # one e4m3 step at most (x / scale may round apart)

    return Case(
        launch,
        lambda: _fp8_reference(x, group),
        check,
        lambda: [q.float(), s],
        lambda: _fp8_reference(x, group),
        nbytes=m * kk * 3,
    )


@row(
    "fp8_dequant",
    "gemm.py",
    "16384 x 4096, e4m3 times its group's scale",
    "e4m3->bf16",
    "q * scale composition",
)
def build_fp8_dequant(e: Env) -> Case:
    t = e.torch
    m, kk = _rows_shape(e, 16384, 4096, (3, 256))
    group, block = (32, 64) if e.tiny else (128, 1024)
    q, s = _fp8_reference(e.randn(m, kk, dtype=t.bfloat16, scale=4.0), group)
    y = e.empty(m, kk, dtype=t.bfloat16)

    def launch() -> Any:
        assert e.k is not None
        return e.k.dequant_fp8_per_token_group[(m, cdiv(kk, block))](
            q, s, y, kk, GROUP=group, BLOCK_K=block
        )

    def dequant() -> Any:
        return (q.float().view(m, kk // group, group) * s[..., None]).view(m, kk)

    return Case(
        launch,
        dequant,
        lambda ref: close(y, ref, 1e-6, 1e-2, "y"),
        lambda: [y],
        lambda: dequant().to(t.bfloat16),
        nbytes=m * kk * 3,
    )
