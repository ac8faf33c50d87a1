"""Issue 30's done-when meshes: GEMM, softmax and flash attention (heads over chips) on emulated 1x2, 2x4 and 4x8
meshes of Wormhole chips, against numpy. Each device runs the same tiny kernel on every mesh (tests/tt_mesh_kernels.py
mesh_case), so the kernels compile once and each mesh costs its host program."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from tt_mesh_kernels import mesh_case

import tilelang
from tilelang.tenstorrent import PROFILES, api_profile

needs_gxx = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")
needs_mesh_api = pytest.mark.skipif(PROFILES[api_profile()].host_api != "mesh",
                                    reason="the API profile has the single-device host API")
MESHES = [(1, 2), (2, 4), (4, 8)]


def _inputs_and_reference(kind: str, kernel: object, rng: np.random.Generator) -> tuple[list[np.ndarray], np.ndarray]:
    params = [t for t in json.loads(kernel.artifact.rt_mod.files["tt.plan.json"])["tensors"]  # type: ignore[attr-defined]
              if t["role"] == "input"]
    shapes = {t["name"]: tuple(t["shape"]) for t in params}
    if kind == "gemm":
        m, n = (32 * s for s in kernel.mesh)  # type: ignore[attr-defined]
        a = rng.uniform(-1, 1, (m, 32)).astype(ml_dtypes.bfloat16)
        b = rng.uniform(-1, 1, (32, n)).astype(ml_dtypes.bfloat16)
        return [a, b], a.astype(np.float32) @ b.astype(np.float32)
    if kind == "softmax":
        x = rng.standard_normal((32 * kernel.mesh[0] * kernel.mesh[1], 32)).astype(np.float32) * 3  # type: ignore[attr-defined]
        e = np.exp(x - x.max(-1, keepdims=True))
        return [x], e / e.sum(-1, keepdims=True)
    rows, cols = kernel.mesh  # type: ignore[attr-defined]
    q = rng.standard_normal((1, cols, 32 * rows, 32)).astype(np.float16)
    k, v = (rng.standard_normal((1, cols, 128, 32)).astype(np.float16) for _ in range(2))
    assert shapes["Q"] == (1, 1, 32, 32) and shapes["K"] == (1, 1, 128, 32)  # one head, one query block per device
    qf, kf, vf = (t.astype(np.float32) for t in (q, k, v))
    scores = np.einsum("bhqd,bhkd->bhqk", qf, kf) / np.sqrt(32)
    e = np.exp(scores - scores.max(-1, keepdims=True))
    return [q, k, v], np.einsum("bhqk,bhkd->bhqd", e / e.sum(-1, keepdims=True), vf)


@needs_gxx
@needs_mesh_api
@pytest.mark.parametrize("mesh", MESHES, ids=lambda m: f"{m[0]}x{m[1]}")
@pytest.mark.parametrize("kind", ["gemm", "softmax", "flash_attention"])
def test_the_kernel_runs_on_the_mesh(kind: str, mesh: tuple[int, int]) -> None:
    """Every device computes its part from its own DRAM (the report names each device's cores), the host gathers
    the parts (restacked ones back in order) and the whole matches numpy."""
    func, configs, out_idx = mesh_case(kind, mesh)
    kernel = tilelang.compile(func, out_idx=out_idx, target={"kind": "tenstorrent", "mesh": list(mesh)},
                              pass_configs=configs)
    kernel.mesh = mesh  # type: ignore[attr-defined]
    inputs, want = _inputs_and_reference(kind, kernel, np.random.default_rng(mesh[0] * 10 + mesh[1]))
    got = np.asarray(kernel(*inputs)).astype(np.float32)
    assert got.shape == want.shape
    tolerance = 1e-5 if kind == "softmax" else 2.0**-7
    assert float(np.abs(got - want).max()) <= tolerance * float(np.abs(want).max())
    devices = kernel.last_report["devices"]
    assert [tuple(d["device"]) for d in devices] == [(r, c) for r in range(mesh[0]) for c in range(mesh[1])]
    # Each device wrote exactly its one output tile (a 32x32 block: 4 KiB in float32, 2 KiB in 16-bit formats).
    assert len({d["dram_bytes_written"] for d in devices}) == 1 and devices[0]["dram_bytes_written"] > 0


@needs_mesh_api
@pytest.mark.parametrize("heads,axes,message", [
    (4, "xy", "tensor 'Q' is sharded in dim 2 with a dim of extent 2 on a device before it; a shard must be one run "
              "of the tiled matrix's rows (the mesh's columns split the outer dim: one index of it per device)"),
    (2, "yx", "tensor 'Q' is sharded in dim 2 with a dim of extent 2 before it; a shard must be one run of the tiled "
              "matrix's rows"),
])
def test_a_restack_the_host_cannot_lay_out_is_refused(heads: int, axes: str, message: str) -> None:
    """Attention on a 2x2 mesh: two heads per device column under the query blocks' split (its shard would not be
    one run of rows), or the query blocks restacked over the columns inside the heads' split."""
    from tt_attention_kernels import flashattn

    from tilelang.errors import TileLangError

    with pytest.raises(TileLangError) as caught:
        tilelang.compile(flashattn(1, heads, 64, 64, 32, False, 32, 32), out_idx=[3],
                         target={"kind": "tenstorrent", "mesh": [2, 2]},
                         pass_configs={"tl.PartitionTTMesh.grid_axes": axes})
    assert message in str(caught.value)


@needs_mesh_api
def test_run_ttnn_deals_out_and_gathers_a_restacked_softmax(tmp_path: Path) -> None:
    """run_ttnn.py of softmax on a 2x4 mesh (its row blocks restacked over both mesh axes): its mesh_matrix as ttnn's
    mesh mapper deals it out (the host matrix's rows over the mesh rows, its columns over the mesh columns), each
    device's softmax of its shard, the devices' matrices concatenated as its composer does, then its mesh_logical
    puts the blocks back in the user's order; against numpy."""
    from tilelang.tenstorrent import ttnn_host

    func, configs, out_idx = mesh_case("softmax", (2, 4))
    kernel = tilelang.compile(func, out_idx=out_idx, target={"kind": "tenstorrent", "mesh": [2, 4]},
                              pass_configs=configs)
    kernel.mesh = (2, 4)  # type: ignore[attr-defined]
    [x], want = _inputs_and_reference("softmax", kernel, np.random.default_rng(7))
    script = ttnn_host.load_script(Path(kernel.save(tmp_path / "k")) / "run_ttnn.py")
    assert script.MESH_TENSORS["Y"]["restacked"]
    host = script.mesh_matrix("X", x)
    r, c = host.shape[0] // 2, host.shape[1] // 4

    def softmax(block: np.ndarray) -> np.ndarray:
        e = np.exp(block - block.max(-1, keepdims=True))
        return e / e.sum(-1, keepdims=True)

    composed = np.block([[softmax(host[i * r:(i + 1) * r, j * c:(j + 1) * c]) for j in range(4)] for i in range(2)])
    got = script.mesh_logical("Y", composed)
    assert got.shape == want.shape and float(np.abs(got - want).max()) <= 1e-6
