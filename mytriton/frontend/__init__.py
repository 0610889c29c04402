"""mytriton.frontend."""
