"""Kernels past 48 KiB of shared memory in CUDA C++: views of ``extern __shared__`` memory.

The lowering (``mytriton/passes/gpu_lowering/dynamic_shared.py``) cuts each buffer out of
``gpu.dynamic_shared_memory`` with ``memref.view`` and ``memref.memory_space_cast``; the printer
declares ``extern __shared__ __align__(1024) unsigned char dynamic_smem[];`` and each buffer as a
typed pointer into it, so every use prints as for a static ``__shared__`` array. The printed
kernels compile with nvcc for sm_90 (without a GPU), run on one (marked ``gpu``: the launch
passes the kernel's ``mytriton.dynamic_shared_memory`` bytes), and a kernel within 48 KiB keeps
its static arrays.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from mytriton.backends.cuda.printer import print_cuda
from mytriton.errors import BackendError
from tests.cuda.test_nvcc import assert_compiles
from tests.gpusim.extra_kernels import dot_then_reduce_kernel
from tests.gpusim.test_dynamic_shared import REGION, batched_dot_kernel, tf32, view
from tests.gpusim.util import parse
from tests.kernels import tutorial_matmul_kernel

EXTERN = "extern __shared__ __align__(1024) unsigned char dynamic_smem[];"


@dataclass
class Case:
    """A kernel launch needing more than 48 KiB of shared memory, and its NumPy reference."""

    kernel: Any
    inputs: Callable[[np.random.Generator], list[Any]]  #: the arguments, outputs included
    expected: Callable[[list[Any]], np.ndarray]  #: from the host arguments
    output: int  #: which argument is the output
    grid: tuple[int, ...]
    constexprs: dict[str, Any] = field(default_factory=dict)
    num_stages: int = 3
    tol: dict[str, float] = field(default_factory=lambda: {"rtol": 1e-5, "atol": 1e-4})
    views: int = 1
    element: str = "float"

    def warmup(self, args: list[Any]) -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return self.kernel.warmup(
                *args, grid=self.grid, num_stages=self.num_stages, **self.constexprs
            )


def _dot_inputs(dtype: Any, m: int, n: int, k: int, programs: int = 1) -> Callable[..., list[Any]]:
    def make(rng: np.random.Generator) -> list[Any]:
        a = rng.standard_normal((programs, m, k)).astype(dtype)
        b = rng.standard_normal((programs, k, n)).astype(dtype)
        return [a, b, np.full((programs, m, n), np.nan, np.float32)]

    return make


def _dot_expected(args: list[Any]) -> np.ndarray:
    a, b = (x.astype(np.float64) for x in args[:2])
    return np.einsum("pmk,pkn->pmn", a, b)


def _reduce_inputs(rng: np.random.Generator) -> list[Any]:
    a = rng.standard_normal((128, 64)).astype(np.float32)
    b = rng.standard_normal((64, 128)).astype(np.float32)
    return [a, b, np.full(256, np.nan, np.float32)]


def _reduce_expected(args: list[Any]) -> np.ndarray:
    acc = tf32(args[0]).astype(np.float64) @ tf32(args[1]).astype(np.float64)
    return np.concatenate([acc.sum(axis=0), acc.max(axis=1)])


MATMUL = 256


def _matmul_inputs(rng: np.random.Generator) -> list[Any]:
    a = rng.standard_normal((MATMUL, MATMUL)).astype(np.float16)
    b = rng.standard_normal((MATMUL, MATMUL)).astype(np.float16)
    out = np.full((MATMUL, MATMUL), np.nan, np.float32)
    return [a, b, out, *[MATMUL] * 4, 1, MATMUL, 1, MATMUL, 1]


def _matmul_expected(args: list[Any]) -> np.ndarray:
    return args[0].astype(np.float64) @ args[1].astype(np.float64)


CASES = {
    # (128 + 4) * 64 + 64 * 128 floats: 66560 bytes, staged for a dot on CUDA cores
    "f32-ieee-dot": Case(
        batched_dot_kernel,
        _dot_inputs(np.float32, 128, 128, 64, programs=2),
        _dot_expected,
        2,
        (2,),
        {"M": 128, "N": 128, "K": 64, "PRECISION": "ieee"},
    ),
    # tensor-core operands read by wgmma from swizzled tiles in the views: 65536 bytes
    "f16-dot": Case(
        batched_dot_kernel,
        _dot_inputs(np.float16, 128, 128, 128, programs=2),
        _dot_expected,
        2,
        (2,),
        {"M": 128, "N": 128, "K": 128, "PRECISION": "tf32"},
        tol={"rtol": 1e-3, "atol": 1e-2},
        element="mt_half",
    ),
    # a tf32 dot (warpgroup MMAs: both operands in one swizzled staging tile) and two
    # reductions (one scratch buffer): two views, at offsets 0 and 65536
    "dot-then-reduce": Case(
        dot_then_reduce_kernel,
        _reduce_inputs,
        _reduce_expected,
        2,
        (1,),
        {"M": 128, "N": 128, "K": 64},
        tol={"rtol": 1e-4, "atol": 1e-3},
        views=2,
    ),
    # the tutorial matmul pipelined in 3 stages of cp.async copies: 56832 bytes in two views
    "f16-pipelined-matmul": Case(
        tutorial_matmul_kernel,
        _matmul_inputs,
        _matmul_expected,
        2,
        (4,),
        {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 32, "GROUP_SIZE_M": 8},
        tol={"rtol": 1e-3, "atol": 1e-2},
        views=2,
        element="mt_half",
    ),
}


def printed(name: str, cuda_backend: object) -> str:
    case = CASES[name]
    source = case.warmup(case.inputs(np.random.default_rng(0))).asm["cuda"]
    assert isinstance(source, str)
    return source


@pytest.mark.parametrize("name", list(CASES))
def test_buffers_print_as_pointers_into_extern_shared_memory(
    name: str, cuda_backend: object
) -> None:
    case = CASES[name]
    source = printed(name, cuda_backend)
    assert source.count(EXTERN) == 1
    e = re.escape(case.element)
    pointers = re.findall(
        rf"^ +{e}\* (smem_\d+) = \({e}\*\)\(dynamic_smem \+ (\d+)LL\);$", source, re.M
    )
    assert len(pointers) == case.views
    assert pointers[0][1] == "0"
    assert all(int(offset) % 16 == 0 for _, offset in pointers)
    assert not re.search(r"^__shared__", source, re.M)  # no static array left
    for buffer, _ in pointers:  # every use reads the typed pointer as it read the array
        assert re.search(rf"{buffer}\[|__cvta_generic_to_shared\({buffer}\)", source)


@pytest.mark.parametrize("name", list(CASES))
def test_kernels_past_48_kib_compile_with_nvcc(
    name: str, nvcc: str, tmp_path: Path, cuda_backend: object
) -> None:
    assert_compiles(nvcc, printed(name, cuda_backend), tmp_path / f"{name}.cu")


def test_a_kernel_within_48_kib_keeps_static_arrays(cuda_backend: object) -> None:
    """The same dot at 64x64x32 (16 KiB) prints ``__shared__`` arrays at file scope, as before
    dynamic shared memory existed."""
    rng = np.random.default_rng(0)
    args = _dot_inputs(np.float32, 64, 64, 32)(rng)
    kernel = batched_dot_kernel.warmup(
        *args, grid=(1,), M=64, N=64, K=32, PRECISION="ieee", num_stages=3
    )
    source = kernel.asm["cuda"]
    assert re.search(r"^__shared__ __align__\(16\) float smem_0\[\d+\];$", source, re.M)
    assert "extern __shared__" not in source and "dynamic_smem" not in source
    assert "gpu.dynamic_shared_memory" not in kernel.asm["gpu"]


# ---------------------------------------------------------------------------- hand-written IR


def hand_module(body: str, dynamic_bytes: int = 4096) -> ModuleOp:
    return parse(
        f"""
builtin.module attributes {{gpu.container_module}} {{
  "gpu.module"() <{{sym_name = "kernels"}}> ({{
    "gpu.func"() <{{function_type = (!llvm.ptr<1>, i32) -> ()}}> ({{
    ^bb0(%out: !llvm.ptr<1>, %n: i32):
      %dyn = gpu.dynamic_shared_memory : {REGION}
      %t = "gpu.thread_id"() <{{dimension = #gpu<dim x>}}> : () -> index
      {body}
      "gpu.return"() : () -> ()
    }}) {{sym_name = "k", gpu.kernel, known_block_size = array<i32: 32, 1, 1>,
         mytriton.pointee_types = [f16], mytriton.dynamic_shared_memory = {dynamic_bytes} : i32}}
    : () -> ()
  }}) : () -> ()
}}"""
    )


HAND_BODY = (
    view("smem", 0, "256xf16")
    + """
      %shift = arith.index_cast %n : i32 to index"""
    + view("tile", 0, "64xi32", offset_value="%shift")
    + """
      %h = memref.load %smem[%t] : memref<256xf16, 3 : i64>
      memref.store %h, %smem[%t] : memref<256xf16, 3 : i64>
      %v = vector.broadcast %h : f16 to vector<8xf16>
      %c8 = arith.constant 8 : index
      %at = arith.muli %t, %c8 : index
      vector.store %v, %smem[%at] {alignment = 16 : i64} : memref<256xf16, 3 : i64>, vector<8xf16>
      %x = "memref.extract_aligned_pointer_as_index"(%tile) : (memref<64xi32, 3 : i64>) -> index
      %y = "memref.extract_aligned_pointer_as_index"(%w_tile) : (memref<64xi32, #gpu.address_space<workgroup>>) -> index
      %d = arith.subi %x, %y : index
      %di = arith.index_cast %d : index to i32
      memref.store %di, %tile[%t] : memref<64xi32, 3 : i64>
      %ti = arith.index_cast %t : index to i32
      %p = llvm.getelementptr %out[%ti] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f16
      llvm.store %h, %p : f16, !llvm.ptr<1>"""
)


def test_hand_written_views_print_as_typed_pointers() -> None:
    source = print_cuda(hand_module(HAND_BODY))
    lines = [line.strip() for line in source.splitlines() if not line.startswith("#line")]
    assert "typedef unsigned short mt_half;" in lines  # the view's element type needs it
    assert EXTERN in lines
    smem = next(line for line in lines if line.startswith("mt_half* smem_"))
    assert re.fullmatch(r"mt_half\* smem_\d+ = \(mt_half\*\)\(dynamic_smem \+ 0LL\);", smem)
    buffer = smem.split()[1]
    # a runtime offset: its variable
    tile = next(line for line in lines if line.startswith("int* tile_"))
    assert re.fullmatch(r"int\* tile_\d+ = \(int\*\)\(dynamic_smem \+ shift_\d+\);", tile)
    name = tile.split()[1]
    assert any(re.fullmatch(rf"mt_half \w+ = {buffer}\[t_\d+\];", line) for line in lines)
    assert any(re.fullmatch(rf"{buffer}\[t_\d+\] = h_\d+;", line) for line in lines)
    assert any(re.fullmatch(rf"\*\(uint4\*\)&{buffer}\[at_\d+\] = v_\d+;", line) for line in lines)
    # the view and its cast are one pointer: both addresses are of one name
    cvta = [line for line in lines if "__cvta_generic_to_shared" in line]
    assert len(cvta) == 2 and all(f"__cvta_generic_to_shared({name})" in line for line in cvta)
    assert any(re.fullmatch(rf"{name}\[t_\d+\] = di_\d+;", line) for line in lines)
    assert not any("memory_space_cast" in line for line in lines)


def test_hand_written_views_compile_with_nvcc(nvcc: str, tmp_path: Path) -> None:
    assert_compiles(nvcc, print_cuda(hand_module(HAND_BODY)), tmp_path / "views.cu")


def test_a_2d_view_is_an_error() -> None:
    body = view("smem", 0, "4x8xf32")
    with pytest.raises(BackendError, match=r"memref\.view: a view of shared memory must be a 1-D"):
        print_cuda(hand_module(body))


# ---------------------------------------------------------------------------- on a GPU


@pytest.mark.gpu
@pytest.mark.parametrize("name", list(CASES))
def test_kernels_past_48_kib_run_on_the_gpu(name: str, cupy: Any, cuda_backend: object) -> None:
    """The launch must pass the kernel's dynamic shared memory bytes (and raise the function's
    limit past 48 KiB): without them the kernel fails to launch or reads out of bounds."""
    case = CASES[name]
    host = case.inputs(np.random.default_rng(1))
    expected = case.expected(host)
    device = [cupy.asarray(a) if isinstance(a, np.ndarray) else a for a in host]
    compiled = case.kernel[case.grid](*device, num_stages=case.num_stages, **case.constexprs)
    assert "gpu.dynamic_shared_memory" in compiled.asm["gpu"]
    got = np.asarray(device[case.output].get())
    np.testing.assert_allclose(
        got, expected.reshape(got.shape), rtol=case.tol["rtol"], atol=case.tol["atol"]
    )
