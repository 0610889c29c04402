"""The ``scf.for`` attributes ``tl.range``'s options set, and the module attribute that carries
the launch's ``num_stages``: the frontend writes them, the passes read them (one spelling each).

``tt.num_stages`` on a loop overrides the module's (the launch's) for that loop;
``tt.disable_licm`` keeps LICM from hoisting out of the loop (Triton sets an LLVM loop
annotation instead, which xDSL does not have)."""

from __future__ import annotations

#: the launch's ``num_stages`` when it names none (Triton's default): the one spelling of it;
#: it reaches the passes as ``tt-pipeline``'s module attribute ``NUM_STAGES`` and as
#: ``ttg-pipeline``'s option, and a loop's own ``NUM_STAGES`` overrides both
DEFAULT_NUM_STAGES = 3

NUM_STAGES = "tt.num_stages"
LOOP_UNROLL_FACTOR = "tt.loop_unroll_factor"
DISALLOW_ACC_MULTI_BUFFER = "tt.disallow_acc_multi_buffer"
FLATTEN = "tt.flatten"
WARP_SPECIALIZE = "tt.warp_specialize"
DISABLE_LICM = "tt.disable_licm"
