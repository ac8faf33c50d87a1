"""tt.trace.json (issue 31): kernel.save(dir) after a run in the emulator writes the performance model's timeline of
that run in the Chrome trace-event format (Perfetto, chrome://tracing): a "device" process with the modelled total,
one process per core with one thread per RISC-V (reader and writer processors, the three TRISCs), and spans of the
model's fill, block steps, CB waits, NoC transfers and drain, all inside the modelled total. One 64x64x64 GEMM in
32x32 blocks (4 cores), compiled and run once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from test_language_llvm import matmul

import tilelang
from tilelang.tenstorrent import device, perf_model

BF16 = ml_dtypes.bfloat16


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Path, Path]:
    kernel = tilelang.compile(matmul(64, 64, 64, 32, 32, 32, dtype="bfloat16"), out_idx=[-1], target="tenstorrent")
    before = kernel.save(tmp_path_factory.mktemp("before_run"))
    a = np.random.default_rng(31).uniform(-1, 1, (64, 64)).astype(BF16)
    kernel(a, a)
    return kernel, before, kernel.save(tmp_path_factory.mktemp("after_run"))


def test_trace_is_written_after_a_run(saved: Any) -> None:
    _, before, after = saved
    assert not (before / "tt.trace.json").exists()  # no run: no counters to model
    assert (after / "tt.trace.json").is_file()


def test_trace_has_a_track_per_core_and_risc_and_spans_inside_the_modelled_total(saved: Any) -> None:
    kernel, _, after = saved
    doc = json.loads((after / "tt.trace.json").read_text("utf-8"))
    events = doc["traceEvents"]
    assert {e["ph"] for e in events} == {"M", "X"}
    processes = {e["pid"]: e["args"]["name"] for e in events if e["name"] == "process_name"}
    threads = {(e["pid"], e["tid"]): e["args"]["name"] for e in events if e["name"] == "thread_name"}
    cores = [tuple(c["core"]) for c in kernel.last_report["cores"]]
    assert len(cores) == 4
    assert processes == {0: "device", **{i + 1: "core ({},{})".format(*c) for i, c in enumerate(cores)}}
    for pid in range(1, len(cores) + 1):
        assert [threads[(pid, tid)] for tid in range(5)] == [
            "RISCV_1 reader", "TRISC0 unpack", "TRISC1 math", "TRISC2 pack", "RISCV_0 writer"]
    est = perf_model.estimate_kernel(kernel)
    total = est.modelled_seconds * 1e6
    spans = [e for e in events if e["ph"] == "X"]
    (whole,) = [e for e in spans if e["pid"] == 0 and e["name"].startswith("modelled total")]
    assert whole["dur"] == pytest.approx(total, rel=1e-4)
    for e in spans:
        assert isinstance(e["name"], str) and e["dur"] > 0 and e["ts"] >= 0
        assert e["ts"] + e["dur"] <= total + 2e-4, e  # microseconds, rounded to 4 places
        assert (e["pid"], e["tid"]) in threads or e["pid"] == 0
    rate = perf_model.matmul_cycles(est.data_format, est.fidelity, device.PERF)
    for pid, core, counters in zip(range(1, 5), est.cores, kernel.last_report["cores"], strict=True):
        mine = [e for e in spans if e["pid"] == pid]
        names = {e["name"] for e in mine}
        assert {"fill: first blocks", "CB wait: first blocks", "NoC writes", "block step 0", "pack block 0",
                "drain: last block"} <= names
        # A core reads over the NoC unless it only receives multicasts (then it waits on their semaphores).
        assert ("NoC reads" in names) == bool(counters["dram_bytes_read"]), names
        # The spans of a core end where its modelled cycles do (its drain), and its math spans sum to the model's.
        assert max(e["ts"] + e["dur"] for e in mine) == pytest.approx(core.cycles / est.clock_hz * 1e6, rel=1e-3)
        math = sum(e["args"]["cycles"] for e in mine if e["tid"] == 2)
        assert math == pytest.approx(perf_model.math_cycles(counters, rate, device.PERF), rel=1e-3)
