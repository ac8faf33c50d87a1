"""Performance model of a Tenstorrent kernel: modelled time on its device (n150, p150) next to its roofline bound.

Inputs: the kernel's plan (`tt.plan.json`: tensors, CBs, semaphores, compute fidelity, the device's name), the
emulator's report (counters per core) and the device's performance facts (`device.PERF_BY_DEVICE[name]`, stated
once in specs/backends/tenstorrent.yaml, the `perf` of the device's record): the peaks for the roofline, `measured`
for the modelled time.

Formula (measured facts: f = clock under load, R_x = bytes/cycle of transfer x, M = sustained cycles of a tile
matmul for the operands' data format at the compute kernel's math fidelity, S = cycles per semaphore wait,
BW = chip DRAM bytes/s, WB = chip bytes/s of the writers' final drain, H = host dispatch per op for the operands'
format; C_x = cycles per tile of op x as in the peak facts):

    per core c:
      compute_c = max(matmul_c*M + eltwise_c*C_elt + sfpu_c*C_sfpu + copy_c*C_copy,  pack_c*C_pack)    [cycles]
      noc_c     = dram_read_c/R_dram_read + dram_written_c/R_dram_write + multicast_c/R_multicast
                  + multicast_linked_c/R_multicast_linked + l1_read_c/R_noc_read + l1_written_c/R_noc_write
                  + (drain - drained/R_dram_write when c writes DRAM: its last block leaves at the chip's rate)
      core_c    = max(compute_c + fill + drain, noc_c) + semaphore_waits_c*S
    fill  = max over data-movement kernels of the first block of each CB it feeds the compute kernel with:
            bytes/R_dram_read (+ bytes/R_multicast when the kernel multicasts)
    drain = the last block of each CB the writer drains, by all W cores that write DRAM at once:
            max( bytes/R_dram_write ,  W * bytes / WB * f );  bytes/R_noc_write when C stays in L1 (l1_sharded);
            none for an output CB that is C's shard (set_globally_allocated_address: the packer writes it)
    device    = max( max_c core_c / f ,  sum_c (dram_read_c + dram_written_c) / BW )                    [s]
    modelled  = device + program launch;   host_bound = max(modelled, H)  (ops without trace)

    roofline  = max( (matmul*C_mm + eltwise*C_elt + sfpu*C_sfpu) / (P * f_peak) ,  compulsory_bytes / BW_peak )
      FLOPs: 2*32^3 per tile matmul, 1024 per element-wise or SFPU tile; compulsory_bytes = sum over the plan's
      tensors of pages * page_bytes (each read or written exactly once); P worker cores, peak clock and DRAM.

Why this shape: reader, compute and writer run on different RISC-V cores and hand blocks over through double-
buffered CBs, so in steady state a core runs at its slower stream; inside the compute kernel the packer (TRISC2)
drains one half of DST while unpack and math (TRISC0/1) fill the other; compute cannot start before the first blocks
arrive (fill) and the last block is written after it (drain), while a NoC-bound core's stream already includes
both at its own rates; all cores drain their last blocks at the same time, through the chip's DRAM write-back
(tt-metal's runs whose C goes to DRAM show it: tests/tenstorrent/test_tt_perf_calibration.py), whichever stream is
slower. A semaphore wait (a multicast handshake) stalls the whole step. All cores share the DRAM banks. A multicast is
charged once, to its sender. Without trace the host's enqueue of an op overlaps the previous op on the device; it costs
more when the matmul operands are block-float (measured, cause not located). `measured` in
specs/backends/tenstorrent.yaml cites or derives every figure from tt-metal's published measurements;
tests/tenstorrent/test_tt_perf_calibration.py predicts tt-metal's published GEMM and data-movement figures with this
formula.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ..errors import TileLangError
from . import device
from .records import (
    CB,
    COMPUTE_KERNEL,
    CORE_COUNTERS,
    COUNTERS,
    DEVICE,
    KERNELS,
    MODELLED_COUNTERS,
    PLAN,
    REPORT,
    TENSOR,
)

FORMULA = "Formula" + __doc__.split("Formula", 1)[1].split("Why this shape", 1)[0].strip() if __doc__ else ""

DEFAULT_FIDELITY = device.MATH_FIDELITY  # a plan without one ran with the backend default
SUMMED = (COUNTERS.DRAM_BYTES_READ, COUNTERS.DRAM_BYTES_WRITTEN, COUNTERS.MATMUL_TILES, COUNTERS.ELTWISE_TILES,
          COUNTERS.SFPU_TILES, COUNTERS.COPY_TILES, COUNTERS.PACK_TILES)
# Counter of bytes moved -> the measured rate (bytes/cycle) that carries them.
TRANSFERS = {COUNTERS.DRAM_BYTES_READ: "dram_read_bytes_per_cycle",
             COUNTERS.DRAM_BYTES_WRITTEN: "dram_write_bytes_per_cycle",
             COUNTERS.NOC_MULTICAST_BYTES: "multicast_bytes_per_cycle",
             COUNTERS.NOC_MULTICAST_LINKED_BYTES: "multicast_linked_bytes_per_cycle",
             MODELLED_COUNTERS.L1_BYTES_READ: "noc_read_bytes_per_cycle",
             MODELLED_COUNTERS.L1_BYTES_WRITTEN: "noc_write_bytes_per_cycle"}
# The measured matmul rate of Float16 operands is that of Float16_b (the same 2-byte operand path; spec doc).
FORMAT_ALIASES = {"Float16": "Float16_b"}


@dataclass(frozen=True)
class CorePerf:
    """Modelled cycles of one core: its tile work, its NoC traffic, the pipeline fill and drain it waits for,
    and its semaphore waits."""

    core: tuple[int, int]
    compute_cycles: float
    noc_cycles: float
    pipeline_cycles: float  # fill + drain
    wait_cycles: float
    dram_bytes: int

    @property
    def cycles(self) -> float:
        return max(self.compute_cycles + self.pipeline_cycles, self.noc_cycles) + self.wait_cycles

    @property
    def bound(self) -> str:
        return "compute" if self.compute_cycles + self.pipeline_cycles >= self.noc_cycles else "noc"


@dataclass(frozen=True)
class PerfEstimate:
    """Modelled time of a kernel and its roofline bound, in seconds; `formula` says how they are computed."""

    formula: ClassVar[str] = FORMULA

    cores: tuple[CorePerf, ...]
    fidelity: str
    data_format: str  # of the matmul operands (the measured tile-matmul rate is per format)
    clock_hz: float  # measured clock under load
    compute_seconds: float  # slowest core's compute stream, fill and drain included
    noc_seconds: float  # slowest core's NoC stream
    wait_seconds: float  # slowest core's semaphore waits
    core_seconds: float  # max over cores of their modelled cycles
    dram_bytes: int  # bytes the kernel moved to and from DRAM (all cores)
    dram_seconds: float  # dram_bytes / measured DRAM bandwidth
    launch_seconds: float  # device-side launch of the program
    host_dispatch_seconds: float  # the host's enqueue of one op without trace (by operand format)
    modelled_seconds: float  # max(core_seconds, dram_seconds) + launch_seconds
    flops: int
    compulsory_dram_bytes: int  # each tensor read or written once
    roofline_compute_seconds: float
    roofline_dram_seconds: float
    roofline_seconds: float

    @property
    def host_bound_seconds(self) -> float:
        """Time per op of back-to-back ops without trace: the host's enqueue overlaps the previous op."""
        return max(self.modelled_seconds, self.host_dispatch_seconds)

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
    compute = plan.get(PLAN.KERNELS, {}).get(KERNELS.COMPUTE, {})
    return str(compute.get(COMPUTE_KERNEL.MATH_FIDELITY) or DEFAULT_FIDELITY)


def _tile_elements(plan: Mapping[str, Any]) -> int:
    tile = plan.get(PLAN.DEVICE, {}).get(DEVICE.TILE) or device.TILE
    return int(tile[0]) * int(tile[1])


def operand_format(plan: Mapping[str, Any]) -> str:
    """Data format of the matmul operands: that of the widest input CB the compute kernel consumes (the first of
    equal ones): with one block-float operand (tl.tt.dram_format) the other's wider tiles bound the operand path."""
    inputs = [cb for cb in plan.get(PLAN.CBS, ()) if cb.get(CB.CONSUMER) == "compute" and cb.get(CB.CLASS) == "input"]
    widest = max(inputs, key=lambda cb: int(cb.get(CB.PAGE_BYTES, 0)), default=None)
    fmt = str(widest.get(CB.DATA_FORMAT, "Float16_b")) if widest else "Float16_b"
    return FORMAT_ALIASES.get(fmt, fmt)


def matmul_cycles(fmt: str, fidelity: str, perf: Mapping[str, Any]) -> float:
    """Measured sustained cycles of one tile matmul with `fmt` operands at `fidelity`."""
    if fidelity not in perf["matmul_tile_cycles"]:
        raise ValueError(f"unknown math fidelity {fidelity!r}; the device knows {sorted(perf['matmul_tile_cycles'])}")
    table = perf["measured"]["matmul_tile_cycles"]
    if fidelity not in table.get(fmt, {}):
        known = sorted(f"{f} {fid}" for f, by in table.items() for fid in by)
        raise ValueError(f"no measured tile-matmul rate for {fmt} operands at {fidelity}; measured: {known}")
    return float(table[fmt][fidelity])


def host_dispatch_seconds(fmt: str, perf: Mapping[str, Any]) -> float:
    """Host time to enqueue one op without trace: measured separately for block-float matmul operands."""
    measured = perf["measured"]
    key = "host_dispatch_block_float_seconds" if fmt.startswith("Bfp") else "host_dispatch_seconds"
    return float(measured[key])


def compulsory_bytes(plan: Mapping[str, Any]) -> int:
    """Bytes that move when every tensor of the plan is read (inputs) or written (outputs) exactly once."""
    return sum(int(t[TENSOR.PAGES]) * int(t[TENSOR.PAGE_BYTES]) for t in plan.get(PLAN.TENSORS, ()))


def writes_to_l1(plan: Mapping[str, Any], per_core: Sequence[Mapping[str, Any]]) -> bool:
    """Whether the writers drain into their cores' L1: an output left there (tl.tt.memory_config l1_sharded) and no
    core writing DRAM."""
    return (any(TENSOR.L1_SHARD in t for t in plan.get(PLAN.TENSORS, ()))
            and not any(e.get(COUNTERS.DRAM_BYTES_WRITTEN, 0) for e in per_core))


def pipeline_cycles(plan: Mapping[str, Any], multicast_rate: float | None, perf: Mapping[str, Any],
                    writers: int = 1, to_l1: bool = False) -> tuple[float, float]:
    """(fill, drain) cycles: the first blocks the compute kernel waits for, the last block the writer writes.
    `multicast_rate` is the bytes/cycle of the kernel's multicasts, None when it multicasts nothing; `writers` is
    the number of cores whose writers drain their last block to DRAM at the same time (they share the chip's
    write-back rate); `to_l1`: the writers write their own L1 (writes_to_l1), at the NoC's write rate, no DRAM."""
    measured = perf["measured"]
    per_byte = 1 / measured["dram_read_bytes_per_cycle"] + (1 / multicast_rate if multicast_rate else 0.0)
    feeds: dict[str, int] = {}
    drained = 0
    for cb in plan.get(PLAN.CBS, ()):
        block = int(cb[CB.BLOCK_PAGES]) * int(cb[CB.PAGE_BYTES])
        if cb.get(CB.CONSUMER) == "compute" and cb.get(CB.PRODUCER) not in ("compute", None):
            feeds[cb[CB.PRODUCER]] = feeds.get(cb[CB.PRODUCER], 0) + block
        elif cb.get(CB.CONSUMER) == "writer" and cb.get(CB.PRODUCER) == "compute" and CB.SHARD_OF not in cb:
            drained += block  # (a CB that is an L1 shard is drained by the packer itself: the writer moves nothing)
    fill = max(feeds.values(), default=0) * per_byte
    if to_l1:
        return fill, drained / measured["noc_write_bytes_per_cycle"]
    chip = writers * drained / measured["dram_write_back_bytes_per_second"] * measured["clock_hz"]
    return fill, max(drained / measured["dram_write_bytes_per_cycle"], chip)


def math_cycles(counters: Mapping[str, Any], matmul: float, perf: Mapping[str, Any]) -> float:
    """Cycles of one core's tile math (unpack and math: matmul, element-wise, SFPU and copy tiles); `matmul` is the
    tile-matmul rate."""
    return float(counters.get(COUNTERS.MATMUL_TILES, 0) * matmul
                 + counters.get(COUNTERS.ELTWISE_TILES, 0) * perf["eltwise_tile_cycles"]
                 + counters.get(COUNTERS.SFPU_TILES, 0) * perf["sfpu_tile_cycles"]
                 + counters.get(COUNTERS.COPY_TILES, 0) * perf["copy_tile_cycles"])


def core_cycles(counters: Mapping[str, Any], matmul: float, perf: Mapping[str, Any]) -> tuple[float, float, float]:
    """(compute, NoC, semaphore-wait) cycles of one core's counters; `matmul` is the tile-matmul rate."""
    measured = perf["measured"]
    math = math_cycles(counters, matmul, perf)
    compute = max(math, counters.get(COUNTERS.PACK_TILES, 0) * perf["pack_tile_cycles"])  # the packer runs alongside
    noc = sum(counters.get(key, 0) / measured[rate] for key, rate in TRANSFERS.items())
    waits = counters.get(COUNTERS.SEMAPHORE_WAITS, 0) * measured["semaphore_wait_cycles"]
    return float(compute), float(noc), float(waits)


def multicast_rate(per_core: Sequence[Mapping[str, Any]], perf: Mapping[str, Any]) -> float | None:
    measured = perf["measured"]
    if any(e.get(COUNTERS.NOC_MULTICAST_BYTES, 0) for e in per_core):
        return float(measured["multicast_bytes_per_cycle"])
    if any(e.get(COUNTERS.NOC_MULTICAST_LINKED_BYTES, 0) for e in per_core):
        return float(measured["multicast_linked_bytes_per_cycle"])
    return None


def _roofline(plan: Mapping[str, Any], totals: Mapping[str, int], fidelity: str, perf: Mapping[str, Any],
              ) -> tuple[int, float, float]:
    """(FLOPs, compute bound, DRAM bound) at the device's peaks."""
    elements = _tile_elements(plan)
    side = round(elements ** 0.5)
    flops = (totals[COUNTERS.MATMUL_TILES] * 2 * side ** 3
             + (totals[COUNTERS.ELTWISE_TILES] + totals[COUNTERS.SFPU_TILES]) * elements)
    ideal_cycles = (totals[COUNTERS.MATMUL_TILES] * perf["matmul_tile_cycles"][fidelity]
                    + totals[COUNTERS.ELTWISE_TILES] * perf["eltwise_tile_cycles"]
                    + totals[COUNTERS.SFPU_TILES] * perf["sfpu_tile_cycles"])
    roof_compute = ideal_cycles / (perf["worker_cores"] * float(perf["clock_hz"]))
    return flops, roof_compute, compulsory_bytes(plan) / perf["dram_bytes_per_second"]


def device_perf(name: str, kernel: object = None) -> Mapping[str, Any]:
    """The performance facts of device `name` (its record's `perf`); a device without them is refused."""
    if name not in device.PERF_BY_DEVICE:
        raise TileLangError(f"kernel '{kernel}' was compiled for device '{name}'; the performance model has facts "
                            f"for {', '.join(sorted(device.PERF_BY_DEVICE))} only (specs/backends/tenstorrent.yaml: "
                            f"device.devices.{name} has no perf record)")
    return device.PERF_BY_DEVICE[name]


def estimate(plan: Mapping[str, Any], report: Mapping[str, Any], perf: Mapping[str, Any] | None = None,
             fidelity: str | None = None) -> PerfEstimate:
    """Model a kernel run: `plan` is tt.plan.json, `report` the emulator's report (its `cores` counters), `perf`
    the device's performance facts (default: those of the device the plan names). `fidelity` models the same
    counters at another math fidelity than the plan's (the counters do not depend on it, only the tile-matmul rate
    does)."""
    if perf is None:
        perf = device_perf(plan.get(PLAN.DEVICE, {}).get(DEVICE.NAME, device.DEVICE), plan.get(PLAN.KERNEL))
    measured = perf["measured"]
    fidelity = fidelity or _fidelity(plan)
    fmt = operand_format(plan)
    per_core: Sequence[Mapping[str, Any]] = device_cores(plan, report.get(REPORT.CORES, ()))
    totals = {key: sum(int(e.get(key, 0)) for e in per_core) for key in SUMMED}
    matmul = matmul_cycles(fmt, fidelity, perf) if totals[COUNTERS.MATMUL_TILES] else 0.0
    writers = sum(1 for e in per_core if e.get(COUNTERS.DRAM_BYTES_WRITTEN, 0))
    multicast = multicast_rate(per_core, perf)
    to_l1 = writes_to_l1(plan, per_core)
    fill, drain = pipeline_cycles(plan, multicast, perf, max(writers, 1), to_l1)
    write_back = drain - pipeline_cycles(plan, multicast, perf, 1, to_l1)[1]  # beyond one core's own write rate
    cores = []
    for entry in per_core:
        compute, noc, waits = core_cycles(entry, matmul, perf)
        if entry.get(COUNTERS.DRAM_BYTES_WRITTEN, 0):
            noc += write_back
        moved = int(entry.get(COUNTERS.DRAM_BYTES_READ, 0)) + int(entry.get(COUNTERS.DRAM_BYTES_WRITTEN, 0))
        cores.append(CorePerf(tuple(entry.get(CORE_COUNTERS.CORE, (0, 0))), compute, noc, fill + drain,
                              waits, moved))
    clock = float(measured["clock_hz"])
    dram_bytes = totals[COUNTERS.DRAM_BYTES_READ] + totals[COUNTERS.DRAM_BYTES_WRITTEN]
    core_seconds = max((c.cycles for c in cores), default=0.0) / clock
    dram_seconds = dram_bytes / measured["dram_bytes_per_second"]
    launch = float(measured["program_launch_seconds"])
    flops, roof_compute, roof_dram = _roofline(plan, totals, fidelity, perf)
    return PerfEstimate(
        cores=tuple(cores), fidelity=fidelity, data_format=fmt, clock_hz=clock,
        compute_seconds=max((c.compute_cycles + c.pipeline_cycles for c in cores), default=0.0) / clock,
        noc_seconds=max((c.noc_cycles for c in cores), default=0.0) / clock,
        wait_seconds=max((c.wait_cycles for c in cores), default=0.0) / clock,
        core_seconds=core_seconds, dram_bytes=dram_bytes, dram_seconds=dram_seconds, launch_seconds=launch,
        host_dispatch_seconds=host_dispatch_seconds(fmt, perf),
        modelled_seconds=max(core_seconds, dram_seconds) + launch, flops=flops,
        compulsory_dram_bytes=compulsory_bytes(plan), roofline_compute_seconds=roof_compute,
        roofline_dram_seconds=roof_dram, roofline_seconds=max(roof_compute, roof_dram))


def device_cores(plan: Mapping[str, Any], per_core: Sequence[Mapping[str, Any]]) -> Sequence[Mapping[str, Any]]:
    """One device's counters per core. On a mesh (plan `mesh`) every device runs the same program on its own
    shards at once, each from its own DRAM, so the model gives one device's time: the report lists each device's
    cores apart (their `device`), and the busiest device's (most DRAM bytes, then tile matmuls) are modelled. The
    host's transfers are not modelled."""
    if not plan.get(PLAN.MESH):
        return per_core
    devices: dict[tuple[int, ...], list[Mapping[str, Any]]] = {}
    for e in per_core:
        if CORE_COUNTERS.DEVICE not in e:
            raise TileLangError(f"kernel '{plan.get(PLAN.KERNEL)}' ran on a mesh, but the report's core "
                                f"{e.get(CORE_COUNTERS.CORE)} names no device (an emulator older than its per-device "
                                "counters: rebuild it with `python -m tilelang.cpp`)")
        devices.setdefault(tuple(e[CORE_COUNTERS.DEVICE]), []).append(e)

    def load(cores: list[Mapping[str, Any]]) -> tuple[int, int]:
        return (sum(int(e.get(COUNTERS.DRAM_BYTES_READ, 0)) + int(e.get(COUNTERS.DRAM_BYTES_WRITTEN, 0))
                    for e in cores), sum(int(e.get(COUNTERS.MATMUL_TILES, 0)) for e in cores))
    return max(devices.values(), key=load, default=[])


def estimate_kernel(kernel: Any, perf: Mapping[str, Any] | None = None, fidelity: str | None = None,
                    ) -> PerfEstimate:
    """Model the last run of a compiled kernel (`tilelang.compile(..., target="tenstorrent")`, called once)."""
    report = getattr(kernel, "last_report", None)
    if not report:
        raise ValueError("the kernel has not run yet: call it once, then model its `last_report`")
    if hasattr(kernel.artifact.rt_mod, "programs"):  # several T.Kernel launches (tilelang.tenstorrent.programs)
        raise ValueError("the kernel is several programs run in order: model each, estimate(p.plan, p.last_report) for "
                         "p in kernel.artifact.rt_mod.programs (the profiler adds their times up)")
    return estimate(kernel.artifact.rt_mod.plan, report, perf, fidelity)
