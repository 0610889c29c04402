"""Vectorized global accesses in CUDA C++: ``float2``/``float4``/``int2``/``int4`` variables,
``*(const float4*)p`` loads, ``make_float4`` broadcasts, ``.x``-``.w`` extracts and inserts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from xdsl.dialects import arith, gpu, vector
from xdsl.dialects.builtin import ArrayAttr, BoolAttr, VectorType, f32, f64, i1, i32, i64
from xdsl.ir import SSAValue

from mytriton.backends.cuda.printer import print_cuda
from mytriton.errors import BackendError
from tests.cuda.test_printer_ops import Build, body_of, kernel_source
from tests.gpu_ir_samples import KernelBuilder, index, vector_copy_module, vector_ops_module

F4, F2, I4, I2 = (
    VectorType(f32, [4]),
    VectorType(f32, [2]),
    VectorType(i32, [4]),
    VectorType(i32, [2]),
)


def f4(b: KernelBuilder) -> SSAValue:
    return b.broadcast(b["a"], 4)


def _extract_from_f4(k: int) -> Build:
    return lambda b: b.extract(f4(b), k)


# (op builder, the statements it prints, after those of its operands)
CASES: dict[str, tuple[Build, list[str]]] = {
    "load float4": (lambda b: b.load(b["p"], F4, 16), ["float4 v0 = *(const float4*)p;"]),
    "load float2": (lambda b: b.load(b["p"], F2, 8), ["float2 v0 = *(const float2*)p;"]),
    "load int4 through a float*": (
        lambda b: b.load(b["p"], I4, 16),
        ["int4 v0 = *(const int4*)p;"],
    ),
    "load int2": (lambda b: b.load(b["p"], I2, 8), ["int2 v0 = *(const int2*)p;"]),
    "load with more alignment than needed": (
        lambda b: b.load(b["p"], F4, 32),
        ["float4 v0 = *(const float4*)p;"],
    ),
    "load without alignment (the ABI's: its size)": (
        lambda b: b.load(b["p"], F4),
        ["float4 v0 = *(const float4*)p;"],
    ),
    "store float4": (
        lambda b: b.store(f4(b), b["p"], 16),
        ["float4 v0 = make_float4(a, a, a, a);", "*(float4*)p = v0;"],
    ),
    "store int2": (
        lambda b: b.store(b.broadcast(b["i"], 2), b["p"], 8),
        ["int2 v0 = make_int2(i, i);", "*(int2*)p = v0;"],
    ),
    "broadcast float2": (lambda b: b.broadcast(b["c"], 2), ["float2 v0 = make_float2(c, c);"]),
    "broadcast int4": (lambda b: b.broadcast(b["j"], 4), ["int4 v0 = make_int4(j, j, j, j);"]),
    "broadcast a constant": (
        lambda b: b.broadcast(b.const(-0.0, f32), 4),
        ["float4 v0 = make_float4((-0.0f), (-0.0f), (-0.0f), (-0.0f));"],
    ),
    **{
        f"extract {k}": (
            _extract_from_f4(k),
            ["float4 v0 = make_float4(a, a, a, a);", f"float v1 = v0.{'xyzw'[k]};"],
        )
        for k in range(4)
    },
    "extract int2": (
        lambda b: b.extract(b.broadcast(b["i"], 2), 1),
        ["int2 v0 = make_int2(i, i);", "int v1 = v0.y;"],
    ),
    "insert": (
        lambda b: b.insert(b["c"], f4(b), 1),
        ["float4 v0 = make_float4(a, a, a, a);", "float4 v1 = v0;", "v1.y = c;"],
    ),
    "insert a constant into an int2": (
        lambda b: b.insert(b.const(7), b.broadcast(b["i"], 2), 0),
        ["int2 v0 = make_int2(i, i);", "int2 v1 = v0;", "v1.x = 7;"],
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_vector_statements(case: str) -> None:
    build, expected = CASES[case]
    assert body_of(build)[: len(expected)] == expected


def test_masked_vector_load_declares_a_vector_result_variable() -> None:
    def build(b: KernelBuilder) -> None:
        mask = b.op(arith.CmpiOp(b["i"], b["j"], "slt"), "mask")
        v = b.masked_load(mask, b["p"], b.broadcast(b.const(0.0, f32), 4), "x", 16)
        b.masked_store(mask, v, b["p"], 16)

    assert body_of(build) == [
        "bool mask_0 = i < j;",
        "float4 v1 = make_float4(0.0f, 0.0f, 0.0f, 0.0f);",
        "float4 x_2;",
        "if (mask_0) {",
        "float4 v3 = *(const float4*)p;",
        "x_2 = v3;",
        "} else {",
        "x_2 = v1;",
        "}",
        "if (mask_0) {",
        "*(float4*)p = x_2;",
        "}",
        "return;",
    ]


def test_vector_loop_carried_value_is_a_vector_variable() -> None:
    def build(b: KernelBuilder) -> None:
        loop, body = b.for_(b.const(0), b["i"], b.const(1), [b.broadcast(b["i"], 2)])
        loop.res[0].name_hint = "acc"
        with b.inside(body):
            _, acc = body.args
            b.yield_(b.insert(b.op(arith.AddiOp(b.extract(acc, 0), b["j"])), acc, 0))
        b.store(loop.res[0], b["p"], 8)

    assert body_of(build) == [
        "int2 v0 = make_int2(i, i);",
        "int2 acc_1 = v0;",
        "for (int v2 = 0; v2 < i; v2 += 1) {",
        "int v3 = acc_1.x;",
        "int v4 = (int)((unsigned int)v3 + (unsigned int)j);",
        "int2 v5 = acc_1;",
        "v5.x = v4;",
        "acc_1 = v5;",
        "}",
        "*(int2*)p = acc_1;",
        "return;",
    ]


def test_vectors_swapped_in_a_loop_are_staged() -> None:
    def build(b: KernelBuilder) -> None:
        _, body = b.for_(b.const(0), b["i"], b.const(1), [f4(b), b.broadcast(b["c"], 4)])
        with b.inside(body):
            _, u, v = body.args
            b.yield_(v, u)

    assert body_of(build)[4:10] == [
        "for (int v4 = 0; v4 < i; v4 += 1) {",
        "float4 yield_5 = v3;",
        "float4 yield_6 = v2;",
        "v2 = yield_5;",
        "v3 = yield_6;",
        "}",
    ]


# ---------------------------------------------------------------------------- errors


@pytest.mark.parametrize(("t", "alignment"), [(F4, 8), (F4, 4), (F2, 4), (I4, 8), (I2, 4)], ids=str)
def test_alignment_below_the_vector_size_is_an_error(t: VectorType, alignment: int) -> None:
    with pytest.raises(BackendError, match=r"/samples/kernels\.py:5:1: .*llvm\.load.*alignment"):
        kernel_source(lambda b: b.load(b["p"], t, alignment))
    lanes = t.get_shape()[0]
    scalar = "a" if t.element_type == f32 else "i"
    with pytest.raises(BackendError, match=r"llvm\.store: a vector<.* access needs alignment"):
        kernel_source(lambda b: b.store(b.broadcast(b[scalar], lanes), b["p"], alignment))


@pytest.mark.parametrize(
    "t",
    [
        VectorType(f32, [3]),
        VectorType(f32, [8]),
        VectorType(f32, [1]),
        VectorType(f64, [2]),
        VectorType(i1, [4]),
        VectorType(i64, [2]),
        VectorType(index, [2]),
        VectorType(f32, [2, 2]),
        VectorType(f32, [4], ArrayAttr([BoolAttr.from_bool(True)])),
    ],
    ids=str,
)
def test_vectors_outside_the_contract_have_no_cpp_type(t: VectorType) -> None:
    with pytest.raises(BackendError, match=r"/samples/kernels\.py:5:1: .*no C\+\+ type for vector"):
        kernel_source(lambda b: b.load(b["p"], t, 64))


def test_unknown_vector_broadcast_is_an_error_at_its_line() -> None:
    with pytest.raises(
        BackendError,
        match=r"kernels\.py:5:1: error: vector\.broadcast: .*no C\+\+ type for vector<3xf32>",
    ):
        kernel_source(lambda b: b.broadcast(b["a"], 3))


def test_arithmetic_on_vectors_is_an_error() -> None:
    with pytest.raises(BackendError, match=r"arith\.addf: the CUDA printer has no arith\.addf on"):
        kernel_source(lambda b: b.op(arith.AddfOp(f4(b), f4(b))))


def test_select_of_vectors_is_an_error() -> None:
    def build(b: KernelBuilder) -> None:
        b.op(arith.SelectOp(b.const(1, i1), f4(b), f4(b)))

    with pytest.raises(BackendError, match=r"arith\.select.*vectors only flow"):
        kernel_source(build)


def test_extract_outside_the_vector_is_an_error() -> None:
    with pytest.raises(BackendError, match=r"vector\.extract: position 2 is outside vector<2xf32>"):
        kernel_source(lambda b: b.extract(b.broadcast(b["a"], 2), 2))


def test_insert_outside_the_vector_is_an_error() -> None:
    with pytest.raises(BackendError, match=r"vector\.insert: position 4 is outside"):
        kernel_source(lambda b: b.insert(b["c"], f4(b), 4))


def test_dynamic_positions_are_an_error() -> None:
    def build(b: KernelBuilder) -> None:
        b.op(vector.ExtractOp(f4(b), [b.const(1, index)], f32))

    with pytest.raises(BackendError, match=r"vector\.extract: only one static position"):
        kernel_source(build)


def test_broadcast_of_a_vector_is_an_error() -> None:
    with pytest.raises(BackendError, match=r"only scalars can be broadcast"):
        kernel_source(lambda b: b.op(vector.BroadcastOp(f4(b), F4)))


def test_vector_type_names_are_reserved() -> None:
    b = KernelBuilder("k", [("float4", f32), ("make_int2", i32)])
    b.op(gpu.ReturnOp([]))
    src = print_cuda(b.build(), line_directives="off")
    assert " k(float float4_0, int make_int2_1) {" in src


# ---------------------------------------------------------------------------- FileCheck


COPY_CHECKS = """
CHECK: void __launch_bounds__(64) vector_copy(float* x, float* out, int n, int start) {
CHECK:   bool [[MASK:mask_[0-9]+]] = [[OFFS:offsets_[0-9]+]] < n;
CHECK:   int [[AT:v[0-9]+]] = (int)((unsigned int)start + (unsigned int)[[OFFS]]);
CHECK:   float4 [[OTHER:v[0-9]+]] = make_float4((-1.0f), (-1.0f), (-1.0f), (-1.0f));
CHECK:   float* [[SRC:v[0-9]+]] = x + [[AT]];
CHECK:   float4 [[VALUES:values_[0-9]+]];
CHECK-NEXT:   if ([[MASK]]) {
CHECK-NEXT:     float4 [[LOADED:v[0-9]+]] = *(const float4*)[[SRC]];
CHECK-NEXT:     [[VALUES]] = [[LOADED]];
CHECK-NEXT:   } else {
CHECK-NEXT:     [[VALUES]] = [[OTHER]];
CHECK-NEXT:   }
CHECK-NEXT:   float* [[DST:v[0-9]+]] = out + [[AT]];
CHECK-NEXT:   if ([[MASK]]) {
CHECK-NEXT:     *(float4*)[[DST]] = [[VALUES]];
CHECK-NEXT:   }
CHECK-NEXT:   return;
"""

OPS_CHECKS = """
CHECK: float4 [[XV:xv_[0-9]+]] = *(const float4*)v{{[0-9]+}};
CHECK-NEXT: float [[A:v[0-9]+]] = [[XV]].x;
CHECK-NEXT: float [[B:v[0-9]+]] = [[XV]].y;
CHECK-NEXT: float [[C:v[0-9]+]] = [[XV]].z;
CHECK-NEXT: float [[D:v[0-9]+]] = [[XV]].w;
CHECK: float4 [[R0:v[0-9]+]] = make_float4([[D]], [[D]], [[D]], [[D]]);
CHECK-NEXT: float4 [[R1:v[0-9]+]] = [[R0]];
CHECK-NEXT: [[R1]].y = [[C]];
CHECK: float4 [[ACC:acc_[0-9]+]] = [[SCALED:scaled_[0-9]+]];
CHECK-NEXT: for (int [[K:v[0-9]+]] = 0; [[K]] < iters; [[K]] += 1) {
CHECK: [[ACC]] = v{{[0-9]+}};
CHECK-NEXT: }
CHECK-NEXT: float* [[OUT:v[0-9]+]] = out + {{at4_[0-9]+}};
CHECK-NEXT: *(float4*)[[OUT]] = [[ACC]];
CHECK: int2 [[PAIR:v[0-9]+]] = *(const int2*)v{{[0-9]+}};
CHECK: *(int2*)v{{[0-9]+}} = v{{[0-9]+}};
"""


def filecheck(text: str, checks: str, tmp_path: Path) -> None:
    """LLVM FileCheck semantics (the ``filecheck`` package of the dev dependencies)."""
    pytest.importorskip("filecheck", reason="the filecheck package is not installed")
    check_file = tmp_path / "checks.txt"
    check_file.write_text(checks)
    proc = subprocess.run(
        [sys.executable, "-m", "filecheck", str(check_file)],
        input=text,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, f"FileCheck failed:\n{proc.stdout}{proc.stderr}\n{text}"


def test_filecheck_vector_copy(tmp_path: Path) -> None:
    filecheck(print_cuda(vector_copy_module(), line_directives="off"), COPY_CHECKS, tmp_path)


def test_filecheck_vector_ops(tmp_path: Path) -> None:
    filecheck(print_cuda(vector_ops_module(), line_directives="off"), OPS_CHECKS, tmp_path)
