"""``python -m mytriton run script.py args...``: run a script with ``import triton`` giving
mytriton (``mytriton/compat/cli.py``)."""

from __future__ import annotations

import sys

from mytriton.compat.cli import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
