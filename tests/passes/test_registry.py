"""The pass registry: built-in names, lazy loading, and the unknown-pass error."""

from __future__ import annotations

import subprocess
import sys

import pytest
from xdsl.passes import ModulePass

from mytriton.errors import MyTritonError
from mytriton.passes import registry
from mytriton.passes.registry import (
    UnknownPassError,
    available_passes,
    builtin_passes,
    get_pass_class,
)


def test_builtin_passes_are_present() -> None:
    names = set(builtin_passes())
    assert {"canonicalize", "cse", "dce", "licm", "tt-simplify", "tt-assign-layouts"} <= names


@pytest.mark.parametrize("name", sorted(builtin_passes()))
def test_every_factory_gives_the_named_pass(name: str) -> None:
    cls = get_pass_class(name)
    assert issubclass(cls, ModulePass)
    assert cls.name == name


def test_upstream_passes_are_xdsl_classes() -> None:
    from mytriton.passes.tt.licm import LoopInvariantCodeMotionPass

    # ours: xDSL's LICM, except out of loops marked tl.range(..., disable_licm=True)
    assert get_pass_class("licm") is LoopInvariantCodeMotionPass
    cse = get_pass_class("cse")
    assert cse.__module__ == "xdsl.transforms.common_subexpression_elimination"


def test_available_includes_builtins() -> None:
    assert set(builtin_passes()) <= set(available_passes())


def test_unknown_pass_lists_known_names() -> None:
    with pytest.raises(UnknownPassError) as info:
        get_pass_class("no-such-pass")
    message = str(info.value)
    assert message.startswith("unknown pass 'no-such-pass'; known passes: ")
    for name in ("canonicalize", "cse", "dce", "licm", "tt-simplify"):
        assert name in message
    # both a mytriton error and a ValueError (what xDSL raises for unknown passes)
    assert isinstance(info.value, MyTritonError)
    assert isinstance(info.value, ValueError)


def test_unknown_pass_suggests_the_close_name_first() -> None:
    with pytest.raises(UnknownPassError) as info:
        get_pass_class("tt-simplfy")
    assert str(info.value).startswith(
        "unknown pass 'tt-simplfy' (did you mean 'tt-simplify'?); known passes: "
    )


def test_unknown_passes_message_plural() -> None:
    msg = registry.unknown_pass_message(["a", "b"], {"z": builtin_passes()["cse"]})
    assert msg == "unknown passes 'a', 'b'; known passes: z"


def test_listing_passes_imports_no_pass_module() -> None:
    # Factories are lazy: listing names must not import the passes themselves (each JIT
    # compile and `mytriton-opt --help` reads the table).
    code = (
        "import sys\n"
        "from mytriton.passes.registry import available_passes\n"
        "before = set(sys.modules)\n"
        "names = available_passes()\n"
        "new = set(sys.modules) - before\n"
        "print(sorted(m for m in new if m.startswith(('mytriton.passes.', 'xdsl.transforms.'))))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.strip() == "[]"
