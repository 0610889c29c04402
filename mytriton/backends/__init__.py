"""mytriton.backends."""
