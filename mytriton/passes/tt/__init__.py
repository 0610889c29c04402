"""Passes over the ``tt`` level (before layouts): the ``tt-opt`` pipeline's simplification and
loop-invariant code motion.

``simplify`` is ``tt-simplify`` (canonicalize and CSE to a fixpoint; the patterns live with the
ops, ``dialects/tt/canonicalize.py``), ``licm`` xDSL's LICM that keeps out of loops marked
``tl.range(..., disable_licm=True)``.
"""
