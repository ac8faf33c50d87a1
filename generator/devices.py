"""The devices of a backend spec's `device` section: one record per device, each merged with the facts they share.

A backend's `device` section states what holds for every device (tile, CBs, data formats, kernel configuration)
once, and under `devices` one record per device (architecture, grids, L1, clock, alignment, NoC endpoints, perf).
The model sees each device as the shared facts plus its record (`Backend.devices`), and the default device's as
`Backend.device`, which the renders of the default device's facts read.
"""

from __future__ import annotations

from typing import Any

from .diagnostics import Diagnostics
from .loader import SpecFile

# Keys of the `device` section that are not facts of a device.
_SECTION_KEYS = ("default", "devices", "systems", "links")


def system_records(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """{name: {chip, mesh, source}}: the systems of several chips of a `device` section ({} without one)."""
    section = data.get("device")
    return dict(section.get("systems", {})) if isinstance(section, dict) else {}


def link_records(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """{arch: {doc, pcie_*, ethernet_*}}: the links of a mesh by chip architecture ({} without them)."""
    section = data.get("device")
    return dict(section.get("links", {})) if isinstance(section, dict) else {}


def device_records(data: dict[str, Any]) -> tuple[str, dict[str, dict[str, Any]]]:
    """(default device, {name: the shared facts merged with its record, plus its `name`}); ("", {}) without a
    `device` section."""
    section = data.get("device")
    if not isinstance(section, dict):
        return "", {}
    shared = {k: v for k, v in section.items() if k not in _SECTION_KEYS}
    records = {name: {**shared, **record, "name": name} for name, record in section.get("devices", {}).items()}
    return section.get("default", ""), records


def check_devices(spec: SpecFile, diagnostics: Diagnostics) -> None:
    """Device facts that JSON Schema cannot relate: the default names a device; each compute grid lies inside its
    worker grid; the DRAM and L1 alignments are the larger of the NoC's read and write ones."""
    section = spec.data.get("device")
    if not isinstance(section, dict):
        return
    devices = section["devices"]
    if section["default"] not in devices:
        diagnostics.error(spec.at(("device", "default")), f"default device '{section['default']}' is not one of "
                          f"devices ({', '.join(devices)})")
    for name, system in section.get("systems", {}).items():
        if system["chip"] not in devices:
            diagnostics.error(spec.at(("device", "systems", name, "chip")), f"system '{name}': chip "
                              f"'{system['chip']}' is not one of devices ({', '.join(devices)})")
        if name in devices:
            diagnostics.error(spec.at(("device", "systems", name)), f"system '{name}' has the name of a device")
        chips = system["mesh"][0] * system["mesh"][1]
        if system["host_chips"] > chips:
            diagnostics.error(spec.at(("device", "systems", name, "host_chips")), f"system '{name}': host_chips "
                              f"{system['host_chips']} exceeds its {chips} chips")
        arch = devices.get(system["chip"], {}).get("arch")
        if arch is not None and arch not in section.get("links", {}):
            diagnostics.error(spec.at(("device", "systems", name)), f"system '{name}': its chips' architecture "
                              f"'{arch}' has no record under device.links (the per-mesh model needs its links)")
    for name, record in devices.items():
        where = ("device", "devices", name)
        grid, noc = record["core_grid"], record["worker_noc"]
        if grid[0] > len(noc["x"]) or grid[1] > len(noc["y"]):
            diagnostics.error(spec.at(where + ("core_grid",)), f"device '{name}': core_grid {grid} exceeds its "
                              f"{len(noc['x'])}x{len(noc['y'])} workers (worker_noc)")
        align = record["noc_alignment"]
        if record["dram_alignment"] != max(align["dram_read"], align["dram_write"]):
            diagnostics.error(spec.at(where + ("dram_alignment",)), f"device '{name}': dram_alignment "
                              f"{record['dram_alignment']} is not the larger of its NoC DRAM alignments "
                              f"({max(align['dram_read'], align['dram_write'])}; tt-metal's DRAM_ALIGNMENT)")
        if record["l1_alignment"] != max(align["l1_read"], align["l1_write"]):
            diagnostics.error(spec.at(where + ("l1_alignment",)), f"device '{name}': l1_alignment "
                              f"{record['l1_alignment']} is not the larger of its NoC L1 alignments "
                              f"({max(align['l1_read'], align['l1_write'])}; tt-metal's L1_ALIGNMENT)")
