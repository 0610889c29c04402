"""gpusim's tensor maps: what a TMA copy (``nvvm.cp.async.bulk.tensor.shared.cluster.global``)
reads to know the tensor, its box and the shared-memory swizzle.

On a GPU a tensor map is CUDA's opaque 128-byte ``CUtensorMap`` (``cuTensorMapEncodeTiled``);
gpusim has no addresses to put in one, so the runtime passes this int64 array instead (a pointer
parameter, as the GPU's map is), which ``encode_gpusim_tensor_map`` builds, checking CUDA's
limits, and the copy's rule decodes (``decode_gpusim_tensor_map``, the same checks)::

    [0] MAGIC (0x4d415054, "TPAM")
    [1] the kernel parameter whose array holds the tensor (its ``Ptr``'s ``arg``)
    [2] the tensor's first byte, from that array's first element
    [3] the element size in bytes
    [4] the rank r (1 to 5)
    then r dims (elements), r strides (bytes), r box dims (elements), innermost first
    (the innermost stride is the element size: rows are contiguous), then the swizzle in bytes
    (0, 32, 64 or 128)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

MAGIC = 0x4D415054  # "TPAM"
HEADER_WORDS = 5
#: CUDA's element sizes (``CU_TENSOR_MAP_DATA_TYPE_*``)
ELEMENT_BYTES = (1, 2, 4, 8)
MAX_RANK = 5
#: a box dimension's largest size (``boxDim[i] <= 256``)
MAX_BOX = 256
#: strides, the box's innermost extent and the tensor's base address: multiples of this
TMA_ALIGNMENT = 16
#: the swizzle modes (bytes of the swizzled span; 0: none)
SWIZZLES = (0, 32, 64, 128)
#: CUDA's limits on a dimension (``globalDim[i] <= 2^32``) and a stride (``< 2^40``)
MAX_DIM = 1 << 32
MAX_STRIDE = 1 << 40


def map_words(rank: int) -> int:
    """The int64 words of a map of ``rank`` dimensions."""
    return HEADER_WORDS + 3 * rank + 1


@dataclass(frozen=True)
class TensorMap:
    """A decoded tensor map (every sequence innermost dimension first)."""

    base_param: int
    base_offset: int
    element_bytes: int
    dims: tuple[int, ...]
    strides: tuple[int, ...]  #: bytes
    box: tuple[int, ...]
    swizzle: int

    @property
    def rank(self) -> int:
        return len(self.dims)

    @property
    def box_inner_bytes(self) -> int:
        """The bytes of one row of the box (its innermost dimension), contiguous in shared
        memory."""
        return self.box[0] * self.element_bytes

    @property
    def box_bytes(self) -> int:
        """The bytes a copy writes to shared memory (and completes on its mbarrier)."""
        return int(np.prod(self.box)) * self.element_bytes

    @property
    def extent(self) -> int:
        """The bytes from the tensor's first byte to past its last element."""
        return sum((d - 1) * s for d, s in zip(self.dims, self.strides, strict=True)) + (
            self.element_bytes
        )

    def validate(self) -> None:
        """CUDA's limits on a tiled tensor map (``cuTensorMapEncodeTiled``); ``ValueError``
        naming the first one broken."""
        r = self.rank
        if not 1 <= r <= MAX_RANK:
            raise ValueError(f"a tensor map has rank 1 to {MAX_RANK}, not {r}")
        if len(self.strides) != r or len(self.box) != r:
            raise ValueError(
                f"a rank-{r} tensor map needs {r} strides and {r} box dims, not "
                f"{len(self.strides)} and {len(self.box)}"
            )
        if self.base_param < 0:
            raise ValueError(f"the base parameter must be a parameter index, not {self.base_param}")
        if self.element_bytes not in ELEMENT_BYTES:
            raise ValueError(
                f"the element size must be one of {ELEMENT_BYTES} bytes, not {self.element_bytes}"
            )
        if self.base_offset % TMA_ALIGNMENT:
            raise ValueError(
                f"the tensor's base (byte {self.base_offset} of its array) must be "
                f"{TMA_ALIGNMENT}-byte aligned"
            )
        for i, d in enumerate(self.dims):
            if not 1 <= d <= MAX_DIM:
                raise ValueError(f"dim {i} must be 1 to 2^32 elements, not {d}")
        if self.strides[0] != self.element_bytes:
            raise ValueError(
                f"the innermost stride must be the element size ({self.element_bytes} bytes), "
                f"not {self.strides[0]}: the innermost dimension is contiguous"
            )
        for i, s in enumerate(self.strides[1:], 1):
            if s <= 0 or s % TMA_ALIGNMENT or s >= MAX_STRIDE:
                raise ValueError(
                    f"stride {i} must be a positive multiple of {TMA_ALIGNMENT} bytes below "
                    f"2^40, not {s}"
                )
        for i, b in enumerate(self.box):
            if not 1 <= b <= MAX_BOX:
                raise ValueError(f"box dim {i} must be 1 to {MAX_BOX}, not {b}")
        if self.box_inner_bytes % TMA_ALIGNMENT:
            raise ValueError(
                f"the box's innermost extent ({self.box[0]} x {self.element_bytes} bytes) must be "
                f"a multiple of {TMA_ALIGNMENT} bytes"
            )
        if self.swizzle not in SWIZZLES:
            raise ValueError(f"the swizzle must be one of {SWIZZLES} bytes, not {self.swizzle}")
        if self.swizzle and self.box_inner_bytes > self.swizzle:
            raise ValueError(
                f"the box's innermost extent ({self.box_inner_bytes} bytes) must not exceed the "
                f"{self.swizzle}-byte swizzle span"
            )

    def words(self) -> np.ndarray:
        return np.array(
            [
                MAGIC,
                self.base_param,
                self.base_offset,
                self.element_bytes,
                self.rank,
                *self.dims,
                *self.strides,
                *self.box,
                self.swizzle,
            ],
            np.int64,
        )


def encode_gpusim_tensor_map(
    base_param: int,
    base_offset: int,
    element_bytes: int,
    dims: Sequence[int],
    strides_bytes: Sequence[int],
    box: Sequence[int],
    swizzle: int,
) -> np.ndarray:
    """The int64 words of a gpusim tensor map (the module doc's layout): the tensor in the
    array of kernel parameter ``base_param``, from its byte ``base_offset``, of
    ``element_bytes``-byte elements; ``dims``, ``strides_bytes`` and ``box`` innermost first.
    ``ValueError`` where CUDA's ``cuTensorMapEncodeTiled`` would refuse the map."""
    tm = TensorMap(
        int(base_param),
        int(base_offset),
        int(element_bytes),
        tuple(int(d) for d in dims),
        tuple(int(s) for s in strides_bytes),
        tuple(int(b) for b in box),
        int(swizzle),
    )
    tm.validate()
    return tm.words()


def decode_gpusim_tensor_map(words: np.ndarray) -> TensorMap:
    """The map in ``words`` (at least its header; exactly ``map_words(rank)`` words read),
    validated; ``ValueError`` for anything but a map ``encode_gpusim_tensor_map`` makes."""
    w = [int(x) for x in np.asarray(words, np.int64).reshape(-1)]
    if len(w) < HEADER_WORDS or w[0] != MAGIC:
        raise ValueError(
            f"not a gpusim tensor map (word 0 must be {MAGIC:#x}, the magic "
            "encode_gpusim_tensor_map writes)"
        )
    rank = w[4]
    if not 1 <= rank <= MAX_RANK:
        raise ValueError(f"a tensor map has rank 1 to {MAX_RANK}, not {rank}")
    if len(w) < map_words(rank):
        raise ValueError(f"a rank-{rank} tensor map has {map_words(rank)} words, not {len(w)}")
    r = rank
    tm = TensorMap(
        base_param=w[1],
        base_offset=w[2],
        element_bytes=w[3],
        dims=tuple(w[5 : 5 + r]),
        strides=tuple(w[5 + r : 5 + 2 * r]),
        box=tuple(w[5 + 2 * r : 5 + 3 * r]),
        swizzle=w[5 + 3 * r],
    )
    tm.validate()
    return tm


def swizzle_addresses(addresses: np.ndarray, swizzle: int) -> np.ndarray:
    """Where the TMA unit puts the shared bytes at ``addresses`` (absolute shared addresses),
    swizzled: the 16-byte chunk bits [4:6] XOR bits [7:9] for 128 bytes, [4:5] ^ [7:8] for 64,
    bit 4 ^ bit 7 for 32 (CUTLASS's ``Swizzle<3,4,3>``, ``<2,4,3>``, ``<1,4,3>``)."""
    if swizzle == 0:
        return addresses
    mask = {32: 1, 64: 3, 128: 7}[swizzle]
    return addresses ^ (((addresses >> 7) & mask) << 4)
