"""gpusim's tensor maps written in the kernel (``rules_tensormap``): thread 0 zeroes a slot of a
scratch array, sets every field with ``ptx.tensormap.replace``, releases and acquires it, then
copies a box through it, which must land as the same box through a host-made map does; the
map's bytes must be the host encoder's. A copy through a map not fenced (or changed since),
a misaligned slot, a bad field and a rank mismatch fail, naming the op.

The lowering's way too: thread 0 zeroes a shared slot and replaces the fields there, warp 0
copies the map to its global slot with ``ptx.tensormap.cp_fenceproxy`` (which releases it),
thread 0 acquires it; a 2-d map alone, or with the 5-d span map 128 bytes on. An incomplete
warp, lanes disagreeing, a misplaced or unzeroed shared slot, another warp's writes without a
barrier, and a copy without the acquire (or after a store to the map) fail."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from mytriton.backends.gpusim import SimulationError, run_lowered
from mytriton.backends.gpusim.tensor_maps import MAP_BYTES, encode_gpusim_tensor_map
from tests.gpusim.util import gpu_module
from tests.tma_samples import THREADS, tma_reference

INNER, BOX_ROWS, SWIZZLE = 64, 16, 128  # an f16 box of 64 x 16, 128-byte swizzle
PLANES, ROWS, COLUMNS, PITCH, ROWS_ALLOCATED = 3, 40, 100, 104, 43
SCRATCH = 1024
#: the steps of thread 0 (``@t``: of thread ``t``) in the default kernel
FENCED = ("write", "release", "acquire", "copy")
#: the i32 immediates the default map's fields take, by (field, ordinal)
CODES: dict[tuple[str, int | None], int] = {
    ("elemtype", None): 1,
    ("interleave_layout", None): 0,
    ("fill_mode", None): 0,
}


def _field(name: str, ordinal: int | None, value: str, ty: str = "i32") -> str:
    props = f'field = "{name}"' + ("" if ordinal is None else f", ordinal = {ordinal} : i32")
    return f'"ptx.tensormap.replace"(%map, {value}) <{{{props}}}> : (!llvm.ptr<1>, {ty}) -> ()'


def _zero() -> str:
    """Zero the map's 16 words (ordinary stores)."""
    lines = ["%zero64 = arith.constant 0 : i64"]
    for k in range(MAP_BYTES // 8):
        lines += [
            f"%wi{k} = arith.constant {k} : i64",
            f"%w{k} = llvm.getelementptr %map[%wi{k}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i64",
            f"llvm.store %zero64, %w{k} {{alignment = 8 : i64}} : i64, !llvm.ptr<1>",
        ]
    return "\n        ".join(lines)


def _fields(rank: int, overrides: dict[tuple[str, int | None], int], skip: set[str]) -> str:
    """Replace the map's fields in the lowering's order (where a field has no SSA value, or
    ``overrides`` has one, a constant ``%k_*`` holds it)."""
    lines = []
    fields: list[tuple[str, int | None, str]] = [("global_address", None, "%src")]
    fields.append(("rank", None, ""))
    fields += [("box_dim", d, "") for d in range(rank)]
    fields += [("global_dim", d, f"%d{d}") for d in range(rank)]
    fields += [("global_stride", d, f"%s{d + 1}") for d in range(rank - 1)]
    fields += [("element_stride", d, "") for d in range(rank)]
    fields += [(f, None, "") for f in ("elemtype", "interleave_layout", "swizzle_mode")]
    fields.append(("fill_mode", None, ""))
    defaults: dict[tuple[str, int | None], int] = {
        ("rank", None): rank - 1,
        ("swizzle_mode", None): 3,
        **{("box_dim", d): (INNER, BOX_ROWS, 1, 1, 1)[d] for d in range(rank)},
        **{("element_stride", d): 1 for d in range(rank)},
        **CODES,
    }
    for name, ordinal, value in fields:
        if name in skip:
            continue
        key = (name, ordinal)
        ty = {"global_address": "!llvm.ptr<1>", "global_stride": "i64"}.get(name, "i32")
        if key in overrides or not value:
            const = f"%k_{name}_{ordinal}"
            number = overrides.get(key, defaults.get(key))
            lines.append(f"{const} = arith.constant {number} : {ty}")
            value = const
        lines.append(_field(name, ordinal, value, ty))
    return "\n        ".join(lines)


def tensormap_copy_module(
    rank: int = 2,
    steps: Sequence[str] = FENCED,
    *,
    copy_rank: int | None = None,
    overrides: dict[tuple[str, int | None], int] | None = None,
    skip: Sequence[str] = (),
    per_program: bool = False,
    acquire_at: int = 0,
) -> ModuleOp:
    """``k(src: f16*, scratch: i8*, out: f16*, slot: i64, d0.., s1.., x0..: i32)``: the map of
    the tensor at ``src`` (dims ``d``, byte strides ``s`` of dims 1 on) in ``scratch`` at byte
    ``slot`` (plus 256 per program where ``per_program``), written, fenced and copied through
    by thread 0 in the order of ``steps`` (``write``: zero it and replace every field, or
    ``fields`` only, but ``skip`` and with ``overrides``; ``release``; ``acquire`` of the map,
    ``acquire_at`` bytes on; ``copy``; ``store``: an ordinary store of a map byte;
    ``name@t``: by thread ``t``); the box at the coordinates ``x`` lands in the shared tile,
    which every thread then copies to ``out``."""
    copy_rank = copy_rank or rank
    n = INNER * BOX_ROWS
    tile_t = f"memref<{n}xf16, 3 : i64>"
    globals_ = f"""
    "memref.global"() <{{sym_name = "tile", type = {tile_t}, initial_value,
      sym_visibility = "private", alignment = 1024 : i64}}> : () -> ()
    "memref.global"() <{{sym_name = "bar", type = memref<1xi64, 3 : i64>, initial_value,
      sym_visibility = "private", alignment = 8 : i64}}> : () -> ()"""
    coordinates = ", ".join(f"%x{d}" for d in range(copy_rank))
    fields = _fields(rank, overrides or {}, set(skip))
    bodies = {
        "write": f"{_zero()}\n        {fields}",
        "fields": fields,
        "release": "nvvm.fence.proxy.release <gpu>",
        "acquire": f"""%acq = arith.constant {acquire_at} : i64
        %am = llvm.getelementptr %map[%acq] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
        %ag = llvm.addrspacecast %am : !llvm.ptr<1> to !llvm.ptr
        nvvm.fence.proxy.acquire <gpu> %ag, %c128""",
        "store": "llvm.store %k_byte, %map : i8, !llvm.ptr<1>",
        "copy": f"""nvvm.mbarrier.init %bar, %one : !llvm.ptr<3>, i32
        nvvm.fence.mbarrier.init
        %tx = arith.constant {n * 2} : i32
        nvvm.mbarrier.arrive.expect_tx %bar, %tx : !llvm.ptr<3>, i32
        %d7 = llvm.addrspacecast %dst : !llvm.ptr<3> to !llvm.ptr<7>
        nvvm.cp.async.bulk.tensor.shared.cluster.global %d7, %g, %bar, box[{coordinates}] : \
!llvm.ptr<7>, !llvm.ptr""",
    }
    blocks = []
    for k, step in enumerate(steps):
        name, _, thread = step.partition("@")
        blocks.append(f"""
      %tk{k} = arith.constant {thread or 0} : i32
      %is{k} = arith.cmpi eq, %ti, %tk{k} : i32
      scf.if %is{k} {{
        {bodies[name]}
        scf.yield
      }}""")
    where = "%slot"
    if per_program:
        where = "%at"
    body = f"""
      %t = "gpu.thread_id"() <{{dimension = #gpu<dim x>}}> : () -> index
      %ti = arith.index_cast %t : index to i32
      %b = "gpu.block_id"() <{{dimension = #gpu<dim x>}}> : () -> index
      %bi = arith.index_cast %b : index to i64
      %c256 = arith.constant 256 : i64
      %mine = arith.muli %bi, %c256 : i64
      %at = arith.addi %slot, %mine : i64
      %c0 = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %c128 = arith.constant 128 : i32
      %k_byte = arith.constant 7 : i8
      %map = llvm.getelementptr %scratch[{where}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
      %g = llvm.addrspacecast %map : !llvm.ptr<1> to !llvm.ptr
      %tile = memref.get_global @tile : {tile_t}
      %barm = memref.get_global @bar : memref<1xi64, 3 : i64>
      %ta = "memref.extract_aligned_pointer_as_index"(%tile) : ({tile_t}) -> index
      %ta64 = arith.index_cast %ta : index to i64
      %dst = llvm.inttoptr %ta64 : i64 to !llvm.ptr<3>
      %ba = "memref.extract_aligned_pointer_as_index"(%barm) : (memref<1xi64, 3 : i64>) -> index
      %ba64 = arith.index_cast %ba : index to i64
      %bar = llvm.inttoptr %ba64 : i64 to !llvm.ptr<3>{"".join(blocks)}
      "gpu.barrier"() : () -> ()
      %ticks = arith.constant 1000000 : i32
      nvvm.mbarrier.try_wait.parity %bar, %c0, %ticks : !llvm.ptr<3>, i32, i32
      %lo = arith.constant 0 : index
      %hi = arith.constant {n // THREADS} : index
      %step = arith.constant 1 : index
      scf.for %k = %lo to %hi step %step {{
        %ki = arith.index_cast %k : index to i32
        %threads = arith.constant {THREADS} : i32
        %base = arith.muli %ki, %threads : i32
        %i = arith.addi %base, %ti : i32
        %ii = arith.index_cast %i : i32 to index
        %v = memref.load %tile[%ii] : {tile_t}
        %p = llvm.getelementptr %out[%i] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f16
        llvm.store %v, %p : f16, !llvm.ptr<1>
        scf.yield
      }}"""
    params = [
        "%src: !llvm.ptr<1>",
        "%scratch: !llvm.ptr<1>",
        "%out: !llvm.ptr<1>",
        "%slot: i64",
        *(f"%d{d}: i32" for d in range(rank)),
        *(f"%s{d}: i64" for d in range(1, rank)),
        *(f"%x{d}: i32" for d in range(copy_rank)),
    ]
    return gpu_module(", ".join(params), "f16, i8, f16", body, threads=THREADS, globals_=globals_)


def _planes() -> np.ndarray:
    """PLANES x ROWS_ALLOCATED x PITCH distinct f16 values; the tensor is its first ROWS rows
    and COLUMNS columns of each plane, behind one leading row (the array passed views past it,
    so its first element is not its memory's first byte)."""
    size = PLANES * ROWS_ALLOCATED * PITCH + PITCH
    whole = (np.arange(size) % 1999 + 1).astype(np.float16)
    return whole[PITCH:].reshape(PLANES, ROWS_ALLOCATED, PITCH)


#: the tensor's byte strides (of dims 1 and 2: rows and planes) and dims, innermost first
STRIDES = (PITCH * 2, ROWS_ALLOCATED * PITCH * 2)
DIMS = (COLUMNS, ROWS, PLANES)


def _run(
    module: ModuleOp,
    rank: int,
    coordinates: Sequence[int],
    slot: int = 0,
    grid: tuple[int, int, int] = (1, 1, 1),
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Run the kernel on the planes; returns (planes, scratch, the tile as it lay in shared
    memory)."""
    planes = _planes()
    scratch = np.random.default_rng(0).integers(0, 256, SCRATCH, dtype=np.uint8).view(np.int8)
    out = np.zeros(INNER * BOX_ROWS, np.float16)
    args = [planes, scratch, out, slot, *DIMS[:rank], *STRIDES[: rank - 1], *coordinates]
    run_lowered(module, grid, args)
    return planes, scratch, out


def _expected(planes: np.ndarray, x0: int, x1: int, plane: int = 0) -> np.ndarray:
    tensor = np.ascontiguousarray(planes[plane, :ROWS, :COLUMNS])
    return tma_reference(tensor, x0, x1, INNER, BOX_ROWS, SWIZZLE)


PLACES = {"inside": (8, 4), "past_the_end": (56, 30), "negative": (-8, -5)}


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("slot", [0, 64, 640])
def test_map_written_in_the_kernel_copies_the_box(place: str, slot: int) -> None:
    """The rank-2 map of plane 0; the box lands as through the host's map (swapped dims would
    move the edges past which it reads zeros, a base offset counted from the memory's first
    byte instead of the array's first element would shift it a row)."""
    x0, x1 = PLACES[place]
    planes, _, out = _run(tensormap_copy_module(), 2, (x0, x1), slot)
    np.testing.assert_array_equal(out.view(np.uint16), _expected(planes, x0, x1).view(np.uint16))
    assert out.any()


@pytest.mark.parametrize("plane", [0, 2])
def test_rank_3_map_uses_each_stride_for_its_dimension(plane: int) -> None:
    """Rows and planes have different strides: swapped ordinals would read other rows."""
    planes, _, out = _run(tensormap_copy_module(3), 3, (8, 20, plane))
    np.testing.assert_array_equal(
        out.view(np.uint16), _expected(planes, 8, 20, plane).view(np.uint16)
    )


@pytest.mark.parametrize("rank", [2, 3])
def test_the_written_map_is_the_host_encoders(rank: int) -> None:
    """Byte for byte (the zeroed bytes included): replace writes the layout the copy reads."""
    _, scratch, _ = _run(tensormap_copy_module(rank), rank, (8, 4, 0)[:rank], 128)
    host = encode_gpusim_tensor_map(
        0, 0, 2, DIMS[:rank], (2, *STRIDES[: rank - 1]), (INNER, BOX_ROWS, 1)[:rank], SWIZZLE
    )
    np.testing.assert_array_equal(
        scratch[128 : 128 + MAP_BYTES].view(np.uint8), host.view(np.uint8)
    )


def test_every_program_writes_and_reads_its_own_map() -> None:
    planes, _, out = _run(tensormap_copy_module(per_program=True), 2, (8, 4), 0, grid=(3, 1, 1))
    np.testing.assert_array_equal(out.view(np.uint16), _expected(planes, 8, 4).view(np.uint16))


def test_programs_sharing_a_map_fail() -> None:
    with pytest.raises(SimulationError, match=r"which program \(0, 0, 0\) wrote in the kernel"):
        _run(tensormap_copy_module(), 2, (8, 4), 0, grid=(2, 1, 1))


FENCE_ERRORS = {  # steps -> the message
    ("write", "copy"): r"before that thread's nvvm.fence.proxy.release",
    ("write", "acquire", "copy"): r"before that thread's nvvm.fence.proxy.release",
    ("write", "release", "copy"): r"without an nvvm.fence.proxy.acquire of the map after",
    ("write", "acquire", "release", "copy"): r"without an nvvm.fence.proxy.acquire",
    ("write", "release@1", "acquire", "copy"): r"before that thread's nvvm.fence.proxy.release",
    ("write", "release", "store", "acquire", "copy"): r"bytes changed after its nvvm.fence",
    ("write", "release", "acquire", "write", "copy"): r"before that thread's nvvm.fence",
}


@pytest.mark.parametrize("steps", FENCE_ERRORS, ids=["-".join(s) for s in FENCE_ERRORS])
def test_copy_through_a_map_not_fenced_fails(steps: tuple[str, ...]) -> None:
    with pytest.raises(SimulationError, match=FENCE_ERRORS[steps]) as e:
        _run(tensormap_copy_module(steps=steps), 2, (8, 4))
    assert e.value.op_name == "nvvm.cp.async.bulk.tensor.shared.cluster.global"
    assert "at byte 0 of `scratch`" in str(e.value)


def test_release_and_acquire_by_all_threads_suffice() -> None:
    steps = ("write", *(f"release@{t}" for t in range(4)), "acquire@3", "copy")
    planes, _, out = _run(tensormap_copy_module(steps=steps), 2, (8, 4))
    np.testing.assert_array_equal(out.view(np.uint16), _expected(planes, 8, 4).view(np.uint16))


@pytest.mark.parametrize("slot", [32, 8, SCRATCH - 64])
def test_misplaced_slot_fails(slot: int) -> None:
    """Not 64-byte aligned, or its 128 bytes past the scratch (not zeroed: the stores would
    fail first)."""
    message = "runs past the array" if slot == SCRATCH - 64 else "is not 64-byte aligned"
    steps = ("fields", "release", "acquire", "copy")
    with pytest.raises(SimulationError, match=message) as e:
        _run(tensormap_copy_module(steps=steps), 2, (8, 4), slot)
    assert e.value.op_name == "ptx.tensormap.replace"
    assert e.value.thread == 0


def test_misaligned_acquire_fails() -> None:
    with pytest.raises(SimulationError, match=r"acquired tensor map .* not 64-byte aligned") as e:
        _run(tensormap_copy_module(acquire_at=32), 2, (8, 4))
    assert e.value.op_name == "nvvm.fence.proxy.acquire"


def test_acquire_covers_only_its_map() -> None:
    """Acquiring the 128 bytes after the map (where a span map would lie) does not acquire it."""
    with pytest.raises(SimulationError, match=r"without an nvvm\.fence\.proxy\.acquire"):
        _run(tensormap_copy_module(acquire_at=128), 2, (8, 4))


BAD_FIELDS = [  # (overrides, skipped fields) -> the message
    ({("box_dim", 1): 0}, (), r"box dim 1 must be 1 to 256, not 0"),
    ({("box_dim", 1): 300}, (), r"box dim 1 must be 1 to 256, not 300"),
    ({("elemtype", None): 3}, (), r"unknown elemtype code 3"),
    ({("swizzle_mode", None): 4}, (), r"unknown swizzle_mode code 4"),
    ({("element_stride", 1): 2}, (), r"element stride 1 must be 1"),
    ({("interleave_layout", None): 1}, (), r"the interleave layout must be 0"),
    ({("fill_mode", None): 1}, (), r"the fill mode must be 0"),
    ({("rank", None): 5}, (), r"rank 1 to 5, not 6"),
    ({}, ("global_address",), r"the global address is null"),
    ({}, ("box_dim",), r"box dim 0 must be 1 to 256, not 0"),
    ({("rank", None): 0}, (), r"a copy of 2 coordinates through a rank-1 tensor map"),
]


@pytest.mark.parametrize(
    ("overrides", "skip", "message"), BAD_FIELDS, ids=[m for *_, m in BAD_FIELDS]
)
def test_bad_field_fails_at_the_copy(
    overrides: dict[tuple[str, int | None], int], skip: tuple[str, ...], message: str
) -> None:
    with pytest.raises(SimulationError, match=message) as e:
        _run(tensormap_copy_module(overrides=overrides, skip=skip), 2, (8, 4))
    assert e.value.op_name == "nvvm.cp.async.bulk.tensor.shared.cluster.global"


def test_value_too_wide_for_the_field_fails_at_the_write() -> None:
    with pytest.raises(SimulationError, match=r"element_stride 256 does not fit") as e:
        _run(tensormap_copy_module(overrides={("element_stride", 0): 256}), 2, (8, 4))
    assert e.value.op_name == "ptx.tensormap.replace"


def test_copy_of_another_rank_fails() -> None:
    """A complete rank-3 map copied with 2 coordinates."""
    with pytest.raises(SimulationError, match=r"a copy of 2 coordinates through a rank-3"):
        _run(tensormap_copy_module(3, copy_rank=2), 3, (8, 4))


# ---- maps built in shared memory and copied to global memory by ptx.tensormap.cp_fenceproxy ----

#: the span map's groups per half (``span / 2``, span 4) and first rows (``span_view``)
HALF = 2
FIRSTS = max(ROWS - 8 * 2 * HALF + 1, 1)
ROW = PITCH * 2  # the row stride, bytes
#: per map (the 2-d map at the slot, the span map 128 bytes on): box, dims, strides of dims 1
#: on (bytes), innermost first
BOXES = ((INNER, BOX_ROWS), (INNER, 8, 2, HALF, 1))
MAP_DIMS = ((COLUMNS, ROWS), (COLUMNS, 8, 2, HALF, FIRSTS))
MAP_STRIDES = ((ROW,), (ROW, 8 * HALF * ROW, 8 * ROW, ROW))
#: the steps of the lowering's build (``name@t``: by thread ``t``, ``@warp``: by warp 0,
#: ``@all``: by every thread; by default thread 0, cp by warp 0)
BUILT = ("zero", "fields", "cp", "acquire", "copy")


def _replace(at: str, name: str, ordinal: int | None, value: str, ty: str) -> str:
    props = f'field = "{name}"' + ("" if ordinal is None else f", ordinal = {ordinal} : i32")
    space = "!llvm.ptr<3>" if at.startswith("%sm") else "!llvm.ptr<1>"
    return f'"ptx.tensormap.replace"({at}, {value}) <{{{props}}}> : ({space}, {ty}) -> ()'


def _map_fields(k: int, at: str, step: int) -> list[str]:
    """Replace every field of map ``k`` (the kernel's parameters ``%m{k}d*``, ``%m{k}s*``)."""
    box = BOXES[k]
    rank = len(box)
    lines: list[str] = [_replace(at, "global_address", None, "%src", "!llvm.ptr<1>")]
    constants: list[tuple[str, int | None, int]] = [("rank", None, rank - 1)]
    constants += [("box_dim", d, b) for d, b in enumerate(box)]
    for name, ordinal, number in constants:
        lines += [
            f"%f{step}_{k}_{name}{ordinal} = arith.constant {number} : i32",
            _replace(at, name, ordinal, f"%f{step}_{k}_{name}{ordinal}", "i32"),
        ]
    lines += [_replace(at, "global_dim", d, f"%m{k}d{d}", "i32") for d in range(rank)]
    lines += [_replace(at, "global_stride", d, f"%m{k}s{d + 1}", "i64") for d in range(rank - 1)]
    immediates: list[tuple[str, int | None, int]] = [("element_stride", d, 1) for d in range(rank)]
    immediates += [("elemtype", None, 1), ("interleave_layout", None, 0)]
    immediates += [("swizzle_mode", None, 3), ("fill_mode", None, 0)]
    for name, ordinal, number in immediates:
        lines += [
            f"%f{step}_{k}_{name}{ordinal} = arith.constant {number} : i32",
            _replace(at, name, ordinal, f"%f{step}_{k}_{name}{ordinal}", "i32"),
        ]
    return lines


def shared_build_module(
    maps: int = 1,
    steps: Sequence[str] = BUILT,
    *,
    smem_at: int = 0,
    smem_words: int | None = None,
    split_dst: bool = False,
    per_program: bool = False,
) -> ModuleOp:
    """``k(src: f16*, scratch: i8*, out: f16*, slot: i64, per map k: dims m{k}d*, strides
    m{k}s*, coordinates m{k}x*)``: ``maps`` maps (the 2-d one, then the 5-d span map) built as
    the lowering builds them, in the order of ``steps``: ``zero`` (every word of the shared
    buffer ``maps`` of ``smem_words`` i64, ``memref.store``), ``fields`` (replace every field
    of map k at byte ``smem_at + 128 k`` of ``maps``), ``cp`` (``ptx.tensormap.cp_fenceproxy``
    of map k to byte ``slot + 128 k`` of ``scratch``, plus 256 per program where
    ``per_program``; where ``split_dst``, threads 16 on give a destination 256 bytes on),
    ``acquire``, ``copy`` (of the box at the coordinates through map k into tile k),
    ``store`` (an ordinary store of map 0's first byte), ``greplace`` (a replace of map 0's
    rank in global memory), ``barrier`` (every thread). Every thread then copies the tiles,
    one after the other, to ``out``."""
    words = smem_words if smem_words is not None else 16 * maps
    tiles = [int(np.prod(BOXES[k])) for k in range(maps)]
    globals_ = f"""
    "memref.global"() <{{sym_name = "bar", type = memref<1xi64, 3 : i64>, initial_value,
      sym_visibility = "private", alignment = 8 : i64}}> : () -> ()
    "memref.global"() <{{sym_name = "maps", type = memref<{words}xi64, 3 : i64>,
      initial_value, sym_visibility = "private", alignment = 128 : i64}}> : () -> ()"""
    for k, n in enumerate(tiles):
        globals_ += f"""
    "memref.global"() <{{sym_name = "tile{k}", type = memref<{n}xf16, 3 : i64>, initial_value,
      sym_visibility = "private", alignment = 1024 : i64}}> : () -> ()"""
    head = f"""
      %t = "gpu.thread_id"() <{{dimension = #gpu<dim x>}}> : () -> index
      %ti = arith.index_cast %t : index to i32
      %ti64 = arith.index_cast %t : index to i64
      %b = "gpu.block_id"() <{{dimension = #gpu<dim x>}}> : () -> index
      %bi = arith.index_cast %b : index to i64
      %c256 = arith.constant 256 : i64
      %c16 = arith.constant 16 : i64
      %mine = arith.muli %bi, %c256 : i64
      %at = arith.addi %slot, %mine : i64
      %c0 = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %c128 = arith.constant 128 : i32
      %k_byte = arith.constant 7 : i8
      %half = arith.divui %ti64, %c16 : i64
      %split = arith.muli %half, %c256 : i64
      %gbase = llvm.getelementptr %scratch[{"%at" if per_program else "%slot"}] : \
(!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
      %mapsm = memref.get_global @maps : memref<{words}xi64, 3 : i64>
      %ma = "memref.extract_aligned_pointer_as_index"(%mapsm) : \
(memref<{words}xi64, 3 : i64>) -> index
      %ma64 = arith.index_cast %ma : index to i64
      %smb = llvm.inttoptr %ma64 : i64 to !llvm.ptr<3>
      %barm = memref.get_global @bar : memref<1xi64, 3 : i64>
      %ba = "memref.extract_aligned_pointer_as_index"(%barm) : (memref<1xi64, 3 : i64>) -> index
      %ba64 = arith.index_cast %ba : index to i64
      %bar = llvm.inttoptr %ba64 : i64 to !llvm.ptr<3>"""
    for k, n in enumerate(tiles):
        tile_t = f"memref<{n}xf16, 3 : i64>"
        head += f"""
      %gk{k} = arith.constant {128 * k} : i64
      %gm{k} = llvm.getelementptr %gbase[%gk{k}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
      %gd{k} = llvm.getelementptr %gm{k}[{"%split" if split_dst else "%gk0"}] : \
(!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
      %g{k} = llvm.addrspacecast %gm{k} : !llvm.ptr<1> to !llvm.ptr
      %sk{k} = arith.constant {smem_at + 128 * k} : i64
      %sm{k} = llvm.getelementptr %smb[%sk{k}] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
      %tile{k} = memref.get_global @tile{k} : {tile_t}
      %ta{k} = "memref.extract_aligned_pointer_as_index"(%tile{k}) : ({tile_t}) -> index
      %ta{k}_64 = arith.index_cast %ta{k} : index to i64
      %dst{k} = llvm.inttoptr %ta{k}_64 : i64 to !llvm.ptr<3>"""

    def body(name: str, s: int) -> str:
        lines: list[str] = []
        if name == "zero":
            lines.append(f"%z{s} = arith.constant 0 : i64")
            for w in range(words):
                lines += [
                    f"%z{s}_{w} = arith.constant {w} : index",
                    f"memref.store %z{s}, %mapsm[%z{s}_{w}] : memref<{words}xi64, 3 : i64>",
                ]
        elif name == "fields":
            for k in range(maps):
                lines += _map_fields(k, f"%sm{k}", s)
        elif name == "cp":
            lines += [
                f'"ptx.tensormap.cp_fenceproxy"(%gd{k}, %sm{k}) : (!llvm.ptr<1>, !llvm.ptr<3>) -> ()'
                for k in range(maps)
            ]
        elif name == "acquire":
            lines += [f"nvvm.fence.proxy.acquire <gpu> %g{k}, %c128" for k in range(maps)]
        elif name == "store":
            lines.append("llvm.store %k_byte, %gm0 : i8, !llvm.ptr<1>")
        elif name == "greplace":
            lines += [
                f"%r{s} = arith.constant 1 : i32",
                _replace("%gm0", "rank", None, f"%r{s}", "i32"),
            ]
        else:
            assert name == "copy", name
            lines += [
                "nvvm.mbarrier.init %bar, %one : !llvm.ptr<3>, i32",
                "nvvm.fence.mbarrier.init",
                f"%tx{s} = arith.constant {2 * sum(tiles)} : i32",
                f"nvvm.mbarrier.arrive.expect_tx %bar, %tx{s} : !llvm.ptr<3>, i32",
            ]
            for k in range(maps):
                coordinates = ", ".join(f"%m{k}x{d}" for d in range(len(BOXES[k])))
                lines += [
                    f"%d7_{s}_{k} = llvm.addrspacecast %dst{k} : !llvm.ptr<3> to !llvm.ptr<7>",
                    f"nvvm.cp.async.bulk.tensor.shared.cluster.global %d7_{s}_{k}, %g{k}, %bar, "
                    f"box[{coordinates}] : !llvm.ptr<7>, !llvm.ptr",
                ]
        return "\n        ".join(lines)

    blocks = []
    for s, step in enumerate(steps):
        name, _, who = step.partition("@")
        if name == "barrier":
            blocks.append('\n      "gpu.barrier"() : () -> ()')
            continue
        who = who or ("warp" if name == "cp" else "0")
        if who == "warp":
            condition = (
                f"%w{s} = arith.constant 32 : i32\n      %is{s} = arith.cmpi ult, %ti, %w{s} : i32"
            )
        elif who == "all":
            condition = f"%is{s} = arith.constant true"
        else:
            condition = f"%w{s} = arith.constant {who} : i32\n      %is{s} = arith.cmpi eq, %ti, %w{s} : i32"
        blocks.append(f"""
      {condition}
      scf.if %is{s} {{
        {body(name, s)}
        scf.yield
      }}""")
    tail = """
      "gpu.barrier"() : () -> ()
      %ticks = arith.constant 1000000 : i32
      nvvm.mbarrier.try_wait.parity %bar, %c0, %ticks : !llvm.ptr<3>, i32, i32
      %step = arith.constant 1 : index
      %lo = arith.constant 0 : index
      %threads = arith.constant {THREADS} : i32"""
    tail = tail.replace("{THREADS}", str(THREADS))
    done = 0
    for k, n in enumerate(tiles):
        tail += f"""
      %hi{k} = arith.constant {n // THREADS} : index
      scf.for %i{k} = %lo to %hi{k} step %step {{
        %ki{k} = arith.index_cast %i{k} : index to i32
        %base{k} = arith.muli %ki{k}, %threads : i32
        %e{k} = arith.addi %base{k}, %ti : i32
        %ei{k} = arith.index_cast %e{k} : i32 to index
        %v{k} = memref.load %tile{k}[%ei{k}] : memref<{n}xf16, 3 : i64>
        %done{k} = arith.constant {done} : i32
        %o{k} = arith.addi %e{k}, %done{k} : i32
        %p{k} = llvm.getelementptr %out[%o{k}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f16
        llvm.store %v{k}, %p{k} : f16, !llvm.ptr<1>
        scf.yield
      }}"""
        done += n
    params = ["%src: !llvm.ptr<1>", "%scratch: !llvm.ptr<1>", "%out: !llvm.ptr<1>", "%slot: i64"]
    for k in range(maps):
        rank = len(BOXES[k])
        params += [f"%m{k}d{d}: i32" for d in range(rank)]
        params += [f"%m{k}s{d}: i64" for d in range(1, rank)]
        params += [f"%m{k}x{d}: i32" for d in range(rank)]
    return gpu_module(
        ", ".join(params), "f16, i8, f16", head + "".join(blocks) + tail, THREADS, globals_
    )


def _run_built(
    module: ModuleOp,
    coordinates: Sequence[Sequence[int]],
    slot: int = 0,
    grid: tuple[int, int, int] = (1, 1, 1),
) -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
    """Run a ``shared_build_module`` kernel on the planes with the coordinates of each map's
    copy; returns (planes, scratch, each tile as it lay in shared memory)."""
    planes = _planes()
    scratch = np.random.default_rng(0).integers(0, 256, SCRATCH, dtype=np.uint8).view(np.int8)
    sizes = [int(np.prod(BOXES[k])) for k in range(len(coordinates))]
    out = np.zeros(sum(sizes), np.float16)
    args: list[object] = [planes, scratch, out, slot]
    for k, x in enumerate(coordinates):
        args += [*MAP_DIMS[k], *MAP_STRIDES[k], *x]
    run_lowered(module, grid, args)
    return planes, scratch, np.split(out, np.cumsum(sizes)[:-1])


def _span_expected(planes: np.ndarray, column: int, first: int) -> np.ndarray:
    """The span map's box at (``column``, 0, 0, 0, ``first``) as it lies in shared memory: the
    5-d view of plane 0 (``as_strided``: first row, l, h, row in the group, column), columns
    past the tensor's zeros, in the copy engine's order, then swizzled as a 2-d box of its
    rows."""
    rows = np.zeros((planes.shape[1], PITCH + INNER), planes.dtype)  # zeros past the columns
    rows[:, :COLUMNS] = planes[0, :, :COLUMNS]
    row = rows.strides[0]
    view = np.lib.stride_tricks.as_strided(
        rows,
        shape=(FIRSTS, HALF, 2, 8, COLUMNS + INNER),
        strides=(row, 8 * row, 8 * HALF * row, row, 2),
        writeable=False,
    )
    box = view[first, :, :, :, column : column + INNER].reshape(-1, INNER)
    return tma_reference(np.ascontiguousarray(box), 0, 0, INNER, box.shape[0], SWIZZLE)


def _assert_tiles(
    planes: np.ndarray, tiles: list[np.ndarray], x: tuple[int, int], span: tuple[int, int]
) -> None:
    np.testing.assert_array_equal(tiles[0].view(np.uint16), _expected(planes, *x).view(np.uint16))
    assert tiles[0].any()
    if len(tiles) > 1:
        np.testing.assert_array_equal(
            tiles[1].view(np.uint16), _span_expected(planes, *span).view(np.uint16)
        )
        assert tiles[1].any()


def _host_maps(maps: int) -> np.ndarray:
    """The host encoder's bytes of the maps, one after the other."""
    return np.concatenate(
        [
            encode_gpusim_tensor_map(
                0, 0, 2, MAP_DIMS[k], (2, *MAP_STRIDES[k]), BOXES[k], SWIZZLE
            ).view(np.uint8)
            for k in range(maps)
        ]
    )


@pytest.mark.parametrize("smem_at", [0, 64])
@pytest.mark.parametrize("place", PLACES)
def test_map_built_in_shared_memory_copies_the_box(place: str, smem_at: int) -> None:
    """Zeroed and replaced in shared memory, copied out by warp 0, acquired by thread 0: the
    box lands as through the host's map, whose bytes the global slot holds."""
    x = PLACES[place]
    module = shared_build_module(smem_at=smem_at, smem_words=16 + smem_at // 8)
    planes, scratch, tiles = _run_built(module, [x], slot=128)
    _assert_tiles(planes, tiles, x, (0, 0))
    np.testing.assert_array_equal(scratch[128:256].view(np.uint8), _host_maps(1))


@pytest.mark.parametrize(("column", "first"), [(8, 0), (48, 5), (0, FIRSTS - 1)])
def test_map_and_span_map_built_in_shared_memory(column: int, first: int) -> None:
    """The 2-d map and the 5-d span map 128 bytes on, in both the shared and the global slot:
    each copy reads its own map (the span box's rows as the 5-d view orders them; columns past
    the tensor read zeros)."""
    planes, scratch, tiles = _run_built(
        shared_build_module(2), [(8, 4), (column, 0, 0, 0, first)], slot=64
    )
    _assert_tiles(planes, tiles, (8, 4), (column, first))
    np.testing.assert_array_equal(scratch[64 : 64 + 2 * MAP_BYTES].view(np.uint8), _host_maps(2))


def test_every_program_builds_its_own_maps_in_shared_memory() -> None:
    planes, _, tiles = _run_built(
        shared_build_module(2, per_program=True),
        [(8, 4), (8, 0, 0, 0, 2)],
        grid=(3, 1, 1),
    )
    _assert_tiles(planes, tiles, (8, 4), (8, 2))


def test_writes_of_another_warp_are_copied_after_a_barrier() -> None:
    """Thread 40 builds the map: warp 0's copy reads it only after a barrier."""
    steps = ("zero@40", "fields@40", "barrier", "cp", "acquire", "copy")
    planes, _, tiles = _run_built(shared_build_module(steps=steps), [(8, 4)])
    _assert_tiles(planes, tiles, (8, 4), (0, 0))


def test_the_builder_may_rebuild_its_map_after_the_copy() -> None:
    """After a barrier only the copy's read is recorded, as thread 0's (the warp's first):
    thread 0 may zero and rebuild the slot at once, and copy it again (another thread may not:
    ``rebuilt_by_another_thread``)."""
    steps = ("zero", "fields", "barrier", "cp", "zero", "fields", "cp", "acquire", "copy")
    planes, _, tiles = _run_built(shared_build_module(steps=steps), [(8, 4)])
    _assert_tiles(planes, tiles, (8, 4), (0, 0))


SHARED_ERRORS = {  # (steps, module options) -> (the message, the failing op, its thread)
    "incomplete_warp": (
        (("zero", "fields", "cp@0", "acquire", "copy"), {}),
        (r"executed by only 1 of the 32 threads of warp 0", "cp_fenceproxy", 1),
    ),
    "lanes_disagree_on_dst": (
        (BUILT, {"split_dst": True}),
        (
            r"warp 0 give different destinations \(thread 0: at byte 0 of `scratch`, "
            r"thread 16: at byte 256",
            "cp_fenceproxy",
            16,
        ),
    ),
    "misaligned_shared_slot": (
        (BUILT, {"smem_at": 32, "smem_words": 24}),
        (
            r"the tensor map at shared address \d+ \(byte 32 of maps\) is not 64-byte aligned",
            "replace",
            0,
        ),
    ),
    "shared_slot_past_the_buffer": (
        (BUILT, {"smem_at": 64, "smem_words": 16}),
        (r"\(byte 64 of maps\) runs past the end of maps", "replace", 0),
    ),
    "copy_without_acquire": (
        (("zero", "fields", "cp", "copy"), {}),
        (
            r"without an nvvm.fence.proxy.acquire of the map after the "
            r"ptx.tensormap.cp_fenceproxy",
            "bulk",
            0,
        ),
    ),
    "acquire_before_cp": (
        (("zero", "fields", "acquire", "cp", "copy"), {}),
        (r"without an nvvm.fence.proxy.acquire", "bulk", 0),
    ),
    "store_after_cp": (
        (("zero", "fields", "cp", "acquire", "store", "copy"), {}),
        (r"bytes changed after its ptx.tensormap.cp_fenceproxy", "bulk", 0),
    ),
    "global_replace_after_cp": (
        (("zero", "fields", "cp", "greplace", "acquire", "copy"), {}),
        (r"before that thread's nvvm.fence.proxy.release", "bulk", 0),
    ),
    "not_zeroed": (
        (("fields", "cp", "acquire", "copy"), {}),
        (
            r"replaces global_address of the tensor map at byte 0 of maps, in maps\[2\], which no "
            r"thread of the program has written: zero the map",
            "replace",
            0,
        ),
    ),
    "zeroed_by_another_warp": (
        (("zero@40", "fields", "cp", "acquire", "copy"), {}),
        (r"data race: overwrites maps\[2\]", "replace", 0),
    ),
    "built_by_another_warp": (
        (("zero@40", "fields@40", "cp", "acquire", "copy"), {}),
        (
            r"data race: warp 0 copies the tensor map at byte 0 of maps, whose maps\[0\] thread 40 "
            r"of another warp wrote since the last barrier",
            "cp_fenceproxy",
            0,
        ),
    ),
    "copied_by_every_warp": (
        (("zero", "fields", "cp@all", "acquire", "copy"), {}),
        (r"data race: warp 1 copies .* thread 0 of another warp wrote", "cp_fenceproxy", 32),
    ),
    "rebuilt_by_another_thread": (
        (("zero", "fields", "barrier", "cp", "zero@1"), {}),
        (
            r"data race: overwrites maps\[0\] \(with a different value\) after another thread "
            r"read",
            "memref.store",
            1,
        ),
    ),
}
OPS = {
    "cp_fenceproxy": "ptx.tensormap.cp_fenceproxy",
    "replace": "ptx.tensormap.replace",
    "bulk": "nvvm.cp.async.bulk.tensor.shared.cluster.global",
    "memref.store": "memref.store",
}


@pytest.mark.parametrize("case", SHARED_ERRORS)
def test_bad_shared_build_fails(case: str) -> None:
    (steps, options), (message, op, thread) = SHARED_ERRORS[case]
    module = shared_build_module(steps=steps, **options)  # type: ignore[arg-type]
    with pytest.raises(SimulationError, match=message) as e:
        _run_built(module, [(8, 4)])
    assert e.value.op_name == OPS[op]
    assert e.value.thread == thread
