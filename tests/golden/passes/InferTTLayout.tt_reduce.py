# ruff: noqa
# Golden of InferTTLayout, case tt_reduce (lower_and_legalize_tt + optimize_tenstorrent):
# row_reduce(64, 64, 32, 'sum', accumulate=True): two row sums into a column vector (the scaler constant, clear=False), written to a 1-D tensor through an on-chip transpose.
# Written by `TILELANG_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/passes/test_pass_golden.py`; do not edit by hand. The pass's input, then its output.
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((64, 64), "bfloat16"), B: T.Buffer((64, 64), "bfloat16"), Out: T.Buffer((64,), "float32"), reduce_scaler: T.Buffer((32, 32), "bfloat16", layout=None)):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.constants": {"reduce_scaler": {"rows": [0, 16], "value": 1.0}}})
        bx = T.launch_thread("blockIdx.x", 2)
        A_shared = T.alloc_shared((32, 64), "bfloat16")
        B_shared = T.alloc_shared((32, 64), "bfloat16")
        row = T.alloc_buffer((32,), scope="local.fragment")
        T.tile.copy(A_shared[0:32, 0:64], A[bx * 32:bx * 32 + 32, 0:64])
        T.tile.sum(row[0:32], A_shared[0:32, 0:64], [1], False)
        T.tile.copy(B_shared[0:32, 0:64], B[bx * 32:bx * 32 + 32, 0:64])
        T.tile.sum(row[0:32], B_shared[0:32, 0:64], [1], True)
        T.tile.copy(Out[bx * 32:bx * 32 + 32], row[0:32])

# ---------------------------------------- after InferTTLayout
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((64, 64), "bfloat16"), B: T.Buffer((64, 64), "bfloat16"), Out: T.Buffer((64,), "float32"), reduce_scaler: T.Buffer((32, 32), "bfloat16", layout=None)):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "B": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "Out": {"blocks": [0], "data_format": "Float32", "dram_format": "", "dtype": "float32", "layout": "interleaved", "memory": "DRAM", "padded_shape": [64], "page_bytes": 4096, "page_layout": "tile", "pages": 2, "shape": [64], "tile_cols": 2, "tile_rows": 1, "transposed": False}, "reduce_scaler": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "padded_shape": [32, 32], "page_bytes": 2048, "page_layout": "tile", "pages": 1, "shape": [32, 32], "tile_cols": 1, "tile_rows": 1, "transposed": False}}, "tt.constants": {"reduce_scaler": {"rows": [0, 16], "value": 1.0}}})
        bx = T.launch_thread("blockIdx.x", 2)
        A_shared = T.alloc_shared((32, 64), "bfloat16")
        B_shared = T.alloc_shared((32, 64), "bfloat16")
        row = T.alloc_buffer((32,), scope="local.fragment")
        T.tile.copy(A_shared[0:32, 0:64], A[bx * 32:bx * 32 + 32, 0:64])
        T.tile.sum(row[0:32], A_shared[0:32, 0:64], [1], False)
        T.tile.copy(B_shared[0:32, 0:64], B[bx * 32:bx * 32 + 32, 0:64])
        T.tile.sum(row[0:32], B_shared[0:32, 0:64], [1], True)
        T.tile.copy(Out[bx * 32:bx * 32 + 32], row[0:32])
