"""Command-line tools and ``triton.tools``: ``mytriton-opt`` (``opt``) and the host-side
``TensorDescriptor`` (``tensor_descriptor``).
"""
