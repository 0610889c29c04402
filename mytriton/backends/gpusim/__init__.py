"""gpusim: a CPU oracle for the lowered GPU IR (``docs/gpu-ir.md``).

It runs the ``gpu.func`` of a lowered module on NumPy exactly as a GPU would run the block:
all threads of a program in lockstep, one NumPy entry per thread, with per-thread control flow
masks, and checks for what a GPU would fault on or leave undefined (out-of-bounds accesses,
divergent barriers or shuffles, shared-memory races, replicated read-modify-writes of global
memory, and uninitialised reads).

``compiler`` turns each op into a closure through the ``RULES`` table of ``registry`` (one
``@rule("dialect.op")`` per op name, in the ``rules_*`` modules by dialect or feature);
``machine`` and ``values`` are a batch of programs and its per-thread values; the memories and
what they check are ``shared_memory``, ``global_memory``, ``global_races``, ``mbarriers``,
``warpgroups`` and the tensor-map modules; ``launch`` runs a grid (``run_lowered``) and
``backend`` is ``GpuSimBackend``.
"""

from mytriton.backends.gpusim.backend import GpuSimBackend
from mytriton.backends.gpusim.errors import SimulationError
from mytriton.backends.gpusim.launch import SimKernel, run_lowered

__all__ = ["GpuSimBackend", "SimKernel", "SimulationError", "run_lowered"]
