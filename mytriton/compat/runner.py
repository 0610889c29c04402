"""``CompiledKernel.run``: Triton's launcher calling convention over the runtime's launch.

TorchInductor calls ``run(gx, gy, gz, stream, function, packed_metadata, launch_metadata,
enter_hook, exit_hook, *args)`` for every kernel of every compiled graph call, so its cost is
per call of the user's model. The first launch of a ``Runner`` goes through the runtime's
general launcher (``runtime/launch.py``: it describes every array, checks that they can run
here, adds the scratch a kernel needs). On a GPU backend that launch then generates the
runner's fast path: a function that checks, inline, that each pointer argument is an array of
the type the first launch had, on the same device, that no hook is set, the stream is a raw
handle or None and the grid is three non-zero ints within CUDA's limits, and then reads the
addresses and runs the backend's launch statements (``LaunchCode``, the same ones the JIT's
fast path inlines). Anything else takes the general path, which keeps every check and error.
Scalars need no guard: both paths pack them with the same statements. "No hook" means None or
an empty ``HookChain`` (what ``knobs.runtime.launch_enter_hook`` is until a hook is added, and
what Inductor passes); a chain that has hooks when the launch comes takes the general path.

The fast path is opt-in (``MYTRITON_RUN_FAST_PATH=1``) until it has run on a GPU under
TorchInductor: the general path stays the default.
"""

from __future__ import annotations

import functools
import operator
import os
from collections.abc import Callable, Sequence
from typing import Any

from mytriton.backends import Backend, LaunchOptions
from mytriton.backends.arrays import describe_array, is_array
from mytriton.backends.compiled import CompiledKernel, Launch
from mytriton.errors import LaunchError
from mytriton.knobs import HookChain
from mytriton.runtime.global_scratch import scratch_bytes
from mytriton.runtime.grid import GRID_LIMITS

#: the parameters ``run`` takes before the kernel's arguments
RUN_PARAMETERS = (
    "_mt_gx, _mt_gy, _mt_gz, _mt_stream, _mt_function, _mt_packed, _mt_meta, _mt_enter, _mt_exit"
)


class KernelArgumentCountError(LaunchError, TypeError):
    """``CompiledKernel.run`` got a different number of kernel arguments than the kernel has
    parameters (a ``TypeError``, as Triton's launcher raises)."""


class StreamArgumentError(LaunchError, TypeError):
    """``CompiledKernel.run`` got a stream that is not a raw ``CUstream`` handle."""


def stream_handle(stream: Any, on_gpu: bool, name: str) -> int | None:
    """The raw ``CUstream`` ``run`` got (TorchInductor's ``get_raw_stream``), None for the
    current stream. The host backends run on no stream: they take any value (passed on where
    it is an int, else None)."""
    if stream is None:
        return None
    try:
        return operator.index(stream)
    except TypeError:
        if not on_gpu:
            return None
        raise StreamArgumentError(
            f"{name}: the stream must be a raw CUstream handle (an int, e.g. "
            f"torch.cuda.current_stream().cuda_stream), got {type(stream).__name__}"
        ) from None


#: what makes a fast path from a first launch's runtime arguments and the general path
FastMaker = Callable[[tuple[Any, ...], Callable[..., None]], Callable[..., None] | None]


class Runner:
    """``CompiledKernel.run``: the general path until a first launch made the fast one."""

    __slots__ = ("call", "launcher", "make_fast", "name", "on_gpu", "runtime_indices", "size")

    def __init__(
        self,
        name: str,
        layout: tuple[int, tuple[int, ...]],
        launcher: Launch,
        on_gpu: bool,
        make_fast: FastMaker | None = None,
    ):
        self.name = name
        self.launcher = launcher
        #: whether the kernel runs on a GPU, where ``stream`` is the one it launches on
        self.on_gpu = on_gpu
        self.size, self.runtime_indices = layout
        #: made once, after the first launch that completed through the general path
        self.make_fast = make_fast
        self.call: Callable[..., None] = self.general

    def __call__(self, *args: Any) -> None:
        self.call(*args)

    def general(
        self,
        grid_x: int,
        grid_y: int,
        grid_z: int,
        stream: Any,
        function: Any,
        packed_metadata: Any,
        launch_metadata: Any,
        enter_hook: Callable[[Any], Any] | None,
        exit_hook: Callable[[Any], Any] | None,
        *args: Any,
    ) -> None:
        if len(args) != self.size:
            raise KernelArgumentCountError(
                f"{self.name}: the launcher takes the kernel's {self.size} arguments (constexprs "
                f"included), got {len(args)}"
            )
        if enter_hook is not None:
            enter_hook(launch_metadata)
        launch_args = tuple(args[i] for i in self.runtime_indices)
        handle = stream_handle(stream, self.on_gpu, self.name)
        self.launcher((grid_x, grid_y, grid_z), launch_args, handle)
        if exit_hook is not None:
            exit_hook(launch_metadata)
        if self.make_fast is not None:
            make, self.make_fast = self.make_fast, None
            fast = make(launch_args, self.general)
            if fast is not None:
                self.call = fast


def fast_path_enabled() -> bool:
    """Whether ``run`` makes fast paths (``MYTRITON_RUN_FAST_PATH=1``)."""
    return os.environ.get("MYTRITON_RUN_FAST_PATH", "") not in ("", "0")


def fast_maker(
    name: str,
    layout: tuple[int, tuple[int, ...]],
    kernel: CompiledKernel,
    backend: Backend,
    options: LaunchOptions,
) -> FastMaker:
    """What makes ``name``'s fast path from its first launch's runtime arguments."""
    return functools.partial(make_fast_run, name, layout, kernel, backend, options)


def make_fast_run(
    name: str,
    layout: tuple[int, tuple[int, ...]],
    kernel: CompiledKernel,
    backend: Backend,
    options: LaunchOptions,
    launch_args: Sequence[Any],
    general: Callable[..., None],
) -> Callable[..., None] | None:
    """The fast path of a kernel first launched with ``launch_args``; None where there is none
    (a host backend, a kernel that needs scratch, an argument no cheap guard covers)."""
    size, runtime_indices = layout
    params = getattr(getattr(getattr(kernel, "binary", None), "signature", None), "params", None)
    if scratch_bytes(kernel) or params is None or len(params) != len(launch_args):
        return None
    infos = [
        describe_array(a, f"argument {i}") if is_array(a) else None
        for i, a in enumerate(launch_args)
    ]
    if all(info is None for info in infos):
        return None
    code = backend.launch_code(kernel, infos, options)
    if code is None:
        return None
    ns: dict[str, Any] = {**code.namespace, "_mt_type": type, "_mt_len": len}
    ns["_mt_Chain"] = HookChain
    ns["_mt_general"] = general
    names = [f"_mt_a{i}" for i in range(size)]
    guards: list[str] = []
    passed: list[str] = []
    for j, (i, value, kind) in enumerate(zip(runtime_indices, launch_args, params, strict=True)):
        if kind != "ptr":
            passed.append(names[i])
            continue
        guard = _pointer_guard(j, names[i], value, ns)
        if guard is None:
            return None
        guards.append(guard)
        passed.append(f"_mt_p{j}")
    source = _source(names, guards, code.statements(passed, " " * 4, stream="_mt_stream"))
    exec(compile(source, f"<mytriton run of {name}>", "exec"), ns)
    fast: Callable[..., None] = ns["fast"]
    return fast


def _pointer_guard(j: int, v: str, value: Any, ns: dict[str, Any]) -> str | None:
    """The lines that check pointer argument ``j`` (named ``v``) is an array of the first
    launch's type on its device and read its address into ``_mt_p{j}``; None where the first
    launch passed no CUDA torch tensor or CuPy array there."""
    t = type(value)
    ns[f"_mt_t{j}"] = t
    if t.__module__.startswith("torch") and hasattr(value, "get_device"):
        device = value.get_device()
        same, read = f"{v}.get_device() != {device}", f"{v}.data_ptr()"
    elif t.__module__.startswith("cupy") and hasattr(value, "device"):
        device = value.device.id
        same, read = f"{v}.device.id != {device}", f"{v}.data.ptr"
    else:
        return None
    if device < 0:
        return None
    return (
        f"    if _mt_type({v}) is not _mt_t{j} or {same}:\n"
        f"        return _mt_general({RUN_PARAMETERS}, *_mt_args)\n"
        f"    _mt_p{j} = {read}\n"
    )


def _source(names: list[str], guards: list[str], launch: str) -> str:
    x, y, z = GRID_LIMITS
    unpack = f"    {', '.join(names)}, = _mt_args\n" if names else ""
    return (
        f"def fast({RUN_PARAMETERS}, *_mt_args):\n"
        "    if (_mt_enter is not None and (_mt_type(_mt_enter) is not _mt_Chain or _mt_enter)\n"
        "        or _mt_exit is not None and (_mt_type(_mt_exit) is not _mt_Chain or _mt_exit)\n"
        f"        or _mt_len(_mt_args) != {len(names)}\n"
        "        or (_mt_stream is not None and _mt_type(_mt_stream) is not int)\n"
        "        or _mt_type(_mt_gx) is not int or _mt_type(_mt_gy) is not int\n"
        "        or _mt_type(_mt_gz) is not int\n"
        f"        or not (0 < _mt_gx <= {x} and 0 < _mt_gy <= {y} and 0 < _mt_gz <= {z})):\n"
        f"        return _mt_general({RUN_PARAMETERS}, *_mt_args)\n"
        + unpack
        + "".join(guards)
        + "    _mt_x, _mt_y, _mt_z = _mt_gx, _mt_gy, _mt_gz\n"
        + launch
    )
