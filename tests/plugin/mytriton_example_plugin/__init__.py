"""An example third-party mytriton pass plugin (see ``pyproject.toml`` next to it)."""

from mytriton_example_plugin.passes import MulByTwoToAddPass

__all__ = ["MulByTwoToAddPass"]
