"""What Triton's runtime hooks receive (``knobs.runtime.jit_cache_hook`` and friends), and the
specialization data ``JITFunction.preload`` compiles from.

The compile hooks get Triton's keywords: ``key`` (the compile-cache key, a key of
``device_caches[device][0]``), ``repr``, ``fn`` (module, qualified name, the ``@jit``
function), ``compile`` (signature, constants, options, ``specialization_data``,
``is_warmup``...), ``is_manual_warmup`` and ``already_compiled``. The specialization data is
JSON naming the function and each parameter's spec; ``decode_specs`` rebuilds the specs, so
``preload`` compiles exactly what the hooked compile did.
"""

from __future__ import annotations

import dataclasses
import json
import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from mytriton.backends import LaunchOptions
from mytriton.errors import LaunchError
from mytriton.frontend import ArgSpec, ConstexprArg, PointerArg, ScalarArg, TupleArg
from mytriton.language import core
from mytriton.runtime.specialization import constexpr_key, signature_type_name


@dataclass
class JitFunctionInfo:
    """``fn=`` of a compile hook (Triton's class of the same name)."""

    module: str
    name: str
    jit_function: Any


def signature_text(spec: ArgSpec) -> Any:
    """Triton's type string of a parameter (``*fp32``, ``i32``, ``constexpr``)."""
    if isinstance(spec, PointerArg):
        return f"*{signature_type_name(spec.dtype)}"
    if isinstance(spec, ScalarArg):
        return signature_type_name(spec.dtype)
    if isinstance(spec, TupleArg):
        return tuple(signature_text(e) for e in spec.elements)
    if isinstance(spec, ConstexprArg):
        return "constexpr"
    return type(spec).__name__


def _divisibility(spec: ArgSpec) -> int:
    return int(getattr(spec, "divisibility", 1))


def encode_spec(name: str, spec: ArgSpec, part: Any) -> Any:
    """A JSON value for ``spec`` (whose specialization key part is ``part``); a
    ``LaunchError`` for specs it cannot name (descriptors, constexprs that are not numbers,
    strings, dtypes or tuples of them)."""
    if isinstance(spec, PointerArg):
        return {"pointer": spec.dtype.name, "div": spec.divisibility}
    if isinstance(spec, ScalarArg):
        data = {"scalar": spec.dtype.name, "div": spec.divisibility}
        return {**data, "keyed_one": True} if part[3:] == ("one",) else data
    if isinstance(spec, ConstexprArg):
        if part == ONE_PART:  # an integer argument equal to 1, compiled in
            return {"one": True}
        return {"constexpr": _encode_value(name, spec.value)}
    if isinstance(spec, TupleArg) and spec.kind is tuple:
        parts = part[2]
        return {
            "tuple": [
                encode_spec(f"{name}[{i}]", e, p)
                for i, (e, p) in enumerate(zip(spec.elements, parts, strict=True))
            ]
        }
    raise LaunchError(f"parameter `{name}`: its specialization {spec} has no serialized form")


#: the key part of an integer argument equal to 1 (``specialize``)
ONE_PART = ("c", "int", 1)


def _encode_value(name: str, value: Any) -> Any:
    if value is None or type(value) in (bool, int, str):
        return {"value": value}
    if type(value) is float:
        return {"float": value.hex()}
    if isinstance(value, core.dtype):
        return {"dtype": value.name}
    if type(value) is tuple:
        return {"tuple": [_encode_value(name, v) for v in value]}
    raise LaunchError(
        f"parameter `{name}`: the compile-time value {value!r} has no serialized form"
    )


def decode_spec(data: Any) -> tuple[ArgSpec, Any]:
    """The spec ``encode_spec`` wrote, and its specialization key part."""
    if "pointer" in data:
        d, div = core.dtype(data["pointer"]), int(data["div"])
        return PointerArg(d, div), ("p", d.name, div)
    if "scalar" in data:
        d, div = core.dtype(data["scalar"]), int(data["div"])
        # an annotated integer argument equal to 1: a runtime argument, keyed apart
        one = ("one",) if data.get("keyed_one") else ()
        return ScalarArg(d, div), ("s", d.name, div, *one)
    if "one" in data:
        return ConstexprArg(1), ONE_PART
    if "constexpr" in data:
        value = _decode_value(data["constexpr"])
        return ConstexprArg(value), ("c", constexpr_key(value))
    if "tuple" in data:
        decoded = [decode_spec(e) for e in data["tuple"]]
        return (
            TupleArg(tuple(e for e, _ in decoded)),
            ("t", tuple, tuple(p for _, p in decoded)),
        )
    raise LaunchError(f"specialization data: unknown parameter spec {data!r}")


def _decode_value(data: Any) -> Any:
    if "value" in data:
        return data["value"]
    if "float" in data:
        return float.fromhex(data["float"])
    if "dtype" in data:
        return core.dtype(data["dtype"])
    if "tuple" in data:
        return tuple(_decode_value(v) for v in data["tuple"])
    raise LaunchError(f"specialization data: unknown compile-time value {data!r}")


def specialization_data(
    full_name: str, specs: Mapping[str, ArgSpec], key: tuple[Any, ...], options: LaunchOptions
) -> str:
    """The JSON ``preload`` compiles from: the function, each parameter's spec (``key``: the
    compile-cache key, which starts with their key parts) and the options."""
    return json.dumps(
        {
            "name": full_name,
            "specs": {
                n: encode_spec(n, s, part) for (n, s), part in zip(specs.items(), key, strict=False)
            },
            "options": dataclasses.asdict(options),
        }
    )


def hook_arguments(
    jit_function: Any,
    key: Any,
    specs: Mapping[str, ArgSpec],
    options: LaunchOptions,
    device: Any,
    is_warmup: bool,
) -> dict[str, Any]:
    """The keywords of a ``jit_cache_hook`` / ``jit_post_compile_hook`` call."""
    fn: types.FunctionType = jit_function.fn
    names = list(specs)
    signature = {n: signature_text(s) for n, s in specs.items()}
    constants = {
        (i,): s.value for i, (n, s) in enumerate(specs.items()) if isinstance(s, ConstexprArg)
    }
    attrs = {
        (i,): [["tt.divisibility", _divisibility(s)]]
        for i, s in enumerate(specs.values())
        if _divisibility(s) > 1
    }
    try:
        data = specialization_data(f"{fn.__module__}.{fn.__qualname__}", specs, key, options)
    except LaunchError as e:  # the hook still runs; only preload cannot use it
        data = json.dumps({"unserializable": str(e)})
    option_text = (
        f"num_warps={options.num_warps}, num_ctas={options.num_ctas}, "
        f"num_stages={options.num_stages}, enable_fp_fusion={options.enable_fp_fusion}, "
        f"launch_cooperative_grid={options.launch_cooperative_grid}"
    )
    args = ", ".join(f"{n}: {signature[n]}" for n in names)
    compile_info = {
        "key": key,
        "signature": signature,
        "device": device,
        "constants": constants,
        "num_warps": options.num_warps,
        "num_ctas": options.num_ctas,
        "num_stages": options.num_stages,
        "enable_fp_fusion": options.enable_fp_fusion,
        "enable_reflect_ftz": options.enable_reflect_ftz,
        "launch_cooperative_grid": options.launch_cooperative_grid,
        "extern_libs": options.extern_libs,
        "configs": [attrs],
        "specialization_data": data,
        "is_warmup": is_warmup,
    }
    return {
        "key": key,
        "repr": f"{fn.__qualname__}[{option_text}]({args})",
        "fn": JitFunctionInfo(fn.__module__, fn.__qualname__, jit_function),
        "compile": compile_info,
        "is_manual_warmup": is_warmup,
        "already_compiled": False,
    }


class LaunchMetadata:
    """What ``launch_enter_hook`` / ``launch_exit_hook`` get: ``get()`` gives the kernel's name
    and what ``@jit(launch_metadata=fn)`` returns for this launch (computed on first use)."""

    def __init__(self, base: dict[str, Any], extra: Callable[[], Any] | None):
        self._data = base
        self._extra = extra

    def get(self) -> dict[str, Any]:
        if self._extra is not None:
            extra, self._extra = self._extra, None
            self._data.update(extra() or {})
        return self._data

    def add(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
        previous = self._extra

        def both() -> dict[str, Any]:
            data = dict(previous() or {}) if previous is not None else {}
            data.update(fn(*args) or {})
            return data

        self._extra = both
