# ruff: noqa
# Golden of GridToPersistentTT, case tt_gemm (lower_and_legalize_tt + optimize_tenstorrent):
# matmul(64, 64, 64, 32, 32, 32, dtype='bfloat16'): 2x2 blocks, 2 K steps, A/B multicast.
# Written by `TILELANG_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/passes/test_pass_golden.py`; do not edit by hand. The pass's input, then its output.
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((64, 64), "bfloat16"), B: T.Buffer((64, 64), "bfloat16"), C: T.Buffer((64, 64), "bfloat16")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "B": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 1, "stride_mode": "tiled"}, "C": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 2, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "B": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "C": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}}, "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 1]], "tt.grid_blocks": [2, 2, 1], "tt.partition_mode": "shard", "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 0, "cols": 1, "core": [0, 1], "count": 1, "row0": 1, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 1], "count": 1, "row0": 1, "rows": 1}]})
        bx = T.launch_thread("blockIdx.x", 2)
        by = T.launch_thread("blockIdx.y", 2)
        A_shared = T.alloc_shared((32, 32), "bfloat16")
        B_shared = T.alloc_shared((32, 32), "bfloat16")
        C_local = T.alloc_buffer((32, 32), scope="local.fragment")
        T.tile.fill(C_local[0:32, 0:32], T.float32(0.0))
        for k in T.serial(2, annotations={"num_stages": 3}):
            T.tile.copy(A_shared[0:32, 0:32], A[by * 32:by * 32 + 32, k * 32:k * 32 + 32])
            T.tile.copy(B_shared[0:32, 0:32], B[k * 32:k * 32 + 32, bx * 32:bx * 32 + 32])
            T.tile.gemm(C_local[0:32, 0:32], A_shared[0:32, 0:32], B_shared[0:32, 0:32], C_local[0:32, 0:32], False, False, T.float32(1.0), T.float32(1.0))
        T.tile.copy(C[by * 32:by * 32 + 32, bx * 32:bx * 32 + 32], C_local[0:32, 0:32])

# ---------------------------------------- after GridToPersistentTT
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((64, 64), "bfloat16"), B: T.Buffer((64, 64), "bfloat16"), C: T.Buffer((64, 64), "bfloat16")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "B": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 1, "stride_mode": "tiled"}, "C": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 2, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "B": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "C": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}}, "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 1]], "tt.grid_blocks": [2, 2, 1], "tt.launch_vars": {"blockIdx.x": "bx", "blockIdx.y": "by"}, "tt.partition_mode": "shard", "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 0, "cols": 1, "core": [0, 1], "count": 1, "row0": 1, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 1], "count": 1, "row0": 1, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}, {"col0": 1, "cols": 1, "count": 1, "row0": 0}, {"col0": 0, "cols": 1, "count": 1, "row0": 1}, {"col0": 1, "cols": 1, "count": 1, "row0": 1}]})
        count = T.int32()
        col0 = T.int32()
        cols = T.int32()
        row0 = T.int32()
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            bx: T.let[T.int32] = col0 + i % cols
            by: T.let[T.int32] = row0 + i // cols
            A_shared = T.alloc_shared((32, 32), "bfloat16")
            B_shared = T.alloc_shared((32, 32), "bfloat16")
            C_local = T.alloc_buffer((32, 32), scope="local.fragment")
            T.tile.fill(C_local[0:32, 0:32], T.float32(0.0))
            for k in T.serial(2, annotations={"num_stages": 3}):
                T.tile.copy(A_shared[0:32, 0:32], A[by * 32:by * 32 + 32, k * 32:k * 32 + 32])
                T.tile.copy(B_shared[0:32, 0:32], B[k * 32:k * 32 + 32, bx * 32:bx * 32 + 32])
                T.tile.gemm(C_local[0:32, 0:32], A_shared[0:32, 0:32], B_shared[0:32, 0:32], C_local[0:32, 0:32], False, False, T.float32(1.0), T.float32(1.0))
            T.tile.copy(C[by * 32:by * 32 + 32, bx * 32:bx * 32 + 32], C_local[0:32, 0:32])
