"""Analyses the passes and the lowering read (axis info, device tensor maps)."""
