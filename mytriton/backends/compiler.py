"""``triton.backends.compiler``: ``GPUTarget``, ``BaseBackend``, ``Language``
(``mytriton/compat/target.py``)."""

from __future__ import annotations

from mytriton.compat.target import BaseBackend, GPUTarget, Language

__all__ = ["BaseBackend", "GPUTarget", "Language"]
