"""An independent NumPy reference for every kernel of ``tests/kernels.py``.

GPU results are also compared with the interpreter, but the interpreter runs the same frontend
output and the same optimised `tt`: a frontend or `tt`-pass bug gives the same wrong answer on
both sides. These references compute, in float64 from the launch's inputs, what each kernel
must write, straight from its Triton semantics.

A reference takes the launch's arguments (NumPy arrays as they are *before* the launch, and
scalars) and its constexprs, and returns the expected contents of every array the kernel writes,
keyed by argument position. Elements a kernel must leave alone keep their initial value. Each
assumes its usual grid: one that covers the whole problem.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from tests import kernels

Reference = Callable[[Sequence[Any], Mapping[str, Any]], dict[int, np.ndarray]]

REFERENCES: dict[Any, Reference] = {}


def reference(kernel: Any) -> Reference:
    """The reference of one kernel of ``tests/kernels.py``."""
    found = REFERENCES.get(kernel)
    if found is None:
        raise KeyError(f"{kernel!r} has no NumPy reference in tests/kernel_references.py")
    return found


def expected_outputs(kernel: Any, args: Sequence[Any], meta: Mapping[str, Any]) -> dict[int, Any]:
    """What ``kernel`` must write for these (not yet launched) arguments, by argument position."""
    host = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    return reference(kernel)(host, meta)


def assert_matches_reference(
    got: Sequence[Any],
    expected: Mapping[int, np.ndarray],
    to_host: Callable[[Any], np.ndarray] = np.asarray,
    rtol: float = 1e-4,
    atol: float = 1e-4,
    what: str = "",
) -> None:
    """Every written array of ``got`` (arguments after the launch) against its reference."""
    for index, want in expected.items():
        np.testing.assert_allclose(
            to_host(got[index]),
            want,
            rtol=rtol,
            atol=atol,
            err_msg=f"{what}argument {index} differs from the NumPy reference",
        )


def _registers(kernel: Any) -> Callable[[Reference], Reference]:
    def register(fn: Reference) -> Reference:
        REFERENCES[kernel] = fn
        return fn

    return register


def _f64(a: np.ndarray) -> np.ndarray:
    return np.asarray(a, np.float64).reshape(-1)


def _start(a: np.ndarray) -> np.ndarray:
    """The initial contents of an output, flat, in float64."""
    return _f64(a).copy()


def _shaped(flat: np.ndarray, like: np.ndarray) -> np.ndarray:
    return flat.reshape(like.shape)


def _softmax_rows(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


# ---- 1-D elementwise: out[:n] = f(x[:n])


def _elementwise(
    fn: Callable[..., np.ndarray], inputs: int
) -> Callable[[Sequence[Any], Mapping[str, Any]], dict[int, np.ndarray]]:
    def ref(args: Sequence[Any], meta: Mapping[str, Any]) -> dict[int, np.ndarray]:
        ins, out, n = args[:inputs], args[inputs], int(args[inputs + 1])
        want = _start(out)
        want[:n] = fn(*(_f64(x)[:n] for x in ins), *args[inputs + 2 :])
        return {inputs: _shaped(want, out)}

    return ref


def _sigmoid(x: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        return 1.0 / (1.0 + np.exp(-x))


REFERENCES[kernels.add_kernel] = _elementwise(lambda x, y: x + y, 2)
REFERENCES[kernels.copy_kernel] = _elementwise(lambda x: x, 1)
# tl.maximum ignores a NaN operand (maxnum): relu(NaN) is 0
REFERENCES[kernels.relu_kernel] = _elementwise(lambda x: np.fmax(x, 0.0), 1)
REFERENCES[kernels.leaky_relu_kernel] = _elementwise(
    lambda x, alpha: np.where(x > 0, x, x * float(np.float32(alpha))), 1
)
REFERENCES[kernels.sigmoid_kernel] = _elementwise(_sigmoid, 1)


@_registers(kernels.factories_kernel)
def _factories(args: Sequence[Any], meta: Mapping[str, Any]) -> dict[int, np.ndarray]:
    out, fill = args[0], float(np.float32(args[1]))
    want = _start(out)
    want[: meta["BLOCK"]] = 2.5 * fill
    return {0: _shaped(want, out)}


# ---- 2-D tiles


@_registers(kernels.matrix_add_2d_kernel)
def _matrix_add_2d(args: Sequence[Any], meta: Mapping[str, Any]) -> dict[int, np.ndarray]:
    x, y, out, m, n = args
    want = _start(out)
    want[: m * n] = _f64(x)[: m * n] + _f64(y)[: m * n]
    return {2: _shaped(want, out)}


# ---- one row per program (as many rows as the output holds)


def _rows(x: np.ndarray, rows: int, stride: int, cols: int) -> np.ndarray:
    """``x`` seen as ``rows`` rows ``stride`` apart, their first ``cols`` elements."""
    flat = _f64(x)
    return np.stack([flat[r * stride : r * stride + cols] for r in range(rows)])


def _row_reduction(
    fn: Callable[..., np.ndarray],
) -> Callable[[Sequence[Any], Mapping[str, Any]], dict[int, np.ndarray]]:
    def ref(args: Sequence[Any], meta: Mapping[str, Any]) -> dict[int, np.ndarray]:
        x, out, n = args
        rows = _rows(x, out.size, n, min(n, meta["BLOCK"]))
        return {1: _shaped(fn(rows, axis=1), out)}

    return ref


REFERENCES[kernels.row_sum_kernel] = _row_reduction(np.sum)
# tl.max / tl.min ignore NaN elements
REFERENCES[kernels.row_max_kernel] = _row_reduction(np.nanmax)
REFERENCES[kernels.row_min_kernel] = _row_reduction(np.nanmin)


@_registers(kernels.softmax_kernel)
def _softmax(args: Sequence[Any], meta: Mapping[str, Any]) -> dict[int, np.ndarray]:
    x, out, n = args
    rows, cols = out.size // n, min(n, meta["BLOCK"])
    want = _start(out).reshape(rows, n)
    want[:, :cols] = _softmax_rows(_rows(x, rows, n, cols))
    return {1: _shaped(want, out)}


@_registers(kernels.long_row_sum_kernel)
def _long_row_sum(args: Sequence[Any], meta: Mapping[str, Any]) -> dict[int, np.ndarray]:
    x, out, n = args
    rows = _rows(x, out.size, n, min(n, meta["BLOCK"] * meta["CHUNKS"]))
    return {1: _shaped(rows.sum(axis=1), out)}


@_registers(kernels.fused_softmax_kernel)
def _fused_softmax(args: Sequence[Any], meta: Mapping[str, Any]) -> dict[int, np.ndarray]:
    out, x, in_stride, out_stride, n_rows, n_cols = args
    cols = min(n_cols, meta["BLOCK_SIZE"])
    result = _softmax_rows(_rows(x, n_rows, in_stride, cols))
    want = _start(out)
    for r in range(n_rows):
        want[r * out_stride : r * out_stride + cols] = result[r]
    return {0: _shaped(want, out)}


@_registers(kernels.layer_norm_no_sqrt_kernel)
def _layer_norm_no_sqrt(args: Sequence[Any], meta: Mapping[str, Any]) -> dict[int, np.ndarray]:
    x, out, n, eps = args
    rows = _rows(x, out.size // n, n, n)
    d = rows - rows.mean(axis=1, keepdims=True)
    return {1: _shaped(d / ((d * d).mean(axis=1, keepdims=True) + float(np.float32(eps))), out)}


# ---- runtime loops


@_registers(kernels.runtime_sum_kernel)
def _runtime_sum(args: Sequence[Any], meta: Mapping[str, Any]) -> dict[int, np.ndarray]:
    x, out, k = args
    want = _start(out)
    want[0] = _f64(x)[:k].sum()
    return {1: _shaped(want, out)}


@_registers(kernels.runtime_block_sum_kernel)
def _runtime_block_sum(args: Sequence[Any], meta: Mapping[str, Any]) -> dict[int, np.ndarray]:
    x, out, n = args
    block = meta["BLOCK"]
    padded = np.zeros(-(-n // block) * block)
    padded[:n] = _f64(x)[:n]
    want = _start(out)
    want[:block] = padded.reshape(-1, block).sum(axis=0)
    return {1: _shaped(want, out)}


@_registers(kernels.nested_loop_kernel)
def _nested_loop(args: Sequence[Any], meta: Mapping[str, Any]) -> dict[int, np.ndarray]:
    x, out, m, n = args
    row_sums = _f64(x)[: m * n].reshape(m, n).sum(axis=1)
    want = _start(out)
    want[0] = (row_sums * row_sums).sum()
    return {1: _shaped(want, out)}


# ---- matmuls: C (M x N) = A (M x K) @ B (K x N), all row-major unless strides say otherwise


def _matmul_into(c: np.ndarray, a: np.ndarray, b: np.ndarray, m: int, n: int, k: int) -> Any:
    want = _start(c)
    want[: m * n] = (_f64(a)[: m * k].reshape(m, k) @ _f64(b)[: k * n].reshape(k, n)).reshape(-1)
    return _shaped(want, c)


@_registers(kernels.naive_matmul_kernel)
def _naive_matmul(args: Sequence[Any], meta: Mapping[str, Any]) -> dict[int, np.ndarray]:
    a, b, c, m, n = args
    assert n <= meta["BN"], "one program covers a whole row of C"
    return {2: _matmul_into(c, a, b, m, n, meta["K"])}


@_registers(kernels.tiled_matmul_kernel)
def _tiled_matmul(args: Sequence[Any], meta: Mapping[str, Any]) -> dict[int, np.ndarray]:
    a, b, c, m, n = args
    return {2: _matmul_into(c, a, b, m, n, meta["K"])}


@_registers(kernels.tiled_matmul_runtime_k_kernel)
def _tiled_matmul_runtime_k(args: Sequence[Any], meta: Mapping[str, Any]) -> dict[int, np.ndarray]:
    a, b, c, m, n, k = args
    return {2: _matmul_into(c, a, b, m, n, k)}


@_registers(kernels.tutorial_matmul_kernel)
def _tutorial_matmul(args: Sequence[Any], meta: Mapping[str, Any]) -> dict[int, np.ndarray]:
    a, b, c, m, n, k, sam, sak, sbk, sbn, scm, scn = args
    rm, rn, rk = np.arange(m)[:, None], np.arange(n)[None, :], np.arange(k)
    lhs = _f64(a)[rm * sam + rk[None, :] * sak]
    rhs = _f64(b)[rk[:, None] * sbk + rn * sbn]
    want = _start(c)
    want[rm * scm + rn * scn] = lhs @ rhs
    return {2: _shaped(want, c)}
