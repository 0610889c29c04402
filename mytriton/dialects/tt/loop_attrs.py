"""The ``scf.for`` attributes ``tl.range``'s options set, and the module attribute that carries
the launch's ``num_stages``: the frontend writes them, the passes read them (one spelling each).

``tt.num_stages`` is both: on the module it is the launch's ``num_stages``, written once where
the launch options meet the module (the ``tt-opt`` stage, ``runtime/compiler.py``; a
hand-written module for ``mytriton-opt`` spells it itself), and every pass that pipelines reads
it from there (``module_num_stages``: a module without it gets ``DEFAULT_NUM_STAGES``); on a
loop (``tl.range(..., num_stages=)``) it overrides the module's for that loop, as in Triton.
``tt.disable_licm`` keeps LICM from hoisting out of the loop (Triton sets an LLVM loop
annotation instead, which xDSL does not have)."""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, IntegerType, i32
from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException

#: the launch's ``num_stages`` when it names none (Triton's default): the one spelling of it,
#: and what a module without ``NUM_STAGES`` is pipelined with
DEFAULT_NUM_STAGES = 3

NUM_STAGES = "tt.num_stages"
LOOP_UNROLL_FACTOR = "tt.loop_unroll_factor"
DISALLOW_ACC_MULTI_BUFFER = "tt.disallow_acc_multi_buffer"
FLATTEN = "tt.flatten"
WARP_SPECIALIZE = "tt.warp_specialize"
DISABLE_LICM = "tt.disable_licm"


def set_module_num_stages(module: Operation, num_stages: int) -> None:
    """Write the launch's ``num_stages`` on ``module`` (``tt.num_stages``), unless the module
    already names its own: an IR file compiled from a stage keeps the count it says."""
    if NUM_STAGES not in module.attributes:
        module.attributes[NUM_STAGES] = IntegerAttr(num_stages, i32)


def module_num_stages(module: Operation) -> int:
    """The ``num_stages`` the module's loops are pipelined with: its ``tt.num_stages``, else
    ``DEFAULT_NUM_STAGES`` (a ``VerifyException`` when it is not an integer)."""
    attr = module.attributes.get(NUM_STAGES)
    if attr is None:
        return DEFAULT_NUM_STAGES
    if not isinstance(attr, IntegerAttr) or not isinstance(attr.type, IntegerType):
        raise VerifyException(f"the module's `{NUM_STAGES}` must be an integer, got {attr}")
    return attr.value.data


def loop_num_stages(loop: Operation, module_stages: int) -> int:
    """The stages of ``loop``: its own ``tt.num_stages`` (``tl.range``'s), else the module's."""
    attr = loop.attributes.get(NUM_STAGES)
    return attr.value.data if isinstance(attr, IntegerAttr) else module_stages
