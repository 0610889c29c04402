"""Shared helpers of the interpreter tests: parse + verify tt IR text, run it, build IR snippets.

Kernels are written as tt IR text (what the frontend will emit); snippets below spell out the
recurring preambles (``offs = pid * BLOCK + arange(BLOCK)``) once.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from mytriton.backends.interpreter import run_kernel
from mytriton.dialects import make_context
from mytriton.dialects.verify import verify_module


def parse(text: str) -> ModuleOp:
    module = Parser(make_context(), text).parse_module()
    verify_module(module)
    return module


def run(
    text: str, grid: Sequence[int], args: Sequence[object], *, name: str = "k", debug: bool = False
) -> ModuleOp:
    module = parse(text)
    run_kernel(module, name, tuple(grid), args, debug=debug)
    return module


def offsets_1d(block: int, name: str = "offs", axis: str = "x") -> str:
    """IR defining ``%{name} = program_id(axis) * block + arange(0, block)`` (i32 block)."""
    return f"""
  %{name}_pid = tt.get_program_id {axis} : i32
  %{name}_bs = arith.constant {block} : i32
  %{name}_start = tt.mul %{name}_pid, %{name}_bs : i32
  %{name}_r = tt.make_range {{start = 0 : i32, end = {block} : i32}} : tensor<{block}xi32>
  %{name}_s = tt.splat %{name}_start : i32 -> tensor<{block}xi32>
  %{name} = tt.add %{name}_s, %{name}_r : tensor<{block}xi32>"""


def mask_lt(offs: str, n: str, block: int, name: str = "mask") -> str:
    """IR defining ``%{name} = %{offs} < splat(%{n})``."""
    return f"""
  %{name}_n = tt.splat %{n} : i32 -> tensor<{block}xi32>
  %{name} = tt.cmp lt, %{offs}, %{name}_n : tensor<{block}xi32>"""


def pointers(ptr: str, offs: str, block: int, elem: str = "f32", name: str = "") -> str:
    """IR defining ``%{name} = splat(%{ptr}) + %{offs}`` (default name ``{ptr}_p``)."""
    name = name or f"{ptr}_p"
    pt = f"tensor<{block}x!tt.ptr<{elem}>>"
    return f"""
  %{name}_s = tt.splat %{ptr} : !tt.ptr<{elem}> -> {pt}
  %{name} = tt.addptr %{name}_s, %{offs} : {pt}, tensor<{block}xi32>"""


def splat_const(name: str, value: str, shape: int | str, elem: str = "f32") -> str:
    """IR defining ``%{name} = splat(constant value)`` of shape ``shape`` (e.g. 256 or "4x8")."""
    return f"""
  %{name}_c = arith.constant {value} : {elem}
  %{name} = tt.splat %{name}_c : {elem} -> tensor<{shape}x{elem}>"""


def poisoned(shape: int | tuple[int, ...], dtype: type = np.float32) -> np.ndarray:
    """An output array pre-filled so that an element the kernel fails to write stands out."""
    if np.issubdtype(dtype, np.floating):
        return np.full(shape, np.nan, dtype=dtype)
    return np.full(shape, -12345, dtype=dtype)


def kernel_source(tmp_path: Path, lines: Sequence[str]) -> str:
    """Write a fake kernel source file; IR ``loc("<path>":line:col)`` can then point into it."""
    path = tmp_path / "kernel_src.py"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def outer_offsets(name: str, rows: str, cols: str, r: int, c: int, stride: str) -> str:
    """IR defining ``%{name} = %{rows}[:, None] * %{stride} + %{cols}[None, :]`` (r x c, i32)."""
    t = f"tensor<{r}x{c}xi32>"
    return f"""
  %{name}_r2 = tt.expand_dims %{rows} {{axis = 1 : i32}} : tensor<{r}xi32> -> tensor<{r}x1xi32>
  %{name}_c2 = tt.expand_dims %{cols} {{axis = 0 : i32}} : tensor<{c}xi32> -> tensor<1x{c}xi32>
  %{name}_st = tt.splat %{stride} : i32 -> tensor<{r}x1xi32>
  %{name}_ro = tt.mul %{name}_r2, %{name}_st : tensor<{r}x1xi32>
  %{name}_rb = tt.broadcast %{name}_ro : tensor<{r}x1xi32> -> {t}
  %{name}_cb = tt.broadcast %{name}_c2 : tensor<1x{c}xi32> -> {t}
  %{name} = tt.add %{name}_rb, %{name}_cb : {t}"""


def tile_pointers(name: str, ptr: str, offs: str, r: int, c: int, elem: str = "f32") -> str:
    """IR defining ``%{name} = splat(%{ptr}) + %{offs}`` for an r x c tile."""
    pt = f"tensor<{r}x{c}x!tt.ptr<{elem}>>"
    return f"""
  %{name}_s = tt.splat %{ptr} : !tt.ptr<{elem}> -> {pt}
  %{name} = tt.addptr %{name}_s, %{offs} : {pt}, tensor<{r}x{c}xi32>"""


def tiled_matmul(bm: int, bn: int, bk: int, k_const: int | None) -> str:
    """C = A @ B + 1 with a K loop; K is the runtime ``%Kin`` or the constant ``k_const``."""
    k_def = f"%K = arith.constant {k_const} : i32" if k_const else "%K = tt.add %Kin, %c0 : i32"
    acc = f"tensor<{bm}x{bn}xf32>"
    apt = f"tensor<{bm}x{bk}x!tt.ptr<f32>>"
    bpt = f"tensor<{bk}x{bn}x!tt.ptr<f32>>"
    return f"""
func.func @k(%ap: !tt.ptr<f32>, %bp: !tt.ptr<f32>, %cp: !tt.ptr<f32>, %N: i32, %Kin: i32) {{
  %c0 = arith.constant 0 : i32
  {k_def}
  %pm = tt.get_program_id x : i32
  %pn = tt.get_program_id y : i32
  %cbm = arith.constant {bm} : i32
  %cbn = arith.constant {bn} : i32
  %cbk = arith.constant {bk} : i32
  %m0 = tt.mul %pm, %cbm : i32
  %n0 = tt.mul %pn, %cbn : i32
  %rm0 = tt.make_range {{start = 0 : i32, end = {bm} : i32}} : tensor<{bm}xi32>
  %rn0 = tt.make_range {{start = 0 : i32, end = {bn} : i32}} : tensor<{bn}xi32>
  %rk = tt.make_range {{start = 0 : i32, end = {bk} : i32}} : tensor<{bk}xi32>
  %m0s = tt.splat %m0 : i32 -> tensor<{bm}xi32>
  %n0s = tt.splat %n0 : i32 -> tensor<{bn}xi32>
  %rm = tt.add %m0s, %rm0 : tensor<{bm}xi32>
  %rn = tt.add %n0s, %rn0 : tensor<{bn}xi32>
  {outer_offsets("aoff", "rm", "rk", bm, bk, "K")}
  {outer_offsets("boff", "rk", "rn", bk, bn, "N")}
  {outer_offsets("coff", "rm", "rn", bm, bn, "N")}
  {tile_pointers("a0", "ap", "aoff", bm, bk)}
  {tile_pointers("b0", "bp", "boff", bk, bn)}
  {tile_pointers("c_t", "cp", "coff", bm, bn)}
  %one = arith.constant 1.0 : f32
  %init = tt.full %one : f32 -> {acc}
  %ainc = tt.splat %cbk : i32 -> tensor<{bm}x{bk}xi32>
  %bstep = tt.mul %cbk, %N : i32
  %binc = tt.splat %bstep : i32 -> tensor<{bk}x{bn}xi32>
  %res:3 = scf.for %kk = %c0 to %K step %cbk iter_args(%acc = %init, %pa = %a0, %pb = %b0)
      -> ({acc}, {apt}, {bpt}) : i32 {{
    %a = tt.load %pa : {apt}
    %b = tt.load %pb : {bpt}
    %acc2 = tt.dot %a, %b, %acc : tensor<{bm}x{bk}xf32> * tensor<{bk}x{bn}xf32> -> {acc}
    %pa2 = tt.addptr %pa, %ainc : {apt}, tensor<{bm}x{bk}xi32>
    %pb2 = tt.addptr %pb, %binc : {bpt}, tensor<{bk}x{bn}xi32>
    scf.yield %acc2, %pa2, %pb2 : {acc}, {apt}, {bpt}
  }}
  tt.store %c_t, %res#0 : tensor<{bm}x{bn}x!tt.ptr<f32>>
  func.return
}}"""


_COMBINE = {"sum": "tt.add", "max": "tt.maximum", "min": "tt.minimum"}


def reduce_op(
    result: str, kind: str, src: str, axis: int, tin: str, tout: str, elem: str, loc: str = ""
) -> str:
    """``%result = tt.reduce`` of ``%src`` whose region is tl.sum's / tl.max's / tl.min's
    (``loc``: the op's ``loc(...)`` suffix)."""
    return (
        f"%{result} = tt.reduce %{src} {{axis = {axis} : i32}} : {tin} -> {tout} {{\n"
        f"  ^bb0(%{result}_a: {elem}, %{result}_b: {elem}):\n"
        f"    %{result}_r = {_COMBINE[kind]} %{result}_a, %{result}_b : {elem}\n"
        f"    tt.reduce.return %{result}_r : {elem}\n"
        "  }" + (f" {loc}" if loc else "")
    )
