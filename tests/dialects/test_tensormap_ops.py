"""The ops that build a tensor map in the kernel: ``ptx.tensormap.replace`` (``ptx_tensormap``)
and the proxy fences ``nvvm.fence.proxy.release``/``.acquire`` (``upstream_tensormap``). What
their constructors build verifies, names its PTX and round-trips; the fences print what
``mlir-opt-22`` parses (skipped without it); the verifiers refuse what the printers cannot
spell (an unknown field, a missing, extra or out-of-range ordinal, a value of the wrong type,
an immediate that is not a constant, an acquire of other than 128 bytes, other proxies)."""

from __future__ import annotations

import io
import subprocess

import pytest
from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i32, i64
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from mytriton.backends.mlir.provider_config import find_mlir_opt
from mytriton.dialects import make_context
from mytriton.dialects.nvgpu.ptx_tensormap import FIELDS, GLOBAL, TensormapReplaceOp
from mytriton.dialects.nvgpu.tensormap import FenceProxyAcquireOp, FenceProxyReleaseOp
from mytriton.dialects.nvgpu.tma import GENERIC_POINTER, ProxyKindAttr

#: a value of each type a field takes, by type
VALUE_TYPES: dict[Attribute, int] = {GLOBAL: 1, i32: 2, i64: 3}


def _block() -> Block:
    """A block with ``map``, a pointer, an i32 and an i64 argument, and the generic map."""
    return Block(arg_types=[GLOBAL, GLOBAL, i32, i64, GENERIC_POINTER])


def _constant(block: Block, value: int, width: int = 32) -> SSAValue:
    op = arith.ConstantOp.from_int_and_width(value, width)
    block.add_op(op)
    return op.result


def _value(block: Block, field: str) -> SSAValue:
    """A value of the field's type: a constant for an immediate field, else an argument."""
    _, kind, immediate = FIELDS[field]
    return _constant(block, 1) if immediate else block.args[VALUE_TYPES[kind]]


def _ordinal(field: str) -> int | None:
    return 1 if FIELDS[field][0] else None


@pytest.mark.parametrize("field", list(FIELDS))
def test_every_field_verifies_and_names_its_ptx(field: str) -> None:
    block = _block()
    op = TensormapReplaceOp(block.args[0], field, _value(block, field), _ordinal(field))
    op.verify()
    width = "b64" if field in ("global_address", "global_stride") else "b32"
    assert op.ptx == f"tensormap.replace.tile.{field}.global.b1024.{width}"
    assert op.dimension == _ordinal(field)
    assert op.immediate == (1 if FIELDS[field][2] else None)


def test_immediate_from_llvm_constant() -> None:
    block = _block()
    const = llvm.ConstantOp(IntegerAttr(3, i32), i32)
    block.add_op(const)
    op = TensormapReplaceOp(block.args[0], "swizzle_mode", const.result)
    op.verify()
    assert op.immediate == 3


def _refused(
    op: TensormapReplaceOp | FenceProxyAcquireOp | FenceProxyReleaseOp, match: str
) -> None:
    with pytest.raises(VerifyException, match=match):
        op.verify()


def test_unknown_field() -> None:
    block = _block()
    op = TensormapReplaceOp(block.args[0], "box_size", block.args[2], 0)
    _refused(op, r"unknown field 'box_size' \(one of global_address, rank, box_dim")


@pytest.mark.parametrize("field", ["box_dim", "global_dim", "global_stride", "element_stride"])
def test_missing_ordinal(field: str) -> None:
    block = _block()
    op = TensormapReplaceOp(block.args[0], field, _value(block, field))
    _refused(op, rf"field {field} needs an ordinal")


@pytest.mark.parametrize("field", ["global_address", "rank", "elemtype", "fill_mode"])
def test_extra_ordinal(field: str) -> None:
    block = _block()
    op = TensormapReplaceOp(block.args[0], field, _value(block, field), 0)
    _refused(op, rf"field {field} takes no ordinal")


@pytest.mark.parametrize(
    ("field", "ordinal", "last"),
    [("box_dim", 5, 4), ("global_dim", -1, 4), ("element_stride", 5, 4), ("global_stride", 4, 3)],
)
def test_ordinal_out_of_range(field: str, ordinal: int, last: int) -> None:
    block = _block()
    op = TensormapReplaceOp(block.args[0], field, _value(block, field), ordinal)
    _refused(op, rf"the ordinal of {field} must be 0 to {last}, not {ordinal}")
    TensormapReplaceOp(block.args[0], field, _value(block, field), last).verify()


@pytest.mark.parametrize(
    ("field", "arg", "expected", "got"),
    [
        ("global_dim", 3, "i32", "i64"),
        ("global_stride", 2, "i64", "i32"),
        ("global_address", 3, r"!llvm.ptr<1>", "i64"),
        ("rank", 1, "i32", r"!llvm.ptr<1>"),
        ("elemtype", 3, "i32", "i64"),
    ],
)
def test_wrong_value_type(field: str, arg: int, expected: str, got: str) -> None:
    block = _block()
    op = TensormapReplaceOp(block.args[0], field, block.args[arg], _ordinal(field))
    _refused(op, rf"field {field} takes a {expected}, not {got}")


@pytest.mark.parametrize("field", ["elemtype", "interleave_layout", "swizzle_mode", "fill_mode"])
def test_immediate_must_be_constant(field: str) -> None:
    block = _block()
    op = TensormapReplaceOp(block.args[0], field, block.args[2])
    _refused(op, rf"field {field} must come from an arith.constant or llvm.mlir.constant")


def test_acquire_size_must_be_constant_128() -> None:
    block = _block()
    generic = block.args[4]
    FenceProxyAcquireOp(generic, _constant(block, 128)).verify()
    message = r"the size must be a constant 128"
    _refused(FenceProxyAcquireOp(generic, _constant(block, 64)), message)
    _refused(FenceProxyAcquireOp(generic, block.args[2]), message)


def test_acquire_address_must_be_generic() -> None:
    block = _block()
    with pytest.raises(VerifyException, match=r"!llvm.ptr"):
        FenceProxyAcquireOp(block.args[0], _constant(block, 128)).verify()


@pytest.mark.parametrize(
    ("prop", "kind", "pair"),
    [
        ("fromProxy", "async", "async and tensormap"),
        ("toProxy", "async.global", "generic and async.global"),
        ("toProxy", "generic", "generic and generic"),
    ],
)
def test_unsupported_proxies(prop: str, kind: str, pair: str) -> None:
    block = _block()
    release = FenceProxyReleaseOp()
    acquire = FenceProxyAcquireOp(block.args[4], _constant(block, 128))
    for op in (release, acquire):
        op.verify()
        op.properties[prop] = ProxyKindAttr(kind)
        message = "only fromProxy = generic and toProxy = tensormap are supported, not "
        _refused(op, rf"{op.name}: {message}{pair}")


def test_explicit_default_proxies_and_other_scopes_verify() -> None:
    block = _block()
    for op in (
        FenceProxyReleaseOp("cta"),
        FenceProxyAcquireOp(block.args[4], _constant(block, 128), "sys"),
    ):
        op.properties["fromProxy"] = ProxyKindAttr("generic")
        op.properties["toProxy"] = ProxyKindAttr("tensormap")
        op.verify()


def _module() -> ModuleOp:
    """``llvm.func @k``: every field kind replaced, then both fences."""
    block = _block()
    for field in FIELDS:
        block.add_op(
            TensormapReplaceOp(block.args[0], field, _value(block, field), _ordinal(field))
        )
    block.add_op(FenceProxyReleaseOp())
    block.add_op(FenceProxyAcquireOp(block.args[4], _constant(block, 128)))
    block.add_op(llvm.ReturnOp())
    func_type = llvm.LLVMFunctionType([arg.type for arg in block.args])
    return ModuleOp([llvm.FuncOp("k", func_type, body=Region(block))])


def _print(module: ModuleOp, generic: bool = False) -> str:
    out = io.StringIO()
    Printer(stream=out, print_generic_format=generic).print_op(module)
    return out.getvalue()


@pytest.mark.parametrize("generic", [False, True], ids=["custom", "generic"])
def test_round_trip(generic: bool) -> None:
    module = _module()
    module.verify()
    text = _print(module, generic)
    again = Parser(make_context(), text).parse_module()
    again.verify()
    assert _print(again, generic) == text
    assert text.count("ptx.tensormap.replace") == len(FIELDS)
    if not generic:
        assert "nvvm.fence.proxy.release <gpu>" in text
        assert "nvvm.fence.proxy.acquire <gpu> %" in text


@pytest.mark.parametrize("generic", [False, True], ids=["custom", "generic"])
def test_mlir_opt_parses_the_fences(generic: bool) -> None:
    """Upstream knows the fences (``ptx.tensormap.replace`` is ours: left out)."""
    opt = find_mlir_opt(None)
    if opt is None:
        pytest.skip("no mlir-opt on PATH")
    text = _print(_module(), generic)
    text = "\n".join(line for line in text.splitlines() if "ptx.tensormap" not in line)
    done = subprocess.run([opt, "-"], input=text, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "nvvm.fence.proxy.release <gpu>" in done.stdout
    assert "nvvm.fence.proxy.acquire <gpu> %" in done.stdout
