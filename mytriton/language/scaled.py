"""Triton's microscaled matrix product, ``tl.dot_scaled``.

Declared here and re-exported by ``mytriton.language``; the frontend implements it in
``mytriton.frontend.dot_scaled`` (as bf16/f16 ``tt`` ops and a ``tt.dot``, as Triton's Hopper
backend does). Bodies are never run (see ``core.builtin``).
"""

from __future__ import annotations

from typing import Any

from mytriton.language.core import builtin, float32


@builtin
def dot_scaled(
    lhs: Any,
    lhs_scale: Any,
    lhs_format: Any,
    rhs: Any,
    rhs_scale: Any,
    rhs_format: Any,
    acc: Any = None,
    fast_math: Any = False,
    lhs_k_pack: Any = True,
    rhs_k_pack: Any = True,
    out_dtype: Any = float32,
) -> Any:
    """``lhs [M,K] @ rhs [K,N] (+ acc)`` in f32 of operands in an MX format (``"e2m1"``: two
    per uint8, ``"e4m3"``, ``"e5m2"``, ``"bf16"``, ``"fp16"``), each optionally scaled by
    uint8 e8m0 exponents, one per 32 elements along K (``lhs_scale [M, K//32]``, ``rhs_scale
    [N, K//32]``); 0xFF scales give NaN unless ``fast_math``. ``*_k_pack=False``: e2m1 packed
    along M (lhs) or N (rhs)."""


__all__ = ["dot_scaled"]
