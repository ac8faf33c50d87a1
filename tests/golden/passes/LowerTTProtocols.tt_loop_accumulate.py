# ruff: noqa
# Golden of LowerTTProtocols, case tt_loop_accumulate (lower_and_legalize_tt + optimize_tenstorrent):
# accumulate_blocks(64, 128, 32, 64): acc = acc + A_s carried across the loop, copied on chip for the writer after it.
# Written by `TILELANG_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/passes/test_pass_golden.py`; do not edit by hand. The pass's input, then its output.
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main_compute(A: T.Buffer((64, 128), "bfloat16"), C: T.Buffer((64, 64), "float32")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "C": {"compile_time_args": 2, "page_bytes": 4096, "parameter": 1, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 128], "page_bytes": 2048, "page_layout": "tile", "pages": 8, "shape": [64, 128], "tile_cols": 4, "tile_rows": 2, "transposed": False}, "C": {"blocks": [0, 0], "data_format": "Float32", "dram_format": "", "dtype": "float32", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 4096, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}}, "tt.cbs": [{"block_pages": 2, "buffer": "A_s", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "A_s#1"}, {"block_pages": 2, "buffer": "acc_out", "buffer_dtype": "float32", "class": "output", "consumer": "writer", "data_format": "Float32", "depth": 4, "dtype": "float32", "index": 16, "page_bytes": 4096, "producer": "compute", "stream": "acc_out#1"}, {"block_pages": 2, "buffer": "acc", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 4, "dtype": "float32", "index": 24, "page_bytes": 4096, "producer": "compute", "stream": "acc#1"}], "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 0]], "tt.grid_blocks": [2, 1, 1], "tt.kernel_role": "compute", "tt.launch_vars": {"blockIdx.x": "by"}, "tt.partition_mode": "shard", "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}, {"col0": 1, "cols": 1, "count": 1, "row0": 0}]})
        count = T.int32()
        T.tt.compute_kernel_hw_startup_unary(24, 24)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            T.tt.fill_block(24, 2, T.float32(0.0), 1)
            for k in range(2):
                T.tt.eltwise_block(24, 0, 24, 2, "add", "none", "none", "none", 0, "none", 0, 0, "none", T.float32(0.0), 1, 1, 1, 1, 1)
            T.tt.eltwise_block(24, 24, 16, 2, "none", "none", "none", "none", 0, "none", 0, 0, "none", T.float32(0.0), 1, 1, 1, 1, 1)

    @T.prim_func
    def main_reader(A: T.Buffer((64, 128), "bfloat16"), C: T.Buffer((64, 64), "float32")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "C": {"compile_time_args": 2, "page_bytes": 4096, "parameter": 1, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 128], "page_bytes": 2048, "page_layout": "tile", "pages": 8, "shape": [64, 128], "tile_cols": 4, "tile_rows": 2, "transposed": False}, "C": {"blocks": [0, 0], "data_format": "Float32", "dram_format": "", "dtype": "float32", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 4096, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}}, "tt.cbs": [{"block_pages": 2, "buffer": "A_s", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "A_s#1"}, {"block_pages": 2, "buffer": "acc_out", "buffer_dtype": "float32", "class": "output", "consumer": "writer", "data_format": "Float32", "depth": 4, "dtype": "float32", "index": 16, "page_bytes": 4096, "producer": "compute", "stream": "acc_out#1"}, {"block_pages": 2, "buffer": "acc", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 4, "dtype": "float32", "index": 24, "page_bytes": 4096, "producer": "compute", "stream": "acc#1"}], "tt.compile_time_args": [{"offset": 0, "tensor": "A"}], "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 0]], "tt.grid_blocks": [2, 1, 1], "tt.kernel_role": "reader", "tt.launch_vars": {"blockIdx.x": "by"}, "tt.partition_mode": "shard", "tt.tensor_args": {"A_addr": "A"}, "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}, {"col0": 1, "cols": 1, "count": 1, "row0": 0}]})
        A_addr = T.uint32()
        count = T.int32()
        col0 = T.int32()
        cols = T.int32()
        accessor_args: T.let[T.handle] = T.tt.tensor_accessor_args(0)
        accessor: T.let[T.handle] = T.tt.tensor_accessor(accessor_args, A_addr, 2048)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            by: T.let[T.int32] = col0 + i % cols
            for k in range(2):
                T.tt.read_block(0, accessor, by * 32 // 32 * 4 + k * 64 // 32, 1, 2, 4, 2048)

    @T.prim_func
    def main_writer(A: T.Buffer((64, 128), "bfloat16"), C: T.Buffer((64, 64), "float32")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "C": {"compile_time_args": 2, "page_bytes": 4096, "parameter": 1, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 128], "page_bytes": 2048, "page_layout": "tile", "pages": 8, "shape": [64, 128], "tile_cols": 4, "tile_rows": 2, "transposed": False}, "C": {"blocks": [0, 0], "data_format": "Float32", "dram_format": "", "dtype": "float32", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 4096, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}}, "tt.cbs": [{"block_pages": 2, "buffer": "A_s", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "A_s#1"}, {"block_pages": 2, "buffer": "acc_out", "buffer_dtype": "float32", "class": "output", "consumer": "writer", "data_format": "Float32", "depth": 4, "dtype": "float32", "index": 16, "page_bytes": 4096, "producer": "compute", "stream": "acc_out#1"}, {"block_pages": 2, "buffer": "acc", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 4, "dtype": "float32", "index": 24, "page_bytes": 4096, "producer": "compute", "stream": "acc#1"}], "tt.compile_time_args": [{"offset": 0, "tensor": "C"}], "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 0]], "tt.grid_blocks": [2, 1, 1], "tt.kernel_role": "writer", "tt.launch_vars": {"blockIdx.x": "by"}, "tt.partition_mode": "shard", "tt.tensor_args": {"C_addr": "C"}, "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}, {"col0": 1, "cols": 1, "count": 1, "row0": 0}]})
        C_addr = T.uint32()
        count = T.int32()
        col0 = T.int32()
        cols = T.int32()
        accessor_args: T.let[T.handle] = T.tt.tensor_accessor_args(0)
        accessor: T.let[T.handle] = T.tt.tensor_accessor(accessor_args, C_addr, 4096)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            by: T.let[T.int32] = col0 + i % cols
            T.tt.write_block(16, accessor, by * 32 // 32 * 2, 1, 2, 2, 4096)

# ---------------------------------------- after LowerTTProtocols
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main_compute(A: T.Buffer((64, 128), "bfloat16"), C: T.Buffer((64, 64), "float32")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "C": {"compile_time_args": 2, "page_bytes": 4096, "parameter": 1, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 128], "page_bytes": 2048, "page_layout": "tile", "pages": 8, "shape": [64, 128], "tile_cols": 4, "tile_rows": 2, "transposed": False}, "C": {"blocks": [0, 0], "data_format": "Float32", "dram_format": "", "dtype": "float32", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 4096, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}}, "tt.cbs": [{"block_pages": 2, "buffer": "A_s", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "A_s#1"}, {"block_pages": 2, "buffer": "acc_out", "buffer_dtype": "float32", "class": "output", "consumer": "writer", "data_format": "Float32", "depth": 4, "dtype": "float32", "index": 16, "page_bytes": 4096, "producer": "compute", "stream": "acc_out#1"}, {"block_pages": 2, "buffer": "acc", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 4, "dtype": "float32", "index": 24, "page_bytes": 4096, "producer": "compute", "stream": "acc#1"}], "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 0]], "tt.grid_blocks": [2, 1, 1], "tt.kernel_role": "compute", "tt.launch_vars": {"blockIdx.x": "by"}, "tt.partition_mode": "shard", "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}, {"col0": 1, "cols": 1, "count": 1, "row0": 0}]})
        count = T.int32()
        T.tt.compute_kernel_hw_startup_unary(24, 24)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            T.tt.pack_reconfig_data_format(24)
            for t in range(2):
                T.tt.tile_regs_acquire()
                T.tt.fill_tile_init()
                T.tt.fill_tile(0, T.float32(0.0))
                T.tt.tile_regs_commit()
                T.tt.tile_regs_wait()
                T.tt.cb_reserve_back(24, 1)
                T.tt.pack_tile(0, 24)
                T.tt.cb_push_back(24, 1)
                T.tt.tile_regs_release()
            for k in range(2):
                T.tt.reconfig_data_format(24, 0)
                T.tt.pack_reconfig_data_format(24)
                for t in range(2):
                    T.tt.cb_wait_front(24, 1)
                    T.tt.cb_wait_front(0, 1)
                    T.tt.tile_regs_acquire()
                    T.tt.add_tiles_init(24, 0)
                    T.tt.add_tiles(24, 0, 0, 0, 0)
                    T.tt.tile_regs_commit()
                    T.tt.tile_regs_wait()
                    T.tt.cb_reserve_back(24, 1)
                    T.tt.pack_tile(0, 24)
                    T.tt.cb_push_back(24, 1)
                    T.tt.tile_regs_release()
                    T.tt.cb_pop_front(24, 1)
                    T.tt.cb_pop_front(0, 1)
            T.tt.reconfig_data_format_srca(24)
            T.tt.pack_reconfig_data_format(16)
            for t in range(2):
                T.tt.cb_wait_front(24, 1)
                T.tt.tile_regs_acquire()
                T.tt.copy_tile_init(24)
                T.tt.copy_tile(24, 0, 0)
                T.tt.tile_regs_commit()
                T.tt.tile_regs_wait()
                T.tt.cb_reserve_back(16, 1)
                T.tt.pack_tile(0, 16)
                T.tt.cb_push_back(16, 1)
                T.tt.tile_regs_release()
                T.tt.cb_pop_front(24, 1)

    @T.prim_func
    def main_reader(A: T.Buffer((64, 128), "bfloat16"), C: T.Buffer((64, 64), "float32")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "C": {"compile_time_args": 2, "page_bytes": 4096, "parameter": 1, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 128], "page_bytes": 2048, "page_layout": "tile", "pages": 8, "shape": [64, 128], "tile_cols": 4, "tile_rows": 2, "transposed": False}, "C": {"blocks": [0, 0], "data_format": "Float32", "dram_format": "", "dtype": "float32", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 4096, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}}, "tt.cbs": [{"block_pages": 2, "buffer": "A_s", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "A_s#1"}, {"block_pages": 2, "buffer": "acc_out", "buffer_dtype": "float32", "class": "output", "consumer": "writer", "data_format": "Float32", "depth": 4, "dtype": "float32", "index": 16, "page_bytes": 4096, "producer": "compute", "stream": "acc_out#1"}, {"block_pages": 2, "buffer": "acc", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 4, "dtype": "float32", "index": 24, "page_bytes": 4096, "producer": "compute", "stream": "acc#1"}], "tt.compile_time_args": [{"offset": 0, "tensor": "A"}], "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 0]], "tt.grid_blocks": [2, 1, 1], "tt.kernel_role": "reader", "tt.launch_vars": {"blockIdx.x": "by"}, "tt.partition_mode": "shard", "tt.tensor_args": {"A_addr": "A"}, "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}, {"col0": 1, "cols": 1, "count": 1, "row0": 0}]})
        A_addr = T.uint32()
        count = T.int32()
        col0 = T.int32()
        cols = T.int32()
        accessor_args: T.let[T.handle] = T.tt.tensor_accessor_args(0)
        accessor: T.let[T.handle] = T.tt.tensor_accessor(accessor_args, A_addr, 2048)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            by: T.let[T.int32] = col0 + i % cols
            for k in range(2):
                T.tt.cb_reserve_back(0, 2)
                l1_write_addr: T.let[T.int32] = T.Cast("int32", T.tt.get_write_ptr(0))
                for c in range(2):
                    T.tt.noc_async_read_page(by * 32 // 32 * 4 + k * 64 // 32 + c, accessor, l1_write_addr + c * 2048)
                T.tt.noc_async_read_barrier()
                T.tt.cb_push_back(0, 2)

    @T.prim_func
    def main_writer(A: T.Buffer((64, 128), "bfloat16"), C: T.Buffer((64, 64), "float32")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "C": {"compile_time_args": 2, "page_bytes": 4096, "parameter": 1, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 128], "page_bytes": 2048, "page_layout": "tile", "pages": 8, "shape": [64, 128], "tile_cols": 4, "tile_rows": 2, "transposed": False}, "C": {"blocks": [0, 0], "data_format": "Float32", "dram_format": "", "dtype": "float32", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 4096, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}}, "tt.cbs": [{"block_pages": 2, "buffer": "A_s", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "A_s#1"}, {"block_pages": 2, "buffer": "acc_out", "buffer_dtype": "float32", "class": "output", "consumer": "writer", "data_format": "Float32", "depth": 4, "dtype": "float32", "index": 16, "page_bytes": 4096, "producer": "compute", "stream": "acc_out#1"}, {"block_pages": 2, "buffer": "acc", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 4, "dtype": "float32", "index": 24, "page_bytes": 4096, "producer": "compute", "stream": "acc#1"}], "tt.compile_time_args": [{"offset": 0, "tensor": "C"}], "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 0]], "tt.grid_blocks": [2, 1, 1], "tt.kernel_role": "writer", "tt.launch_vars": {"blockIdx.x": "by"}, "tt.partition_mode": "shard", "tt.tensor_args": {"C_addr": "C"}, "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}, {"col0": 1, "cols": 1, "count": 1, "row0": 0}]})
        C_addr = T.uint32()
        count = T.int32()
        col0 = T.int32()
        cols = T.int32()
        accessor_args: T.let[T.handle] = T.tt.tensor_accessor_args(0)
        accessor: T.let[T.handle] = T.tt.tensor_accessor(accessor_args, C_addr, 4096)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            by: T.let[T.int32] = col0 + i % cols
            T.tt.cb_wait_front(16, 2)
            l1_read_addr: T.let[T.int32] = T.Cast("int32", T.tt.get_read_ptr(16))
            for c in range(2):
                T.tt.noc_async_write_page(by * 32 // 32 * 2 + c, accessor, l1_read_addr + c * 4096)
            T.tt.noc_async_write_barrier()
            T.tt.cb_pop_front(16, 2)
