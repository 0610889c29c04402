"""Vectorized global accesses in CUDA C++: ``float2``/``float4``/``int2``/``int4`` variables,
``*(const float4*)p`` loads, ``make_float4`` broadcasts, ``.x``-``.w`` extracts and inserts;
vectors of 8- and 16-bit elements packed into ``uint4``/``uint2``/``uint1``/``ushort1`` words,
taken apart with shifts and put together with masks."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from xdsl.dialects import arith, gpu, vector
from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    VectorType,
    bf16,
    f16,
    f32,
    f64,
    i1,
    i8,
    i16,
    i32,
    i64,
)
from xdsl.ir import SSAValue

from mytriton.backends.cuda.printer import print_cuda
from mytriton.errors import BackendError
from tests.cuda.test_printer_ops import Build, body_of, kernel_source
from tests.gpu_ir_samples import (
    KernelBuilder,
    index,
    vector_copy_module,
    vector_ops_module,
    vector_reverse_module,
)

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


def h8(b: KernelBuilder) -> SSAValue:
    """A loaded vector<8xf16>: a ``uint4`` of 4 words of 2 halves."""
    return b.load(b["p"], VectorType(f16, [8]), 16)


def byte(b: KernelBuilder) -> SSAValue:
    return b.op(arith.TruncIOp(b["i"], i8))


def _extract_half(k: int) -> Build:
    return lambda b: b.extract(h8(b), k)


H8_LOAD = "uint4 v0 = *(const uint4*)p;"
# the member and shift of each half of a uint4: element k is bits 16 * (k % 2) of word k // 2
H8_EXTRACTS = [
    "(mt_half)v0.x",
    "(mt_half)(v0.x >> 16)",
    "(mt_half)v0.y",
    "(mt_half)(v0.y >> 16)",
    "(mt_half)v0.z",
    "(mt_half)(v0.z >> 16)",
    "(mt_half)v0.w",
    "(mt_half)(v0.w >> 16)",
]


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
    # ---- packed vectors of 8- and 16-bit elements
    "load 8 halves as a uint4": (h8, [H8_LOAD]),
    "load 8 bytes as a uint2": (
        lambda b: b.load(b["p"], VectorType(i8, [8]), 8),
        ["uint2 v0 = *(const uint2*)p;"],
    ),
    "load 2 bf16 as a uint1": (
        lambda b: b.load(b["p"], VectorType(bf16, [2]), 4),
        ["uint1 v0 = *(const uint1*)p;"],
    ),
    "load 2 bytes as a ushort1": (
        lambda b: b.load(b["p"], VectorType(i8, [2]), 2),
        ["ushort1 v0 = *(const ushort1*)p;"],
    ),
    "store 8 i16 as a uint4": (
        lambda b: b.store(b.broadcast(b.op(arith.TruncIOp(b["i"], i16)), 8), b["p"], 16),
        [
            "short v0 = (short)i;",
            "uint4 v1 = make_uint4("
            + ", ".join(
                ["((unsigned)(unsigned short)v0 | ((unsigned)(unsigned short)v0 << 16))"] * 4
            )
            + ");",
            'asm volatile("st.global.v4.b32 [%0], {%1, %2, %3, %4};" :: "l"(p), "r"(v1.x), '
            '"r"(v1.y), "r"(v1.z), "r"(v1.w) : "memory");',
        ],
    ),
    "store 4 bf16 as a uint2": (
        lambda b: b.store(b.broadcast(b.const(-2.0, bf16), 4), b["p"], 8),
        [
            "uint2 v0 = make_uint2("
            + ", ".join(
                [
                    "((unsigned)(unsigned short)(mt_bf16)0xc000 | ((unsigned)(unsigned short)(mt_bf16)0xc000 << 16))"
                ]
                * 2
            )
            + ");",
            'asm volatile("st.global.v2.b32 [%0], {%1, %2};" :: "l"(p), "r"(v0.x), "r"(v0.y) '
            ': "memory");',
        ],
    ),
    "store 4 bytes as a uint1": (
        lambda b: b.store(b.broadcast(byte(b), 4), b["p"], 4),
        [
            "signed char v0 = (signed char)i;",
            "uint1 v1 = make_uint1((unsigned)(unsigned char)v0 * 0x1010101u);",
            'asm volatile("st.global.b32 [%0], %1;" :: "l"(p), "r"(v1.x) : "memory");',
        ],
    ),
    "store 2 bytes as a ushort1": (
        lambda b: b.store(b.broadcast(byte(b), 2), b["p"], 2),
        [
            "signed char v0 = (signed char)i;",
            "ushort1 v1 = make_ushort1((unsigned short)((unsigned)(unsigned char)v0 * 0x101u));",
            'asm volatile("st.global.b16 [%0], %1;" :: "l"(p), "h"(v1.x) : "memory");',
        ],
    ),
    **{
        f"extract half {k}": (
            _extract_half(k),
            [H8_LOAD, f"mt_half v1 = {H8_EXTRACTS[k]};"],
        )
        for k in range(8)
    },
    "extract byte 13 of 16": (
        lambda b: b.extract(b.load(b["p"], VectorType(i8, [16]), 16), 13),
        ["uint4 v0 = *(const uint4*)p;", "signed char v1 = (signed char)(v0.w >> 8);"],
    ),
    "extract bf16 3 of 4": (
        lambda b: b.extract(b.load(b["p"], VectorType(bf16, [4]), 8), 3),
        ["uint2 v0 = *(const uint2*)p;", "mt_bf16 v1 = (mt_bf16)(v0.y >> 16);"],
    ),
    "extract byte 1 of a ushort1": (
        lambda b: b.extract(b.load(b["p"], VectorType(i8, [2]), 2), 1),
        ["ushort1 v0 = *(const ushort1*)p;", "signed char v1 = (signed char)(v0.x >> 8);"],
    ),
    "insert a half at 3": (
        lambda b: b.insert(b.extract(h8(b), 0), h8(b), 3),
        [
            H8_LOAD,
            "mt_half v1 = (mt_half)v0.x;",
            "uint4 v2 = *(const uint4*)p;",
            "uint4 v3 = v2;",
            "v3.y = (v3.y & 0x0000ffffu) | ((unsigned)(unsigned short)v1 << 16);",
        ],
    ),
    "insert a half at 4": (
        lambda b: b.insert(b.extract(h8(b), 0), h8(b), 4),
        [
            H8_LOAD,
            "mt_half v1 = (mt_half)v0.x;",
            "uint4 v2 = *(const uint4*)p;",
            "uint4 v3 = v2;",
            "v3.z = (v3.z & 0xffff0000u) | (unsigned)(unsigned short)v1;",
        ],
    ),
    "insert a byte at 6 of 8": (
        lambda b: b.insert(byte(b), b.load(b["p"], VectorType(i8, [8]), 8), 6),
        [
            "signed char v0 = (signed char)i;",
            "uint2 v1 = *(const uint2*)p;",
            "uint2 v2 = v1;",
            "v2.y = (v2.y & 0xff00ffffu) | ((unsigned)(unsigned char)v0 << 16);",
        ],
    ),
    "insert a byte into a ushort1": (
        lambda b: b.insert(byte(b), b.load(b["p"], VectorType(i8, [2]), 2), 1),
        [
            "signed char v0 = (signed char)i;",
            "ushort1 v1 = *(const ushort1*)p;",
            "ushort1 v2 = v1;",
            "v2.x = (unsigned short)((v2.x & 0x00ffu) | ((unsigned)(unsigned char)v0 << 8));",
        ],
    ),
    "broadcast a half constant": (
        lambda b: b.broadcast(b.const(1.5, f16), 8),
        [
            "uint4 v0 = make_uint4("
            + ", ".join(
                [
                    "((unsigned)(unsigned short)(mt_half)0x3e00 | ((unsigned)(unsigned short)(mt_half)0x3e00 << 16))"
                ]
                * 4
            )
            + ");"
        ],
    ),
    "broadcast 2 bf16": (
        lambda b: b.broadcast(b.const(-2.0, bf16), 2),
        [
            "uint1 v0 = make_uint1(((unsigned)(unsigned short)(mt_bf16)0xc000 | ((unsigned)(unsigned short)(mt_bf16)0xc000 << 16)));"
        ],
    ),
    "broadcast 4 bytes": (
        lambda b: b.broadcast(byte(b), 4),
        [
            "signed char v0 = (signed char)i;",
            "uint1 v1 = make_uint1((unsigned)(unsigned char)v0 * 0x1010101u);",
        ],
    ),
    "broadcast 2 bytes": (
        lambda b: b.broadcast(byte(b), 2),
        [
            "signed char v0 = (signed char)i;",
            "ushort1 v1 = make_ushort1((unsigned short)((unsigned)(unsigned char)v0 * 0x101u));",
        ],
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
    ("t", "alignment"),
    [(VectorType(f16, [8]), 8), (VectorType(i8, [16]), 4), (VectorType(i8, [2]), 1)],
    ids=str,
)
def test_packed_vector_alignment_below_its_size_is_an_error(t: VectorType, alignment: int) -> None:
    size = t.get_shape()[0] * (2 if t.element_type == f16 else 1)
    with pytest.raises(BackendError, match=rf"needs alignment >= {size} .* only promises"):
        kernel_source(lambda b: b.load(b["p"], t, alignment))


@pytest.mark.parametrize(
    "t",
    [
        VectorType(f32, [3]),
        VectorType(f32, [8]),
        VectorType(f32, [1]),
        VectorType(f16, [16]),
        VectorType(i8, [32]),
        VectorType(f16, [1]),
        VectorType(bf16, [6]),
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


PACKED_COPY_CHECKS = """
CHECK: void __launch_bounds__(64) vector_copy(mt_half* x, mt_half* out, int n, int start) {
CHECK:   uint4 [[OTHER:v[0-9]+]] = make_uint4(
CHECK-SAME: ((unsigned)(unsigned short)(mt_half)0xbc00 | ((unsigned)(unsigned short)(mt_half)0xbc00 << 16)), {{.*}});
CHECK:   uint4 [[VALUES:values_[0-9]+]];
CHECK-NEXT:   if ([[MASK:mask_[0-9]+]]) {
CHECK-NEXT:     uint4 [[LOADED:v[0-9]+]] = *(const uint4*)v{{[0-9]+}};
CHECK-NEXT:     [[VALUES]] = [[LOADED]];
CHECK-NEXT:   } else {
CHECK-NEXT:     [[VALUES]] = [[OTHER]];
CHECK-NEXT:   }
CHECK-NEXT:   mt_half* [[DST:v[0-9]+]] = out + {{v[0-9]+}};
CHECK-NEXT:   if ([[MASK]]) {
CHECK-NEXT:     asm volatile("st.global.v4.b32 [%0], {%1, %2, %3, %4};" :: "l"([[DST]]),
CHECK-SAME: "r"([[VALUES]].x), "r"([[VALUES]].y), "r"([[VALUES]].z), "r"([[VALUES]].w) : "memory");
CHECK-NEXT:   }
"""

REVERSE_CHECKS = """
CHECK: uint2 [[V:v[0-9]+]] = *(const uint2*)v{{[0-9]+}};
CHECK-NEXT: signed char [[E0:v[0-9]+]] = (signed char)[[V]].x;
CHECK-NEXT: signed char [[E1:v[0-9]+]] = (signed char)([[V]].x >> 8);
CHECK-NEXT: signed char [[E2:v[0-9]+]] = (signed char)([[V]].x >> 16);
CHECK-NEXT: signed char [[E3:v[0-9]+]] = (signed char)([[V]].x >> 24);
CHECK-NEXT: signed char [[E4:v[0-9]+]] = (signed char)[[V]].y;
CHECK-NEXT: signed char [[E5:v[0-9]+]] = (signed char)([[V]].y >> 8);
CHECK-NEXT: signed char [[E6:v[0-9]+]] = (signed char)([[V]].y >> 16);
CHECK-NEXT: signed char [[E7:v[0-9]+]] = (signed char)([[V]].y >> 24);
CHECK-NEXT: uint2 [[R0:v[0-9]+]] = make_uint2((unsigned)(unsigned char)[[E7]] * 0x1010101u, {{.*}});
CHECK-NEXT: uint2 [[R1:v[0-9]+]] = [[R0]];
CHECK-NEXT: [[R1]].x = ([[R1]].x & 0xffff00ffu) | ((unsigned)(unsigned char)[[E6]] << 8);
CHECK: [[R7:v[0-9]+]].y = ([[R7]].y & 0x00ffffffu) | ((unsigned)(unsigned char)[[E0]] << 24);
CHECK: asm volatile("st.global.v2.b32 [%0], {%1, %2};" :: "l"(v{{[0-9]+}}), "r"([[R7]].x), "r"([[R7]].y) : "memory");
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


def test_filecheck_packed_vector_copy(tmp_path: Path) -> None:
    module = vector_copy_module(8, f16)
    filecheck(print_cuda(module, line_directives="off"), PACKED_COPY_CHECKS, tmp_path)


def test_filecheck_packed_vector_reverse(tmp_path: Path) -> None:
    module = vector_reverse_module(8, i8)
    filecheck(print_cuda(module, line_directives="off"), REVERSE_CHECKS, tmp_path)
