"""Supported Python constructs and what they compile to: compile-time control flow, constants,
inlined @jit helpers, Python builtins on compile-time values, keyword arguments, globals and
closures, assignments, and the source locations ops carry."""

from __future__ import annotations

import inspect
import math

import pytest
from xdsl.dialects.builtin import FileLineColLoc

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import ConstexprError, KernelNameError
from tests.frontend.util import X, Y, expect_error, op_lines, ops, tt

GLOBAL_BLOCK = tl.constexpr(32)
GLOBAL_SCALE = tl.constexpr(3)
GLOBAL_DTYPE = tl.float32
GLOBAL_SHAPE = tl.constexpr((4, 8))
PLAIN_GLOBAL = 32
ANNOTATED_GLOBAL: tl.constexpr = 32


# ------------------------------------------------------------------ compile-time if


@triton.jit
def activation_kernel(x, out, n, MODE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(x + offs, mask=offs < n, other=0.0)
    if MODE == "exp":
        v = tl.exp(v)
    elif MODE == "abs":
        v = tl.abs(v)
    elif MODE == "none":
        pass
    else:
        v = -v
    tl.store(out + offs, v, mask=offs < n)


@pytest.mark.parametrize(
    ("mode", "present", "absent"),
    [
        ("exp", "tt.exp", ("tt.abs", "tt.sub")),
        ("abs", "tt.abs", ("tt.exp", "tt.sub")),
        ("neg", "tt.sub", ("tt.exp", "tt.abs")),  # Triton's -v is 0 - v
        ("none", None, ("tt.exp", "tt.abs", "tt.sub")),
    ],
)
def test_compile_time_if_elif_else(mode, present, absent):
    names = ops(tt(activation_kernel, X, Y, 16, MODE=mode, BLOCK=16))
    if present:
        assert names.count(present) == 1
    for a in absent:
        assert a not in names


def test_compile_time_conditions_short_circuit():
    @triton.jit
    def k(x, out, HAS_BIAS: tl.constexpr, bias, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        v = tl.load(x + offs)
        if HAS_BIAS and bias is not None:
            v += tl.load(bias + offs)
        if not HAS_BIAS or bias is None:
            v = v * 2.0
        tl.store(out + offs, v)

    with_bias = ops(tt(k, X, Y, True, X, BLOCK=16))
    without = ops(tt(k, X, Y, False, None, BLOCK=16))
    assert with_bias.count("tt.load") == 2 and "tt.mul" not in with_bias
    assert without.count("tt.load") == 1 and "tt.mul" in without


def test_compile_time_ternary_and_none_argument():
    @triton.jit
    def k(x, out, mask_ptr, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        scale = 2.0 if BLOCK > 8 else 0.5
        if mask_ptr is None:
            tl.store(out + offs, tl.load(x + offs) * scale)
        else:
            tl.store(out + offs, tl.load(x + offs) * scale, mask=tl.load(mask_ptr + offs) > 0)

    big = tt(k, X, Y, None, BLOCK=16)
    small = tt(k, X, Y, X, BLOCK=8)
    assert "%mask_ptr" not in big  # None is a compile-time argument
    assert "arith.constant 2.000000e+00 : f32" in big
    assert "arith.constant 5.000000e-01 : f32" in small
    assert "%mask_ptr: !tt.ptr<f32>" in small
    assert ops(small).count("tt.load") == 2


def test_compile_time_assert_passes():
    @triton.jit
    def k(x, out, BLOCK: tl.constexpr):
        assert BLOCK % 16 == 0, f"BLOCK={BLOCK}"
        tl.static_assert(BLOCK >= 16, "too small")
        tl.store(out, 1.0)

    assert "tt.store" in tt(k, X, Y, BLOCK=32)


# ------------------------------------------------------------------ constants


def test_float_inf_constants():
    @triton.jit
    def k(x, out, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        lo = tl.load(x + offs, mask=offs < 4, other=-float("inf"))
        hi = tl.minimum(lo, float("inf"))
        tl.store(out + offs, hi)

    ir = tt(k, X, Y, BLOCK=16)
    assert "arith.constant 0xff800000 : f32" in ir
    assert "arith.constant 0x7f800000 : f32" in ir


def test_float_nan_and_math_constants():
    @triton.jit
    def k(x, out, BLOCK: tl.constexpr):
        tl.store(out, float("nan"))
        tl.store(out + 1, math.pi)
        tl.store(out + 2, 1e-6)

    ir = tt(k, X, Y, BLOCK=16)
    assert "0x7fc00000 : f32" in ir
    assert "arith.constant 3.14159274 : f32" in ir  # pi rounded to f32
    assert "arith.constant 1.000000e-06 : f32" in ir


def test_int32_boundaries_accepted():
    @triton.jit
    def k(x, out, n):
        tl.store(out + (n + 2147483647 - 2147483647), 1.0)
        tl.store(out + (n + (-2147483648)), 1.0)

    ir = tt(k, X, Y, 3)  # not 1: an integer argument equal to 1 is compiled in
    assert "arith.constant 2147483647 : i32" in ir
    assert "arith.constant -2147483648 : i32" in ir


def test_compile_time_arithmetic_is_folded_in_python():
    @triton.jit
    def k(x, out, BLOCK: tl.constexpr):
        HALF: tl.constexpr = BLOCK // 2
        offs = tl.arange(0, HALF * 2 - HALF)
        tl.store(out + offs, offs * 1.0)

    ir = tt(k, X, Y, BLOCK=32)
    assert "tt.make_range {start = 0 : i32, end = 16 : i32}" in ir


# ------------------------------------------------------------------ inlined @jit helpers


@triton.jit
def scale_and_shift(v, shift, SCALE: tl.constexpr, SQUARE: tl.constexpr = False):
    """Returns a tuple; SCALE/SQUARE are constexpr, shift is runtime."""
    if SQUARE:
        v = v * v
    return v * SCALE, v + shift


@triton.jit
def early_return(v, FLAG: tl.constexpr):
    if FLAG:
        return tl.exp(v)
    return tl.abs(v)


@triton.jit
def calls_helper(v):
    a, b = scale_and_shift(v, 1.0, 2)
    return a + b


@triton.jit
def no_return(ptr, v):
    tl.store(ptr, v)


def test_helper_with_tuple_return_and_constexpr_params():
    @triton.jit
    def k(x, out, s, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        v = tl.load(x + offs)
        a, b = scale_and_shift(v, s, 3)
        c, d = scale_and_shift(v, shift=s, SCALE=4, SQUARE=True)
        tl.store(out + offs, a + b + c + d)

    ir = tt(k, X, Y, 1.5, BLOCK=16)
    names = ops(ir)
    assert "func.call" not in names and names.count("func.func") == 1
    assert "arith.constant 3.000000e+00 : f32" in ir
    assert "arith.constant 4.000000e+00 : f32" in ir
    assert names.count("tt.mul") == 3  # v*3, v*v, (v*v)*4
    assert "tt.splat %s : f32 -> tensor<16xf32>" in ir


def test_helper_early_return_in_compile_time_if():
    @triton.jit
    def k(x, out, FLAG: tl.constexpr, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(out + offs, early_return(tl.load(x + offs), FLAG))

    assert "tt.exp" in ops(tt(k, X, Y, True, BLOCK=16))
    names = ops(tt(k, X, Y, False, BLOCK=16))
    assert "tt.abs" in names and "tt.exp" not in names


def test_helper_calling_helper_and_helper_without_return():
    @triton.jit
    def k(x, out, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        r = no_return(out + offs, calls_helper(tl.load(x + offs)))
        tl.static_assert(r is None)

    names = ops(tt(k, X, Y, BLOCK=16))
    assert names.count("tt.store") == 1 and "tt.mul" in names


def test_helper_names_do_not_leak_into_caller():
    @triton.jit
    def k(x, out, BLOCK: tl.constexpr):
        v = 1.0
        _a, _b = scale_and_shift(v, 2.0, 2)
        tl.store(out, SCALE)  # noqa: F821

    with pytest.raises(triton.CompilationError, match="`SCALE` is not defined"):
        tt(k, X, Y, BLOCK=16)


# ------------------------------------------------------------------ assignment


def test_assigning_a_number_makes_a_scalar_tensor_as_in_triton():
    """Triton's rule: a name not annotated ``tl.constexpr`` holds a tensor; a Python number
    (or a constexpr) assigned to it becomes a scalar of Triton's type for it."""

    @triton.jit
    def k(x, out, LIT: tl.constexpr):
        kept: tl.constexpr = LIT
        tl.static_assert(kept == 10)
        v = LIT
        tl.static_assert(v.type == tl.int32)
        f = 1.5
        tl.static_assert(f.dtype == tl.float32)
        big = 2**40
        tl.static_assert(big.dtype == tl.int64)
        flag = True
        tl.static_assert(flag.dtype == tl.int1)
        a, b = 1, 2.0  # a tuple: element by element
        tl.static_assert(a.dtype == tl.int32 and b.dtype == tl.float32)
        d = tl.float16  # a dtype stays one
        tl.static_assert(d == tl.float16)
        n = v
        n += 1  # an augmented assignment keeps a tensor
        tl.static_assert(n.dtype == tl.int32)
        tl.store(out, (v + a + n).to(tl.float32))

    tt(k, X, Y, LIT=10)


def test_a_number_assigned_to_a_name_is_not_a_compile_time_size():
    @triton.jit
    def k(x, out, BLOCK: tl.constexpr):
        small = min(BLOCK, 8)
        tl.store(out + tl.arange(0, small), tl.zeros((8,), tl.float32))  # <-

    expect_error(k, (X, Y), {"BLOCK": 16}, ConstexprError, ("compile-time",), "tl.arange")


# ------------------------------------------------------------------ Python builtins and helpers


def test_min_max_on_compile_time_values():
    @triton.jit
    def k(x, out, BLOCK: tl.constexpr):
        small: tl.constexpr = min(BLOCK, 8)
        big: tl.constexpr = max(BLOCK, 64, 32)
        both: tl.constexpr = max((small, 2))
        tl.store(out + tl.arange(0, small), tl.zeros((small,), tl.float32))
        tl.store(out + tl.arange(0, big), tl.zeros((big,), tl.float32))
        tl.static_assert(both == 8)

    ir = tt(k, X, Y, BLOCK=16)
    assert "tt.make_range {start = 0 : i32, end = 8 : i32}" in ir
    assert "tt.make_range {start = 0 : i32, end = 64 : i32}" in ir


def test_min_max_on_runtime_values_are_minimum_maximum():
    @triton.jit
    def k(x, out, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        a = min(offs, n)
        b = max(offs, 3, n)
        tl.store(out + a + b, 1.0)

    names = ops(tt(k, X, Y, 5, BLOCK=16))
    assert names.count("tt.minimum") == 1 and names.count("tt.maximum") == 2


def test_cdiv_runtime_and_compile_time():
    @triton.jit
    def k(x, out, n, BLOCK: tl.constexpr):
        blocks = tl.cdiv(n, BLOCK)
        host = triton.cdiv(n, 4)
        CT: tl.constexpr = tl.cdiv(BLOCK, 3)
        tl.store(out + blocks + host, 1.0 * CT)

    ir = tt(k, X, Y, 100, BLOCK=16)
    # (n + 16 - 1) // 16 and (n + 4 - 1) // 4 on i32
    assert len([ln for ln in op_lines(ir, "tt.div") if ln.endswith(": i32")]) == 2
    assert "arith.constant 6.000000e+00 : f32" in ir  # cdiv(16, 3) == 6 at compile time


def test_abs_len_and_math_helpers_at_compile_time():
    @triton.jit
    def k(x, out, n, BLOCK: tl.constexpr):
        SHAPE: tl.constexpr = (BLOCK, 2 * BLOCK)
        LOG: tl.constexpr = int(math.log2(BLOCK))
        offs = tl.arange(0, len(SHAPE) * abs(-LOG))
        r = abs(n)
        tl.store(out + offs + r, 1.0)

    ir = tt(k, X, Y, 3, BLOCK=16)
    assert "tt.make_range {start = 0 : i32, end = 8 : i32}" in ir  # 2 * log2(16)
    assert "%r = tt.abs %n : i32" in ir


def test_next_power_of_2_in_kernel():
    @triton.jit
    def k(x, out, N: tl.constexpr):
        B: tl.constexpr = triton.next_power_of_2(N)
        tl.store(out + tl.arange(0, B), 0.0)

    assert "end = 16 : i32" in tt(k, X, Y, N=9)


# ------------------------------------------------------------------ keyword arguments


def test_keyword_arguments_to_builtins():
    @triton.jit
    def k(x, out, n, BLOCK: tl.constexpr):
        pid = tl.program_id(axis=1)
        offs = tl.arange(start=0, end=BLOCK)
        z = tl.zeros(shape=(BLOCK,), dtype=tl.float32)
        v = tl.load(pointer=x + offs, mask=offs < n, other=1.0)
        s = tl.sum(input=v + z, axis=0, keep_dims=True)
        tl.store(pointer=out + tl.arange(0, 1), value=s, mask=pid < n)

    ir = tt(k, X, Y, 4, BLOCK=16)
    assert "tt.get_program_id y : i32" in ir
    assert "arith.constant 1.000000e+00 : f32" in ir
    assert "tt.reduce %" in ir and "tensor<16xf32> -> f32 {" in ir and "tt.add" in ir
    assert "tensor<1xf32>" in ir  # keep_dims


def test_kernel_keyword_launch_arguments():
    @triton.jit
    def k(x, out, n, BLOCK: tl.constexpr):
        tl.store(out + tl.arange(0, BLOCK), 1.0, mask=tl.arange(0, BLOCK) < n)

    a = tt(k, X, Y, 4, BLOCK=16)
    b = tt(k, out=Y, x=X, n=4, BLOCK=16)
    assert a == b


# ------------------------------------------------------------------ globals and closures


def test_globals_constexpr_dtype_and_tuple():
    @triton.jit
    def k(x, out):
        offs = tl.arange(0, GLOBAL_BLOCK)
        z = tl.zeros(GLOBAL_SHAPE, GLOBAL_DTYPE)
        tl.store(out + offs, tl.load(x + offs) * GLOBAL_SCALE)
        tl.static_assert(z.shape[1] == 8)

    ir = tt(k, X, Y)
    assert "end = 32 : i32" in ir
    assert "arith.constant 3.000000e+00 : f32" in ir
    assert "tt.zeros : tensor<4x8xf32>" in ir


def make_scaled_copy(scale, block):
    @triton.jit
    def scaled_copy(x, out):
        offs = tl.arange(0, block)
        tl.store(out + offs, tl.load(x + offs) * scale)

    return scaled_copy


def test_closure_values_are_compile_time():
    k1 = make_scaled_copy(tl.constexpr(0.5), tl.constexpr(8))
    k2 = make_scaled_copy(tl.constexpr(4.0), tl.constexpr(32))
    a, b = tt(k1, X, Y), tt(k2, X, Y)
    assert "arith.constant 5.000000e-01 : f32" in a and "end = 8 : i32" in a
    assert "arith.constant 4.000000e+00 : f32" in b and "end = 32 : i32" in b


@triton.jit
def plain_global_kernel(x, out):
    tl.store(out + tl.arange(0, PLAIN_GLOBAL), 0.0)  # <-


@triton.jit
def annotated_global_kernel(x, out):
    tl.store(out + tl.arange(0, ANNOTATED_GLOBAL), 0.0)  # <-


@pytest.mark.parametrize(
    ("kernel", "name"),
    [(plain_global_kernel, "PLAIN_GLOBAL"), (annotated_global_kernel, "ANNOTATED_GLOBAL")],
)
def test_plain_globals_are_refused(kernel, name):
    """Triton 3.6's rule: a global read by name must be made with ``tl.constexpr(...)`` (an
    annotation is not enough): a plain one may change between launches unseen."""
    err = expect_error(
        kernel, (X, Y), {}, KernelNameError, (f"Cannot access global variable {name}",), name
    )
    assert isinstance(err.__cause__, NameError)


def test_plain_closure_values_are_refused():
    with pytest.raises(KernelNameError, match="Cannot access global variable scale"):
        tt(make_scaled_copy(0.5, tl.constexpr(8)), X, Y)


# The same reads as the two kernels above, in kernels of their own: a kernel compiled while the
# rule is lifted is cached (in memory and on disk), and a cache hit is not compiled again, so the
# tests that lift the rule must not share kernels with the tests that expect the refusal (they
# may run in any order, on any xdist worker).
@triton.jit
def allowed_plain_global_kernel(x, out):
    tl.store(out + tl.arange(0, PLAIN_GLOBAL), 0.0)


@triton.jit
def allowed_annotated_global_kernel(x, out):
    tl.store(out + tl.arange(0, ANNOTATED_GLOBAL), 0.0)


@pytest.mark.parametrize("setting", ["1", "true"])
def test_env_allows_plain_globals(monkeypatch, setting):
    """``TRITON_ALLOW_NON_CONSTEXPR_GLOBALS=1`` lifts the rule (and closures follow it)."""
    monkeypatch.setenv("TRITON_ALLOW_NON_CONSTEXPR_GLOBALS", setting)
    assert "end = 32 : i32" in tt(allowed_plain_global_kernel, X, Y)
    assert "end = 32 : i32" in tt(allowed_annotated_global_kernel, X, Y)
    assert "end = 8 : i32" in tt(make_scaled_copy(0.5, 8), X, Y)


def test_knob_allows_plain_globals(monkeypatch):
    from mytriton import knobs

    monkeypatch.setattr(knobs.compilation, "allow_non_constexpr_globals", True)
    assert "end = 32 : i32" in tt(allowed_plain_global_kernel, X, Y)


def test_global_module_attribute_chain():
    @triton.jit
    def k(x, out):
        tl.store(out + tl.arange(0, 4), tl.full((4,), math.e, triton.language.float32))

    assert "arith.constant 2.71828175 : f32" in tt(k, X, Y)


def test_kernel_parameter_shadows_global():
    @triton.jit
    def k(x, out, GLOBAL_BLOCK: tl.constexpr):
        tl.store(out + tl.arange(0, GLOBAL_BLOCK), 0.0)

    assert "end = 8 : i32" in tt(k, X, Y, GLOBAL_BLOCK=8)


# ------------------------------------------------------------------ assignments


def test_augmented_assignment_operators():
    @triton.jit
    def k(x, out, i, j):
        a = i
        a += j
        a -= j
        a *= j
        a //= j
        a %= j
        a &= j
        a |= j
        a ^= j
        f = a * 1.0
        f /= 2.0
        tl.store(out, f)

    names = ops(tt(k, X, Y, 5, 3))
    for op in ("tt.add", "tt.sub", "tt.mul", "tt.rem", "tt.and", "tt.or", "tt.xor"):
        assert op in names, op
    assert names.count("tt.div") == 2


def test_tuple_assignment_swap_and_chained_targets():
    @triton.jit
    def k(x, out, i, j):
        a, b = i, j
        a, b = b, a
        c = d = a - b
        (e, (f, g)) = (c, (d, 1))
        tl.store(out, (e + f + g).to(tl.float32))

    ir = tt(k, X, Y, 5, 3)
    assert "%c = tt.sub %j, %i : i32" in ir


def test_annotated_assignment_docstring_and_pass():
    @triton.jit
    def k(x, out, BLOCK: tl.constexpr):
        """A docstring is ignored."""
        C: tl.constexpr = BLOCK * 2
        v: tl.float32 = 1.0
        pass
        tl.store(out + tl.arange(0, C), v)

    assert "end = 32 : i32" in tt(k, X, Y, BLOCK=16)


def test_ssa_names_follow_python_names():
    @triton.jit
    def k(x, out, n, BLOCK: tl.constexpr):
        offsets = tl.arange(0, BLOCK)
        mask = offsets < n
        tl.store(out + offsets, 1.0, mask=mask)

    ir = tt(k, X, Y, 3, BLOCK=16)
    assert "%offsets = tt.make_range" in ir and "%mask = tt.cmp lt, %offsets" in ir
    assert (
        "func.func @k(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32)"
        in ir
    )


def test_static_print_and_hints_are_transparent(capsys):
    @triton.jit
    def k(x, out, BLOCK: tl.constexpr):
        offs = tl.multiple_of(tl.arange(0, BLOCK), 16)
        offs = tl.max_contiguous(offs, 16)
        tl.static_print("BLOCK is", BLOCK)
        tl.store(out + offs, 0.0)

    names = ops(tt(k, X, Y, BLOCK=16))
    assert "BLOCK is 16" in capsys.readouterr().out
    assert names.count("tt.make_range") == 1


# ------------------------------------------------------------------ locations


def test_ops_carry_the_python_source_location():
    @triton.jit
    def k(x, out, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        v = tl.load(x + offs)
        tl.store(out + offs, tl.exp(v))

    compiled = k.warmup(X, Y, grid=(1,), BLOCK=16)
    lines, first = inspect.getsourcelines(k.fn)
    exp_line = first + next(i for i, ln in enumerate(lines) if "tl.exp" in ln)
    exp_col = lines[exp_line - first].index("tl.exp") + 1
    by_name = {op.name: op for op in compiled.module.walk()}
    loc = by_name["tt.exp"].location
    assert isinstance(loc, FileLineColLoc)
    assert loc.filename.data == inspect.getsourcefile(k.fn)
    assert (loc.line.data, loc.column.data) == (exp_line, exp_col)
    func_loc = by_name["func.func"].location
    assert func_loc.line.data == first + 1  # the `def` line (after the decorator)
