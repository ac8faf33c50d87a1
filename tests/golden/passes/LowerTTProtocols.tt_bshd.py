# ruff: noqa
# Golden of LowerTTProtocols, case tt_bshd (lower_and_legalize_tt + optimize_tenstorrent):
# bshd_exp(2, 64, 2, 64, 32): (batch, seq, heads, dim) tensors sliced per head, laid out row-major, read by rows and tilized on chip, untilized and written by rows.
# Written by `TILELANG_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/passes/test_pass_golden.py`; do not edit by hand. The pass's input, then its output.
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main_compute(Q: T.Buffer((2, 64, 2, 64), "bfloat16"), Out: T.Buffer((2, 64, 2, 64), "bfloat16")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"Out": {"compile_time_args": 2, "page_bytes": 128, "parameter": 1, "stride_mode": "row_major"}, "Q": {"compile_time_args": 2, "page_bytes": 128, "parameter": 0, "stride_mode": "row_major"}}, "tt.buffers": {"Out": {"blocks": [0, 0, 0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [2, 64, 2, 64], "page_bytes": 128, "page_layout": "row_major", "pages": 256, "shape": [2, 64, 2, 64], "tile_cols": 2, "tile_rows": 8, "transposed": False}, "Q": {"blocks": [0, 0, 0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [2, 64, 2, 64], "page_bytes": 128, "page_layout": "row_major", "pages": 256, "shape": [2, 64, 2, 64], "tile_cols": 2, "tile_rows": 8, "transposed": False}}, "tt.cbs": [{"block_pages": 2, "buffer": "Q_shared_rm", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "Q_shared_rm#1"}, {"block_pages": 2, "buffer": "O_local_rm", "buffer_dtype": "bfloat16", "class": "output", "consumer": "writer", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 16, "page_bytes": 2048, "producer": "compute", "stream": "O_local_rm#1"}, {"block_pages": 2, "buffer": "Q_shared", "buffer_dtype": "bfloat16", "class": "intermediate", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 24, "page_bytes": 2048, "producer": "compute", "stream": "Q_shared#1"}, {"block_pages": 2, "buffer": "O_local", "buffer_dtype": "bfloat16", "class": "intermediate", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 25, "page_bytes": 2048, "producer": "compute", "stream": "O_local#1"}], "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 3]], "tt.grid_blocks": [2, 2, 2], "tt.kernel_role": "compute", "tt.launch_vars": {"blockIdx.x": "bx", "blockIdx.y": "by", "blockIdx.z": "bz"}, "tt.partition_mode": "shard", "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 0, "cols": 1, "core": [0, 1], "count": 1, "row0": 1, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 1], "count": 1, "row0": 1, "rows": 1}, {"col0": 0, "cols": 1, "core": [0, 2], "count": 1, "row0": 2, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 2], "count": 1, "row0": 2, "rows": 1}, {"col0": 0, "cols": 1, "core": [0, 3], "count": 1, "row0": 3, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 3], "count": 1, "row0": 3, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}, {"col0": 1, "cols": 1, "count": 1, "row0": 0}, {"col0": 0, "cols": 1, "count": 1, "row0": 1}, {"col0": 1, "cols": 1, "count": 1, "row0": 1}, {"col0": 0, "cols": 1, "count": 1, "row0": 2}, {"col0": 1, "cols": 1, "count": 1, "row0": 2}, {"col0": 0, "cols": 1, "count": 1, "row0": 3}, {"col0": 1, "cols": 1, "count": 1, "row0": 3}]})
        count = T.int32()
        T.tt.compute_kernel_hw_startup_unary(0, 24)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            T.tt.tilize_rows(0, 24, 1, 2, 0)
            T.tt.eltwise_block(24, 24, 25, 2, "none", "none", "exp", "none", 0, "none", 0, 0, "none", T.float32(0.0), 1, 1, 1, 1, 0)
            T.tt.untilize_rows(25, 16, 1, 2, 0)

    @T.prim_func
    def main_reader(Q: T.Buffer((2, 64, 2, 64), "bfloat16"), Out: T.Buffer((2, 64, 2, 64), "bfloat16")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"Out": {"compile_time_args": 2, "page_bytes": 128, "parameter": 1, "stride_mode": "row_major"}, "Q": {"compile_time_args": 2, "page_bytes": 128, "parameter": 0, "stride_mode": "row_major"}}, "tt.buffers": {"Out": {"blocks": [0, 0, 0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [2, 64, 2, 64], "page_bytes": 128, "page_layout": "row_major", "pages": 256, "shape": [2, 64, 2, 64], "tile_cols": 2, "tile_rows": 8, "transposed": False}, "Q": {"blocks": [0, 0, 0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [2, 64, 2, 64], "page_bytes": 128, "page_layout": "row_major", "pages": 256, "shape": [2, 64, 2, 64], "tile_cols": 2, "tile_rows": 8, "transposed": False}}, "tt.cbs": [{"block_pages": 2, "buffer": "Q_shared_rm", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "Q_shared_rm#1"}, {"block_pages": 2, "buffer": "O_local_rm", "buffer_dtype": "bfloat16", "class": "output", "consumer": "writer", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 16, "page_bytes": 2048, "producer": "compute", "stream": "O_local_rm#1"}, {"block_pages": 2, "buffer": "Q_shared", "buffer_dtype": "bfloat16", "class": "intermediate", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 24, "page_bytes": 2048, "producer": "compute", "stream": "Q_shared#1"}, {"block_pages": 2, "buffer": "O_local", "buffer_dtype": "bfloat16", "class": "intermediate", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 25, "page_bytes": 2048, "producer": "compute", "stream": "O_local#1"}], "tt.compile_time_args": [{"offset": 0, "tensor": "Q"}], "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 3]], "tt.grid_blocks": [2, 2, 2], "tt.kernel_role": "reader", "tt.launch_vars": {"blockIdx.x": "bx", "blockIdx.y": "by", "blockIdx.z": "bz"}, "tt.partition_mode": "shard", "tt.tensor_args": {"Q_addr": "Q"}, "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 0, "cols": 1, "core": [0, 1], "count": 1, "row0": 1, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 1], "count": 1, "row0": 1, "rows": 1}, {"col0": 0, "cols": 1, "core": [0, 2], "count": 1, "row0": 2, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 2], "count": 1, "row0": 2, "rows": 1}, {"col0": 0, "cols": 1, "core": [0, 3], "count": 1, "row0": 3, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 3], "count": 1, "row0": 3, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}, {"col0": 1, "cols": 1, "count": 1, "row0": 0}, {"col0": 0, "cols": 1, "count": 1, "row0": 1}, {"col0": 1, "cols": 1, "count": 1, "row0": 1}, {"col0": 0, "cols": 1, "count": 1, "row0": 2}, {"col0": 1, "cols": 1, "count": 1, "row0": 2}, {"col0": 0, "cols": 1, "count": 1, "row0": 3}, {"col0": 1, "cols": 1, "count": 1, "row0": 3}]})
        Q_addr = T.uint32()
        count = T.int32()
        col0 = T.int32()
        cols = T.int32()
        row0 = T.int32()
        accessor_args: T.let[T.handle] = T.tt.tensor_accessor_args(0)
        accessor: T.let[T.handle] = T.tt.tensor_accessor(accessor_args, Q_addr, 128)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            bx: T.let[T.int32] = col0 + i % cols
            by: T.let[T.int32] = (row0 + i // cols) % 2
            bz: T.let[T.int32] = (row0 + i // cols) // 2
            T.tt.read_rows_block(0, accessor, (bz * 64 + bx * 32) * 2 + by, 2, 1, 2, 128, 32)

    @T.prim_func
    def main_writer(Q: T.Buffer((2, 64, 2, 64), "bfloat16"), Out: T.Buffer((2, 64, 2, 64), "bfloat16")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"Out": {"compile_time_args": 2, "page_bytes": 128, "parameter": 1, "stride_mode": "row_major"}, "Q": {"compile_time_args": 2, "page_bytes": 128, "parameter": 0, "stride_mode": "row_major"}}, "tt.buffers": {"Out": {"blocks": [0, 0, 0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [2, 64, 2, 64], "page_bytes": 128, "page_layout": "row_major", "pages": 256, "shape": [2, 64, 2, 64], "tile_cols": 2, "tile_rows": 8, "transposed": False}, "Q": {"blocks": [0, 0, 0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [2, 64, 2, 64], "page_bytes": 128, "page_layout": "row_major", "pages": 256, "shape": [2, 64, 2, 64], "tile_cols": 2, "tile_rows": 8, "transposed": False}}, "tt.cbs": [{"block_pages": 2, "buffer": "Q_shared_rm", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "Q_shared_rm#1"}, {"block_pages": 2, "buffer": "O_local_rm", "buffer_dtype": "bfloat16", "class": "output", "consumer": "writer", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 16, "page_bytes": 2048, "producer": "compute", "stream": "O_local_rm#1"}, {"block_pages": 2, "buffer": "Q_shared", "buffer_dtype": "bfloat16", "class": "intermediate", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 24, "page_bytes": 2048, "producer": "compute", "stream": "Q_shared#1"}, {"block_pages": 2, "buffer": "O_local", "buffer_dtype": "bfloat16", "class": "intermediate", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 25, "page_bytes": 2048, "producer": "compute", "stream": "O_local#1"}], "tt.compile_time_args": [{"offset": 0, "tensor": "Out"}], "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 3]], "tt.grid_blocks": [2, 2, 2], "tt.kernel_role": "writer", "tt.launch_vars": {"blockIdx.x": "bx", "blockIdx.y": "by", "blockIdx.z": "bz"}, "tt.partition_mode": "shard", "tt.tensor_args": {"Out_addr": "Out"}, "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 0, "cols": 1, "core": [0, 1], "count": 1, "row0": 1, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 1], "count": 1, "row0": 1, "rows": 1}, {"col0": 0, "cols": 1, "core": [0, 2], "count": 1, "row0": 2, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 2], "count": 1, "row0": 2, "rows": 1}, {"col0": 0, "cols": 1, "core": [0, 3], "count": 1, "row0": 3, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 3], "count": 1, "row0": 3, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}, {"col0": 1, "cols": 1, "count": 1, "row0": 0}, {"col0": 0, "cols": 1, "count": 1, "row0": 1}, {"col0": 1, "cols": 1, "count": 1, "row0": 1}, {"col0": 0, "cols": 1, "count": 1, "row0": 2}, {"col0": 1, "cols": 1, "count": 1, "row0": 2}, {"col0": 0, "cols": 1, "count": 1, "row0": 3}, {"col0": 1, "cols": 1, "count": 1, "row0": 3}]})
        Out_addr = T.uint32()
        count = T.int32()
        col0 = T.int32()
        cols = T.int32()
        row0 = T.int32()
        accessor_args: T.let[T.handle] = T.tt.tensor_accessor_args(0)
        accessor: T.let[T.handle] = T.tt.tensor_accessor(accessor_args, Out_addr, 128)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            bx: T.let[T.int32] = col0 + i % cols
            by: T.let[T.int32] = (row0 + i // cols) % 2
            bz: T.let[T.int32] = (row0 + i // cols) // 2
            T.tt.write_rows_block(16, accessor, (bz * 64 + bx * 32) * 2 + by, 2, 1, 2, 128, 32)

# ---------------------------------------- after LowerTTProtocols
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main_compute(Q: T.Buffer((2, 64, 2, 64), "bfloat16"), Out: T.Buffer((2, 64, 2, 64), "bfloat16")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"Out": {"compile_time_args": 2, "page_bytes": 128, "parameter": 1, "stride_mode": "row_major"}, "Q": {"compile_time_args": 2, "page_bytes": 128, "parameter": 0, "stride_mode": "row_major"}}, "tt.buffers": {"Out": {"blocks": [0, 0, 0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [2, 64, 2, 64], "page_bytes": 128, "page_layout": "row_major", "pages": 256, "shape": [2, 64, 2, 64], "tile_cols": 2, "tile_rows": 8, "transposed": False}, "Q": {"blocks": [0, 0, 0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [2, 64, 2, 64], "page_bytes": 128, "page_layout": "row_major", "pages": 256, "shape": [2, 64, 2, 64], "tile_cols": 2, "tile_rows": 8, "transposed": False}}, "tt.cbs": [{"block_pages": 2, "buffer": "Q_shared_rm", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "Q_shared_rm#1"}, {"block_pages": 2, "buffer": "O_local_rm", "buffer_dtype": "bfloat16", "class": "output", "consumer": "writer", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 16, "page_bytes": 2048, "producer": "compute", "stream": "O_local_rm#1"}, {"block_pages": 2, "buffer": "Q_shared", "buffer_dtype": "bfloat16", "class": "intermediate", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 24, "page_bytes": 2048, "producer": "compute", "stream": "Q_shared#1"}, {"block_pages": 2, "buffer": "O_local", "buffer_dtype": "bfloat16", "class": "intermediate", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 25, "page_bytes": 2048, "producer": "compute", "stream": "O_local#1"}], "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 3]], "tt.grid_blocks": [2, 2, 2], "tt.kernel_role": "compute", "tt.launch_vars": {"blockIdx.x": "bx", "blockIdx.y": "by", "blockIdx.z": "bz"}, "tt.partition_mode": "shard", "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 0, "cols": 1, "core": [0, 1], "count": 1, "row0": 1, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 1], "count": 1, "row0": 1, "rows": 1}, {"col0": 0, "cols": 1, "core": [0, 2], "count": 1, "row0": 2, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 2], "count": 1, "row0": 2, "rows": 1}, {"col0": 0, "cols": 1, "core": [0, 3], "count": 1, "row0": 3, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 3], "count": 1, "row0": 3, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}, {"col0": 1, "cols": 1, "count": 1, "row0": 0}, {"col0": 0, "cols": 1, "count": 1, "row0": 1}, {"col0": 1, "cols": 1, "count": 1, "row0": 1}, {"col0": 0, "cols": 1, "count": 1, "row0": 2}, {"col0": 1, "cols": 1, "count": 1, "row0": 2}, {"col0": 0, "cols": 1, "count": 1, "row0": 3}, {"col0": 1, "cols": 1, "count": 1, "row0": 3}]})
        count = T.int32()
        T.tt.compute_kernel_hw_startup_unary(0, 24)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            T.tt.tilize_init(0, 2, 24)
            T.tt.cb_wait_front(0, 2)
            T.tt.cb_reserve_back(24, 2)
            T.tt.tilize_block(0, 2, 24)
            T.tt.cb_push_back(24, 2)
            T.tt.cb_pop_front(0, 2)
            T.tt.tilize_uninit(0, 24)
            for t in range(2):
                T.tt.cb_wait_front(24, 1)
                T.tt.tile_regs_acquire()
                T.tt.copy_tile_init(24)
                T.tt.copy_tile(24, 0, 0)
                T.tt.exp_tile_init()
                T.tt.exp_tile(0)
                T.tt.tile_regs_commit()
                T.tt.tile_regs_wait()
                T.tt.cb_reserve_back(25, 1)
                T.tt.pack_tile(0, 25)
                T.tt.cb_push_back(25, 1)
                T.tt.tile_regs_release()
                T.tt.cb_pop_front(24, 1)
            T.tt.pack_untilize_init(2, 2, 25, 16)
            T.tt.cb_wait_front(25, 2)
            T.tt.cb_reserve_back(16, 2)
            T.tt.pack_untilize_block(2, 2, 25, 1, 16)
            T.tt.cb_push_back(16, 2)
            T.tt.cb_pop_front(25, 2)
            T.tt.pack_untilize_uninit(16)

    @T.prim_func
    def main_reader(Q: T.Buffer((2, 64, 2, 64), "bfloat16"), Out: T.Buffer((2, 64, 2, 64), "bfloat16")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"Out": {"compile_time_args": 2, "page_bytes": 128, "parameter": 1, "stride_mode": "row_major"}, "Q": {"compile_time_args": 2, "page_bytes": 128, "parameter": 0, "stride_mode": "row_major"}}, "tt.buffers": {"Out": {"blocks": [0, 0, 0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [2, 64, 2, 64], "page_bytes": 128, "page_layout": "row_major", "pages": 256, "shape": [2, 64, 2, 64], "tile_cols": 2, "tile_rows": 8, "transposed": False}, "Q": {"blocks": [0, 0, 0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [2, 64, 2, 64], "page_bytes": 128, "page_layout": "row_major", "pages": 256, "shape": [2, 64, 2, 64], "tile_cols": 2, "tile_rows": 8, "transposed": False}}, "tt.cbs": [{"block_pages": 2, "buffer": "Q_shared_rm", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "Q_shared_rm#1"}, {"block_pages": 2, "buffer": "O_local_rm", "buffer_dtype": "bfloat16", "class": "output", "consumer": "writer", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 16, "page_bytes": 2048, "producer": "compute", "stream": "O_local_rm#1"}, {"block_pages": 2, "buffer": "Q_shared", "buffer_dtype": "bfloat16", "class": "intermediate", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 24, "page_bytes": 2048, "producer": "compute", "stream": "Q_shared#1"}, {"block_pages": 2, "buffer": "O_local", "buffer_dtype": "bfloat16", "class": "intermediate", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 25, "page_bytes": 2048, "producer": "compute", "stream": "O_local#1"}], "tt.compile_time_args": [{"offset": 0, "tensor": "Q"}], "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 3]], "tt.grid_blocks": [2, 2, 2], "tt.kernel_role": "reader", "tt.launch_vars": {"blockIdx.x": "bx", "blockIdx.y": "by", "blockIdx.z": "bz"}, "tt.partition_mode": "shard", "tt.tensor_args": {"Q_addr": "Q"}, "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 0, "cols": 1, "core": [0, 1], "count": 1, "row0": 1, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 1], "count": 1, "row0": 1, "rows": 1}, {"col0": 0, "cols": 1, "core": [0, 2], "count": 1, "row0": 2, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 2], "count": 1, "row0": 2, "rows": 1}, {"col0": 0, "cols": 1, "core": [0, 3], "count": 1, "row0": 3, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 3], "count": 1, "row0": 3, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}, {"col0": 1, "cols": 1, "count": 1, "row0": 0}, {"col0": 0, "cols": 1, "count": 1, "row0": 1}, {"col0": 1, "cols": 1, "count": 1, "row0": 1}, {"col0": 0, "cols": 1, "count": 1, "row0": 2}, {"col0": 1, "cols": 1, "count": 1, "row0": 2}, {"col0": 0, "cols": 1, "count": 1, "row0": 3}, {"col0": 1, "cols": 1, "count": 1, "row0": 3}]})
        Q_addr = T.uint32()
        count = T.int32()
        col0 = T.int32()
        cols = T.int32()
        row0 = T.int32()
        accessor_args: T.let[T.handle] = T.tt.tensor_accessor_args(0)
        accessor: T.let[T.handle] = T.tt.tensor_accessor(accessor_args, Q_addr, 128)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            bx: T.let[T.int32] = col0 + i % cols
            by: T.let[T.int32] = (row0 + i // cols) % 2
            bz: T.let[T.int32] = (row0 + i // cols) // 2
            T.tt.cb_reserve_back(0, 2)
            l1_write_addr: T.let[T.int32] = T.Cast("int32", T.tt.get_write_ptr(0))
            for r in range(32):
                T.tt.noc_async_read_page((bz * 64 + bx * 32) * 2 + by + r * 2, accessor, l1_write_addr + r * 128)
            T.tt.noc_async_read_barrier()
            T.tt.cb_push_back(0, 2)

    @T.prim_func
    def main_writer(Q: T.Buffer((2, 64, 2, 64), "bfloat16"), Out: T.Buffer((2, 64, 2, 64), "bfloat16")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"Out": {"compile_time_args": 2, "page_bytes": 128, "parameter": 1, "stride_mode": "row_major"}, "Q": {"compile_time_args": 2, "page_bytes": 128, "parameter": 0, "stride_mode": "row_major"}}, "tt.buffers": {"Out": {"blocks": [0, 0, 0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [2, 64, 2, 64], "page_bytes": 128, "page_layout": "row_major", "pages": 256, "shape": [2, 64, 2, 64], "tile_cols": 2, "tile_rows": 8, "transposed": False}, "Q": {"blocks": [0, 0, 0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [2, 64, 2, 64], "page_bytes": 128, "page_layout": "row_major", "pages": 256, "shape": [2, 64, 2, 64], "tile_cols": 2, "tile_rows": 8, "transposed": False}}, "tt.cbs": [{"block_pages": 2, "buffer": "Q_shared_rm", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "Q_shared_rm#1"}, {"block_pages": 2, "buffer": "O_local_rm", "buffer_dtype": "bfloat16", "class": "output", "consumer": "writer", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 16, "page_bytes": 2048, "producer": "compute", "stream": "O_local_rm#1"}, {"block_pages": 2, "buffer": "Q_shared", "buffer_dtype": "bfloat16", "class": "intermediate", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 24, "page_bytes": 2048, "producer": "compute", "stream": "Q_shared#1"}, {"block_pages": 2, "buffer": "O_local", "buffer_dtype": "bfloat16", "class": "intermediate", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 25, "page_bytes": 2048, "producer": "compute", "stream": "O_local#1"}], "tt.compile_time_args": [{"offset": 0, "tensor": "Out"}], "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 3]], "tt.grid_blocks": [2, 2, 2], "tt.kernel_role": "writer", "tt.launch_vars": {"blockIdx.x": "bx", "blockIdx.y": "by", "blockIdx.z": "bz"}, "tt.partition_mode": "shard", "tt.tensor_args": {"Out_addr": "Out"}, "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 0, "cols": 1, "core": [0, 1], "count": 1, "row0": 1, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 1], "count": 1, "row0": 1, "rows": 1}, {"col0": 0, "cols": 1, "core": [0, 2], "count": 1, "row0": 2, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 2], "count": 1, "row0": 2, "rows": 1}, {"col0": 0, "cols": 1, "core": [0, 3], "count": 1, "row0": 3, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 3], "count": 1, "row0": 3, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}, {"col0": 1, "cols": 1, "count": 1, "row0": 0}, {"col0": 0, "cols": 1, "count": 1, "row0": 1}, {"col0": 1, "cols": 1, "count": 1, "row0": 1}, {"col0": 0, "cols": 1, "count": 1, "row0": 2}, {"col0": 1, "cols": 1, "count": 1, "row0": 2}, {"col0": 0, "cols": 1, "count": 1, "row0": 3}, {"col0": 1, "cols": 1, "count": 1, "row0": 3}]})
        Out_addr = T.uint32()
        count = T.int32()
        col0 = T.int32()
        cols = T.int32()
        row0 = T.int32()
        accessor_args: T.let[T.handle] = T.tt.tensor_accessor_args(0)
        accessor: T.let[T.handle] = T.tt.tensor_accessor(accessor_args, Out_addr, 128)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            bx: T.let[T.int32] = col0 + i % cols
            by: T.let[T.int32] = (row0 + i // cols) % 2
            bz: T.let[T.int32] = (row0 + i // cols) // 2
            T.tt.cb_wait_front(16, 2)
            l1_read_addr: T.let[T.int32] = T.Cast("int32", T.tt.get_read_ptr(16))
            for r in range(32):
                T.tt.noc_async_write_page((bz * 64 + bx * 32) * 2 + by + r * 2, accessor, l1_read_addr + r * 128)
            T.tt.noc_async_write_barrier()
            T.tt.cb_pop_front(16, 2)
