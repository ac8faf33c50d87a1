"""The whole Tenstorrent pipeline on GEMM shapes and element-wise kernels written with `tilelang.language`."""

from __future__ import annotations

from typing import Any

import pytest
import tvm
from tt_ir import STEPS, calls, gemm, run_until, tt_calls
from tt_kernels import elementwise_add, elementwise_binary, elementwise_unary, matmul, matmul_bias_relu
from tt_profiles import counterpart, spelling

import tilelang
from tilelang import transform
from tilelang.tenstorrent import device
from tilelang.tenstorrent.lowered import get_attr

GEMM_SHAPES = [
    (256, 256, 256, 128, 128, 32, "bfloat16", "float"),
    (512, 256, 128, 64, 128, 64, "float16", "float"),
    (128, 512, 1024, 64, 64, 32, "bfloat16", "bfloat16"),
    (32, 32, 32, 32, 32, 32, "bfloat16", "float"),
    (1024, 1024, 1024, 128, 128, 32, "bfloat16", "float"),
    (96, 160, 64, 32, 32, 64, "float16", "float16"),
]


@pytest.mark.parametrize("shape", GEMM_SHAPES, ids=lambda s: "x".join(map(str, s[:6])) + f"-{s[6]}-{s[7]}")
def test_gemm_lowers_to_three_verified_kernels(shape: tuple[Any, ...]) -> None:
    M, N, K, bm, bn, bk, dtype, accum = shape  # noqa: N806
    art = tilelang.lower(matmul(M, N, K, bm, bn, bk, dtype=dtype, accum_dtype=accum), target="tenstorrent")
    assert sorted(gv.name_hint for gv in art.device_mod.functions) == ["main_compute", "main_reader", "main_writer"]
    plan = art.host_mod
    blocks = (M // bm) * (N // bn)
    assert sum(w["count"] for w in plan["work_partition"]) == blocks
    assert len(plan["work_partition"]) == min(blocks, 64)
    compute = art.device_mod["main_compute"]
    seq = calls(compute)
    mm = seq.count(counterpart("matmul_tiles"))
    assert mm >= 1 and not any(r.level == "abstract" for r, _ in tt_calls(compute.body))
    reader_args = plan["kernels"]["reader"]["runtime_args"]
    work = {"global": ["start", "count"], "shard": ["row0", "col0", "cols", "count"]}[plan["partition_mode"]]
    # block indices that fold to constants drop their arguments (one block: all of them; one block row: row0)
    assert reader_args[:2] == ["A_addr", "B_addr"] and set(reader_args[2:]) <= set(work) | {
        a for a in reader_args if a.startswith(("A_", "B_"))}
    assert plan["partition_mode"] == ("shard" if (M // bm) % min(M // bm, 8) == 0 and (N // bn) % min(N // bn, 8) == 0
                                      else "global")
    l1 = sum(c["depth"] * c["page_bytes"] for c in plan["cbs"])
    assert l1 <= device.L1_BYTES


@pytest.mark.parametrize("kernel,ops", [
    (lambda: elementwise_add(256, 256, 64, 64, "bfloat16", "bfloat16"), ["add_tiles"]),
    (lambda: elementwise_binary(128, 256, 64, 128, "sub"), ["sub_tiles"]),
    (lambda: elementwise_binary(128, 128, 32, 64, "mul", "float32"), ["mul_tiles"]),
    (lambda: elementwise_unary(128, 64, 32, 64, "exp"), ["copy_tile", "exp_tile"]),
    (lambda: elementwise_unary(64, 64, 32, 32, "relu", "float16"), ["copy_tile", "relu_tile"]),
    (lambda: matmul_bias_relu(128, 128, 128, 64, 64, 32), ["matmul_tiles", "add_tiles", "relu_tile"]),
], ids=["add", "sub", "mul", "exp", "relu", "gemm_bias_relu"])
def test_elementwise_kernels_lower(kernel: Any, ops: list[str]) -> None:
    art = tilelang.lower(kernel(), target="tenstorrent")
    seq = calls(art.device_mod["main_compute"])
    positions = [seq.index(counterpart(op)) for op in ops]
    assert positions == sorted(positions)
    assert counterpart("noc_async_read_page") in calls(art.device_mod["main_reader"])
    assert counterpart("noc_async_write_page") in calls(art.device_mod["main_writer"])


def test_every_pass_is_a_registered_tvm_pass_usable_alone() -> None:
    for name in STEPS:
        p = getattr(transform, name)()
        assert isinstance(p, tvm.transform.Pass) and p.info.name == f"tl.{name}"
    mod = run_until(gemm(), "AttachTTAccessors")
    alone = transform.PartitionTTWork(core_grid=[2, 2])(mod)
    assert len(get_attr(alone["main"], "tt.work_partition")) == 4


def test_lowered_artifact_source_is_the_metalium_program() -> None:
    art = tilelang.lower(gemm(), target="tenstorrent")
    for name in ("reader.cpp", "compute.cpp", "writer.cpp", "main.cpp", "CMakeLists.txt", "tt.plan.json"):
        assert f"// ==== {name} ====" in art.kernel_source
    assert f"{spelling(counterpart('noc_async_read_page'))}(" in art.kernel_source
    assert "void kernel_main()" in art.kernel_source  # the reader's entry in every profile
