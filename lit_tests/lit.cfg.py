"""lit configuration: FileCheck tests of the `tt` dialect, mytriton's passes and mytriton-opt.

Run with ``lit -v lit_tests`` from the venv. RUN lines call ``mytriton-opt`` and ``filecheck``
from the same environment as the Python running lit, so an outdated tool elsewhere on PATH is
never picked up.
"""

# ruff: noqa: F821  (lit injects `config`)

import os
import sys

import lit.formats

config.name = "mytriton"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.excludes = ["Output"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
config.test_exec_root = config.test_source_root

bindir = os.path.dirname(sys.executable)
path = config.environment.get("PATH", os.environ.get("PATH", ""))
config.environment["PATH"] = bindir + os.pathsep + path
# The tools import the mytriton of this checkout (a worktree's too), not the one installed in the
# venv: lit passes no PYTHONPATH of its own, and the editable install's finder comes after it.
root = os.path.dirname(config.test_source_root)
config.environment["PYTHONPATH"] = os.pathsep.join(
    p for p in (root, os.environ.get("PYTHONPATH", "")) if p
)
# Passes read MYTRITON_PIPELINE; a value left in the caller's shell must not change results.
config.environment.pop("MYTRITON_PIPELINE", None)

opt = os.path.join(bindir, "mytriton-opt")
if not os.path.exists(opt):  # package not installed as a console script: run the module
    opt = f"{sys.executable} -m mytriton.tools.opt"
config.substitutions.append(("mytriton-opt", opt))
