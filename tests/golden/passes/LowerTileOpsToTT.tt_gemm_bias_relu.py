# ruff: noqa
# Golden of LowerTileOpsToTT, case tt_gemm_bias_relu (lower_and_legalize_tt + optimize_tenstorrent):
# matmul_bias_relu(64, 64, 64, 32, 32, 32): a GEMM, then a binary op with a relu.
# Written by `TILELANG_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/passes/test_pass_golden.py`; do not edit by hand. The pass's input, then its output.
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((64, 64), "bfloat16"), B: T.Buffer((64, 64), "bfloat16"), Bias: T.Buffer((64, 64), "bfloat16"), D: T.Buffer((64, 64), "bfloat16")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "B": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 1, "stride_mode": "tiled"}, "Bias": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 2, "stride_mode": "tiled"}, "D": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 3, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "B": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "Bias": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "D": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}}, "tt.cbs": [{"block_pages": 1, "buffer": "A_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "A_shared#1"}, {"block_pages": 1, "buffer": "B_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 1, "page_bytes": 2048, "producer": "reader", "stream": "B_shared#1"}, {"block_pages": 1, "buffer": "Bias_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 2, "page_bytes": 2048, "producer": "reader", "stream": "Bias_shared#1"}, {"block_pages": 1, "buffer": "D_local", "buffer_dtype": "bfloat16", "class": "output", "consumer": "writer", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 16, "page_bytes": 2048, "producer": "compute", "stream": "D_local#1"}, {"block_pages": 1, "buffer": "C_local", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 24, "page_bytes": 4096, "producer": "compute", "stream": "C_local#2"}], "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 1]], "tt.grid_blocks": [2, 2, 1], "tt.launch_vars": {"blockIdx.x": "bx", "blockIdx.y": "by"}, "tt.partition_mode": "shard", "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 0, "cols": 1, "core": [0, 1], "count": 1, "row0": 1, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 1], "count": 1, "row0": 1, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}, {"col0": 1, "cols": 1, "count": 1, "row0": 0}, {"col0": 0, "cols": 1, "count": 1, "row0": 1}, {"col0": 1, "cols": 1, "count": 1, "row0": 1}]})
        count = T.int32()
        col0 = T.int32()
        cols = T.int32()
        row0 = T.int32()
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            bx: T.let[T.int32] = col0 + i % cols
            by: T.let[T.int32] = row0 + i // cols
            A_shared = T.alloc_shared((32, 32), "bfloat16")
            B_shared = T.alloc_shared((32, 32), "bfloat16")
            Bias_shared = T.alloc_shared((32, 32), "bfloat16")
            C_local = T.alloc_buffer((32, 32), scope="local.fragment")
            D_local = T.alloc_buffer((32, 32), "bfloat16", scope="local.fragment")
            T.tile.fill(C_local[0:32, 0:32], T.float32(0.0))
            for k in T.serial(2, annotations={"num_stages": 2}):
                T.tile.copy(A_shared[0:32, 0:32], A[by * 32:by * 32 + 32, k * 32:k * 32 + 32])
                T.tile.copy(B_shared[0:32, 0:32], B[k * 32:k * 32 + 32, bx * 32:bx * 32 + 32])
                T.tile.gemm(C_local[0:32, 0:32], A_shared[0:32, 0:32], B_shared[0:32, 0:32], C_local[0:32, 0:32], False, False, T.float32(1.0), T.float32(1.0))
            T.tile.copy(Bias_shared[0:32, 0:32], Bias[by * 32:by * 32 + 32, bx * 32:bx * 32 + 32])
            for i_1, j in T.grid(32, 32):
                D_local[i_1, j] = T.Cast("bfloat16", T.max(C_local[i_1, j] + T.Cast("float32", Bias_shared[i_1, j]), T.float32(0.0)))
            T.tile.copy(D[by * 32:by * 32 + 32, bx * 32:bx * 32 + 32], D_local[0:32, 0:32])

# ---------------------------------------- after LowerTileOpsToTT
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((64, 64), "bfloat16"), B: T.Buffer((64, 64), "bfloat16"), Bias: T.Buffer((64, 64), "bfloat16"), D: T.Buffer((64, 64), "bfloat16")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "B": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 1, "stride_mode": "tiled"}, "Bias": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 2, "stride_mode": "tiled"}, "D": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 3, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "B": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "Bias": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "D": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}}, "tt.cbs": [{"block_pages": 1, "buffer": "A_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "A_shared#1"}, {"block_pages": 1, "buffer": "B_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 1, "page_bytes": 2048, "producer": "reader", "stream": "B_shared#1"}, {"block_pages": 1, "buffer": "Bias_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 2, "page_bytes": 2048, "producer": "reader", "stream": "Bias_shared#1"}, {"block_pages": 1, "buffer": "D_local", "buffer_dtype": "bfloat16", "class": "output", "consumer": "writer", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 16, "page_bytes": 2048, "producer": "compute", "stream": "D_local#1"}, {"block_pages": 1, "buffer": "C_local", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 24, "page_bytes": 4096, "producer": "compute", "stream": "C_local#2"}], "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 1]], "tt.grid_blocks": [2, 2, 1], "tt.launch_vars": {"blockIdx.x": "bx", "blockIdx.y": "by"}, "tt.partition_mode": "shard", "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 0, "cols": 1, "core": [0, 1], "count": 1, "row0": 1, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 1], "count": 1, "row0": 1, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}, {"col0": 1, "cols": 1, "count": 1, "row0": 0}, {"col0": 0, "cols": 1, "count": 1, "row0": 1}, {"col0": 1, "cols": 1, "count": 1, "row0": 1}]})
        count = T.int32()
        col0 = T.int32()
        cols = T.int32()
        row0 = T.int32()
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            bx: T.let[T.int32] = col0 + i % cols
            by: T.let[T.int32] = row0 + i // cols
            for k in T.serial(2, annotations={"num_stages": 2}):
                T.tt.read_block(0, A, by * 32 // 32 * 2 + k * 32 // 32, 1, 1, 2, 2048)
                T.tt.read_block(1, B, k * 32 // 32 * 2 + bx * 32 // 32, 1, 1, 2, 2048)
                T.tt.matmul_block(0, 1, 24, -1, 1, 1, 1, k, 2, 0, 1, 1, 1, 1, 0, -1, 0, 0, 0, 1, 0, 0, 0, 1)
            T.tt.read_block(2, Bias, by * 32 // 32 * 2 + bx * 32 // 32, 1, 1, 2, 2048)
            T.tt.eltwise_block(24, 2, 16, 1, "add", "none", "relu", "none", 0, "none", 0, 0, "none", T.float32(0.0), 1, 1, 1, 1, 0)
            T.tt.write_block(16, D, by * 32 // 32 * 2 + bx * 32 // 32, 1, 1, 2, 2048)
