"""The per-mesh performance model (tilelang.tenstorrent.mesh_perf): the per-device model's time plus the host's PCIe
transfers to and from each chip and the Ethernet links between chips, from the system records and link facts of
specs/backends/tenstorrent.yaml (device.systems, device.links)."""

from __future__ import annotations

import json
import shutil

import ml_dtypes
import numpy as np
import pytest
from test_language_llvm import matmul

import tilelang
from tilelang.errors import TileLangError
from tilelang.tenstorrent import PROFILES, api_profile, device, mesh_perf, perf_model, trace
from tilelang.tenstorrent.records import MESH, PLAN

needs_gxx = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")
needs_mesh_api = pytest.mark.skipif(PROFILES[api_profile()].host_api != "mesh",
                                    reason="the API profile has the single-device host API")


def test_every_system_has_its_links_with_sources() -> None:
    """Each system's chips have link facts (the generator refuses a system whose architecture has none), each
    figure cites where it was published."""
    assert set(device.SYSTEMS) >= {"n300", "t3k", "galaxy", "p150x4"}
    for chip, (rows, cols), host_chips, links in device.SYSTEMS.values():
        assert 1 <= host_chips <= rows * cols and links >= 1
        facts = device.LINKS[device.DEVICES[chip].arch]
        assert set(facts) == {"pcie_write_bytes_per_second", "pcie_read_bytes_per_second",
                              "ethernet_bytes_per_second", "ethernet_hop_seconds"}
    assert all(" @" in source for source in device.LINK_SOURCES.values())


@needs_gxx
@needs_mesh_api
def test_split_k_on_an_n300_is_modelled_from_its_links() -> None:
    """Split-K over an n300 (one chip on PCIe, the other behind it over one Ethernet link): host transfers for both
    chips through the first one's PCIe link, the busiest device's modelled time, and the partials' alternative
    all-reduce over the fabric (2 (N-1)/N of a partial over one link plus one hop)."""
    kernel = tilelang.compile(matmul(64, 64, 128, 32, 32, 32, dtype="bfloat16"), out_idx=[-1],
                              target="tenstorrent:n300", pass_configs={"tl.PartitionTTMesh.reduce_axis": "cols"})
    rng = np.random.default_rng(35)
    kernel(*(rng.uniform(-1, 1, s).astype(ml_dtypes.bfloat16) for s in ((64, 128), (128, 64))))
    est = mesh_perf.estimate_kernel(kernel, "n300")
    links = device.LINKS["wormhole_b0"]
    # One device's shards: A's 64x64 half (4 tiles), B's 64x64 half (4 tiles); C's whole 64x64 partial (4 tiles).
    assert (est.input_bytes, est.output_bytes) == (8 * 2048, 4 * 2048)
    assert est.host_in_seconds == pytest.approx(max(2 * est.input_bytes / links["pcie_write_bytes_per_second"],
                                                    est.input_bytes / links["ethernet_bytes_per_second"]))
    assert est.host_out_seconds == pytest.approx(2 * est.output_bytes / links["pcie_read_bytes_per_second"])
    assert est.device_seconds == perf_model.estimate_kernel(kernel).modelled_seconds
    assert est.total_seconds == pytest.approx(est.host_in_seconds + est.device_seconds + est.host_out_seconds)
    assert est.reduce_parts == 2
    assert est.fabric_reduce_seconds == pytest.approx(est.output_bytes / links["ethernet_bytes_per_second"]
                                                      + links["ethernet_hop_seconds"])
    assert est.fabric_total_seconds == pytest.approx(est.total_seconds - est.host_out_seconds / 2
                                                     + est.fabric_reduce_seconds)
    # The run's trace (tt.trace.json) reports the mesh's figures beside the device's.
    doc = trace.trace(kernel.artifact.rt_mod.plan, kernel.last_report)
    figures = doc["otherData"][PLAN.MESH]
    assert figures[MESH.SHAPE] == [1, 2] and figures["fabric_total_us"] > 0
    # A bare mesh target is chips that each have their own PCIe link: the host's transfers run on both at once.
    bare = mesh_perf.estimate_kernel(kernel)
    assert bare.layout.host_chips == 2 and bare.host_in_seconds == pytest.approx(est.host_in_seconds / 2)
    with pytest.raises(TileLangError, match="ran on a 1x2 mesh of n150, not on the system 't3k' \\(4x2 n150\\)"):
        mesh_perf.estimate_kernel(kernel, "t3k")


def test_one_chip_is_a_mesh_of_one() -> None:
    """A single-chip plan: its own PCIe link carries its tensors; no Ethernet, no reduction."""
    plan = json.loads(tilelang.lower(matmul(64, 64, 64, 32, 32, 32, dtype="bfloat16"), target="tenstorrent")
                      .rt_mod.files["tt.plan.json"])  # type: ignore[attr-defined]
    mesh = mesh_perf.layout(plan)
    assert (mesh.chips, mesh.host_chips, mesh.chips_per_host_link) == (1, 1, 1)
    assert mesh_perf.device_bytes(plan) == (2 * 4 * 2048, 4 * 2048)
