"""Kernels made by ``exec`` of a string (Triton's ``test_core.patch_kernel`` makes its kernels
so): their source, which ``inspect`` cannot read, is found among the strings Python compiled
(``mytriton/exec_sources.py``), the one whose code is the kernel's."""

from __future__ import annotations

import textwrap

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.exec_sources import exec_source

TEMPLATE = textwrap.dedent(
    """
    @triton.jit
    def kernel(x_ptr, y_ptr, N: tl.constexpr):
        o = tl.arange(0, N)
        tl.store(y_ptr + o, tl.load(x_ptr + o) OP)
    """
)


def _made(op: str) -> triton.JITFunction:
    namespace: dict = {}
    exec(TEMPLATE.replace("OP", op), {"triton": triton, "tl": tl}, namespace)
    return namespace["kernel"]


@pytest.fixture(autouse=True)
def _interpreted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MYTRITON_INTERPRET", "1")


def test_exec_kernel_runs() -> None:
    x = np.arange(8, dtype=np.float32)
    y = np.zeros(8, np.float32)
    _made("* 2")[(1,)](x, y, N=8)
    np.testing.assert_array_equal(y, x * 2)


def test_each_exec_kernel_gets_its_own_text() -> None:
    """Two kernels of one name, made from two edits of one template, each compile from their
    own text (the kept source whose code matches, not the newest)."""
    twice, thrice = _made("* 2"), _made("* 3")
    x = np.arange(8, dtype=np.float32)
    for kernel, factor in ((twice, 2), (thrice, 3)):
        y = np.zeros(8, np.float32)
        kernel[(1,)](x, y, N=8)
        np.testing.assert_array_equal(y, x * factor)


def test_exec_source_text() -> None:
    kernel = _made("+ 1")
    found = exec_source(kernel.fn)
    assert found is not None
    lines, file, first = found
    assert file == "<string>" and first == 2  # the decorator's line (the template's 2nd)
    assert lines[0].startswith("@triton.jit") and "+ 1" in lines[-1]


def test_a_file_kernel_is_not_looked_up() -> None:
    assert exec_source(test_exec_source_text) is None


def test_errors_name_the_exec_line() -> None:
    """A kernel made by exec reports its errors at ``<string>:line:col``."""
    namespace: dict = {}
    exec(
        "import mytriton as triton\n@triton.jit\ndef bad(x_ptr):\n    tl.load(x_ptr, nope=1)\n",
        {"tl": tl},
        namespace,
    )
    with pytest.raises(triton.CompilationError) as info:
        namespace["bad"].warmup(np.zeros(4, np.float32), grid=(1,))
    assert "<string>:4:" in str(info.value)
