# ruff: noqa
# Golden of LowerTTProtocols, case tt_gemm_spill (lower_and_legalize_tt + optimize_tenstorrent):
# matmul(64, 128, 64, 64, 128, 32, dtype='bfloat16'): a 2x4-tile fp32 block over 2 K steps, in DST sub-blocks with a partial-sum CB.
# Written by `TILELANG_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/passes/test_pass_golden.py`; do not edit by hand. The pass's input, then its output.
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main_compute(A: T.Buffer((64, 64), "bfloat16"), B: T.Buffer((64, 128), "bfloat16"), C: T.Buffer((64, 128), "bfloat16")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "B": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 1, "stride_mode": "tiled"}, "C": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 2, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "B": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 128], "page_bytes": 2048, "page_layout": "tile", "pages": 8, "shape": [64, 128], "tile_cols": 4, "tile_rows": 2, "transposed": False}, "C": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 128], "page_bytes": 2048, "page_layout": "tile", "pages": 8, "shape": [64, 128], "tile_cols": 4, "tile_rows": 2, "transposed": False}}, "tt.cbs": [{"block_pages": 2, "buffer": "A_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "A_shared#1"}, {"block_pages": 4, "buffer": "B_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 8, "dtype": "bfloat16", "index": 1, "page_bytes": 2048, "producer": "reader", "stream": "B_shared#1"}, {"block_pages": 8, "buffer": "C_local", "buffer_dtype": "float32", "class": "output", "consumer": "writer", "data_format": "Float16_b", "depth": 16, "dtype": "bfloat16", "index": 16, "page_bytes": 2048, "producer": "compute", "stream": "C_local#2"}, {"block_pages": 8, "buffer": "C_local", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 8, "dtype": "float32", "index": 24, "page_bytes": 4096, "producer": "compute", "stream": "C_local#partial"}], "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 0, 0]], "tt.grid_blocks": [1, 1, 1], "tt.kernel_role": "compute", "tt.launch_vars": {"blockIdx.x": "bx", "blockIdx.y": "by"}, "tt.partition_mode": "shard", "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}]})
        count = T.int32()
        T.tt.compute_kernel_hw_startup_matmul(0, 1, 16)
        T.tt.matmul_init(0, 1)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            for k in T.serial(2, annotations={"num_stages": 3}):
                T.tt.matmul_block(0, 1, 16, 24, 2, 4, 1, k, 2, 4, 1, 1, 1, 1, 0, -1, 0, 0, 0, 1, 0, 0, 0, 1)

    @T.prim_func
    def main_reader(A: T.Buffer((64, 64), "bfloat16"), B: T.Buffer((64, 128), "bfloat16"), C: T.Buffer((64, 128), "bfloat16")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "B": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 1, "stride_mode": "tiled"}, "C": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 2, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "B": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 128], "page_bytes": 2048, "page_layout": "tile", "pages": 8, "shape": [64, 128], "tile_cols": 4, "tile_rows": 2, "transposed": False}, "C": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 128], "page_bytes": 2048, "page_layout": "tile", "pages": 8, "shape": [64, 128], "tile_cols": 4, "tile_rows": 2, "transposed": False}}, "tt.cbs": [{"block_pages": 2, "buffer": "A_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "A_shared#1"}, {"block_pages": 4, "buffer": "B_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 8, "dtype": "bfloat16", "index": 1, "page_bytes": 2048, "producer": "reader", "stream": "B_shared#1"}, {"block_pages": 8, "buffer": "C_local", "buffer_dtype": "float32", "class": "output", "consumer": "writer", "data_format": "Float16_b", "depth": 16, "dtype": "bfloat16", "index": 16, "page_bytes": 2048, "producer": "compute", "stream": "C_local#2"}, {"block_pages": 8, "buffer": "C_local", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 8, "dtype": "float32", "index": 24, "page_bytes": 4096, "producer": "compute", "stream": "C_local#partial"}], "tt.compile_time_args": [{"offset": 0, "tensor": "A"}, {"offset": 2, "tensor": "B"}], "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 0, 0]], "tt.grid_blocks": [1, 1, 1], "tt.kernel_role": "reader", "tt.launch_vars": {"blockIdx.x": "bx", "blockIdx.y": "by"}, "tt.partition_mode": "shard", "tt.tensor_args": {"A_addr": "A", "B_addr": "B"}, "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}]})
        A_addr = T.uint32()
        B_addr = T.uint32()
        count = T.int32()
        accessor_args: T.let[T.handle] = T.tt.tensor_accessor_args(0)
        accessor: T.let[T.handle] = T.tt.tensor_accessor(accessor_args, A_addr, 2048)
        offset: T.let[T.int32] = T.tt.next_compile_time_args_offset(accessor_args)
        accessor_args_1: T.let[T.handle] = T.tt.tensor_accessor_args(offset)
        accessor_1: T.let[T.handle] = T.tt.tensor_accessor(accessor_args_1, B_addr, 2048)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            for k in T.serial(2, annotations={"num_stages": 3}):
                T.tt.read_block(0, accessor, k * 32 // 32, 2, 1, 2, 2048)
                T.tt.read_block(1, accessor_1, k * 32 // 32 * 4, 1, 4, 4, 2048)

    @T.prim_func
    def main_writer(A: T.Buffer((64, 64), "bfloat16"), B: T.Buffer((64, 128), "bfloat16"), C: T.Buffer((64, 128), "bfloat16")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "B": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 1, "stride_mode": "tiled"}, "C": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 2, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "B": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 128], "page_bytes": 2048, "page_layout": "tile", "pages": 8, "shape": [64, 128], "tile_cols": 4, "tile_rows": 2, "transposed": False}, "C": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 128], "page_bytes": 2048, "page_layout": "tile", "pages": 8, "shape": [64, 128], "tile_cols": 4, "tile_rows": 2, "transposed": False}}, "tt.cbs": [{"block_pages": 2, "buffer": "A_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "A_shared#1"}, {"block_pages": 4, "buffer": "B_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 8, "dtype": "bfloat16", "index": 1, "page_bytes": 2048, "producer": "reader", "stream": "B_shared#1"}, {"block_pages": 8, "buffer": "C_local", "buffer_dtype": "float32", "class": "output", "consumer": "writer", "data_format": "Float16_b", "depth": 16, "dtype": "bfloat16", "index": 16, "page_bytes": 2048, "producer": "compute", "stream": "C_local#2"}, {"block_pages": 8, "buffer": "C_local", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 8, "dtype": "float32", "index": 24, "page_bytes": 4096, "producer": "compute", "stream": "C_local#partial"}], "tt.compile_time_args": [{"offset": 0, "tensor": "C"}], "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 0, 0]], "tt.grid_blocks": [1, 1, 1], "tt.kernel_role": "writer", "tt.launch_vars": {"blockIdx.x": "bx", "blockIdx.y": "by"}, "tt.partition_mode": "shard", "tt.tensor_args": {"C_addr": "C"}, "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}]})
        C_addr = T.uint32()
        count = T.int32()
        accessor_args: T.let[T.handle] = T.tt.tensor_accessor_args(0)
        accessor: T.let[T.handle] = T.tt.tensor_accessor(accessor_args, C_addr, 2048)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            T.tt.write_block(16, accessor, 0, 2, 4, 4, 2048)

# ---------------------------------------- after LowerTTProtocols
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main_compute(A: T.Buffer((64, 64), "bfloat16"), B: T.Buffer((64, 128), "bfloat16"), C: T.Buffer((64, 128), "bfloat16")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "B": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 1, "stride_mode": "tiled"}, "C": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 2, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "B": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 128], "page_bytes": 2048, "page_layout": "tile", "pages": 8, "shape": [64, 128], "tile_cols": 4, "tile_rows": 2, "transposed": False}, "C": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 128], "page_bytes": 2048, "page_layout": "tile", "pages": 8, "shape": [64, 128], "tile_cols": 4, "tile_rows": 2, "transposed": False}}, "tt.cbs": [{"block_pages": 2, "buffer": "A_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "A_shared#1"}, {"block_pages": 4, "buffer": "B_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 8, "dtype": "bfloat16", "index": 1, "page_bytes": 2048, "producer": "reader", "stream": "B_shared#1"}, {"block_pages": 8, "buffer": "C_local", "buffer_dtype": "float32", "class": "output", "consumer": "writer", "data_format": "Float16_b", "depth": 16, "dtype": "bfloat16", "index": 16, "page_bytes": 2048, "producer": "compute", "stream": "C_local#2"}, {"block_pages": 8, "buffer": "C_local", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 8, "dtype": "float32", "index": 24, "page_bytes": 4096, "producer": "compute", "stream": "C_local#partial"}], "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 0, 0]], "tt.grid_blocks": [1, 1, 1], "tt.kernel_role": "compute", "tt.launch_vars": {"blockIdx.x": "bx", "blockIdx.y": "by"}, "tt.partition_mode": "shard", "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}]})
        count = T.int32()
        T.tt.compute_kernel_hw_startup_matmul(0, 1, 16)
        T.tt.matmul_init(0, 1)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            for k in T.serial(2, annotations={"num_stages": 3}):
                T.tt.cb_wait_front(0, 2)
                T.tt.cb_wait_front(1, 4)
                for s in range(2):
                    T.tt.tile_regs_acquire()
                    if k > 0:
                        T.tt.cb_wait_front(24, 4)
                        T.tt.reconfig_data_format_srca(24)
                        T.tt.copy_tile_init(24)
                        for t in range(4):
                            T.tt.copy_tile(24, t, t)
                        T.tt.cb_pop_front(24, 4)
                        T.tt.reconfig_data_format(1, 0)
                        T.tt.pack_reconfig_data_format(16)
                        T.tt.matmul_init(0, 1)
                    for t in range(4):
                        T.tt.matmul_tiles(0, 1, (s * 4 + t) // 4, (s * 4 + t) % 4, t)
                    T.tt.tile_regs_commit()
                    T.tt.tile_regs_wait()
                    if k == 1:
                        T.tt.pack_reconfig_data_format(16)
                        T.tt.cb_reserve_back(16, 4)
                        for t in range(4):
                            T.tt.pack_tile(t, 16)
                        T.tt.cb_push_back(16, 4)
                    else:
                        T.tt.pack_reconfig_data_format(24)
                        T.tt.cb_reserve_back(24, 4)
                        for t in range(4):
                            T.tt.pack_tile(t, 24)
                        T.tt.cb_push_back(24, 4)
                    T.tt.tile_regs_release()
                T.tt.cb_pop_front(0, 2)
                T.tt.cb_pop_front(1, 4)

    @T.prim_func
    def main_reader(A: T.Buffer((64, 64), "bfloat16"), B: T.Buffer((64, 128), "bfloat16"), C: T.Buffer((64, 128), "bfloat16")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "B": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 1, "stride_mode": "tiled"}, "C": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 2, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "B": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 128], "page_bytes": 2048, "page_layout": "tile", "pages": 8, "shape": [64, 128], "tile_cols": 4, "tile_rows": 2, "transposed": False}, "C": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 128], "page_bytes": 2048, "page_layout": "tile", "pages": 8, "shape": [64, 128], "tile_cols": 4, "tile_rows": 2, "transposed": False}}, "tt.cbs": [{"block_pages": 2, "buffer": "A_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "A_shared#1"}, {"block_pages": 4, "buffer": "B_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 8, "dtype": "bfloat16", "index": 1, "page_bytes": 2048, "producer": "reader", "stream": "B_shared#1"}, {"block_pages": 8, "buffer": "C_local", "buffer_dtype": "float32", "class": "output", "consumer": "writer", "data_format": "Float16_b", "depth": 16, "dtype": "bfloat16", "index": 16, "page_bytes": 2048, "producer": "compute", "stream": "C_local#2"}, {"block_pages": 8, "buffer": "C_local", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 8, "dtype": "float32", "index": 24, "page_bytes": 4096, "producer": "compute", "stream": "C_local#partial"}], "tt.compile_time_args": [{"offset": 0, "tensor": "A"}, {"offset": 2, "tensor": "B"}], "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 0, 0]], "tt.grid_blocks": [1, 1, 1], "tt.kernel_role": "reader", "tt.launch_vars": {"blockIdx.x": "bx", "blockIdx.y": "by"}, "tt.partition_mode": "shard", "tt.tensor_args": {"A_addr": "A", "B_addr": "B"}, "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}]})
        A_addr = T.uint32()
        B_addr = T.uint32()
        count = T.int32()
        accessor_args: T.let[T.handle] = T.tt.tensor_accessor_args(0)
        accessor: T.let[T.handle] = T.tt.tensor_accessor(accessor_args, A_addr, 2048)
        offset: T.let[T.int32] = T.tt.next_compile_time_args_offset(accessor_args)
        accessor_args_1: T.let[T.handle] = T.tt.tensor_accessor_args(offset)
        accessor_1: T.let[T.handle] = T.tt.tensor_accessor(accessor_args_1, B_addr, 2048)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            for k in T.serial(2, annotations={"num_stages": 3}):
                T.tt.cb_reserve_back(0, 2)
                l1_write_addr: T.let[T.int32] = T.Cast("int32", T.tt.get_write_ptr(0))
                for r in range(2):
                    T.tt.noc_async_read_page(k * 32 // 32 + r * 2, accessor, l1_write_addr + r * 2048)
                T.tt.noc_async_read_barrier()
                T.tt.cb_push_back(0, 2)
                T.tt.cb_reserve_back(1, 4)
                l1_write_addr_1: T.let[T.int32] = T.Cast("int32", T.tt.get_write_ptr(1))
                for c in range(4):
                    T.tt.noc_async_read_page(k * 32 // 32 * 4 + c, accessor_1, l1_write_addr_1 + c * 2048)
                T.tt.noc_async_read_barrier()
                T.tt.cb_push_back(1, 4)

    @T.prim_func
    def main_writer(A: T.Buffer((64, 64), "bfloat16"), B: T.Buffer((64, 128), "bfloat16"), C: T.Buffer((64, 128), "bfloat16")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "B": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 1, "stride_mode": "tiled"}, "C": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 2, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "B": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 128], "page_bytes": 2048, "page_layout": "tile", "pages": 8, "shape": [64, 128], "tile_cols": 4, "tile_rows": 2, "transposed": False}, "C": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 128], "page_bytes": 2048, "page_layout": "tile", "pages": 8, "shape": [64, 128], "tile_cols": 4, "tile_rows": 2, "transposed": False}}, "tt.cbs": [{"block_pages": 2, "buffer": "A_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "A_shared#1"}, {"block_pages": 4, "buffer": "B_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 8, "dtype": "bfloat16", "index": 1, "page_bytes": 2048, "producer": "reader", "stream": "B_shared#1"}, {"block_pages": 8, "buffer": "C_local", "buffer_dtype": "float32", "class": "output", "consumer": "writer", "data_format": "Float16_b", "depth": 16, "dtype": "bfloat16", "index": 16, "page_bytes": 2048, "producer": "compute", "stream": "C_local#2"}, {"block_pages": 8, "buffer": "C_local", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 8, "dtype": "float32", "index": 24, "page_bytes": 4096, "producer": "compute", "stream": "C_local#partial"}], "tt.compile_time_args": [{"offset": 0, "tensor": "C"}], "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 0, 0]], "tt.grid_blocks": [1, 1, 1], "tt.kernel_role": "writer", "tt.launch_vars": {"blockIdx.x": "bx", "blockIdx.y": "by"}, "tt.partition_mode": "shard", "tt.tensor_args": {"C_addr": "C"}, "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}]})
        C_addr = T.uint32()
        count = T.int32()
        accessor_args: T.let[T.handle] = T.tt.tensor_accessor_args(0)
        accessor: T.let[T.handle] = T.tt.tensor_accessor(accessor_args, C_addr, 2048)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            T.tt.cb_wait_front(16, 8)
            l1_read_addr: T.let[T.int32] = T.Cast("int32", T.tt.get_read_ptr(16))
            for r, c in T.grid(2, 4):
                T.tt.noc_async_write_page(r * 4 + c, accessor, l1_read_addr + (r * 4 + c) * 2048)
            T.tt.noc_async_write_barrier()
            T.tt.cb_pop_front(16, 8)
