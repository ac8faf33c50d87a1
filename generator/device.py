"""The `device` namespace spec expressions see: each fact's name, its C++ value and why it is there.

The facts come from the `device` section (and profiles) of the one backend spec that has one, one set per device
(the shared facts and the device's record); this table is the one statement of which names exist, so
generated/cpp/device.cc renders from it and the build checks every `device.<NAME>` of a pass spec against it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from .expressions import cpp_string
from .model import Backend


def _num(value: Any) -> str:
    return f"num({int(value)})"


def _pair(values: Any) -> str:
    return f"list({{{_num(values[0])}, {_num(values[1])}}})"


def _cb_ranges(b: Backend) -> str:
    rows = "".join(f"          {{str({cpp_string(cls)}), {_pair(b.device['cb_ranges'][cls])}}},\n"
                   for cls in ("input", "output", "intermediate"))
    return "dict({\n" + rows + "      })"


def _data_formats(b: Backend) -> str:
    rows = "".join(f"          {{str({cpp_string(dtype)}), list({{str({cpp_string(f['format'])}), "
                   f"{_num(f['bytes'])}, {_num(f['code'])}}})}},\n"
                   for dtype, f in sorted(b.device["data_formats"].items()))
    return "dict({\n" + rows + "      })"


def _dram_formats(b: Backend) -> str:
    rows = "".join(f"          {{str({cpp_string(name)}), list({{str({cpp_string(f['format'])}), "
                   f"{_num(f['tile_bytes'])}, {_num(f['code'])}}})}},\n"
                   for name, f in sorted(b.device.get("dram_formats", {}).items()))
    return "dict({\n" + rows + "      })"


def _noc_alignment(b: Backend) -> str:
    align = b.device["noc_alignment"]
    rows = "".join(f"{{str({cpp_string(k)}), {_num(align[k])}}}, " for k in ("l1_read", "l1_write", "dram_read",
                                                                         "dram_write"))
    return "dict({" + rows.rstrip(", ") + "})"


def _processors(b: Backend) -> str:
    kernels = b.device["kernels"]
    return (f"dict({{{{str(\"reader\"), str({cpp_string(kernels['reader_processor'])})}}, "
            f"{{str(\"writer\"), str({cpp_string(kernels['writer_processor'])})}}}})")


def _dst_tiles(b: Backend) -> str:
    tiles = b.device["dst_tiles"]
    return f"dict({{{{num(16), {_num(tiles['16'])}}}, {{num(32), {_num(tiles['32'])}}}}})"


# NAME -> (C++ value for the device backend, comment above it or "").
DEVICE_FACTS: dict[str, tuple[Callable[[Backend], str], str]] = {
    "BACKEND": (lambda b: f"str({cpp_string(b.name)})", ""),
    "DEVICE": (lambda b: f"str({cpp_string(b.device['name'])})", "The device's name (a key of device.devices)."),
    "ARCH": (lambda b: f"str({cpp_string(b.device['arch'])})", ""),
    "PROFILE": (lambda b: "str(profile().c_str())", ""),
    "ACCESSOR_CT_ARGS": (lambda b: "num(accessor_compile_time_args())", ""),
    "TILE": (lambda b: _pair(b.device["tile"]), ""),
    "CORE_GRID": (lambda b: _pair(b.device["core_grid"]), ""),
    "L1_BYTES": (lambda b: _num(b.device["l1_bytes"]), ""),
    "MAX_CBS": (lambda b: _num(b.device["max_cbs"]), ""),
    "MAX_RUNTIME_ARGS": (lambda b: _num(b.device["max_runtime_args"]), ""),
    "NOC_ALIGNMENT": (_noc_alignment, "NoC alignment in bytes by remote endpoint and direction (the L1 and the remote "
                      "address of a transfer agree modulo it)."),
    "DST_TILES": (_dst_tiles, "DST tiles of one section by accumulation width in bits."),
    "CB_RANGES": (_cb_ranges, "CB index ranges (first, last) by class."),
    "DATA_FORMATS": (_data_formats, "TVM dtype -> (tt::DataFormat, bytes per element, tt::DataFormat value)."),
    "DRAM_FORMATS": (_dram_formats, "Block-float DRAM format -> (tt::DataFormat, tile bytes, tt::DataFormat value)."),
    "KERNEL_PROCESSORS": (_processors, ""),
    "MATH_FIDELITY": (lambda b: f"str({cpp_string(b.device['kernels']['math_fidelity'])})", ""),
}
DEVICE_FACT_NAMES = tuple(DEVICE_FACTS)


def device_facts(backend: Backend, device: str = "") -> tuple[tuple[str, str, str], ...]:
    """(NAME, C++ value, comment) of every fact of `device` (default: the backend's default device), in the table's
    order."""
    viewed = dataclasses.replace(backend, device=backend.devices[device]) if device else backend
    return tuple((name, value(viewed), comment) for name, (value, comment) in DEVICE_FACTS.items())
