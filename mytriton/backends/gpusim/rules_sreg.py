"""The special-register reads (``dialects/upstream_sreg``): values a GPU could give.

``nvvm.read.ptx.sreg.globaltimer`` is the host's ``time.perf_counter_ns()`` when the lanes
execute the op (the same for all of them, as lockstep runs them at once; it only grows);
``nvvm.read.ptx.sreg.smid`` is 0: one multiprocessor runs every program, as on a GPU with one.
"""

from __future__ import annotations

import time

import numpy as np
from xdsl.ir import Operation

from mytriton.backends.gpusim.compiler import Compiler
from mytriton.backends.gpusim.machine import Machine, Step
from mytriton.backends.gpusim.registry import rule


@rule("nvvm.read.ptx.sreg.globaltimer")
def _globaltimer(op: Operation, c: Compiler) -> Step:
    out = op.results[0]

    def step(m: Machine) -> None:
        m.env[out] = np.full(m.lanes, time.perf_counter_ns(), np.int64)

    return step


@rule("nvvm.read.ptx.sreg.smid")
def _smid(op: Operation, c: Compiler) -> Step:
    out = op.results[0]

    def step(m: Machine) -> None:
        m.env[out] = np.zeros(m.lanes, np.int32)

    return step
