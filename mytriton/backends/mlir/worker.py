"""Runs MLIR pass pipelines with the upstream Python bindings, in a process of its own.

LLVM's fatal errors ``abort()`` the process that hit them; in this worker they end the worker,
and the user's process reports them. Run as a script (``python worker.py PREFIX``, importing
nothing of mytriton, so it starts fast); ``PREFIX`` is the bindings package (``mlir``,
``ncm_mlir``, ``numba_cuda_mlir._mlir``). Protocol, one JSON object per line:

* the worker first says ``{"ready": true, "version": ...}`` or ``{"ready": false, "error": ...}``;
* each request ``{"source": MLIR text, "pipeline": pass pipeline, "env": {name: value or null}}``
  (the variables MLIR reads to find the CUDA toolkit, set for that run) is answered by
  ``{"ok": bool, "diagnostics": [lines like mlir-opt's], "objects": [[format, base64 bytes]]}``.
"""

from __future__ import annotations

import base64
import importlib
import json
import os
import re
import sys
from typing import Any, TextIO

_LOC_RE = re.compile(r'loc\("((?:[^"\\]|\\.)*)":(\d+):(\d+)\)')
_FORMATS = {1: "offload", 2: "assembly", 3: "bin", 4: "fatbin"}  # gpu::CompilationTarget


def _location(loc: Any) -> str:
    """``file:line:col`` of a location, the way mlir-opt prints it (empty when unknown)."""
    m = _LOC_RE.search(str(loc))
    if m is None:
        return ""
    file = re.sub(r"\\([0-9A-Fa-f]{2})", lambda h: chr(int(h[1], 16)), m[1])
    return f"{file}:{m[2]}:{m[3]}: "


def _lines(diag: Any, severity: str) -> list[str]:
    out = [f"{_location(diag.location)}{severity}: {diag.message}"]
    for note in getattr(diag, "notes", ()):
        out.append(f"{_location(note.location)}note: {note.message}")
    return out


class Worker:
    def __init__(self, prefix: str):
        self.ir = importlib.import_module(prefix + ".ir")
        self.passmanager = importlib.import_module(prefix + ".passmanager")
        self.gpu = importlib.import_module(prefix + ".dialects.gpu")

    def version(self) -> str:
        """The distribution(s) providing the bindings, for the diagnostic report."""
        from importlib import metadata

        top = self.ir.__name__.split(".")[0]
        dists = metadata.packages_distributions().get(top, [])
        return ", ".join(f"{d} {metadata.version(d)}" for d in dict.fromkeys(dists))

    def run(self, source: str, pipeline: str) -> dict[str, Any]:
        ir = self.ir
        diagnostics: list[str] = []

        def handler(diag: Any) -> bool:
            diagnostics.extend(_lines(diag, str(diag.severity).rsplit(".", 1)[-1].lower()))
            return True

        with ir.Context() as ctx:
            ctx.attach_diagnostic_handler(handler)
            try:
                module = ir.Module.parse(source)
                self.passmanager.PassManager.parse(pipeline).run(module.operation)
            except ir.MLIRError as e:
                for d in e.error_diagnostics:
                    diagnostics.extend(_lines(d, "error"))
                if not e.error_diagnostics:
                    diagnostics.append(f"error: {e}")
                return {"ok": False, "diagnostics": diagnostics, "objects": []}
            objects = []
            for op in module.body.operations:
                if op.operation.name != "gpu.binary":
                    continue
                for attr in op.attributes["objects"]:
                    obj = self.gpu.ObjectAttr(attr)
                    fmt = _FORMATS.get(int(obj.format), str(obj.format))
                    objects.append([fmt, base64.b64encode(obj.object).decode("ascii")])
        return {"ok": True, "diagnostics": diagnostics, "objects": objects}


def _reply(out: TextIO, message: dict[str, Any]) -> None:
    out.write(json.dumps(message) + "\n")
    out.flush()


def main() -> None:
    # Our replies go to a private copy of stdout; C++ code writing to fd 1 lands on stderr.
    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    try:
        worker = Worker(sys.argv[1])
        version = worker.version()
    except Exception as e:
        _reply(out, {"ready": False, "error": f"{type(e).__name__}: {e}"})
        return
    _reply(out, {"ready": True, "version": version})
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        for name, value in request.get("env", {}).items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        try:
            _reply(out, worker.run(request["source"], request["pipeline"]))
        except Exception as e:
            _reply(
                out,
                {"ok": False, "diagnostics": [f"error: {type(e).__name__}: {e}"], "objects": []},
            )


if __name__ == "__main__":
    main()
