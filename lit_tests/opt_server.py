"""A fork server for lit's ``mytriton-opt`` RUN lines: the tool's start-up paid once, not per line.

Each ``mytriton-opt`` process spends most of its life importing xDSL and building the
dialects. lit.cfg.py starts one server per lit run (``serve``), which imports the tool and
loads every dialect and pass, then forks a copy of itself for each RUN line: the client (this
file run with ``python -S``, importing nothing but the standard library) hands the forked copy
its arguments, working directory, environment and its stdin/stdout/stderr (file descriptors,
over a Unix socket), and exits with the status ``mytriton.tools.opt.main`` gave. What runs is
the console script's code on the same input, so the RUN lines test the same behaviour; the
process start itself is covered by tests/test_opt_tool.py, which runs the real tool.

A client that finds no server runs the real tool instead (``os.execv``), and
``MYTRITON_LIT_OPT_SERVER=0`` (lit.cfg.py) makes every RUN line start the real tool.
"""

from __future__ import annotations

import json
import os
import socket
import struct
import sys
import time

_STATUS = struct.Struct("!i")
_LENGTH = struct.Struct("!I")


def _real_tool() -> list[str]:
    """The command lit.cfg.py would substitute without the server."""
    bindir = os.path.dirname(sys.executable)
    script = os.path.join(bindir, "mytriton-opt")
    if os.path.exists(script):
        return [script]
    return [sys.executable, "-m", "mytriton.tools.opt"]


def client(path: str, args: list[str]) -> int:
    """Run ``mytriton-opt args`` in a fork of the server at ``path``; its exit status."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(path)
    except OSError:
        sock.close()
        tool = _real_tool()
        os.execv(tool[0], [*tool, *args])  # no server: the real tool, in this process
    request = json.dumps(
        {"argv": ["mytriton-opt", *args], "cwd": os.getcwd(), "env": dict(os.environ)}
    ).encode()
    socket.send_fds(sock, [_LENGTH.pack(len(request)) + request], [0, 1, 2])
    reply = b""
    while len(reply) < _STATUS.size:
        chunk = sock.recv(_STATUS.size - len(reply))
        if not chunk:
            print("mytriton-opt (lit server): the tool's process died", file=sys.stderr)
            return 1
        reply += chunk
    return int(_STATUS.unpack(reply)[0])


def _exit_status(code: object) -> int:
    """The status a Python process exits with for ``sys.exit(code)``."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def _run_request(conn: socket.socket) -> None:
    """In the fork: take over the client's files, cwd and environment, run the tool, reply."""
    import signal
    import traceback

    signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # the tool waits for its own subprocesses
    data, fds, _flags, _addr = socket.recv_fds(conn, 1 << 16, 3)
    (length,) = _LENGTH.unpack_from(data)
    data = data[_LENGTH.size :]
    while len(data) < length:
        chunk = conn.recv(length - len(data))
        if not chunk:
            os._exit(1)
        data += chunk
    request = json.loads(data)
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    sys.argv = request["argv"]

    from mytriton.tools.opt import main

    try:
        main(sys.argv[1:])
        status = 0
    except SystemExit as e:
        status = _exit_status(e.code)
    except BaseException:
        traceback.print_exc()
        status = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except OSError:  # as Python's own exit: a stream it cannot flush makes the status 120
            status = status or 120
    conn.sendall(_STATUS.pack(status))
    os._exit(status)


def _preload() -> None:
    """Everything a RUN line may need, imported once: the tool, its dialects, passes and
    targets, and the entry-point scans (importlib.metadata caches them per directory)."""
    import importlib

    from xdsl.universe import Universe

    from mytriton.dialects import all_dialects
    from mytriton.passes.registry import available_passes

    importlib.import_module("mytriton.tools.opt")
    all_dialects()
    for factory in available_passes().values():
        factory()
    Universe.get_multiverse()
    for target in (
        "mytriton.backends.cuda.printer",
        "mytriton.backends.mlir.emit",
        "mytriton.backends.mlir.pipeline",
        "mytriton.passes.gpu_lowering.abi",
    ):
        importlib.import_module(target)


def serve(path: str, idle_s: float = 900.0) -> None:
    """Accept RUN lines on ``path`` until lit (the parent) exits or none came for ``idle_s``;
    ``ready`` on stdout once the tool is loaded and the socket listens."""
    import gc
    import signal

    parent = os.getppid()
    _preload()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(64)
    gc.collect()
    gc.freeze()  # the forks share these pages instead of copying them when gc walks them
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # forks are reaped by the kernel
    print("ready", flush=True)
    listener.settimeout(1.0)
    last = time.monotonic()
    while os.getppid() == parent and time.monotonic() - last < idle_s:
        try:
            conn, _ = listener.accept()
        except TimeoutError:
            continue
        last = time.monotonic()
        if os.fork() == 0:
            listener.close()
            try:
                conn.settimeout(None)
                _run_request(conn)
            finally:
                os._exit(1)
        conn.close()
    listener.close()


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve"]:
        serve(sys.argv[2])
    else:
        sys.exit(client(sys.argv[1], sys.argv[2:]))
