"""Passes over the ``ttg`` level: layouts, the tensor-core choice, dot legalization, pipelining."""
