"""mytriton.passes."""
