"""Conversions between global pointers and 64-bit integers: ``tt.int_to_ptr`` and
``tt.ptr_to_int`` (Triton's ops of those names).

``x.to(tl.pointer_type(tl.float16))`` on an int64 address (a grouped GEMM's table of matrix
addresses) and ``p.to(tl.int64)`` are these; a cast between pointer types is the pair (the same
address, another pointee). They are elementwise, so layouts, lowering register by register and
the splat canonicalizations treat them as any other; they never fold: an address is only known
when the kernel runs.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import IntegerType, Signedness
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import irdl_op_definition

from mytriton.dialects.tt import semantics as sem
from mytriton.dialects.tt.elementwise import Array, ConversionOp
from mytriton.dialects.tt.traits import verify_error
from mytriton.dialects.tt.types import PointerType, element_type, type_str


def is_address(t: Attribute) -> bool:
    """A 64-bit integer element, signless or unsigned (``i64``, ``ui64``): an address."""
    e = element_type(t)
    return (
        isinstance(e, IntegerType) and e.width.data == 64 and e.signedness.data != Signedness.SIGNED
    )


def is_global_pointer(t: Attribute) -> bool:
    e = element_type(t)
    return isinstance(e, PointerType) and e.address_space.data == 1


class PointerCastOp(ConversionOp):
    """Base of the two casts: no NumPy semantics (each backend has its rule) and no folding."""

    def evaluate(self, *args: Array) -> Array:
        raise NotImplementedError(f"{self.name} has no value before the kernel runs")

    def fold(self) -> Sequence[SSAValue | Attribute] | None:
        return None


@irdl_op_definition
class IntToPtrOp(PointerCastOp):
    """The global pointer at a 64-bit address (``tl.load(table + i).to(tl.pointer_type(d))``)."""

    name = "tt.int_to_ptr"
    SEMANTICS = staticmethod(sem.bitcast)  # never called: ``evaluate`` is overridden

    def verify_(self) -> None:
        if not is_address(self.src.type) or not is_global_pointer(self.result.type):
            raise verify_error(
                self,
                f"converts a 64-bit integer to a global pointer, not {type_str(self.src.type)} "
                f"to {type_str(self.result.type)}",
            )
        self._check_shapes()


@irdl_op_definition
class PtrToIntOp(PointerCastOp):
    """The address a global pointer holds, as an ``i64`` (``p.to(tl.int64)``)."""

    name = "tt.ptr_to_int"
    SEMANTICS = staticmethod(sem.bitcast)  # never called: ``evaluate`` is overridden

    def verify_(self) -> None:
        result = element_type(self.result.type)
        if not is_global_pointer(self.src.type) or result != IntegerType(64):
            raise verify_error(
                self,
                f"converts a global pointer to i64, not {type_str(self.src.type)} to "
                f"{type_str(self.result.type)}",
            )
        self._check_shapes()


TT_POINTER_CAST_OPS = (IntToPtrOp, PtrToIntOp)
