# ruff: noqa
# Golden of BuildTTTileDataflow, case tt_reduce (lower_and_legalize_tt + optimize_tenstorrent):
# row_reduce(64, 64, 32, 'sum', accumulate=True): two row sums into a column vector (the scaler constant, clear=False), written to a 1-D tensor through an on-chip transpose.
# Written by `TILELANG_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/passes/test_pass_golden.py`; do not edit by hand. The pass's input, then its output.
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((64, 64), "bfloat16"), B: T.Buffer((64, 64), "bfloat16"), Out: T.Buffer((64,), "float32"), reduce_scaler: T.Buffer((32, 32), "bfloat16", layout=None)):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "B": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 1, "stride_mode": "tiled"}, "Out": {"compile_time_args": 2, "page_bytes": 4096, "parameter": 2, "stride_mode": "tiled"}, "reduce_scaler": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 3, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "B": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "Out": {"blocks": [0], "data_format": "Float32", "dram_format": "", "dtype": "float32", "layout": "interleaved", "memory": "DRAM", "padded_shape": [64], "page_bytes": 4096, "page_layout": "tile", "pages": 2, "shape": [64], "tile_cols": 2, "tile_rows": 1, "transposed": False}, "reduce_scaler": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "padded_shape": [32, 32], "page_bytes": 2048, "page_layout": "tile", "pages": 1, "shape": [32, 32], "tile_cols": 1, "tile_rows": 1, "transposed": False}}, "tt.constants": {"reduce_scaler": {"rows": [0, 16], "value": 1.0}}, "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 0]], "tt.grid_blocks": [2, 1, 1], "tt.launch_vars": {"blockIdx.x": "bx"}, "tt.partition_mode": "shard", "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}, {"col0": 1, "cols": 1, "count": 1, "row0": 0}]})
        count = T.int32()
        col0 = T.int32()
        cols = T.int32()
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            bx: T.let[T.int32] = col0 + i % cols
            A_shared = T.alloc_shared((32, 64), "bfloat16")
            B_shared = T.alloc_shared((32, 64), "bfloat16")
            row = T.alloc_buffer((32,), scope="local.fragment")
            T.tile.copy(A_shared[0:32, 0:64], A[bx * 32:bx * 32 + 32, 0:64])
            T.tile.sum(row[0:32], A_shared[0:32, 0:64], [1], False)
            T.tile.copy(B_shared[0:32, 0:64], B[bx * 32:bx * 32 + 32, 0:64])
            T.tile.sum(row[0:32], B_shared[0:32, 0:64], [1], True)
            T.tile.copy(Out[bx * 32:bx * 32 + 32], row[0:32])

# ---------------------------------------- after BuildTTTileDataflow
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((64, 64), "bfloat16"), B: T.Buffer((64, 64), "bfloat16"), Out: T.Buffer((64,), "float32"), reduce_scaler: T.Buffer((32, 32), "bfloat16", layout=None)):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "B": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 1, "stride_mode": "tiled"}, "Out": {"compile_time_args": 2, "page_bytes": 4096, "parameter": 2, "stride_mode": "tiled"}, "reduce_scaler": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 3, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "B": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "Out": {"blocks": [0], "data_format": "Float32", "dram_format": "", "dtype": "float32", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64], "page_bytes": 4096, "page_layout": "tile", "pages": 2, "shape": [64], "tile_cols": 2, "tile_rows": 1, "transposed": False}, "reduce_scaler": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [32, 32], "page_bytes": 2048, "page_layout": "tile", "pages": 1, "shape": [32, 32], "tile_cols": 1, "tile_rows": 1, "transposed": False}}, "tt.cbs": [{"block_pages": 2, "buffer": "A_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "A_shared#1"}, {"block_pages": 1, "buffer": "reduce_scaler_tile", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 1, "page_bytes": 2048, "producer": "reader", "stream": "reduce_scaler_tile#1"}, {"block_pages": 2, "buffer": "B_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 2, "page_bytes": 2048, "producer": "reader", "stream": "B_shared#1"}, {"block_pages": 1, "buffer": "row_T", "buffer_dtype": "float32", "class": "output", "consumer": "writer", "data_format": "Float32", "depth": 2, "dtype": "float32", "index": 16, "page_bytes": 4096, "producer": "compute", "stream": "row_T#1"}, {"block_pages": 1, "buffer": "row", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 24, "page_bytes": 4096, "producer": "compute", "stream": "row#1"}, {"block_pages": 1, "buffer": "row", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 25, "page_bytes": 4096, "producer": "compute", "stream": "row#2"}], "tt.constants": {"reduce_scaler": {"rows": [0, 16], "value": 1.0}}, "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 0]], "tt.grid_blocks": [2, 1, 1], "tt.launch_vars": {"blockIdx.x": "bx"}, "tt.partition_mode": "shard", "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}, {"col0": 1, "cols": 1, "count": 1, "row0": 0}]})
        count = T.int32()
        col0 = T.int32()
        cols = T.int32()
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            bx: T.let[T.int32] = col0 + i % cols
            A_shared = T.alloc_shared((32, 64), "bfloat16")
            B_shared = T.alloc_shared((32, 64), "bfloat16")
            row = T.alloc_buffer((32,), scope="local.fragment")
            T.tile.copy(A_shared[0:32, 0:64], A[bx * 32:bx * 32 + 32, 0:64])
            T.tile.sum(row[0:32], A_shared[0:32, 0:64], [1], False)
            T.tile.copy(B_shared[0:32, 0:64], B[bx * 32:bx * 32 + 32, 0:64])
            T.tile.sum(row[0:32], B_shared[0:32, 0:64], [1], True)
            T.tile.copy(Out[bx * 32:bx * 32 + 32], row[0:32])
