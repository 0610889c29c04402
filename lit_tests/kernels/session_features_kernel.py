# RUN: env MYTRITON_BACKEND=gpusim %python %s scaled | filecheck %s --check-prefix=SCALED
# RUN: env MYTRITON_BACKEND=gpusim %python %s atomic | filecheck %s --check-prefix=ATOMIC
# RUN: env MYTRITON_BACKEND=gpusim %python %s ftz | filecheck %s --check-prefix=FTZ
# RUN: env MYTRITON_BACKEND=gpusim %python %s noftz | filecheck %s --check-prefix=NOFTZ
# RUN: env MYTRITON_BACKEND=gpusim %python %s dotstore | filecheck %s --check-prefix=STORE
"""Features written in existing ops, as IR: tl.dot_scaled is an upcast to bf16 times
2**(scale - 127) (the scale's bits shifted into a bf16 exponent, NaN for 0xFF) then a tt.dot;
desc.atomic_add is a masked relaxed tt.atomic_rmw of the block's pointers; enable_reflect_ftz
picks the ftz or the plain ex2 instruction; a tensor-core dot's result is converted to a
16-byte-per-thread layout before its store."""

import sys

import numpy as np

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.stages import strip_locations
from mytriton.tools.tensor_descriptor import TensorDescriptor


@triton.jit
def scaled_kernel(a, sa, b, sb, out):
    m = tl.arange(0, 16)
    k = tl.arange(0, 32)
    n = tl.arange(0, 16)
    x = tl.load(a + m[:, None] * 32 + k[None, :])
    y = tl.load(b + k[:, None] * 16 + n[None, :])
    xs = tl.load(sa + m[:, None])
    ys = tl.load(sb + n[:, None])
    z = tl.dot_scaled(x, xs, "e4m3", y, ys, "e4m3")
    tl.store(out + m[:, None] * 16 + n[None, :], z)


@triton.jit
def desc_atomic_kernel(desc, v):
    offs = tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :]
    desc.atomic_add([0, 0], tl.load(v + offs))


@triton.jit
def exp2_kernel(x, out):
    o = tl.arange(0, 128)
    tl.store(out + o, tl.exp2(tl.load(x + o)))


@triton.jit
def dot_store_kernel(a, b, out):
    r = tl.arange(0, 64)
    x = tl.load(a + r[:, None] * 64 + r[None, :])
    y = tl.load(b + r[:, None] * 64 + r[None, :])
    tl.store(out + r[:, None] * 64 + r[None, :], tl.dot(x, y))


which = sys.argv[1]
if which == "scaled":
    u8 = np.zeros(512, np.uint8)
    scales = np.zeros(16, np.uint8)
    out = np.zeros(256, np.float32)
    c = scaled_kernel.warmup(u8, scales, u8, scales, out, grid=(1,))
    print(strip_locations(c.asm["tt"]))
elif which == "atomic":
    d = TensorDescriptor.from_tensor(np.zeros((32, 16), np.float32), [16, 16])
    c = desc_atomic_kernel.warmup(d, np.zeros(256, np.float32), grid=(1,))
    print(strip_locations(c.asm["tt"]))
elif which in ("ftz", "noftz"):
    f = np.zeros(128, np.float32)
    c = exp2_kernel.warmup(f, f, grid=(1,), enable_reflect_ftz=which == "ftz")
    print(strip_locations(c.asm["gpu"]))
else:
    h = np.zeros(4096, np.float16)
    c = dot_store_kernel.warmup(h, h, np.zeros(4096, np.float32), grid=(1,))
    print(strip_locations(c.asm["ttg"]))

# SCALED-LABEL: func.func @scaled_kernel(
# SCALED:         %[[X8:.*]] = tt.bitcast %x : tensor<16x32xui8> -> tensor<16x32xf8E4M3FN>
# SCALED:         %[[XB:.*]] = tt.cast %[[X8]] : tensor<16x32xf8E4M3FN> -> tensor<16x32xbf16>
# SCALED:         %[[S16:.*]] = tt.cast %xs : tensor<16x1xui8> -> tensor<16x1xui16>
# SCALED:         %[[SH:.*]] = tt.shl %[[S16]], %{{.*}} : tensor<16x1xui16>
# SCALED:         tt.bitcast %[[SH]] : tensor<16x1xui16> -> tensor<16x1xbf16>
# SCALED:         %[[XS:.*]] = tt.mul %[[XB]], %{{.*}} : tensor<16x32xbf16>
# SCALED:         arith.constant 0x7fc0 : bf16
# SCALED:         %[[XN:.*]] = tt.select %{{.*}}, %{{.*}}, %[[XS]] : tensor<16x32xbf16>
# SCALED:         %z = tt.dot %[[XN]], %{{.*}}, %{{.*}} : tensor<16x32xbf16> * tensor<32x16xbf16> -> tensor<16x16xf32>

# ATOMIC-LABEL: func.func @desc_atomic_kernel(
# ATOMIC:         tt.atomic_rmw add, relaxed, gpu, %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x16x!tt.ptr<f32>>

# FTZ: llvm.nvvm.ex2.approx.ftz.f
# NOFTZ-NOT: ex2.approx.ftz
# NOFTZ: llvm.nvvm.ex2.approx.f32

# STORE:         %[[D:.*]] = tt.dot %x, %y, %{{.*}} -> tensor<64x64xf32, #[[MMA:blocked[0-9]*]]>
# STORE:         %[[C:.*]] = ttg.convert_layout %[[D]] : tensor<64x64xf32, #[[MMA]]> -> tensor<64x64xf32, #[[OUT:blocked[0-9]*]]>
# STORE:         tt.store %{{.*}}, %[[C]] : tensor<64x64x!tt.ptr<f32>, #[[OUT]]>
