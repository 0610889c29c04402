"""``assert_close``: Triton's closeness check of scalars, lists, NumPy, torch and CuPy arrays."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def _to_numpy(x: Any) -> Any:
    """``x`` (scalar, list, NumPy, torch or CuPy array) as a host NumPy array; bfloat16 and
    other dtypes NumPy lacks become float32."""
    import numpy as np

    module = type(x).__module__.split(".")[0]
    if module == "torch":
        import torch

        t = x.detach().cpu()
        if t.is_floating_point() and t.dtype not in (torch.float16, torch.float32, torch.float64):
            t = t.float()  # bfloat16, float8 kinds
        return t.numpy()
    if module == "cupy":
        return x.get()
    return np.asarray(x)


def _dtype_of(x: Any) -> Any:
    return getattr(x, "dtype", None)


def assert_close(
    x: Any,
    y: Any,
    atol: float | Callable[[Any], float] | None = None,
    rtol: float | Callable[[Any], float] | None = None,
    err_msg: str = "",
) -> None:
    """Raise ``AssertionError`` unless ``|x - y| <= atol + rtol * |y|`` everywhere (NaNs
    equal). Inputs: scalars, lists, NumPy, torch or CuPy arrays. ``atol`` defaults to 1e-2 and
    ``rtol`` to 0; either may be a function of ``x``'s dtype."""
    import numpy as np

    dtype = _dtype_of(x)
    if dtype is None:
        dtype = np.asarray(x).dtype
    atol = 1e-2 if atol is None else atol
    rtol = 0.0 if rtol is None else rtol
    atol_v = atol(dtype) if callable(atol) else atol
    rtol_v = rtol(dtype) if callable(rtol) else rtol
    xa, ya = _to_numpy(x), _to_numpy(y)
    if xa.size > 1 or ya.size > 1:
        np.testing.assert_allclose(
            xa, ya, atol=atol_v, rtol=rtol_v, equal_nan=True, err_msg=err_msg
        )
        return
    if not np.allclose(xa, ya, atol=atol_v, rtol=rtol_v, equal_nan=True):
        raise AssertionError(f"{err_msg} {xa} is not close to {ya} (atol={atol_v}, rtol={rtol_v})")
