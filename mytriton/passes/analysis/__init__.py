"""Analyses the passes and the lowering read (axis info, device tensor maps).

``axis_info`` is Triton's AxisInfo (contiguity, divisibility and constancy of each value, for
vectorized accesses); ``device_tensor_maps`` says which ``tt.make_tensor_map`` a TMA copy may
read.
"""
