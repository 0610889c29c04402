"""The emitter: every op of ``docs/gpu-ir.md`` printed the way upstream MLIR 22 parses it."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from xdsl.dialects import gpu
from xdsl.printer import Printer

from mytriton.backends.mlir.emit import emit_mlir, kernel_name, print_generic
from mytriton.errors import BackendError
from tests.mlir import samples

Check = Callable[[str, str], None]

# One FileCheck script per sample: each op of the contract's table, with its upstream spelling.
CHECKS = {
    "ids_and_barrier": """
CHECK: "gpu.thread_id"() <{dimension = #gpu<dim x>}> : () -> index
CHECK: "arith.index_cast"(%{{.*}}) : (index) -> i32
CHECK: "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
CHECK: "gpu.grid_dim"() <{dimension = #gpu<dim x>}> : () -> index
CHECK: "gpu.block_id"() <{dimension = #gpu<dim y>}>
CHECK: "gpu.grid_dim"() <{dimension = #gpu<dim y>}>
CHECK: "gpu.block_id"() <{dimension = #gpu<dim z>}>
CHECK: "gpu.grid_dim"() <{dimension = #gpu<dim z>}>
CHECK: "gpu.barrier"() : () -> ()
CHECK: "gpu.return"() : () -> ()
""",
    "int_arith": """
CHECK: "arith.addi"(%{{.*}}, %{{.*}}) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
CHECK: "arith.subi"
CHECK: "arith.muli"
CHECK: "arith.divsi"(%{{.*}}, %{{.*}}) : (i32, i32) -> i32
CHECK: "arith.remsi"
CHECK: "arith.andi"
CHECK: "arith.ori"
CHECK: "arith.xori"
CHECK: "arith.shli"
CHECK: "arith.shrsi"
CHECK: "arith.shrui"
CHECK: "arith.maxsi"
CHECK: "arith.minsi"
CHECK: "arith.extsi"(%{{.*}}) : (i32) -> i64
CHECK: "arith.addi"(%{{.*}}, %{{.*}}) {{.*}} : (i64, i64) -> i64
CHECK: "arith.constant"() <{value = 1 : index}> : () -> index
CHECK: "arith.addi"(%{{.*}}, %{{.*}}) {{.*}} : (index, index) -> index
CHECK: "arith.constant"() <{value = true}> : () -> i1
CHECK: "arith.cmpi"(%{{.*}}, %{{.*}}) <{predicate = 4 : i64}> : (i32, i32) -> i1
CHECK-NEXT: "arith.andi"(%{{.*}}, %{{.*}}) : (i1, i1) -> i1
CHECK: "arith.trunci"(%{{.*}}) : (i64) -> i32
CHECK: "arith.extui"(%{{.*}}) : (i1) -> i32
""",
    "float_arith": """
CHECK: "arith.sitofp"(%{{.*}}) : (i32) -> f32
CHECK: "arith.addf"(%{{.*}}, %{{.*}}) <{fastmath = #arith.fastmath<contract>}> : (f32, f32) -> f32
CHECK: "arith.constant"() <{value = 5.000000e-01 : f32}> : () -> f32
CHECK: "arith.subf"
CHECK: "arith.mulf"
CHECK: "arith.divf"
CHECK: "arith.negf"(%{{.*}}) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
CHECK: "arith.remf"(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
""",
    # upstream's predicate numbers: cmpi eq=0 ... uge=9; cmpf oeq=1 ogt oge olt ole one=6 ord=7
    # une=13 uno=14
    "compare_select": "\n".join(
        [
            f'CHECK: "arith.cmpi"(%{{{{.*}}}}, %{{{{.*}}}}) <{{predicate = {n} : i64}}>'
            for n in range(10)
        ]
        + [
            f'CHECK: "arith.cmpf"(%{{{{.*}}}}, %{{{{.*}}}}) <{{predicate = {n} : i64, '
            f"fastmath = #arith.fastmath<none>}}> : (f32, f32) -> i1\n"
            f'CHECK: "arith.select"(%{{{{.*}}}}, %{{{{.*}}}}, %{{{{.*}}}}) : (i1, i32, i32) -> i32'
            for n in (1, 2, 3, 4, 5, 6, 13, 14, 7)
        ]
    ),
    "conversions": """
CHECK: "arith.trunci"(%{{.*}}) : (i32) -> i1
CHECK: "arith.extui"(%{{.*}}) : (i1) -> i32
CHECK: "arith.uitofp"(%{{.*}}) : (i32) -> f32
CHECK: "arith.truncf"(%{{.*}}) : (f32) -> f16
CHECK: "arith.extf"(%{{.*}}) : (f16) -> f32
CHECK: "arith.extf"(%{{.*}}) : (f32) -> f64
CHECK: "arith.truncf"(%{{.*}}) : (f64) -> f32
CHECK: "arith.fptosi"(%{{.*}}) : (f32) -> i32
CHECK: "arith.extsi"(%{{.*}}) : (i32) -> i64
CHECK: "arith.trunci"(%{{.*}}) : (i64) -> i32
CHECK: "arith.sitofp"(%{{.*}}) : (i32) -> f32
""",
    "math_ops": "\n".join(
        f'CHECK: "math.{op}"(%{{{{.*}}}}) <{{fastmath = #arith.fastmath<none>}}> : (f32) -> f32'
        for op in (
            "exp",
            "exp2",
            "log",
            "log2",
            "sqrt",
            "rsqrt",
            "sin",
            "cos",
            "floor",
            "ceil",
            "absf",
        )
    )
    + """
CHECK: "math.fma"(%{{.*}}, %{{.*}}, %{{.*}}) <{fastmath = #arith.fastmath<none>}> : (f32, f32, f32) -> f32
CHECK: "llvm.intr.abs"(%{{.*}}) <{is_int_min_poison = false}> : (i32) -> i32
""",
    "memory": """
CHECK: "memref.global"() <{sym_name = "smem_0", type = memref<128xf32, 3 : i64>, initial_value, sym_visibility = "private"}> : () -> ()
CHECK: "llvm.getelementptr"(%{{.*}}, %{{.*}}) <{rawConstantIndices = array<i32: -2147483648>, elem_type = f32, noWrapFlags = 0 : i32}> : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>
CHECK: "llvm.load"(%{{.*}}) <{ordering = 0 : i64}> : (!llvm.ptr<1>) -> f32
CHECK: "memref.get_global"() <{name = @smem_0}> : () -> memref<128xf32, 3 : i64>
CHECK: "memref.store"(%{{.*}}, %{{.*}}, %{{.*}}) : (f32, memref<128xf32, 3 : i64>, index) -> ()
CHECK: "gpu.barrier"
CHECK: "memref.load"(%{{.*}}, %{{.*}}) : (memref<128xf32, 3 : i64>, index) -> f32
CHECK: "llvm.store"(%{{.*}}, %{{.*}}) <{ordering = 0 : i64}> : (f32, !llvm.ptr<1>) -> ()
""",
    "control_flow": """
CHECK: %[[MASK:.*]] = "arith.cmpi"
CHECK: = "scf.if"(%[[MASK]]) ({
CHECK: "scf.yield"(%{{.*}}) : (f32) -> ()
CHECK-NEXT: }, {
CHECK: "scf.yield"(%{{.*}}) : (f32) -> ()
CHECK-NEXT: }) : (i1) -> f32
CHECK: = "scf.for"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) ({
CHECK-NEXT: ^bb0(%{{.*}}: i32{{.*}}, %{{.*}}: f32{{.*}}):
CHECK: }) : (i32, i32, i32, f32) -> f32
CHECK: = "scf.for"
CHECK-NEXT: ^bb0(%{{.*}}: index{{.*}}, %{{.*}}: f32{{.*}}):
CHECK: }) : (index, index, index, f32) -> f32
CHECK: "scf.if"(%[[MASK]]) ({
CHECK: "llvm.store"
CHECK: "scf.yield"() : () -> ()
CHECK: }) : (i1) -> ()
""",
    "shuffle": """
CHECK: %[[V:.*]], %{{.*}} = "gpu.shuffle"(%{{.*}}, %{{.*}}, %{{.*}}) <{mode = #gpu<shuffle_mode xor>}> : (f32, i32, i32) -> (f32, i1)
CHECK: "arith.addf"(%{{.*}}, %[[V]])
""",
    "add_kernel": """
CHECK: "builtin.module"() ({
CHECK-NEXT: "gpu.module"() <{sym_name = "kernels"}> ({
CHECK-NEXT: "gpu.func"() <{function_type = (!llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<1>, i32) -> ()}> ({
CHECK-NEXT: ^bb0(%{{.*}}: !llvm.ptr<1> loc(unknown), %{{.*}}: !llvm.ptr<1> loc(unknown), %{{.*}}: !llvm.ptr<1> loc(unknown), %{{.*}}: i32 loc(unknown)):
CHECK: "gpu.return"() : () -> () loc("samples.py":{{[0-9]+}}:1)
CHECK-NEXT: }) {sym_name = "add_kernel", gpu.kernel, mytriton.pointee_types = [f32, f32, f32], nvvm.reqntid = array<i32: 128, 1, 1>} : () -> () loc("samples.py":{{[0-9]+}}:1)
CHECK-NEXT: }) : () -> ()
CHECK-NEXT: }) {gpu.container_module} : () -> ()
""",
}


def test_every_sample_has_checks() -> None:
    assert set(CHECKS) == set(samples.SAMPLES)


@pytest.mark.parametrize("name", sorted(samples.SAMPLES))
def test_emitted_ops(name: str, filecheck: Check) -> None:
    filecheck(emit_mlir(samples.SAMPLES[name]()), CHECKS[name])


def test_every_op_carries_its_location() -> None:
    module = samples.add_kernel()
    text = emit_mlir(module)
    assert text.count('loc("samples.py":') == len(list(module.walk()))
    assert 'loc("samples.py":12:1)' in text


def test_locations_can_be_left_out() -> None:
    assert "loc(" not in emit_mlir(samples.add_kernel(), locations=False)


XDSL_STYLE_CHECKS = """
CHECK: "gpu.module"() <{sym_name = "kernels"}> ({
CHECK: "gpu.func"() <{function_type = (!llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<1>, i32) -> ()}> ({
CHECK-NOT: known_block_size
CHECK: }) {sym_name = "add_kernel", gpu.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} : () -> ()
CHECK: }) {gpu.container_module} : () -> ()
"""


def test_fixes_xdsl_constructor_forms(filecheck: Check) -> None:
    """xDSL's own gpu.func/gpu.module constructors: kernel property, prefixed block size,
    symbol-ref module name and no container attribute all come out in upstream's form."""
    module = samples.add_kernel(xdsl_style=True)
    del module.attributes["gpu.container_module"]
    text = emit_mlir(module, locations=False)
    filecheck(text, XDSL_STYLE_CHECKS)
    assert "kernel}>" not in text and "@kernels" not in text


def test_emitting_leaves_the_module_unchanged() -> None:
    module = samples.add_kernel(xdsl_style=True)
    before = str(module)
    emit_mlir(module)
    assert str(module) == before
    func = next(op for op in module.walk() if isinstance(op, gpu.FuncOp))
    assert "kernel" in func.properties


def test_kernel_name() -> None:
    assert kernel_name(samples.conversions()) == "conversions"
    assert kernel_name(samples.add_kernel(xdsl_style=True)) == "add_kernel"


def test_a_module_without_kernel_is_rejected() -> None:
    module = samples.add_kernel()
    func = next(op for op in module.walk() if isinstance(op, gpu.FuncOp))
    del func.attributes["gpu.kernel"]
    with pytest.raises(BackendError, match=r"exactly one kernel gpu\.func, found 0"):
        emit_mlir(module)


def test_location_file_names_are_escaped() -> None:
    text = emit_mlir(samples.add_kernel(file='/tmp/we"ird dir/k.py'))
    assert 'loc("/tmp/we\\22ird dir/k.py":' in text


@pytest.mark.parametrize("name", sorted(samples.SAMPLES))
@pytest.mark.parametrize("locations", [True, False])
def test_the_text_is_xdsls_generic_form(name: str, locations: bool) -> None:
    """``print_generic`` prints with the stages' faster printer: the text is exactly what
    xDSL's own ``Printer`` prints, which upstream MLIR is known to parse."""
    module = samples.SAMPLES[name]()
    out = io.StringIO()
    Printer(stream=out, print_generic_format=True, print_debuginfo=locations).print_op(module)
    assert print_generic(module, locations=locations) == out.getvalue().rstrip("\n") + "\n"
