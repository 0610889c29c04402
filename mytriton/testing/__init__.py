"""``triton.testing``: benchmarking, perf reports and closeness checks, as in Triton 3.6.

``do_bench`` times a callable with CUDA events: through torch when ``torch.cuda`` is available,
else through CuPy (events, and a CuPy buffer for the L2 flush). On a machine with neither (CPU
only: the interpreter and gpusim backends) it times each call with ``time.perf_counter`` and
flushes nothing, so the numbers are host wall-clock times of the call.

``perf_report``/``Benchmark`` print and save tables through pandas and plots through matplotlib
when they are installed; without pandas the table is a ``ResultTable`` (plain-text printing,
CSV by the ``csv`` module), without matplotlib no plot is drawn and a message on stderr says so.

The package is the namespace; its modules: ``bench.py`` (``do_bench``, ``do_bench_cudagraph``
and their statistics), ``timers.py`` (the torch, CuPy and host clocks), ``closeness.py``
(``assert_close``), ``perf_reports.py`` (``perf_report``, ``Benchmark``, ``Mark``,
``ResultTable``), ``device_peaks.py`` (``get_dram_gbps`` and the peak TFLOP/s).
"""

from __future__ import annotations

from mytriton.testing.bench import RETURN_MODES as RETURN_MODES
from mytriton.testing.bench import _quantiles as _quantiles  # (tests)
from mytriton.testing.bench import _summarize as _summarize  # (the compat driver's benchmarker)
from mytriton.testing.bench import do_bench, do_bench_cudagraph
from mytriton.testing.closeness import assert_close
from mytriton.testing.device_peaks import (
    get_dram_gbps,
    get_max_simd_tflops,
    get_max_tensorcore_tflops,
)
from mytriton.testing.perf_reports import Benchmark, Mark, ResultTable, perf_report
from mytriton.testing.timers import L2_FLUSH_BYTES as L2_FLUSH_BYTES

__all__ = [
    "Benchmark",
    "Mark",
    "ResultTable",
    "assert_close",
    "do_bench",
    "do_bench_cudagraph",
    "get_dram_gbps",
    "get_max_simd_tflops",
    "get_max_tensorcore_tflops",
    "perf_report",
]
