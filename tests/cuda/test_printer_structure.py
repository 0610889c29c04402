"""The shape of printed kernels: signature, shared arrays, control flow, names, ``#line``."""

from __future__ import annotations

import itertools
import re

import pytest
from xdsl.dialects import arith, gpu, math, scf
from xdsl.dialects.builtin import f32, i1, i32

from mytriton.backends.cuda.printer import print_cuda
from mytriton.backends.cuda.writer import SourceWriter
from mytriton.errors import BackendError
from mytriton.passes.gpu_lowering.abi import KernelSignature, kernel_signature
from tests.gpu_ir_samples import (
    SAMPLE_FILE,
    KernelBuilder,
    Ptr,
    add_2d_grid_module,
    pointer_walk_module,
    row_sum_module,
)


def statements(src: str) -> list[str]:
    return [line.strip() for line in src.splitlines() if line.strip() and not line.startswith("#")]


def test_kernel_signature_line() -> None:
    src = print_cuda(add_2d_grid_module(), line_directives="off")
    assert (
        'extern "C" __global__ void __launch_bounds__(128) add_kernel('
        "float* x, float* y, float* out, int n) {"
    ) in src


def test_pointer_element_types_come_from_pointee_types() -> None:
    b = KernelBuilder("k", [("flags", Ptr(i1)), ("idx", Ptr(i32)), ("scale", f32), ("on", i32)])
    b.op(gpu.ReturnOp([]))
    module = b.build()
    src = print_cuda(module)
    assert "k(bool* flags, int* idx, float scale, int on)" in src
    assert kernel_signature(module) == KernelSignature(
        "k", ("ptr", "ptr", "f32", "i32"), (128, 1, 1)
    )


def test_parameter_names_that_are_not_cpp_names_are_renamed() -> None:
    params = [("float", f32), ("max", i32), ("v5", i32), ("threadIdx", i32), ("expf", f32)]
    b = KernelBuilder("k", params)
    with b.at(2):
        b.op(arith.AddfOp(b["float"], b["float"]), "x")
        b.op(arith.MaxSIOp(b["max"], b["v5"]))
        b.op(math.ExpOp(b["expf"]))
        b.op(gpu.ReturnOp([]))
    src = print_cuda(b.build(), line_directives="off")
    assert " k(float float_0, int max_1, int v5, int threadIdx_2, float expf_3) {" in src
    assert "float x_4 = float_0 + float_0;" in src
    assert "int v6 = max(max_1, v5);" in src  # v5 is the parameter's
    assert "float v7 = expf(expf_3);" in src


def test_names_follow_name_hints() -> None:
    src = print_cuda(add_2d_grid_module(), line_directives="off")
    assert re.search(
        r"int offsets_\d+ = \(int\)\(\(unsigned int\)v\d+ \+ \(unsigned int\)tid_\d+\);", src
    )
    assert re.search(r"bool mask_\d+ = offsets_\d+ < n;", src)


def test_shared_memory_is_a_static_shared_array() -> None:
    src = print_cuda(row_sum_module(block=256), line_directives="off")
    assert "__shared__ float smem_0[8];" in src
    assert re.search(r"smem_0\[v\d+\] = v\d+;", src)
    assert "__syncthreads();" in src


def test_masked_load_is_an_if_with_a_result_variable() -> None:
    src = print_cuda(add_2d_grid_module(), line_directives="off")
    m = re.search(
        r"float (x_values_\d+);\n\s*if \((mask_\d+)\) \{\n\s*float (v\d+) = \*(v\d+);\n"
        r"\s*\1 = \3;\n\s*\} else \{\n\s*\1 = 0.0f;\n\s*\}",
        src,
    )
    assert m, src


def test_masked_store_is_an_if_without_else() -> None:
    src = print_cuda(add_2d_grid_module(), line_directives="off")
    assert re.search(r"if \(mask_\d+\) \{\n\s*\*v\d+ = v\d+;\n\s*\}\n\s*return;", src), src


def test_for_loop_carries_values_in_variables() -> None:
    src = print_cuda(row_sum_module(), line_directives="off")
    assert "float acc_" in src
    m = re.search(
        r"float (acc_\d+) = 0.0f;\n\s*for \(int (k_\d+) = 0; \2 < n; \2 \+= 128\) \{", src
    )
    assert m, src
    acc = m.group(1)
    assert re.search(rf"{acc} = v\d+;\n\s*\}}", src)


def test_swapped_loop_values_are_assigned_in_parallel() -> None:
    body = statements(print_cuda(pointer_walk_module(), line_directives="off"))
    start = next(i for i, s in enumerate(body) if s.startswith("float* v") and "+ 64;" in s)
    tail = body[start + 1 : start + 7]
    assert tail == [
        "float yield_12 = b_6;",
        "float yield_13 = a_5;",
        "acc_3 = v10;",
        "p_4 = v11;",
        "a_5 = yield_12;",
        "b_6 = yield_13;",
    ]


def test_pointer_loop_variable_is_typed() -> None:
    src = print_cuda(pointer_walk_module(), line_directives="off")
    assert "float* p_4 = v2;" in src
    assert "float v8 = *p_4;" in src


def test_if_without_results_and_without_else() -> None:
    b = KernelBuilder("k", [("c", i32), ("out", Ptr(i32))])
    with b.at(3):
        cond = b.op(arith.CmpiOp(b["c"], b.const(0), "sgt"))
        _, then, _ = b.if_(cond)
        with b.inside(then):
            b.store(b["c"], b["out"])
            b.yield_()
        b.op(gpu.ReturnOp([]))
    body = statements(print_cuda(b.build(), line_directives="off"))
    assert body[-5:] == ["if (v0) {", "*out = c;", "}", "return;", "}"]


# ---------------------------------------------------------------------------- #line


def presumed_lines(src: str) -> list[tuple[str, str, int]]:
    """(statement, file, line) as the C preprocessor attributes each line after ``#line``."""
    out = []
    file, line = "<source>", 1
    for text in src.splitlines():
        m = re.fullmatch(r'#line (\d+)(?: "(.*)")?', text)
        if m:
            line = int(m.group(1))
            file = m.group(2) or file
            continue
        if text.strip():
            out.append((text.strip(), file, line))
        line += 1
    return out


def test_exact_line_directives_attribute_every_statement_to_its_python_line() -> None:
    b = KernelBuilder("k", [("a", f32), ("out", Ptr(f32))], def_line=10)
    with b.at(11):
        x = b.op(arith.MulfOp(b["a"], b["a"]), "x")
        y = b.op(arith.AddfOp(x, b["a"]), "y")
    with b.at(13):
        z = b.op(arith.SubfOp(y, x), "z")
        b.store(z, b["out"])
    with b.at(11):
        b.op(gpu.ReturnOp([]))
    lines = {s: (f, n) for s, f, n in presumed_lines(print_cuda(b.build()))}
    assert lines["float x_0 = a * a;"] == (SAMPLE_FILE, 11)
    assert lines["float y_1 = x_0 + a;"] == (SAMPLE_FILE, 11)
    assert lines["float z_2 = y_1 - x_0;"] == (SAMPLE_FILE, 13)
    assert lines["*out = z_2;"] == (SAMPLE_FILE, 13)
    assert lines["return;"] == (SAMPLE_FILE, 11)
    assert lines[next(s for s in lines if s.startswith('extern "C"'))] == (SAMPLE_FILE, 10)


def test_every_statement_of_a_sample_is_attributed_to_its_op_line() -> None:
    for module in (add_2d_grid_module(), row_sum_module(), pointer_walk_module()):
        src = print_cuda(module)
        for statement, file, line in presumed_lines(src):
            if statement.startswith(("//", "}", "__shared__")):
                continue
            assert file == SAMPLE_FILE
            assert 10 <= line <= 33, statement


def test_line_directive_modes() -> None:
    exact = print_cuda(add_2d_grid_module())
    changes = print_cuda(add_2d_grid_module(), line_directives="changes")
    off = print_cuda(add_2d_grid_module(), line_directives="off")
    assert "#line" not in off
    assert f'#line 10 "{SAMPLE_FILE}"' in changes
    count = lambda s: s.count("#line")  # noqa: E731
    assert 0 < count(changes) < count(exact)
    directives = [int(m) for m in re.findall(r"#line (\d+)", changes)]
    assert all(a != b for a, b in itertools.pairwise(directives))
    assert statements(exact) == statements(changes) == statements(off)


def test_writer_uses_short_directives_within_a_file() -> None:
    w = SourceWriter()
    w.line("a;", ("f.py", 3))
    w.line("b;", ("f.py", 3))
    w.line("c;", ("f.py", 4))
    w.line("d;", ("g.py", 4))
    assert w.text().splitlines() == [
        '#line 3 "f.py"',
        "a;",
        "#line 3",
        "b;",
        "c;",
        '#line 4 "g.py"',
        "d;",
    ]


def test_paths_are_quoted_in_line_directives() -> None:
    w = SourceWriter()
    w.line("a;", ('C:\\k "1".py', 3))
    assert w.text().splitlines()[0] == '#line 3 "C:\\\\k \\"1\\".py"'


# ---------------------------------------------------------------------------- errors


def test_a_module_must_hold_one_kernel() -> None:
    module = add_2d_grid_module()
    gmod = next(op for op in module.walk() if isinstance(op, gpu.ModuleOp))
    gmod.body.block.add_op(next(op for op in module.walk() if isinstance(op, gpu.FuncOp)).clone())
    with pytest.raises(BackendError, match=r"exactly one gpu\.func"):
        print_cuda(module)


def test_a_pointer_parameter_needs_an_element_type() -> None:
    b = KernelBuilder("k", [("p", Ptr(f32))])
    b.op(gpu.ReturnOp([]))
    module = b.build()
    func = next(op for op in module.walk() if isinstance(op, gpu.FuncOp))
    del func.attributes["mytriton.pointee_types"]
    with pytest.raises(BackendError, match="pointee_types"):
        print_cuda(module)


def test_yield_outside_structured_ops_is_an_error() -> None:
    b = KernelBuilder("k", [("a", f32)])
    b.op(gpu.ReturnOp([]))
    module = b.build()
    func = next(op for op in module.walk() if isinstance(op, gpu.FuncOp))
    func.body.block.insert_op_before(scf.YieldOp(), func.body.block.first_op)  # type: ignore[arg-type]
    with pytest.raises(BackendError, match=r"scf\.yield outside"):
        print_cuda(module)
