"""The lowering from laid-out `tt` to upstream gpu/arith/math/scf/memref/llvm (one pattern per
source op; see ``driver.Lowering`` and ``docs/gpu-ir.md``)."""
