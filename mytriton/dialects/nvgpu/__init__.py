"""NVIDIA-level ops the lowering emits (nvvm, ptx) and the upstream ops xDSL lacks."""
