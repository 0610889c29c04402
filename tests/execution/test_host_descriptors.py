"""Host-side tensor descriptors (``mytriton.tools.tensor_descriptor.TensorDescriptor``, Triton's
``triton.tools.tensor_descriptor``) as kernel arguments, on every backend, against NumPy.

Inside the kernel a descriptor argument is what ``tl.make_tensor_descriptor`` gives: loads
read the padding out of bounds, stores drop what falls outside, ``desc.shape`` and
``desc.block_shape`` are there; its block shape, padding and element type are part of the
specialization. Triton 3.6's tutorials 06 (attention) and 09 (persistent matmul) pass them on
Hopper.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import LaunchError
from mytriton.runtime.specialization import SpecializationProxy, specialize
from mytriton.tools.tensor_descriptor import TensorDescriptor

pytestmark = pytest.mark.execution


@triton.jit
def scale_kernel(in_desc, out_desc, factor):
    """``out = factor * in`` block by block, over a grid of the descriptor's blocks."""
    bm: tl.constexpr = in_desc.block_shape[0]
    bn: tl.constexpr = in_desc.block_shape[1]
    offsets = [tl.program_id(0) * bm, tl.program_id(1) * bn]
    out_desc.store(offsets, in_desc.load(offsets) * factor)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("block", [(16, 8), (8, 16)], ids=["16x8", "8x16"])
def test_load_store_masked_edges(run: Any, dtype: type, block: tuple[int, int]) -> None:
    """A 37 x 40 tensor in blocks that do not divide it: the edges are masked both ways."""
    x = (np.arange(37 * 40) % 251).reshape(37, 40).astype(dtype)
    out = np.full((37, 40), -1, dtype)
    block_shape = [block[0], block[1] * (2 if dtype == np.float16 else 1)]  # 16-byte rows
    grid = (triton.cdiv(37, block_shape[0]), triton.cdiv(40, block_shape[1]))
    run(
        scale_kernel,
        grid,
        TensorDescriptor.from_tensor(x, block_shape),
        TensorDescriptor.from_tensor(out, block_shape),
        2.0,
    )
    np.testing.assert_array_equal(out, x * 2)


@triton.jit
def window_kernel(desc, out, row, col, BM: tl.constexpr, BN: tl.constexpr):
    """Store the block of ``desc`` at (row, col) into ``out`` (BM x BN, contiguous), and the
    descriptor's shape after it."""
    block = desc.load([row, col])
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    tl.store(out + r[:, None] * BN + c[None, :], block)
    tl.store(out + BM * BN, desc.shape[0].to(out.dtype.element_ty))
    tl.store(out + BM * BN + 1, desc.shape[1].to(out.dtype.element_ty))


@pytest.mark.parametrize("padding", ["zero", "nan"])
def test_padding_and_shape(run: Any, padding: str) -> None:
    """Out of bounds (negative offsets too) a load reads 0 or NaN; ``desc.shape`` is the
    tensor's."""
    x = np.arange(12 * 20, dtype=np.float32).reshape(12, 20) + 1
    out = np.zeros(16 * 8 + 2, np.float32)
    desc = TensorDescriptor.from_tensor(x, [16, 8], padding=padding)
    run(window_kernel, (1,), desc, out, -3, 16, BM=16, BN=8)
    expected = np.full((16, 8), 0.0 if padding == "zero" else np.nan, np.float32)
    expected[3:15, :4] = x[0:12, 16:20]
    np.testing.assert_array_equal(out[:128].reshape(16, 8), expected)
    assert out[128] == 12 and out[129] == 20


@triton.jit
def matmul_kernel(a_desc, b_desc, c_desc, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """Tutorial 09's descriptor matmul (one tile per program)."""
    om = tl.program_id(0) * BM
    on = tl.program_id(1) * BN
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, K, BK):
        a = a_desc.load([om, k])
        b = b_desc.load([k, on])
        acc = tl.dot(a, b, acc)
    c_desc.store([om, on], acc.to(tl.float16))


@pytest.mark.parametrize(
    ("shape", "blocks", "warps"),
    [((128, 128, 256), (64, 64, 64), 4), ((100, 72, 200), (64, 64, 32), 4)],
    ids=["exact", "masked"],
)
def test_matmul(run: Any, shape: tuple[int, ...], blocks: tuple[int, ...], warps: int) -> None:
    m, n, k = shape
    bm, bn, bk = blocks
    rng = np.random.default_rng(m + n + k)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    c = np.zeros((m, n), np.float16)
    run(
        matmul_kernel,
        (triton.cdiv(m, bm), triton.cdiv(n, bn)),
        TensorDescriptor.from_tensor(a, [bm, bk]),
        TensorDescriptor.from_tensor(b, [bk, bn]),
        TensorDescriptor.from_tensor(c, [bm, bn]),
        k,
        num_warps=warps,
        BM=bm,
        BN=bn,
        BK=bk,
    )
    exact = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(c.astype(np.float64), exact, rtol=2e-3, atol=2e-2)


def test_block_shape_is_specialized(run: Any) -> None:
    """Changing a descriptor's ``block_shape`` between launches (as tutorial 09's autotune
    ``pre_hook`` does) compiles the kernel for the new one."""
    x = np.arange(32 * 32, dtype=np.float32).reshape(32, 32)
    out = np.zeros((32, 32), np.float32)
    src, dst = (
        TensorDescriptor.from_tensor(x, [16, 16]),
        TensorDescriptor.from_tensor(out, [16, 16]),
    )
    run(scale_kernel, (2, 2), src, dst, 1.0)
    np.testing.assert_array_equal(out, x)
    src.block_shape = dst.block_shape = [8, 32]
    run(scale_kernel, (4, 1), src, dst, 3.0)
    np.testing.assert_array_equal(out, 3 * x)


def test_triton_descriptor_class_is_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    """An instance of Triton's own class (``triton.tools.tensor_descriptor``) is taken as one."""
    monkeypatch.setenv("MYTRITON_BACKEND", "interpreter")

    class Foreign:
        def __init__(self, base: Any, block_shape: list[int]):
            self.base, self.shape, self.strides = base, list(base.shape), [base.shape[1], 1]
            self.block_shape, self.padding = block_shape, "zero"

    Foreign.__name__ = "TensorDescriptor"
    Foreign.__module__ = "triton.tools.tensor_descriptor"
    x = np.arange(16 * 16, dtype=np.float32).reshape(16, 16)
    out = np.zeros_like(x)
    scale_kernel[(1, 2)](Foreign(x, [16, 8]), Foreign(out, [16, 8]), 5.0)
    np.testing.assert_array_equal(out, 5 * x)


@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        (lambda x: TensorDescriptor(x, [16, 16], [16, 2], [16, 8]), AssertionError, "Last dim"),
        (
            lambda x: TensorDescriptor(x[:, 1:], [16, 15], [16, 1], [16, 8]),
            AssertionError,
            "base must be 16-byte aligned",
        ),
        (
            lambda x: TensorDescriptor(x, [16, 16], [18, 1], [16, 8]),
            AssertionError,
            "strides must be 16-byte aligned",
        ),
        (
            lambda x: TensorDescriptor(x, [16, 16], [16, 1], [16, 6]),
            ValueError,
            "Shape element 1 must be a power of 2",
        ),
        (
            lambda x: TensorDescriptor(x, [0, 16], [16, 1], [16, 8]),
            AssertionError,
            "shape must be positive",
        ),
        (lambda x: TensorDescriptor(x, [16, 16], [16, 1], [16]), AssertionError, "block_shape has"),
        (lambda x: TensorDescriptor(x, [], [], []), AssertionError, "rank must be 1 to 5"),
        (
            lambda x: TensorDescriptor(x, [16, 16], [16, 1], [16, 8], "one"),
            AssertionError,
            "Illegal value for padding",
        ),
        (
            lambda x: TensorDescriptor(x.astype(np.int32), [16, 16], [16, 1], [16, 8], "nan"),
            AssertionError,
            "Padding option `nan` is only supported for floating point",
        ),
        (lambda x: TensorDescriptor(16, [16, 16], [16, 1], [16, 8]), AssertionError, "an array"),
    ],
)
def test_invalid_descriptors(make: Any, error: type[Exception], message: str) -> None:
    """Refused where Triton refuses them, when made, with its exception types and words."""
    x = np.zeros((16, 16), np.float32)
    with pytest.raises(error, match=message) as info:
        make(x)
    assert isinstance(info.value, LaunchError)


@pytest.mark.parametrize(
    ("shape", "block", "error", "message"),
    [
        # Triton checks the block shape before the strides, the strides before the shape
        ((125, 127), [33, 32], ValueError, "Shape element 0 must be a power of 2"),
        ((0, 127), [32, 32], AssertionError, "strides must be 16-byte aligned"),
        ((0, 128), [32, 32], AssertionError, "shape must be positive"),
        ((128,), [31], ValueError, "Shape element 0 must be a power of 2"),
    ],
)
def test_first_failed_check_is_tritons(
    shape: tuple[int, ...], block: list[int], error: type[Exception], message: str
) -> None:
    x = np.zeros(max(1, int(np.prod(shape))), np.float16)  # row-major strides, as torch's
    strides = [shape[1], 1] if len(shape) == 2 else [1]
    with pytest.raises(error, match=message):
        TensorDescriptor(x, list(shape), strides, block)


def test_narrow_rows_are_refused_at_launch() -> None:
    """Rows of 8 bytes: a descriptor Triton makes, but no tensor map can hold (its driver
    refuses it at the launch)."""
    x = np.zeros((16, 16), np.float32)
    narrow = TensorDescriptor(x, [16, 16], [16, 1], [16, 2])
    with pytest.raises(ValueError, match="at least 16 bytes"):
        scale_kernel[(1, 1)](narrow, TensorDescriptor.from_tensor(x, [16, 8]), 1.0)


def test_short_block_rows_are_refused_at_launch_only() -> None:
    """Triton makes a descriptor whose block rows are under 16 bytes (a placeholder block, set
    before the launch), and refuses it at the launch."""
    x = np.zeros((16, 16), np.float32)
    src, dst = TensorDescriptor.from_tensor(x, [1, 1]), TensorDescriptor.from_tensor(x, [16, 8])
    with pytest.raises(LaunchError, match="at least 16 bytes"):
        scale_kernel[(1, 1)](src, dst, 1.0)


def _set_blocks(nargs: dict[str, Any]) -> None:
    """An autotune pre-hook giving placeholder descriptors the config's block shape."""
    for name in ("in_desc", "out_desc"):
        nargs[name].block_shape = [nargs["BM"], nargs["BN"]]


@triton.autotune(
    configs=[
        triton.Config({"BM": 16, "BN": 8}, pre_hook=_set_blocks),
        triton.Config({"BM": 8, "BN": 8}, pre_hook=_set_blocks),
    ],
    key=["n"],
)
@triton.jit
def tuned_scale_kernel(in_desc, out_desc, factor, n, BM: tl.constexpr, BN: tl.constexpr):
    offsets = [tl.program_id(0) * BM, tl.program_id(1) * BN]
    out_desc.store(offsets, in_desc.load(offsets) * factor)


def test_placeholder_blocks_set_by_an_autotune_pre_hook(run: Any) -> None:
    """Liger-Kernel's pattern: descriptors made with a ``[1, 1]`` block, the real block shape
    set by the config's ``pre_hook`` before each launch, and before each config's compile
    when the configs are not timed (the CPU backends)."""
    x = np.arange(32 * 24, dtype=np.float32).reshape(32, 24)
    out = np.zeros_like(x)
    src, dst = (TensorDescriptor.from_tensor(a, [1, 1]) for a in (x, out))
    grid = lambda meta: (triton.cdiv(32, meta["BM"]), triton.cdiv(24, meta["BN"]))  # noqa: E731
    run(tuned_scale_kernel, grid, src, dst, 3.0, 32 * 24)
    np.testing.assert_array_equal(out, 3 * x)
    best = tuned_scale_kernel.best_config.kwargs
    assert src.block_shape == dst.block_shape == [best["BM"], best["BN"]]


def test_changed_into_invalid_is_caught_at_launch() -> None:
    """The launch checks the descriptor again: a field changed since is caught there."""
    x = np.zeros((16, 16), np.float32)
    src, dst = TensorDescriptor.from_tensor(x, [16, 8]), TensorDescriptor.from_tensor(x, [16, 8])
    src.block_shape = [16, 3]
    with pytest.raises(LaunchError, match="power of 2"):
        scale_kernel[(1, 1)](src, dst, 1.0)


def test_later_launches_reuse_the_plan(monkeypatch: pytest.MonkeyPatch) -> None:
    """Launches whose descriptors specialize alike reuse the first one's launch plan (no
    binding through ``inspect``, no specialization: about 200 us a launch on the H200 before),
    and each passes its own descriptors' bases, shapes and strides."""
    import mytriton.runtime.jit as jit_module

    monkeypatch.setenv("MYTRITON_BACKEND", "interpreter")
    specialized = []

    def counting(*args: Any, **kwargs: Any) -> Any:
        specialized.append(1)
        return specialize(*args, **kwargs)

    monkeypatch.setattr(jit_module, "specialize", counting)
    scale_kernel.clear_cache()
    for n, factor in ((32, 2.0), (48, 3.0), (32, 4.0)):
        x = np.arange(n * n, dtype=np.float32).reshape(n, n)
        out = np.zeros_like(x)
        src, dst = (TensorDescriptor.from_tensor(a, [16, 16]) for a in (x, out))
        scale_kernel[(n // 16, n // 16)](src, dst, factor)
        np.testing.assert_array_equal(out, factor * x)
    assert len(specialized) == 1  # 32 and 48: the same powers of two divide shape and strides
    x = np.zeros((40, 40), np.float32)  # 40 = 8 x 5: another specialization
    scale_kernel[(3, 3)](*(TensorDescriptor.from_tensor(x, [16, 16]) for _ in range(2)), 1.0)
    assert len(specialized) == 2


def test_planned_descriptor_changed_into_invalid_is_caught() -> None:
    """A descriptor launched once, then changed into one Triton refuses, is refused at the next
    launch (its plan's key no longer matches, so the launch checks it again)."""
    x = np.zeros((32, 32), np.float32)
    src, dst = TensorDescriptor.from_tensor(x, [16, 8]), TensorDescriptor.from_tensor(x, [16, 8])
    scale_kernel[(2, 4)](src, dst, 1.0)
    src.strides = [18, 1]
    with pytest.raises(LaunchError, match="multiples of 16 bytes"):
        scale_kernel[(2, 4)](src, dst, 1.0)
    src.strides, src.block_shape = [32, 1], [16, 3]
    with pytest.raises(LaunchError, match="power of 2"):
        scale_kernel[(2, 4)](src, dst, 1.0)


def test_shape_out_of_int32_is_refused() -> None:
    x = np.zeros((16, 16), np.float32)
    src = TensorDescriptor.from_tensor(x, [16, 8])
    src.shape = [2**31, 16]
    with pytest.raises(LaunchError, match="does not fit in int32"):
        scale_kernel[(1, 1)](src, TensorDescriptor.from_tensor(x, [16, 8]), 1.0)


def test_signature_names_the_descriptor() -> None:
    """``@jit(repr=...)`` sees Triton's type for it: ``tensordesc<fp16[64, 32]>``."""
    x = np.zeros((64, 64), np.float16)
    specs, _, runtime, infos = specialize(
        ["d", "n"], frozenset(), [TensorDescriptor.from_tensor(x, [64, 32]), 7]
    )
    assert SpecializationProxy(specs).signature == {"d": "tensordesc<fp16[64, 32]>", "n": "i32"}
    # base, shape, stride 0, the tensor map's place (the launch fills it: test_tma_copies), n
    assert runtime[0] is x and runtime[1:4] == [64, 64, 64] and runtime[5] == 7
    assert infos[0] is not None and infos[1:4] == [None] * 3 and infos[5] is None
    assert infos[4] is not None and infos[4].dtype == tl.int8


def test_shape_and_strides_specialize_divisibility() -> None:
    """A descriptor's shape entries and strides are specialized on the power of two (up to 16)
    they are multiples of, as integer arguments are: a 64 x 64 f16 tensor's blocks then move
    16 bytes a thread (before, their bounds masks cut the accesses to single elements), and a
    37 x 40 one compiles a kernel of its own."""
    x = np.zeros((64, 64), np.float16)
    specs, key, _, _ = specialize(["d"], frozenset(), [TensorDescriptor.from_tensor(x, [16, 16])])
    spec = specs["d"]
    assert spec.shape_divisibility == (16, 16) and spec.stride_divisibility == (16,)
    y = np.zeros((37, 40), np.float16)
    other, other_key, _, _ = specialize(
        ["d"], frozenset(), [TensorDescriptor.from_tensor(y, [16, 16])]
    )
    assert other["d"].shape_divisibility == (1, 8) and other["d"].stride_divisibility == (8,)
    assert key != other_key


@pytest.mark.parametrize("rows", [64, 37])
def test_aligned_shapes_move_16_bytes(monkeypatch: pytest.MonkeyPatch, rows: int) -> None:
    monkeypatch.setenv("MYTRITON_BACKEND", "gpusim")
    x = (np.arange(rows * 64) % 113).reshape(rows, 64).astype(np.float16)
    out = np.zeros((rows, 64), np.float16)
    compiled = scale_kernel[(triton.cdiv(rows, 32), 1)](
        TensorDescriptor.from_tensor(x, [32, 64]), TensorDescriptor.from_tensor(out, [32, 64]), 2.0
    )
    np.testing.assert_array_equal(out, x * 2)
    assert "vector<8xf16>" in compiled.asm["gpu"]  # the rows' bounds do not split a vector
