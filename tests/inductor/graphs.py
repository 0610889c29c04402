"""The ``torch.compile`` graphs of the Inductor suite: each a function, inputs made on a device,
the ``torch.compile`` options it needs and how its result is checked against eager PyTorch.

Shared by the test (``test_torch_compile.py``, through ``runner.py`` in a subprocess with
``MYTRITON_AS_TRITON=1``) and ``benchmarks/torch_compile.py`` (the same graphs on mytriton and on
real Triton). Importing this module needs torch but never ``triton``: only the graphs that call a
user kernel import it, when their inputs are made (in the subprocess, where the alias is on).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import torch
from torch.nn import functional as nnf

Inputs = Callable[[str], tuple[Any, ...]]


@dataclass(frozen=True)
class Graph:
    """One graph: ``fn(*inputs(device))`` compiled with ``compile_kwargs`` under the Inductor
    ``config`` patch, compared with eager by ``check`` (default: ``torch.testing.assert_close``
    with ``rtol``/``atol``, None meaning the dtype's defaults)."""

    name: str
    fn: Callable[..., Any]
    inputs: Inputs
    compile_kwargs: dict[str, Any] = field(default_factory=dict)
    config: dict[str, Any] = field(default_factory=dict)
    rtol: float | None = None
    atol: float | None = None
    #: ``check(compiled_out, eager_out, inputs)`` for results that eager cannot reproduce
    #: bit for bit (random numbers)
    check: Callable[[Any, Any, tuple[Any, ...]], None] | None = None
    #: further inputs run through the same compiled function (dynamic shapes)
    more_inputs: tuple[Inputs, ...] = ()
    #: compare gradients too: ``fn`` returns a loss, ``inputs`` has leaves requiring grad
    backward: bool = False
    #: eager runs on float32 copies of the inputs and its results are cast back: Inductor
    #: computes half-precision math in float32 and rounds once, eager rounds every op
    upcast: bool = False


GRAPHS: dict[str, Graph] = {}


def graph(name: str, inputs: Inputs, **kwargs: Any) -> Callable[[Callable[..., Any]], Any]:
    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        assert name not in GRAPHS, name
        GRAPHS[name] = Graph(name, fn, inputs, **kwargs)
        return fn

    return register


def _gen(device: str, seed: int = 0) -> torch.Generator:
    return torch.Generator(device="cpu").manual_seed(seed)


def randn(*shape: int, device: str, dtype: torch.dtype = torch.float32, seed: int = 0) -> Any:
    """Normal numbers made on the CPU (the same on every device), then moved."""
    return torch.randn(*shape, generator=_gen(device, seed)).to(device=device, dtype=dtype)


def randint(low: int, high: int, *shape: int, device: str, dtype: Any = torch.int64, seed: int = 0):
    return torch.randint(low, high, shape, generator=_gen(device, seed)).to(device, dtype)


# --- pointwise -----------------------------------------------------------------------------


@graph("pointwise_add_mul", lambda d: (randn(1000, device=d), randn(1000, device=d, seed=1)))
def _pointwise_add_mul(x: Any, y: Any) -> Any:
    return x * y + 1.5


@graph(
    "pointwise_math",
    lambda d: (randn(33, 65, device=d),),
    rtol=1e-5,
    atol=1e-5,
)
def _pointwise_math(x: Any) -> Any:
    return torch.sin(x) * torch.exp(-x.abs()) + torch.tanh(x) + torch.sigmoid(x) + torch.erf(x)


@graph(
    "pointwise_broadcast_where", lambda d: (randn(17, 40, device=d), randn(40, device=d, seed=1))
)
def _pointwise_broadcast_where(x: Any, y: Any) -> Any:
    return torch.where(x > 0, x, y[None, :]).clamp(-0.5, 2.0)


@graph("pointwise_strided", lambda d: (randn(48, 64, device=d), randn(64, 48, device=d, seed=1)))
def _pointwise_strided(x: Any, y: Any) -> Any:
    return torch.cat([x + y.t(), x[:, ::2].repeat(1, 2)], dim=0).relu()


@graph(
    "pointwise_int_math",
    lambda d: (randint(-100, 100, 500, device=d), randint(1, 9, 500, device=d, seed=1)),
)
def _pointwise_int_math(x: Any, y: Any) -> Any:
    return torch.div(x, y, rounding_mode="floor") * 3 + torch.remainder(x, y) - (x >> 2)


@graph(
    "gather_embedding",
    lambda d: (randn(50, 16, device=d), randint(0, 50, 4, 7, device=d, seed=1)),
)
def _gather_embedding(table: Any, idx: Any) -> Any:
    return nnf.embedding(idx, table) * 2.0


# --- reductions ----------------------------------------------------------------------------


@graph("sum_persistent", lambda d: (randn(64, 128, device=d),), rtol=1e-5, atol=1e-5)
def _sum_persistent(x: Any) -> Any:
    return x.sum(dim=1)


@graph(
    "sum_looped",
    lambda d: (randn(8, 3000, device=d),),
    config={"triton.persistent_reductions": False},
    rtol=1e-4,
    atol=1e-4,
)
def _sum_looped(x: Any) -> Any:
    return x.sum(dim=1) + x.amax(dim=1)


@graph("reduce_columns", lambda d: (randn(300, 24, device=d),), rtol=1e-5, atol=1e-5)
def _reduce_columns(x: Any) -> Any:
    return x.mean(dim=0), x.amin(dim=0)


@graph("sum_all_split", lambda d: (randn(70000, device=d),), rtol=1e-4, atol=1e-3)
def _sum_all_split(x: Any) -> Any:
    return x.sum(), (x * x).max()


@graph("var_mean_welford", lambda d: (randn(16, 1500, device=d),), rtol=1e-4, atol=1e-5)
def _var_mean_welford(x: Any) -> Any:
    return torch.var_mean(x, dim=1, correction=1)


@graph("logsumexp", lambda d: (randn(10, 300, device=d),), rtol=1e-5, atol=1e-5)
def _logsumexp(x: Any) -> Any:
    return torch.logsumexp(x, dim=-1)


@graph("softmax", lambda d: (randn(32, 100, device=d),), rtol=1e-5, atol=1e-6)
def _softmax(x: Any) -> Any:
    return torch.softmax(x, dim=-1)


@graph(
    "log_softmax_looped",
    lambda d: (randn(4, 5000, device=d),),
    config={"triton.persistent_reductions": False},
    rtol=1e-5,
    atol=1e-5,
)
def _log_softmax_looped(x: Any) -> Any:
    return torch.log_softmax(x, dim=-1)


@graph(
    "layer_norm",
    lambda d: (
        randn(24, 256, device=d),
        randn(256, device=d, seed=1),
        randn(256, device=d, seed=2),
    ),
    rtol=1e-4,
    atol=1e-4,
)
def _layer_norm(x: Any, w: Any, b: Any) -> Any:
    return nnf.layer_norm(x, (256,), w, b, eps=1e-5)


@graph(
    "rms_norm",
    lambda d: (randn(24, 192, device=d), randn(192, device=d, seed=1)),
    rtol=1e-5,
    atol=1e-5,
)
def _rms_norm(x: Any, w: Any) -> Any:
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * w


@graph("argmax_argmin", lambda d: (randn(20, 333, device=d),))
def _argmax_argmin(x: Any) -> Any:
    return x.argmax(dim=1), x.argmin(dim=0)


@graph("cumsum", lambda d: (randn(6, 200, device=d),), rtol=1e-5, atol=1e-5)
def _cumsum(x: Any) -> Any:
    return torch.cumsum(x, dim=1), torch.cumprod(x[:, :20] * 0.5 + 1, dim=1)


@graph("sort", lambda d: (randn(8, 64, device=d),))
def _sort(x: Any) -> Any:
    values, indices = torch.sort(x, dim=-1, descending=True, stable=True)
    return values, indices


# --- networks ------------------------------------------------------------------------------


def _mlp_inputs(device: str) -> tuple[Any, ...]:
    x = randn(16, 32, device=device)
    w1 = (randn(64, 32, device=device, seed=1) * 0.2).requires_grad_()
    b1 = (randn(64, device=device, seed=2) * 0.1).requires_grad_()
    w2 = (randn(10, 64, device=device, seed=3) * 0.2).requires_grad_()
    target = randint(0, 10, 16, device=device, seed=4)
    return x, w1, b1, w2, target


@graph("mlp_train_step", _mlp_inputs, backward=True, rtol=1e-4, atol=1e-5)
def _mlp_train_step(x: Any, w1: Any, b1: Any, w2: Any, target: Any) -> Any:
    h = nnf.gelu(nnf.linear(x, w1, b1))
    h = nnf.layer_norm(h, (64,))
    return nnf.cross_entropy(nnf.linear(h, w2), target)


@graph(
    "norm_backward",
    lambda d: (
        randn(8, 48, device=d).requires_grad_(),
        randn(48, device=d, seed=1).requires_grad_(),
    ),
    backward=True,
    rtol=1e-4,
    atol=1e-5,
)
def _norm_backward(x: Any, w: Any) -> Any:
    y = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * w
    return (torch.softmax(y, dim=-1) * torch.arange(48, device=x.device)).sum()


# --- random numbers ------------------------------------------------------------------------


def _check_dropout(out: Any, ref: Any, inputs: tuple[Any, ...]) -> None:
    x = inputs[0]
    kept = out != 0
    torch.testing.assert_close(out[kept], x[kept] * 2.0)  # p = 0.5: kept values scale by 2
    fraction = kept.float().mean().item()
    assert 0.4 < fraction < 0.6, f"dropout kept {fraction:.3f} of the values, expected ~0.5"


@graph("dropout", lambda d: (randn(64, 64, device=d).abs() + 0.1,), check=_check_dropout)
def _dropout(x: Any) -> Any:
    return nnf.dropout(x, p=0.5, training=True)


def _check_rand(out: Any, ref: Any, inputs: tuple[Any, ...]) -> None:
    uniform, normal = out
    assert uniform.shape == ref[0].shape and normal.shape == ref[1].shape
    assert float(uniform.min()) >= 0.0 and float(uniform.max()) < 1.0
    assert abs(float(uniform.mean()) - 0.5) < 0.05, float(uniform.mean())
    assert abs(float(normal.mean())) < 0.1 and abs(float(normal.std()) - 1.0) < 0.1
    assert len(torch.unique(uniform)) > uniform.numel() * 0.9  # not one value repeated


@graph("rand_randn", lambda d: (randn(4096, device=d),), check=_check_rand)
def _rand_randn(x: Any) -> Any:
    return torch.rand_like(x), torch.randn_like(x)


# --- dtypes --------------------------------------------------------------------------------


@graph(
    "fp16_pointwise",
    lambda d: (
        randn(300, device=d, dtype=torch.float16),
        randn(300, device=d, dtype=torch.float16, seed=1),
    ),
    upcast=True,
)
def _fp16_pointwise(x: Any, y: Any) -> Any:
    return (x * y + x).relu() * 0.5


@graph(
    "bf16_reduction",
    lambda d: (randn(12, 200, device=d, dtype=torch.bfloat16),),
    rtol=2e-2,
    atol=2e-2,
)
def _bf16_reduction(x: Any) -> Any:
    return x.sum(dim=1), torch.softmax(x, dim=-1)


@graph(
    "int8_math",
    lambda d: (
        randint(-128, 128, 256, device=d, dtype=torch.int8),
        randint(-128, 128, 256, device=d, dtype=torch.int8, seed=1),
    ),
)
def _int8_math(x: Any, y: Any) -> Any:
    return x + y, x.to(torch.float32) * 0.25 + y.to(torch.int32), torch.maximum(x, y)


# --- atomics and search --------------------------------------------------------------------


@graph(
    "index_add",
    lambda d: (
        randn(20, 8, device=d),
        randint(0, 20, 64, device=d, seed=1),
        randn(64, 8, device=d, seed=2),
    ),
    rtol=1e-5,
    atol=1e-5,
)
def _index_add(x: Any, idx: Any, src: Any) -> Any:
    return x.index_add(0, idx, src)


@graph(
    "scatter_add",
    lambda d: (randint(0, 30, 500, device=d, seed=1), randn(500, device=d, seed=2)),
    rtol=1e-5,
    atol=1e-5,
)
def _scatter_add(idx: Any, src: Any) -> Any:
    out = torch.zeros(30, device=src.device)
    return out.scatter_add(0, idx, src), torch.bincount(idx, minlength=30)


@graph(
    "bucketize",
    lambda d: (randn(400, device=d) * 3, torch.linspace(-4, 4, 17, device=d)),
)
def _bucketize(x: Any, boundaries: Any) -> Any:
    return torch.bucketize(x, boundaries), torch.bucketize(x, boundaries, right=True)


# --- pooling -------------------------------------------------------------------------------


@graph("max_pool2d", lambda d: (randn(2, 3, 16, 16, device=d),))
def _max_pool2d(x: Any) -> Any:
    return nnf.max_pool2d(x, kernel_size=3, stride=2, padding=1)


@graph("avg_pool2d", lambda d: (randn(2, 3, 12, 12, device=d),), rtol=1e-5, atol=1e-6)
def _avg_pool2d(x: Any) -> Any:
    return nnf.avg_pool2d(x, kernel_size=2), nnf.adaptive_avg_pool2d(x, 1)


# --- shapes and kernels --------------------------------------------------------------------


@graph(
    "dynamic_shapes",
    lambda d: (randn(37, 50, device=d),),
    compile_kwargs={"dynamic": True},
    more_inputs=(lambda d: (randn(101, 13, device=d, seed=3),),),
    rtol=1e-5,
    atol=1e-5,
)
def _dynamic_shapes(x: Any) -> Any:
    return torch.softmax(x * 2, dim=-1) + x.sum(dim=0, keepdim=True)


def _user_kernel() -> Any:
    """A user ``@triton.jit`` kernel, written against ``import triton`` (mytriton in the
    subprocess); defined on first use so that importing this module needs no triton."""
    global _USER_KERNEL
    if _USER_KERNEL is None:
        import triton
        import triton.language as tl

        @triton.jit
        def scaled_add_kernel(x_ptr, y_ptr, out_ptr, n, alpha, BLOCK: tl.constexpr):
            offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            mask = offsets < n
            x = tl.load(x_ptr + offsets, mask=mask)
            y = tl.load(y_ptr + offsets, mask=mask)
            tl.store(out_ptr + offsets, x + alpha * y, mask=mask)

        _USER_KERNEL = scaled_add_kernel
    return _USER_KERNEL


_USER_KERNEL: Any = None


def _user_kernel_inputs(device: str) -> tuple[Any, ...]:
    _user_kernel()
    return randn(300, device=device), randn(300, device=device, seed=1)


@graph("user_triton_kernel", _user_kernel_inputs, rtol=1e-5, atol=1e-5)
def _user_triton_kernel(x: Any, y: Any) -> Any:
    kernel = _USER_KERNEL
    x = x.relu()
    out = torch.empty_like(x)
    n = x.numel()
    kernel[(triton_cdiv(n, 128),)](x, y, out, n, 0.5, BLOCK=128)
    return out * 2


def triton_cdiv(a: int, b: int) -> int:
    return (a + b - 1) // b


@graph(
    "max_autotune_pointwise",
    lambda d: (randn(2000, device=d), randn(2000, device=d, seed=1)),
    config={"max_autotune_pointwise": True, "max_autotune": True},
    rtol=1e-5,
    atol=1e-5,
)
def _max_autotune_pointwise(x: Any, y: Any) -> Any:
    return torch.relu(x) * torch.cos(y) + x * y


@graph(
    "cooperative_reduction",
    lambda d: (randn(8192, device=d),),
    # on the CPU only when forced; its kernels' programs meet at a grid-wide barrier
    config={"triton.cooperative_reductions": True, "triton.force_cooperative_reductions": True},
    rtol=1e-4,
    atol=1e-4,
)
def _cooperative_reduction(x: Any) -> Any:
    var, mean = torch.var_mean(x)
    return x.sum(), x.amax(), var, mean
