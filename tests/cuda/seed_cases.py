"""Launch recipes for every kernel of ``tests/kernels.py``: arguments, constexprs and grid.

Sizes are chosen to exercise edge tiles (sizes that are not multiples of the blocks), 2-D
grids and several programs. Outputs start as NaN, so an element a kernel fails to write shows.
The nvcc check compiles each recipe's CUDA C++; the GPU tests run each one and compare with the
case's NumPy reference (``tests/kernel_references.py``) and with the interpreter.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mytriton.utils import cdiv
from tests import kernels
from tests.kernel_references import Reference, expected_outputs, reference


@dataclass(frozen=True)
class SeedCase:
    kernel: Any
    make_args: Callable[[np.random.Generator], list[Any]]  # NumPy arrays and scalars
    grid: tuple[int, ...]
    constexprs: dict[str, Any] = field(default_factory=dict)
    num_warps: int = 4

    def args(self, seed: int = 0) -> list[Any]:
        return self.make_args(np.random.default_rng(seed))

    @property
    def reference(self) -> Reference:
        """The kernel's NumPy reference: what it must write for given arguments."""
        return reference(self.kernel)

    def expected(self, args: list[Any]) -> dict[int, np.ndarray]:
        """What the launch must write into ``args`` (before it runs), by argument position."""
        return expected_outputs(self.kernel, args, self.constexprs)


def _f(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return rng.standard_normal(shape).astype(np.float32)


def _z(*shape: int) -> np.ndarray:
    """An output: NaN until written."""
    return np.full(shape, np.nan, np.float32)


def _matmul_args(
    m: int, n: int, k: int, runtime_k: bool
) -> Callable[[np.random.Generator], list[Any]]:
    def make(rng: np.random.Generator) -> list[Any]:
        args: list[Any] = [_f(rng, m, k), _f(rng, k, n), _z(m, n), m, n]
        return [*args, k] if runtime_k else args

    return make


def _tutorial_args(m: int, n: int, k: int) -> Callable[[np.random.Generator], list[Any]]:
    def make(rng: np.random.Generator) -> list[Any]:
        return [_f(rng, m, k), _f(rng, k, n), _z(m, n), m, n, k, k, 1, n, 1, n, 1]

    return make


SEED_CASES: dict[str, SeedCase] = {
    "add": SeedCase(
        kernels.add_kernel,
        lambda r: [_f(r, 1000), _f(r, 1000), _z(1000), 1000],
        (4,),
        {"BLOCK": 256},
    ),
    "copy": SeedCase(
        kernels.copy_kernel, lambda r: [_f(r, 1000), _z(1000), 1000], (8,), {"BLOCK": 128}
    ),
    "relu": SeedCase(
        kernels.relu_kernel, lambda r: [_f(r, 1000), _z(1000), 1000], (8,), {"BLOCK": 128}
    ),
    "leaky_relu": SeedCase(
        kernels.leaky_relu_kernel,
        lambda r: [_f(r, 1000), _z(1000), 1000, 0.1],
        (8,),
        {"BLOCK": 128},
    ),
    "sigmoid": SeedCase(
        kernels.sigmoid_kernel, lambda r: [_f(r, 1000), _z(1000), 1000], (8,), {"BLOCK": 128}
    ),
    "matrix_add_2d": SeedCase(
        kernels.matrix_add_2d_kernel,
        lambda r: [_f(r, 37, 45), _f(r, 37, 45), _z(37, 45), 37, 45],
        (cdiv(37, 16), cdiv(45, 32)),
        {"BM": 16, "BN": 32},
    ),
    "row_sum": SeedCase(
        kernels.row_sum_kernel, lambda r: [_f(r, 7, 100), _z(7), 100], (7,), {"BLOCK": 128}
    ),
    "row_max": SeedCase(
        kernels.row_max_kernel, lambda r: [_f(r, 7, 100), _z(7), 100], (7,), {"BLOCK": 128}
    ),
    "row_min": SeedCase(
        kernels.row_min_kernel, lambda r: [_f(r, 7, 100), _z(7), 100], (7,), {"BLOCK": 128}
    ),
    "softmax": SeedCase(
        kernels.softmax_kernel, lambda r: [_f(r, 7, 100), _z(7, 100), 100], (7,), {"BLOCK": 128}
    ),
    "long_row_sum": SeedCase(
        kernels.long_row_sum_kernel,
        lambda r: [_f(r, 3, 1000), _z(3), 1000],
        (3,),
        {"BLOCK": 256, "CHUNKS": 4},
    ),
    "runtime_sum": SeedCase(kernels.runtime_sum_kernel, lambda r: [_f(r, 100), _z(1), 100], (1,)),
    "runtime_block_sum": SeedCase(
        kernels.runtime_block_sum_kernel,
        lambda r: [_f(r, 1000), _z(128), 1000],
        (1,),
        {"BLOCK": 128},
    ),
    "nested_loop": SeedCase(
        kernels.nested_loop_kernel, lambda r: [_f(r, 10, 20), _z(1), 10, 20], (1,)
    ),
    "factories": SeedCase(kernels.factories_kernel, lambda r: [_z(128), 1.5], (1,), {"BLOCK": 128}),
    "naive_matmul": SeedCase(
        kernels.naive_matmul_kernel,
        lambda r: [_f(r, 8, 4), _f(r, 4, 13), _z(8, 13), 8, 13],
        (8,),
        {"K": 4, "BN": 16},
    ),
    "tiled_matmul": SeedCase(
        kernels.tiled_matmul_kernel,
        _matmul_args(20, 40, 30, runtime_k=False),
        (cdiv(20, 16), cdiv(40, 16)),
        {"K": 30, "BM": 16, "BN": 16, "BK": 16},  # K >= 16: NVIDIA's least f32 dot
    ),
    "tiled_matmul_runtime_k": SeedCase(
        kernels.tiled_matmul_runtime_k_kernel,
        _matmul_args(20, 40, 30, runtime_k=True),
        (cdiv(20, 16), cdiv(40, 16)),
        {"BM": 16, "BN": 16, "BK": 16},
    ),
    "tutorial_matmul": SeedCase(
        kernels.tutorial_matmul_kernel,
        _tutorial_args(70, 50, 45),
        (cdiv(70, 32) * cdiv(50, 32),),
        {"BLOCK_SIZE_M": 32, "BLOCK_SIZE_N": 32, "BLOCK_SIZE_K": 16, "GROUP_SIZE_M": 4},
    ),
    "fused_softmax": SeedCase(
        kernels.fused_softmax_kernel,
        lambda r: [_z(5, 1000), _f(r, 5, 1000), 1000, 1000, 5, 1000],
        (5,),
        {"BLOCK_SIZE": 1024},
    ),
    "fused_softmax_4096": SeedCase(
        kernels.fused_softmax_kernel,
        lambda r: [_z(3, 3000), _f(r, 3, 3000), 3000, 3000, 3, 3000],
        (3,),
        {"BLOCK_SIZE": 4096},
        num_warps=8,
    ),
    "layer_norm_no_sqrt": SeedCase(
        kernels.layer_norm_no_sqrt_kernel,
        lambda r: [_f(r, 6, 300), _z(6, 300), 300, 1e-5],
        (6,),
        {"BLOCK": 512},
    ),
}
