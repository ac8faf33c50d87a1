# ruff: noqa
# Golden of LowerTTProtocols, case tt_softmax (lower_and_legalize_tt + optimize_tenstorrent):
# softmax(64, 64, 32), TileLang's own: fp32 row reductions, stores split into one op per operation, broadcasts of [block_M] column vectors (bcast_block).
# Written by `TILELANG_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/passes/test_pass_golden.py`; do not edit by hand. The pass's input, then its output.
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main_compute(X: T.Buffer((64, 64), "float32"), Y: T.Buffer((64, 64), "float32"), reduce_scaler: T.Buffer((32, 32), "bfloat16", layout=None)):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"X": {"compile_time_args": 2, "page_bytes": 4096, "parameter": 0, "stride_mode": "tiled"}, "Y": {"compile_time_args": 2, "page_bytes": 4096, "parameter": 1, "stride_mode": "tiled"}, "reduce_scaler": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 2, "stride_mode": "tiled"}}, "tt.buffers": {"X": {"blocks": [0, 0], "data_format": "Float32", "dram_format": "", "dtype": "float32", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 4096, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "Y": {"blocks": [0, 0], "data_format": "Float32", "dram_format": "", "dtype": "float32", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 4096, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "reduce_scaler": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [32, 32], "page_bytes": 2048, "page_layout": "tile", "pages": 1, "shape": [32, 32], "tile_cols": 1, "tile_rows": 1, "transposed": False}}, "tt.cbs": [{"block_pages": 2, "buffer": "x", "buffer_dtype": "float32", "class": "input", "consumer": "compute", "data_format": "Float32", "depth": 4, "dtype": "float32", "index": 0, "page_bytes": 4096, "producer": "reader", "stream": "x#1"}, {"block_pages": 1, "buffer": "reduce_scaler_tile", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 1, "page_bytes": 2048, "producer": "reader", "stream": "reduce_scaler_tile#1"}, {"block_pages": 2, "buffer": "x", "buffer_dtype": "float32", "class": "output", "consumer": "writer", "data_format": "Float32", "depth": 4, "dtype": "float32", "index": 16, "page_bytes": 4096, "producer": "compute", "stream": "x#3"}, {"block_pages": 1, "buffer": "row_max", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 24, "page_bytes": 4096, "producer": "compute", "stream": "row_max#1"}, {"block_pages": 2, "buffer": "x_t2", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 2, "dtype": "float32", "index": 25, "page_bytes": 4096, "producer": "compute", "stream": "x_t2#1"}, {"block_pages": 1, "buffer": "x_t3", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 26, "page_bytes": 4096, "producer": "compute", "stream": "x_t3#1"}, {"block_pages": 2, "buffer": "x", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 2, "dtype": "float32", "index": 27, "page_bytes": 4096, "producer": "compute", "stream": "x#2"}, {"block_pages": 1, "buffer": "row_sum", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 28, "page_bytes": 4096, "producer": "compute", "stream": "row_sum#1"}, {"block_pages": 1, "buffer": "x_t6", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 29, "page_bytes": 4096, "producer": "compute", "stream": "x_t6#1"}], "tt.constants": {"reduce_scaler": {"rows": [0, 16], "value": 1.0}}, "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 0]], "tt.grid_blocks": [2, 1, 1], "tt.kernel_role": "compute", "tt.launch_vars": {"blockIdx.x": "bx"}, "tt.partition_mode": "shard", "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}, {"col0": 1, "cols": 1, "count": 1, "row0": 0}]})
        count = T.int32()
        T.tt.compute_kernel_hw_startup(0, 1, 24)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            T.tt.reduce_block(0, 1, -1, 24, 1, 2, "max", 0, 1, 0, 1, 0, 0, 0, 1)
            T.tt.eltwise_block(0, 0, 25, 2, "none", "none", "none", "mul", 1069066811, "none", 0, 0, "none", T.float32(0.0), 0, 0, 1, 1, 1)
            T.tt.eltwise_block(24, 24, 26, 1, "none", "none", "none", "mul", 1069066811, "none", 0, 0, "none", T.float32(0.0), 1, 1, 1, 1, 1)
            T.tt.bcast_block(25, 26, 27, 1, 2, "sub", "cols", "exp2", 1, 1, 1, 1, 1)
            T.tt.reduce_block(27, 1, -1, 28, 1, 2, "sum", 0, 1, 0, 0, 1, 0, 0, 1)
            T.tt.eltwise_block(28, 28, 29, 1, "none", "none", "recip", "none", 0, "none", 0, 0, "none", T.float32(0.0), 1, 1, 1, 1, 1)
            T.tt.bcast_block(27, 29, 16, 1, 2, "mul", "cols", "none", 0, 1, 1, 1, 1)

    @T.prim_func
    def main_reader(X: T.Buffer((64, 64), "float32"), Y: T.Buffer((64, 64), "float32"), reduce_scaler: T.Buffer((32, 32), "bfloat16", layout=None)):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"X": {"compile_time_args": 2, "page_bytes": 4096, "parameter": 0, "stride_mode": "tiled"}, "Y": {"compile_time_args": 2, "page_bytes": 4096, "parameter": 1, "stride_mode": "tiled"}, "reduce_scaler": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 2, "stride_mode": "tiled"}}, "tt.buffers": {"X": {"blocks": [0, 0], "data_format": "Float32", "dram_format": "", "dtype": "float32", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 4096, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "Y": {"blocks": [0, 0], "data_format": "Float32", "dram_format": "", "dtype": "float32", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 4096, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "reduce_scaler": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [32, 32], "page_bytes": 2048, "page_layout": "tile", "pages": 1, "shape": [32, 32], "tile_cols": 1, "tile_rows": 1, "transposed": False}}, "tt.cbs": [{"block_pages": 2, "buffer": "x", "buffer_dtype": "float32", "class": "input", "consumer": "compute", "data_format": "Float32", "depth": 4, "dtype": "float32", "index": 0, "page_bytes": 4096, "producer": "reader", "stream": "x#1"}, {"block_pages": 1, "buffer": "reduce_scaler_tile", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 1, "page_bytes": 2048, "producer": "reader", "stream": "reduce_scaler_tile#1"}, {"block_pages": 2, "buffer": "x", "buffer_dtype": "float32", "class": "output", "consumer": "writer", "data_format": "Float32", "depth": 4, "dtype": "float32", "index": 16, "page_bytes": 4096, "producer": "compute", "stream": "x#3"}, {"block_pages": 1, "buffer": "row_max", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 24, "page_bytes": 4096, "producer": "compute", "stream": "row_max#1"}, {"block_pages": 2, "buffer": "x_t2", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 2, "dtype": "float32", "index": 25, "page_bytes": 4096, "producer": "compute", "stream": "x_t2#1"}, {"block_pages": 1, "buffer": "x_t3", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 26, "page_bytes": 4096, "producer": "compute", "stream": "x_t3#1"}, {"block_pages": 2, "buffer": "x", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 2, "dtype": "float32", "index": 27, "page_bytes": 4096, "producer": "compute", "stream": "x#2"}, {"block_pages": 1, "buffer": "row_sum", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 28, "page_bytes": 4096, "producer": "compute", "stream": "row_sum#1"}, {"block_pages": 1, "buffer": "x_t6", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 29, "page_bytes": 4096, "producer": "compute", "stream": "x_t6#1"}], "tt.compile_time_args": [{"offset": 0, "tensor": "X"}, {"offset": 2, "tensor": "reduce_scaler"}], "tt.constants": {"reduce_scaler": {"rows": [0, 16], "value": 1.0}}, "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 0]], "tt.grid_blocks": [2, 1, 1], "tt.kernel_role": "reader", "tt.launch_vars": {"blockIdx.x": "bx"}, "tt.partition_mode": "shard", "tt.tensor_args": {"X_addr": "X", "reduce_scaler_addr": "reduce_scaler"}, "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}, {"col0": 1, "cols": 1, "count": 1, "row0": 0}]})
        X_addr = T.uint32()
        reduce_scaler_addr = T.uint32()
        count = T.int32()
        col0 = T.int32()
        cols = T.int32()
        accessor_args: T.let[T.handle] = T.tt.tensor_accessor_args(0)
        accessor: T.let[T.handle] = T.tt.tensor_accessor(accessor_args, X_addr, 4096)
        offset: T.let[T.int32] = T.tt.next_compile_time_args_offset(accessor_args)
        accessor_args_1: T.let[T.handle] = T.tt.tensor_accessor_args(offset)
        accessor_1: T.let[T.handle] = T.tt.tensor_accessor(accessor_args_1, reduce_scaler_addr, 2048)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            bx: T.let[T.int32] = col0 + i % cols
            T.tt.read_block(0, accessor, bx * 32 // 32 * 2, 1, 2, 2, 4096)
            T.tt.read_block(1, accessor_1, 0, 1, 1, 1, 2048)

    @T.prim_func
    def main_writer(X: T.Buffer((64, 64), "float32"), Y: T.Buffer((64, 64), "float32"), reduce_scaler: T.Buffer((32, 32), "bfloat16", layout=None)):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"X": {"compile_time_args": 2, "page_bytes": 4096, "parameter": 0, "stride_mode": "tiled"}, "Y": {"compile_time_args": 2, "page_bytes": 4096, "parameter": 1, "stride_mode": "tiled"}, "reduce_scaler": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 2, "stride_mode": "tiled"}}, "tt.buffers": {"X": {"blocks": [0, 0], "data_format": "Float32", "dram_format": "", "dtype": "float32", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 4096, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "Y": {"blocks": [0, 0], "data_format": "Float32", "dram_format": "", "dtype": "float32", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 4096, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "reduce_scaler": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [32, 32], "page_bytes": 2048, "page_layout": "tile", "pages": 1, "shape": [32, 32], "tile_cols": 1, "tile_rows": 1, "transposed": False}}, "tt.cbs": [{"block_pages": 2, "buffer": "x", "buffer_dtype": "float32", "class": "input", "consumer": "compute", "data_format": "Float32", "depth": 4, "dtype": "float32", "index": 0, "page_bytes": 4096, "producer": "reader", "stream": "x#1"}, {"block_pages": 1, "buffer": "reduce_scaler_tile", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 1, "page_bytes": 2048, "producer": "reader", "stream": "reduce_scaler_tile#1"}, {"block_pages": 2, "buffer": "x", "buffer_dtype": "float32", "class": "output", "consumer": "writer", "data_format": "Float32", "depth": 4, "dtype": "float32", "index": 16, "page_bytes": 4096, "producer": "compute", "stream": "x#3"}, {"block_pages": 1, "buffer": "row_max", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 24, "page_bytes": 4096, "producer": "compute", "stream": "row_max#1"}, {"block_pages": 2, "buffer": "x_t2", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 2, "dtype": "float32", "index": 25, "page_bytes": 4096, "producer": "compute", "stream": "x_t2#1"}, {"block_pages": 1, "buffer": "x_t3", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 26, "page_bytes": 4096, "producer": "compute", "stream": "x_t3#1"}, {"block_pages": 2, "buffer": "x", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 2, "dtype": "float32", "index": 27, "page_bytes": 4096, "producer": "compute", "stream": "x#2"}, {"block_pages": 1, "buffer": "row_sum", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 28, "page_bytes": 4096, "producer": "compute", "stream": "row_sum#1"}, {"block_pages": 1, "buffer": "x_t6", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 29, "page_bytes": 4096, "producer": "compute", "stream": "x_t6#1"}], "tt.compile_time_args": [{"offset": 0, "tensor": "Y"}], "tt.constants": {"reduce_scaler": {"rows": [0, 16], "value": 1.0}}, "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 0]], "tt.grid_blocks": [2, 1, 1], "tt.kernel_role": "writer", "tt.launch_vars": {"blockIdx.x": "bx"}, "tt.partition_mode": "shard", "tt.tensor_args": {"Y_addr": "Y"}, "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}, {"col0": 1, "cols": 1, "count": 1, "row0": 0}]})
        Y_addr = T.uint32()
        count = T.int32()
        col0 = T.int32()
        cols = T.int32()
        accessor_args: T.let[T.handle] = T.tt.tensor_accessor_args(0)
        accessor: T.let[T.handle] = T.tt.tensor_accessor(accessor_args, Y_addr, 4096)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            bx: T.let[T.int32] = col0 + i % cols
            T.tt.write_block(16, accessor, bx * 32 // 32 * 2, 1, 2, 2, 4096)

# ---------------------------------------- after LowerTTProtocols
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main_compute(X: T.Buffer((64, 64), "float32"), Y: T.Buffer((64, 64), "float32"), reduce_scaler: T.Buffer((32, 32), "bfloat16", layout=None)):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"X": {"compile_time_args": 2, "page_bytes": 4096, "parameter": 0, "stride_mode": "tiled"}, "Y": {"compile_time_args": 2, "page_bytes": 4096, "parameter": 1, "stride_mode": "tiled"}, "reduce_scaler": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 2, "stride_mode": "tiled"}}, "tt.buffers": {"X": {"blocks": [0, 0], "data_format": "Float32", "dram_format": "", "dtype": "float32", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 4096, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "Y": {"blocks": [0, 0], "data_format": "Float32", "dram_format": "", "dtype": "float32", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 4096, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "reduce_scaler": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [32, 32], "page_bytes": 2048, "page_layout": "tile", "pages": 1, "shape": [32, 32], "tile_cols": 1, "tile_rows": 1, "transposed": False}}, "tt.cbs": [{"block_pages": 2, "buffer": "x", "buffer_dtype": "float32", "class": "input", "consumer": "compute", "data_format": "Float32", "depth": 4, "dtype": "float32", "index": 0, "page_bytes": 4096, "producer": "reader", "stream": "x#1"}, {"block_pages": 1, "buffer": "reduce_scaler_tile", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 1, "page_bytes": 2048, "producer": "reader", "stream": "reduce_scaler_tile#1"}, {"block_pages": 2, "buffer": "x", "buffer_dtype": "float32", "class": "output", "consumer": "writer", "data_format": "Float32", "depth": 4, "dtype": "float32", "index": 16, "page_bytes": 4096, "producer": "compute", "stream": "x#3"}, {"block_pages": 1, "buffer": "row_max", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 24, "page_bytes": 4096, "producer": "compute", "stream": "row_max#1"}, {"block_pages": 2, "buffer": "x_t2", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 2, "dtype": "float32", "index": 25, "page_bytes": 4096, "producer": "compute", "stream": "x_t2#1"}, {"block_pages": 1, "buffer": "x_t3", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 26, "page_bytes": 4096, "producer": "compute", "stream": "x_t3#1"}, {"block_pages": 2, "buffer": "x", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 2, "dtype": "float32", "index": 27, "page_bytes": 4096, "producer": "compute", "stream": "x#2"}, {"block_pages": 1, "buffer": "row_sum", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 28, "page_bytes": 4096, "producer": "compute", "stream": "row_sum#1"}, {"block_pages": 1, "buffer": "x_t6", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 29, "page_bytes": 4096, "producer": "compute", "stream": "x_t6#1"}], "tt.constants": {"reduce_scaler": {"rows": [0, 16], "value": 1.0}}, "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 0]], "tt.grid_blocks": [2, 1, 1], "tt.kernel_role": "compute", "tt.launch_vars": {"blockIdx.x": "bx"}, "tt.partition_mode": "shard", "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}, {"col0": 1, "cols": 1, "count": 1, "row0": 0}]})
        count = T.int32()
        T.tt.compute_kernel_hw_startup(0, 1, 24)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            T.tt.pack_reconfig_data_format(24)
            T.tt.cb_wait_front(0, 2)
            T.tt.cb_wait_front(1, 1)
            T.tt.tile_regs_acquire()
            T.tt.reconfig_data_format_srca(0)
            T.tt.copy_tile_init(0)
            T.tt.copy_tile(0, 0, 0)
            T.tt.reconfig_data_format(0, 1)
            T.tt.reduce_max_init(0, 1, 24)
            for c in range(2):
                T.tt.reduce_max_tile(0, 1, c, 0, 0)
            T.tt.tile_regs_commit()
            T.tt.tile_regs_wait()
            T.tt.cb_reserve_back(24, 1)
            T.tt.pack_tile(0, 24)
            T.tt.cb_push_back(24, 1)
            T.tt.tile_regs_release()
            T.tt.reduce_uninit(0)
            T.tt.reconfig_data_format_srca(0)
            T.tt.pack_reconfig_data_format(25)
            for t in range(2):
                T.tt.tile_regs_acquire()
                T.tt.copy_tile_init(0)
                T.tt.copy_tile(0, t, 0)
                T.tt.binop_with_scalar_tile_init()
                T.tt.mul_unary_tile(0, 1069066811)
                T.tt.tile_regs_commit()
                T.tt.tile_regs_wait()
                T.tt.cb_reserve_back(25, 1)
                T.tt.pack_tile(0, 25)
                T.tt.cb_push_back(25, 1)
                T.tt.tile_regs_release()
            T.tt.cb_pop_front(0, 2)
            T.tt.reconfig_data_format_srca(24)
            T.tt.pack_reconfig_data_format(26)
            T.tt.cb_wait_front(24, 1)
            T.tt.tile_regs_acquire()
            T.tt.copy_tile_init(24)
            T.tt.copy_tile(24, 0, 0)
            T.tt.binop_with_scalar_tile_init()
            T.tt.mul_unary_tile(0, 1069066811)
            T.tt.tile_regs_commit()
            T.tt.tile_regs_wait()
            T.tt.cb_reserve_back(26, 1)
            T.tt.pack_tile(0, 26)
            T.tt.cb_push_back(26, 1)
            T.tt.tile_regs_release()
            T.tt.cb_pop_front(24, 1)
            T.tt.reconfig_data_format(25, 26)
            T.tt.pack_reconfig_data_format(27)
            T.tt.cb_wait_front(25, 2)
            T.tt.cb_wait_front(26, 1)
            for c in range(2):
                T.tt.tile_regs_acquire()
                T.tt.sub_bcast_cols_init(25, 26)
                T.tt.sub_tiles_bcast_cols(25, 26, c, 0, 0)
                T.tt.exp2_tile_init()
                T.tt.exp2_tile(0)
                T.tt.tile_regs_commit()
                T.tt.tile_regs_wait()
                T.tt.cb_reserve_back(27, 1)
                T.tt.pack_tile(0, 27)
                T.tt.cb_push_back(27, 1)
                T.tt.tile_regs_release()
            T.tt.cb_pop_front(25, 2)
            T.tt.cb_pop_front(26, 1)
            T.tt.pack_reconfig_data_format(28)
            T.tt.cb_wait_front(27, 2)
            T.tt.tile_regs_acquire()
            T.tt.reconfig_data_format(27, 1)
            T.tt.reduce_sum_init(27, 1, 28)
            for c in range(2):
                T.tt.reduce_sum_tile(27, 1, c, 0, 0)
            T.tt.tile_regs_commit()
            T.tt.tile_regs_wait()
            T.tt.cb_reserve_back(28, 1)
            T.tt.pack_tile(0, 28)
            T.tt.cb_push_back(28, 1)
            T.tt.tile_regs_release()
            T.tt.reduce_uninit(27)
            T.tt.cb_pop_front(1, 1)
            T.tt.reconfig_data_format_srca(28)
            T.tt.pack_reconfig_data_format(29)
            T.tt.cb_wait_front(28, 1)
            T.tt.tile_regs_acquire()
            T.tt.copy_tile_init(28)
            T.tt.copy_tile(28, 0, 0)
            T.tt.recip_tile_init()
            T.tt.recip_tile(0)
            T.tt.tile_regs_commit()
            T.tt.tile_regs_wait()
            T.tt.cb_reserve_back(29, 1)
            T.tt.pack_tile(0, 29)
            T.tt.cb_push_back(29, 1)
            T.tt.tile_regs_release()
            T.tt.cb_pop_front(28, 1)
            T.tt.reconfig_data_format(27, 29)
            T.tt.pack_reconfig_data_format(16)
            T.tt.cb_wait_front(29, 1)
            for c in range(2):
                T.tt.tile_regs_acquire()
                T.tt.mul_bcast_cols_init(27, 29)
                T.tt.mul_tiles_bcast_cols(27, 29, c, 0, 0)
                T.tt.tile_regs_commit()
                T.tt.tile_regs_wait()
                T.tt.cb_reserve_back(16, 1)
                T.tt.pack_tile(0, 16)
                T.tt.cb_push_back(16, 1)
                T.tt.tile_regs_release()
            T.tt.cb_pop_front(27, 2)
            T.tt.cb_pop_front(29, 1)

    @T.prim_func
    def main_reader(X: T.Buffer((64, 64), "float32"), Y: T.Buffer((64, 64), "float32"), reduce_scaler: T.Buffer((32, 32), "bfloat16", layout=None)):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"X": {"compile_time_args": 2, "page_bytes": 4096, "parameter": 0, "stride_mode": "tiled"}, "Y": {"compile_time_args": 2, "page_bytes": 4096, "parameter": 1, "stride_mode": "tiled"}, "reduce_scaler": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 2, "stride_mode": "tiled"}}, "tt.buffers": {"X": {"blocks": [0, 0], "data_format": "Float32", "dram_format": "", "dtype": "float32", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 4096, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "Y": {"blocks": [0, 0], "data_format": "Float32", "dram_format": "", "dtype": "float32", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 4096, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "reduce_scaler": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [32, 32], "page_bytes": 2048, "page_layout": "tile", "pages": 1, "shape": [32, 32], "tile_cols": 1, "tile_rows": 1, "transposed": False}}, "tt.cbs": [{"block_pages": 2, "buffer": "x", "buffer_dtype": "float32", "class": "input", "consumer": "compute", "data_format": "Float32", "depth": 4, "dtype": "float32", "index": 0, "page_bytes": 4096, "producer": "reader", "stream": "x#1"}, {"block_pages": 1, "buffer": "reduce_scaler_tile", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 1, "page_bytes": 2048, "producer": "reader", "stream": "reduce_scaler_tile#1"}, {"block_pages": 2, "buffer": "x", "buffer_dtype": "float32", "class": "output", "consumer": "writer", "data_format": "Float32", "depth": 4, "dtype": "float32", "index": 16, "page_bytes": 4096, "producer": "compute", "stream": "x#3"}, {"block_pages": 1, "buffer": "row_max", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 24, "page_bytes": 4096, "producer": "compute", "stream": "row_max#1"}, {"block_pages": 2, "buffer": "x_t2", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 2, "dtype": "float32", "index": 25, "page_bytes": 4096, "producer": "compute", "stream": "x_t2#1"}, {"block_pages": 1, "buffer": "x_t3", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 26, "page_bytes": 4096, "producer": "compute", "stream": "x_t3#1"}, {"block_pages": 2, "buffer": "x", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 2, "dtype": "float32", "index": 27, "page_bytes": 4096, "producer": "compute", "stream": "x#2"}, {"block_pages": 1, "buffer": "row_sum", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 28, "page_bytes": 4096, "producer": "compute", "stream": "row_sum#1"}, {"block_pages": 1, "buffer": "x_t6", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 29, "page_bytes": 4096, "producer": "compute", "stream": "x_t6#1"}], "tt.compile_time_args": [{"offset": 0, "tensor": "X"}, {"offset": 2, "tensor": "reduce_scaler"}], "tt.constants": {"reduce_scaler": {"rows": [0, 16], "value": 1.0}}, "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 0]], "tt.grid_blocks": [2, 1, 1], "tt.kernel_role": "reader", "tt.launch_vars": {"blockIdx.x": "bx"}, "tt.partition_mode": "shard", "tt.tensor_args": {"X_addr": "X", "reduce_scaler_addr": "reduce_scaler"}, "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}, {"col0": 1, "cols": 1, "count": 1, "row0": 0}]})
        X_addr = T.uint32()
        reduce_scaler_addr = T.uint32()
        count = T.int32()
        col0 = T.int32()
        cols = T.int32()
        accessor_args: T.let[T.handle] = T.tt.tensor_accessor_args(0)
        accessor: T.let[T.handle] = T.tt.tensor_accessor(accessor_args, X_addr, 4096)
        offset: T.let[T.int32] = T.tt.next_compile_time_args_offset(accessor_args)
        accessor_args_1: T.let[T.handle] = T.tt.tensor_accessor_args(offset)
        accessor_1: T.let[T.handle] = T.tt.tensor_accessor(accessor_args_1, reduce_scaler_addr, 2048)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            bx: T.let[T.int32] = col0 + i % cols
            T.tt.cb_reserve_back(0, 2)
            l1_write_addr: T.let[T.int32] = T.Cast("int32", T.tt.get_write_ptr(0))
            for c in range(2):
                T.tt.noc_async_read_page(bx * 32 // 32 * 2 + c, accessor, l1_write_addr + c * 4096)
            T.tt.noc_async_read_barrier()
            T.tt.cb_push_back(0, 2)
            T.tt.cb_reserve_back(1, 1)
            l1_write_addr_1: T.let[T.int32] = T.Cast("int32", T.tt.get_write_ptr(1))
            T.tt.noc_async_read_page(0, accessor_1, l1_write_addr_1)
            T.tt.noc_async_read_barrier()
            T.tt.cb_push_back(1, 1)

    @T.prim_func
    def main_writer(X: T.Buffer((64, 64), "float32"), Y: T.Buffer((64, 64), "float32"), reduce_scaler: T.Buffer((32, 32), "bfloat16", layout=None)):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"X": {"compile_time_args": 2, "page_bytes": 4096, "parameter": 0, "stride_mode": "tiled"}, "Y": {"compile_time_args": 2, "page_bytes": 4096, "parameter": 1, "stride_mode": "tiled"}, "reduce_scaler": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 2, "stride_mode": "tiled"}}, "tt.buffers": {"X": {"blocks": [0, 0], "data_format": "Float32", "dram_format": "", "dtype": "float32", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 4096, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "Y": {"blocks": [0, 0], "data_format": "Float32", "dram_format": "", "dtype": "float32", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 4096, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "reduce_scaler": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [32, 32], "page_bytes": 2048, "page_layout": "tile", "pages": 1, "shape": [32, 32], "tile_cols": 1, "tile_rows": 1, "transposed": False}}, "tt.cbs": [{"block_pages": 2, "buffer": "x", "buffer_dtype": "float32", "class": "input", "consumer": "compute", "data_format": "Float32", "depth": 4, "dtype": "float32", "index": 0, "page_bytes": 4096, "producer": "reader", "stream": "x#1"}, {"block_pages": 1, "buffer": "reduce_scaler_tile", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 1, "page_bytes": 2048, "producer": "reader", "stream": "reduce_scaler_tile#1"}, {"block_pages": 2, "buffer": "x", "buffer_dtype": "float32", "class": "output", "consumer": "writer", "data_format": "Float32", "depth": 4, "dtype": "float32", "index": 16, "page_bytes": 4096, "producer": "compute", "stream": "x#3"}, {"block_pages": 1, "buffer": "row_max", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 24, "page_bytes": 4096, "producer": "compute", "stream": "row_max#1"}, {"block_pages": 2, "buffer": "x_t2", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 2, "dtype": "float32", "index": 25, "page_bytes": 4096, "producer": "compute", "stream": "x_t2#1"}, {"block_pages": 1, "buffer": "x_t3", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 26, "page_bytes": 4096, "producer": "compute", "stream": "x_t3#1"}, {"block_pages": 2, "buffer": "x", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 2, "dtype": "float32", "index": 27, "page_bytes": 4096, "producer": "compute", "stream": "x#2"}, {"block_pages": 1, "buffer": "row_sum", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 28, "page_bytes": 4096, "producer": "compute", "stream": "row_sum#1"}, {"block_pages": 1, "buffer": "x_t6", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 29, "page_bytes": 4096, "producer": "compute", "stream": "x_t6#1"}], "tt.compile_time_args": [{"offset": 0, "tensor": "Y"}], "tt.constants": {"reduce_scaler": {"rows": [0, 16], "value": 1.0}}, "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 0]], "tt.grid_blocks": [2, 1, 1], "tt.kernel_role": "writer", "tt.launch_vars": {"blockIdx.x": "bx"}, "tt.partition_mode": "shard", "tt.tensor_args": {"Y_addr": "Y"}, "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}, {"col0": 1, "cols": 1, "count": 1, "row0": 0}]})
        Y_addr = T.uint32()
        count = T.int32()
        col0 = T.int32()
        cols = T.int32()
        accessor_args: T.let[T.handle] = T.tt.tensor_accessor_args(0)
        accessor: T.let[T.handle] = T.tt.tensor_accessor(accessor_args, Y_addr, 4096)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            bx: T.let[T.int32] = col0 + i % cols
            T.tt.cb_wait_front(16, 2)
            l1_read_addr: T.let[T.int32] = T.Cast("int32", T.tt.get_read_ptr(16))
            for c in range(2):
                T.tt.noc_async_write_page(bx * 32 // 32 * 2 + c, accessor, l1_read_addr + c * 4096)
            T.tt.noc_async_write_barrier()
            T.tt.cb_pop_front(16, 2)
