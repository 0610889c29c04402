"""Speed relative to Triton and the summary table of ``compare.py``'s rows.

Kept apart from ``compare.py`` (no torch, no GPU) so the table can be rebuilt from a saved JSON:
``python benchmarks/report.py results.json``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

Row = dict[str, Any]

TIME_KEYS = ("ms", "us")
RATE_KEYS = ("GB/s", "TFLOP/s", "us")


def _time(row: Row) -> float | None:
    for key in TIME_KEYS:
        if key in row:
            return float(row[key])
    return None


def _group(row: Row) -> tuple[str, str, str]:
    return (row["bench"], row.get("dtype", "float32"), row["case"])


def _variant(impl: str) -> str:
    """The bracketed part of an impl name (``[ieee]``), compared like with like."""
    return impl[impl.index("[") :] if "[" in impl else ""


def add_speed_vs_triton(rows: Sequence[Row]) -> None:
    """Give each mytriton row ``vs_triton``: Triton's time over its own (> 1: faster).

    The Triton row is the one of the same bench, dtype, case and variant (``[ieee]``).
    """
    triton_times = {
        (*_group(r), _variant(r["impl"])): t
        for r in rows
        if r["impl"].startswith("triton") and (t := _time(r)) is not None
    }
    for r in rows:
        if not r["impl"].startswith("mytriton"):
            continue
        own = _time(r)
        theirs = triton_times.get((*_group(r), _variant(r["impl"])))
        if own and theirs:
            r["vs_triton"] = theirs / own


def _rate(row: Row) -> str:
    if "error" in row:
        return "error"
    for key in RATE_KEYS:
        if key in row:
            return f"{row[key]:.1f} {key}"
    return "?"


def format_table(rows: Sequence[Row]) -> str:
    """One block per bench: a line per (dtype, case), a column per impl, then the ratios."""
    blocks: list[str] = []
    for bench in dict.fromkeys(r["bench"] for r in rows):
        mine = [r for r in rows if r["bench"] == bench]
        impls = list(dict.fromkeys(r["impl"] for r in mine))
        ratio_impls = [i for i in impls if i.startswith("mytriton")]
        ratios = [i.removeprefix("mytriton-") + "/triton" for i in ratio_impls]
        header = ["dtype", "case", *impls, *ratios]
        lines = [header]
        for group in dict.fromkeys(_group(r) for r in mine):
            by_impl = {r["impl"]: r for r in mine if _group(r) == group}
            cells = [group[1], group[2]]
            cells += [_rate(by_impl[i]) if i in by_impl else "-" for i in impls]
            for i in ratio_impls:
                ratio = by_impl.get(i, {}).get("vs_triton")
                cells.append(f"{ratio:.2f}x" if ratio is not None else "-")
            lines.append(cells)
        widths = [max(len(line[c]) for line in lines) for c in range(len(header))]
        text = "\n".join(
            "  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)).rstrip()
            for line in lines
        )
        blocks.append(f"== {bench} ==\n{text}")
    return "\n\n".join(blocks)


def main(argv: Sequence[str]) -> None:
    rows = json.loads(Path(argv[0]).read_text())
    add_speed_vs_triton(rows)
    print(format_table(rows))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python benchmarks/report.py RESULTS.json")
    main(sys.argv[1:])
