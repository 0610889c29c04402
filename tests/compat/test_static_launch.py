"""``compat/static_launch.py``: which kernels TorchInductor's static launcher may launch (the
launch it would do is the one mytriton does), and the cubin put where it looks, only then and
only with ``MYTRITON_STATIC_LAUNCH=1``. Inductor's own check of real kernels is in
tests/inductor/test_static_launch.py."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from mytriton.compat.cache import _base64
from mytriton.compat.static_launch import (
    publish_cubin,
    static_launch_blocker,
    static_param_kinds,
)
from mytriton.kernel_signature import KernelSignature

CUBIN = b"\x7fELF a cubin"
HASH = "ab" * 32
SIGNATURE = {"x": "*fp32", "out": "*fp16", "n": "i32", "scale": "fp32", "BLOCK": "constexpr"}


def source(signature: dict[str, str] = SIGNATURE, constants: Any = None) -> Any:
    fn = SimpleNamespace(arg_names=list(signature), __name__="kern")
    return SimpleNamespace(fn=fn, signature=signature, constants=constants or {(4,): 128})


def kernel(**changes: Any) -> Any:
    signature = KernelSignature("kern", ("ptr", "ptr", "i32", "f32"), (128, 1, 1), 0)
    signature = dataclasses.replace(signature, **changes)
    binary = SimpleNamespace(signature=signature, image=CUBIN)
    return SimpleNamespace(binary=binary, asm={"cubin": CUBIN, "ptx": "..."})


METADATA = {"num_warps": 4, "shared": 0, "global_scratch_size": 0, "profile_scratch_size": 0,
            "launch_cooperative_grid": False, "launch_pdl": False, "num_ctas": 1}  # fmt: skip


def test_the_values_inductor_passes_are_the_unconstant_parameters_by_kind() -> None:
    assert static_param_kinds(source()) == ["ptr", "ptr", "i32", "f32"]
    signature = {"a": "*i8", "b": "i8", "c": "u64", "d": "fp16", "e": "i1", "f": "i64", "g": "u16"}
    # a constant by position or by name is compiled in
    src = source(signature, {(1,): 3, "f": 2})
    assert static_param_kinds(src) == ["ptr", "i64", "f32", "i32", None]


def test_a_kernel_launched_as_inductor_would_has_no_blocker() -> None:
    assert static_launch_blocker(source(), METADATA, kernel()) is None


@pytest.mark.parametrize(
    ("src", "metadata", "kern", "why"),
    [
        (source(), METADATA, SimpleNamespace(binary=None, asm={"ptx": "."}), "cubin"),
        (source(), METADATA, kernel(name="kern_0"), "entry"),
        (source(), METADATA, kernel(block=(64, 1, 1)), "block"),
        (source(), METADATA, kernel(shared=4096), "shared"),
        (source(), {**METADATA, "global_scratch_size": 128}, kernel(), "scratch"),
        (source(), {**METADATA, "launch_cooperative_grid": True}, kernel(), "attribute"),
        (source(), {**METADATA, "num_ctas": 2}, kernel(), "num_ctas"),
        (source({**SIGNATURE, "n": "i16"}), METADATA, kernel(), "parameters"),
        (source({**SIGNATURE, "scale": "fp64"}), METADATA, kernel(), "parameters"),
    ],
)
def test_a_launch_inductor_would_do_otherwise_is_blocked(
    src: Any, metadata: dict[str, Any], kern: Any, why: str
) -> None:
    reason = static_launch_blocker(src, metadata, kern)
    assert reason is not None and why in reason


def test_the_cubin_is_put_where_inductor_looks_only_when_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("MYTRITON_STATIC_LAUNCH", raising=False)
    assert publish_cubin(source(), METADATA, kernel(), HASH) is None
    assert not any(tmp_path.iterdir())
    monkeypatch.setenv("MYTRITON_STATIC_LAUNCH", "1")
    path = publish_cubin(source(), METADATA, kernel(), HASH)
    assert path == tmp_path / _base64(HASH) / "kern.cubin" and path.read_bytes() == CUBIN
    assert publish_cubin(source(), METADATA, kernel(), HASH) == path  # again: the same file
    assert [p.name for p in path.parent.iterdir()] == ["kern.cubin"]  # no temporary left
    other = "cd" * 32
    assert publish_cubin(source(), METADATA, kernel(shared=64), other) is None  # blocked
    assert not (tmp_path / _base64(other)).exists()
    monkeypatch.delenv("TRITON_CACHE_DIR")
    assert publish_cubin(source(), METADATA, kernel(), other) is None  # nowhere to put it
