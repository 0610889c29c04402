"""The seed's README example, verbatim apart from the SSA printer: add_kernel launched on NumPy
arrays with a ``lambda meta`` grid, unpacked as ``expression_ops, ssa_ops, src``.

"Shared expressions such as offsets and mask are lowered once and referenced by their SSA values
wherever they are reused" -- checked on the optimised IR.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from tests.frontend.util import without_locations


@triton.jit
def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x_values = tl.load(x + offsets, mask=mask, other=0.0)
    y_values = tl.load(y + offsets, mask=mask, other=0.0)
    tl.store(out + offsets, x_values + y_values, mask=mask)


@pytest.fixture(scope="module")
def example(request):
    mp = pytest.MonkeyPatch()
    for var in ("MYTRITON_BACKEND", "MYTRITON_INTERPRET", "TRITON_INTERPRET", "MYTRITON_PIPELINE"):
        mp.delenv(var, raising=False)
    add_kernel.clear_cache()
    n = 1_000
    block = 256
    x = np.ones(n, dtype=np.float32)
    y = np.ones(n, dtype=np.float32)
    out = np.empty_like(x)
    grids = []

    def grid(meta):
        grids.append(triton.cdiv(n, meta["BLOCK"]))
        return (triton.cdiv(n, meta["BLOCK"]),)

    expression_ops, ssa_ops, src = add_kernel[grid](x, y, out, n, BLOCK=block)
    yield expression_ops, ssa_ops, src, grids
    mp.undo()


def defs(ir: str, op: str) -> list[str]:
    """SSA names defined by every ``op`` in ``ir``."""
    return re.findall(rf"(%[\w.]+) = {re.escape(op)}\b", ir)


def test_example_unpacks_into_three_values(example):
    expression_ops, ssa_ops, src, grids = example
    assert isinstance(expression_ops, str) and isinstance(ssa_ops, str)
    # the default backend is cuda: with NumPy arrays compilation stops at the CUDA C++ source
    assert 'extern "C" __global__' in src and "add_kernel(float* x, float* y" in src
    assert grids == [4]  # cdiv(1000, 256)


def test_frontend_ir_has_the_seed_ops(example):
    ir = without_locations(example[0])
    assert (
        "func.func @add_kernel(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32)"
        in ir
    )
    assert "tt.get_program_id x : i32" in ir
    assert "tt.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>" in ir
    assert "%offsets = tt.add %" in ir and ": tensor<256xi32>" in ir
    assert "%mask = tt.cmp lt, %offsets, %" in ir
    assert ir.count("tt.addptr") == 3
    assert re.search(r"%x_values = tt\.load %\w+, %mask, %\w+ : tensor<256x!tt\.ptr<f32>>", ir)
    assert re.search(r"%y_values = tt\.load %\w+, %mask, %\w+ : tensor<256x!tt\.ptr<f32>>", ir)
    assert "tt.add %x_values, %y_values : tensor<256xf32>" in ir
    assert re.search(r"tt\.store %\w+, %\w+, %mask : tensor<256x!tt\.ptr<f32>>", ir)


def test_optimised_ir_computes_offsets_and_mask_once(example):
    before, after = example[0], example[1]
    for ir in (before, after):
        assert len(defs(ir, "tt.make_range")) == 1
        assert len(defs(ir, "tt.cmp")) == 1  # mask: one comparison ...
        assert ir.count("%offsets") >= 5  # ... and offsets reused by the mask and 3 addptrs
    # every address is `addptr(splat(ptr), %offsets)` and both loads share %mask
    for name in ("x", "y", "out"):
        assert re.search(
            rf"(%\w+) = tt\.splat %{name} : !tt\.ptr<f32> -> tensor<256x!tt\.ptr<f32>>", after
        )
    assert len(re.findall(r"tt\.addptr %\w+, %offsets :", after)) == 3
    assert len(re.findall(r"tt\.load %\w+, %mask, ", after)) == 2


def test_optimised_ir_shares_the_other_constant(example):
    """The frontend builds `other=0.0` twice; CSE leaves one constant and one splat."""
    before, after = example[0], example[1]
    assert before.count("arith.constant 0.000000e+00 : f32") == 2
    assert after.count("arith.constant 0.000000e+00 : f32") == 1
    loads = re.findall(r"tt\.load %\w+, %mask, (%\w+) :", after)
    assert len(loads) == 2 and loads[0] == loads[1]
    assert len(after.splitlines()) < len(before.splitlines())


def test_example_ir_reparses_to_the_same_text(example):
    from xdsl.parser import Parser

    from mytriton.backends.stages import print_module
    from mytriton.dialects import make_context

    for ir in example[:2]:
        module = Parser(make_context(), ir).parse_module()
        module.verify()
        assert print_module(module) == ir  # with its locations: the Python lines survive
