"""The CUDA C++ statement printed for each op of the lowered-IR contract (docs/gpu-ir.md)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from xdsl.dialects import arith, gpu, llvm, math, memref
from xdsl.dialects.builtin import FloatAttr, f16, f32, f64, i1, i16, i32, i64

from mytriton.backends.cuda.printer import print_cuda, printable_ops
from mytriton.dialects import all_dialects
from mytriton.dialects.nvgpu.nvvm_intrinsics import (
    DIV_FULL,
    EX2_APPROX,
    EX2_APPROX_FTZ,
    RSQRT_APPROX,
    RSQRT_APPROX_FTZ,
    SQRT_APPROX,
    SQRT_APPROX_FTZ,
    SQRT_RN,
)
from mytriton.dialects.nvgpu.sreg import ReadGlobaltimerOp, ReadSmidOp
from mytriton.dialects.nvgpu.upstream import RemFOp, ShuffleMode, ShuffleOp
from mytriton.errors import BackendError
from tests.gpu_ir_samples import KernelBuilder, Ptr, index

CONTRACT = Path(__file__).resolve().parents[2] / "docs" / "gpu-ir.md"

Build = Callable[[KernelBuilder], Any]


def kernel_source(build: Build, *, lines: str = "off") -> str:
    """The C++ of a kernel over a, c: f32, i, j: i32 and p: float* whose body is ``build``."""
    b = KernelBuilder(
        "k", [("a", f32), ("c", f32), ("i", i32), ("j", i32), ("p", Ptr(f32))], def_line=4
    )
    with b.at(5):
        build(b)
        b.op(gpu.ReturnOp([]))
    return print_cuda(b.build(), line_directives=lines)  # type: ignore[arg-type]


def body_of(build: Build) -> list[str]:
    """The statements of the kernel body, without indentation."""
    src = kernel_source(build)
    body = src[src.index("{\n") + 2 : src.rindex("}")]
    return [line.strip() for line in body.splitlines() if line.strip()]


# (op builder, the statement it prints)
CASES: dict[str, tuple[Build, str]] = {
    # float arithmetic
    "addf": (lambda b: b.op(arith.AddfOp(b["a"], b["c"])), "float v0 = a + c;"),
    "subf": (lambda b: b.op(arith.SubfOp(b["a"], b["c"])), "float v0 = a - c;"),
    "mulf": (lambda b: b.op(arith.MulfOp(b["a"], b["c"])), "float v0 = a * c;"),
    "divf": (lambda b: b.op(arith.DivfOp(b["a"], b["c"])), "float v0 = a / c;"),
    "negf": (lambda b: b.op(arith.NegfOp(b["a"])), "float v0 = -a;"),
    "remf": (lambda b: b.op(RemFOp(b["a"], b["c"])), "float v0 = fmodf(a, c);"),
    "ex2_approx_ftz": (
        lambda b: b.op(llvm.CallIntrinsicOp(EX2_APPROX_FTZ.name, [b["a"]], [f32])),
        'asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(v0) : "f"(a));',
    ),
    "div_full": (
        lambda b: b.op(llvm.CallIntrinsicOp(DIV_FULL.name, [b["a"], b["c"]], [f32])),
        'asm("div.full.f32 %0, %1, %2;" : "=f"(v0) : "f"(a), "f"(c));',
    ),
    "ex2_approx": (
        lambda b: b.op(llvm.CallIntrinsicOp(EX2_APPROX.name, [b["a"]], [f32])),
        'asm("ex2.approx.f32 %0, %1;" : "=f"(v0) : "f"(a));',
    ),
    "sqrt_approx_ftz": (
        lambda b: b.op(llvm.CallIntrinsicOp(SQRT_APPROX_FTZ.name, [b["a"]], [f32])),
        'asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(v0) : "f"(a));',
    ),
    "sqrt_approx": (
        lambda b: b.op(llvm.CallIntrinsicOp(SQRT_APPROX.name, [b["a"]], [f32])),
        'asm("sqrt.approx.f32 %0, %1;" : "=f"(v0) : "f"(a));',
    ),
    "rsqrt_approx_ftz": (
        lambda b: b.op(llvm.CallIntrinsicOp(RSQRT_APPROX_FTZ.name, [b["a"]], [f32])),
        'asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(v0) : "f"(a));',
    ),
    "rsqrt_approx": (
        lambda b: b.op(llvm.CallIntrinsicOp(RSQRT_APPROX.name, [b["a"]], [f32])),
        'asm("rsqrt.approx.f32 %0, %1;" : "=f"(v0) : "f"(a));',
    ),
    "sqrt_rn": (
        lambda b: b.op(llvm.CallIntrinsicOp(SQRT_RN.name, [b["a"]], [f32])),
        'asm("sqrt.rn.f32 %0, %1;" : "=f"(v0) : "f"(a));',
    ),
    "maxnumf": (lambda b: b.op(arith.MaxnumfOp(b["a"], b["c"])), "float v0 = fmaxf(a, c);"),
    # special registers: Triton's movs; the timer's asm is volatile (never merged nor moved)
    "globaltimer": (
        lambda b: b.op(ReadGlobaltimerOp()),
        'asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(v0));',
    ),
    "smid": (lambda b: b.op(ReadSmidOp()), 'asm("mov.u32 %0, %%smid;" : "=r"(v0));'),
    "minnumf": (lambda b: b.op(arith.MinnumfOp(b["a"], b["c"])), "float v0 = fminf(a, c);"),
    "maximumf": (
        lambda b: b.op(arith.MaximumfOp(b["a"], b["c"])),
        "float v0 = (isnan(a) || isnan(c)) ? a + c "
        ": (a == c ? (signbit(a) ? c : a) : fmaxf(a, c));",
    ),
    "minimumf": (
        lambda b: b.op(arith.MinimumfOp(b["a"], b["c"])),
        "float v0 = (isnan(a) || isnan(c)) ? a + c "
        ": (a == c ? (signbit(a) ? a : c) : fminf(a, c));",
    ),
    # integer arithmetic: C operators, unsigned ops through unsigned casts
    # wrapping integer arithmetic: on unsigned operands (signed overflow is undefined in C++)
    "addi": (
        lambda b: b.op(arith.AddiOp(b["i"], b["j"])),
        "int v0 = (int)((unsigned int)i + (unsigned int)j);",
    ),
    "subi": (
        lambda b: b.op(arith.SubiOp(b["i"], b["j"])),
        "int v0 = (int)((unsigned int)i - (unsigned int)j);",
    ),
    "muli": (
        lambda b: b.op(arith.MuliOp(b["i"], b["j"])),
        "int v0 = (int)((unsigned int)i * (unsigned int)j);",
    ),
    "muli-i64": (
        lambda b: b.op(arith.MuliOp(*(2 * [b.op(arith.ExtSIOp(b["i"], i64))]))),
        "long long v1 = (long long)((unsigned long long)v0 * (unsigned long long)v0);",
    ),
    "muli-i16": (
        lambda b: b.op(arith.MuliOp(*(2 * [b.op(arith.TruncIOp(b["i"], i16))]))),
        "short v1 = (short)((unsigned int)v0 * (unsigned int)v0);",
    ),
    "divsi": (lambda b: b.op(arith.DivSIOp(b["i"], b["j"])), "int v0 = i / j;"),
    "remsi": (lambda b: b.op(arith.RemSIOp(b["i"], b["j"])), "int v0 = i % j;"),
    "divui": (
        lambda b: b.op(arith.DivUIOp(b["i"], b["j"])),
        "int v0 = (int)(((unsigned)i) / ((unsigned)j));",
    ),
    "remui": (
        lambda b: b.op(arith.RemUIOp(b["i"], b["j"])),
        "int v0 = (int)(((unsigned)i) % ((unsigned)j));",
    ),
    "andi": (lambda b: b.op(arith.AndIOp(b["i"], b["j"])), "int v0 = i & j;"),
    "ori": (lambda b: b.op(arith.OrIOp(b["i"], b["j"])), "int v0 = i | j;"),
    "xori": (lambda b: b.op(arith.XOrIOp(b["i"], b["j"])), "int v0 = i ^ j;"),
    "shli": (lambda b: b.op(arith.ShLIOp(b["i"], b["j"])), "int v0 = (int)(((unsigned)i) << j);"),
    "shrsi": (lambda b: b.op(arith.ShRSIOp(b["i"], b["j"])), "int v0 = i >> j;"),
    "shrui": (lambda b: b.op(arith.ShRUIOp(b["i"], b["j"])), "int v0 = (int)(((unsigned)i) >> j);"),
    "maxsi": (lambda b: b.op(arith.MaxSIOp(b["i"], b["j"])), "int v0 = max(i, j);"),
    "minsi": (lambda b: b.op(arith.MinSIOp(b["i"], b["j"])), "int v0 = min(i, j);"),
    "maxui": (
        lambda b: b.op(arith.MaxUIOp(b["i"], b["j"])),
        "int v0 = (int)max(((unsigned)i), ((unsigned)j));",
    ),
    "i1 addi keeps the low bit": (
        lambda b: b.op(arith.AddiOp(b.const(1, i1), b.const(1, i1))),
        "bool v0 = (bool)((true + true) & 1);",
    ),
    "i1 slt reads true as -1": (
        lambda b: b.op(arith.CmpiOp(b.const(1, i1), b.const(0, i1), "slt")),
        "bool v0 = (-(int)true) < (-(int)false);",
    ),
    # select and casts
    "select": (
        lambda b: b.op(arith.SelectOp(b.const(1, i1), b["a"], b["c"])),
        "float v0 = true ? a : c;",
    ),
    "index_cast to index": (
        lambda b: b.op(arith.IndexCastOp(b["i"], index)),
        "long long v0 = (long long)i;",
    ),
    "index_cast to i32": (
        lambda b: b.op(arith.IndexCastOp(b.const(7, index), i32)),
        "int v0 = (int)7LL;",
    ),
    "sitofp": (lambda b: b.op(arith.SIToFPOp(b["i"], f32)), "float v0 = (float)i;"),
    "uitofp": (lambda b: b.op(arith.UIToFPOp(b["i"], f32)), "float v0 = (float)((unsigned)i);"),
    "fptosi": (
        lambda b: b.op(arith.FPToSIOp(b["a"], i32)),
        'asm("cvt.rzi.s32.f32 %0, %1;" : "=r"(v0) : "f"(a));',  # PTX: saturating
    ),
    "fptoui": (
        lambda b: b.op(arith.FPToUIOp(b["a"], i32)),
        'asm("cvt.rzi.u32.f32 %0, %1;" : "=r"(v0) : "f"(a));',
    ),
    "extsi": (lambda b: b.op(arith.ExtSIOp(b["i"], i64)), "long long v0 = (long long)i;"),
    "extui": (
        lambda b: b.op(arith.ExtUIOp(b["i"], i64)),
        "long long v0 = (long long)((unsigned)i);",
    ),
    "extui from i1": (lambda b: b.op(arith.ExtUIOp(b.const(1, i1), i32)), "int v0 = (int)true;"),
    "extsi from i1": (
        lambda b: b.op(arith.ExtSIOp(b.const(1, i1), i32)),
        "int v0 = (int)(-(int)true);",
    ),
    "trunci to i1": (lambda b: b.op(arith.TruncIOp(b["i"], i1)), "bool v0 = (bool)(i & 1);"),
    "trunci": (
        lambda b: b.op(arith.TruncIOp(b.op(arith.ExtSIOp(b["i"], i64)), i32)),
        "int v1 = (int)v0;",
    ),
    "extf": (lambda b: b.op(arith.ExtFOp(b["a"], f64)), "double v0 = (double)a;"),
    "truncf": (
        lambda b: b.op(arith.TruncFOp(b.op(arith.ExtFOp(b["a"], f64)), f32)),
        "float v1 = (float)v0;",
    ),
    "bitcast": (lambda b: b.op(arith.BitcastOp(b["a"], i32)), "int v0 = __float_as_int(a);"),
    # math
    "absi": (lambda b: b.op(math.AbsIOp(b["i"])), "int v0 = abs(i);"),
    "fma": (lambda b: b.op(math.FmaOp(b["a"], b["c"], b["a"])), "float v0 = fmaf(a, c, a);"),
    "ctpop": (lambda b: b.op(math.CtPopOp(b["i"])), "int v0 = __popc(i);"),
    "exp f64": (
        lambda b: b.op(math.ExpOp(b.op(arith.ExtFOp(b["a"], f64)))),
        "double v1 = exp(v0);",
    ),
    # gpu
    "thread_id": (
        lambda b: b.op(gpu.ThreadIdOp(gpu.DimensionAttr(gpu.DimensionEnum.X))),
        "long long v0 = threadIdx.x;",
    ),
    "block_id y": (
        lambda b: b.op(gpu.BlockIdOp(gpu.DimensionAttr(gpu.DimensionEnum.Y))),
        "long long v0 = blockIdx.y;",
    ),
    "grid_dim z": (
        lambda b: b.op(gpu.GridDimOp(gpu.DimensionAttr(gpu.DimensionEnum.Z))),
        "long long v0 = gridDim.z;",
    ),
    "block_dim x": (
        lambda b: b.op(gpu.BlockDimOp(gpu.DimensionAttr(gpu.DimensionEnum.X))),
        "long long v0 = blockDim.x;",
    ),
    "barrier": (lambda b: b.op(gpu.BarrierOp()), "__syncthreads();"),
    "shuffle xor": (
        lambda b: b.op(ShuffleOp(b["a"], b.const(16), b.const(32), ShuffleMode.XOR)),
        "float v0 = __shfl_xor_sync(0xffffffffu, a, 16, 32);",
    ),
    "shuffle down": (
        lambda b: b.op(ShuffleOp(b["i"], b.const(1), b.const(32), ShuffleMode.DOWN)),
        "int v0 = __shfl_down_sync(0xffffffffu, i, 1, 32);",
    ),
    # memory
    "getelementptr": (lambda b: b.gep(b["p"], b["i"]), "float* v0 = p + i;"),
    "getelementptr constant": (lambda b: b.gep(b["p"], 8), "float* v0 = p + 8;"),
    "getelementptr other element": (
        lambda b: b.gep(b["p"], b["i"], i32),
        "int* v0 = ((int*)p) + i;",
    ),
    "load": (lambda b: b.load(b["p"]), "float v0 = *p;"),
    "ptrtoint": (lambda b: b.op(llvm.PtrToIntOp(b["p"], i64)), "long long v0 = (long long)p;"),
    "inttoptr": (
        lambda b: b.op(
            llvm.IntToPtrOp.build(
                operands=[b.op(llvm.PtrToIntOp(b["p"], i64))], result_types=[b["p"].type]
            )
        ),
        "void* v1 = (void*)v0;",
    ),
    "load other element": (lambda b: b.load(b["p"], i32), "int v0 = *((int*)p);"),
    "store": (lambda b: b.store(b["a"], b["p"]), "*p = a;"),
    "shared load": (
        lambda b: b.op(memref.LoadOp.get(b.shared("smem_0", [64]), [b.const(3, index)])),
        "float v0 = smem_0[3LL];",
    ),
    "shared store": (
        lambda b: b.op(memref.StoreOp.get(b["a"], b.shared("smem_0", [64]), [b.const(3, index)])),
        "smem_0[3LL] = a;",
    ),
    "2-D shared load": (
        lambda b: b.op(
            memref.LoadOp.get(b.shared("tile", [16, 17]), [b.const(1, index), b.const(2, index)])
        ),
        "float v0 = tile[1LL][2LL];",
    ),
    "return": (lambda b: None, "return;"),
}

CMPI = {
    "eq": "i == j",
    "ne": "i != j",
    "slt": "i < j",
    "sle": "i <= j",
    "sgt": "i > j",
    "sge": "i >= j",
    "ult": "((unsigned)i) < ((unsigned)j)",
    "ule": "((unsigned)i) <= ((unsigned)j)",
    "ugt": "((unsigned)i) > ((unsigned)j)",
    "uge": "((unsigned)i) >= ((unsigned)j)",
}

# ordered predicates are false on NaN, unordered ones true (gpu-ir.md: une is !=, uno isnan)
CMPF = {
    "false": "false",
    "oeq": "a == c",
    "ogt": "a > c",
    "oge": "a >= c",
    "olt": "a < c",
    "ole": "a <= c",
    "one": "(a < c || a > c)",
    "ord": "!(isnan(a) || isnan(c))",
    "ueq": "!(a < c || a > c)",
    "ugt": "!(a <= c)",
    "uge": "!(a < c)",
    "ult": "!(a >= c)",
    "ule": "!(a > c)",
    "une": "a != c",
    "uno": "(isnan(a) || isnan(c))",
    "true": "true",
}

MATH = {
    math.ExpOp: "expf",
    math.Exp2Op: "exp2f",
    math.LogOp: "logf",
    math.Log2Op: "log2f",
    math.SqrtOp: "sqrtf",
    math.RsqrtOp: "rsqrtf",
    math.SinOp: "sinf",
    math.CosOp: "cosf",
    math.FloorOp: "floorf",
    math.CeilOp: "ceilf",
    math.AbsFOp: "fabsf",
    math.TanhOp: "tanhf",
    math.ErfOp: "erff",
}


@pytest.mark.parametrize("case", CASES)
def test_op_statement(case: str) -> None:
    build, expected = CASES[case]
    assert expected in body_of(build)


@pytest.mark.parametrize("predicate", CMPI)
def test_cmpi(predicate: str) -> None:
    body = body_of(lambda b: b.op(arith.CmpiOp(b["i"], b["j"], predicate)))
    assert body[0] == f"bool v0 = {CMPI[predicate]};"


@pytest.mark.parametrize("predicate", CMPF)
def test_cmpf(predicate: str) -> None:
    body = body_of(lambda b: b.op(arith.CmpfOp(b["a"], b["c"], predicate)))
    assert body[0] == f"bool v0 = {CMPF[predicate]};"


@pytest.mark.parametrize("op", MATH, ids=lambda op: op.name)
def test_math_call(op: type) -> None:
    assert body_of(lambda b: b.op(op(b["a"])))[0] == f"float v0 = {MATH[op]}(a);"


#: the dialects of the lowered IR (every dialect of ``all_dialects()`` but builtin, func, tt, ttg)
LOWERED_DIALECTS = ("gpu", "arith", "math", "llvm", "memref", "scf", "vector", "nvvm", "ptx")


def lowered_ops() -> dict[str, type]:
    """Every op of the lowered IR's dialects, by name."""
    dialects = [d for d in all_dialects() if d.name in LOWERED_DIALECTS]
    return {op.name: op for d in dialects for op in d.operations}


def contract_ops() -> set[str]:
    """Op names in the contract's "Ops that may appear" table (``arith.addi subi ...``, and an
    op named further in a row's code, as ``scf.condition`` in the ``scf.while`` row)."""
    text = CONTRACT.read_text()
    table = text[text.index("## Ops that may appear") :]
    modifiers = {"x", "y", "z", "x/y/z", "xor"}
    names = set()
    for cell in re.findall(r"^\| (.*?) \|", table, flags=re.M):
        for code in re.findall(r"`([^`]*)`", cell):
            words = code.split()
            dialect = words[0].split(".")[0] if words else ""
            if dialect not in LOWERED_DIALECTS:
                continue
            names.add(words[0])
            siblings = True
            for word in words[1:]:
                siblings = siblings and re.fullmatch(r"[a-z_0-9]+", word) is not None
                if siblings and word not in modifiers:
                    names.add(f"{dialect}.{word}")
                named = re.match(r"([a-z]+)\.[a-z_.0-9]*[a-z0-9]", word)
                if not siblings and named and named.group(1) in LOWERED_DIALECTS:
                    names.add(named.group(0))
    return names


def test_the_lowered_dialects_are_all_dialects_below_ttg() -> None:
    names = {d.name for d in all_dialects()} - {"builtin", "func", "tt", "ttg"}
    assert names == set(LOWERED_DIALECTS)


def test_every_contract_op_exists() -> None:
    assert contract_ops() - set(lowered_ops()) == set()


def test_every_op_mytriton_defines_has_a_contract_row() -> None:
    ours = {n for n, op in lowered_ops().items() if op.__module__.startswith("mytriton.")}
    assert len(ours) > 30
    assert ours - contract_ops() == set()


def test_every_printable_op_has_a_contract_row() -> None:
    assert {op.name for op in printable_ops()} - contract_ops() == set()


def test_the_contract_table_is_read() -> None:
    """(That every op of the contract has a printer is tests/test_op_contract.py's check.)"""
    assert len(contract_ops()) > 50
    assert {"arith.addf", "arith.subf", "gpu.thread_id", "scf.condition"} <= contract_ops()


def _dim(op: type, dim: gpu.DimensionEnum) -> Build:
    return lambda b: b.op(op(gpu.DimensionAttr(dim)))


@pytest.mark.parametrize("dim", [gpu.DimensionEnum.Y, gpu.DimensionEnum.Z], ids=["y", "z"])
def test_y_and_z_block_ids_state_their_launch_range(dim: gpu.DimensionEnum) -> None:
    """CUDA launches at most 65535 blocks along y and z: NVVM learns it (``print_gpu``)."""
    assert body_of(_dim(gpu.BlockIdOp, dim)) == [
        f"long long v0 = blockIdx.{dim.value};",
        "__builtin_assume(v0 < 65535);",
        "return;",
    ]


@pytest.mark.parametrize(
    "build",
    [
        _dim(gpu.BlockIdOp, gpu.DimensionEnum.X),
        _dim(gpu.ThreadIdOp, gpu.DimensionEnum.X),
        _dim(gpu.BlockDimOp, gpu.DimensionEnum.X),
        _dim(gpu.GridDimOp, gpu.DimensionEnum.Y),
    ],
    ids=["ctaid.x", "tid.x", "ntid.x", "nctaid.y"],
)
def test_other_ids_and_sizes_state_no_range(build: Build) -> None:
    """Their ranges made NVVM's code worse or changed nothing (``print_gpu``'s docstring)."""
    assert body_of(build)[1] == "return;"


def test_unknown_op_is_an_error_at_its_kernel_line() -> None:
    with pytest.raises(BackendError) as err:
        kernel_source(lambda b: b.op(arith.CeilDivSIOp(b["i"], b["j"])))
    message = str(err.value)
    assert "/samples/kernels.py:5:1" in message
    assert "arith.ceildivsi" in message


def test_unknown_intrinsic_is_an_error_at_its_kernel_line() -> None:
    with pytest.raises(BackendError, match=r"kernels.py:5:1: .*llvm.nvvm.sin.approx.f has no CUDA"):
        kernel_source(
            lambda b: b.op(llvm.CallIntrinsicOp("llvm.nvvm.sin.approx.f", [b["a"]], [f32]))
        )


def test_shuffle_valid_result_is_rejected() -> None:
    def build(b: KernelBuilder) -> None:
        shuffle = b.op(ShuffleOp(b["a"], b.const(1), b.const(32), ShuffleMode.XOR))
        b.op(arith.ExtUIOp(shuffle.valid, i32))

    with pytest.raises(BackendError, match="valid"):
        kernel_source(build)


def test_atomic_load_is_rejected() -> None:
    def build(b: KernelBuilder) -> None:
        load = llvm.LoadOp(b["p"], f32)
        load.properties["ordering"] = load.ordering.__class__(2, 64)
        b.op(load)

    with pytest.raises(BackendError, match="atomic"):
        kernel_source(build)


def _half_kernel(build: Build) -> list[str]:
    b = KernelBuilder("k", [("h", f16), ("g", f16), ("p", Ptr(f16))], def_line=4)
    with b.at(5):
        build(b)
        b.op(gpu.ReturnOp([]))
    src = print_cuda(b.build(), line_directives="off")  # type: ignore[arg-type]
    return [line.strip() for line in src.splitlines() if line.strip()]


@pytest.mark.parametrize(
    ("build", "statement"),
    [
        (
            lambda b: b.op(arith.AddfOp(b["h"], b["g"])),
            "mt_half v0 = mt_f2h(mt_h2f(h) + mt_h2f(g));",
        ),
        (lambda b: b.op(arith.NegfOp(b["h"])), "mt_half v0 = (mt_half)(h ^ 0x8000);"),
        (lambda b: b.op(arith.ExtFOp(b["h"], f32)), "float v0 = (float)mt_h2f(h);"),
        (
            lambda b: b.op(arith.TruncFOp(b.op(arith.ExtFOp(b["h"], f64)), f16)),
            "mt_half v1 = mt_d2h(v0);",
        ),
        (
            lambda b: b.op(arith.MulfOp(b["h"], b.op(arith.ConstantOp(FloatAttr(1.5, f16))))),
            "mt_half v0 = mt_f2h(mt_h2f(h) * mt_h2f((mt_half)0x3e00));",
        ),
        (
            lambda b: b.op(arith.CmpfOp(b["h"], b["g"], "olt")),
            "bool v0 = mt_h2f(h) < mt_h2f(g);",
        ),
        (
            lambda b: b.op(arith.MaxnumfOp(b["h"], b["g"])),
            "mt_half v0 = mt_f2h(fmaxf(mt_h2f(h), mt_h2f(g)));",
        ),
    ],
    ids=["addf", "negf", "extf", "truncf-f64", "constant", "cmpf", "maxnumf"],
)
def test_half_precision_computes_in_float_and_rounds(build: Build, statement: str) -> None:
    """f16 values are their bits (``mt_half``), converted around every float op: no header is
    needed, and + - * / computed in float then rounded once give the f16 result."""
    lines = _half_kernel(build)
    assert "typedef unsigned short mt_half;" in lines
    assert statement in lines, lines
