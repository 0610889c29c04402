"""Host-side helpers Triton users call outside kernels (``triton.cdiv``...)."""

from __future__ import annotations


def cdiv(x: int, div: int) -> int:
    """Ceiling division: the number of blocks of size ``div`` covering ``x``."""
    return (x + div - 1) // div


def next_power_of_2(n: int) -> int:
    """The smallest power of two that is >= ``n`` (1 for ``n <= 1``)."""
    n = int(n)
    if n <= 1:
        return 1
    return 1 << (n - 1).bit_length()
