"""The simulated daemon's heap diagnostics (hw_sim/heap.py, the panel's ``/debug/heap``): the resident size and the
collector's counts always; with tracing, what Python holds and the allocation sites that grew since the last
report; a trim of the C allocator reported before and after."""

from __future__ import annotations

import json
import tracemalloc
import urllib.request
from collections.abc import Iterator

import pytest

from hw_sim import heap
from hw_sim.panel import Panel

PINMAP = {"button_a": 17, "button_b": 27, "encoder_a": 5, "encoder_b": 6, "encoder_push": 13}
KEPT: list[object] = []


@pytest.fixture
def tracing() -> Iterator[None]:
    heap._previous = None
    tracemalloc.start(3)
    yield
    tracemalloc.stop()
    heap._previous = None
    KEPT.clear()


def grow() -> None:
    KEPT.extend(bytearray(1000) for _ in range(2000))  # about 2 MB from this line


def test_the_site_that_grew_between_two_reports_is_named(tracing) -> None:
    heap.report()
    grow()
    after = heap.report()
    top = after["growth"][0]
    assert __file__ in top["site"] and top["size_diff_kb"] > 1900 and top["count_diff"] >= 2000
    assert after["tracing"] is True and after["traced_kb"] >= 1900


def test_without_tracing_the_report_has_the_resident_size_and_the_collector_only(monkeypatch) -> None:
    monkeypatch.delenv(heap.TRACEMALLOC_ENV, raising=False)
    assert heap.start_from_env() is False
    out = heap.report(trim=True)
    assert out["tracing"] is False and "growth" not in out and "traced_kb" not in out
    assert out["rss_kb"] > 0 and out["gc_objects"] > 0 and len(out["gc_collections"]) == 3
    assert out["trimmed"] is True and out["rss_after_trim_kb"] > 0  # glibc on the machines this runs on


def test_the_variable_asks_for_frames_within_bounds(monkeypatch) -> None:
    monkeypatch.setenv(heap.TRACEMALLOC_ENV, "99")
    with pytest.raises(ValueError, match="1-25 frames"):
        heap.start_from_env()
    assert not tracemalloc.is_tracing()


def test_the_panel_serves_the_report() -> None:
    with Panel(PINMAP, []) as panel:
        panel.register_state_provider(lambda: {})
        with urllib.request.urlopen(f"http://127.0.0.1:{panel.port}/debug/heap?trim=1", timeout=30) as answer:
            out = json.loads(answer.read())
    assert out["rss_kb"] > 0 and "rss_after_trim_kb" in out
