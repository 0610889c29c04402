"""Tests of the CPU interpreter backend (kernels written as tt IR text)."""
