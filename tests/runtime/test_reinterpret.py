"""``mytriton.reinterpret(array, dtype)``: an array's memory passed to kernels as another dtype
of the same element size, on every backend (host NumPy arrays for the interpreter and gpusim,
CuPy arrays and torch tensors for the GPU backends where a GPU is present)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import LaunchError
from tests.gpu_required import require_gpu

BACKENDS = [
    ("interpreter", "numpy"),
    ("gpusim", "numpy"),
    ("cuda", "cupy"),
    ("cuda", "torch"),
    ("mlir", "cupy"),
    ("mlir", "torch"),
]


class Arrays:
    """Makes arrays of one framework from NumPy arrays and reads them back."""

    def __init__(self, framework: str):
        self.framework = framework

    def __call__(self, a: np.ndarray) -> Any:
        if self.framework == "numpy":
            return a
        if self.framework == "cupy":
            import cupy

            return cupy.asarray(a)
        import torch

        return torch.from_numpy(a.copy()).to("cuda")

    def host(self, a: Any) -> np.ndarray:
        if self.framework == "numpy":
            return a
        if self.framework == "cupy":
            import cupy

            return cupy.asnumpy(a)
        return a.cpu().numpy()


@pytest.fixture(params=BACKENDS, ids=[f"{b}-{f}" for b, f in BACKENDS])
def arrays(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[Arrays]:
    backend, framework = request.param
    if framework != "numpy":
        require_gpu(framework)
    monkeypatch.setenv("MYTRITON_BACKEND", backend)
    monkeypatch.delenv("MYTRITON_INTERPRET", raising=False)
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    yield Arrays(framework)


@triton.jit
def clear_sign_bits(x_ptr, out_ptr, BLOCK: tl.constexpr):
    """Reads int32 bits and writes int32 bits: through float32 arrays reinterpreted."""
    offs = tl.arange(0, BLOCK)
    bits = tl.load(x_ptr + offs)
    tl.static_assert(bits.dtype == tl.int32)
    tl.store(out_ptr + offs, bits & 0x7FFFFFFF)


@triton.jit
def double_floats(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.static_assert(x.dtype == tl.float32)
    tl.store(out_ptr + offs, x * 2)


@triton.jit
def copy_strided(x_ptr, out_ptr, stride, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs * stride))


def test_float32_memory_read_and_written_as_int32(arrays: Arrays) -> None:
    x = np.array([1.5, -2.0, -0.0, np.inf, -np.inf, 3e-39, -7.25, 0.0], np.float32)
    src, dst = arrays(x), arrays(np.full(8, np.nan, np.float32))
    clear_sign_bits[(1,)](
        triton.reinterpret(src, tl.int32), triton.reinterpret(dst, tl.int32), BLOCK=8
    )
    out = arrays.host(dst)
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out.view(np.int32), x.view(np.int32) & 0x7FFFFFFF)
    np.testing.assert_array_equal(out, np.abs(x))


def test_int32_memory_read_as_float32(arrays: Arrays) -> None:
    x = np.array([1.0, 0.5, -3.0, 1e30, -0.0, 2.0, 7.0, 1e-3], np.float32)
    src, dst = arrays(x.view(np.int32)), arrays(np.zeros(8, np.float32))
    double_floats[(1,)](triton.reinterpret(src, tl.float32), dst, BLOCK=8)
    np.testing.assert_array_equal(arrays.host(dst), x * 2)
    np.testing.assert_array_equal(arrays.host(src), x.view(np.int32))  # read only


def test_reinterpreted_views_keep_their_strides(arrays: Arrays) -> None:
    x = np.arange(16, dtype=np.int32) * 3
    if arrays.framework != "numpy":
        pytest.skip("host views: the GPU frameworks' views are their own")
    out = np.zeros(8, np.float32)
    view = x[1::2]
    stride = view.strides[0] // view.itemsize  # 2: the kernel indexes with what it is passed
    copy_strided[(1,)](triton.reinterpret(view, tl.float32), out, stride, BLOCK=8)
    np.testing.assert_array_equal(out.view(np.int32), x[1::2])


def test_the_dtype_is_part_of_the_specialization(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same array launched as float32 and reinterpreted as int32 compiles two kernels."""
    monkeypatch.setenv("MYTRITON_BACKEND", "interpreter")

    @triton.jit
    def copy(x_ptr, out_ptr, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(out_ptr + offs, tl.load(x_ptr + offs))

    x = np.array([1.0, -1.0, 2.5, 0.0], np.float32)
    out = np.zeros(4, np.float32)
    as_floats = copy[(1,)](x, out, BLOCK=4)
    as_ints = copy[(1,)](
        triton.reinterpret(x, tl.int32), triton.reinterpret(out, tl.int32), BLOCK=4
    )
    np.testing.assert_array_equal(out, x)
    assert as_floats is not as_ints
    assert "!tt.ptr<i32>" in as_ints.asm["tt"] and "!tt.ptr<i32>" not in as_floats.asm["tt"]


def test_a_wrapper_can_be_reinterpreted_again() -> None:
    x = np.zeros(4, np.float32)
    once = triton.reinterpret(x, tl.int32)
    twice = triton.reinterpret(once, tl.float32)
    assert twice.base is x and twice.dtype == tl.float32
    assert isinstance(once, triton.TensorWrapper) and once.dtype == tl.int32


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda x: triton.reinterpret(x, tl.int64), "cannot reinterpret an array of fp32 as int64"),
        (lambda x: triton.reinterpret(x, tl.float16), "the element sizes differ"),
    ],
)
def test_element_sizes_must_match(make: Callable[[np.ndarray], Any], message: str) -> None:
    x = np.zeros(4, np.float32)
    out = np.zeros(4, np.float32)
    with pytest.raises(LaunchError) as info:
        double_floats[(1,)](make(x), out, BLOCK=4)
    assert message in str(info.value)
    assert "x_ptr" in str(info.value)


class TorchDtype:
    """Stands for a torch dtype (torch is not a test dependency): Triton, and mytriton, read a
    dtype by the part of ``str(dtype)`` after its last dot."""

    def __init__(self, name: str):
        self.name = name

    def __str__(self) -> str:
        return f"torch.{self.name}"


@pytest.mark.parametrize(
    "int32", [tl.int32, TorchDtype("int32"), np.dtype(np.int32), "int32", "i32"], ids=str
)
def test_a_dtype_may_be_named_as_torch_numpy_or_triton_name_it(arrays: Arrays, int32: Any) -> None:
    x = np.array([1.5, -2.0, -0.0, -np.inf], np.float32)
    src, dst = arrays(x), arrays(np.zeros(4, np.float32))
    wrapped = triton.reinterpret(dst, int32)
    assert wrapped.dtype is int32 and wrapped.element_size() == 4  # kept as given, as in Triton
    clear_sign_bits[(1,)](triton.reinterpret(src, int32), wrapped, BLOCK=4)
    np.testing.assert_array_equal(arrays.host(dst), np.abs(x))


@triton.jit
def to_fp8(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs).to(out_ptr.dtype.element_ty))


def test_fp8_named_by_torch_clamps_on_conversion(arrays: Arrays) -> None:
    """Triton's ``test_typeconvert_downcast_clamping`` passes ``torch.float8_e4m3fn``."""
    x = np.array([448.0 + 100.0, -np.inf, np.nan, 1.0], np.float32)
    src, dst = arrays(x), arrays(np.zeros(4, np.uint8))
    to_fp8[(1,)](
        triton.reinterpret(src, TorchDtype("float32")),
        triton.reinterpret(dst, TorchDtype("float8_e4m3fn")),
        BLOCK=4,
    )
    bits = arrays.host(dst)
    assert list(bits[[0, 1, 3]]) == [0x7E, 0xFE, 0x38]  # +-448 (the largest finite), 1.0
    assert bits[2] & 0x7F == 0x7F  # NaN


@pytest.mark.parametrize("name", ["nonsense", TorchDtype("complex64"), 5], ids=str)
def test_a_dtype_that_names_no_tl_dtype_is_an_error(name: Any) -> None:
    x = np.zeros(4, np.float32)
    with pytest.raises(LaunchError, match=r"argument `x_ptr` is reinterpreted as .* names no tl"):
        double_floats[(1,)](triton.reinterpret(x, name), x, BLOCK=4)


def test_only_arrays_can_be_reinterpreted() -> None:
    with pytest.raises(TypeError, match="Cannot reinterpret"):
        triton.reinterpret([1.0, 2.0], tl.int32)


def test_new_empty_keeps_the_reinterpretation(arrays: Arrays) -> None:
    """Triton's tests make outputs with ``wrapper.new_empty(shape)`` (unsigned dtypes come as
    wrappers); the new wrapper is a ``dtype`` array of the base's framework and element type."""
    x = np.array([1.0, -2.0, 0.5, -0.0, 3.0, -1e9, 7.0, -7.0], np.float32)
    src = triton.reinterpret(arrays(x), tl.int32)
    dst = src.new_empty((8,))
    assert isinstance(dst, triton.TensorWrapper) and dst.dtype == tl.int32
    assert dst.shape == (8,) and dst.base.dtype == src.base.dtype and dst.base is not src.base
    clear_sign_bits[(1,)](src, dst, BLOCK=8)
    np.testing.assert_array_equal(arrays.host(dst.base), np.abs(x))


def test_wrapper_array_methods() -> None:
    """``new_empty`` (a shape or the sizes), ``clone``, ``copy_``, ``cpu`` and ``device`` on a
    NumPy base, each keeping the wrapper's dtype."""
    x = np.arange(6, dtype=np.uint32).reshape(2, 3)
    w = triton.reinterpret(x, tl.int32)
    assert w.new_empty(4, 5).shape == (4, 5) and w.new_empty([3]).shape == (3,)
    assert w.new_empty((2, 2)).base.dtype == np.uint32
    twin = w.clone()
    assert twin.dtype == tl.int32 and twin.base is not x
    np.testing.assert_array_equal(twin.base, x)
    zeros = triton.reinterpret(np.zeros_like(x), tl.int32)
    zeros.copy_(w)
    np.testing.assert_array_equal(zeros.base, x)
    assert w.cpu().base is x and w.cpu().dtype == tl.int32
    assert str(w.device) == "cpu"


class TorchLike:
    """The torch methods a wrapper forwards to (torch is not installed where CI runs)."""

    def __init__(self, shape: tuple[int, ...], device: str = "cuda:0"):
        self.shape, self.device, self.dtype, self.data = shape, device, "torch.uint32", None
        self.copied_from: Any = None

    def new_empty(self, shape: tuple[int, ...]) -> TorchLike:
        return TorchLike(shape, self.device)

    def clone(self) -> TorchLike:
        return TorchLike(self.shape, self.device)

    def copy_(self, other: TorchLike) -> None:
        self.copied_from = other

    def cpu(self) -> TorchLike:
        return TorchLike(self.shape, "cpu")

    def to(self, device: str) -> TorchLike:
        return TorchLike(self.shape, device)


def test_wrapper_methods_use_torchs() -> None:
    w = triton.TensorWrapper(TorchLike((3,)), tl.uint32)
    assert w.device == "cuda:0"
    for made in (w.new_empty((5, 2)), w.clone(), w.cpu(), w.to("cuda:1")):
        assert isinstance(made, triton.TensorWrapper) and made.dtype == tl.uint32
    assert w.new_empty((5, 2)).shape == (5, 2)
    assert (w.cpu().device, w.to("cuda:1").device) == ("cpu", "cuda:1")
    other = triton.TensorWrapper(TorchLike((3,)), tl.uint32)
    w.copy_(other)
    assert w.base.copied_from is other.base
