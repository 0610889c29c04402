"""Passes over mytriton's IR, by level, and the machinery that names and runs them.

- ``registry``: pass name -> pass class (xDSL's canonicalize/cse/dce, ours, plugins from the
  ``mytriton.passes`` entry-point group).
- ``pipeline``: runs a pipeline string, verifying after each pass; the `tt` pipeline every
  kernel goes through (``MYTRITON_PIPELINE`` overrides it).
- ``tt/``, ``ttg/``: the passes of each level (simplification and LICM; layouts, dot
  legalization, pipelining); ``analysis/``: what passes and the lowering read (axis info).
- ``gpu_lowering/``: laid-out `tt` -> upstream dialects, shared by gpusim and both GPU
  emitters; its ``lower_to_gpu`` holds the two pipelines that make ``asm["ttg"]`` and
  ``asm["gpu"]``.
- ``module_body``: for passes that build their result as a new module.

Submodules are imported on demand, so naming passes stays cheap.
"""
