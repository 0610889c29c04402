"""``python -m mytriton.backends.mlir``: print which MLIR providers and CUDA toolkit are used."""

from mytriton.backends.mlir import toolchain

print(toolchain())
