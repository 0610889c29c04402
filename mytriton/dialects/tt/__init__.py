"""The ``tt`` dialect: Triton's block-level IR (ops, types, semantics, folding).

``dialect`` builds ``TT`` once from the op lists of the modules that define the ops, each with
its verifier and folder: ``core`` (which gathers ``program``, ``broadcast``, ``memory``,
``factories``, ``dot``, and ``reduce``'s reductions), ``elementwise`` (which gathers
``arithmetic``, ``compare``, ``unary`` and ``casts``, over ``elementwise_base``) and ``math``
(every elementwise op names its NumPy function in ``semantics``, which both the folder and the
interpreter run), ``shape``, ``atomic``, ``debug``, ``pointer_casts``, ``sreg`` and
``tensor_map``. ``types`` and ``traits`` hold the types and verifier helpers, ``canonicalize``
the rewrite patterns (``@canonicalizes(Op)``), ``constants`` compile-time values; the dtype
facts of this level are here too (``fp8`` formats, the libdevice tables).
"""
