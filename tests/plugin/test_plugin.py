"""Third-party passes plug in through the ``mytriton.passes`` entry-point group."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
import xdsl
from xdsl.parser import Parser

import mytriton
from mytriton.dialects import make_context
from mytriton.passes import registry
from mytriton.passes.pipeline import PIPELINE_ENV, run_pipeline
from mytriton.passes.registry import PluginPassError, UnknownPassError, get_pass_class
from tests.plugin.conftest import write_distribution

KERNEL = """
func.func @k(%x: tensor<16xi32>, %f: f32) -> (tensor<16xi32>, f32, f32) {
  %c2 = arith.constant 2 : i32
  %s2 = tt.splat %c2 : i32 -> tensor<16xi32>
  %a = tt.mul %x, %s2 : tensor<16xi32>
  %f2 = arith.constant 2.0 : f32
  %b = tt.mul %f2, %f : f32
  %f3 = arith.constant 3.0 : f32
  %c = tt.mul %f3, %f : f32
  func.return %a, %b, %c : tensor<16xi32>, f32, f32
}
"""


def _opt(plugin_dir: Path | None, *args: str, env: dict[str, str] | None = None):
    """Run the real ``mytriton-opt`` console script in a fresh process."""
    full_env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", PIPELINE_ENV)}
    # where this process found mytriton and xdsl (a PYTHONPATH on machines without an install),
    # and no other folder of the caller's PYTHONPATH
    paths = [str(Path(m.__file__).parent.parent) for m in (mytriton, xdsl)]
    if plugin_dir is not None:
        paths.insert(0, str(plugin_dir))
    full_env["PYTHONPATH"] = os.pathsep.join(paths)
    full_env.update(env or {})
    exe = Path(sys.executable).with_name("mytriton-opt")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "mytriton.tools.opt"]
    return subprocess.run(
        [*cmd, *args], input=KERNEL, capture_output=True, text=True, env=full_env, timeout=120
    )


def _check_rewritten(ir: str) -> None:
    assert "%a = tt.add %x, %x : tensor<16xi32>" in ir
    assert "%b = tt.add %f, %f : f32" in ir
    assert "%c = tt.mul %f3, %f : f32" in ir  # x * 3 is not strength-reduced


def test_plugin_is_listed_by_opt_tool(example_plugin_dir: Path) -> None:
    out = _opt(example_plugin_dir, "--help")
    assert out.returncode == 0, out.stderr
    assert "example-mul-by-two" in out.stdout.replace("\n", "").replace(" ", "")


def test_plugin_runs_in_opt_tool(example_plugin_dir: Path) -> None:
    out = _opt(example_plugin_dir, "-p", "example-mul-by-two")
    assert out.returncode == 0, out.stderr
    _check_rewritten(out.stdout)


def test_plugin_runs_in_opt_tool_jit_pipeline(example_plugin_dir: Path) -> None:
    out = _opt(example_plugin_dir, "--jit-pipeline", env={PIPELINE_ENV: "example-mul-by-two"})
    assert out.returncode == 0, out.stderr
    _check_rewritten(out.stdout)


def test_opt_tool_without_plugin_does_not_know_the_pass() -> None:
    out = _opt(None, "-p", "example-mul-by-two")
    assert out.returncode == 2
    assert "unknown pass 'example-mul-by-two'" in out.stderr


def test_plugin_in_registry(example_plugin: Path) -> None:
    assert "example-mul-by-two" in registry.plugin_passes()
    assert "example-mul-by-two" in registry.available_passes()
    cls = get_pass_class("example-mul-by-two")
    assert cls.name == "example-mul-by-two"
    assert cls.__module__ == "mytriton_example_plugin.passes"


def test_plugin_runs_through_mytriton_pipeline_env(
    example_plugin: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(PIPELINE_ENV, "example-mul-by-two,cse")
    ctx = make_context()
    module = Parser(ctx, KERNEL).parse_module()
    run_pipeline(module, ctx=ctx)
    _check_rewritten(str(module))


def test_plugin_composes_with_default_passes(example_plugin: Path) -> None:
    # canonicalize afterwards: the now-unused splat of 2 and constant 2.0 disappear
    module = Parser(make_context(), KERNEL).parse_module()
    run_pipeline(module, "example-mul-by-two,canonicalize")
    ir = str(module)
    _check_rewritten(ir)
    assert "tt.splat" not in ir
    assert "2.000000e+00" not in ir


def test_pipeline_without_plugin_rejects_the_pass() -> None:
    with pytest.raises(UnknownPassError, match="unknown pass 'example-mul-by-two'"):
        run_pipeline(Parser(make_context(), KERNEL).parse_module(), "example-mul-by-two")


# ---------------------------------------------------------------------------------------
# Broken or conflicting plugins
# ---------------------------------------------------------------------------------------


def _install(
    root: Path, monkeypatch: pytest.MonkeyPatch, module: str, source: str, eps: dict[str, str]
) -> None:
    (root / f"{module}.py").write_text(source, encoding="utf-8")
    write_distribution(root, module.replace("_", "-"), "1.0", {"mytriton.passes": eps})
    monkeypatch.syspath_prepend(str(root))
    monkeypatch.delitem(sys.modules, module, raising=False)


def test_plugin_not_a_pass_class(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _install(
        tmp_path,
        monkeypatch,
        "bad_plugin_a",
        "def my_pass(): pass\n",
        {"bad-a": "bad_plugin_a:my_pass"},
    )
    with pytest.raises(PluginPassError, match=r"must name a subclass of xdsl\.passes\.ModulePass"):
        get_pass_class("bad-a")


def test_plugin_name_mismatch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = (
        "from xdsl.passes import ModulePass\n"
        "class P(ModulePass):\n"
        "    name = 'other-name'\n"
        "    def apply(self, ctx, op): pass\n"
    )
    _install(tmp_path, monkeypatch, "bad_plugin_b", source, {"bad-b": "bad_plugin_b:P"})
    with pytest.raises(PluginPassError, match="whose pass name is 'other-name'"):
        get_pass_class("bad-b")


def test_plugin_import_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _install(
        tmp_path,
        monkeypatch,
        "bad_plugin_c",
        "import no_such_module_xyz\n",
        {"bad-c": "bad_plugin_c:P"},
    )
    with pytest.raises(PluginPassError, match=r"cannot load pass 'bad-c'.*no_such_module_xyz"):
        get_pass_class("bad-c")


def test_plugin_cannot_shadow_builtin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = (
        "from xdsl.passes import ModulePass\n"
        "class Cse(ModulePass):\n"
        "    name = 'cse'\n"
        "    def apply(self, ctx, op): raise AssertionError('plugin ran')\n"
    )
    _install(tmp_path, monkeypatch, "shadow_plugin", source, {"cse": "shadow_plugin:Cse"})
    with pytest.warns(UserWarning, match="ignoring plugin pass 'cse'"):
        passes = registry.available_passes()
    assert passes["cse"]().__module__.startswith("xdsl.")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run_pipeline(Parser(make_context(), KERNEL).parse_module(), "cse")
