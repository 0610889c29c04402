"""A fork server for lit's RUN lines: ``mytriton-opt`` and ``%python`` without their start-up.

Each ``mytriton-opt`` or kernel-script process spends most of its life importing xDSL and
mytriton and building the dialects. lit.cfg.py starts one server per lit run (``--serve``),
which imports all of that once, then forks a copy of itself for each RUN line: the client (this
file run with ``python -I -S``, importing nothing but the standard library) hands the copy its
command, working directory, environment and stdin/stdout/stderr (file descriptors, over a Unix
socket), and exits with the copy's status. The copy runs what the real process runs on the same
input: ``mytriton.tools.opt.main`` (the console script's code) or the script as ``__main__``,
then ends as Python does (non-daemon threads joined, ``atexit`` handlers, streams flushed). The
process start itself is tested by pytest (tests/test_opt_tool.py runs the real tool).

A client that finds no server runs the real command instead (``os.execv``); lit.cfg.py starts
none under ``MYTRITON_LIT_SERVER=0`` or where fork or fd passing is missing.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing in the client
if TYPE_CHECKING:
    import socket
    from typing import Any

# The client imports only modules built into the interpreter (its start is part of every RUN
# line): requests go as marshal data (both ends are this Python), lengths and statuses as 4
# big-endian bytes.
MODES = ("mytriton-opt", "python")
_SIZE = 4


def _real_command(mode: str) -> list[str]:
    """What lit.cfg.py substitutes for ``mode`` without the server."""
    if mode == "python":
        return [sys.executable]
    script = os.path.join(os.path.dirname(sys.executable), "mytriton-opt")
    return [script] if os.path.exists(script) else [sys.executable, "-m", "mytriton.tools.opt"]


def client(path: str, mode: str, args: list[str]) -> int:
    """Run ``mode args`` in a fork of the server listening at ``path``; its exit status."""
    import _socket
    import array
    import marshal

    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        if mode == "python" and (not args or (args[0].startswith("-") and args[0] != "-c")):
            raise OSError("only `python script.py args` and `python -c code args` are served")
        sock.connect(path)
    except OSError:
        sock.close()
        command = _real_command(mode)
        os.execv(command[0], [*command, *args])
    request = marshal.dumps(
        {"mode": mode, "args": args, "cwd": os.getcwd(), "env": dict(os.environ)}
    )
    fds = (_socket.SOL_SOCKET, _socket.SCM_RIGHTS, array.array("i", [0, 1, 2]))
    sent = sock.sendmsg([len(request).to_bytes(_SIZE, "big") + request], [fds])
    sock.sendall((len(request).to_bytes(_SIZE, "big") + request)[sent:])
    reply = b""
    while len(reply) < _SIZE:
        chunk = sock.recv(_SIZE - len(reply))
        if not chunk:
            print(f"{mode} (lit tool server): the forked process died", file=sys.stderr)
            return 1
        reply += chunk
    return int.from_bytes(reply, "big", signed=True)


def _exit_status(code: object) -> int:
    """The status a Python process exits with for ``sys.exit(code)``."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def _receive(conn: socket.socket) -> dict[str, Any]:
    """The client's request; its stdin, stdout and stderr become this process's."""
    import marshal
    import socket

    data, fds, _flags, _addr = socket.recv_fds(conn, 1 << 16, 3)
    length = int.from_bytes(data[:_SIZE], "big")
    data = data[_SIZE:]
    while len(data) < length:
        chunk = conn.recv(length - len(data))
        if not chunk:
            os._exit(1)
        data += chunk
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    request: dict[str, Any] = marshal.loads(data)
    return request


def _run_python(args: list[str]) -> None:
    """``python script args...`` (the script as ``__main__``, its folder first on sys.path)
    or ``python -c code args...`` (the code in a fresh ``__main__``, the working folder first)."""
    import runpy

    if args[0] == "-c":
        import types

        sys.argv = ["-c", *args[2:]]
        sys.path[0] = ""
        main = types.ModuleType("__main__")
        sys.modules["__main__"] = main
        exec(compile(args[1], "<string>", "exec"), main.__dict__)
        return
    script = args[0]
    sys.argv = list(args)
    sys.path[0] = os.path.dirname(os.path.realpath(script))
    runpy.run_path(script, run_name="__main__")


def _print_uncaught(error: BaseException, script: str | None) -> None:
    """The traceback Python prints for an uncaught exception (from the script's frame on)."""
    import traceback

    tb = error.__traceback__
    if script is not None:  # python: the frames from the script's (or the -c code's) on;
        # none for a script that does not compile (Python prints just the SyntaxError)
        script = "<string>" if script == "-c" else script
        while tb is not None and tb.tb_frame.f_code.co_filename != script:
            tb = tb.tb_next
    traceback.print_exception(type(error), error, tb)


def _finish(status: int) -> int:
    """Python's own exit: wait for non-daemon threads, run atexit handlers, flush streams."""
    import atexit
    import threading

    shutdown = getattr(threading, "_shutdown", None)
    if shutdown is not None:
        shutdown()
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except OSError:  # as Python's exit: a stream it cannot flush makes the status 120
            status = status or 120
    return status


def _run_request(conn: socket.socket) -> None:
    """In the fork: take over the client's files, cwd and environment, run, reply."""
    request = _receive(conn)
    os.chdir(str(request["cwd"]))
    os.environ.clear()
    os.environ.update(request["env"])
    mode, args = request["mode"], list(request["args"])
    script = args[0] if mode == "python" else None
    try:
        if mode == "python":
            _run_python(args)
        else:
            from mytriton.tools.opt import main

            sys.argv = ["mytriton-opt", *args]  # the console script's folder is sys.path[0]
            main(args)
        status = 0
    except SystemExit as e:
        status = _exit_status(e.code)
    except BaseException as e:
        _print_uncaught(e, script)
        status = 1
    status = _finish(status)
    conn.sendall(status.to_bytes(_SIZE, "big", signed=True))
    os._exit(status)


def _preload() -> None:
    """What RUN lines use, imported once: every mytriton module (the tool, its dialects and
    passes, the compiler and backends the kernel scripts run), and the entry-point scans
    (importlib.metadata caches them per folder). Nothing is run, so no cache is filled."""
    import importlib
    import pkgutil

    import mytriton

    for info in pkgutil.walk_packages(mytriton.__path__, "mytriton."):
        if info.name.endswith("__main__"):
            continue
        try:
            importlib.import_module(info.name)
        except Exception:  # an optional dependency missing here: imported (or not) on use
            continue
    from xdsl.universe import Universe

    from mytriton.passes.registry import available_passes

    for factory in available_passes().values():
        factory()
    Universe.get_multiverse()


def serve(path: str, idle_s: float = 900.0) -> None:
    """Accept RUN lines on ``path`` until lit (the parent) exits, a SIGTERM comes, or none
    came for ``idle_s``; ``ready`` on stdout once everything is loaded and the socket listens.
    The forks are waited for (so their CPU time counts as the server's, and lit's)."""
    import gc
    import signal
    import socket
    import time

    def stop(signum: int, frame: object) -> None:
        raise SystemExit(0)

    parent = os.getppid()
    # as in the console script (python script.py puts the script's folder there instead):
    # not this folder, whose test folders (cuda/, tools/...) would import as packages
    sys.path[0] = os.path.dirname(sys.executable)
    _preload()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(64)
    gc.collect()
    gc.freeze()  # the forks share these pages instead of copying them when gc walks them
    signal.signal(signal.SIGTERM, stop)
    print("ready", flush=True)
    listener.settimeout(1.0)
    last = time.monotonic()
    try:
        while os.getppid() == parent and time.monotonic() - last < idle_s:
            _reap(block=False)
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            last = time.monotonic()
            if os.fork() == 0:
                signal.signal(signal.SIGTERM, signal.SIG_DFL)
                listener.close()
                try:
                    conn.settimeout(None)
                    _run_request(conn)
                except BaseException:  # the server's own failure: said on the client's stderr
                    import traceback

                    traceback.print_exc()
                    conn.sendall((1).to_bytes(_SIZE, "big", signed=True))
                finally:
                    os._exit(1)
            conn.close()
    finally:
        listener.close()
        _reap(block=True)


def _reap(block: bool) -> None:
    """Wait for the forks that ended (all of them when ``block``)."""
    while True:
        try:
            pid, _status = os.waitpid(-1, 0 if block else os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve"]:
        serve(sys.argv[2])
    elif len(sys.argv) >= 3 and sys.argv[2] in MODES:
        sys.exit(client(sys.argv[1], sys.argv[2], sys.argv[3:]))
    else:
        sys.exit(f"usage: {sys.argv[0]} --serve SOCKET | SOCKET {{{','.join(MODES)}}} ARGS...")
