"""Run every execution test twice: programs batched (the fast path) and one program at a time
(the fallback), so both schedules are held to the same results."""

from __future__ import annotations

import pytest

from mytriton.backends.interpreter import launch


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if metafunc.definition.get_closest_marker("execution") and "schedule" in metafunc.fixturenames:
        metafunc.parametrize("schedule", ["batched", "one-by-one"], indirect=True)


@pytest.fixture(autouse=True)
def schedule(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    mode = getattr(request, "param", "batched")
    if mode == "one-by-one":
        monkeypatch.setattr(launch, "BATCH_ELEMENTS", 0)
    return mode
