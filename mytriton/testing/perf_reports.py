"""``perf_report`` and ``Benchmark``: a function measured over x values and lines, its table
printed and saved through pandas and its plot drawn through matplotlib when they are installed;
without pandas the table is a ``ResultTable`` (plain-text printing, CSV by the ``csv`` module),
without matplotlib no plot is drawn and a message on stderr says so."""

from __future__ import annotations

import csv
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


class Benchmark:
    """One perf-report figure: ``fn(**x_args, **{line_arg: line_val}, **args)`` for each x
    value (a scalar given to every name in ``x_names``, or one value per name) and each line.

    ``styles``: one ``(color, linestyle)`` per line."""

    def __init__(
        self,
        x_names: list[str],
        x_vals: list[Any],
        line_arg: str,
        line_vals: list[Any],
        line_names: list[str],
        plot_name: str,
        args: dict[str, Any],
        xlabel: str = "",
        ylabel: str = "",
        x_log: bool = False,
        y_log: bool = False,
        styles: list[tuple[str, str]] | None = None,
    ) -> None:
        self.x_names = x_names
        self.x_vals = x_vals
        self.line_arg = line_arg
        self.line_vals = line_vals
        self.line_names = line_names
        self.plot_name = plot_name
        self.args = args
        self.xlabel = xlabel
        self.ylabel = ylabel
        self.x_log = x_log
        self.y_log = y_log
        self.styles = styles


@dataclass
class ResultTable:
    """A perf report's table where pandas is not installed: named columns, one row per x."""

    columns: list[str]
    rows: list[list[Any]] = field(default_factory=list)

    def __getitem__(self, column: str) -> list[Any]:
        i = self.columns.index(column)
        return [row[i] for row in self.rows]

    def __len__(self) -> int:
        return len(self.rows)

    def select(self, columns: list[str]) -> ResultTable:
        idx = [self.columns.index(c) for c in columns]
        return ResultTable(list(columns), [[row[i] for i in idx] for row in self.rows])

    def to_string(self) -> str:
        """Right-aligned columns under their names, with a row index (as pandas prints)."""
        cells = [["", *self.columns]]
        cells += [[str(i)] + [_fmt(v) for v in row] for i, row in enumerate(self.rows)]
        widths = [max(len(r[c]) for r in cells) for c in range(len(cells[0]))]
        return "\n".join(
            "  ".join(v.rjust(w) for v, w in zip(r, widths, strict=True)).rstrip() for r in cells
        )

    def to_csv(self, path: str, precision: int = 6) -> None:
        with open(path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(self.columns)
            for row in self.rows:
                w.writerow(
                    [
                        "" if v is None else f"{v:.{precision}f}" if isinstance(v, float) else v
                        for v in row
                    ]
                )


def _fmt(v: Any) -> str:
    if v is None:
        return "NaN"
    if isinstance(v, float):
        return f"{v:.6g}"
    return str(v)


def _optional(module: str) -> Any | None:
    try:
        return __import__(module)
    except ImportError:
        return None


class Mark:
    """A function under ``perf_report``: ``run`` benchmarks it and reports."""

    def __init__(self, fn: Callable[..., Any], benchmarks: Benchmark | list[Benchmark]) -> None:
        self.fn = fn
        self.benchmarks = benchmarks

    def _measure(self, bench: Benchmark, **kwargs: Any) -> tuple[list[str], list[list[Any]]]:
        """Columns (x names, then mean, min and max per line) and one row per x value."""
        x_names = list(bench.x_names)
        columns = x_names + [
            f"{name}{suffix} ({bench.ylabel})"
            for suffix in ("", "-min", "-max")
            for name in bench.line_names
        ]
        rows = []
        for x in bench.x_vals:
            xs = list(x) if isinstance(x, (list, tuple)) else [x] * len(x_names)
            if len(xs) != len(x_names):
                raise ValueError(f"expected {len(x_names)} values ({x_names}), got {x}")
            x_args = dict(zip(x_names, xs, strict=True))
            means, mins, maxs = [], [], []
            for y in bench.line_vals:
                ret = self.fn(**x_args, **{bench.line_arg: y}, **bench.args, **kwargs)
                if isinstance(ret, (tuple, list)):
                    if len(ret) != 3:
                        raise ValueError(
                            "a benchmark returns a value or (mean, min, max); "
                            f"got {len(ret)} values"
                        )
                    y_mean, y_min, y_max = ret
                else:
                    y_mean, y_min, y_max = ret, None, None
                means.append(y_mean)
                mins.append(y_min)
                maxs.append(y_max)
            rows.append(xs + means + mins + maxs)
        return columns, rows

    def _plot(self, bench: Benchmark, table: ResultTable, save_path: str, show_plots: bool) -> None:
        """Draw the lines of ``table`` (bands between min and max where ``fn`` gave them)."""
        if not (save_path or show_plots):
            return
        try:
            from matplotlib.figure import Figure
        except ImportError:
            print(
                f"mytriton.testing: matplotlib is not installed; no plot {bench.plot_name}.png "
                "(the table is still printed and saved)",
                file=sys.stderr,
            )
            return
        if show_plots:
            import matplotlib.pyplot as plt

            fig = plt.figure()
        else:
            fig = Figure()  # no pyplot: leaves the user's backend and figures alone
        ax = fig.add_subplot()
        n, first = len(bench.line_names), len(bench.x_names)
        xs = table[bench.x_names[0]]
        for i in range(n):
            mean_label = table.columns[first + i]
            y_lo, y_hi = (
                table[table.columns[first + n + i]],
                table[table.columns[first + 2 * n + i]],
            )
            color = bench.styles[i][0] if bench.styles else None
            style = bench.styles[i][1] if bench.styles else None
            ax.plot(xs, table[mean_label], label=mean_label, color=color, ls=style)
            if all(v is not None for v in y_lo + y_hi):
                ax.fill_between(
                    xs, [float(v) for v in y_lo], [float(v) for v in y_hi], alpha=0.15, color=color
                )
        ax.legend()
        ax.set_xlabel(bench.xlabel or bench.x_names[0])
        ax.set_ylabel(bench.ylabel)
        ax.set_xscale("log" if bench.x_log else "linear")
        ax.set_yscale("log" if bench.y_log else "linear")
        if show_plots:
            plt.show()
        if save_path:
            fig.savefig(os.path.join(save_path, f"{bench.plot_name}.png"))
        if show_plots:
            plt.close(fig)

    def _run(
        self,
        bench: Benchmark,
        save_path: str,
        show_plots: bool,
        print_data: bool,
        diff_col: bool = False,
        save_precision: int = 6,
        **kwargs: Any,
    ) -> Any:
        columns, rows = self._measure(bench, **kwargs)
        table = ResultTable(columns, rows)
        if save_path:
            os.makedirs(save_path, exist_ok=True)
        if bench.plot_name:
            self._plot(bench, table, save_path, show_plots)
        shown = table.select(columns[: len(bench.x_names) + len(bench.line_names)])
        if diff_col and len(shown.columns) == 2:
            shown.columns.append("Diff")
            for row in shown.rows:
                row.append(row[1] - row[0])
        pandas = _optional("pandas")
        result: Any = shown
        if pandas is not None:
            result = pandas.DataFrame(shown.rows, columns=shown.columns)
        if print_data:
            print(bench.plot_name + ":")
            print(result.to_string())
        if save_path:
            path = os.path.join(save_path, f"{bench.plot_name}.csv")
            if pandas is not None:
                result.to_csv(path, float_format=f"%.{save_precision}f", index=False)
            else:
                shown.to_csv(path, save_precision)
        return result

    def run(
        self,
        show_plots: bool = False,
        print_data: bool = False,
        save_path: str = "",
        return_df: bool = False,
        **kwargs: Any,
    ) -> Any:
        """Run every benchmark: print its table (``print_data``), show its plot
        (``show_plots``), save ``<plot_name>.png``/``.csv`` and ``results.html`` under
        ``save_path``. With ``return_df``, return the table(s): pandas DataFrames when pandas is
        installed, else ``ResultTable``s."""
        single = isinstance(self.benchmarks, Benchmark)
        benchmarks = (
            [self.benchmarks] if isinstance(self.benchmarks, Benchmark) else self.benchmarks
        )
        results = []
        try:
            for bench in benchmarks:
                results.append(self._run(bench, save_path, show_plots, print_data, **kwargs))
        finally:
            if save_path:
                os.makedirs(save_path, exist_ok=True)
                with open(os.path.join(save_path, "results.html"), "w") as html:
                    html.write("<html><body>\n")
                    for bench in benchmarks[: len(results)]:
                        html.write(f'<image src="{bench.plot_name}.png"/>\n')
                    html.write("</body></html>\n")
        if return_df:
            return results[0] if single else results
        return None


def perf_report(benchmarks: Benchmark | list[Benchmark]) -> Callable[[Callable[..., Any]], Mark]:
    """Decorator: ``@perf_report(Benchmark(...))`` makes ``fn`` a ``Mark`` with ``.run(...)``."""
    return lambda fn: Mark(fn, benchmarks)
