"""The NVIDIA toolchain and driver: CUDA driver calls, the launcher, ptxas, tensor maps."""
