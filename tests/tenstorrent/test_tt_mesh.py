"""A kernel on a mesh of chips (issue 30, first slice): a target names a mesh ({"kind": "tenstorrent", "device":
"n150", "mesh": [1, 2]}, or a system record such as "tenstorrent:n300"); PartitionTTMesh splits the grid over the
devices, shards the tensors the split block index reaches and replicates the rest; main.cpp runs it through
tt-metal's distributed API (MeshDevice::create, ShardedBufferConfig MeshBuffers, one MeshWorkload) and the emulator
runs one device per mesh coordinate, each with its own DRAM and cores."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import sys
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from test_language_llvm import matmul
from tt_attention_kernels import flashattn
from tt_norm_kernels import softmax

import tilelang
from projects import REPO
from tilelang.engine.backend import TargetError, resolve
from tilelang.engine.registry import BACKENDS
from tilelang.errors import TileLangError
from tilelang.tenstorrent import PROFILES, api_profile, device, perf_model, ttnn_host

BF16 = ml_dtypes.bfloat16
MESH_1X2 = {"kind": "tenstorrent", "device": "n150", "mesh": [1, 2]}
needs_gxx = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")
PROFILE, DEFAULT = api_profile(), device.PROFILE  # the profile this run emits; the backend spec's
# A mesh runs through tt-metal's distributed API: a profile whose host API is the single-device one refuses it.
MESH_API = PROFILES[PROFILE].host_api == "mesh"
needs_mesh_api = pytest.mark.skipif(not MESH_API, reason=f"API profile {PROFILE} has the single-device host API")


def _plan(artifact: object) -> dict:
    return json.loads(artifact.rt_mod.files["tt.plan.json"])  # type: ignore[attr-defined]


@pytest.mark.parametrize("target,device,mesh", [
    ("tenstorrent", "n150", (1, 1)),
    ("tenstorrent:n300", "n150", (1, 2)),
    ("tenstorrent:t3k", "n150", (4, 2)),
    ("tenstorrent:galaxy", "n150", (8, 4)),
    ("tenstorrent:p150x4", "p150", (1, 4)),
    (MESH_1X2, "n150", (1, 2)),
    ({"kind": "tenstorrent", "device": "p150", "mesh": [2, 2]}, "p150", (2, 2)),
])
def test_a_target_names_a_mesh(target: object, device: str, mesh: tuple[int, int]) -> None:
    """A system record (specs/backends/tenstorrent.yaml device.systems) is a mesh of one device's chips; a single
    chip is a 1x1 mesh."""
    backend = resolve(target, BACKENDS)
    assert (backend.device_of(target), backend.mesh_of(target)) == (device, mesh)


@pytest.mark.parametrize("target,message", [
    ({"kind": "tenstorrent", "mesh": [0, 2]}, "'mesh' is the devices of the mesh as [rows, cols], two integers >= 1"),
    ({"kind": "tenstorrent", "mesh": [2]}, "two integers >= 1, got [2]"),
    ({"kind": "tenstorrent", "device": "n300", "mesh": [1, 2]}, "names the system 'n300', whose mesh is [1, 2]"),
    ({"kind": "llvm", "mesh": [1, 2]}, "target 'llvm' has no devices, so no mesh of them"),
])
def test_a_bad_mesh_is_refused(target: dict, message: str) -> None:
    with pytest.raises(TargetError) as caught:
        resolve(target, BACKENDS).mesh_of(target)
    assert message in str(caught.value)


@needs_mesh_api
def test_the_plan_records_the_mesh_and_the_shards() -> None:
    """C = A @ B with the grid's 4 x-blocks over 2 devices: B and C sharded by columns (each device holds the 64
    columns its blocks own), A replicated; the plan's tensors and grid are one device's; main.cpp opens the mesh."""
    artifact = tilelang.lower(matmul(64, 128, 64, 32, 32, 32, dtype="bfloat16"), target=MESH_1X2)
    plan = _plan(artifact)
    assert plan["mesh"] == {"shape": [1, 2], "grid_axes": "yx"} and plan["grid_blocks"] == [2, 2, 1]
    tensors = {t["name"]: (t["shape"], t["mesh_shards"]) for t in plan["tensors"]}
    assert tensors == {"A": ([64, 64], [1, 1]), "B": ([64, 64], [1, 2]), "C": ([64, 64], [1, 2])}
    main = artifact.rt_mod.files["main.cpp"]  # type: ignore[attr-defined]
    assert "distributed::MeshDevice::create(mesh_config)" in main and "distributed::MeshShape(" in main
    assert "mesh_shape 1 2" in artifact.rt_mod.files["tt.host_args"].splitlines()  # type: ignore[attr-defined]
    assert main.count("distributed::ShardedBufferConfig{") == 2
    assert main.count("distributed::ReplicatedBufferConfig{") == 1
    assert "B.mesh_pages 2 4 0 2" in artifact.rt_mod.files["tt.host_args"]  # type: ignore[attr-defined]
    script = artifact.rt_mod.files["run_ttnn.py"]  # type: ignore[attr-defined]
    assert "MESH = {'shape': (1, 2), 'reduce_axis': None}" in script and "ttnn.open_mesh_device(" in script


@needs_mesh_api
@pytest.mark.parametrize("func,configs,message", [
    (matmul(64, 96, 64, 32, 32, 32, dtype="bfloat16"), {},
     "the grid's blockIdx.x extent 3 does not split evenly over the 2 devices of the mesh's columns"),
    (matmul(64, 128, 64, 32, 32, 32, dtype="bfloat16"), {"tl.PartitionTTMesh.mesh": [2, 1]},
     "pass_configs key 'tl.PartitionTTMesh.mesh' is [2, 1], but the target"),
])
def test_what_a_mesh_cannot_split_is_refused(func: object, configs: dict, message: str) -> None:
    with pytest.raises(TileLangError) as caught:
        tilelang.compile(func, out_idx=[-1], target=MESH_1X2, pass_configs=configs)
    assert message in str(caught.value)


@needs_mesh_api
def test_an_output_every_device_would_write_is_refused() -> None:
    """A 2x1 mesh splitting blockIdx.x over its rows: C's columns would be split over mesh rows (refused by the
    pass); with grid_axes zx the rows split blockIdx.z, which the kernel does not launch."""
    with pytest.raises(TileLangError, match="split blockIdx.z, which the kernel does not launch"):
        tilelang.compile(matmul(64, 128, 64, 32, 32, 32, dtype="bfloat16"), out_idx=[-1],
                         target={"kind": "tenstorrent", "mesh": [2, 1]},
                         pass_configs={"tl.PartitionTTMesh.grid_axes": "zx"})


@pytest.mark.skipif(MESH_API, reason=f"API profile {PROFILE} has the mesh host API")
def test_a_profile_without_the_mesh_host_api_refuses_a_mesh() -> None:
    with pytest.raises(TileLangError, match="host API is 'device', not tt-metal's distributed \\(mesh\\) API"):
        tilelang.lower(matmul(64, 128, 64, 32, 32, 32, dtype="bfloat16"), target=MESH_1X2)


@pytest.mark.skipif(PROFILE != DEFAULT, reason=f"checked against the spec's profile's ({DEFAULT}) wheel")
def test_the_mesh_host_calls_are_exported_by_tt_metal() -> None:
    """check-metal's check of main.cpp's host entry points (tools/check_metal/host.py) on a mesh main.cpp, against
    the libtt_metal.so of the spec's profile's ttnn wheel: MeshDevice::create, MeshShape, Shape2D, MeshBuffer::create,
    EnqueueMeshWorkload, ... (MeshDeviceConfig's constructor and ShardedBufferConfig are defined in the headers)."""
    sys.path.insert(0, str(REPO))
    from tools.check_metal import host, wheels

    try:
        headers = wheels.ttnn_headers(PROFILES[DEFAULT].ttnn_wheel)
    except wheels.Offline as exc:
        if os.environ.get("TILELANG_CHECK_METAL_OFFLINE_OK") == "1":
            pytest.skip(f"offline: {exc}")
        raise
    main = tilelang.lower(matmul(64, 128, 64, 32, 32, 32, dtype="bfloat16"),
                          target=MESH_1X2).rt_mod.files["main.cpp"]  # type: ignore[attr-defined]
    calls = host.entry_points(main)
    assert {"distributed::MeshDevice::create", "distributed::MeshShape", "Shape2D", "distributed::MeshBuffer::create",
            "distributed::EnqueueMeshWorkload"} <= calls
    assert host.missing(main, headers / "build" / "lib" / "libtt_metal.so") == []


@needs_gxx
@needs_mesh_api
def test_gemm_runs_on_a_1x2_mesh(tmp_path: Path) -> None:
    """The n300 system: two emulated Wormhole chips, each running its half of the grid from its own DRAM, against
    numpy; then a misaligned read the sanitizer reports naming the device."""
    from tilelang.tenstorrent import emulator

    m, n, k = 64, 128, 64
    kernel = tilelang.compile(matmul(m, n, k, 32, 32, 32, dtype="bfloat16"), out_idx=[-1], target="tenstorrent:n300")
    rng = np.random.default_rng(30)
    a = rng.uniform(-1, 1, (m, k)).astype(BF16)
    b = rng.uniform(-1, 1, (k, n)).astype(BF16)
    c = kernel(a, b)
    ref = a.astype(np.float32) @ b.astype(np.float32)
    assert float(np.abs(c.astype(np.float32) - ref).max()) <= 2.0**-7 * float(np.abs(ref).max())
    report = kernel.last_report
    assert report["status"] == "ok"
    # Each device reads all of A (4 tiles) and its half of B (4 tiles) per output block row, and writes its 4 tiles
    # of C: summed over both devices and their cores.
    assert report["total"]["dram_bytes_written"] == 8 * 2048
    # Per device: each wrote its 4 tiles of C; their counters add up to the total; every core names its device.
    assert [d["device"] for d in report["devices"]] == [[0, 0], [0, 1]]
    assert [d["dram_bytes_written"] for d in report["devices"]] == [4 * 2048, 4 * 2048]
    assert sum(d["dram_bytes_read"] for d in report["devices"]) == report["total"]["dram_bytes_read"]
    assert {tuple(c["device"]) for c in report["cores"]} == {(0, 0), (0, 1)}
    # The model gives one device's time: it models the busiest device's cores (here both move the same bytes).
    est = perf_model.estimate_kernel(kernel)
    assert est.dram_bytes * 2 == report["total"]["dram_bytes_read"] + report["total"]["dram_bytes_written"]
    assert est.modelled_seconds > 0

    rt_mod = kernel.artifact.rt_mod
    prog = dataclasses.replace(rt_mod, files=dict(rt_mod.files))
    before = prog.files["reader.cpp"]
    prog.files["reader.cpp"] = re.sub(
        r"noc_async_read_page\((.*), accessor, l1_write_addr\);",
        r"tt_emu::kapi::noc_async_read(accessor.get_noc_addr(\1), l1_write_addr + 16, 1024);", before, count=1)
    assert prog.files["reader.cpp"] != before
    with pytest.raises(emulator.TTEmulatorError) as caught:
        prog.run([a, b, np.zeros((m, n), BF16)], workdir=tmp_path)
    assert re.search(r"tt_emu: error: device \(0,0\) core \(\d,\d\) reader: noc_async_read", str(caught.value)), \
        str(caught.value)


@needs_gxx
@needs_mesh_api
def test_gemm_runs_on_a_2x2_mesh() -> None:
    """Both grid dims split: A's rows over the mesh rows, B's columns over the mesh columns, C over both (a 2-D
    ShardedBufferConfig), each device computing its quarter of C from its own shards, against numpy."""
    m, n, k = 128, 128, 64
    kernel = tilelang.compile(matmul(m, n, k, 32, 32, 32, dtype="bfloat16"), out_idx=[-1],
                              target={"kind": "tenstorrent", "mesh": [2, 2]})
    plan = json.loads(kernel.artifact.rt_mod.files["tt.plan.json"])
    assert {t["name"]: t["mesh_shards"] for t in plan["tensors"]} == {"A": [2, 1], "B": [1, 2], "C": [2, 2]}
    rng = np.random.default_rng(31)
    a = rng.uniform(-1, 1, (m, k)).astype(BF16)
    b = rng.uniform(-1, 1, (k, n)).astype(BF16)
    ref = a.astype(np.float32) @ b.astype(np.float32)
    c = kernel(a, b)
    assert float(np.abs(c.astype(np.float32) - ref).max()) <= 2.0**-7 * float(np.abs(ref).max())
    assert kernel.last_report["total"]["dram_bytes_written"] == 16 * 2048  # C's 16 tiles, 4 per device


@needs_gxx
@needs_mesh_api
def test_softmax_rows_run_on_a_2x1_mesh() -> None:
    """TileLang's softmax body (a 1-D grid over row blocks): grid_axes xy gives the mesh rows blockIdx.x, so each of
    the two devices normalises its half of the rows (input and output sharded by rows), against numpy."""
    x = np.random.default_rng(32).standard_normal((128, 128)).astype(np.float32) * 3
    kernel = tilelang.compile(softmax(128, 128, 32), out_idx=[-1], target={"kind": "tenstorrent", "mesh": [2, 1]},
                              pass_configs={"tl.PartitionTTMesh.grid_axes": "xy"})
    plan = json.loads(kernel.artifact.rt_mod.files["tt.plan.json"])
    assert [t["mesh_shards"] for t in plan["tensors"] if t["parameter"] >= 0] == [[2, 1], [2, 1]]
    e = np.exp(x - x.max(-1, keepdims=True))
    np.testing.assert_allclose(kernel(x), e / e.sum(-1, keepdims=True), rtol=1e-5, atol=1e-6)


@needs_gxx
@needs_mesh_api
def test_flash_attention_heads_run_on_a_2x1_mesh() -> None:
    """TileLang's flash attention (BHSD, grid (S / block_M, heads, batch)): the mesh rows split blockIdx.y, the
    heads, so each device attends over its heads (Q, K, V and O sharded along their heads: a run of rows of the
    tiled matrix each), against numpy."""
    b, h, s, d = 1, 4, 64, 64
    rng = np.random.default_rng(33)
    q, k, v = (rng.standard_normal((b, h, s, d)).astype(np.float16) for _ in range(3))
    kernel = tilelang.compile(flashattn(b, h, s, s, d, False, 32, 32), out_idx=[3],
                              target={"kind": "tenstorrent", "mesh": [2, 1]})
    plan = json.loads(kernel.artifact.rt_mod.files["tt.plan.json"])
    assert {t["name"]: (t["shape"], t["mesh_shards"]) for t in plan["tensors"] if t["parameter"] >= 0} == {
        name: ([1, 2, 64, 64], [2, 1]) for name in ("Q", "K", "V", "Output")}
    qf, kf, vf = (x.astype(np.float32) for x in (q, k, v))
    scores = np.einsum("bhqd,bhkd->bhqk", qf, kf) / np.sqrt(d)
    e = np.exp(scores - scores.max(-1, keepdims=True))
    want = np.einsum("bhqk,bhkd->bhqd", e / e.sum(-1, keepdims=True), vf)
    got = kernel(q, k, v).astype(np.float32)
    assert float(np.abs(got - want).max()) <= 2.0**-7 * float(np.abs(want).max())


@needs_gxx
@needs_mesh_api
def test_split_k_runs_on_a_2x2_mesh(tmp_path: Path) -> None:
    """Split-K across chips (reduce_axis cols): the mesh rows split blockIdx.y, the mesh columns split GEMM's K loop.
    A is sharded over both (rows, K columns), B's K rows over the mesh columns are restacked (laid side by side),
    and C holds each device column's partial sum: main.cpp reads the partials back and adds them in fp32, once
    rounded to bfloat16, against numpy."""
    m, n, k = 64, 64, 128
    kernel = tilelang.compile(matmul(m, n, k, 32, 32, 32, dtype="bfloat16"), out_idx=[-1],
                              target={"kind": "tenstorrent", "mesh": [2, 2]},
                              pass_configs={"tl.PartitionTTMesh.reduce_axis": "cols"})
    files = kernel.artifact.rt_mod.files
    plan = json.loads(files["tt.plan.json"])
    assert plan["mesh"] == {"shape": [2, 2], "grid_axes": "yx", "reduce_axis": 1, "reduce_loop": "k"}
    assert {t["name"]: (t["shape"], t["mesh_shards"], t.get("mesh_restacked", False), t.get("mesh_partial", False))
            for t in plan["tensors"]} == {"A": ([32, 64], [2, 2], False, False), "B": ([64, 64], [1, 2], True, False),
                                          "C": ([32, 64], [2, 2], False, True)}
    # B's 4x2 pages laid out as 2x4 (each device column its K half); C's buffer stacks the two partials along columns.
    assert "B.mesh_stack 4 2 2 1" in files["tt.host_args"] and "C.mesh_stack 2 4 2 1" in files["tt.host_args"]
    assert "sum_partials(tiles" in files["main.cpp"] and "restack_pages(" in files["main.cpp"]
    rng = np.random.default_rng(34)
    a = rng.uniform(-1, 1, (m, k)).astype(BF16)
    b = rng.uniform(-1, 1, (k, n)).astype(BF16)
    ref = a.astype(np.float32) @ b.astype(np.float32)
    c = kernel(a, b).astype(np.float32)
    # Each partial is rounded to bfloat16 on its device, the sum once more on the host.
    assert float(np.abs(c - ref).max()) <= 2.0**-7 * float(np.abs(ref).max())
    half = a[:, :k // 2].astype(np.float32) @ b[:k // 2].astype(np.float32)
    assert float(np.abs(c - half).max()) > 0.25  # both devices' partials are in it
    # Every device writes its partial of its half of C's rows: 2 tiles each.
    assert kernel.last_report["total"]["dram_bytes_written"] == 4 * 2 * 2048
    assert [d["dram_bytes_written"] for d in kernel.last_report["devices"]] == [2 * 2048] * 4

    # run_ttnn.py's host side of the same mesh: its mesh_matrix as ttnn's mesh mapper deals it out (PlacementShard:
    # the host matrix's rows over the mesh rows, its columns over the mesh columns), each device's product of its
    # shards, the devices' matrices concatenated as its composer does, then its mesh_logical adds the partials.
    script = ttnn_host.load_script(Path(kernel.save(tmp_path / "k")) / "run_ttnn.py")
    af, bf = a.astype(np.float32), b.astype(np.float32)
    hosts = {"A": script.mesh_matrix("A", af), "B": script.mesh_matrix("B", bf)}

    def shard(name: str, i: int, j: int) -> np.ndarray:
        rows, cols = script.MESH_TENSORS[name]["shards"]
        h = hosts[name]
        r, c = h.shape[0] // rows, h.shape[1] // cols
        return h[i * r:(i + 1) * r, j * c:(j + 1) * c] if rows > 1 else h[:, j * c:(j + 1) * c] if cols > 1 else h

    composed = np.block([[shard("A", i, j) @ shard("B", i, j) for j in range(2)] for i in range(2)])
    got = script.mesh_logical("C", composed)
    assert got.shape == (m, n) and float(np.abs(got - ref).max()) <= 2.0**-7 * float(np.abs(ref).max())


@needs_mesh_api
@pytest.mark.parametrize("func,mesh,axis,message", [
    (flashattn(1, 4, 64, 64, 64, False, 32, 32), [1, 2], "cols",
     "the kernel split over the reduction loop 'k' has a tirx.tile.fill that is none of these; split-K over chips"),
    (softmax(128, 128, 32), [1, 2], "cols", "the kernel's reduction loop (reduce_axis), the one serial loop whose "
     "variable indexes a tensor; the kernel has none"),
    (matmul(64, 64, 96, 32, 32, 32, dtype="bfloat16"), [1, 2], "cols",
     "the reduction loop 'k' of 3 iterations does not split evenly over the 2 devices of the mesh's columns"),
    (matmul(64, 64, 128, 32, 32, 32, dtype="bfloat16"), [1, 2], "rows",
     "reduce_axis is rows, but the mesh has one device along its rows"),
    (matmul(64, 64, 128, 32, 32, 32, dtype="float16"), [1, 2], "cols",
     "output tensor 'C' (output, float16) holds each device's partial sum of split-K; the host adds the partials "
     "of outputs of dtype float32 or bfloat16"),
])
def test_what_split_k_cannot_split_is_refused(func: object, mesh: list, axis: str, message: str) -> None:
    with pytest.raises(TileLangError) as caught:
        tilelang.compile(func, out_idx=[-1], target={"kind": "tenstorrent", "mesh": mesh},
                         pass_configs={"tl.PartitionTTMesh.reduce_axis": axis})
    assert message in str(caught.value)


@needs_mesh_api
@pytest.mark.skipif(PROFILE != DEFAULT, reason=f"run_ttnn.py is written for the spec's profile ({DEFAULT})")
def test_run_ttnn_dry_run_builds_the_mesh_program_with_the_real_ttnn(tmp_path: Path) -> None:
    """run_ttnn.py of a kernel on a 1x2 mesh, run with --dry-run by a Python that has the ttnn 0.81.1 wheel
    ($TILELANG_TTNN_PYTHON, as tests/tenstorrent/test_tt_ttnn.py): the MeshProgramDescriptor over every device,
    ttnn.MeshMapperConfig per input (B sharded by columns, A replicated) and the composer's MeshComposerConfig."""
    from test_tt_ttnn import run_script

    kernel = tilelang.compile(matmul(64, 128, 64, 32, 32, 32, dtype="bfloat16"), out_idx=[-1], target=MESH_1X2)
    done = run_script(Path(kernel.save(tmp_path / "k")), "--dry-run")
    assert done.returncode == 0, done.stderr[-2000:]
    mesh = json.loads(done.stdout)["mesh"]
    # One program on every device of the mesh.
    assert mesh["shape"] == [1, 2]
    assert mesh["programs"] == ["MeshCoordinateRange(start=MeshCoordinate([0, 0]), end=MeshCoordinate([0, 1]))"]
    assert set(mesh["mappers"]) == {"A", "B"} and mesh["mappers"]["A"] != mesh["mappers"]["B"]
