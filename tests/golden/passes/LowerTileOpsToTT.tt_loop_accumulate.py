# ruff: noqa
# Golden of LowerTileOpsToTT, case tt_loop_accumulate (lower_and_legalize_tt + optimize_tenstorrent):
# accumulate_blocks(64, 128, 32, 64): acc = acc + A_s carried across the loop, copied on chip for the writer after it.
# Written by `TILELANG_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/passes/test_pass_golden.py`; do not edit by hand. The pass's input, then its output.
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((64, 128), "bfloat16"), C: T.Buffer((64, 64), "float32")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "C": {"compile_time_args": 2, "page_bytes": 4096, "parameter": 1, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 128], "page_bytes": 2048, "page_layout": "tile", "pages": 8, "shape": [64, 128], "tile_cols": 4, "tile_rows": 2, "transposed": False}, "C": {"blocks": [0, 0], "data_format": "Float32", "dram_format": "", "dtype": "float32", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 4096, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}}, "tt.cbs": [{"block_pages": 2, "buffer": "A_s", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "A_s#1"}, {"block_pages": 2, "buffer": "acc_out", "buffer_dtype": "float32", "class": "output", "consumer": "writer", "data_format": "Float32", "depth": 4, "dtype": "float32", "index": 16, "page_bytes": 4096, "producer": "compute", "stream": "acc_out#1"}, {"block_pages": 2, "buffer": "acc", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 4, "dtype": "float32", "index": 24, "page_bytes": 4096, "producer": "compute", "stream": "acc#1"}], "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 0]], "tt.grid_blocks": [2, 1, 1], "tt.launch_vars": {"blockIdx.x": "by"}, "tt.partition_mode": "shard", "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}, {"col0": 1, "cols": 1, "count": 1, "row0": 0}]})
        count = T.int32()
        col0 = T.int32()
        cols = T.int32()
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            by: T.let[T.int32] = col0 + i % cols
            A_s = T.alloc_shared((32, 64), "bfloat16")
            acc = T.alloc_buffer((32, 64), scope="local.fragment")
            T.tile.fill(acc[0:32, 0:64], T.float32(0.0))
            for k in range(2):
                T.tile.copy(A_s[0:32, 0:64], A[by * 32:by * 32 + 32, k * 64:k * 64 + 64])
                for i_1, j in T.grid(32, 64):
                    acc[i_1, j] = acc[i_1, j] + T.Cast("float32", A_s[i_1, j])
            T.tile.copy(C[by * 32:by * 32 + 32, 0:64], acc[0:32, 0:64])

# ---------------------------------------- after LowerTileOpsToTT
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((64, 128), "bfloat16"), C: T.Buffer((64, 64), "float32")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "C": {"compile_time_args": 2, "page_bytes": 4096, "parameter": 1, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 128], "page_bytes": 2048, "page_layout": "tile", "pages": 8, "shape": [64, 128], "tile_cols": 4, "tile_rows": 2, "transposed": False}, "C": {"blocks": [0, 0], "data_format": "Float32", "dram_format": "", "dtype": "float32", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 4096, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}}, "tt.cbs": [{"block_pages": 2, "buffer": "A_s", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "A_s#1"}, {"block_pages": 2, "buffer": "acc_out", "buffer_dtype": "float32", "class": "output", "consumer": "writer", "data_format": "Float32", "depth": 4, "dtype": "float32", "index": 16, "page_bytes": 4096, "producer": "compute", "stream": "acc_out#1"}, {"block_pages": 2, "buffer": "acc", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 4, "dtype": "float32", "index": 24, "page_bytes": 4096, "producer": "compute", "stream": "acc#1"}], "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 0]], "tt.grid_blocks": [2, 1, 1], "tt.launch_vars": {"blockIdx.x": "by"}, "tt.partition_mode": "shard", "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}, {"col0": 1, "cols": 1, "count": 1, "row0": 0}]})
        count = T.int32()
        col0 = T.int32()
        cols = T.int32()
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            by: T.let[T.int32] = col0 + i % cols
            T.tt.fill_block(24, 2, T.float32(0.0), 0)
            for k in range(2):
                T.tt.read_block(0, A, by * 32 // 32 * 4 + k * 64 // 32, 1, 2, 4, 2048)
                T.tt.eltwise_block(24, 0, 24, 2, "add", "none", "none", "none", 0, "none", 0, 0, "none", T.float32(0.0), 1, 1, 1, 1, 0)
            T.tt.eltwise_block(24, 24, 16, 2, "none", "none", "none", "none", 0, "none", 0, 0, "none", T.float32(0.0), 1, 1, 1, 1, 0)
            T.tt.write_block(16, C, by * 32 // 32 * 2, 1, 2, 2, 4096)
