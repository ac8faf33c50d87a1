"""tt.trace.json: where the performance model says a Tenstorrent kernel's time goes, as a Chrome trace-event file
(the JSON Object Format of the Trace Event Format; Perfetto and chrome://tracing open it).

One process per core (its report order; "core (x,y)"), one thread per RISC-V of the core: the data-movement kernels'
processors from the plan (reader and writer: RISCV_1 and RISCV_0 by default) and the compute kernel's three TRISCs
(unpack, math, pack). A first process, "device", holds the modelled total and the program launch. Spans are complete
events ("ph": "X", microseconds) laid out from the model's terms of each core (perf_model: fill, drain, compute,
NoC, semaphore waits), not from a measured timeline:

    fill [0, F): the reader's first blocks (the unpacker waits for them: a CB wait);
    the core's blocks (work_partition) as equal steps of L = (T - F - D) / blocks from F, each starting with its share
    of the semaphore waits (reader: "semaphore wait"; unpacker: a CB wait for the multicast), then the math and the
    pack of the step (compute and pack cycles / blocks), the reader's and the writer's NoC transfers of the step
    (bytes / measured rates, / blocks), and the unpacker's CB wait for the rest of the step when the core is
    NoC-bound;
    drain [T - D, T): the writer's last block to DRAM;

T is the core's modelled cycles, so every span lies inside the modelled total.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from . import device, mesh_perf, perf_model
from .records import COUNTERS, DM_KERNEL, KERNELS, MODELLED_COUNTERS, PLAN, REPORT, WORK_ITEM

FILE = "tt.trace.json"
# The compute kernel's threads: tt-metal compiles it once per TRISC (UNPACK, MATH, PACK; jit_build/build.cpp).
TRISCS = ("TRISC0 unpack", "TRISC1 math", "TRISC2 pack")
READ_RATES = (COUNTERS.DRAM_BYTES_READ, COUNTERS.NOC_MULTICAST_BYTES, COUNTERS.NOC_MULTICAST_LINKED_BYTES,
              MODELLED_COUNTERS.L1_BYTES_READ)


def _blocks(plan: Mapping[str, Any], core: tuple[int, int]) -> int:
    """Blocks the core computes (its work_partition item: count, or rows x cols in shard mode); at least 1."""
    for item in plan.get(PLAN.WORK_PARTITION, ()):
        if tuple(item.get(WORK_ITEM.CORE, ())) == core:
            count = item.get(WORK_ITEM.COUNT)
            if count is None and WORK_ITEM.ROWS in item:
                count = int(item[WORK_ITEM.ROWS]) * int(item.get(WORK_ITEM.COLS, 1))
            return max(int(count or 1), 1)
    return 1


def _stream_cycles(counters: Mapping[str, Any], keys: tuple[str, ...], perf: Mapping[str, Any]) -> float:
    measured = perf["measured"]
    return float(sum(counters.get(k, 0) / measured[perf_model.TRANSFERS[k]] for k in keys))


def _event(**fields: Any) -> dict[str, Any]:
    """A trace event, or an object inside one: the Trace Event Format's own keys (ph, name, pid, tid, ts, dur, args),
    written as keywords."""
    return fields


class _Events:
    def __init__(self, clock_hz: float) -> None:
        self.scale = 1e6 / clock_hz  # cycles -> microseconds
        self.events: list[dict[str, Any]] = []

    def track(self, pid: int, tid: int, process: str, thread: str) -> None:
        if tid == 0:
            self.events.append(_event(ph="M", name="process_name", pid=pid, tid=0, args=_event(name=process)))
            self.events.append(_event(ph="M", name="process_sort_index", pid=pid, tid=0, args=_event(sort_index=pid)))
        self.events.append(_event(ph="M", name="thread_name", pid=pid, tid=tid, args=_event(name=thread)))

    def span(self, pid: int, tid: int, name: str, cat: str, start: float, cycles: float, **args: Any) -> None:
        if cycles <= 0:
            return
        self.events.append(_event(ph="X", name=name, cat=cat, pid=pid, tid=tid, ts=round(start * self.scale, 4),
                                  dur=round(cycles * self.scale, 4), args=_event(cycles=round(cycles, 1), **args)))


def _core(ev: _Events, pid: int, plan: Mapping[str, Any], counters: Mapping[str, Any], perf_core: Any,
          fill: float, drain: float, math: float, perf: Mapping[str, Any]) -> None:
    kernels = plan.get(PLAN.KERNELS, {})
    reader = str(kernels.get(KERNELS.READER, {}).get(DM_KERNEL.PROCESSOR, "RISCV_1"))
    writer = str(kernels.get(KERNELS.WRITER, {}).get(DM_KERNEL.PROCESSOR, "RISCV_0"))
    name = "core ({},{})".format(*perf_core.core)
    for tid, thread in enumerate((f"{reader} reader", *TRISCS, f"{writer} writer")):
        ev.track(pid, tid, name, thread)
    total = perf_core.cycles
    blocks = _blocks(plan, perf_core.core)
    wait = perf_core.wait_cycles / blocks
    step = (total - perf_core.wait_cycles - fill - drain) / blocks + wait
    pack = counters.get(COUNTERS.PACK_TILES, 0) * perf["pack_tile_cycles"] / blocks
    reads = _stream_cycles(counters, READ_RATES, perf) / blocks
    writes = _stream_cycles(counters, (COUNTERS.DRAM_BYTES_WRITTEN, MODELLED_COUNTERS.L1_BYTES_WRITTEN),
                            perf) / blocks
    ev.span(pid, 0, "fill: first blocks", "noc", 0.0, fill)
    ev.span(pid, 1, "CB wait: first blocks", "cb_wait", 0.0, fill)
    for b in range(blocks):
        start = fill + b * step
        busy = min(max(math / blocks, pack), step - wait)
        ev.span(pid, 0, "semaphore wait", "semaphore", start, wait, block=b)
        ev.span(pid, 1, "CB wait: multicast", "cb_wait", start, wait, block=b)
        ev.span(pid, 0, "NoC reads", "noc", start + wait, min(reads, step - wait), block=b)
        ev.span(pid, 2, f"block step {b}", "compute", start + wait, min(math / blocks, step - wait), block=b)
        ev.span(pid, 3, f"pack block {b}", "compute", start + wait, min(pack, step - wait), block=b)
        ev.span(pid, 1, "CB wait: NoC-bound", "cb_wait", start + wait + busy, step - wait - busy, block=b)
        ev.span(pid, 4, "NoC writes", "noc", start + wait, min(writes, step - wait), block=b)
    ev.span(pid, 4, "drain: last block", "noc", total - drain, drain)


def trace(plan: Mapping[str, Any], report: Mapping[str, Any], perf: Mapping[str, Any] | None = None
          ) -> dict[str, Any]:
    """The trace-event document of one run: `plan` is tt.plan.json, `report` the emulator's report."""
    est = perf_model.estimate(plan, report, perf)
    # On a mesh, the per-mesh model's figures (mesh_perf.py): the host's transfers beside the device's.
    on_mesh = mesh_perf.estimate(plan, report, perf=perf).figures() if PLAN.MESH in plan else None
    perf = perf if perf is not None else device.PERF
    ev = _Events(est.clock_hz)
    ev.track(0, 0, "device", "model")
    launch = est.launch_seconds * est.clock_hz
    ev.span(0, 0, f"modelled total ({est.bound}-bound)", "model", 0.0, est.modelled_seconds * est.clock_hz,
            tflops=round(est.tflops, 3), fidelity=est.fidelity, data_format=est.data_format)
    ev.span(0, 0, "program launch", "model", est.modelled_seconds * est.clock_hz - launch, launch)
    per_core = perf_model.device_cores(plan, report.get(REPORT.CORES, ()))  # on a mesh: the modelled device's
    writers = sum(1 for c in per_core if c.get(COUNTERS.DRAM_BYTES_WRITTEN, 0))
    multicast = perf_model.multicast_rate(per_core, perf)
    fill, drain = perf_model.pipeline_cycles(plan, multicast, perf, max(writers, 1),
                                             perf_model.writes_to_l1(plan, per_core))
    matmul = perf_model.matmul_cycles(est.data_format, est.fidelity, perf) if any(
        c.get(COUNTERS.MATMUL_TILES, 0) for c in per_core) else 0.0
    for pid, (counters, core) in enumerate(zip(per_core, est.cores, strict=True), start=1):
        _core(ev, pid, plan, counters, core, fill, drain, perf_model.math_cycles(counters, matmul, perf), perf)
    other = {PLAN.KERNEL: plan.get(PLAN.KERNEL), "source": "tilelang performance model (perf_model.py)",
             "modelled_us": round(est.modelled_seconds * 1e6, 4)}
    if on_mesh is not None:
        other[PLAN.MESH] = on_mesh
    return _event(traceEvents=ev.events, displayTimeUnit="ns", otherData=other)


def write(directory: str | Path, plan: Mapping[str, Any], report: Mapping[str, Any]) -> Path:
    """Write tt.trace.json of a run into `directory`; returns its path."""
    path = Path(directory) / FILE
    path.write_text(json.dumps(trace(plan, report), indent=1) + "\n", "utf-8")
    return path
