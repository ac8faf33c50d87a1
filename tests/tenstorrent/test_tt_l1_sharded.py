"""A GEMM's C left in L1, block-sharded over the cores that compute it (issue 31; InferTTLayout's memory_config,
pass_configs {"tl.tt.memory_config": {"C": "l1_sharded"}}), as tt-metal's matmul keeps C with ttnn's out_sharded L1
BLOCK_SHARDED memory config. The host creates C as a sharded L1 MeshBuffer (DeviceLocalBufferConfig's sharding_args:
a ShardSpecBuffer of the partition's blocks, ROW_MAJOR) and backs the output CB with it (set_globally_allocated_address,
as tt-metal's sharded matmul: the packer writes the shard, the writer moves nothing), the emulator keeps the shards
in the cores' L1 while the program runs and hands them to the host's read-back after it; run_ttnn.py allocates C with
ttnn's L1 BLOCK_SHARDED memory config. One 256x256x128 GEMM in 128x128x64 blocks (4 cores) runs once against numpy;
the rules tt-metal and the sanitizer enforce on such a CB are seeded into its main.cpp."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np
import pytest
import test_tt_ttnn
from test_tt_ttnn import jit
from tt_kernels import matmul

import tilelang
from tilelang.errors import TileLangError
from tilelang.tenstorrent import perf_model, ttnn_host
from tilelang.tenstorrent.records import CB, COUNTERS, MODELLED_COUNTERS, PLAN, TENSOR

BF16 = ml_dtypes.bfloat16
M, N, K, BLOCK_M, BLOCK_N, BLOCK_K = 256, 256, 128, 128, 128, 64
IN_L1 = {"tl.tt.memory_config": {"C": "l1_sharded"}}


def gemm(pass_configs: dict[str, Any], m: int = M, n: int = N, block: int = BLOCK_M, c_in: str = "C") -> Any:
    return tilelang.compile(matmul(m, n, K, block, block, BLOCK_K, "bfloat16", "float"), out_idx=[-1],
                            target="tenstorrent", pass_configs=pass_configs)


@pytest.fixture(scope="module")
def run() -> tuple[Any, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(31)
    a, b = rng.uniform(-1, 1, (M, K)).astype(BF16), rng.uniform(-1, 1, (K, N)).astype(BF16)
    kernel = gemm(IN_L1)
    return kernel, kernel(a, b).astype(np.float32), a.astype(np.float32) @ b.astype(np.float32)


def test_gemm_with_c_in_l1_matches_numpy(run: Any) -> None:
    _, got, ref = run
    assert float(np.abs(got - ref).max()) <= 2.0**-7 * float(np.abs(ref).max())


def test_c_is_a_sharded_l1_buffer_of_the_blocks(run: Any) -> None:
    kernel = run[0]
    plan = kernel.artifact.rt_mod.plan
    (c,) = [t for t in plan[PLAN.TENSORS] if t[TENSOR.NAME] == "C"]
    assert c[TENSOR.L1_SHARD] == [BLOCK_M // 32, BLOCK_N // 32]
    main = kernel.artifact.rt_mod.files["main.cpp"]
    assert "BufferType::L1" in main and "TensorMemoryLayout::BLOCK_SHARDED" in main
    assert "ShardOrientation::ROW_MAJOR" in main


def test_the_output_cb_is_c_s_shard_and_the_writer_moves_nothing(run: Any) -> None:
    """As tt-metal's sharded matmul: the output CB is backed by C's buffer (set_globally_allocated_address), one block
    deep, so the packer writes the shard; the writer only waits for the block and frees it (no DRAM or L1 write)."""
    kernel = run[0]
    plan, files = kernel.artifact.rt_mod.plan, kernel.artifact.rt_mod.files
    (out,) = [cb for cb in plan[PLAN.CBS] if cb.get(CB.SHARD_OF)]
    assert out[CB.SHARD_OF] == "C" and out[CB.DEPTH] == out[CB.BLOCK_PAGES] == (BLOCK_M // 32) * (BLOCK_N // 32)
    assert ".set_globally_allocated_address(*C->get_reference_buffer())" in files["main.cpp"]
    assert "noc_async_write" not in files["writer.cpp"] and "TensorAccessor" not in files["writer.cpp"]
    assert f"cb_wait_front({out[CB.INDEX]}, {out[CB.DEPTH]})" in files["writer.cpp"]
    cores = kernel.last_report["cores"]
    assert len(cores) == (M // BLOCK_M) * (N // BLOCK_N)
    assert all(core.get(COUNTERS.DRAM_BYTES_WRITTEN, 0) == 0 for core in cores)
    assert all(core.get(MODELLED_COUNTERS.L1_BYTES_WRITTEN, 0) == 0 for core in cores)
    assert all(core.get(COUNTERS.DRAM_BYTES_READ, 0) > 0 for core in cores)
    in_dram = gemm({}).artifact.rt_mod
    assert "noc_async_write_page" in in_dram.files["writer.cpp"]
    assert not any(cb.get(CB.SHARD_OF) for cb in in_dram.plan[PLAN.CBS])


def test_the_model_charges_no_drain(run: Any) -> None:
    """The packer writes the last block into the shard as it packs it: no drain after the math (tt-metal's sharded
    output; before the CB was the shard, the writer's copy into L1, block / noc_write_bytes_per_cycle)."""
    kernel = run[0]
    plan = kernel.artifact.rt_mod.plan
    est = perf_model.estimate_kernel(kernel)
    perf = perf_model.device_perf(plan[PLAN.DEVICE]["name"])
    fill, drain = perf_model.pipeline_cycles(plan, perf_model.multicast_rate(kernel.last_report["cores"], perf), perf,
                                             1, True)
    assert drain == 0 and fill > 0
    assert all(core.pipeline_cycles == pytest.approx(fill) for core in est.cores)
    assert est.dram_bytes == sum(core[COUNTERS.DRAM_BYTES_READ] for core in kernel.last_report["cores"])


@pytest.mark.parametrize(("configs", "shape", "message"), [
    ({"tl.tt.memory_config": {"C": "l2"}}, (M, N, BLOCK_M),
     r"tensor 'C' has the memory config .*: a tensor lives in 'dram' \(interleaved, the default\) or 'l1_sharded'"),
    ({"tl.tt.memory_config": {"A": "l1_sharded"}}, (M, N, BLOCK_M),
     r"tensor 'A' is L1-sharded .*, but it is an input tensor: only an output"),
    (IN_L1, (320, 320, 32),
     r"tensor 'C' is L1-sharded .*, which needs every core to compute one output block, the one at its own "
     r"coordinates \(the 10x10 block grid"),
])
def test_refused_with_the_reason(configs: dict[str, Any], shape: tuple[int, int, int], message: str) -> None:
    with pytest.raises(TileLangError, match=message):
        gemm(configs, *shape).artifact.rt_mod.plan  # noqa: B018  (codegen builds the plan)


def test_run_ttnn_creates_c_as_ttnn_s_block_sharded_l1_tensor(run: Any, tmp_path: Path) -> None:
    """run_ttnn.py (the ttnn host program) allocates C with ttnn's L1 BLOCK_SHARDED memory config of main.cpp's shard
    grid, and expects the writer's sharded TensorAccessorArgs (check-metal's count); with the real ttnn 0.81.1 (its
    venv, as test_tt_ttnn.py; skipped without it) the dry run builds that memory config."""
    kernel = run[0]
    folder = kernel.save(tmp_path / "l1")
    plan = kernel.artifact.rt_mod.plan
    assert ttnn_host.unsupported(plan) is None
    script = ttnn_host.load_script(folder / ttnn_host.SCRIPT)
    assert script.TENSORS["C"]["l1_shard"] == (M // BLOCK_M, N // BLOCK_N, BLOCK_M // 32, BLOCK_N // 32)
    assert script.TENSORS["A"]["l1_shard"] is None
    width = len(jit.compile_time_args(plan, "writer"))
    assert script.compile_time_args("writer", script.DeviceValues(None, None, {}).accessor_args) == [0] * width
    done = test_tt_ttnn.run_script(folder, "--dry-run")
    assert done.returncode == 0, done.stderr[-2000:]
    memory = json.loads(done.stdout)["memory_configs"]
    assert "memory_layout=TensorMemoryLayout::BLOCK_SHARDED,buffer_type=BufferType::L1" in memory["C"]
    assert '"end":{"x":1,"y":1}' in memory["C"] and f"shape=[{BLOCK_M}, {BLOCK_N}]" in memory["C"]
    assert "ShardOrientation::ROW_MAJOR" in memory["C"] and "BufferType::DRAM" in memory["A"]
    assert [len(k["compile_time_args"]) for k in json.loads(done.stdout)["kernels"]][2] == width


@pytest.mark.parametrize(("pattern", "replacement", "message"), [
    (r"\*C->get_reference_buffer\(\)", "*A->get_reference_buffer()",
     r"Only L1 buffers can have an associated circular buffer \(DRAM buffer"),
    (r"CoreCoord\{shard_dim_C\(0\) - 1, shard_dim_C\(1\) - 1\}", "CoreCoord{0, 0}",
     r"sanitizer: the CB backed by .* is on core \(0,1\), which holds no shard of it"),
])
def test_a_cb_backed_by_a_buffer_follows_tt_metal_s_rules(run: Any, tmp_path: Path, pattern: str, replacement: str,
                                                          message: str) -> None:
    """Seeded into main.cpp: a CB backed by a DRAM buffer (tt-metal throws), and by a sharded buffer whose shards all
    sit on core (0,0) while the CB spans the 2x2 cores (the sanitizer: L1 that no buffer owns)."""
    import dataclasses
    import re

    from tilelang.tenstorrent import emulator

    rt_mod = run[0].artifact.rt_mod
    prog = dataclasses.replace(rt_mod, files=dict(rt_mod.files))
    seeded = re.sub(pattern, replacement, prog.files["main.cpp"], count=1)
    assert seeded != prog.files["main.cpp"]
    prog.files["main.cpp"] = seeded
    rng = np.random.default_rng(5)
    arrays = [rng.uniform(-1, 1, s).astype(BF16) for s in ((M, K), (K, N))] + [np.zeros((M, N), BF16)]
    with pytest.raises(emulator.TTEmulatorError, match=message):
        prog.run(arrays, workdir=tmp_path)
