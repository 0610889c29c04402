"""``ttg-accelerate-matmul``: each dot's tensor-core instruction decided once and written on it,
and the passes after it (legalizations, layout assignment, the lowering) following what the IR
says rather than deciding again."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from mytriton.dialects import make_context
from mytriton.dialects.tt import core as tt
from mytriton.dialects.ttg.mma import NvidiaMmaEncodingAttr, dot_mma, set_dot_mma
from mytriton.passes.gpu_lowering.lower_to_gpu import TTG_PIPELINE, lower_laid_out
from mytriton.passes.pipeline import run_pipeline

KERNEL = """
func.func @k(%pa: !tt.ptr<{t}>, %pb: !tt.ptr<{t}>, %pc: !tt.ptr<f32>) {{
  %as = tt.splat %pa : !tt.ptr<{t}> -> tensor<{m}x{k}x!tt.ptr<{t}>>
  %bs = tt.splat %pb : !tt.ptr<{t}> -> tensor<{k}x{n}x!tt.ptr<{t}>>
  %a = tt.load %as : tensor<{m}x{k}x!tt.ptr<{t}>>
  %b = tt.load %bs : tensor<{k}x{n}x!tt.ptr<{t}>>
  %zero = tt.zeros : tensor<{m}x{n}xf32>
  %d = tt.dot %a, %b, %zero {{input_precision = "{precision}"}} : tensor<{m}x{k}x{t}> * tensor<{k}x{n}x{t}> -> tensor<{m}x{n}xf32>
  %cs = tt.splat %pc : !tt.ptr<f32> -> tensor<{m}x{n}x!tt.ptr<f32>>
  tt.store %cs, %d : tensor<{m}x{n}x!tt.ptr<f32>>
  func.return
}}
"""


def kernel(m: int, n: int, k: int, t: str = "f16", precision: str = "tf32") -> ModuleOp:
    text = KERNEL.format(m=m, n=n, k=k, t=t, precision=precision)
    return Parser(make_context(), text).parse_module()


def dots(module: ModuleOp) -> list[tt.DotOp]:
    return [op for op in module.walk() if isinstance(op, tt.DotOp)]


def decide(module: ModuleOp, num_warps: int = 4, capability: int = 90, **more: str) -> None:
    options = " ".join(f"{k}={v}" for k, v in {"capability": capability, **more}.items())
    run_pipeline(module, f"ttg-accelerate-matmul{{num_warps={num_warps} {options}}}")


def decision(module: ModuleOp) -> tuple[int, tuple[int, ...], tuple[int, ...]] | None:
    (mma,) = {dot_mma(d) for d in dots(module)}
    return None if mma is None else (mma.version, mma.warps, mma.instr)


@pytest.mark.parametrize(
    ("shape", "t", "precision", "num_warps", "capability", "expected"),
    [
        # sm_90: warpgroup MMAs, every warp along M, one instruction over N
        ((128, 128, 64), "f16", "tf32", 4, 90, (3, (4, 1), (16, 128, 16))),
        ((128, 256, 64), "bf16", "tf32", 8, 90, (3, (8, 1), (16, 256, 16))),
        ((64, 64, 32), "f32", "tf32", 4, 90, (3, (4, 1), (16, 64, 8))),
        ((64, 64, 128), "f8E4M3FN", "tf32", 4, 90, (3, (4, 1), (16, 64, 32))),
        # sm_90, a tile warpgroup MMAs do not take (M < 16 x warps): warp MMAs
        ((32, 64, 64), "f16", "tf32", 4, 90, (2, (2, 2), (16, 8, 16))),
        # sm_80: mma.sync, warps on the larger per-warp extent first
        ((128, 128, 64), "f16", "tf32", 4, 80, (2, (2, 2), (16, 8, 16))),
        ((128, 128, 64), "f16", "tf32", 8, 80, (2, (4, 2), (16, 8, 16))),
        ((64, 128, 32), "f16", "tf32", 8, 80, (2, (2, 4), (16, 8, 16))),
        # fp8: warp fp8 MMAs from sm_89; the f16 dot tt-legalize-fp8-dots makes on sm_80
        ((64, 64, 32), "f8E4M3FN", "tf32", 4, 89, (2, (2, 2), (16, 8, 32))),
        ((64, 64, 32), "f8E4M3FN", "tf32", 4, 80, (2, (2, 2), (16, 8, 16))),
        # ... and on sm_90 where f16 warpgroup MMAs take the widened K (32 fp8: 64 bytes of f16)
        ((64, 64, 32), "f8E4M3FN", "tf32", 4, 90, (3, (4, 1), (16, 64, 16))),
        # tf32x3: the tf32 dots tt-legalize-tf32x3-dots splits it into
        ((64, 64, 32), "f32", "tf32x3", 4, 90, (3, (4, 1), (16, 64, 8))),
        # the FMA loop: ieee f32, a K no instruction takes, one warp of a 16-row tile on sm_90
        ((64, 64, 32), "f32", "ieee", 4, 90, None),
        ((64, 64, 8), "f16", "tf32", 4, 90, None),
        ((16, 16, 4), "f32", "tf32x3", 1, 90, None),
    ],
)
def test_decision(
    shape: tuple[int, int, int],
    t: str,
    precision: str,
    num_warps: int,
    capability: int,
    expected: tuple[int, tuple[int, ...], tuple[int, ...]] | None,
) -> None:
    module = kernel(*shape, t=t, precision=precision)
    decide(module, num_warps, capability)
    assert decision(module) == expected


def test_no_tensor_cores_decides_the_fma_loop() -> None:
    module = kernel(128, 128, 64)
    decide(module, tensor_cores="false")
    assert decision(module) is None


def test_deciding_again_changes_nothing() -> None:
    module = kernel(128, 128, 64)
    decide(module)
    before = str(module)
    decide(module)
    assert str(module) == before


def test_the_ttg_pipeline_decides_first() -> None:
    assert TTG_PIPELINE.startswith("ttg-accelerate-matmul{")


def _lowered(module: ModuleOp, num_warps: int, capability: int) -> str:
    run_pipeline(
        module,
        f"tt-legalize-fp8-dots,tt-legalize-tf32x3-dots,"
        f"tt-assign-layouts{{num_warps={num_warps} capability={capability}}}",
    )
    return str(lower_laid_out(module))


def test_layouts_and_lowering_follow_the_ir() -> None:
    """A decision written by hand (mma.sync on an sm_90 target, where the policy would choose
    wgmma) is what layout assignment lays out and the lowering emits."""
    module = kernel(128, 128, 64)
    decide(module, 4, 80)
    text = _lowered(module, 4, 90)
    assert "nvvm.mma.sync" in text and "wgmma" not in text
    module = kernel(128, 128, 64)
    decide(module, 4, 90)
    assert "nvvm.wgmma.mma_async" in _lowered(module, 4, 90)


def test_an_undecided_dot_runs_the_fma_loop() -> None:
    module = kernel(128, 128, 64)
    decide(module, 4, 90)
    for d in dots(module):
        set_dot_mma(d, None)
    text = _lowered(module, 4, 90)
    assert "mma" not in text


def test_legalizations_follow_the_decision() -> None:
    """tt-legalize-tf32x3-dots splits a decided tf32x3 dot into three tf32 dots of its
    instruction; tt-legalize-fp8-dots widens an fp8 dot decided as f16 MMAs and keeps it."""
    module = kernel(64, 64, 32, "f32", "tf32x3")
    decide(module)
    run_pipeline(module, "tt-legalize-tf32x3-dots")
    split = dots(module)
    expected = NvidiaMmaEncodingAttr(3, (4, 1), (16, 64, 8))
    assert len(split) == 3 and all(dot_mma(d) == expected for d in split)
    assert all(d.precision == "tf32" for d in split)
    module = kernel(64, 64, 32, "f8E4M3FN")
    decide(module)
    run_pipeline(module, "tt-legalize-fp8-dots")
    (widened,) = dots(module)
    assert str(widened.a.type) == "tensor<64x32xf16>"
    assert dot_mma(widened) == NvidiaMmaEncodingAttr(3, (4, 1), (16, 64, 16))
