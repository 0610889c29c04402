"""Passes over the ``tt`` level (before layouts)."""
