"""``same_ir.py A B``: exit 0 when two printed IR files hold the same lines (blank lines aside:
``mytriton-opt --split-input-file`` adds some around ``// -----``), else print a unified diff and
exit 1. Used by the round-trip RUN lines."""

import difflib
import sys


def lines(path: str) -> list[str]:
    with open(path) as f:
        return [line for line in f.read().splitlines() if line.strip()]


def main() -> int:
    a, b = lines(sys.argv[1]), lines(sys.argv[2])
    if a == b:
        return 0
    sys.stdout.writelines(difflib.unified_diff(a, b, sys.argv[1], sys.argv[2], lineterm="\n"))
    return 1


if __name__ == "__main__":
    sys.exit(main())
