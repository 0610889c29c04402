"""Pass names → pass classes: xDSL's generic passes, ours, and third-party plugins.

Pipelines are written as xDSL pass specs (``"canonicalize,cse"``), so every pass a user can
name must be found here. Factories import lazily: listing the passes must not import every
pass module (``mytriton-opt --help`` and each JIT compile read this table).

Third-party passes are discovered through the Python entry-point group ``mytriton.passes``:
the entry point's name is the pass name and its value a ``ModulePass`` subclass, e.g.

.. code-block:: toml

    [project.entry-points."mytriton.passes"]
    my-pass = "my_package.passes:MyPass"
"""

from __future__ import annotations

import difflib
import warnings
from collections.abc import Callable, Mapping, Sequence
from importlib.metadata import EntryPoint, entry_points

from xdsl.passes import ModulePass

from mytriton.errors import MyTritonError

ENTRY_POINT_GROUP = "mytriton.passes"

PassFactory = Callable[[], type[ModulePass]]


class UnknownPassError(MyTritonError, ValueError):
    """A pipeline names a pass that is neither built in nor provided by a plugin."""


class PluginPassError(MyTritonError, TypeError):
    """A ``mytriton.passes`` entry point does not name a usable ``ModulePass`` subclass."""


def _canonicalize() -> type[ModulePass]:
    from xdsl.transforms.canonicalize import CanonicalizePass

    return CanonicalizePass


def _cse() -> type[ModulePass]:
    from xdsl.transforms.common_subexpression_elimination import (
        CommonSubexpressionElimination,
    )

    return CommonSubexpressionElimination


def _dce() -> type[ModulePass]:
    from xdsl.transforms.dead_code_elimination import DeadCodeElimination

    return DeadCodeElimination


def _licm() -> type[ModulePass]:
    from mytriton.passes.tt.licm import LoopInvariantCodeMotionPass

    return LoopInvariantCodeMotionPass


def _tt_pipeline() -> type[ModulePass]:
    from mytriton.passes.ttg.pipelining.loads import PipelineLoadsPass

    return PipelineLoadsPass


def _tt_simplify() -> type[ModulePass]:
    from mytriton.passes.tt.simplify import SimplifyPass

    return SimplifyPass


def _ttg_accelerate_matmul() -> type[ModulePass]:
    from mytriton.passes.ttg.accelerate_matmul import AccelerateMatmulPass

    return AccelerateMatmulPass


def _tt_legalize_fp8_dots() -> type[ModulePass]:
    from mytriton.passes.ttg.legalize_fp8_dots import LegalizeFp8DotsPass

    return LegalizeFp8DotsPass


def _tt_legalize_tf32x3_dots() -> type[ModulePass]:
    from mytriton.passes.ttg.legalize_tf32x3_dots import LegalizeTf32x3DotsPass

    return LegalizeTf32x3DotsPass


def _tt_assign_layouts() -> type[ModulePass]:
    from mytriton.passes.ttg.assign_layouts import AssignLayoutsPass

    return AssignLayoutsPass


def _ttg_pipeline() -> type[ModulePass]:
    from mytriton.passes.ttg.pipelining.async_copies import PipelineAsyncPass

    return PipelineAsyncPass


def _ttg_tma_stores() -> type[ModulePass]:
    from mytriton.passes.ttg.tma_stores import TmaStoresPass

    return TmaStoresPass


def _tt_lower_to_gpu() -> type[ModulePass]:
    from mytriton.passes.gpu_lowering.lower_to_gpu import LowerToGpuPass

    return LowerToGpuPass


def builtin_passes() -> dict[str, PassFactory]:
    """The passes mytriton itself ships (xDSL's generic ones and ours), by name."""
    return {
        "canonicalize": _canonicalize,
        "cse": _cse,
        "dce": _dce,
        "licm": _licm,
        "tt-simplify": _tt_simplify,
        "tt-pipeline": _tt_pipeline,
        "ttg-accelerate-matmul": _ttg_accelerate_matmul,
        "tt-legalize-fp8-dots": _tt_legalize_fp8_dots,
        "tt-legalize-tf32x3-dots": _tt_legalize_tf32x3_dots,
        "tt-assign-layouts": _tt_assign_layouts,
        "ttg-pipeline": _ttg_pipeline,
        "ttg-tma-stores": _ttg_tma_stores,
        "tt-lower-to-gpu": _tt_lower_to_gpu,
    }


def _plugin_factory(ep: EntryPoint) -> PassFactory:
    """A factory that loads ``ep`` on first use and checks it really is the named pass."""

    def load() -> type[ModulePass]:
        try:
            cls = ep.load()
        except Exception as e:
            raise PluginPassError(
                f"cannot load pass '{ep.name}' from entry point '{ep.value}' "
                f"(group {ENTRY_POINT_GROUP}): {e}"
            ) from e
        if not (isinstance(cls, type) and issubclass(cls, ModulePass)):
            raise PluginPassError(
                f"entry point '{ep.name} = {ep.value}' (group {ENTRY_POINT_GROUP}) must name "
                f"a subclass of xdsl.passes.ModulePass, got {cls!r}"
            )
        if getattr(cls, "name", None) != ep.name:
            raise PluginPassError(
                f"entry point '{ep.name}' (group {ENTRY_POINT_GROUP}) names "
                f"{cls.__qualname__}, whose pass name is '{getattr(cls, 'name', None)}'; "
                "the entry point must be named after the pass"
            )
        return cls

    return load


def plugin_passes() -> dict[str, PassFactory]:
    """Passes installed by other distributions through the ``mytriton.passes`` group.

    Read on every call (importlib caches the scan), so a plugin put on ``sys.path`` at run
    time is seen without restarting.
    """
    return {ep.name: _plugin_factory(ep) for ep in entry_points(group=ENTRY_POINT_GROUP)}


def available_passes() -> dict[str, PassFactory]:
    """Every pass a pipeline may name: built-in ones, then plugins.

    A plugin cannot replace a built-in pass (a pipeline's meaning must not depend on what
    else is installed); such a plugin is ignored with a warning.
    """
    passes = builtin_passes()
    for name, factory in plugin_passes().items():
        if name in passes:
            warnings.warn(
                f"ignoring plugin pass '{name}' (group {ENTRY_POINT_GROUP}): "
                "a built-in pass has that name",
                stacklevel=2,
            )
            continue
        passes[name] = factory
    return passes


def get_pass_class(name: str) -> type[ModulePass]:
    """The pass class registered under ``name``; ``UnknownPassError`` lists the known names."""
    passes = available_passes()
    factory = passes.get(name)
    if factory is None:
        raise UnknownPassError(unknown_pass_message([name], passes))
    return factory()


def unknown_pass_message(names: Sequence[str], passes: Mapping[str, PassFactory]) -> str:
    """``unknown pass 'x' (did you mean 'y'?); known passes: a, b, c`` (shared by registry and
    pipeline): the close name first, as the full list is long."""
    quoted = ", ".join(f"'{n}'{_did_you_mean(n, passes)}" for n in names)
    plural = "passes" if len(names) > 1 else "pass"
    return f"unknown {plural} {quoted}; known passes: {', '.join(sorted(passes))}"


def _did_you_mean(name: str, passes: Mapping[str, PassFactory]) -> str:
    close = difflib.get_close_matches(name, list(passes), n=1)
    return f" (did you mean '{close[0]}'?)" if close else ""
