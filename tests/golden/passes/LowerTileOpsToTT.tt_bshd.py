# ruff: noqa
# Golden of LowerTileOpsToTT, case tt_bshd (lower_and_legalize_tt + optimize_tenstorrent):
# bshd_exp(2, 64, 2, 64, 32): (batch, seq, heads, dim) tensors sliced per head, laid out row-major, read by rows and tilized on chip, untilized and written by rows.
# Written by `TILELANG_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/passes/test_pass_golden.py`; do not edit by hand. The pass's input, then its output.
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main(Q: T.Buffer((2, 64, 2, 64), "bfloat16"), Out: T.Buffer((2, 64, 2, 64), "bfloat16")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"Out": {"compile_time_args": 2, "page_bytes": 128, "parameter": 1, "stride_mode": "row_major"}, "Q": {"compile_time_args": 2, "page_bytes": 128, "parameter": 0, "stride_mode": "row_major"}}, "tt.buffers": {"Out": {"blocks": [0, 0, 0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [2, 64, 2, 64], "page_bytes": 128, "page_layout": "row_major", "pages": 256, "shape": [2, 64, 2, 64], "tile_cols": 2, "tile_rows": 8, "transposed": False}, "Q": {"blocks": [0, 0, 0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [2, 64, 2, 64], "page_bytes": 128, "page_layout": "row_major", "pages": 256, "shape": [2, 64, 2, 64], "tile_cols": 2, "tile_rows": 8, "transposed": False}}, "tt.cbs": [{"block_pages": 2, "buffer": "Q_shared_rm", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "Q_shared_rm#1"}, {"block_pages": 2, "buffer": "O_local_rm", "buffer_dtype": "bfloat16", "class": "output", "consumer": "writer", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 16, "page_bytes": 2048, "producer": "compute", "stream": "O_local_rm#1"}, {"block_pages": 2, "buffer": "Q_shared", "buffer_dtype": "bfloat16", "class": "intermediate", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 24, "page_bytes": 2048, "producer": "compute", "stream": "Q_shared#1"}, {"block_pages": 2, "buffer": "O_local", "buffer_dtype": "bfloat16", "class": "intermediate", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 25, "page_bytes": 2048, "producer": "compute", "stream": "O_local#1"}], "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 3]], "tt.grid_blocks": [2, 2, 2], "tt.launch_vars": {"blockIdx.x": "bx", "blockIdx.y": "by", "blockIdx.z": "bz"}, "tt.partition_mode": "shard", "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 0, "cols": 1, "core": [0, 1], "count": 1, "row0": 1, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 1], "count": 1, "row0": 1, "rows": 1}, {"col0": 0, "cols": 1, "core": [0, 2], "count": 1, "row0": 2, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 2], "count": 1, "row0": 2, "rows": 1}, {"col0": 0, "cols": 1, "core": [0, 3], "count": 1, "row0": 3, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 3], "count": 1, "row0": 3, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}, {"col0": 1, "cols": 1, "count": 1, "row0": 0}, {"col0": 0, "cols": 1, "count": 1, "row0": 1}, {"col0": 1, "cols": 1, "count": 1, "row0": 1}, {"col0": 0, "cols": 1, "count": 1, "row0": 2}, {"col0": 1, "cols": 1, "count": 1, "row0": 2}, {"col0": 0, "cols": 1, "count": 1, "row0": 3}, {"col0": 1, "cols": 1, "count": 1, "row0": 3}]})
        count = T.int32()
        col0 = T.int32()
        cols = T.int32()
        row0 = T.int32()
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            bx: T.let[T.int32] = col0 + i % cols
            by: T.let[T.int32] = (row0 + i // cols) % 2
            bz: T.let[T.int32] = (row0 + i // cols) // 2
            Q_shared = T.alloc_shared((32, 64), "bfloat16")
            O_local = T.alloc_buffer((32, 64), "bfloat16", scope="local.fragment")
            T.tile.copy(Q_shared[0:32, 0:64], Q[bz, bx * 32:bx * 32 + 32, by, 0:64])
            for i_1, j in T.grid(32, 64):
                O_local[i_1, j] = T.exp(Q_shared[i_1, j])
            T.tile.copy(Out[bz, bx * 32:bx * 32 + 32, by, 0:64], O_local[0:32, 0:64])

# ---------------------------------------- after LowerTileOpsToTT
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main(Q: T.Buffer((2, 64, 2, 64), "bfloat16"), Out: T.Buffer((2, 64, 2, 64), "bfloat16")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"Out": {"compile_time_args": 2, "page_bytes": 128, "parameter": 1, "stride_mode": "row_major"}, "Q": {"compile_time_args": 2, "page_bytes": 128, "parameter": 0, "stride_mode": "row_major"}}, "tt.buffers": {"Out": {"blocks": [0, 0, 0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [2, 64, 2, 64], "page_bytes": 128, "page_layout": "row_major", "pages": 256, "shape": [2, 64, 2, 64], "tile_cols": 2, "tile_rows": 8, "transposed": False}, "Q": {"blocks": [0, 0, 0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [2, 64, 2, 64], "page_bytes": 128, "page_layout": "row_major", "pages": 256, "shape": [2, 64, 2, 64], "tile_cols": 2, "tile_rows": 8, "transposed": False}}, "tt.cbs": [{"block_pages": 2, "buffer": "Q_shared_rm", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "Q_shared_rm#1"}, {"block_pages": 2, "buffer": "O_local_rm", "buffer_dtype": "bfloat16", "class": "output", "consumer": "writer", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 16, "page_bytes": 2048, "producer": "compute", "stream": "O_local_rm#1"}, {"block_pages": 2, "buffer": "Q_shared", "buffer_dtype": "bfloat16", "class": "intermediate", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 24, "page_bytes": 2048, "producer": "compute", "stream": "Q_shared#1"}, {"block_pages": 2, "buffer": "O_local", "buffer_dtype": "bfloat16", "class": "intermediate", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 25, "page_bytes": 2048, "producer": "compute", "stream": "O_local#1"}], "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 3]], "tt.grid_blocks": [2, 2, 2], "tt.launch_vars": {"blockIdx.x": "bx", "blockIdx.y": "by", "blockIdx.z": "bz"}, "tt.partition_mode": "shard", "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 0, "cols": 1, "core": [0, 1], "count": 1, "row0": 1, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 1], "count": 1, "row0": 1, "rows": 1}, {"col0": 0, "cols": 1, "core": [0, 2], "count": 1, "row0": 2, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 2], "count": 1, "row0": 2, "rows": 1}, {"col0": 0, "cols": 1, "core": [0, 3], "count": 1, "row0": 3, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 3], "count": 1, "row0": 3, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}, {"col0": 1, "cols": 1, "count": 1, "row0": 0}, {"col0": 0, "cols": 1, "count": 1, "row0": 1}, {"col0": 1, "cols": 1, "count": 1, "row0": 1}, {"col0": 0, "cols": 1, "count": 1, "row0": 2}, {"col0": 1, "cols": 1, "count": 1, "row0": 2}, {"col0": 0, "cols": 1, "count": 1, "row0": 3}, {"col0": 1, "cols": 1, "count": 1, "row0": 3}]})
        count = T.int32()
        col0 = T.int32()
        cols = T.int32()
        row0 = T.int32()
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            bx: T.let[T.int32] = col0 + i % cols
            by: T.let[T.int32] = (row0 + i // cols) % 2
            bz: T.let[T.int32] = (row0 + i // cols) // 2
            T.tt.read_rows_block(0, Q, (bz * 64 + bx * 32) * 2 + by, 2, 1, 2, 128, 32)
            T.tt.tilize_rows(0, 24, 1, 2, 0)
            T.tt.eltwise_block(24, 24, 25, 2, "none", "none", "exp", "none", 0, "none", 0, 0, "none", T.float32(0.0), 1, 1, 1, 1, 0)
            T.tt.untilize_rows(25, 16, 1, 2, 0)
            T.tt.write_rows_block(16, Out, (bz * 64 + bx * 32) * 2 + by, 2, 1, 2, 128, 32)
