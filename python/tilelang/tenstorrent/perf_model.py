"""Performance model of a Tenstorrent kernel: modelled time on the device next to its roofline bound.

Inputs: the kernel's plan (`tt.plan.json`: tensors, compute fidelity), the emulator's report (counters per core)
and the device's performance facts (`device.PERF`, stated once in specs/backends/tenstorrent.yaml `device.perf`).

Formula (P = worker cores, f = clock in Hz, B_noc = NoC bytes/cycle, BW = DRAM bytes/s, C_x = cycles of one tile
of op x; C_mm at the compute kernel's math fidelity):

    per core c:
      compute_c = matmul_c*C_mm + eltwise_c*C_elt + sfpu_c*C_sfpu + copy_c*C_copy + pack_c*C_pack      [cycles]
      noc_c     = (dram_read_c + dram_written_c + multicast_c) / B_noc                                 [cycles]
    modelled    = max( max_c max(compute_c, noc_c) / f ,  sum_c (dram_read_c + dram_written_c) / BW )  [s]

    roofline    = max( (matmul*C_mm + eltwise*C_elt + sfpu*C_sfpu) / (P * f) ,  compulsory_bytes / BW )
                = max( sum_op FLOPs_op / (P * peak_op FLOP/cycle * f) , compulsory_bytes / BW )
      FLOPs: 2*32^3 per tile matmul (peak 2*32^3/C_mm per cycle), 1024 per element-wise or SFPU tile;
      compulsory_bytes = sum over the plan's tensors of pages * page_bytes (each read or written exactly once).

Why max and not a sum per core: the reader, compute and writer kernels run on different RISC-V cores and talk
through double-buffered circular buffers, so in steady state a core is limited by its slowest stream. The chip-
wide DRAM term bounds the whole run from below because every core's traffic shares the same DRAM banks. No
per-transaction or per-barrier NoC overhead is charged (the hardware facts give none to justify one); the
per-core NoC term charges reads and writes to one link (Wormhole has two NoCs, so this is conservative by up to
2x when a core reads and writes equally). A multicast (multicast_c: payload bytes a core sent) is charged once to
its sender: the NoC replicates it along the path, and the receivers' links carry it while their own core is idle
on that link. Semaphore messages are 4 bytes and are not charged. The roofline's compute term spreads the work
over all P worker cores and leaves out copy/pack tiles (data movement inside a core, not work the problem asks
for); its DRAM term moves each tensor once. Hence modelled >= roofline whenever the kernel does no less work
than the problem needs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from . import device

FORMULA = "Formula" + __doc__.split("Formula", 1)[1].split("Why max", 1)[0].strip() if __doc__ else ""

DEFAULT_FIDELITY = device.MATH_FIDELITY  # a plan without one ran with the backend default
COUNTERS = ("dram_bytes_read", "dram_bytes_written", "matmul_tiles", "eltwise_tiles", "sfpu_tiles", "copy_tiles",
            "pack_tiles")


@dataclass(frozen=True)
class CorePerf:
    """Modelled figures of one core."""

    core: tuple[int, int]
    compute_cycles: float
    noc_cycles: float
    dram_bytes: int

    @property
    def cycles(self) -> float:
        return max(self.compute_cycles, self.noc_cycles)

    @property
    def bound(self) -> str:
        return "compute" if self.compute_cycles >= self.noc_cycles else "noc"


@dataclass(frozen=True)
class PerfEstimate:
    """Modelled time of a kernel and its roofline bound, in seconds; `formula` says how they are computed."""

    formula: ClassVar[str] = FORMULA

    cores: tuple[CorePerf, ...]
    fidelity: str
    clock_hz: float
    compute_seconds: float  # slowest core's compute stream
    noc_seconds: float  # slowest core's NoC stream
    core_seconds: float  # max over cores of max(compute, noc)
    dram_bytes: int  # bytes the kernel moved to and from DRAM (all cores)
    dram_seconds: float  # dram_bytes / DRAM bandwidth
    modelled_seconds: float  # max(core_seconds, dram_seconds)
    flops: int
    compulsory_dram_bytes: int  # each tensor read or written once
    roofline_compute_seconds: float
    roofline_dram_seconds: float
    roofline_seconds: float

    @property
    def ratio(self) -> float:
        """Modelled time / roofline bound (>= 1 for a kernel that does no redundant work below the bound)."""
        return self.modelled_seconds / self.roofline_seconds if self.roofline_seconds else float("inf")

    @property
    def bound(self) -> str:
        """The term that sets the modelled time: 'compute', 'noc' or 'dram'."""
        if self.dram_seconds >= self.core_seconds:
            return "dram"
        return "compute" if self.compute_seconds >= self.noc_seconds else "noc"

    @property
    def roofline_bound(self) -> str:
        """The term that sets the roofline: 'compute' or 'dram'."""
        return "compute" if self.roofline_compute_seconds >= self.roofline_dram_seconds else "dram"

    @property
    def tflops(self) -> float:
        """Modelled throughput in TFLOP/s."""
        return self.flops / self.modelled_seconds / 1e12 if self.modelled_seconds else 0.0


def _fidelity(plan: Mapping[str, Any]) -> str:
    compute = plan.get("kernels", {}).get("compute", {})
    return str(compute.get("math_fidelity") or DEFAULT_FIDELITY)


def _tile_elements(plan: Mapping[str, Any]) -> int:
    tile = plan.get("device", {}).get("tile") or device.TILE
    return int(tile[0]) * int(tile[1])


def compulsory_bytes(plan: Mapping[str, Any]) -> int:
    """Bytes that move when every tensor of the plan is read (inputs) or written (outputs) exactly once."""
    return sum(int(t["pages"]) * int(t["page_bytes"]) for t in plan.get("tensors", ()))


def core_cycles(counters: Mapping[str, Any], fidelity: str, perf: Mapping[str, Any]) -> tuple[float, float]:
    """(compute cycles, NoC cycles) of one core's counters."""
    compute = (counters.get("matmul_tiles", 0) * perf["matmul_tile_cycles"][fidelity]
               + counters.get("eltwise_tiles", 0) * perf["eltwise_tile_cycles"]
               + counters.get("sfpu_tiles", 0) * perf["sfpu_tile_cycles"]
               + counters.get("copy_tiles", 0) * perf["copy_tile_cycles"]
               + counters.get("pack_tiles", 0) * perf["pack_tile_cycles"])
    moved = (counters.get("dram_bytes_read", 0) + counters.get("dram_bytes_written", 0)
             + counters.get("noc_multicast_bytes", 0))
    return float(compute), moved / perf["noc_bytes_per_cycle"]


def estimate(plan: Mapping[str, Any], report: Mapping[str, Any], perf: Mapping[str, Any] | None = None,
             ) -> PerfEstimate:
    """Model a kernel run: `plan` is tt.plan.json, `report` the emulator's report (its `cores` counters),
    `perf` the device's performance facts (default: device.PERF)."""
    perf = device.PERF if perf is None else perf
    fidelity = _fidelity(plan)
    if fidelity not in perf["matmul_tile_cycles"]:
        raise ValueError(f"unknown math fidelity {fidelity!r}; the device knows {sorted(perf['matmul_tile_cycles'])}")
    clock = float(perf["clock_hz"])
    per_core: Sequence[Mapping[str, Any]] = report.get("cores", ())
    cores = []
    for entry in per_core:
        compute, noc = core_cycles(entry, fidelity, perf)
        moved = int(entry.get("dram_bytes_read", 0)) + int(entry.get("dram_bytes_written", 0))
        cores.append(CorePerf(tuple(entry.get("core", (0, 0))), compute, noc, moved))  # type: ignore[arg-type]
    totals = {key: sum(int(e.get(key, 0)) for e in per_core) for key in COUNTERS}
    dram_bytes = totals["dram_bytes_read"] + totals["dram_bytes_written"]
    compute_seconds = max((c.compute_cycles for c in cores), default=0.0) / clock
    noc_seconds = max((c.noc_cycles for c in cores), default=0.0) / clock
    core_seconds = max((c.cycles for c in cores), default=0.0) / clock
    dram_seconds = dram_bytes / perf["dram_bytes_per_second"]

    elements = _tile_elements(plan)
    side = round(elements ** 0.5)
    flops = totals["matmul_tiles"] * 2 * side ** 3 + (totals["eltwise_tiles"] + totals["sfpu_tiles"]) * elements
    ideal_cycles = (totals["matmul_tiles"] * perf["matmul_tile_cycles"][fidelity]
                    + totals["eltwise_tiles"] * perf["eltwise_tile_cycles"]
                    + totals["sfpu_tiles"] * perf["sfpu_tile_cycles"])
    roof_compute = ideal_cycles / (perf["worker_cores"] * clock)
    needed = compulsory_bytes(plan)
    roof_dram = needed / perf["dram_bytes_per_second"]
    return PerfEstimate(
        cores=tuple(cores), fidelity=fidelity, clock_hz=clock, compute_seconds=compute_seconds,
        noc_seconds=noc_seconds, core_seconds=core_seconds, dram_bytes=dram_bytes, dram_seconds=dram_seconds,
        modelled_seconds=max(core_seconds, dram_seconds), flops=flops, compulsory_dram_bytes=needed,
        roofline_compute_seconds=roof_compute, roofline_dram_seconds=roof_dram,
        roofline_seconds=max(roof_compute, roof_dram))


def estimate_kernel(kernel: Any, perf: Mapping[str, Any] | None = None) -> PerfEstimate:
    """Model the last run of a compiled kernel (`tilelang.compile(..., target="tenstorrent")`, called once)."""
    report = getattr(kernel, "last_report", None)
    if not report:
        raise ValueError("the kernel has not run yet: call it once, then model its `last_report`")
    return estimate(kernel.artifact.rt_mod.plan, report, perf)
