"""gpusim's tensor maps: what a TMA copy (``nvvm.cp.async.bulk.tensor.shared.cluster.global``)
reads to know the tensor, its box and the shared-memory swizzle.

On a GPU a tensor map is CUDA's opaque 128-byte ``CUtensorMap``, made on the host
(``cuTensorMapEncodeTiled``) or in the kernel (zeroed, then every field set with
``ptx.tensormap.replace``). gpusim has no addresses to put in one, so its map is its own
128-byte packed record (``MAP_DTYPE``), also passed as a pointer parameter or written in a
kernel's scratch; each field lies apart, so ``ptx.tensormap.replace`` writes one
(``write_field``) as the GPU's does. Offsets in bytes, every array innermost dimension first::

      0  u32      magic MAGIC (0x4d415054, "TPAM"): written with every field
      4  u8       rank - 1
      5  u8       elemtype: CUtensorMapDataType code (ELEMENT_BYTES_BY_CODE)
      6  u8       interleave_layout (0: none, the only one modelled)
      7  u8       swizzle_mode: CUtensorMapSwizzle code (SWIZZLE_BY_CODE)
      8  u8       fill_mode (0: zeros, the only one modelled)
      9  u8[5]    element_stride (1: the only one modelled)
     14  -        reserved (zeros)
     16  i64      base_param: the kernel parameter holding the tensor, plus 1 (0: a null
                  global address, what a zeroed map holds)
     24  i64      base_offset: the tensor's first byte, from that parameter's first element
     32  i64[4]   global_stride (bytes): entry i is dimension i + 1's stride
     64  u64[5]   global_dim (elements; 64 bits: CUDA allows 2^32)
    104  u32[5]   box_dim (elements)
    124  -        reserved (zeros)

``encode_gpusim_tensor_map`` packs a map (as 16 int64 words), checking CUDA's limits;
``decode_gpusim_tensor_map`` unpacks one, with the same checks, which a kernel-written map meets
only once every field is set. A map lies 64-byte aligned in its parameter's memory
(``MAP_ALIGNMENT``); a span map (``ttg_tma``) follows its 2-d map right after it,
``SPAN_MAP_OFFSET`` = 128 bytes on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

MAGIC = 0x4D415054  # "TPAM"
#: a map's bytes (``sizeof(CUtensorMap)``) and int64 words
MAP_BYTES = 128
MAP_WORDS = MAP_BYTES // 8
#: where a map must lie (the GPU's ``CUtensorMap`` alignment)
MAP_ALIGNMENT = 64
#: the packed map (the module doc)
MAP_DTYPE = np.dtype(
    {
        "names": [
            "magic",
            "rank",
            "elemtype",
            "interleave_layout",
            "swizzle_mode",
            "fill_mode",
            "element_stride",
            "base_param",
            "base_offset",
            "global_stride",
            "global_dim",
            "box_dim",
        ],
        "formats": [
            "<u4",
            "u1",
            "u1",
            "u1",
            "u1",
            "u1",
            ("u1", 5),
            "<i8",
            "<i8",
            ("<i8", 4),
            ("<u8", 5),
            ("<u4", 5),
        ],
        "offsets": [0, 4, 5, 6, 7, 8, 9, 16, 24, 32, 64, 104],
        "itemsize": MAP_BYTES,
    }
)
#: CUDA's ``CUtensorMapDataType`` codes gpusim knows (the unsigned integers the compiler uses:
#: a copy moves bits), by element bytes, and the reverse
ELEMENT_BYTES_BY_CODE = {0: 1, 1: 2, 2: 4, 4: 8}
CODE_BY_ELEMENT_BYTES = {b: c for c, b in ELEMENT_BYTES_BY_CODE.items()}
#: CUDA's ``CUtensorMapSwizzle`` codes by swizzle bytes, and the reverse
SWIZZLE_BY_CODE = {0: 0, 1: 32, 2: 64, 3: 128}
CODE_BY_SWIZZLE = {s: c for c, s in SWIZZLE_BY_CODE.items()}
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


@dataclass(frozen=True)
class TensorMap:
    """A decoded tensor map (every sequence innermost dimension first)."""

    base_param: int
    base_offset: int
    element_bytes: int
    dims: tuple[int, ...]
    strides: tuple[int, ...]  #: bytes; the innermost is the element size
    box: tuple[int, ...]
    swizzle: int  #: bytes
    element_strides: tuple[int, ...] | None = None  #: None: all 1
    interleave: int = 0
    fill: int = 0

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
        """CUDA's limits on a tiled tensor map (``cuTensorMapEncodeTiled``), and gpusim's (no
        element strides, interleave or NaN fill); ``ValueError`` naming the first one broken."""
        r = self.rank
        if not 1 <= r <= MAX_RANK:
            raise ValueError(f"a tensor map has rank 1 to {MAX_RANK}, not {r}")
        if len(self.strides) != r or len(self.box) != r:
            raise ValueError(
                f"a rank-{r} tensor map needs {r} strides and {r} box dims, not "
                f"{len(self.strides)} and {len(self.box)}"
            )
        element_strides = self.element_strides or (1,) * r
        if len(element_strides) != r:
            raise ValueError(f"a rank-{r} tensor map needs {r} element strides")
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
        for i, e in enumerate(element_strides):
            if e != 1:
                raise ValueError(
                    f"element stride {i} must be 1 (gpusim models dense boxes only), not {e}"
                )
        if self.interleave:
            raise ValueError(f"the interleave layout must be 0 (none), not {self.interleave}")
        if self.fill:
            raise ValueError(f"the fill mode must be 0 (zeros), not {self.fill}")
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
        """The packed map (a valid one: ``validate`` first) as ``MAP_WORDS`` int64 words."""
        r = self.rank
        raw = np.zeros(MAP_BYTES, np.uint8)
        f = fields_of(raw)
        f["magic"] = MAGIC
        f["rank"] = r - 1
        f["elemtype"] = CODE_BY_ELEMENT_BYTES[self.element_bytes]
        f["interleave_layout"] = self.interleave
        f["swizzle_mode"] = CODE_BY_SWIZZLE[self.swizzle]
        f["fill_mode"] = self.fill
        f["element_stride"][:r] = self.element_strides or (1,) * r
        f["base_param"] = self.base_param + 1
        f["base_offset"] = self.base_offset
        f["global_stride"][: r - 1] = self.strides[1:]
        f["global_dim"][:r] = self.dims
        f["box_dim"][:r] = self.box
        return raw.view(np.int64)


def encode_gpusim_tensor_map(
    base_param: int,
    base_offset: int,
    element_bytes: int,
    dims: Sequence[int],
    strides_bytes: Sequence[int],
    box: Sequence[int],
    swizzle: int,
) -> np.ndarray:
    """The ``MAP_WORDS`` int64 words of a gpusim tensor map (the module doc's layout): the
    tensor in the array of kernel parameter ``base_param``, from its byte ``base_offset``, of
    ``element_bytes``-byte elements; ``dims``, ``strides_bytes`` (the innermost the element
    size) and ``box`` innermost first. ``ValueError`` where CUDA's ``cuTensorMapEncodeTiled``
    would refuse the map."""
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


def fields_of(raw: np.ndarray) -> np.void:
    """The packed map in ``raw`` (``MAP_BYTES`` uint8) as a ``MAP_DTYPE`` record that views
    it: writes to a field, or to an element of an array field, go to ``raw``."""
    assert raw.dtype == np.uint8 and raw.size == MAP_BYTES
    record: np.void = raw.view(MAP_DTYPE)[0]
    return record


def decode_gpusim_tensor_map(data: np.ndarray) -> TensorMap:
    """The map in the first ``MAP_BYTES`` bytes of ``data`` (any dtype: its bytes), validated;
    ``ValueError`` for anything but a complete map."""
    raw = np.ascontiguousarray(data).reshape(-1).view(np.uint8)
    if raw.size < MAP_BYTES:
        raise ValueError(f"a gpusim tensor map has {MAP_BYTES} bytes, not {raw.size}")
    f = fields_of(raw[:MAP_BYTES])
    if int(f["magic"]) != MAGIC:
        raise ValueError(
            f"not a gpusim tensor map (its first 4 bytes must be {MAGIC:#x}, the magic "
            "encode_gpusim_tensor_map and ptx.tensormap.replace write)"
        )
    rank = int(f["rank"]) + 1
    if not 1 <= rank <= MAX_RANK:
        raise ValueError(f"a tensor map has rank 1 to {MAX_RANK}, not {rank}")
    code = int(f["elemtype"])
    if code not in ELEMENT_BYTES_BY_CODE:
        raise ValueError(
            f"unknown elemtype code {code} (gpusim knows {sorted(ELEMENT_BYTES_BY_CODE)}: "
            "CUDA's unsigned integers of 1, 2, 4 and 8 bytes)"
        )
    swizzle = int(f["swizzle_mode"])
    if swizzle not in SWIZZLE_BY_CODE:
        raise ValueError(f"unknown swizzle_mode code {swizzle} (one of {sorted(SWIZZLE_BY_CODE)})")
    if int(f["base_param"]) == 0:
        raise ValueError("the global address is null (no global_address was written)")
    element_bytes = ELEMENT_BYTES_BY_CODE[code]
    tm = TensorMap(
        base_param=int(f["base_param"]) - 1,
        base_offset=int(f["base_offset"]),
        element_bytes=element_bytes,
        dims=tuple(int(d) for d in f["global_dim"][:rank]),
        strides=(element_bytes, *(int(s) for s in f["global_stride"][: rank - 1])),
        box=tuple(int(b) for b in f["box_dim"][:rank]),
        swizzle=SWIZZLE_BY_CODE[swizzle],
        element_strides=tuple(int(e) for e in f["element_stride"][:rank]),
        interleave=int(f["interleave_layout"]),
        fill=int(f["fill_mode"]),
    )
    tm.validate()
    return tm


def write_field(raw: np.ndarray, field: str, ordinal: int | None, value: int) -> None:
    """``ptx.tensormap.replace`` of ``field`` (of dimension ``ordinal``; not the global
    address) to ``value`` (an i32 field's bits as unsigned) in the map in ``raw``, and the magic;
    ``ValueError`` if the value does not fit gpusim's field."""
    f = fields_of(raw)
    info = np.iinfo(MAP_DTYPE[field].base)
    if not info.min <= value <= info.max:
        raise ValueError(f"{field} {value} does not fit gpusim's field ({info.min} to {info.max})")
    if ordinal is None:
        f[field] = value
    else:
        f[field][ordinal] = value
    f["magic"] = MAGIC


def write_address(raw: np.ndarray, base_param: int, base_offset: int) -> None:
    """``ptx.tensormap.replace`` of ``global_address``: the tensor's parameter and byte offset
    from that parameter's first element, and the magic."""
    f = fields_of(raw)
    f["base_param"] = base_param + 1
    f["base_offset"] = base_offset
    f["magic"] = MAGIC


def field_bytes(field: str, ordinal: int | None) -> tuple[int, int]:
    """The bytes ``[lo, hi)`` of the map that ``ptx.tensormap.replace`` of ``field`` (of
    dimension ``ordinal``) writes, the magic aside: both words of ``global_address``."""
    fields = MAP_DTYPE.fields
    assert fields is not None
    if field == "global_address":
        return fields["base_param"][1], fields["base_offset"][1] + 8
    dtype, lo = fields[field][:2]
    if dtype.subdtype is None:
        return lo, lo + dtype.itemsize
    size = dtype.subdtype[0].itemsize
    lo += (ordinal or 0) * size
    return lo, lo + size


def swizzle_addresses(addresses: np.ndarray, swizzle: int) -> np.ndarray:
    """Where the TMA unit puts the shared bytes at ``addresses`` (absolute shared addresses),
    swizzled: the 16-byte chunk bits [4:6] XOR bits [7:9] for 128 bytes, [4:5] ^ [7:8] for 64,
    bit 4 ^ bit 7 for 32 (CUTLASS's ``Swizzle<3,4,3>``, ``<2,4,3>``, ``<1,4,3>``)."""
    if swizzle == 0:
        return addresses
    mask = {32: 1, 64: 3, 128: 7}[swizzle]
    return addresses ^ (((addresses >> 7) & mask) << 4)
