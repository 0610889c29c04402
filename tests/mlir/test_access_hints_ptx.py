"""``tl.load``/``tl.store``'s cache modifiers and eviction policies reach the PTX through upstream
MLIR (``backends/mlir/access_hints.py``): a hinted access is inline PTX, for every element size
and vector width the lowering emits, and the PTX passes the checks of Triton's
``test_load_cache_modifier``/``test_store_cache_modifier``/``test_store_eviction_policy``."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.mlir.toolkit import find_cuda_toolkit
from tests.mlir.conftest import requires_provider

HAS_PTXAS = (tk := find_cuda_toolkit()) is not None and tk.ptxas is not None


@triton.jit
def load_cache_kernel(dst, src, CACHE: tl.constexpr):
    offsets = tl.arange(0, 128)
    x = tl.load(src + offsets, cache_modifier=CACHE)
    tl.store(dst + offsets, x)


@triton.jit
def store_cache_kernel(dst, src, CACHE: tl.constexpr):
    offsets = tl.arange(0, 128)
    x = tl.load(src + offsets)
    tl.store(dst + offsets, x, cache_modifier=CACHE)


@triton.jit
def store_evict_kernel(dst, src, POLICY: tl.constexpr):
    offsets = tl.arange(0, 128)
    x = tl.load(src + offsets)
    tl.store(dst + offsets, x, eviction_policy=POLICY)


@triton.jit
def hinted_copy_kernel(
    dst, src, n, BLOCK: tl.constexpr, CACHE: tl.constexpr, STORE_CACHE: tl.constexpr
):
    """A masked copy: loads with a cache modifier then an eviction policy, stores likewise."""
    offs = tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(src + offs, mask=m, cache_modifier=CACHE)
    b = tl.load(src + BLOCK + offs, mask=m, eviction_policy="evict_first")
    tl.store(dst + offs, a, mask=m, cache_modifier=STORE_CACHE)
    tl.store(dst + BLOCK + offs, b, mask=m, eviction_policy="evict_last")


def _accesses(ptx: str) -> list[str]:
    """The global loads and stores, e.g. ``ld.global.cg.v4.b32``."""
    return re.findall(
        r"^\s*(?:@%p\d+\s+)?((?:ld|st)(?:\.volatile)?\.global[\w.:]*)", ptx, flags=re.M
    )


def _f32(n: int = 128) -> np.ndarray:
    return np.zeros(n, np.float32)


@requires_provider
@pytest.mark.parametrize("cache", ["", ".cg", ".ca", ".cv"])
def test_load_cache_modifier_ptx(mlir_backend: object, cache: str) -> None:
    ptx = load_cache_kernel.warmup(_f32(), _f32(), CACHE=cache, grid=(1,)).asm["ptx"]
    assert ("ld.global.ca" in ptx) == (cache == ".ca")
    assert ("ld.global.cg" in ptx) == (cache == ".cg")
    assert ("ld.global.cv" in ptx) == (cache == ".cv")


@requires_provider
@pytest.mark.parametrize("cache", ["", ".wb", ".cg", ".cs", ".wt"])
def test_store_cache_modifier_ptx(mlir_backend: object, cache: str) -> None:
    ptx = store_cache_kernel.warmup(_f32(), _f32(), CACHE=cache, grid=(1,)).asm["ptx"]
    for modifier in (".wb", ".cg", ".cs", ".wt"):
        assert (f"st.global{modifier}" in ptx) == (cache == modifier), modifier


@requires_provider
@pytest.mark.parametrize("policy", ["", "evict_first", "evict_last"])
def test_store_eviction_policy_ptx(mlir_backend: object, policy: str) -> None:
    ptx = store_evict_kernel.warmup(_f32(), _f32(), POLICY=policy, grid=(1,)).asm["ptx"]
    for other in ("evict_first", "evict_last"):
        assert (other in ptx) == (policy == other), other


def _copy_ptx(dtype: Any, block: int, **kw: Any) -> list[str]:
    """The accesses of ``hinted_copy_kernel``'s PTX (which ptxas assembles, where it exists)."""
    buf = np.zeros(2 * block, dtype)
    compiled = hinted_copy_kernel.warmup(buf, buf, block, BLOCK=block, grid=(1,), **kw)
    if HAS_PTXAS:
        assert compiled.asm["cubin"][:4] == b"\x7fELF"
    return _accesses(compiled.asm["ptx"])


@requires_provider
@pytest.mark.parametrize(
    ("dtype", "block", "load", "store"),
    [
        # 128 threads: 4 f32 per thread move as one v4.b32, 1 as one b32
        (np.float32, 512, "v4.b32", "v4.b32"),
        (np.float32, 128, "b32", "b32"),
        # f16: 8 per thread packed in four 32-bit words, 2 in one, 1 as a b16
        (np.float16, 1024, "v4.b32", "v4.b32"),
        (np.float16, 256, "b32", "b32"),
        (np.float16, 128, "b16", "b16"),
        # i8: 16 per thread in four words, 1 as a byte through a 16-bit register
        (np.int8, 2048, "v4.b32", "v4.b32"),
        (np.int8, 128, "b8", "b8"),
        # f64: two words each
        (np.float64, 128, "v2.b32", "v2.b32"),
    ],
)
def test_hinted_accesses_of_every_width(
    mlir_backend: object, dtype: Any, block: int, load: str, store: str
) -> None:
    found = _copy_ptx(dtype, block, CACHE=".cg", STORE_CACHE=".cs")
    for expected in (
        f"ld.global.cg.{load}",
        f"ld.global.L1::evict_first.{load}",
        f"st.global.cs.{store}",
        f"st.global.L1::evict_last.{store}",
    ):
        assert expected in found, (expected, found)


@requires_provider
def test_cache_modifier_wins_over_eviction_policy(mlir_backend: object) -> None:
    """PTX has no ``ld.global.cg.L1::evict_last`` (ptxas rejects the combination)."""
    from tests.execution.test_debug_ops import cache_kernel

    compiled = cache_kernel.warmup(_f32(512), _f32(3072), 512, BLOCK=512, grid=(1,))
    found = set(_accesses(compiled.asm["ptx"]))
    assert "ld.global.cg.v4.b32" in found and "st.global.cg.v4.b32" in found
    assert not [a for a in found if re.search(r"\.c[agsv]\.L1::|\.w[bt]\.L1::", a)], found
    assert "ld.volatile.global.b32" in found  # volatile keeps its own load, unvectorized


def test_emitted_hinted_load_is_inline_ptx() -> None:
    """What MLIR is given (no mlir-opt needed): the hinted load and store as inline PTX, their
    values bitcast from and to the words PTX moves, the plain load unchanged."""
    from xdsl.dialects import llvm
    from xdsl.dialects.builtin import IntAttr, ModuleOp, StringAttr, VectorType, f16
    from xdsl.ir import Block, Region

    from mytriton.backends.mlir.access_hints import rewrite_hinted_access
    from mytriton.backends.mlir.emit import print_generic
    from mytriton.dialects.tt.debug import LOWERED_CACHE_ATTR, LOWERED_EVICT_ATTR

    block = Block(arg_types=[llvm.LLVMPointerType(IntAttr(1))])
    (p,) = block.args
    vt = VectorType(f16, [8])
    hinted = llvm.LoadOp(p, vt, alignment=16)
    hinted.attributes[LOWERED_CACHE_ATTR] = StringAttr("cg")
    hinted.attributes[LOWERED_EVICT_ATTR] = StringAttr("evict_last")
    plain = llvm.LoadOp(p, f16)
    store = llvm.StoreOp(hinted, p, alignment=16)
    store.attributes[LOWERED_EVICT_ATTR] = StringAttr("evict_first")
    block.add_ops([hinted, plain, store])
    module = ModuleOp(Region(block))
    for op in [hinted, plain, store]:
        rewrite_hinted_access(op)
    text = print_generic(module)
    assert "mytriton." not in text
    assert text.count('"llvm.load"') == 1
    assert 'asm_string = "ld.global.cg.v4.b32 {$0, $1, $2, $3}, [$4];"' in text
    assert 'constraints = "=r,=r,=r,=r,l,~{memory}"' in text
    assert "(vector<4xi32>) -> vector<8xf16>" in text
    assert 'asm_string = "st.global.L1::evict_first.v4.b32 [$0], {$1, $2, $3, $4};"' in text
    assert "(vector<8xf16>) -> vector<4xi32>" in text
