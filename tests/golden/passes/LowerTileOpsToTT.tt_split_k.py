# ruff: noqa
# Golden of LowerTileOpsToTT, case tt_split_k (lower_and_legalize_tt + optimize_tenstorrent):
# splitk_matmul(64, 64, 128, 32, 32, 32, 2, dtype='bfloat16'): T.atomic_add of a split-K group (turn semaphore).
# Written by `TILELANG_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/passes/test_pass_golden.py`; do not edit by hand. The pass's input, then its output.
# ---------------------------------------- after LowerTileOpsToTT
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((64, 128), "bfloat16"), B: T.Buffer((64, 128), "bfloat16"), C: T.Buffer((64, 64), "float32")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "B": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 1, "stride_mode": "tiled"}, "C": {"compile_time_args": 2, "page_bytes": 4096, "parameter": 2, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 128], "page_bytes": 2048, "page_layout": "tile", "pages": 8, "shape": [64, 128], "tile_cols": 4, "tile_rows": 2}, "B": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 128], "page_bytes": 2048, "page_layout": "tile", "pages": 8, "shape": [64, 128], "tile_cols": 4, "tile_rows": 2}, "C": {"blocks": [0, 0], "data_format": "Float32", "dram_format": "", "dtype": "float32", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 4096, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2}}, "tt.cbs": [{"block_pages": 1, "buffer": "A_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "A_shared#1"}, {"block_pages": 1, "buffer": "B_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 1, "page_bytes": 2048, "producer": "reader", "stream": "B_shared#1"}, {"block_pages": 1, "buffer": "C_local_atomic_in", "buffer_dtype": "float32", "class": "input", "consumer": "compute", "data_format": "Float32", "depth": 2, "dtype": "float32", "index": 2, "page_bytes": 4096, "producer": "reader", "stream": "C_local_atomic_in#1"}, {"block_pages": 1, "buffer": "C_local_atomic_sum", "buffer_dtype": "float32", "class": "output", "consumer": "writer", "data_format": "Float32", "depth": 2, "dtype": "float32", "index": 16, "page_bytes": 4096, "producer": "compute", "stream": "C_local_atomic_sum#1"}, {"block_pages": 1, "buffer": "B_shared_T", "buffer_dtype": "bfloat16", "class": "intermediate", "consumer": "compute", "data_format": "Float16_b", "depth": 1, "dtype": "bfloat16", "index": 24, "page_bytes": 2048, "producer": "compute", "stream": "B_shared_T#1"}, {"block_pages": 1, "buffer": "C_local", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 25, "page_bytes": 4096, "producer": "compute", "stream": "C_local#2"}, {"block_pages": 1, "buffer": "C_local", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 26, "page_bytes": 4096, "producer": "compute", "stream": "C_local#partial"}], "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 7, 0]], "tt.grid_blocks": [2, 2, 2], "tt.launch_vars": {"blockIdx.x": "bx", "blockIdx.y": "by", "blockIdx.z": "bz"}, "tt.partition_mode": "split", "tt.work_args": ["start", "count", "z"], "tt.work_partition": [{"core": [0, 0], "count": 1, "start": 0, "z": 0}, {"core": [1, 0], "count": 1, "start": 0, "z": 1}, {"core": [2, 0], "count": 1, "start": 1, "z": 0}, {"core": [3, 0], "count": 1, "start": 1, "z": 1}, {"core": [4, 0], "count": 1, "start": 2, "z": 0}, {"core": [5, 0], "count": 1, "start": 2, "z": 1}, {"core": [6, 0], "count": 1, "start": 3, "z": 0}, {"core": [7, 0], "count": 1, "start": 3, "z": 1}], "tt.work_values": [{"count": 1, "start": 0, "z": 0}, {"count": 1, "start": 0, "z": 1}, {"count": 1, "start": 1, "z": 0}, {"count": 1, "start": 1, "z": 1}, {"count": 1, "start": 2, "z": 0}, {"count": 1, "start": 2, "z": 1}, {"count": 1, "start": 3, "z": 0}, {"count": 1, "start": 3, "z": 1}]})
        count = T.int32()
        start = T.int32()
        z = T.int32()
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            bx: T.let[T.int32] = (start + i) % 2
            by: T.let[T.int32] = (start + i) // 2
            bz: T.let[T.int32] = z
            for ko in range(2):
                T.tt.read_block(0, A, by * 32 // 32 * 4 + (bz * 64 + ko * 32) // 32, 1, 1, 4, 2048)
                T.tt.read_block(1, B, bx * 32 // 32 * 4 + (bz * 64 + ko * 32) // 32, 1, 1, 4, 2048)
                T.tt.transpose_block(1, 24, 1, 1, 0)
                T.tt.matmul_block(0, 24, 25, 26, 1, 1, 1, ko, 2, 0, 1, 1, 1, 1, 0, -1, 0, 0, 0, 1, 0, 0, 0, 1)
            T.tt.read_block_atomic(2, C, by * 32 // 32 * 2 + bx * 32 // 32, 1, 1, 2, 4096, bz, i)
            T.tt.eltwise_block(2, 25, 16, 1, "add", "none", "none", "none", 0, "none", T.float32(0.0), 1, 1, 1, 1, 0)
            T.tt.write_block_atomic(16, C, by * 32 // 32 * 2 + bx * 32 // 32, 1, 1, 2, 4096, bz, 2)
