"""NVIDIA-level ops the lowering emits (nvvm, ptx) and the upstream ops xDSL lacks.

``dialect`` builds each dialect object once: ``NVVM`` and ``PTX``, and xDSL's ``arith``,
``gpu`` and ``llvm`` extended with the ops of ``upstream`` (``ARITH``, ``GPU``, ``LLVM``). The
NVVM ops are upstream MLIR's, by feature (``nvvm``: warp MMAs, ``ldmatrix``, ``cp.async``;
``wgmma``, ``tma``, ``tensormap`` fences, ``sreg`` special registers, ``nvvm_intrinsics``);
``atomic`` holds LLVM's atomics; the ``ptx_*`` modules are our ``ptx`` ops, where upstream has
no form. Every op here has a row in ``docs/gpu-ir.md``, the contract of the lowered IR.
"""
