"""A launch plan: what ``kernel[grid](...)`` reuses for every launch whose arguments describe
like an earlier one's (the compiled kernel, its backend, which values are runtime arguments,
the backend's launch function), the settings that key it, and its fast paths (made after its
first launch: ``fast_path.py``, ``native_fast_path.py``)."""

from __future__ import annotations

import operator
import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from mytriton.backends import Backend, LaunchOptions
from mytriton.backends.arrays import ArrayInfo
from mytriton.backends.compiled import CompiledKernel
from mytriton.backends.nvidia.device_launcher import FastLaunch
from mytriton.errors import LaunchError, MyTritonError, debug_enabled
from mytriton.frontend.signature import DescriptorArg, TupleArg
from mytriton.runtime.binder import options_key
from mytriton.runtime.descriptor_args import descriptor_runtime
from mytriton.runtime.fast_path import FastPath, make_fast_path
from mytriton.runtime.global_scratch import GlobalScratch, scratch_bytes
from mytriton.runtime.global_values import fast_guards
from mytriton.runtime.grid import normalize_grid
from mytriton.runtime.launch import require_binary
from mytriton.runtime.native_fast_path import make_native_fast_path
from mytriton.runtime.specialization import tuple_runtime
from mytriton.runtime.tensor_maps import fill_tensor_maps

if TYPE_CHECKING:
    from mytriton.runtime.jit import JITFunction

#: the environment variables that select backend and pipeline: part of a plan's key
ENV_KEYS = (
    "MYTRITON_BACKEND",
    "MYTRITON_INTERPRET",
    "TRITON_INTERPRET",
    "MYTRITON_PIPELINE",
    "MYTRITON_DEBUG",
    "TRITON_DEBUG",
    "TRITON_DEFAULT_FP_FUSION",
    "TRITON_F32_DEFAULT",
)


ENV_BYTES = tuple(os.fsencode(k) for k in ENV_KEYS)


def launch_environment() -> tuple[Any, ...]:
    """The settings that select backend and pipeline (read on every launch: they may change)."""
    data = getattr(os.environ, "_data", None)  # CPython's raw store: ~10x faster than .get()
    if isinstance(data, dict):
        return tuple(map(data.get, ENV_BYTES))
    return tuple(os.environ.get(k) for k in ENV_KEYS)


def normalize_grid_as_run(grid: Any) -> tuple[int, int, int]:
    """``normalize_grid`` for the native fast path: its errors as ``run`` raises them."""
    try:
        return normalize_grid(grid)
    except MyTritonError as e:
        if debug_enabled():
            raise
        raise e.with_traceback(None)  # noqa: B904


class LaunchPlan:
    """A specialization resolved for one argument signature: kernel, backend, which values
    are runtime arguments, and (bound on the first launch) the backend's launch function."""

    __slots__ = (
        "backend",
        "execute",
        "fast",
        "fast_tried",
        "infos",
        "kernel",
        "launch",
        "native",
        "options",
        "runtime",
        "runtime_indices",
        "scratch",
    )

    def __init__(
        self,
        kernel: CompiledKernel,
        backend: Backend,
        options: LaunchOptions,
        runtime_indices: tuple[int, ...],
        infos: list[ArrayInfo | None],
        execute: bool,
    ):
        self.kernel = kernel
        self.backend = backend
        self.options = options
        self.infos = infos
        self.execute = execute
        #: the runtime arguments out of all parameters' values, as a tuple
        self.runtime_indices = runtime_indices
        self.runtime: Callable[[Sequence[Any]], tuple[Any, ...]] = _picker(runtime_indices)
        self.launch: FastLaunch | None = None
        #: the generated fast path (made after the first launch), and whether it was tried
        self.fast: FastPath | None = None
        self.fast_tried = False
        #: the native fast path (``native_fast_path.py``), which replaces ``fast`` where made
        self.native: Callable[..., CompiledKernel] | None = None
        #: where the kernel writes tensor maps: each launch's scratch (``global_scratch.py``)
        self.scratch: GlobalScratch | None = None

    def bind_launch(self) -> FastLaunch:
        """The backend's launch function for this plan's kernel and arrays (first launch)."""
        require_binary(self.kernel)
        self.launch = self.backend.launcher(self.kernel, self.infos, self.options)
        return self.launch


def _picker(indices: tuple[int, ...]) -> Callable[[Sequence[Any]], tuple[Any, ...]]:
    """``values -> tuple(values[i] for i in indices)``, in C where it can be."""
    if len(indices) >= 2:
        return operator.itemgetter(*indices)
    if len(indices) == 1:
        (i,) = indices
        return lambda values: (values[i],)
    return lambda values: ()


def pass_special_arguments(
    plan: LaunchPlan,
    name: str,
    specs: dict[str, Any],
    arg_names: list[str],
    runtime: list[Any],
) -> None:
    """Give ``plan`` what its tuple and descriptor arguments and its scratch need at each
    launch (such a plan launches by the general path: the fast paths pass none of them)."""
    kernel, backend, infos = plan.kernel, plan.backend, plan.infos
    if any(isinstance(spec, TupleArg) for spec in specs.values()):
        if any(isinstance(spec, DescriptorArg) for spec in specs.values()):
            raise LaunchError(
                f"{name}: tuple arguments together with tensor descriptor "
                "arguments are not supported"
            )
        # their runtime elements are passed flattened; no generated or native fast path
        plan.runtime = tuple_runtime(specs, arg_names)
        plan.fast_tried = True
    if any(isinstance(spec, DescriptorArg) for spec in specs.values()):
        # a host tensor descriptor is several runtime arguments, made again at each launch
        # of this plan (``descriptor_runtime``); no generated or native fast path
        maps = kernel.metadata.get("tensor_maps") if plan.execute else None
        if maps:  # the tensor maps its TMA copies read (their infos are the plan's)
            fill_tensor_maps(maps, backend, runtime, infos)
        plan.runtime = descriptor_runtime(specs, arg_names, runtime, infos, maps, backend)
        plan.fast_tried = True
    if plan.execute and (per_program := scratch_bytes(kernel)):
        plan.scratch = GlobalScratch(per_program, infos)
        plan.infos = [*infos, plan.scratch.info]
        plan.fast_tried = True  # (the fast paths pass no scratch)


def make_plan_fast_path(
    jit_fn: JITFunction[Any],
    plan: LaunchPlan,
    values: Sequence[Any],
    options: dict[str, Any],
    environment: tuple[Any, ...],
) -> None:
    """Give ``plan`` (just launched with these values, options and environment) its
    native fast path, else its generated Python one, where its backend has launch code."""
    plan.fast_tried = True
    global_guards = fast_guards(jit_fn._globals or [])
    if global_guards is None:
        return  # a global compared by value: every launch takes the general path
    if jit_fn.checked_ranges:
        return  # an annotated narrow integer: the binder checks its range, the guards cannot
    code = plan.backend.launch_code(plan.kernel, plan.infos, plan.options)
    if code is None:
        return
    facts: dict[str, Any] = {
        "signature": jit_fn.signature,
        "constexprs": jit_fn.constexprs,
        "no_value": jit_fn.do_not_specialize,
        "no_alignment": jit_fn.do_not_specialize_on_alignment,
        "values": values,
        "environment": (ENV_BYTES, environment),
        "runtime_indices": plan.runtime_indices,
        "kernel": plan.kernel,
        "global_guards": global_guards,
    }
    if code.native is not None:
        plan.native = make_native_fast_path(
            **facts,
            options=options,
            native=code.native,
            general=jit_fn._general,
            normalize=normalize_grid_as_run,
        )
        if plan.native is not None:
            return
    plan.fast = make_fast_path(
        **facts,
        name=jit_fn.fn.__name__,
        options=options_key(options) if options else (),
        launch_code=code,
        slow=jit_fn._general,
        options_key=options_key,
    )
