"""The dtype table (``dialects/tt/dtype_table.py``) has a row for every ``tl`` dtype, and every
reader agrees with it: tl -> IR -> tl, tl -> NumPy -> tl, IR -> C++, the ABI, libdevice, the
signature names and the fp8 formats."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import IntegerType, VectorType
from xdsl.ir import Attribute

import mytriton.language as tl
from mytriton.backends import arrays
from mytriton.backends.cuda import c_types
from mytriton.backends.gpusim import dtypes as gpusim_dtypes
from mytriton.backends.interpreter.values import dtype_of as interpreter_dtype_of
from mytriton.backends.tensor_wrapper import TensorWrapper, tl_dtype
from mytriton.compat.drivers import CPUDriver
from mytriton.compat.signature import scalar_type
from mytriton.dialects.tt import dtype_table, fp8, types
from mytriton.dialects.tt import libdevice_table as lt
from mytriton.dialects.tt.dtype_table import ROWS, DtypeRow
from mytriton.dialects.tt.semantics import numpy_dtype
from mytriton.errors import BackendError, LaunchError
from mytriton.frontend import dtypes as frontend_dtypes
from mytriton.language import core
from mytriton.passes.gpu_lowering import abi
from mytriton.runtime.specialization import signature_type_name

ml_dtypes = pytest.importorskip("ml_dtypes")

_IDS = [r.name for r in ROWS]


def _signless(row: DtypeRow) -> Attribute:
    """The row's type in the lowered (signless) IR."""
    return IntegerType(row.bits) if isinstance(row.ir, IntegerType) else row.ir


def test_every_tl_dtype_has_one_row() -> None:
    declared = {
        name
        for name, value in vars(core).items()
        if type(value) is core.dtype and value.name != "void"
    }
    assert declared == {r.name for r in ROWS}
    assert set(core.DTYPES) == {r.dtype_name for r in ROWS}
    for table in (dtype_table.BY_NAME, dtype_table.BY_DTYPE_NAME, dtype_table.BY_SIGNATURE):
        assert len(table) == len(ROWS)
    assert len(dtype_table.BY_IR) == len(ROWS)


def test_rows_are_in_tritons_order() -> None:
    names = [r.dtype_name for r in ROWS]
    assert names == core.dtype.SINT_TYPES + core.dtype.UINT_TYPES + core.dtype.FP_TYPES
    assert core.dtype.STANDARD_FP_TYPES == ["fp16", "bf16", "fp32", "fp64"]


@pytest.mark.parametrize("row", ROWS, ids=_IDS)
def test_language_dtype_is_the_row(row: DtypeRow) -> None:
    d = getattr(tl, row.name)
    assert d is core.DTYPES[row.dtype_name] is getattr(core, row.name)
    assert core.dtype(row.dtype_name) == d
    assert d.codegen_name() == row.name
    assert d.primitive_bitwidth == row.bits
    assert d.kind == {"bool": "bool", "sint": "int", "uint": "int"}.get(row.kind, "float")
    assert d.is_int_signed() == (row.kind == "sint")
    assert d.is_int_unsigned() == (row.kind in ("bool", "uint"))
    assert d.is_fp8() == (row.kind == "fp8")
    assert d.is_floating() == row.is_floating
    if row.is_floating:
        assert (d.fp_mantissa_width, d.exponent_bias) == (row.mantissa_bits, row.exponent_bias)
    else:
        assert row.mantissa_bits is None and row.exponent_bias is None


@pytest.mark.parametrize("row", ROWS, ids=_IDS)
def test_tl_to_ir_to_tl(row: DtypeRow) -> None:
    d = core.DTYPES[row.dtype_name]
    assert frontend_dtypes.to_ir(d) == row.ir
    assert frontend_dtypes.from_ir(row.ir) == d
    assert dtype_table.row_of_ir(row.ir) is row
    assert row.ir_name == str(row.ir)
    assert types.is_float(row.ir) == row.is_floating
    assert fp8.is_fp8(row.ir) == (row.kind == "fp8")


@pytest.mark.parametrize("row", ROWS, ids=_IDS)
def test_tl_to_numpy_to_tl(row: DtypeRow) -> None:
    d = core.DTYPES[row.dtype_name]
    held = row.numpy_dtype()
    assert held.name == row.numpy
    assert numpy_dtype(row.ir) == held  # the interpreter's and the constant folder's
    assert interpreter_dtype_of(row.ir) == held
    assert gpusim_dtypes.dtype_of(_signless(row)) == numpy_dtype(_signless(row))
    if row.array:
        assert arrays.describe_array(np.zeros(2, held), "x").dtype == d
        assert tl_dtype(held) == d
    else:  # fp8e4b15: only through mytriton.reinterpret, as in Triton
        with pytest.raises(LaunchError, match="cannot take"):
            arrays.describe_array(np.zeros(2, held), "x")
        assert tl_dtype(held) is None
    for spelling in (row.name, row.dtype_name, row.signature, d):
        assert tl_dtype(spelling) == d
    # mytriton.reinterpret: the CPU backends see the elements in their NumPy dtype
    raw = np.zeros(4, np.dtype(f"uint{max(row.bits, 8)}"))
    assert arrays.as_host_numpy(TensorWrapper(raw, d)).dtype == held


@pytest.mark.parametrize("row", [r for r in ROWS if r.kind == "fp8"], ids=lambda r: r.name)
def test_fp8_formats_are_the_rows(row: DtypeRow) -> None:
    fmt = fp8.format_of(row.ir)
    assert (fmt.name, fmt.numpy_name) == (row.dtype_name, row.numpy)
    assert (fmt.mantissa_bits, fmt.bias) == (row.mantissa_bits, row.exponent_bias)
    assert 1 + fmt.exponent_bits + fmt.mantissa_bits == row.bits
    assert fp8.container_dtype(fmt) == row.numpy_dtype()


@pytest.mark.parametrize("row", [r for r in ROWS if r.cpp is not None], ids=lambda r: r.name)
def test_ir_to_cpp(row: DtypeRow) -> None:
    if row.kind == "uint":  # the lowered IR is signless: the unsigned type is asked for
        assert c_types.unsigned_type(_signless(row)) == row.cpp
        return  # and its vectors are those of the signed row
    assert c_types.scalar_type(_signless(row)) == row.cpp
    if row.vector is None:
        with pytest.raises(BackendError, match=r"no C\+\+ type"):
            c_types.vector_type(VectorType(_signless(row), [2]))
        return
    lanes = 16 * 8 // row.bits
    vector = VectorType(_signless(row), [lanes])
    if row.vector == "builtin":
        assert c_types.vector_type(VectorType(_signless(row), [4])) == f"{row.cpp}4"
        assert c_types.packed_vector(vector) is None
    else:
        packed = c_types.packed_vector(vector)
        assert packed is not None
        assert (packed.container, packed.element, packed.bits) == ("uint4", row.cpp, row.bits)
    assert gpusim_dtypes.vector_shape(vector) == (numpy_dtype(_signless(row)), lanes)


def test_fp8_has_no_cpp_type() -> None:
    for row in ROWS:
        if row.kind == "fp8":
            assert row.cpp is None
            with pytest.raises(BackendError, match=r"no C\+\+ type"):
                c_types.scalar_type(row.ir)


@pytest.mark.parametrize("row", ROWS, ids=_IDS)
def test_abi_kind(row: DtypeRow) -> None:
    if row.abi is None:
        if row.kind != "bool":  # a bool parameter is an i32 before the ABI sees it
            with pytest.raises(BackendError, match="not part of the ABI"):
                abi._param_kind(_signless(row))
        return
    lowered = IntegerType(32) if row.kind == "bool" else _signless(row)
    assert abi._param_kind(lowered) == row.abi
    assert dtype_table.ABI_TYPES[row.abi] == lowered


@pytest.mark.parametrize("row", ROWS, ids=_IDS)
def test_libdevice_names(row: DtypeRow) -> None:
    if row.libdevice is None:
        assert lt.short_name(row.ir) is None or row.kind == "uint"  # ui32 is libdevice's i32
        return
    assert lt.short_name(row.ir) == row.ir_name
    assert lt.TYPES[row.ir_name] == row.ir
    name = "exp10" if row.is_floating else "clz"
    fn = lt.lookup(name, [row.ir_name])
    assert fn is not None and fn.symbol == f"__nv_{name}{row.libdevice}"


@pytest.mark.parametrize("row", ROWS, ids=_IDS)
def test_signature_names(row: DtypeRow) -> None:
    d = core.DTYPES[row.dtype_name]
    assert signature_type_name(d) == row.signature
    assert scalar_type(row.signature) == d
    launcher = CPUDriver().map_python_to_cpp_type(row.signature)
    assert launcher == (row.launcher_cpp or row.signature)
    assert CPUDriver().map_python_to_cpp_type("*" + row.signature) == "void*"


def test_launchers_know_every_abi_kind() -> None:
    """The launchers' per-kind tables (struct codes, the C binder's numbering) cover the kinds
    the table's rows pass, and no other."""
    from mytriton.backends.nvidia import device_launcher
    from mytriton.runtime import native_fast_path

    kinds = {r.abi for r in ROWS if r.abi is not None}
    assert kinds == set(dtype_table.ABI_TYPES)
    assert set(device_launcher._FORMATS) == set(native_fast_path._PASS) == {"ptr", *kinds}
    assert set(device_launcher._VALUE) == kinds
