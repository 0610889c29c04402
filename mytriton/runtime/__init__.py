"""mytriton.runtime."""
