"""The AST frontend: a kernel's Python source plus its argument specialization -> `tt` IR.

``compile_kernel`` (this module) is its entry. ``codegen`` is the visitor (one
``visit_<Node>`` per supported node), helped by the control-flow modules (``if``/``for``/
``while``, loops, early exits, carried values), ``compile_time`` (what is evaluated while
compiling) and ``source`` (the kernel's source and globals); ``semantic`` is Triton's typing,
promotion and broadcasting, ``dtypes`` the `tl` dtype -> IR type table; ``builtins``
implements every ``tl.*`` builtin as a method of ``Builtins`` (named like it), with mixins
grouping them by kind (atomics, reductions, shapes, descriptors, debugging, libdevice...);
``values`` and ``builder`` are the values the frontend handles and where ops go.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FileLineColLoc,
    IntAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    i32,
    i64,
)
from xdsl.ir import Block, Region

from mytriton.dialects.tt import core as tt
from mytriton.dialects.verify import verify_module
from mytriton.errors import KernelTypeError, KernelValueError
from mytriton.frontend.block_pointer_values import TensorDescriptor
from mytriton.frontend.builder import IRBuilder
from mytriton.frontend.codegen import CodeGenerator
from mytriton.frontend.dtypes import to_ir
from mytriton.frontend.ir_names import value_name
from mytriton.frontend.signature import (
    ArgSpec,
    ConstexprArg,
    DescriptorArg,
    PointerArg,
    ScalarArg,
    TupleArg,
)
from mytriton.frontend.source import KernelSource
from mytriton.frontend.values import TensorValue
from mytriton.kernel_signature import descriptor_leaves
from mytriton.language import core

__all__ = [
    "ArgSpec",
    "ConstexprArg",
    "DescriptorArg",
    "KernelSource",
    "PointerArg",
    "ScalarArg",
    "TupleArg",
    "compile_kernel",
]


def _add_argument(
    name: str,
    spec: PointerArg | ScalarArg,
    arg_names: list[str],
    arg_types: list[Any],
    arg_attrs: list[DictionaryAttr],
    def_loc: Any,
    const: bool = False,
) -> None:
    """One pointer or scalar function argument (its type, name and divisibility); ``const``:
    a pointer parameter annotated ``tl.const``."""
    d = core.pointer_type(spec.dtype, const=const) if isinstance(spec, PointerArg) else spec.dtype
    try:
        arg_types.append(to_ir(d, def_loc))
    except KernelTypeError as e:
        what = "array" if isinstance(spec, PointerArg) else "scalar"
        raise KernelTypeError(f"parameter `{name}` ({what}): {e.message}", def_loc) from e.__cause__
    arg_names.append(name)
    attrs = {}
    if spec.divisibility > 1:
        attrs["tt.divisibility"] = IntegerAttr(spec.divisibility, i32)
    arg_attrs.append(DictionaryAttr(attrs))


@dataclass
class _Signature:
    """The kernel function's arguments, collected parameter by parameter: names, IR types and
    attributes; the constexprs' values (``scope``), and the parameters that are several
    arguments (host tensor descriptors, tuples)."""

    scope: dict[str, Any] = field(default_factory=dict)
    names: list[str] = field(default_factory=list)
    types: list[Any] = field(default_factory=list)
    attrs: list[DictionaryAttr] = field(default_factory=list)
    descriptors: dict[str, DescriptorArg] = field(default_factory=dict)
    tuples: dict[str, TupleArg] = field(default_factory=dict)


def compile_kernel(
    fn: Callable[..., Any],
    specs: Mapping[str, ArgSpec],
    debug: bool = False,
    num_warps: int = 4,
) -> ModuleOp:
    """Compile ``fn`` for one specialization: a ``builtin.module`` holding one ``func.func``.

    ``specs`` gives every parameter: pointers and scalars become function arguments (in order),
    a host tensor descriptor its base, shape and strides but the last (``DescriptorArg``),
    constexprs are substituted. The result is verified; errors name the kernel's source line.
    ``debug`` compiles ``tl.device_assert`` (and runtime ``assert``) in; else they vanish.
    ``num_warps`` is the launch's (``tl.extra.cuda.num_warps()`` is a constant of it).
    """
    src = KernelSource.of(fn)
    fdef = src.function_def()
    def_loc = src.location(fdef)
    sig = _signature(src, specs, def_loc)
    block = Block(arg_types=sig.types)
    _bind_arguments(sig, block)
    builder = IRBuilder(block)
    builder.debug = debug
    builder.num_warps = num_warps
    _bind_descriptors(sig, builder, def_loc)
    gen = CodeGenerator(src, builder, sig.scope)
    gen.compile_body(fdef.body, kernel=True)
    end_line = getattr(fdef, "end_lineno", None) or fdef.lineno
    with builder.located(src.location(fdef.body[-1]) if end_line else def_loc):
        builder.insert(func.ReturnOp())
    module = ModuleOp([_kernel_function(fdef.name, sig, block, def_loc)])
    verify_module(module)
    return module


def _signature(src: KernelSource, specs: Mapping[str, ArgSpec], def_loc: Any) -> _Signature:
    """The function arguments of every parameter's spec, in the parameters' order."""
    sig = _Signature()
    const_params = src.const_parameters()
    for name in src.parameters():
        spec = specs.get(name)
        if spec is None:
            raise KernelValueError(f"no value for kernel parameter `{name}`", def_loc)
        if isinstance(spec, ConstexprArg):
            sig.scope[name] = spec.value
        elif isinstance(spec, DescriptorArg):
            _add_descriptor(sig, name, spec, def_loc)
        elif isinstance(spec, (PointerArg, ScalarArg)):
            _add_argument(
                name, spec, sig.names, sig.types, sig.attrs, def_loc, name in const_params
            )
        elif isinstance(spec, TupleArg):
            sig.tuples[name] = spec
            for leaf, leaf_spec in spec.leaves(name):
                _add_argument(leaf, leaf_spec, sig.names, sig.types, sig.attrs, def_loc)
        else:
            raise KernelTypeError(f"bad specification {spec!r} for parameter `{name}`", def_loc)
    return sig


def _add_descriptor(sig: _Signature, name: str, spec: DescriptorArg, def_loc: Any) -> None:
    """A host tensor descriptor's arguments: base, shape, strides but the last, tensor map."""
    sig.descriptors[name] = spec
    pointer = to_ir(core.pointer_type(spec.dtype), def_loc)
    types = [pointer, *[i32] * spec.rank, *[i64] * (spec.rank - 1), tt.TENSOR_MAP_TYPE]
    sig.types.extend(types)
    sig.names.extend(f"{name}.{leaf}" for leaf in descriptor_leaves(spec.rank))
    leaf_divisibility = [
        spec.divisibility,
        *(spec.shape_divisibility or [1] * spec.rank),
        *(spec.stride_divisibility or [1] * (spec.rank - 1)),
        1,  # the tensor map
    ]
    sig.attrs.extend(
        DictionaryAttr({"tt.divisibility": IntegerAttr(d, i32)} if d > 1 else {})
        for d in leaf_divisibility
    )


def _bind_arguments(sig: _Signature, block: Block) -> None:
    """Name the entry block's arguments and bind them in the scope, tuples rebuilt."""
    for name, arg in zip(sig.names, block.args, strict=True):
        arg.name_hint = value_name(name)
        sig.scope[name] = TensorValue(arg)
    for name, tuple_spec in sig.tuples.items():
        found = {leaf: sig.scope.pop(leaf) for leaf, _ in tuple_spec.leaves(name)}
        sig.scope[name] = tuple_spec.rebuild(name, found)


def _bind_descriptors(sig: _Signature, builder: IRBuilder, def_loc: Any) -> None:
    """Each host tensor descriptor as the frontend's record of its arguments (its last stride
    is the constant 1)."""
    for name, spec in sig.descriptors.items():
        leaves = [sig.scope.pop(f"{name}.{leaf}") for leaf in descriptor_leaves(spec.rank)]
        with builder.located(def_loc):
            unit = builder.insert(arith.ConstantOp(IntegerAttr(1, i64))).result
        r = spec.rank
        sig.scope[name] = TensorDescriptor(
            base=leaves[0],
            shape=tuple(leaves[1 : 1 + r]),
            strides=(*leaves[1 + r : 2 * r], TensorValue(unit)),
            block_shape=spec.block_shape,
            padding=spec.padding,
            tensor_map=leaves[2 * r],
        )


def _kernel_function(name: str, sig: _Signature, block: Block, def_loc: Any) -> func.FuncOp:
    """The ``func.func`` of the compiled body, located at the ``def``."""
    kernel = func.FuncOp(
        name,
        (sig.types, []),
        Region(block),
        arg_attrs=ArrayAttr(sig.attrs) if any(a.data for a in sig.attrs) else None,
    )
    if def_loc is not None:
        kernel.location = FileLineColLoc(
            StringAttr(def_loc.file), IntAttr(def_loc.line), IntAttr(def_loc.col)
        )
    return kernel
