"""Performance model of a kernel on a mesh of chips: the per-device model (perf_model) plus the host's transfers to
and from the chips and the Ethernet links between them, from the facts of specs/backends/tenstorrent.yaml
(`device.systems`: which chips have a PCIe link and how many Ethernet links join neighbours; `device.links`: the
PCIe and Ethernet rates by architecture, each citing tt-metal's or tt-umd's published figures: device.LINK_SOURCES).

Formula (B_in, B_out = one device's input and output bytes: the plan's tensors are one device's shards; a
replicated input goes to every device, and every device's output shard or split-K partial comes back; H = chips
with a PCIe link, each serving n = chips / H chips: its own and the ones the host reaches through it over Ethernet;
L = Ethernet links between neighbours, E = one link's bytes/s one way, P_w, P_r = PCIe bytes/s each way):

    host_in    = max( n * B_in / P_w ,  (n - 1) * B_in / (L * E) )       the links of the H host chips at once
    device     = perf_model.estimate(plan, report).modelled_seconds       the busiest device; all run at once
    host_out   = max( n * B_out / P_r ,  (n - 1) * B_out / (L * E) )
    total      = host_in + device + host_out
    split-K, its partials reduced on the fabric instead (modelled only: the host program adds them, main.cpp):
      fabric_reduce = 2 (N - 1) / N * B_out / (L * E) + (N - 1) * hop     all_reduce over the N chips of the reduce
                                                                          axis on a line (CCL_bandwidth.md)
      fabric_total  = host_in + device + fabric_reduce + host_out / N    the host reads one copy

A single chip is a 1x1 mesh (n = 1: its own PCIe link). A target that names a mesh but no system (`{"mesh": [r,
c]}`) is modelled as chips that each have their own PCIe link and one Ethernet link to each neighbour.
Not modelled: the host's tilizing, restacking and adding of split-K partials (CPU work, no published figure), the
host's dispatch of the program to each chip, and whether the host drives its PCIe links at once (assumed; not
measured). Nothing here ran on hardware: the rates are published ones, the per-device time the calibrated model's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import TileLangError
from . import device, perf_model
from .records import DEVICE, MESH, PLAN, TENSOR


@dataclass(frozen=True)
class MeshLayout:
    """The chips of a mesh and their links: rows x cols chips of one device record, `host_chips` of them with a
    PCIe link, `ethernet_links` between neighbours, and the architecture's rates (device.LINKS)."""

    system: str  # the system record's name; "" for a bare mesh of host-attached chips
    mesh: tuple[int, int]
    host_chips: int
    ethernet_links: int
    links: Mapping[str, float]

    @property
    def chips(self) -> int:
        return self.mesh[0] * self.mesh[1]

    @property
    def chips_per_host_link(self) -> int:
        return -(-self.chips // self.host_chips)


def layout(plan: Mapping[str, Any], system: str | None = None) -> MeshLayout:
    """The mesh a plan ran on: the system record `system` (which must match the plan's mesh and chip), else the
    plan's mesh as host-attached chips."""
    name = plan.get(PLAN.DEVICE, {}).get(DEVICE.NAME, device.DEVICE)
    mesh = tuple(plan[PLAN.MESH][MESH.SHAPE]) if PLAN.MESH in plan else (1, 1)
    arch = device.DEVICES[name].arch
    if arch not in device.LINKS:
        raise TileLangError(f"kernel '{plan.get(PLAN.KERNEL)}' ran on {name} ({arch}); the per-mesh model has link "
                            f"facts for {', '.join(sorted(device.LINKS))} (specs/backends/tenstorrent.yaml "
                            "device.links)")
    if system is None:
        return MeshLayout("", (int(mesh[0]), int(mesh[1])), mesh[0] * mesh[1], 1, device.LINKS[arch])
    if system not in device.SYSTEMS:
        raise TileLangError(f"no system '{system}'; the systems are {', '.join(device.SYSTEMS)}")
    chip, shape, host_chips, ethernet_links = device.SYSTEMS[system]
    if (chip, shape) != (name, mesh):
        raise TileLangError(f"kernel '{plan.get(PLAN.KERNEL)}' ran on a {mesh[0]}x{mesh[1]} mesh of {name}, not on "
                            f"the system '{system}' ({shape[0]}x{shape[1]} {chip})")
    return MeshLayout(system, shape, host_chips, ethernet_links, device.LINKS[arch])


def device_bytes(plan: Mapping[str, Any]) -> tuple[int, int]:
    """(input, output) bytes of one device: its shard (or replica) of every tensor the host writes, and of every one
    it reads back (an inout counts both ways)."""
    def moved(roles: tuple[str, ...]) -> int:
        return sum(int(t[TENSOR.PAGES]) * int(t[TENSOR.PAGE_BYTES])
                   for t in plan.get(PLAN.TENSORS, ()) if t[TENSOR.ROLE] in roles)
    return moved(("input", "inout")), moved(("output", "inout"))


@dataclass(frozen=True)
class MeshEstimate:
    """Modelled time of a kernel on a mesh, in seconds: the host's transfers in, the device time and the transfers
    out; for split-K also the alternative of reducing the partials on the fabric (modelled, not what runs)."""

    layout: MeshLayout
    device: perf_model.PerfEstimate
    input_bytes: int  # one device's
    output_bytes: int
    host_in_seconds: float
    host_out_seconds: float
    reduce_parts: int  # split-K: chips along the reduce axis; 1 otherwise
    fabric_reduce_seconds: float  # 0 unless split-K

    @property
    def device_seconds(self) -> float:
        return self.device.modelled_seconds

    @property
    def total_seconds(self) -> float:
        return self.host_in_seconds + self.device_seconds + self.host_out_seconds

    @property
    def fabric_total_seconds(self) -> float:
        """Split-K with its partials all-reduced on the fabric and one copy read back (the total otherwise)."""
        if self.reduce_parts == 1:
            return self.total_seconds
        return (self.host_in_seconds + self.device_seconds + self.fabric_reduce_seconds
                + self.host_out_seconds / self.reduce_parts)

    def figures(self) -> dict[str, Any]:
        """The estimate as a report's record (microseconds)."""
        out = {"system": self.layout.system or None, MESH.SHAPE: list(self.layout.mesh),
               "host_chips": self.layout.host_chips, "host_in_us": round(self.host_in_seconds * 1e6, 3),
               "device_us": round(self.device_seconds * 1e6, 3), "host_out_us": round(self.host_out_seconds * 1e6, 3),
               "total_us": round(self.total_seconds * 1e6, 3)}
        if self.reduce_parts > 1:
            out["fabric_reduce_us"] = round(self.fabric_reduce_seconds * 1e6, 3)
            out["fabric_total_us"] = round(self.fabric_total_seconds * 1e6, 3)
        return out


def _transfer(mesh: MeshLayout, per_device: int, pcie: float) -> float:
    """Seconds to move `per_device` bytes between the host and every chip: each host link carries its chips'
    bytes, the chips behind it reached over Ethernet at the same time."""
    n = mesh.chips_per_host_link
    ethernet = mesh.ethernet_links * mesh.links["ethernet_bytes_per_second"]
    return max(n * per_device / pcie, (n - 1) * per_device / ethernet)


def estimate(plan: Mapping[str, Any], report: Mapping[str, Any], system: str | None = None,
             perf: Mapping[str, Any] | None = None) -> MeshEstimate:
    """Model a run on a mesh (or one chip): `plan` is tt.plan.json, `report` the emulator's report, `system` the
    system record the mesh is (None: host-attached chips), `perf` the device's facts (default: the plan's)."""
    mesh = layout(plan, system)
    per_device = perf_model.estimate(plan, report, perf)
    b_in, b_out = device_bytes(plan)
    links = mesh.links
    reduce_axis = plan.get(PLAN.MESH, {}).get(MESH.REDUCE_AXIS)
    parts = int(mesh.mesh[reduce_axis]) if reduce_axis is not None else 1
    fabric = 0.0
    if parts > 1:
        bottleneck = 2 * (parts - 1) / parts * b_out
        fabric = (bottleneck / (mesh.ethernet_links * links["ethernet_bytes_per_second"])
                  + (parts - 1) * links["ethernet_hop_seconds"])
    return MeshEstimate(mesh, per_device, b_in, b_out, _transfer(mesh, b_in, links["pcie_write_bytes_per_second"]),
                        _transfer(mesh, b_out, links["pcie_read_bytes_per_second"]), parts, fabric)


def estimate_kernel(kernel: Any, system: str | None = None) -> MeshEstimate:
    """Model the last run of a compiled kernel on its mesh (`system`: the system record the target named)."""
    report = getattr(kernel, "last_report", None)
    if not report:
        raise ValueError("the kernel has not run yet: call it once, then model its `last_report`")
    return estimate(kernel.artifact.rt_mod.plan, report, system)
