"""``mytriton.language`` (imported as ``tl``): Triton's kernel language.

Signatures follow ``triton.language``; the frontend binds a call's arguments against them, so
keyword arguments work as in Triton. Bodies are never run (see ``core.builtin``).

``core`` holds the dtypes, ``constexpr`` and the ``@builtin`` marker; ``builtins`` and the
modules by topic (``atomic``, ``math``, ``shape``, ``scaled``, ``mapping``) the builtins'
signatures; ``standard``, ``random`` and ``shapes_lib`` are ``tl`` functions written as
``@jit`` kernels; ``extra`` is ``tl.extra`` (libdevice and the CUDA extras). This module is
the ``tl`` namespace that exports them.
"""

from __future__ import annotations

from typing import Any

from mytriton.language.builtins import *  # noqa: F403 (tl's builtins)
from mytriton.language.builtins import __all__ as _builtins_all
from mytriton.language.core import (
    PropagateNan,
    bfloat16,
    block_type,
    const,
    constexpr,
    constexpr_type,
    dtype,
    float8e4b8,
    float8e4b15,
    float8e4nv,
    float8e5,
    float8e5b16,
    float16,
    float32,
    float64,
    int1,
    int8,
    int16,
    int32,
    int64,
    pi32_t,
    pointer_type,
    uint8,
    uint16,
    uint32,
    uint64,
    void,
)

__all__ = [
    "PropagateNan",
    "bfloat16",
    "block_type",
    "const",
    "constexpr",
    "constexpr_type",
    "dtype",
    "float8e4b8",
    "float8e4b15",
    "float8e4nv",
    "float8e5",
    "float8e5b16",
    "float16",
    "float32",
    "float64",
    "int1",
    "int8",
    "int16",
    "int32",
    "int64",
    "pi32_t",
    "pointer_type",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "void",
    *_builtins_all,
]


# atomics (mytriton/language/atomic.py)
from mytriton.language.atomic import (  # noqa: F401
    ATOMICS,
    atomic_add,
    atomic_and,
    atomic_cas,
    atomic_max,
    atomic_min,
    atomic_or,
    atomic_xchg,
    atomic_xor,
)

__all__ += list(ATOMICS)

# submodules Triton exposes as ``tl.math`` and ``tl.extra`` (imported last: they use the above)
from mytriton.language import extra, math  # noqa: E402
from mytriton.language.tuple_type import tuple  # noqa: E402, A004 (Triton's tl.tuple)

__all__ += ["tuple"]
__all__ += ["extra", "math"]

# shape manipulation (``tl.trans``, ``tl.reshape``, ``tl.join``, ``tl.gather``, ``tl.sort``...)
from mytriton.language.shape import *  # noqa: E402, F403
from mytriton.language.shape import __all__ as _shape_all  # noqa: E402

__all__ += _shape_all

# microscaled dots (``tl.dot_scaled``) and ``tl.map_elementwise``
from mytriton.language.mapping import map_elementwise  # noqa: E402
from mytriton.language.scaled import dot_scaled  # noqa: E402

__all__ += ["dot_scaled", "map_elementwise"]

# ``tl.rand`` & co. are ``@jit`` functions (mytriton/language/random.py): loaded on first use,
# as they pull in the runtime, which ``import mytriton`` alone does not
_RANDOM = (
    "pair_uniform_to_normal",
    "philox",
    "philox_impl",
    "rand",
    "rand4x",
    "randint",
    "randint4x",
    "randn",
    "randn4x",
    "uint_to_uniform_float",
)
__all__ += list(_RANDOM)

# ``tl.cumsum`` & co. are ``@jit`` functions too (mytriton/language/standard.py)
_STANDARD = ("argmax", "argmin", "cumprod", "cumsum", "reduce_or", "xor_sum")
__all__ += list(_STANDARD)


# ``@jit`` shape helpers (mytriton/language/shapes_lib.py), loaded on first use like _RANDOM
_SHAPES_LIB = ("swizzle2d",)
__all__ += list(_SHAPES_LIB)


#: the module each lazily loaded ``@jit`` library function lives in
_LAZY = {
    **dict.fromkeys(_RANDOM, "random"),
    **dict.fromkeys(_SHAPES_LIB, "shapes_lib"),
    **dict.fromkeys(_STANDARD, "standard"),
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f"mytriton.language.{_LAZY[name]}"), name)
    if name in ("standard", "random"):  # Triton's submodules, loaded on first use as above
        import importlib

        return importlib.import_module(f"mytriton.language.{name}")
    if name == "tensor":  # a kernel's runtime values, for ``isinstance(x, tl.tensor)``
        from mytriton.frontend.values import TensorValue

        return TensorValue
    if name == "tensor_descriptor":  # ``isinstance(d, tl.tensor_descriptor)``, an annotation
        from mytriton.frontend.block_pointers import TensorDescriptor

        return TensorDescriptor
    raise AttributeError(f"module 'mytriton.language' has no attribute {name!r}")
