"""A compiled kernel's ``asm`` read under Triton's NVIDIA stage names (``ttir``, ``ttgir``,
``llir``, ``ptx``, ``cubin``), as Triton 3.6's ``test_cache.py`` reads them from
``device_caches``; the texts are mytriton's stages, compiled once."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.compiled import StageTexts

X = np.ones(1, np.int32)


@triton.jit
def assert_one(tmp):
    tl.device_assert(tl.load(tmp) == 1, "tmp == 1")


@pytest.mark.parametrize("backend", ["cuda", "mlir"])
def test_triton_names_read_mytriton_stages(monkeypatch: pytest.MonkeyPatch, backend: str) -> None:
    monkeypatch.setenv("MYTRITON_BACKEND", backend)
    assert_one.clear_cache()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # compile-only here; no MLIR provider may stop at mlir
        plain = assert_one.warmup(X, grid=(1,), debug=False)
        debug = assert_one.warmup(X, grid=(1,), debug=True)
    assert list(assert_one.cache.values()) == [plain, debug]  # compile-only: no device here
    assert plain.asm["ttir"] == plain.asm["tt-opt"] and plain.asm["ttgir"] == plain.asm["ttg"]
    assert plain.asm["ttir"] != debug.asm["ttir"]  # the assertion is compiled in debug only
    if backend == "mlir":
        assert plain.asm["llir"] == plain.asm["mlir"]
    else:
        with pytest.raises(KeyError):
            plain.asm["llir"]  # C++ there, no LLVM module
    assert "ttir" not in plain.asm and "tt-opt" in list(plain.asm)  # mytriton's names listed
    assert_one.clear_cache()


def test_unknown_names_stay_missing() -> None:
    texts = StageTexts({"tt-opt": "module {}"})
    assert texts["ttir"] == "module {}"
    with pytest.raises(KeyError):
        texts["ttgir"]
    with pytest.raises(KeyError):
        texts["sass"]
