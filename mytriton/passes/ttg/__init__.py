"""Passes over the ``ttg`` level: layouts, the tensor-core choice, dot legalization, pipelining.

``assign_layouts`` (``tt-assign-layouts``, over ``layout_values`` and ``layout_regions``)
applies each op's result-layout rule (``layout_rules``: ``RESULT_LAYOUT``,
``@RESULT_LAYOUT.register(Op)``) over the defaults of ``layout_policy`` and ``shape_layouts``;
``mma_policy`` says which dots run on tensor cores; ``legalize_fp8_dots`` and
``legalize_tf32x3_dots`` rewrite the dots a chip cannot run as written; ``pipelining/`` is
software pipelining.
"""
