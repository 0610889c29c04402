"""The kernel suite (``tests/kernels.py``) with arguments: compiled without a GPU, compared
against the interpreter on one."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from tests import kernels


@dataclass(frozen=True)
class Case:
    name: str
    kernel: Any
    make: Callable[[np.random.Generator], tuple[list[Any], dict[str, Any]]]
    grid: tuple[int, ...]


def _f32(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return rng.standard_normal(shape).astype(np.float32)


def _zeros(*shape: int) -> np.ndarray:
    return np.zeros(shape, np.float32)


def _binary(rng: np.random.Generator) -> tuple[list[Any], dict[str, Any]]:
    return [_f32(rng, 1000), _f32(rng, 1000), _zeros(1000), 1000], {"BLOCK": 256}


def _unary(rng: np.random.Generator) -> tuple[list[Any], dict[str, Any]]:
    return [_f32(rng, 1000), _zeros(1000), 1000], {"BLOCK": 256}


def _rows(rng: np.random.Generator) -> tuple[list[Any], dict[str, Any]]:
    return [_f32(rng, 8, 100), _zeros(8), 100], {"BLOCK": 128}


def _row_wise(rng: np.random.Generator) -> tuple[list[Any], dict[str, Any]]:
    return [_f32(rng, 8, 100), _zeros(8, 100), 100], {"BLOCK": 128}


def _matmul(runtime_k: bool) -> Callable[[np.random.Generator], tuple[list[Any], dict[str, Any]]]:
    def make(rng: np.random.Generator) -> tuple[list[Any], dict[str, Any]]:
        args: list[Any] = [_f32(rng, 40, 32), _f32(rng, 32, 24), _zeros(40, 24), 40, 24]
        consts: dict[str, Any] = {"BM": 16, "BN": 16, "BK": 16}
        if runtime_k:
            args.append(32)
        else:
            consts["K"] = 32
        return args, consts

    return make


def _tutorial_matmul(rng: np.random.Generator) -> tuple[list[Any], dict[str, Any]]:
    a, b, c = _f32(rng, 64, 48), _f32(rng, 48, 40), _zeros(64, 40)
    args = [a, b, c, 64, 40, 48, 48, 1, 40, 1, 40, 1]
    return args, {"BLOCK_SIZE_M": 32, "BLOCK_SIZE_N": 32, "BLOCK_SIZE_K": 16, "GROUP_SIZE_M": 2}


CASES = [
    Case("add", kernels.add_kernel, _binary, (4,)),
    Case("copy", kernels.copy_kernel, _unary, (4,)),
    Case("relu", kernels.relu_kernel, _unary, (4,)),
    Case(
        "leaky_relu",
        kernels.leaky_relu_kernel,
        lambda r: ([_f32(r, 1000), _zeros(1000), 1000, 0.1], {"BLOCK": 256}),
        (4,),
    ),
    Case("sigmoid", kernels.sigmoid_kernel, _unary, (4,)),
    Case(
        "matrix_add_2d",
        kernels.matrix_add_2d_kernel,
        lambda r: (
            [_f32(r, 33, 47), _f32(r, 33, 47), _zeros(33, 47), 33, 47],
            {"BM": 16, "BN": 32},
        ),
        (3, 2),
    ),
    Case("row_sum", kernels.row_sum_kernel, _rows, (8,)),
    Case("row_max", kernels.row_max_kernel, _rows, (8,)),
    Case("row_min", kernels.row_min_kernel, _rows, (8,)),
    Case("softmax", kernels.softmax_kernel, _row_wise, (8,)),
    Case(
        "long_row_sum",
        kernels.long_row_sum_kernel,
        lambda r: ([_f32(r, 4, 300), _zeros(4), 300], {"BLOCK": 128, "CHUNKS": 3}),
        (4,),
    ),
    Case(
        "runtime_sum",
        kernels.runtime_sum_kernel,
        lambda r: ([_f32(r, 50), _zeros(1), 50], {}),
        (1,),
    ),
    Case(
        "runtime_block_sum",
        kernels.runtime_block_sum_kernel,
        lambda r: ([_f32(r, 1000), _zeros(128), 1000], {"BLOCK": 128}),
        (1,),
    ),
    Case(
        "nested_loop",
        kernels.nested_loop_kernel,
        lambda r: ([_f32(r, 42), _zeros(1), 6, 7], {}),
        (1,),
    ),
    Case("factories", kernels.factories_kernel, lambda r: ([_zeros(64), 1.5], {"BLOCK": 64}), (1,)),
    Case(
        "naive_matmul",
        kernels.naive_matmul_kernel,
        lambda r: ([_f32(r, 8, 16), _f32(r, 16, 20), _zeros(8, 20), 8, 20], {"K": 16, "BN": 32}),
        (8,),
    ),
    Case("tiled_matmul", kernels.tiled_matmul_kernel, _matmul(False), (3, 2)),
    Case("tiled_matmul_runtime_k", kernels.tiled_matmul_runtime_k_kernel, _matmul(True), (3, 2)),
    Case("tutorial_matmul", kernels.tutorial_matmul_kernel, _tutorial_matmul, (4,)),
    Case(
        "fused_softmax",
        kernels.fused_softmax_kernel,
        lambda r: ([_zeros(8, 100), _f32(r, 8, 100), 100, 100, 8, 100], {"BLOCK_SIZE": 128}),
        (8,),
    ),
    Case(
        "layer_norm_no_sqrt",
        kernels.layer_norm_no_sqrt_kernel,
        lambda r: ([_f32(r, 8, 100), _zeros(8, 100), 100, 1e-5], {"BLOCK": 128}),
        (8,),
    ),
]
