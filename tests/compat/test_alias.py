"""``MYTRITON_AS_TRITON=1``: ``import triton`` gives mytriton (every ``triton.X`` the module
``mytriton.X``), ``triton.__version__`` is the Triton API level; without the switch nothing
changes. Each case runs in a fresh interpreter, as the switch acts at start-up."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import mytriton
from mytriton.compat import alias
from tests.child_env import child_pythonpath

ROOT = Path(__file__).resolve().parents[2]
PTH = ROOT / "mytriton" / "compat" / "mytriton-as-triton.pth"

# the modules Triton's users and TorchInductor import, which must be mytriton's own
MIRRORED = [
    "triton.language",
    "triton.language.core",
    "triton.language.standard",
    "triton.language.math",
    "triton.language.extra",
    "triton.language.extra.libdevice",
    "triton.language.extra.cuda.libdevice",
    "triton.compiler",
    "triton.compiler.compiler",
    "triton.compiler.errors",
    "triton.backends",
    "triton.backends.compiler",
    "triton.backends.driver",
    "triton.runtime",
    "triton.runtime.driver",
    "triton.runtime.cache",
    "triton.runtime.autotuner",
    "triton.runtime.jit",
    "triton.runtime.interpreter",
    "triton.runtime.errors",
    "triton.knobs",
    "triton.testing",
]


def python(
    code: str, tmp_path: Path, switch: str | None, *, site: bool = True, extra_path: str = ""
) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter whose site folder holds the package's ``.pth`` hook
    (as ``pip install`` puts it), with ``MYTRITON_AS_TRITON`` set to ``switch`` (or unset)."""
    site_dir = tmp_path / "site"
    site_dir.mkdir(exist_ok=True)
    if site:
        shutil.copyfile(PTH, site_dir / PTH.name)
    env = {k: v for k, v in os.environ.items() if k != alias.ENV_SWITCH}
    if switch is not None:
        env[alias.ENV_SWITCH] = switch
    env["PYTHONPATH"] = child_pythonpath(*([extra_path] if extra_path else []))
    env["MYTRITON_INTERPRET"] = "1"
    prelude = f"import site; site.addsitedir({str(site_dir)!r})\n"
    script = tmp_path / "child.py"  # a file: kernels need their source
    script.write_text(prelude + textwrap.dedent(code))
    return subprocess.run(
        [sys.executable, str(script)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def ok(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_switch_on_runs_a_kernel_through_import_triton(tmp_path: Path) -> None:
    out = ok(
        python(
            """
            import numpy as np
            import triton
            import triton.language as tl

            @triton.jit
            def add(x, y, out, n, BLOCK: tl.constexpr):
                o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
                m = o < n
                tl.store(out + o, tl.load(x + o, mask=m) + tl.load(y + o, mask=m), mask=m)

            x = np.arange(100, dtype=np.float32)
            y = np.full(100, 2.0, np.float32)
            out = np.zeros_like(x)
            add[(triton.cdiv(100, 32),)](x, y, out, 100, BLOCK=32)
            assert np.array_equal(out, x + y)
            import mytriton
            print(triton.__version__, mytriton.__version__, type(add).__module__)
            """,
            tmp_path,
            "1",
        )
    )
    assert out.split() == ["3.6.0", mytriton.__version__, "mytriton.runtime.jit"]


def test_switch_on_modules_are_mytritons_own(tmp_path: Path) -> None:
    out = ok(
        python(
            f"""
            import importlib, json, sys
            import triton, mytriton
            same = {{}}
            for name in {MIRRORED!r}:
                same[name] = importlib.import_module(name) is importlib.import_module("my" + name)
            import triton.language as tl, mytriton.language as mtl
            same["jit"] = triton.jit is mytriton.jit
            same["JITFunction"] = triton.JITFunction is mytriton.JITFunction
            same["constexpr"] = tl.constexpr is mtl.constexpr
            same["float32"] = tl.float32 is mtl.float32
            same["attribute"] = triton.language is mtl and triton.runtime is mytriton.runtime
            same["driver"] = triton.runtime.driver.active is mytriton.runtime.driver.active
            same["compile"] = triton.compile is triton.compiler.compile
            same["version"] = triton.__version__ == "3.6.0" != mytriton.__version__
            same["no copies"] = not any(
                getattr(m, "__name__", "").startswith("triton.")
                for m in list(sys.modules.values())
            )
            print(json.dumps(same))
            """,
            tmp_path,
            "1",
        )
    )
    same = json.loads(out)
    assert same == dict.fromkeys(same, True)


def test_switch_on_missing_submodule_is_not_found(tmp_path: Path) -> None:
    out = ok(
        python(
            """
            import triton
            try:
                import triton.no_such_module
            except ModuleNotFoundError as e:
                print("missing", e.name)
            try:
                triton.no_such_attribute
            except AttributeError:
                print("no attribute")
            """,
            tmp_path,
            "1",
        )
    )
    assert out.split() == ["missing", "triton.no_such_module", "no", "attribute"]


PROBE_TRITON = """
import sys
try:
    import triton
    print("imported", triton.__file__)
except ImportError:
    print("absent")
print("mytriton" in sys.modules)
"""


@pytest.mark.parametrize("switch", [None, "", "0", "false"])
def test_switch_off_changes_nothing(tmp_path: Path, switch: str | None) -> None:
    """With the hook installed and the switch off, ``import triton`` is what it is without the
    hook: absent here, the real Triton where it is installed (the GPU machine); mytriton is
    never imported."""
    out = ok(python(PROBE_TRITON, tmp_path, switch))
    plain = tmp_path / "plain"
    plain.mkdir()
    assert out == ok(python(PROBE_TRITON, plain, None, site=False))
    words = out.split()
    assert words[-1] == "False"
    assert words[0] == "absent" or "mytriton" not in words[1]


def fake_triton(tmp_path: Path) -> Path:
    """A folder holding a stand-in for the real ``triton`` package."""
    folder = tmp_path / "real"
    (folder / "triton").mkdir(parents=True)
    (folder / "triton" / "__init__.py").write_text("__version__ = '9.9.9-real'\nREAL = True\n")
    return folder


def test_switch_on_wins_over_real_triton_and_says_so_once(tmp_path: Path) -> None:
    result = python(
        """
        import triton
        import triton.language
        import importlib; importlib.reload  # noqa
        import triton as again
        print(triton.__version__, hasattr(triton, "REAL"), triton is again)
        """,
        tmp_path,
        "1",
        extra_path=str(fake_triton(tmp_path)),
    )
    assert ok(result).split() == ["3.6.0", "False", "True"]
    assert result.stderr.count("TritonShadowedWarning") == 1
    assert "is not used in this process" in result.stderr


def test_switch_off_leaves_real_triton_alone(tmp_path: Path) -> None:
    result = python(
        """
        import sys
        import triton
        print(triton.__version__, triton.REAL, "mytriton" in sys.modules)
        """,
        tmp_path,
        None,
        extra_path=str(fake_triton(tmp_path)),
    )
    assert ok(result).split() == ["9.9.9-real", "True", "False"]
    assert "Warning" not in result.stderr


def test_install_as_triton_call(tmp_path: Path) -> None:
    out = ok(
        python(
            """
            import os
            import mytriton
            mytriton.install_as_triton()
            mytriton.install_as_triton()  # twice is harmless
            import triton, triton.language as tl
            print(triton.__version__, tl is mytriton.language, os.environ["MYTRITON_AS_TRITON"])
            """,
            tmp_path,
            None,
            site=False,
        )
    )
    assert out.split() == ["3.6.0", "True", "1"]


def test_install_as_triton_after_the_real_one_is_an_error(tmp_path: Path) -> None:
    out = ok(
        python(
            """
            import triton
            import mytriton
            from mytriton.compat.alias import TritonAlreadyImportedError
            try:
                mytriton.install_as_triton()
            except TritonAlreadyImportedError as e:
                print("refused:", e)
            print(triton.__version__)
            """,
            tmp_path,
            None,
            site=False,
            extra_path=str(fake_triton(tmp_path)),
        )
    )
    assert "refused: install_as_triton(): the real Triton is imported already (triton)" in out
    assert out.split()[-1] == "9.9.9-real"


def test_python_m_mytriton_run(tmp_path: Path) -> None:
    script = tmp_path / "script.py"
    script.write_text(
        textwrap.dedent(
            """
            import os, subprocess, sys
            import triton
            child = subprocess.run(
                [sys.executable, "-c", "import mytriton.compat.alias as a; print(a.switch_on())"],
                capture_output=True, text=True,
            )
            print(triton.__version__, sys.argv[1:], __name__, child.stdout.strip())
            """
        )
    )
    env = {k: v for k, v in os.environ.items() if k != alias.ENV_SWITCH}
    env["PYTHONPATH"] = child_pythonpath()
    result = subprocess.run(
        [sys.executable, "-m", "mytriton", "run", str(script), "a", "--b"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "3.6.0 ['a', '--b'] __main__ True"
    usage = subprocess.run(
        [sys.executable, "-m", "mytriton", "walk"], env=env, capture_output=True, text=True
    )
    assert usage.returncode == 2
    assert "unknown command 'walk'" in usage.stderr


def test_pth_hook_is_one_cheap_line() -> None:
    """site.py runs only lines that start with ``import``; with the switch off the hook reads
    one variable and imports nothing of mytriton."""
    lines = PTH.read_text().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("import os;")
    assert "MYTRITON_AS_TRITON" in lines[0]
