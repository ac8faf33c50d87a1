# ruff: noqa
# Golden of LowerTTProtocols, case tt_reduce (lower_and_legalize_tt + optimize_tenstorrent):
# row_reduce(64, 64, 32, 'sum', accumulate=True): two row sums into a column vector (the scaler constant, clear=False), written to a 1-D tensor through an on-chip transpose.
# Written by `TILELANG_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/passes/test_pass_golden.py`; do not edit by hand. The pass's input, then its output.
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main_compute(A: T.Buffer((64, 64), "bfloat16"), B: T.Buffer((64, 64), "bfloat16"), Out: T.Buffer((64,), "float32"), reduce_scaler: T.Buffer((32, 32), "bfloat16", layout=None)):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "B": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 1, "stride_mode": "tiled"}, "Out": {"compile_time_args": 2, "page_bytes": 4096, "parameter": 2, "stride_mode": "tiled"}, "reduce_scaler": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 3, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "B": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "Out": {"blocks": [0], "data_format": "Float32", "dram_format": "", "dtype": "float32", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64], "page_bytes": 4096, "page_layout": "tile", "pages": 2, "shape": [64], "tile_cols": 2, "tile_rows": 1, "transposed": False}, "reduce_scaler": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [32, 32], "page_bytes": 2048, "page_layout": "tile", "pages": 1, "shape": [32, 32], "tile_cols": 1, "tile_rows": 1, "transposed": False}}, "tt.cbs": [{"block_pages": 2, "buffer": "A_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "A_shared#1"}, {"block_pages": 1, "buffer": "reduce_scaler_tile", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 1, "page_bytes": 2048, "producer": "reader", "stream": "reduce_scaler_tile#1"}, {"block_pages": 2, "buffer": "B_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 2, "page_bytes": 2048, "producer": "reader", "stream": "B_shared#1"}, {"block_pages": 1, "buffer": "row_T", "buffer_dtype": "float32", "class": "output", "consumer": "writer", "data_format": "Float32", "depth": 2, "dtype": "float32", "index": 16, "page_bytes": 4096, "producer": "compute", "stream": "row_T#1"}, {"block_pages": 1, "buffer": "row", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 24, "page_bytes": 4096, "producer": "compute", "stream": "row#1"}, {"block_pages": 1, "buffer": "row", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 25, "page_bytes": 4096, "producer": "compute", "stream": "row#2"}], "tt.constants": {"reduce_scaler": {"rows": [0, 16], "value": 1.0}}, "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 0]], "tt.grid_blocks": [2, 1, 1], "tt.kernel_role": "compute", "tt.launch_vars": {"blockIdx.x": "bx"}, "tt.partition_mode": "shard", "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}, {"col0": 1, "cols": 1, "count": 1, "row0": 0}]})
        count = T.int32()
        T.tt.compute_kernel_hw_startup(0, 1, 24)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            T.tt.reduce_block(0, 1, -1, 24, 1, 2, "sum", 0, 1, 1, 1, 0, 0, 0, 1)
            T.tt.reduce_block(2, 1, 24, 25, 1, 2, "sum", 0, 1, 1, 0, 1, 1, 1, 1)
            T.tt.transpose_block(25, 16, 1, 1, 1)

    @T.prim_func
    def main_reader(A: T.Buffer((64, 64), "bfloat16"), B: T.Buffer((64, 64), "bfloat16"), Out: T.Buffer((64,), "float32"), reduce_scaler: T.Buffer((32, 32), "bfloat16", layout=None)):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "B": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 1, "stride_mode": "tiled"}, "Out": {"compile_time_args": 2, "page_bytes": 4096, "parameter": 2, "stride_mode": "tiled"}, "reduce_scaler": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 3, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "B": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "Out": {"blocks": [0], "data_format": "Float32", "dram_format": "", "dtype": "float32", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64], "page_bytes": 4096, "page_layout": "tile", "pages": 2, "shape": [64], "tile_cols": 2, "tile_rows": 1, "transposed": False}, "reduce_scaler": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [32, 32], "page_bytes": 2048, "page_layout": "tile", "pages": 1, "shape": [32, 32], "tile_cols": 1, "tile_rows": 1, "transposed": False}}, "tt.cbs": [{"block_pages": 2, "buffer": "A_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "A_shared#1"}, {"block_pages": 1, "buffer": "reduce_scaler_tile", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 1, "page_bytes": 2048, "producer": "reader", "stream": "reduce_scaler_tile#1"}, {"block_pages": 2, "buffer": "B_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 2, "page_bytes": 2048, "producer": "reader", "stream": "B_shared#1"}, {"block_pages": 1, "buffer": "row_T", "buffer_dtype": "float32", "class": "output", "consumer": "writer", "data_format": "Float32", "depth": 2, "dtype": "float32", "index": 16, "page_bytes": 4096, "producer": "compute", "stream": "row_T#1"}, {"block_pages": 1, "buffer": "row", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 24, "page_bytes": 4096, "producer": "compute", "stream": "row#1"}, {"block_pages": 1, "buffer": "row", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 25, "page_bytes": 4096, "producer": "compute", "stream": "row#2"}], "tt.compile_time_args": [{"offset": 0, "tensor": "A"}, {"offset": 2, "tensor": "B"}, {"offset": 4, "tensor": "reduce_scaler"}], "tt.constants": {"reduce_scaler": {"rows": [0, 16], "value": 1.0}}, "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 0]], "tt.grid_blocks": [2, 1, 1], "tt.kernel_role": "reader", "tt.launch_vars": {"blockIdx.x": "bx"}, "tt.partition_mode": "shard", "tt.tensor_args": {"A_addr": "A", "B_addr": "B", "reduce_scaler_addr": "reduce_scaler"}, "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}, {"col0": 1, "cols": 1, "count": 1, "row0": 0}]})
        A_addr = T.uint32()
        B_addr = T.uint32()
        reduce_scaler_addr = T.uint32()
        count = T.int32()
        col0 = T.int32()
        cols = T.int32()
        accessor_args: T.let[T.handle] = T.tt.tensor_accessor_args(0)
        accessor: T.let[T.handle] = T.tt.tensor_accessor(accessor_args, A_addr, 2048)
        offset: T.let[T.int32] = T.tt.next_compile_time_args_offset(accessor_args)
        accessor_args_1: T.let[T.handle] = T.tt.tensor_accessor_args(offset)
        accessor_1: T.let[T.handle] = T.tt.tensor_accessor(accessor_args_1, B_addr, 2048)
        offset_1: T.let[T.int32] = T.tt.next_compile_time_args_offset(accessor_args_1)
        accessor_args_2: T.let[T.handle] = T.tt.tensor_accessor_args(offset_1)
        accessor_2: T.let[T.handle] = T.tt.tensor_accessor(accessor_args_2, reduce_scaler_addr, 2048)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            bx: T.let[T.int32] = col0 + i % cols
            T.tt.read_block(0, accessor, bx * 32 // 32 * 2, 1, 2, 2, 2048)
            T.tt.read_block(1, accessor_2, 0, 1, 1, 1, 2048)
            T.tt.read_block(2, accessor_1, bx * 32 // 32 * 2, 1, 2, 2, 2048)

    @T.prim_func
    def main_writer(A: T.Buffer((64, 64), "bfloat16"), B: T.Buffer((64, 64), "bfloat16"), Out: T.Buffer((64,), "float32"), reduce_scaler: T.Buffer((32, 32), "bfloat16", layout=None)):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "B": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 1, "stride_mode": "tiled"}, "Out": {"compile_time_args": 2, "page_bytes": 4096, "parameter": 2, "stride_mode": "tiled"}, "reduce_scaler": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 3, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "B": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "Out": {"blocks": [0], "data_format": "Float32", "dram_format": "", "dtype": "float32", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64], "page_bytes": 4096, "page_layout": "tile", "pages": 2, "shape": [64], "tile_cols": 2, "tile_rows": 1, "transposed": False}, "reduce_scaler": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [32, 32], "page_bytes": 2048, "page_layout": "tile", "pages": 1, "shape": [32, 32], "tile_cols": 1, "tile_rows": 1, "transposed": False}}, "tt.cbs": [{"block_pages": 2, "buffer": "A_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "A_shared#1"}, {"block_pages": 1, "buffer": "reduce_scaler_tile", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 1, "page_bytes": 2048, "producer": "reader", "stream": "reduce_scaler_tile#1"}, {"block_pages": 2, "buffer": "B_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 2, "page_bytes": 2048, "producer": "reader", "stream": "B_shared#1"}, {"block_pages": 1, "buffer": "row_T", "buffer_dtype": "float32", "class": "output", "consumer": "writer", "data_format": "Float32", "depth": 2, "dtype": "float32", "index": 16, "page_bytes": 4096, "producer": "compute", "stream": "row_T#1"}, {"block_pages": 1, "buffer": "row", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 24, "page_bytes": 4096, "producer": "compute", "stream": "row#1"}, {"block_pages": 1, "buffer": "row", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 25, "page_bytes": 4096, "producer": "compute", "stream": "row#2"}], "tt.compile_time_args": [{"offset": 0, "tensor": "Out"}], "tt.constants": {"reduce_scaler": {"rows": [0, 16], "value": 1.0}}, "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 0]], "tt.grid_blocks": [2, 1, 1], "tt.kernel_role": "writer", "tt.launch_vars": {"blockIdx.x": "bx"}, "tt.partition_mode": "shard", "tt.tensor_args": {"Out_addr": "Out"}, "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}, {"col0": 1, "cols": 1, "count": 1, "row0": 0}]})
        Out_addr = T.uint32()
        count = T.int32()
        col0 = T.int32()
        cols = T.int32()
        accessor_args: T.let[T.handle] = T.tt.tensor_accessor_args(0)
        accessor: T.let[T.handle] = T.tt.tensor_accessor(accessor_args, Out_addr, 4096)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            bx: T.let[T.int32] = col0 + i % cols
            T.tt.write_block(16, accessor, bx * 32 // 32, 1, 1, 2, 4096)

# ---------------------------------------- after LowerTTProtocols
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main_compute(A: T.Buffer((64, 64), "bfloat16"), B: T.Buffer((64, 64), "bfloat16"), Out: T.Buffer((64,), "float32"), reduce_scaler: T.Buffer((32, 32), "bfloat16", layout=None)):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "B": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 1, "stride_mode": "tiled"}, "Out": {"compile_time_args": 2, "page_bytes": 4096, "parameter": 2, "stride_mode": "tiled"}, "reduce_scaler": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 3, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "B": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "Out": {"blocks": [0], "data_format": "Float32", "dram_format": "", "dtype": "float32", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64], "page_bytes": 4096, "page_layout": "tile", "pages": 2, "shape": [64], "tile_cols": 2, "tile_rows": 1, "transposed": False}, "reduce_scaler": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [32, 32], "page_bytes": 2048, "page_layout": "tile", "pages": 1, "shape": [32, 32], "tile_cols": 1, "tile_rows": 1, "transposed": False}}, "tt.cbs": [{"block_pages": 2, "buffer": "A_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "A_shared#1"}, {"block_pages": 1, "buffer": "reduce_scaler_tile", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 1, "page_bytes": 2048, "producer": "reader", "stream": "reduce_scaler_tile#1"}, {"block_pages": 2, "buffer": "B_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 2, "page_bytes": 2048, "producer": "reader", "stream": "B_shared#1"}, {"block_pages": 1, "buffer": "row_T", "buffer_dtype": "float32", "class": "output", "consumer": "writer", "data_format": "Float32", "depth": 2, "dtype": "float32", "index": 16, "page_bytes": 4096, "producer": "compute", "stream": "row_T#1"}, {"block_pages": 1, "buffer": "row", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 24, "page_bytes": 4096, "producer": "compute", "stream": "row#1"}, {"block_pages": 1, "buffer": "row", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 25, "page_bytes": 4096, "producer": "compute", "stream": "row#2"}], "tt.constants": {"reduce_scaler": {"rows": [0, 16], "value": 1.0}}, "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 0]], "tt.grid_blocks": [2, 1, 1], "tt.kernel_role": "compute", "tt.launch_vars": {"blockIdx.x": "bx"}, "tt.partition_mode": "shard", "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}, {"col0": 1, "cols": 1, "count": 1, "row0": 0}]})
        count = T.int32()
        T.tt.compute_kernel_hw_startup(0, 1, 24)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            T.tt.pack_reconfig_data_format(24)
            T.tt.cb_wait_front(0, 2)
            T.tt.cb_wait_front(1, 1)
            T.tt.tile_regs_acquire()
            T.tt.reconfig_data_format(0, 1)
            T.tt.reduce_sum_init(0, 1, 24)
            for c in range(2):
                T.tt.reduce_sum_tile(0, 1, c, 0, 0)
            T.tt.tile_regs_commit()
            T.tt.tile_regs_wait()
            T.tt.cb_reserve_back(24, 1)
            T.tt.pack_tile(0, 24)
            T.tt.cb_push_back(24, 1)
            T.tt.tile_regs_release()
            T.tt.reduce_uninit(0)
            T.tt.cb_pop_front(0, 2)
            T.tt.pack_reconfig_data_format(25)
            T.tt.cb_wait_front(2, 2)
            T.tt.cb_wait_front(24, 1)
            T.tt.tile_regs_acquire()
            T.tt.reconfig_data_format_srca(24)
            T.tt.copy_tile_init(24)
            T.tt.copy_tile(24, 0, 0)
            T.tt.reconfig_data_format(2, 1)
            T.tt.reduce_sum_init(2, 1, 25)
            for c in range(2):
                T.tt.reduce_sum_tile(2, 1, c, 0, 0)
            T.tt.tile_regs_commit()
            T.tt.tile_regs_wait()
            T.tt.cb_reserve_back(25, 1)
            T.tt.pack_tile(0, 25)
            T.tt.cb_push_back(25, 1)
            T.tt.tile_regs_release()
            T.tt.reduce_uninit(2)
            T.tt.cb_pop_front(2, 2)
            T.tt.cb_pop_front(1, 1)
            T.tt.cb_pop_front(24, 1)
            T.tt.reconfig_data_format_srca(25)
            T.tt.pack_reconfig_data_format(16)
            T.tt.cb_wait_front(25, 1)
            T.tt.tile_regs_acquire()
            T.tt.transpose_init(25)
            T.tt.transpose_tile(25, 0, 0)
            T.tt.tile_regs_commit()
            T.tt.tile_regs_wait()
            T.tt.cb_reserve_back(16, 1)
            T.tt.pack_tile(0, 16)
            T.tt.cb_push_back(16, 1)
            T.tt.tile_regs_release()
            T.tt.cb_pop_front(25, 1)

    @T.prim_func
    def main_reader(A: T.Buffer((64, 64), "bfloat16"), B: T.Buffer((64, 64), "bfloat16"), Out: T.Buffer((64,), "float32"), reduce_scaler: T.Buffer((32, 32), "bfloat16", layout=None)):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "B": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 1, "stride_mode": "tiled"}, "Out": {"compile_time_args": 2, "page_bytes": 4096, "parameter": 2, "stride_mode": "tiled"}, "reduce_scaler": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 3, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "B": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "Out": {"blocks": [0], "data_format": "Float32", "dram_format": "", "dtype": "float32", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64], "page_bytes": 4096, "page_layout": "tile", "pages": 2, "shape": [64], "tile_cols": 2, "tile_rows": 1, "transposed": False}, "reduce_scaler": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [32, 32], "page_bytes": 2048, "page_layout": "tile", "pages": 1, "shape": [32, 32], "tile_cols": 1, "tile_rows": 1, "transposed": False}}, "tt.cbs": [{"block_pages": 2, "buffer": "A_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "A_shared#1"}, {"block_pages": 1, "buffer": "reduce_scaler_tile", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 1, "page_bytes": 2048, "producer": "reader", "stream": "reduce_scaler_tile#1"}, {"block_pages": 2, "buffer": "B_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 2, "page_bytes": 2048, "producer": "reader", "stream": "B_shared#1"}, {"block_pages": 1, "buffer": "row_T", "buffer_dtype": "float32", "class": "output", "consumer": "writer", "data_format": "Float32", "depth": 2, "dtype": "float32", "index": 16, "page_bytes": 4096, "producer": "compute", "stream": "row_T#1"}, {"block_pages": 1, "buffer": "row", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 24, "page_bytes": 4096, "producer": "compute", "stream": "row#1"}, {"block_pages": 1, "buffer": "row", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 25, "page_bytes": 4096, "producer": "compute", "stream": "row#2"}], "tt.compile_time_args": [{"offset": 0, "tensor": "A"}, {"offset": 2, "tensor": "B"}, {"offset": 4, "tensor": "reduce_scaler"}], "tt.constants": {"reduce_scaler": {"rows": [0, 16], "value": 1.0}}, "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 0]], "tt.grid_blocks": [2, 1, 1], "tt.kernel_role": "reader", "tt.launch_vars": {"blockIdx.x": "bx"}, "tt.partition_mode": "shard", "tt.tensor_args": {"A_addr": "A", "B_addr": "B", "reduce_scaler_addr": "reduce_scaler"}, "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}, {"col0": 1, "cols": 1, "count": 1, "row0": 0}]})
        A_addr = T.uint32()
        B_addr = T.uint32()
        reduce_scaler_addr = T.uint32()
        count = T.int32()
        col0 = T.int32()
        cols = T.int32()
        accessor_args: T.let[T.handle] = T.tt.tensor_accessor_args(0)
        accessor: T.let[T.handle] = T.tt.tensor_accessor(accessor_args, A_addr, 2048)
        offset: T.let[T.int32] = T.tt.next_compile_time_args_offset(accessor_args)
        accessor_args_1: T.let[T.handle] = T.tt.tensor_accessor_args(offset)
        accessor_1: T.let[T.handle] = T.tt.tensor_accessor(accessor_args_1, B_addr, 2048)
        offset_1: T.let[T.int32] = T.tt.next_compile_time_args_offset(accessor_args_1)
        accessor_args_2: T.let[T.handle] = T.tt.tensor_accessor_args(offset_1)
        accessor_2: T.let[T.handle] = T.tt.tensor_accessor(accessor_args_2, reduce_scaler_addr, 2048)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            bx: T.let[T.int32] = col0 + i % cols
            T.tt.cb_reserve_back(0, 2)
            l1_write_addr: T.let[T.int32] = T.Cast("int32", T.tt.get_write_ptr(0))
            for c in range(2):
                T.tt.noc_async_read_page(bx * 32 // 32 * 2 + c, accessor, l1_write_addr + c * 2048)
            T.tt.noc_async_read_barrier()
            T.tt.cb_push_back(0, 2)
            T.tt.cb_reserve_back(1, 1)
            l1_write_addr_1: T.let[T.int32] = T.Cast("int32", T.tt.get_write_ptr(1))
            T.tt.noc_async_read_page(0, accessor_2, l1_write_addr_1)
            T.tt.noc_async_read_barrier()
            T.tt.cb_push_back(1, 1)
            T.tt.cb_reserve_back(2, 2)
            l1_write_addr_2: T.let[T.int32] = T.Cast("int32", T.tt.get_write_ptr(2))
            for c in range(2):
                T.tt.noc_async_read_page(bx * 32 // 32 * 2 + c, accessor_1, l1_write_addr_2 + c * 2048)
            T.tt.noc_async_read_barrier()
            T.tt.cb_push_back(2, 2)

    @T.prim_func
    def main_writer(A: T.Buffer((64, 64), "bfloat16"), B: T.Buffer((64, 64), "bfloat16"), Out: T.Buffer((64,), "float32"), reduce_scaler: T.Buffer((32, 32), "bfloat16", layout=None)):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "B": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 1, "stride_mode": "tiled"}, "Out": {"compile_time_args": 2, "page_bytes": 4096, "parameter": 2, "stride_mode": "tiled"}, "reduce_scaler": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 3, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "B": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "Out": {"blocks": [0], "data_format": "Float32", "dram_format": "", "dtype": "float32", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64], "page_bytes": 4096, "page_layout": "tile", "pages": 2, "shape": [64], "tile_cols": 2, "tile_rows": 1, "transposed": False}, "reduce_scaler": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [32, 32], "page_bytes": 2048, "page_layout": "tile", "pages": 1, "shape": [32, 32], "tile_cols": 1, "tile_rows": 1, "transposed": False}}, "tt.cbs": [{"block_pages": 2, "buffer": "A_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "A_shared#1"}, {"block_pages": 1, "buffer": "reduce_scaler_tile", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 1, "page_bytes": 2048, "producer": "reader", "stream": "reduce_scaler_tile#1"}, {"block_pages": 2, "buffer": "B_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 4, "dtype": "bfloat16", "index": 2, "page_bytes": 2048, "producer": "reader", "stream": "B_shared#1"}, {"block_pages": 1, "buffer": "row_T", "buffer_dtype": "float32", "class": "output", "consumer": "writer", "data_format": "Float32", "depth": 2, "dtype": "float32", "index": 16, "page_bytes": 4096, "producer": "compute", "stream": "row_T#1"}, {"block_pages": 1, "buffer": "row", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 24, "page_bytes": 4096, "producer": "compute", "stream": "row#1"}, {"block_pages": 1, "buffer": "row", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 25, "page_bytes": 4096, "producer": "compute", "stream": "row#2"}], "tt.compile_time_args": [{"offset": 0, "tensor": "Out"}], "tt.constants": {"reduce_scaler": {"rows": [0, 16], "value": 1.0}}, "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 0]], "tt.grid_blocks": [2, 1, 1], "tt.kernel_role": "writer", "tt.launch_vars": {"blockIdx.x": "bx"}, "tt.partition_mode": "shard", "tt.tensor_args": {"Out_addr": "Out"}, "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}, {"col0": 1, "cols": 1, "count": 1, "row0": 0}]})
        Out_addr = T.uint32()
        count = T.int32()
        col0 = T.int32()
        cols = T.int32()
        accessor_args: T.let[T.handle] = T.tt.tensor_accessor_args(0)
        accessor: T.let[T.handle] = T.tt.tensor_accessor(accessor_args, Out_addr, 4096)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            bx: T.let[T.int32] = col0 + i % cols
            T.tt.cb_wait_front(16, 1)
            l1_read_addr: T.let[T.int32] = T.Cast("int32", T.tt.get_read_ptr(16))
            T.tt.noc_async_write_page(bx * 32 // 32, accessor, l1_read_addr)
            T.tt.noc_async_write_barrier()
            T.tt.cb_pop_front(16, 1)
