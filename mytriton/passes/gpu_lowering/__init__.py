"""The lowering from laid-out `tt` to upstream gpu/arith/math/scf/memref/vector/llvm and our
nvvm/ptx ops (one pattern per source op; see ``driver.Lowering`` and ``docs/gpu-ir.md``).

``lower_to_gpu`` holds the ``tt-lower-to-gpu`` pass and the two named pipelines ``@jit`` runs
(``TTG_PIPELINE``, ``GPU_PIPELINE``); ``driver`` walks the kernel and ``context`` is the state
the patterns share; ``rules`` holds ``LOWERING``, one ``LowerX`` pattern per op
(``@lowers(Op)``), written in the modules by op family (elementwise, memory, control flow,
reductions and scans, shape ops, layout conversions, dots on FMA units and tensor cores, shared
tiles, TMA, atomics, debugging, special registers, libdevice, fp8). ``abi`` is the launch ABI
the emitters read; ``dynamic_shared`` and ``signless`` are the last steps.
"""
