"""One kernel's launcher for one array framework on one device: the hot path of a GPU launch.

It is generated once per (kernel, framework, device) as a small Python function whose body is
the kernel's parameter list unrolled: each argument becomes the value the ABI takes (a device
pointer, an int, a float), one ``struct`` call packs them all into a buffer of this thread
whose parameter pointers were computed once, and one ``cuLaunchKernel`` (CuPy's binding of it)
launches on the current stream of the arrays' framework, or on the stream the caller names
(``CompiledKernel.run``'s, a raw ``CUstream``). Nothing is looked up by name, hashed or
allocated per launch; a CUDA graph being captured on that stream records the launch. Where the
process has several GPUs the launch makes the arrays' device current around it, and a thread
that has no CUDA context current yet (``CUDA_ERROR_INVALID_CONTEXT``) gets the device's bound
and the launch retried once, as the native fast path does.

The buffer is per thread: the driver reads it during ``cuLaunchKernel``, which runs without
the GIL, so two threads launching the same kernel must not share one.
"""

from __future__ import annotations

import ctypes
import struct
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

import numpy as np

from mytriton.errors import BackendError


class FastLaunch(Protocol):
    """A launch of the kernel: grid x, y, z, the runtime arguments in order and the stream (a
    raw ``CUstream``; None: the current stream of the arrays' framework)."""

    def __call__(
        self, x: int, y: int, z: int, args: Sequence[Any], stream: int | None = None, /
    ) -> None: ...


_U64 = (1 << 64) - 1

#: per ABI kind: the struct code, and the expression turning argument ``a`` into what it packs
_FORMATS = {"i32": "i", "i64": "Q", "f32": "f", "f64": "d", "ptr": "Q"}
_POINTER = {"torch": "{a}.data_ptr()", "cupy": "{a}.data.ptr"}
_VALUE = {"i32": "{a}", "i64": "{a} & _mt_LU64", "f32": "{a}", "f64": "{a}"}


def _exact(kind: str, value: Any, framework: str) -> int | float:
    """An argument the one-struct path could not pack (a NumPy scalar, a float beyond f32's
    range), converted as C converts it: ints wrap, an f32 beyond range becomes inf."""
    if kind == "ptr":
        if framework == "raw":
            return int(value)
        return int(value.data_ptr() if framework == "torch" else value.data.ptr)
    if kind == "i32":
        return int(np.int32(value))
    if kind == "i64":
        return int(value) & _U64
    if kind == "f32":
        with np.errstate(over="ignore"):
            return float(np.float32(value))
    return float(value)


class ArgumentBuffer:
    """The packed layout of a parameter list: each parameter at an offset aligned to its size,
    one ``struct.Struct`` writing them all, and per thread a buffer with its pointer array."""

    def __init__(self, params: Sequence[str]):
        self.params = tuple(params)
        offsets, codes, end = [], [], 0
        for kind in self.params:
            size = struct.calcsize(_FORMATS[kind])
            pad = -end % size
            codes.append("x" * pad + _FORMATS[kind])
            offsets.append(end + pad)
            end += pad + size
        self.offsets = tuple(offsets)
        self.size = max(end, 8)
        self.layout = struct.Struct("<" + "".join(codes))
        self._slots: dict[int, tuple[Any, int]] = {}

    def slot(self, thread: int) -> tuple[Any, int]:
        """This thread's buffer and the address of its array of parameter pointers."""
        slot = self._slots.get(thread)
        if slot is None:
            buffer = ctypes.create_string_buffer(self.size)
            base = ctypes.addressof(buffer)
            pointers = (ctypes.c_void_p * max(len(self.params), 1))(
                *(base + o for o in self.offsets)
            )
            slot = self._slots[thread] = ((buffer, pointers), ctypes.addressof(pointers))
        return slot

    def pack_exact(self, buffer: Any, args: Sequence[Any], framework: str) -> None:
        """Pack ``args`` converting each as C would (the slow path of a fast launch)."""
        if len(args) != len(self.params):
            raise BackendError(
                f"the kernel takes {len(self.params)} runtime arguments, got {len(args)}"
            )
        values = [_exact(k, a, framework) for k, a in zip(self.params, args, strict=True)]
        self.layout.pack_into(buffer, 0, *values)


# The statements of a launch, indented by 4; the grid is in _mt_x, _mt_y, _mt_z. Every name is
# prefixed (_mt_L): the runtime inlines them into its generated fast path, beside its own.
_STATEMENTS = """\
_mt_Lslot = _mt_Lslots.get(_mt_Lident()) or _mt_Lnew_slot(_mt_Lident())
try:
    _mt_Lpack(_mt_Lslot[0][0], 0, {values})
except Exception:
    _mt_Lpack_exact(_mt_Lslot[0][0], ({args}), _mt_LFRAMEWORK)
{switch}try:
    _mt_Lstream = {stream}
    try:
        _mt_Llaunch(_mt_LFUNCTION, _mt_x, _mt_y, _mt_z, {block_smem}, _mt_Lstream, {params})
    except _mt_LDRIVER_ERROR as _mt_Lerror:
        if not _mt_Lno_context(_mt_Lerror):
            raise
        _mt_Lbind()  # a thread that had no context current: the device's, then once again
        _mt_Llaunch(_mt_LFUNCTION, _mt_x, _mt_y, _mt_z, {block_smem}, _mt_Lstream, {params})
{wait}except _mt_LDRIVER_ERROR as _mt_Lerror:
    raise _mt_LBackendError(
        _mt_LFAILED.format(grid=(_mt_x, _mt_y, _mt_z), error=_mt_Lerror)
    ) from None
{restore}"""

_SWITCH = """\
_mt_Lprevious = _mt_Lget_device()
if _mt_Lprevious != _mt_LDEVICE:
    _mt_Lset_device(_mt_LDEVICE)
"""
_RESTORE = """\
finally:
    if _mt_Lprevious != _mt_LDEVICE:
        _mt_Lset_device(_mt_Lprevious)
"""


@dataclass(frozen=True)
class NativeLaunch:
    """What the runtime's native fast path needs to launch a kernel itself: the address of
    ``cuLaunchKernel``, the ``CUfunction``, the block, the ABI kinds of the parameters, the
    current stream (``stream_of(stream_arg)``, or ``stream_of()`` when ``stream_arg`` is
    None), ``on_error(code, x, y, z, attempt)``, which returns True to retry or raises;
    ``switch``: ``(get_device, set_device)`` where the process has several GPUs (the launch
    makes ``device`` current around it), and ``after(stream)``, called once launched (debug
    kernels wait there)."""

    launch_address: int
    function: int
    block: tuple[int, int, int]
    params: tuple[str, ...]
    stream_of: Callable[..., int]
    stream_arg: int | None
    on_error: Callable[[int, int, int, int, int], bool]
    device: int = 0
    switch: tuple[Callable[[], int], Callable[[int], Any]] | None = None
    after: Callable[[int], Any] | None = None


class LaunchCode:
    """The statements that launch one kernel, as source to inline into generated code, and
    the names they use. ``statements(args)`` launches with the argument expressions ``args``
    (one per parameter) over the grid held in ``_mt_x``, ``_mt_y``, ``_mt_z``, on the current
    stream or, given ``stream`` (an expression), on that stream where it is not None. ``native``:
    the same launch for the native fast path (None where the driver cannot be found)."""

    def __init__(
        self,
        name: str,
        namespace: dict[str, Any],
        render: Callable[[list[str], str | None], str],
        native: NativeLaunch | None = None,
    ):
        self.name = name
        self.namespace = namespace
        self._render = render
        self.native = native

    def statements(self, args: Sequence[str], indent: str = "", stream: str | None = None) -> str:
        text = self._render(list(args), stream)
        return "".join(indent + line + "\n" for line in text.splitlines())

    def as_function(self, nparams: int) -> FastLaunch:
        """``launch(x, y, z, args, stream=None)``: the statements as a function of their own."""
        names = [f"_mt_a{i}" for i in range(nparams)]
        unpack = f"    {', '.join(names)}, = _mt_args\n" if names else ""
        source = (
            "def launch(_mt_x, _mt_y, _mt_z, _mt_args, _mt_stream=None, /):\n"
            + unpack
            + self.statements(names, "    ", stream="_mt_stream")
        )
        namespace = dict(self.namespace)
        exec(compile(source, f"<mytriton launcher of {self.name}>", "exec"), namespace)
        launch: FastLaunch = namespace["launch"]
        return launch


def build_launch_code(
    *,
    name: str,
    function: int,
    block: tuple[int, int, int],
    params: Sequence[str],
    framework: str,
    device: int,
    several_devices: bool,
    on_launched: Callable[[Any], None] | None,
    raw_pointers: bool = False,
    shared: int = 0,
    cooperative: bool = False,
) -> LaunchCode:
    """The launch of one kernel (``function``: its ``CUfunction``) for arrays of ``framework``
    on ``device``. ``several_devices``: switch to ``device`` around the launch;
    ``on_launched`` is called with the stream after each launch (debug kernels wait there).
    ``raw_pointers``: the caller passes pointer arguments as addresses (the runtime's generated
    fast path, which has read them already). ``shared``: dynamic shared memory bytes (the native
    launch passes none: such kernels launch from Python). ``cooperative``: launch with
    ``cuLaunchCooperativeKernel`` (every program resident at once, so that they may wait for
    one another; the driver refuses a grid larger than the device holds), from Python."""
    pointer = "{a}" if raw_pointers else _POINTER.get(framework)
    if pointer is None or framework not in _POINTER:
        raise BackendError(f"the GPU backends cannot launch on {framework} arrays")
    cupy = sys.modules["cupy"]
    if framework == "torch":
        torch = sys.modules["torch"]
        raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
        stream_of = raw if raw is not None else _torch_stream_pointer
        stream = "_mt_Lstream_of(_mt_LDEVICE)"
    else:
        stream_of = _cupy_stream_pointer(cupy)
        stream = "_mt_Lstream_of()"
    buffer = ArgumentBuffer(params)
    pieces = {
        "block_smem": ", ".join(str(b) for b in (*block, shared)),  # cuLaunchKernel's order
        "switch": _SWITCH if several_devices else "",
        "restore": _RESTORE if several_devices else "",
        "wait": "    _mt_Lon_launched(_mt_Lstream)\n" if on_launched is not None else "",
        # the parameters, and cuLaunchKernel's `extra` (cuLaunchCooperativeKernel has none)
        "params": "_mt_Lslot[1]" if cooperative else "_mt_Lslot[1], 0",
    }

    def render(args: list[str], given_stream: str | None) -> str:
        values = [
            (pointer if kind == "ptr" else _VALUE[kind]).format(a=a)
            for a, kind in zip(args, params, strict=True)
        ]
        chosen = stream
        if given_stream is not None:
            chosen = f"{stream} if {given_stream} is None else {given_stream}"
        return _STATEMENTS.format(
            values=", ".join(values),
            args="".join(a + ", " for a in args),
            stream=chosen,
            **pieces,
        )

    namespace = _launch_namespace(name, function, block, device, cooperative, buffer, cupy)
    namespace["_mt_LFRAMEWORK"] = "raw" if raw_pointers else framework
    namespace["_mt_Lstream_of"] = stream_of
    namespace["_mt_Lon_launched"] = on_launched
    native = None
    if raw_pointers and not shared and not cooperative:
        native = _native_launch(name, function, block, params, framework, device, stream_of)
    if native is not None:
        switch = (cupy.cuda.runtime.getDevice, cupy.cuda.runtime.setDevice)
        native = replace(native, switch=switch if several_devices else None, after=on_launched)
    return LaunchCode(name, namespace, render, native)


def _launch_namespace(
    name: str,
    function: int,
    block: tuple[int, int, int],
    device: int,
    cooperative: bool,
    buffer: ArgumentBuffer,
    cupy: Any,
) -> dict[str, Any]:
    """The names the generated launch statements use (``_STATEMENTS``), but for the stream,
    framework and after-launch hook, which ``build_launch_code`` adds."""
    return {
        "_mt_Lslots": buffer._slots,
        "_mt_Lnew_slot": buffer.slot,
        "_mt_Lident": _get_ident(),
        "_mt_Lpack": buffer.layout.pack_into,
        "_mt_Lpack_exact": buffer.pack_exact,
        "_mt_Llaunch": _launch_function(cupy, cooperative),
        "_mt_LFUNCTION": function,
        "_mt_LDEVICE": device,
        "_mt_Lget_device": cupy.cuda.runtime.getDevice,
        "_mt_Lset_device": cupy.cuda.runtime.setDevice,
        "_mt_Lno_context": _no_context,
        "_mt_Lbind": lambda: bind_device(cupy, device),
        "_mt_LDRIVER_ERROR": cupy.cuda.driver.CUDADriverError,
        "_mt_LBackendError": BackendError,
        "_mt_LFAILED": f"launching {name} (grid {{grid}}, block {block}) failed: {{error}}",
        "_mt_LU64": _U64,
    }


_CU_ERROR_INVALID_CONTEXT = 201


def _launch_function(cupy: Any, cooperative: bool) -> Callable[..., Any]:
    """CuPy's binding of ``cuLaunchKernel``, or of ``cuLaunchCooperativeKernel``."""
    if not cooperative:
        return cupy.cuda.driver.launchKernel  # type: ignore[no-any-return]
    launch = getattr(cupy.cuda.driver, "launchCooperativeKernel", None)
    if launch is None:
        raise BackendError(
            "this CuPy has no cooperative launch (cuLaunchCooperativeKernel): "
            "launch_cooperative_grid=True needs CuPy 9 or later"
        )
    return launch  # type: ignore[no-any-return]


def _no_context(error: BaseException) -> bool:
    """Whether a driver error is ``CUDA_ERROR_INVALID_CONTEXT``: the launching thread had no
    context current (a thread that has made no CUDA runtime call yet: the runtime binds a
    device's context to a thread lazily, and ``cuLaunchKernel`` is a driver call)."""
    return getattr(error, "status", None) == _CU_ERROR_INVALID_CONTEXT


def bind_device(cupy: Any, device: int) -> None:
    """Make ``device``'s primary context current in this thread: ``cudaSetDevice`` binds it
    on CUDA 12 and later, and ``cudaFree(0)`` (which frees nothing) makes the runtime bind it
    on any version."""
    cupy.cuda.runtime.setDevice(device)
    cupy.cuda.runtime.free(0)


def _native_launch(
    name: str,
    function: int,
    block: tuple[int, int, int],
    params: Sequence[str],
    framework: str,
    device: int,
    stream_of: Callable[..., int],
) -> NativeLaunch | None:
    """The native form of a launch, or None where ``cuLaunchKernel`` cannot be found."""
    address = _cu_launch_kernel()
    if address is None:
        return None
    cupy = sys.modules["cupy"]

    def on_error(code: int, x: int, y: int, z: int, attempt: int) -> bool:
        if code == _CU_ERROR_INVALID_CONTEXT and attempt == 0:
            bind_device(cupy, device)  # a thread without the device's context
            return True
        error = cupy.cuda.driver.CUDADriverError(code)
        raise BackendError(f"launching {name} (grid {(x, y, z)}, block {block}) failed: {error}")

    return NativeLaunch(
        launch_address=address,
        function=function,
        block=block,
        params=tuple(params),
        stream_of=stream_of,
        stream_arg=device if framework == "torch" else None,
        on_error=on_error,
        device=device,
    )


_LAUNCH_KERNEL: list[int | None] = []


def _cu_launch_kernel() -> int | None:
    """The address of the driver's ``cuLaunchKernel`` (looked up once), or None."""
    if not _LAUNCH_KERNEL:
        try:
            fn = ctypes.CDLL("libcuda.so.1").cuLaunchKernel
            _LAUNCH_KERNEL.append(ctypes.cast(fn, ctypes.c_void_p).value)
        except (OSError, AttributeError):
            _LAUNCH_KERNEL.append(None)
    return _LAUNCH_KERNEL[0]


def build_launcher(**kw: Any) -> FastLaunch:
    """``build_launch_code(...)`` as a function ``launch(x, y, z, args)``."""
    return build_launch_code(**kw).as_function(len(kw["params"]))


def _get_ident() -> Callable[[], int]:
    import _thread

    return _thread.get_ident


def _torch_stream_pointer(device: int) -> int:
    return int(sys.modules["torch"].cuda.current_stream(device).cuda_stream)


def _cupy_stream_pointer(cupy: Any) -> Callable[[], int]:
    """CuPy's current stream on the current device, as a raw pointer (a C call where CuPy has
    one)."""
    fast = getattr(cupy.cuda.stream, "get_current_stream_ptr", None)
    if fast is not None:
        return fast  # type: ignore[no-any-return]
    return lambda: int(cupy.cuda.get_current_stream().ptr)
