"""Packaging beyond pyproject.toml: the ``mytriton-as-triton.pth`` start-up hook.

A ``.pth`` file only runs from the top of ``site-packages``, which no package folder is, so both
the wheel (``build_py``) and the editable install (``editable_wheel``) put a copy there. The hook
does nothing unless ``MYTRITON_AS_TRITON=1`` (``mytriton/compat/alias.py``)."""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.editable_wheel import editable_wheel

PTH = Path(__file__).parent / "mytriton" / "compat" / "mytriton-as-triton.pth"


class BuildPyWithPth(build_py):
    """The wheel's top level (``site-packages`` once installed) gets the hook."""

    def run(self) -> None:
        super().run()
        if not self.editable_mode:
            target = Path(self.build_lib) / PTH.name
            shutil.copyfile(PTH, target)

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        outputs = list(super().get_outputs(include_bytecode))
        if not self.editable_mode:
            outputs.append(str(Path(self.build_lib) / PTH.name))
        return outputs


class EditableWheelWithPth(editable_wheel):
    """``pip install -e``: the editable wheel's top level gets the hook too."""

    def _install_namespaces(self, installation_dir: str, pth_prefix: str) -> None:
        super()._install_namespaces(installation_dir, pth_prefix)
        shutil.copyfile(PTH, Path(installation_dir) / PTH.name)


setup(cmdclass={"build_py": BuildPyWithPth, "editable_wheel": EditableWheelWithPth})
