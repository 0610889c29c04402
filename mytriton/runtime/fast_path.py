"""The generated fast path of one launch plan: guards, then the launch, in one function.

After a plan's first launch on the GPU, the runtime generates a function with the kernel's own
parameter list (plus the grid) whose body checks, inline, that this launch would get the same
plan: every argument of the same kind (arrays: same type, dtype, device and 16-byte alignment
when the kernel was specialized on it; integers: same width, not 1 unless compiled in as 1, same
divisibility by 16; constexprs: equal values), the same launch options, the same
environment (backend, pipeline, debug switches) and the same globals compiled in (the same
objects: ``global_values.py``). Any guard that fails hands the launch to the
general path, which finds or builds the right plan. Otherwise it evaluates the grid and calls
the backend's pointer launcher with the addresses the guards read: a launch reads each
array's address once and looks up nothing.

Guards are generated from the same facts the general path's plan key holds
(``binder.describe``), so the fast path never accepts a launch the general path would give
another kernel.
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Callable, Sequence
from typing import Any

from mytriton.backends.nvidia.device_launcher import LaunchCode
from mytriton.frontend.signature import DIVISIBILITY
from mytriton.runtime.global_values import MISSING
from mytriton.runtime.grid import normalize_grid
from mytriton.runtime.guards import Guard, guard_of
from mytriton.runtime.specialization import I32_MAX, I32_MIN, constexpr_key, int_kind

FastPath = Callable[..., Any]


def environment_store() -> dict[bytes, bytes] | None:
    """CPython's raw store of ``os.environ`` (bytes to bytes), or None where it has none."""
    data = getattr(os.environ, "_data", None)
    return data if isinstance(data, dict) else None


def make_fast_path(
    *,
    name: str,
    signature: inspect.Signature,
    constexprs: frozenset[str],
    no_value: frozenset[str],
    no_alignment: frozenset[str],
    values: Sequence[Any],
    options: tuple[Any, ...],
    environment: tuple[tuple[bytes, ...], tuple[bytes | None, ...]],
    runtime_indices: tuple[int, ...],
    launch_code: LaunchCode,
    kernel: Any,
    global_guards: tuple[tuple[Any, ...], ...],
    slow: Callable[[Any, tuple[Any, ...], dict[str, Any]], Any],
    options_key: Callable[[dict[str, Any]], tuple[Any, ...]],
) -> FastPath | None:
    """The fast path of the plan these ``values`` (every parameter's, in order), ``options``
    (``options_key`` of the launch options) and ``environment`` (variable names and values)
    got; None where an argument has no cheap guard. ``slow(grid, values, options)`` is the
    general path; ``kernel`` is what a launch returns; ``global_guards`` the globals compiled
    in (``global_values.fast_guards``), checked by identity."""
    store = environment_store()
    params = list(signature.parameters.values())
    if store is None or any(p.name.startswith("_mt_") for p in params):
        return None
    ns = _namespace(store, environment, options, launch_code, kernel, slow, options_key)
    per_parameter = _parameter_guards(params, values, constexprs, no_value, no_alignment, ns)
    if per_parameter is None:
        return None
    header, guards, passed = per_parameter
    names = [p.name for p in params]
    changed = _launch_changed(ns, options, global_guards)
    launch = launch_code.statements([passed[i] for i in runtime_indices], " " * 8)
    source = _function_source(names, header, changed, guards, launch)
    exec(compile(source + "\n", f"<mytriton fast path of {name}>", "exec"), ns)
    fast: FastPath = ns["fast"]
    return fast


def _namespace(
    store: dict[bytes, bytes],
    environment: tuple[tuple[bytes, ...], tuple[bytes | None, ...]],
    options: tuple[Any, ...],
    launch_code: LaunchCode,
    kernel: Any,
    slow: Callable[[Any, tuple[Any, ...], dict[str, Any]], Any],
    options_key: Callable[[dict[str, Any]], tuple[Any, ...]],
) -> dict[str, Any]:
    """The generated function's globals: the launch code's, the builtins it calls, the
    general path, and the options and environment the plan saw."""
    names_values = list(zip(*environment, strict=True))
    return {
        **launch_code.namespace,
        "_mt_type": type,
        "_mt_int": int,
        "_mt_float": float,
        "_mt_bool": bool,
        "_mt_ck": constexpr_key,
        "_mt_kind": int_kind,
        "_mt_callable": callable,
        "_mt_normalize": normalize_grid,
        "_mt_kernel": kernel,
        "_mt_slow": slow,
        "_mt_options_key": options_key,
        "_mt_OPTIONS": options,
        # the environment as the plan saw it: these variables set to these values, those unset
        "_mt_env_keys": store.keys(),
        "_mt_env_items": store.items(),
        "_mt_UNSET": frozenset(k for k, v in names_values if v is None),
        "_mt_SET": frozenset((k, v) for k, v in names_values if v is not None),
    }


def _parameter_guards(
    params: list[inspect.Parameter],
    values: Sequence[Any],
    constexprs: frozenset[str],
    no_value: frozenset[str],
    no_alignment: frozenset[str],
    ns: dict[str, Any],
) -> tuple[list[str], list[str], dict[int, str]] | None:
    """The function's parameter list (defaults in ``ns``), each parameter's guard lines and
    the expression the launch passes for it; None where an argument has no cheap guard."""
    header: list[str] = []
    guards: list[str] = []
    passed: dict[int, str] = {}
    for i, (p, v) in enumerate(zip(params, values, strict=True)):
        if p.default is inspect.Parameter.empty:
            header.append(p.name)
        else:
            ns[f"_mt_default{i}"] = p.default
            header.append(f"{p.name}=_mt_default{i}")
        fact = guard_of(v, p.name in constexprs, p.name in no_value, p.name in no_alignment)
        if fact is None:
            return None
        lines_of_p, passed[i] = _lines(i, p.name, fact, ns)
        guards.extend(lines_of_p)
    return header, guards, passed


def _launch_changed(
    ns: dict[str, Any], options: tuple[Any, ...], global_guards: tuple[tuple[Any, ...], ...]
) -> str:
    """The condition true when the launch options, the environment or a global compiled in
    differ from the plan's."""
    env_changed = "not _mt_env_keys.isdisjoint(_mt_UNSET)"
    if ns["_mt_SET"]:
        env_changed += " or not _mt_env_items >= _mt_SET"
    env_changed += _globals_changed(global_guards, ns)
    options_guard = "_mt_options_key(_mt_options) != _mt_OPTIONS" if options else "_mt_options"
    return f"{options_guard} or {env_changed}"


def _function_source(
    names: list[str], header: list[str], changed: str, guards: list[str], launch: str
) -> str:
    """The fast path's source: the launch's guards, the grid, then the ``launch`` statements."""
    all_values = "(" + "".join(n + ", " for n in names) + ")"
    grid_args = "{" + ", ".join(f"{n!r}: {n}" for n in names) + "}"
    lines = [
        f"def fast(_mt_grid, {', '.join([*header, '**_mt_options'])}):",
        f"    if {changed}:",
        f"        return _mt_slow(_mt_grid, {all_values}, _mt_options)",
    ]
    slow_call = f"return _mt_slow(_mt_grid, {all_values}, _mt_options)"
    for g in guards:  # a guard line ending in ": SLOW" leaves for the general path
        lines.append("    " + (g[: -len("SLOW")] + slow_call if g.endswith(": SLOW") else g))
    lines += [
        "    if _mt_callable(_mt_grid):",
        f"        _mt_grid = _mt_grid({grid_args})",
        "    _mt_x, _mt_y, _mt_z = _mt_normalize(_mt_grid)",
        "    if _mt_x and _mt_y and _mt_z:",
        launch.rstrip("\n"),
        "    return _mt_kernel",
    ]
    return "\n".join(lines)


def _globals_changed(guards: tuple[tuple[Any, ...], ...], ns: dict[str, Any]) -> str:
    """`` or ...`` conditions true when a global compiled in is another object now."""
    ns["_mt_MISSING"] = MISSING
    ns["_mt_getattr"] = getattr
    out = ""
    for i, (scope, key, value, inner, has_inner) in enumerate(guards):
        ns[f"_mt_gs{i}"], ns[f"_mt_gk{i}"], ns[f"_mt_gv{i}"] = scope, key, value
        if key is None:  # a closure cell
            now = f"_mt_getattr(_mt_gs{i}, 'cell_contents', _mt_MISSING)"
        else:
            now = f"_mt_gs{i}.get(_mt_gk{i}, _mt_MISSING)"
        out += f" or {now} is not _mt_gv{i}"
        if has_inner:  # a constexpr: its value too (constexprs are mutable)
            ns[f"_mt_gi{i}"] = inner
            out += f" or _mt_gv{i}.value is not _mt_gi{i}"
    return out


def _lines(i: int, v: str, g: Guard, ns: dict[str, Any]) -> tuple[list[str], str]:
    """The guard lines of parameter ``i`` (named ``v``; ``SLOW`` leaves for the general path)
    and the expression the launch passes for it."""
    if g.kind == "const_int":
        ns[f"_mt_c{i}"] = g.value
        return [f"if _mt_type({v}) is not _mt_int or {v} != _mt_c{i}: SLOW"], v
    if g.kind == "constexpr":
        ns[f"_mt_c{i}"] = g.value
        return [f"if _mt_ck({v}) != _mt_c{i}: SLOW"], v
    if g.kind == "none":
        return [f"if {v} is not None: SLOW"], v
    if g.kind == "int":
        if g.int_kind == 0:
            width = f"not {I32_MIN} <= {v} <= {I32_MAX}"
        else:
            ns[f"_mt_k{i}"] = g.int_kind
            width = f"_mt_kind({v}) != _mt_k{i}"
        checks = [f"_mt_type({v}) is not _mt_int", width]
        if g.not_one:
            checks.append(f"{v} == 1")
        if g.divisible is not None:
            checks.append(f"{v} % {DIVISIBILITY} {'!=' if g.divisible else '=='} 0")
        return [f"if {' or '.join(checks)}: SLOW"], v
    if g.kind in ("float", "bool"):
        return [f"if _mt_type({v}) is not _mt_{g.kind}: SLOW"], v
    ns[f"_mt_t{i}"], ns[f"_mt_d{i}"] = g.type, g.dtype
    if g.kind == "torch":
        read = f"{v}.data_ptr()"
        same = f"{v}.dtype is not _mt_d{i} or {v}.get_device() != {g.device}"
    else:
        read = f"{v}.data.ptr"
        same = f"{v}.dtype != _mt_d{i} or {v}.device.id != {g.device}"
    lines = [f"if _mt_type({v}) is not _mt_t{i} or {same}: SLOW", f"_mt_p{i} = {read}"]
    if g.aligned is not None:
        lines.append(f"if _mt_p{i} % {DIVISIBILITY} {'!=' if g.aligned else '=='} 0: SLOW")
    return lines, f"_mt_p{i}"
