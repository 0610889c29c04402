"""Op categories kept out of generation, each with the reason, in one place.

``KNOWN_DIVERGENCES``: mytriton differs from Triton and a fix is under way in another branch;
delete an entry once its fix is merged, and the generator covers the area again.

``INTERPRETER_DEFECTS``: Triton 3.6's *interpreter* computes these wrongly (checked by experiment
against torch and IEEE), so they are kept out of the comparison with the interpreter reference
only; the GPU long mode (``--reference compiled``) compares them against compiled Triton.

``COMPILED_DIFFERENCES``: compiled Triton 3.6 (its NVIDIA backend) computes these differently
from its own interpreter and from mytriton; kept out of ``--reference compiled`` only. Against
compiled Triton every kernel also runs with ``enable_fp_fusion=False`` on both sides: which
``a * b + c`` a compiler contracts into an FMA is its own choice (LLVM fuses a product that has
other uses, NVRTC does not), so fused results may differ in the last bit by design.
"""

from __future__ import annotations

KNOWN_DIVERGENCES: dict[str, str] = {}

INTERPRETER_DEFECTS: dict[str, str] = {
    # TritonInterpreter stores bf16 as uint16 and applies NumPy's add/mul/... to the raw bits;
    # only bf16 <-> f32 conversions decode the bits. So bf16 values are converted to f32 right
    # after their load and never computed on.
    "bf16_arith": "bf16 arithmetic on raw uint16 bits",
    # its bf16 -> f32 conversion flushes bf16 subnormals to zero: bf16 inputs carry none
    "bf16_subnormal": "bf16 -> f32 of a subnormal",
    # ~x of an unsigned block raises OverflowError (it builds NumPy's uint from -1)
    "invert_unsigned": "~ of an unsigned integer",
    # an integer tl.sum to a scalar (0-d) that wraps raises OverflowError (np.sum widens to
    # int64, and the 0-d result is rebuilt with np.array([value], dtype) instead of astype)
    "int_sum_scalar": "integer tl.sum to a 0-d result",
    # `a >> b` is arithmetic when the block it is called on is signed, even where the operands
    # promote to an unsigned type (int16 >> uint64); the interpreter then keeps signed NumPy
    # data under the unsigned type, and the next op (tl.where: float64) goes wrong
    "ashr_unsigned": "an arithmetic >> promoted to an unsigned type",
    # its f32 -> bf16 (and fp8) rounding adds the first dropped bit (ties away, not to even),
    # saturates instead of giving inf, and mishandles subnormals
    "bf16_round": "f32 -> bf16 / fp8 rounding",
    # tl.fma is x * y + z with two roundings in NumPy, not a fused multiply-add
    "fma": "tl.fma not fused",
    # maxnumf/minnumf and clampf are np.maximum/np.minimum/np.clip, which propagate NaN where
    # Triton's default propagate_nan=NONE returns the other operand (only PropagateNan.ALL
    # programs run against the interpreter)
    "minmax_nan_none": "tl.maximum/minimum/clamp with propagate_nan=NONE",
    # tl.argmax/argmin (and max/min with return_indices) are np.argmax/np.max, whose NaN
    # handling differs from the compiled comparison-based combine
    "argminmax_float": "argmax/argmin of float blocks",
    # its generic tl.reduce (xor_sum; tl.sum/max/min call NumPy instead) with axis=None and
    # keep_dims=True flattens the block first and then keeps one dimension: a [1] result, where
    # compiled Triton (core.reduce's expand_ndims) keeps them all ([1, 1] for a 2-D block).
    # Found by seed 12, program 161: its next tl.cumprod(..., axis=1) failed there
    "reduce_none_keep_dims": "a combine-function reduction with axis=None, keep_dims=True",
    # a runtime float argument stays a Python float (a weak scalar) in the interpreter but is an
    # fp32 scalar tensor when compiled; and a `range` index is a Python int there
    "float_scalar_arg": "runtime float scalar arguments",
}


COMPILED_DIFFERENCES: dict[str, str] = {
    # float `%` is LLVM's frem, which the NVPTX backend expands to x - trunc(x / y) * y
    # (div.rn.f32, cvt.rzi.f32.f32, fma.rn.f32 in Triton's PTX for `x % y` of f32 blocks): off
    # by a multiple of y where x / y rounds across an integer and garbage once |x / y| >= 2**24.
    # Triton's interpreter (np.fmod) and mytriton (fmod on every backend) are exact. Found by
    # the GPU long mode (seed 8, program 9: an int32 sum % f32 compared with an int16).
    "frem": "float % (fmod) of f32/f64 operands",
}

#: kept out of generation against EVERY reference: compiled Triton flushes f32 subnormals in
#: its math, and mytriton's GPU code does too where it uses Triton's ``.ftz`` instructions, which
#: gpusim models (it runs in both modes); Triton's interpreter and mytriton's keep them.
FTZ_DIFFERENCES: dict[str, str] = {
    # Triton links libdevice with subnormals flushed (nvvm-reflect __CUDA_FTZ=1), and its exp2,
    # sqrt and rsqrt instructions are .ftz (ex2/sqrt/rsqrt.approx.ftz.f32; mytriton emits the
    # same and gpusim flushes as they do): tl.sqrt(1e-45) is 0.0 and tl.sqrt(-1e-45) -0.0 on the
    # GPU and in gpusim, 3.7e-23 and NaN in both interpreters; tl.floor(-1e-40) is -0.0 in
    # compiled Triton, -1.0 in its interpreter and in mytriton, which keeps f32 subnormals in
    # libdevice (docs/limitations.md, Math). So f32 inputs carry no subnormals.
    "f32_subnormal": "f32 subnormal inputs to math",
}
