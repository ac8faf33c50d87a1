# ruff: noqa
# Golden of InferTTLayout, case tt_bshd (lower_and_legalize_tt + optimize_tenstorrent):
# bshd_exp(2, 64, 2, 64, 32): (batch, seq, heads, dim) tensors sliced per head, laid out row-major, read by rows and tilized on chip, untilized and written by rows.
# Written by `TILELANG_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/passes/test_pass_golden.py`; do not edit by hand. The pass's input, then its output.
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main(Q: T.Buffer((2, 64, 2, 64), "bfloat16"), Out: T.Buffer((2, 64, 2, 64), "bfloat16")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128})
        bx = T.launch_thread("blockIdx.x", 2)
        by = T.launch_thread("blockIdx.y", 2)
        bz = T.launch_thread("blockIdx.z", 2)
        Q_shared = T.alloc_shared((32, 64), "bfloat16")
        O_local = T.alloc_buffer((32, 64), "bfloat16", scope="local.fragment")
        T.tile.copy(Q_shared[0:32, 0:64], Q[bz, bx * 32:bx * 32 + 32, by, 0:64])
        for i, j in T.grid(32, 64):
            O_local[i, j] = T.exp(Q_shared[i, j])
        T.tile.copy(Out[bz, bx * 32:bx * 32 + 32, by, 0:64], O_local[0:32, 0:64])

# ---------------------------------------- after InferTTLayout
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main(Q: T.Buffer((2, 64, 2, 64), "bfloat16"), Out: T.Buffer((2, 64, 2, 64), "bfloat16")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.buffers": {"Out": {"blocks": [0, 0, 0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "padded_shape": [2, 64, 2, 64], "page_bytes": 128, "page_layout": "row_major", "pages": 256, "shape": [2, 64, 2, 64], "tile_cols": 2, "tile_rows": 8, "transposed": False}, "Q": {"blocks": [0, 0, 0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "padded_shape": [2, 64, 2, 64], "page_bytes": 128, "page_layout": "row_major", "pages": 256, "shape": [2, 64, 2, 64], "tile_cols": 2, "tile_rows": 8, "transposed": False}}})
        bx = T.launch_thread("blockIdx.x", 2)
        by = T.launch_thread("blockIdx.y", 2)
        bz = T.launch_thread("blockIdx.z", 2)
        Q_shared = T.alloc_shared((32, 64), "bfloat16")
        O_local = T.alloc_buffer((32, 64), "bfloat16", scope="local.fragment")
        T.tile.copy(Q_shared[0:32, 0:64], Q[bz, bx * 32:bx * 32 + 32, by, 0:64])
        for i, j in T.grid(32, 64):
            O_local[i, j] = T.exp(Q_shared[i, j])
        T.tile.copy(Out[bz, bx * 32:bx * 32 + 32, by, 0:64], O_local[0:32, 0:64])
