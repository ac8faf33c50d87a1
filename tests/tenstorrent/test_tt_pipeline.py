"""The Tenstorrent pipeline (stages A-E) on real IR from `tilelang.language`: each pass before/after, and the
errors for kernels it cannot lower (the whole pipeline: test_tt_lowering.py)."""

from __future__ import annotations

from typing import Any

import pytest
import tvm
import tvm_ffi
from tt_ir import calls, const, gemm, run_until, tt_calls
from tt_kernels import elementwise_add, matmul, matmul_bias_relu
from tt_profiles import accessor_args, counterpart, protocol_calls
from tvm import tirx

from tilelang import transform
from tilelang.language import TileLangError
from tilelang.tenstorrent import device
from tilelang.tenstorrent.lowered import get_attr, to_py

# ------------------------------------------------------------------------------------------------ stage A


def test_infer_tt_layout_annotates_tensors_only() -> None:
    before = run_until(gemm(), None)["main"]
    after = run_until(gemm(), "InferTTLayout")["main"]
    tvm.ir.assert_structural_equal(before.body, after.body)
    layout = get_attr(after, "tt.buffers")
    tile = {"memory": "DRAM", "layout": "interleaved", "page_layout": "tile", "dtype": "bfloat16",
            "data_format": "Float16_b", "page_bytes": 2048, "pages": 64, "tile_rows": 8, "tile_cols": 8,
            "shape": [256, 256], "padded_shape": [256, 256], "blocks": [0, 0], "dram_format": "", "transposed": False}
    assert layout == {"A": tile, "B": tile, "C": tile}


def test_infer_tt_layout_pads_to_whole_tiles_and_blocks() -> None:
    """M = 100 in blocks of 64 rows: 128 rows (the last block hangs over the end); K = 72 in blocks of 32: 96; a
    (64, 4) tensor in blocks of 4 columns: each block on a tile of its own (blocks: 4)."""
    layout = get_attr(run_until(matmul(100, 200, 72, 64, 64, 32, dtype="float32"), "InferTTLayout")["main"],
                      "tt.buffers")
    assert (layout["A"]["shape"], layout["A"]["padded_shape"], layout["A"]["pages"]) == ([100, 72], [128, 96], 12)
    assert layout["C"]["padded_shape"] == [128, 256] and layout["C"]["tile_cols"] == 8
    narrow = get_attr(run_until(matmul(64, 8, 64, 64, 4, 32, dtype="float32"), "InferTTLayout")["main"], "tt.buffers")
    assert (narrow["B"]["padded_shape"], narrow["B"]["blocks"]) == ([64, 64], [0, 4])


def test_attach_tt_accessors() -> None:
    after = run_until(matmul(64, 128, 96, 32, 32, 32, dtype="float32"), "AttachTTAccessors")["main"]
    acc = get_attr(after, "tt.accessors")
    assert acc["B"] == {"stride_mode": "tiled", "page_bytes": 4096, "compile_time_args": accessor_args(),
                        "parameter": 1}
    assert [acc[n]["parameter"] for n in "ABC"] == [0, 1, 2]


# ------------------------------------------------------------------------------------------------ stage B


@pytest.mark.parametrize("grid,blocks", [((8, 8), (2, 2)), ((8, 8), (10, 10)), ((4, 2), (3, 5))])
def test_partition_global_is_balanced_and_complete(grid: tuple[int, int], blocks: tuple[int, int]) -> None:
    bx, by = blocks
    func = elementwise_add(32 * by, 32 * bx, 32, 32, "bfloat16", "bfloat16")
    after = run_until(func, "PartitionTTWork", PartitionTTWork={"mode": "global", "core_grid": list(grid)})["main"]
    work = get_attr(after, "tt.work_partition")
    counts = [w["count"] for w in work]
    assert len(work) == min(bx * by, grid[0] * grid[1])
    assert sum(counts) == bx * by and max(counts) - min(counts) <= 1
    assert [w["start"] for w in work] == [sum(counts[:i]) for i in range(len(counts))]
    assert get_attr(after, "tt.grid_blocks") == [bx, by, 1]
    covered = {(x, y) for r in get_attr(after, "tt.core_ranges") for x in range(r[0], r[2] + 1)
               for y in range(r[1], r[3] + 1)}
    assert covered == {tuple(w["core"]) for w in work}


@pytest.mark.parametrize("grid,blocks,expected", [((8, 8), (8, 8), "shard"), ((8, 8), (16, 4), "shard"),
                                                   ((8, 8), (10, 10), "global"), ((4, 2), (3, 5), "global")])
def test_partition_auto_shards_only_an_even_split(grid: tuple[int, int], blocks: tuple[int, int],
                                                  expected: str) -> None:
    bx, by = blocks
    func = elementwise_add(32 * by, 32 * bx, 32, 32, "bfloat16", "bfloat16")
    after = run_until(func, "PartitionTTWork", PartitionTTWork={"core_grid": list(grid)})["main"]
    assert get_attr(after, "tt.partition_mode") == expected
    counts = {w["count"] for w in get_attr(after, "tt.work_partition")}
    assert len(counts) == 1 if expected == "shard" else max(counts) - min(counts) <= 1


def _blocks_of_each_core(mod: tvm.IRModule) -> list[list[tuple[int, int]]]:
    """Evaluate the persistent loop's block bindings for every core and iteration."""
    func = mod["main"]
    loop = func.body
    assert isinstance(loop, tirx.For) and "tt.persistent_loop" in loop.annotations
    binds = {str(s.var.name): s.value for s in loop.body.seq if isinstance(s, tirx.Bind)}
    out = []
    for values in get_attr(func, "tt.work_values"):
        blocks = []
        for i in range(const(loop.extent, values)):
            env = dict(values, i=i)
            blocks.append((const(binds["bx"], env), const(binds["by"], env)))
        out.append(blocks)
    return out


@pytest.mark.parametrize("mode", ["global", "shard"])
def test_grid_to_persistent_visits_every_block_once(mode: str) -> None:
    func = elementwise_add(32 * 5, 32 * 7, 32, 32, "bfloat16", "bfloat16")
    before = run_until(func, "PartitionTTWork", PartitionTTWork={"mode": mode, "core_grid": [4, 3]})
    after = run_until(func, "GridToPersistentTT", PartitionTTWork={"mode": mode, "core_grid": [4, 3]})
    launches = []
    tvm_ffi.structural_walk(before["main"].body, [(tirx.AttrStmt, lambda s: launches.append(s.attr_key))])
    assert launches.count("thread_extent") == 2
    left = []
    tvm_ffi.structural_walk(after["main"].body, [(tirx.AttrStmt, lambda s: left.append(s.attr_key))])
    assert "thread_extent" not in left
    per_core = _blocks_of_each_core(after)
    flat = [b for blocks in per_core for b in blocks]
    assert sorted(flat) == [(x, y) for x in range(7) for y in range(5)]
    if mode == "shard":  # each core owns a rectangle of blocks
        for blocks in per_core:
            xs, ys = {b[0] for b in blocks}, {b[1] for b in blocks}
            assert len(blocks) == len(xs) * len(ys)
    assert get_attr(after["main"], "tt.work_args") == (["start", "count"] if mode == "global"
                                                        else ["row0", "col0", "cols", "count"])


# ------------------------------------------------------------------------------------------------ stage C


def test_dataflow_assigns_cb_classes_indices_and_depths() -> None:
    cbs = get_attr(run_until(gemm(), "BuildTTTileDataflow")["main"], "tt.cbs")
    summary = [(c["index"], c["buffer"], c["class"], c["data_format"], c["block_pages"], c["depth"], c["page_bytes"])
               for c in cbs]
    assert summary == [
        (0, "A_shared", "input", "Float16_b", 4, 8, 2048),
        (1, "B_shared", "input", "Float16_b", 4, 8, 2048),
        (16, "C_local", "output", "Float16_b", 16, 32, 2048),  # packed to C's format for the writer
        (24, "C_local", "intermediate", "Float32", 16, 16, 4096),  # fp32 partial sums of the 4x4 block
    ]
    small = get_attr(run_until(matmul(64, 64, 64, 64, 64, 32), "BuildTTTileDataflow")["main"], "tt.cbs")
    assert [c["index"] for c in small] == [0, 1, 16]  # a 2x2 block fits one fp32 DST section: no partials


def test_dataflow_of_add_aliases_local_copies_and_of_the_epilogue() -> None:
    add = get_attr(run_until(elementwise_add(128, 128, 64, 64, "bfloat16", "bfloat16"), "BuildTTTileDataflow")["main"],
                   "tt.cbs")
    assert [(c["index"], c["buffer"], c["producer"], c["consumer"]) for c in add] == [
        (0, "A_shared", "reader", "compute"), (1, "B_shared", "reader", "compute"),
        (16, "C_local", "compute", "writer")]  # C_shared is the same CB as C_local
    epi = get_attr(run_until(matmul_bias_relu(128, 128, 128, 64, 64, 32), "BuildTTTileDataflow")["main"], "tt.cbs")
    assert [(c["index"], c["buffer"], c["class"]) for c in epi] == [
        (0, "A_shared", "input"), (1, "B_shared", "input"), (2, "Bias_shared", "input"),
        (16, "D_local", "output"), (24, "C_local", "intermediate")]


def test_lower_tile_ops_to_tt_computes_tile_indices_from_regions() -> None:
    after = run_until(gemm(), "LowerTileOpsToTT")["main"]
    assert not [s for s in [after.body] if "TilePrimitiveCall" in str(type(s))]
    found = {}
    for record, call in tt_calls(after.body):
        found.setdefault(record.name, []).append(call)
    assert sorted(found) == ["matmul_block", "read_block", "write_block"]
    (read_a, read_b), (write_c,) = found["read_block"], found["write_block"]
    for by in range(2):
        for bx in range(2):
            for k in range(8):
                env = {"by": by, "bx": bx, "k": k}
                assert const(read_a.args[2], env) == (by * 128 // 32) * 8 + k * 32 // 32
                assert const(read_b.args[2], env) == (k * 32 // 32) * 8 + bx * 128 // 32
            assert const(write_c.args[2], {"by": by, "bx": bx}) == (by * 4) * 8 + bx * 4
    assert [to_py(a) for a in read_a.args[3:]] == [4, 1, 8, 2048]
    mm = found["matmul_block"][0]
    assert [to_py(a) for a in mm.args[:7]] == [0, 1, 16, 24, 4, 4, 1] and to_py(mm.args[8]) == 8
    allocs = []
    tvm_ffi.structural_walk(after.body, [(tirx.AllocBuffer, allocs.append)])
    assert allocs == []  # on-chip buffers are CBs now


# ------------------------------------------------------------------------------------------------ stage D


def test_split_keeps_role_legal_calls_per_kernel() -> None:
    mod = run_until(gemm(), "SplitTTKernels")
    names = sorted(gv.name_hint for gv in mod.functions)
    assert names == ["main_compute", "main_reader", "main_writer"]
    assert calls(mod["main_reader"]) == ["read_block", "read_block"]
    assert calls(mod["main_compute"]) == ["matmul_block"]
    assert calls(mod["main_writer"]) == ["write_block"]
    for role in ("reader", "compute", "writer"):
        assert get_attr(mod[f"main_{role}"], "tt.kernel_role") == role


def test_bind_accessors_builds_one_accessor_per_tensor() -> None:
    before = run_until(gemm(), "SplitTTKernels")["main_reader"]
    after = run_until(gemm(), "BindTTAccessors")["main_reader"]
    chained = protocol_calls("tensor_accessor") + protocol_calls("tensor_accessor_chained")  # B's follow A's
    assert calls(after)[:len(chained)] == chained
    offsets = [{"tensor": "A", "offset": 0}, {"tensor": "B", "offset": accessor_args()}] if accessor_args() else []
    assert get_attr(after, "tt.compile_time_args") == offsets
    assert get_attr(after, "tt.tensor_args") == {"A_addr": "A", "B_addr": "B"}
    reads = [c for r, c in tt_calls(after.body) if r.name == "read_block"]
    assert all(not tirx.is_buffer_var(c.args[1]) for c in reads)  # the accessor, not the tensor
    assert [c for r, c in tt_calls(before.body) if r.name == "read_block"][0].args[1].name == "A"


@pytest.mark.parametrize("accum,expected", [("float", 4), ("bfloat16", 8)])
def test_plan_dst_sizes_sub_blocks(accum: str, expected: int) -> None:
    comp = run_until(gemm(accum=accum), "PlanTTDst")["main_compute"]
    (mm,) = [c for r, c in tt_calls(comp.body) if r.name == "matmul_block"]
    assert to_py(mm.args[9]) == expected == device.DST_TILES[32 if accum == "float" else 16]


def test_compute_init_first_family_and_reinit_when_mixed() -> None:
    comp = run_until(gemm(), "InsertTTComputeInit")["main_compute"]
    startup = protocol_calls("compute_startup", branch='family == "matmul"')
    assert calls(comp)[:len(startup)] == startup
    mixed = run_until(matmul_bias_relu(128, 128, 128, 64, 64, 32), "InsertTTComputeInit")["main_compute"]
    inits = [to_py(c.args[-1]) for r, c in tt_calls(mixed.body) if r.name in ("matmul_block", "eltwise_block")]
    assert inits == [1, 1]


def test_lower_protocols_reader_sequence() -> None:
    reader = run_until(matmul(64, 64, 64, 32, 32, 32), "LowerTTProtocols",
                       PlanTTMulticast={"enabled": False})["main_reader"]
    seq = calls(reader)
    assert "read_block" not in seq
    start = seq.index("cb_reserve_back")
    block = protocol_calls("reader_block")  # a 1x1 block: each call once
    assert block[:2] == ["cb_reserve_back", "get_write_ptr"] and seq[start:start + len(block)] == block


def _if_branches(stmt: Any) -> list[tuple[list[str], list[str]]]:
    found: list[Any] = []
    tvm_ffi.structural_walk(stmt, [(tirx.IfThenElse, found.append)])
    return [(calls_in(s.then_case), calls_in(s.else_case)) for s in found]


def calls_in(stmt: Any) -> list[str]:
    return [record.name for record, _ in tt_calls(stmt)] if stmt is not None else []


def test_multicast_shares_a_rows_and_b_columns_between_cores() -> None:
    """Grid 2x2 of 32x32 blocks on 2x2 cores: A's block depends on blockIdx.y only (shared by a core row), B's on
    blockIdx.x (a core column); each read becomes the sender/receiver handshake with per-core arguments."""
    mod = run_until(matmul(64, 64, 64, 32, 32, 32), "LowerTTProtocols", PartitionTTWork={"core_grid": [2, 2]})
    reader = mod["main_reader"]
    args = get_attr(reader, "tt.work_args")
    assert [a for a in args if a.startswith("A_")] == [
        "A_sender", "A_sender_x", "A_sender_y", "A_first_x", "A_first_y", "A_last_x", "A_last_y", "A_sender_sem",
        "A_receiver_sem"]
    work = {tuple(w["core"]): v for w, v in zip(get_attr(reader, "tt.work_partition"),
                                               get_attr(reader, "tt.work_values"), strict=True)}
    # A along core rows, B along core columns: row 0's A from x == 1 to x == 0, row 1's from x == 0 to x == 1;
    # column 0's B from y == 0 to y == 1, the last column's from y == 1 to y == 0: no core sends both.
    assert [work[c]["A_sender"] for c in ((0, 0), (1, 0), (0, 1), (1, 1))] == [0, 1, 1, 0]
    assert [work[c]["B_sender"] for c in ((0, 0), (1, 0), (0, 1), (1, 1))] == [1, 0, 0, 1]
    assert work[(1, 1)]["A_sender_x"] == {"noc_x": [0, 1]} and work[(1, 1)]["B_sender_y"] == {"noc_y": [1, 1]}
    assert work[(0, 0)]["A_first_x"] == work[(0, 0)]["A_last_x"] == {"noc_x": [0, 0]}
    assert work[(0, 1)]["A_first_x"] == {"noc_x": [1, 1]} and work[(0, 1)]["A_last_x"] == {"noc_x": [1, 1]}
    assert work[(0, 0)]["A_sender_sem"] == {"semaphore": "A_sender_sem"}
    assert [s["name"] for s in get_attr(reader, "tt.semaphores")] == [
        "A_sender_sem", "A_receiver_sem", "B_sender_sem", "B_receiver_sem"]
    sender, receiver = _if_branches(reader.body)[0]
    assert sender == [counterpart("noc_async_read_page"), "noc_async_read_barrier", "noc_semaphore_wait",
                      "noc_semaphore_set",
                      "get_noc_multicast_addr", "get_noc_multicast_addr", "noc_async_write_multicast_linked",
                      "noc_semaphore_set", "noc_semaphore_set_multicast", "noc_async_write_barrier"]
    assert receiver == ["noc_semaphore_set", "get_noc_addr", "noc_semaphore_inc", "noc_semaphore_wait"]


@pytest.mark.parametrize("options", [{"PartitionTTWork": {"mode": "global"}},
                                     {"PartitionTTWork": {"mode": "shard", "core_grid": [2, 2]}},
                                     {"PlanTTMulticast": {"enabled": False}}])
def test_multicast_needs_an_even_shard_partition(options: dict[str, Any]) -> None:
    """3x3 blocks: a global partition, a shard over 2x2 cores (rectangles of unequal size, so cores of a row
    would not be at the same block at the same step) or the option off keep one DRAM read per core."""
    reader = run_until(matmul(96, 96, 64, 32, 32, 32), "LowerTTProtocols", **options)["main_reader"]
    assert not any(c.startswith("noc_async_write_multicast") for c in calls(reader))
    assert not get_attr(reader, "tt.semaphores")
    even = run_until(matmul(96, 96, 64, 32, 32, 32), "LowerTTProtocols", PartitionTTWork={"core_grid": [3, 3]})
    assert "noc_async_write_multicast_linked" in calls(even["main_reader"])


def test_lower_protocols_compute_matmul_in_one_dst_section() -> None:
    comp = run_until(matmul(64, 64, 128, 64, 64, 32), "LowerTTProtocols")["main_compute"]
    seq = calls(comp)
    assert "matmul_block" not in seq and "cb_wait_front" in seq
    acquire, commit = seq.index("tile_regs_acquire"), seq.index("tile_regs_commit")
    mm = seq.index(counterpart("matmul_tiles"))
    assert acquire < mm < commit
    assert seq.count("tile_regs_acquire") == 1  # the whole 2x2 block accumulates in one section


# ------------------------------------------------------------------------------------------------ stage E


def test_finalize_binds_runtime_args_with_per_core_values() -> None:
    mod = run_until(gemm(), "FinalizeTTSignature", PartitionTTWork={"mode": "global"})
    reader, compute = mod["main_reader"], mod["main_compute"]
    assert list(reader.params) == []
    assert get_attr(reader, "tt.runtime_args") == ["A_addr", "B_addr", "start", "count"]
    assert get_attr(compute, "tt.runtime_args") == ["count"]
    values = get_attr(reader, "tt.runtime_arg_values")
    assert values[1] == {"core": [1, 0], "args": [{"tensor": "A"}, {"tensor": "B"}, 1, 1]}
    first = reader.body.seq[0]
    assert isinstance(first, tirx.Bind) and str(first.var.name) == "A_addr"
    assert tirx.analysis.undefined_vars(reader.body, []) == []


def test_verify_accepts_the_pipeline_and_rejects_unbalanced_cbs() -> None:
    mod = run_until(gemm(), "VerifyTTKernels")
    writer = mod["main_writer"]

    def drop_pop(ev: Any) -> Any:
        return tirx.Evaluate(tirx.const(0, "int32")) if "cb_pop_front" in str(ev) else ev

    broken = writer.with_body(tvm_ffi.structural_map(writer.body, (tirx.Evaluate, drop_pop), order="post"))
    with pytest.raises(TileLangError, match=r"main_writer: loop over 'i': CB 16 is unbalanced per iteration: "
                                            r"cb_wait_front 16 page\(s\), cb_pop_front 0"):
        transform.VerifyTTKernels()(tvm.IRModule({"main_writer": broken}))


def test_verify_rejects_too_many_runtime_args() -> None:
    mod = run_until(gemm(), "FinalizeTTSignature")
    reader = mod["main_reader"].with_attr("tt.runtime_args", [f"a{i}" for i in range(device.MAX_RUNTIME_ARGS + 1)])
    with pytest.raises(TileLangError, match=r"main_reader: 342 runtime arguments, more than the 341"):
        transform.VerifyTTKernels()(tvm.IRModule({"main_reader": reader}))
