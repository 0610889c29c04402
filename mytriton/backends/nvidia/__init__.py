"""What the two GPU backends share once they have PTX: the CUDA driver, the launcher, ptxas and
tensor maps.

``device_backend`` is ``DeviceBackend``, the base of ``CudaBackend`` and ``MlirBackend`` (load,
launch, launch code); ``cuda_driver`` the driver calls (devices, modules, streams, launches) and
``device_launcher`` the launch code generated per kernel, framework and device (``LaunchCode``);
``ptxas`` and ``ptx_directives`` make the cubin; ``tensor_maps`` and ``cuda_tensor_map`` the
tensor maps of TMA copies; ``nvidia_fp8`` Triton's NVIDIA rules on fp8 dtypes;
``toolchain_identity`` what the disk cache keys GPU kernels on.
"""
