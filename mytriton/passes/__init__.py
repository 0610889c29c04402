"""Passes over mytriton's IR and the machinery that names and runs them.

- ``registry``: pass name -> pass class (xDSL's canonicalize/cse/dce/licm, ours, plugins
  from the ``mytriton.passes`` entry-point group).
- ``pipeline``: the `tt` pipeline every kernel goes through (``MYTRITON_PIPELINE`` overrides
  it), verified after each pass.
- ``simplify``: ``tt-simplify``, canonicalize + CSE to a fixpoint.
- ``assign_layouts``, ``gpu_lowering``, ``lower_to_gpu``: `tt` -> `ttg` layouts -> upstream
  dialects, shared by both GPU emitters.

Submodules are imported on demand, so naming passes stays cheap.
"""
