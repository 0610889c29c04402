"""mytriton.tools."""
