"""The ``tt`` dialect: Triton's block-level IR (ops, types, semantics, folding)."""
