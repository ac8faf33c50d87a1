"""B of a GEMM fed by a second data-movement kernel (issue 31; BuildTTTileDataflow's in1_sender, pass_configs
{"tl.tt.in1_sender": True}), as tt-metal's matmul does with reader_bmm_tile_layout_in1_sender_writer_padding: the
writer kernel (BRISC, NoC 0) reads B's blocks and multicasts them down the core column while the reader kernel (NCRISC,
NoC 1) reads and multicasts A alone. One 256x256x128 GEMM in 128x128x64 blocks on 2x2 cores runs against numpy with C
in L1 and with C in DRAM (the writer then also writes C), and without multicast (each core's writer reads its B)."""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import pytest
from tt_kernels import matmul

import tilelang
from tilelang.tenstorrent import device, gemm_blocks, perf_model
from tilelang.tenstorrent.records import CB, DM_KERNEL, KERNEL, PLAN

BF16 = ml_dtypes.bfloat16
M, N, K, BLOCK = 256, 256, 128, 128
IN1 = {"tl.tt.in1_sender": True}
IN_L1 = {"tl.tt.memory_config": {"C": "l1_sharded"}}


def gemm(pass_configs: dict[str, Any]) -> Any:
    return tilelang.compile(matmul(M, N, K, BLOCK, BLOCK, 64, "bfloat16", "float"), out_idx=[-1],
                            target="tenstorrent", pass_configs=pass_configs)


def run(kernel: Any) -> None:
    rng = np.random.default_rng(31)
    a, b = rng.uniform(-1, 1, (M, K)).astype(BF16), rng.uniform(-1, 1, (K, N)).astype(BF16)
    ref = a.astype(np.float32) @ b.astype(np.float32)
    got = kernel(a, b).astype(np.float32)
    assert float(np.abs(got - ref).max()) <= 2.0**-7 * float(np.abs(ref).max())


@pytest.mark.parametrize("configs", [{**IN1, **IN_L1}, IN1, {**IN1, "tl.PlanTTMulticast.enabled": False}],
                         ids=["c_in_l1", "c_in_dram", "no_multicast"])
def test_gemm_with_an_in1_sender_matches_numpy(configs: dict[str, Any]) -> None:
    kernel = gemm(configs)
    run(kernel)
    files, plan = kernel.artifact.rt_mod.files, kernel.artifact.rt_mod.plan
    cbs = {cb[CB.BUFFER]: cb for cb in plan[PLAN.CBS]}
    b_cb = next(cb for name, cb in cbs.items() if name.startswith("B"))
    a_cb = next(cb for name, cb in cbs.items() if name.startswith("A"))
    assert (a_cb[CB.PRODUCER], b_cb[CB.PRODUCER]) == ("reader", "writer")
    assert f"cb_reserve_back({b_cb[CB.INDEX]}," in files["writer.cpp"]
    assert f"cb_reserve_back({b_cb[CB.INDEX]}," not in files["reader.cpp"]
    assert "noc_async_read_page" in files["writer.cpp"]
    multicast = configs.get("tl.PlanTTMulticast.enabled", True)
    assert ("noc_async_write_multicast" in files["writer.cpp"]) == multicast
    kernels = plan[PLAN.KERNELS]
    assert (kernels["reader"][DM_KERNEL.PROCESSOR], kernels["writer"][DM_KERNEL.PROCESSOR]) == (
        device.KERNEL_PROCESSORS["reader"], device.KERNEL_PROCESSORS["writer"])
    if multicast:  # B's runtime arguments are the writer's, its semaphores the plan's
        assert any(a.startswith("B_sender") for a in kernels["writer"][KERNEL.RUNTIME_ARGS])
        assert not any(a.startswith("B_") for a in kernels["reader"][KERNEL.RUNTIME_ARGS])


def test_the_model_fills_from_the_slower_of_the_two_readers() -> None:
    """The pipeline fill is the slower data-movement kernel's first blocks (perf_model.pipeline_cycles), no longer A's
    and B's one after the other: the same counters model faster with B's CB produced by the writer."""
    sender = gemm({**IN1, **IN_L1})
    run(sender)
    plan = sender.artifact.rt_mod.plan
    as_one = {**plan, PLAN.CBS: [{**cb, CB.PRODUCER: "reader"} if cb[CB.PRODUCER] == "writer" else cb
                                 for cb in plan[PLAN.CBS]]}
    one = perf_model.estimate(as_one, sender.last_report)
    two = perf_model.estimate(plan, sender.last_report)
    assert two.modelled_seconds < one.modelled_seconds


def test_the_block_picker_turns_it_on_where_its_estimate_is_faster() -> None:
    """gemm_blocks' estimate charges the first blocks' fetch: both one after the other, or the larger with the in1
    sender; the pick carries the choice as pass_configs."""
    pick = gemm_blocks.ranked(2048, 2048, 2048, "n150")[0]
    assert pick.in1_sender and pick.pass_configs == {"tl.tt.in1_sender": True}
    assert gemm_blocks.BLOCK_K_TILES[-1] * 32 >= 256  # K blocks as large as tt-metal's 2048^3 in0_block_w (8 tiles)
