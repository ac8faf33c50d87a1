# ruff: noqa
# Golden of LowerTTProtocols, case tt_gemm_bias_relu (lower_and_legalize_tt + optimize_tenstorrent):
# matmul_bias_relu(64, 64, 64, 32, 32, 32): a GEMM, then a binary op with a relu.
# Written by `TILELANG_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/passes/test_pass_golden.py`; do not edit by hand. The pass's input, then its output.
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main_compute(A: T.Buffer((64, 64), "bfloat16"), B: T.Buffer((64, 64), "bfloat16"), Bias: T.Buffer((64, 64), "bfloat16"), D: T.Buffer((64, 64), "bfloat16")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "B": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 1, "stride_mode": "tiled"}, "Bias": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 2, "stride_mode": "tiled"}, "D": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 3, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "B": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "Bias": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "D": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}}, "tt.cbs": [{"block_pages": 1, "buffer": "A_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "A_shared#1"}, {"block_pages": 1, "buffer": "B_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 1, "page_bytes": 2048, "producer": "reader", "stream": "B_shared#1"}, {"block_pages": 1, "buffer": "Bias_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 2, "page_bytes": 2048, "producer": "reader", "stream": "Bias_shared#1"}, {"block_pages": 1, "buffer": "D_local", "buffer_dtype": "bfloat16", "class": "output", "consumer": "writer", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 16, "page_bytes": 2048, "producer": "compute", "stream": "D_local#1"}, {"block_pages": 1, "buffer": "C_local", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 24, "page_bytes": 4096, "producer": "compute", "stream": "C_local#2"}], "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 1]], "tt.grid_blocks": [2, 2, 1], "tt.kernel_role": "compute", "tt.launch_vars": {"blockIdx.x": "bx", "blockIdx.y": "by"}, "tt.partition_mode": "shard", "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 0, "cols": 1, "core": [0, 1], "count": 1, "row0": 1, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 1], "count": 1, "row0": 1, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}, {"col0": 1, "cols": 1, "count": 1, "row0": 0}, {"col0": 0, "cols": 1, "count": 1, "row0": 1}, {"col0": 1, "cols": 1, "count": 1, "row0": 1}]})
        count = T.int32()
        T.tt.compute_kernel_hw_startup_matmul(0, 1, 24)
        T.tt.matmul_init(0, 1)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            for k in T.serial(2, annotations={"num_stages": 2}):
                T.tt.matmul_block(0, 1, 24, -1, 1, 1, 1, k, 2, 1, 1, 1, 1, 1, 1, -1, 0, 0, 0, 1, 0, 0, 0, 1)
            T.tt.eltwise_block(24, 2, 16, 1, "add", "none", "relu", "none", 0, "none", 0, 0, "none", T.float32(0.0), 1, 1, 1, 1, 1)

    @T.prim_func
    def main_reader(A: T.Buffer((64, 64), "bfloat16"), B: T.Buffer((64, 64), "bfloat16"), Bias: T.Buffer((64, 64), "bfloat16"), D: T.Buffer((64, 64), "bfloat16")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "B": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 1, "stride_mode": "tiled"}, "Bias": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 2, "stride_mode": "tiled"}, "D": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 3, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "B": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "Bias": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "D": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}}, "tt.cbs": [{"block_pages": 1, "buffer": "A_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "A_shared#1"}, {"block_pages": 1, "buffer": "B_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 1, "page_bytes": 2048, "producer": "reader", "stream": "B_shared#1"}, {"block_pages": 1, "buffer": "Bias_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 2, "page_bytes": 2048, "producer": "reader", "stream": "Bias_shared#1"}, {"block_pages": 1, "buffer": "D_local", "buffer_dtype": "bfloat16", "class": "output", "consumer": "writer", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 16, "page_bytes": 2048, "producer": "compute", "stream": "D_local#1"}, {"block_pages": 1, "buffer": "C_local", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 24, "page_bytes": 4096, "producer": "compute", "stream": "C_local#2"}], "tt.compile_time_args": [{"offset": 0, "tensor": "A"}, {"offset": 2, "tensor": "B"}, {"offset": 4, "tensor": "Bias"}], "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 1]], "tt.grid_blocks": [2, 2, 1], "tt.kernel_role": "reader", "tt.launch_vars": {"blockIdx.x": "bx", "blockIdx.y": "by"}, "tt.partition_mode": "shard", "tt.semaphores": [{"initial_value": 0, "name": "A_sender_sem"}, {"initial_value": 0, "name": "A_receiver_sem"}, {"initial_value": 0, "name": "B_sender_sem"}, {"initial_value": 0, "name": "B_receiver_sem"}], "tt.tensor_args": {"A_addr": "A", "B_addr": "B", "Bias_addr": "Bias"}, "tt.work_args": ["row0", "col0", "cols", "count", "A_sender", "A_sender_x", "A_sender_y", "A_first_x", "A_first_y", "A_last_x", "A_last_y", "A_sender_sem", "A_receiver_sem", "B_sender", "B_sender_x", "B_sender_y", "B_first_x", "B_first_y", "B_last_x", "B_last_y", "B_sender_sem", "B_receiver_sem"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 0, "cols": 1, "core": [0, 1], "count": 1, "row0": 1, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 1], "count": 1, "row0": 1, "rows": 1}], "tt.work_values": [{"A_first_x": {"noc_x": [0, 0]}, "A_first_y": {"noc_y": [0, 0]}, "A_last_x": {"noc_x": [0, 0]}, "A_last_y": {"noc_y": [0, 0]}, "A_receiver_sem": {"semaphore": "A_receiver_sem"}, "A_sender": 0, "A_sender_sem": {"semaphore": "A_sender_sem"}, "A_sender_x": {"noc_x": [1, 0]}, "A_sender_y": {"noc_y": [1, 0]}, "B_first_x": {"noc_x": [0, 1]}, "B_first_y": {"noc_y": [0, 1]}, "B_last_x": {"noc_x": [0, 1]}, "B_last_y": {"noc_y": [0, 1]}, "B_receiver_sem": {"semaphore": "B_receiver_sem"}, "B_sender": 1, "B_sender_sem": {"semaphore": "B_sender_sem"}, "B_sender_x": {"noc_x": [0, 0]}, "B_sender_y": {"noc_y": [0, 0]}, "col0": 0, "cols": 1, "count": 1, "row0": 0}, {"A_first_x": {"noc_x": [0, 0]}, "A_first_y": {"noc_y": [0, 0]}, "A_last_x": {"noc_x": [0, 0]}, "A_last_y": {"noc_y": [0, 0]}, "A_receiver_sem": {"semaphore": "A_receiver_sem"}, "A_sender": 1, "A_sender_sem": {"semaphore": "A_sender_sem"}, "A_sender_x": {"noc_x": [1, 0]}, "A_sender_y": {"noc_y": [1, 0]}, "B_first_x": {"noc_x": [1, 0]}, "B_first_y": {"noc_y": [1, 0]}, "B_last_x": {"noc_x": [1, 0]}, "B_last_y": {"noc_y": [1, 0]}, "B_receiver_sem": {"semaphore": "B_receiver_sem"}, "B_sender": 0, "B_sender_sem": {"semaphore": "B_sender_sem"}, "B_sender_x": {"noc_x": [1, 1]}, "B_sender_y": {"noc_y": [1, 1]}, "col0": 1, "cols": 1, "count": 1, "row0": 0}, {"A_first_x": {"noc_x": [1, 1]}, "A_first_y": {"noc_y": [1, 1]}, "A_last_x": {"noc_x": [1, 1]}, "A_last_y": {"noc_y": [1, 1]}, "A_receiver_sem": {"semaphore": "A_receiver_sem"}, "A_sender": 1, "A_sender_sem": {"semaphore": "A_sender_sem"}, "A_sender_x": {"noc_x": [0, 1]}, "A_sender_y": {"noc_y": [0, 1]}, "B_first_x": {"noc_x": [0, 1]}, "B_first_y": {"noc_y": [0, 1]}, "B_last_x": {"noc_x": [0, 1]}, "B_last_y": {"noc_y": [0, 1]}, "B_receiver_sem": {"semaphore": "B_receiver_sem"}, "B_sender": 0, "B_sender_sem": {"semaphore": "B_sender_sem"}, "B_sender_x": {"noc_x": [0, 0]}, "B_sender_y": {"noc_y": [0, 0]}, "col0": 0, "cols": 1, "count": 1, "row0": 1}, {"A_first_x": {"noc_x": [1, 1]}, "A_first_y": {"noc_y": [1, 1]}, "A_last_x": {"noc_x": [1, 1]}, "A_last_y": {"noc_y": [1, 1]}, "A_receiver_sem": {"semaphore": "A_receiver_sem"}, "A_sender": 0, "A_sender_sem": {"semaphore": "A_sender_sem"}, "A_sender_x": {"noc_x": [0, 1]}, "A_sender_y": {"noc_y": [0, 1]}, "B_first_x": {"noc_x": [1, 0]}, "B_first_y": {"noc_y": [1, 0]}, "B_last_x": {"noc_x": [1, 0]}, "B_last_y": {"noc_y": [1, 0]}, "B_receiver_sem": {"semaphore": "B_receiver_sem"}, "B_sender": 1, "B_sender_sem": {"semaphore": "B_sender_sem"}, "B_sender_x": {"noc_x": [1, 1]}, "B_sender_y": {"noc_y": [1, 1]}, "col0": 1, "cols": 1, "count": 1, "row0": 1}]})
        A_addr = T.uint32()
        B_addr = T.uint32()
        Bias_addr = T.uint32()
        count = T.int32()
        col0 = T.int32()
        cols = T.int32()
        row0 = T.int32()
        A_sender = T.int32()
        A_sender_x = T.int32()
        A_sender_y = T.int32()
        A_first_x = T.int32()
        A_first_y = T.int32()
        A_last_x = T.int32()
        A_last_y = T.int32()
        A_sender_sem = T.int32()
        A_receiver_sem = T.int32()
        B_sender = T.int32()
        B_sender_x = T.int32()
        B_sender_y = T.int32()
        B_first_x = T.int32()
        B_first_y = T.int32()
        B_last_x = T.int32()
        B_last_y = T.int32()
        B_sender_sem = T.int32()
        B_receiver_sem = T.int32()
        accessor_args: T.let[T.handle] = T.tt.tensor_accessor_args(0)
        accessor: T.let[T.handle] = T.tt.tensor_accessor(accessor_args, A_addr, 2048)
        offset: T.let[T.int32] = T.tt.next_compile_time_args_offset(accessor_args)
        accessor_args_1: T.let[T.handle] = T.tt.tensor_accessor_args(offset)
        accessor_1: T.let[T.handle] = T.tt.tensor_accessor(accessor_args_1, B_addr, 2048)
        offset_1: T.let[T.int32] = T.tt.next_compile_time_args_offset(accessor_args_1)
        accessor_args_2: T.let[T.handle] = T.tt.tensor_accessor_args(offset_1)
        accessor_2: T.let[T.handle] = T.tt.tensor_accessor(accessor_args_2, Bias_addr, 2048)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            bx: T.let[T.int32] = col0 + i % cols
            by: T.let[T.int32] = row0 + i // cols
            for k in T.serial(2, annotations={"num_stages": 2}):
                T.tt.read_block_mcast(0, accessor, by * 32 // 32 * 2 + k * 32 // 32, 1, 1, 2, 2048, A_sender, A_sender_x, A_sender_y, A_first_x, A_first_y, A_last_x, A_last_y, 1, A_sender_sem, A_receiver_sem, 1)
                T.tt.read_block_mcast(1, accessor_1, k * 32 // 32 * 2 + bx * 32 // 32, 1, 1, 2, 2048, B_sender, B_sender_x, B_sender_y, B_first_x, B_first_y, B_last_x, B_last_y, 1, B_sender_sem, B_receiver_sem, 1)
            T.tt.read_block(2, accessor_2, by * 32 // 32 * 2 + bx * 32 // 32, 1, 1, 2, 2048)

    @T.prim_func
    def main_writer(A: T.Buffer((64, 64), "bfloat16"), B: T.Buffer((64, 64), "bfloat16"), Bias: T.Buffer((64, 64), "bfloat16"), D: T.Buffer((64, 64), "bfloat16")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "B": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 1, "stride_mode": "tiled"}, "Bias": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 2, "stride_mode": "tiled"}, "D": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 3, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "B": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "Bias": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "D": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}}, "tt.cbs": [{"block_pages": 1, "buffer": "A_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "A_shared#1"}, {"block_pages": 1, "buffer": "B_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 1, "page_bytes": 2048, "producer": "reader", "stream": "B_shared#1"}, {"block_pages": 1, "buffer": "Bias_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 2, "page_bytes": 2048, "producer": "reader", "stream": "Bias_shared#1"}, {"block_pages": 1, "buffer": "D_local", "buffer_dtype": "bfloat16", "class": "output", "consumer": "writer", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 16, "page_bytes": 2048, "producer": "compute", "stream": "D_local#1"}, {"block_pages": 1, "buffer": "C_local", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 24, "page_bytes": 4096, "producer": "compute", "stream": "C_local#2"}], "tt.compile_time_args": [{"offset": 0, "tensor": "D"}], "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 1]], "tt.grid_blocks": [2, 2, 1], "tt.kernel_role": "writer", "tt.launch_vars": {"blockIdx.x": "bx", "blockIdx.y": "by"}, "tt.partition_mode": "shard", "tt.tensor_args": {"D_addr": "D"}, "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 0, "cols": 1, "core": [0, 1], "count": 1, "row0": 1, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 1], "count": 1, "row0": 1, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}, {"col0": 1, "cols": 1, "count": 1, "row0": 0}, {"col0": 0, "cols": 1, "count": 1, "row0": 1}, {"col0": 1, "cols": 1, "count": 1, "row0": 1}]})
        D_addr = T.uint32()
        count = T.int32()
        col0 = T.int32()
        cols = T.int32()
        row0 = T.int32()
        accessor_args: T.let[T.handle] = T.tt.tensor_accessor_args(0)
        accessor: T.let[T.handle] = T.tt.tensor_accessor(accessor_args, D_addr, 2048)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            bx: T.let[T.int32] = col0 + i % cols
            by: T.let[T.int32] = row0 + i // cols
            T.tt.write_block(16, accessor, by * 32 // 32 * 2 + bx * 32 // 32, 1, 1, 2, 2048)

# ---------------------------------------- after LowerTTProtocols
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main_compute(A: T.Buffer((64, 64), "bfloat16"), B: T.Buffer((64, 64), "bfloat16"), Bias: T.Buffer((64, 64), "bfloat16"), D: T.Buffer((64, 64), "bfloat16")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "B": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 1, "stride_mode": "tiled"}, "Bias": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 2, "stride_mode": "tiled"}, "D": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 3, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "B": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "Bias": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "D": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}}, "tt.cbs": [{"block_pages": 1, "buffer": "A_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "A_shared#1"}, {"block_pages": 1, "buffer": "B_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 1, "page_bytes": 2048, "producer": "reader", "stream": "B_shared#1"}, {"block_pages": 1, "buffer": "Bias_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 2, "page_bytes": 2048, "producer": "reader", "stream": "Bias_shared#1"}, {"block_pages": 1, "buffer": "D_local", "buffer_dtype": "bfloat16", "class": "output", "consumer": "writer", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 16, "page_bytes": 2048, "producer": "compute", "stream": "D_local#1"}, {"block_pages": 1, "buffer": "C_local", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 24, "page_bytes": 4096, "producer": "compute", "stream": "C_local#2"}], "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 1]], "tt.grid_blocks": [2, 2, 1], "tt.kernel_role": "compute", "tt.launch_vars": {"blockIdx.x": "bx", "blockIdx.y": "by"}, "tt.partition_mode": "shard", "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 0, "cols": 1, "core": [0, 1], "count": 1, "row0": 1, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 1], "count": 1, "row0": 1, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}, {"col0": 1, "cols": 1, "count": 1, "row0": 0}, {"col0": 0, "cols": 1, "count": 1, "row0": 1}, {"col0": 1, "cols": 1, "count": 1, "row0": 1}]})
        count = T.int32()
        T.tt.compute_kernel_hw_startup_matmul(0, 1, 24)
        T.tt.matmul_init(0, 1)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            for k in T.serial(2, annotations={"num_stages": 2}):
                if k == 0:
                    T.tt.reconfig_data_format(1, 0)
                    T.tt.pack_reconfig_data_format(24)
                    T.tt.matmul_init(0, 1)
                    T.tt.tile_regs_acquire()
                T.tt.cb_wait_front(0, 1)
                T.tt.cb_wait_front(1, 1)
                T.tt.matmul_tiles(0, 1, 0, 0, 0)
                T.tt.cb_pop_front(0, 1)
                T.tt.cb_pop_front(1, 1)
                if k == 1:
                    T.tt.tile_regs_commit()
                    T.tt.tile_regs_wait()
                    T.tt.cb_reserve_back(24, 1)
                    T.tt.pack_tile(0, 24)
                    T.tt.cb_push_back(24, 1)
                    T.tt.tile_regs_release()
            T.tt.reconfig_data_format(24, 2)
            T.tt.pack_reconfig_data_format(16)
            T.tt.cb_wait_front(24, 1)
            T.tt.cb_wait_front(2, 1)
            T.tt.tile_regs_acquire()
            T.tt.add_tiles_init(24, 2)
            T.tt.add_tiles(24, 2, 0, 0, 0)
            T.tt.relu_tile_init()
            T.tt.relu_tile(0)
            T.tt.tile_regs_commit()
            T.tt.tile_regs_wait()
            T.tt.cb_reserve_back(16, 1)
            T.tt.pack_tile(0, 16)
            T.tt.cb_push_back(16, 1)
            T.tt.tile_regs_release()
            T.tt.cb_pop_front(24, 1)
            T.tt.cb_pop_front(2, 1)

    @T.prim_func
    def main_reader(A: T.Buffer((64, 64), "bfloat16"), B: T.Buffer((64, 64), "bfloat16"), Bias: T.Buffer((64, 64), "bfloat16"), D: T.Buffer((64, 64), "bfloat16")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "B": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 1, "stride_mode": "tiled"}, "Bias": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 2, "stride_mode": "tiled"}, "D": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 3, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "B": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "Bias": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "D": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}}, "tt.cbs": [{"block_pages": 1, "buffer": "A_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "A_shared#1"}, {"block_pages": 1, "buffer": "B_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 1, "page_bytes": 2048, "producer": "reader", "stream": "B_shared#1"}, {"block_pages": 1, "buffer": "Bias_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 2, "page_bytes": 2048, "producer": "reader", "stream": "Bias_shared#1"}, {"block_pages": 1, "buffer": "D_local", "buffer_dtype": "bfloat16", "class": "output", "consumer": "writer", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 16, "page_bytes": 2048, "producer": "compute", "stream": "D_local#1"}, {"block_pages": 1, "buffer": "C_local", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 24, "page_bytes": 4096, "producer": "compute", "stream": "C_local#2"}], "tt.compile_time_args": [{"offset": 0, "tensor": "A"}, {"offset": 2, "tensor": "B"}, {"offset": 4, "tensor": "Bias"}], "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 1]], "tt.grid_blocks": [2, 2, 1], "tt.kernel_role": "reader", "tt.launch_vars": {"blockIdx.x": "bx", "blockIdx.y": "by"}, "tt.partition_mode": "shard", "tt.semaphores": [{"initial_value": 0, "name": "A_sender_sem"}, {"initial_value": 0, "name": "A_receiver_sem"}, {"initial_value": 0, "name": "B_sender_sem"}, {"initial_value": 0, "name": "B_receiver_sem"}], "tt.tensor_args": {"A_addr": "A", "B_addr": "B", "Bias_addr": "Bias"}, "tt.work_args": ["row0", "col0", "cols", "count", "A_sender", "A_sender_x", "A_sender_y", "A_first_x", "A_first_y", "A_last_x", "A_last_y", "A_sender_sem", "A_receiver_sem", "B_sender", "B_sender_x", "B_sender_y", "B_first_x", "B_first_y", "B_last_x", "B_last_y", "B_sender_sem", "B_receiver_sem"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 0, "cols": 1, "core": [0, 1], "count": 1, "row0": 1, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 1], "count": 1, "row0": 1, "rows": 1}], "tt.work_values": [{"A_first_x": {"noc_x": [0, 0]}, "A_first_y": {"noc_y": [0, 0]}, "A_last_x": {"noc_x": [0, 0]}, "A_last_y": {"noc_y": [0, 0]}, "A_receiver_sem": {"semaphore": "A_receiver_sem"}, "A_sender": 0, "A_sender_sem": {"semaphore": "A_sender_sem"}, "A_sender_x": {"noc_x": [1, 0]}, "A_sender_y": {"noc_y": [1, 0]}, "B_first_x": {"noc_x": [0, 1]}, "B_first_y": {"noc_y": [0, 1]}, "B_last_x": {"noc_x": [0, 1]}, "B_last_y": {"noc_y": [0, 1]}, "B_receiver_sem": {"semaphore": "B_receiver_sem"}, "B_sender": 1, "B_sender_sem": {"semaphore": "B_sender_sem"}, "B_sender_x": {"noc_x": [0, 0]}, "B_sender_y": {"noc_y": [0, 0]}, "col0": 0, "cols": 1, "count": 1, "row0": 0}, {"A_first_x": {"noc_x": [0, 0]}, "A_first_y": {"noc_y": [0, 0]}, "A_last_x": {"noc_x": [0, 0]}, "A_last_y": {"noc_y": [0, 0]}, "A_receiver_sem": {"semaphore": "A_receiver_sem"}, "A_sender": 1, "A_sender_sem": {"semaphore": "A_sender_sem"}, "A_sender_x": {"noc_x": [1, 0]}, "A_sender_y": {"noc_y": [1, 0]}, "B_first_x": {"noc_x": [1, 0]}, "B_first_y": {"noc_y": [1, 0]}, "B_last_x": {"noc_x": [1, 0]}, "B_last_y": {"noc_y": [1, 0]}, "B_receiver_sem": {"semaphore": "B_receiver_sem"}, "B_sender": 0, "B_sender_sem": {"semaphore": "B_sender_sem"}, "B_sender_x": {"noc_x": [1, 1]}, "B_sender_y": {"noc_y": [1, 1]}, "col0": 1, "cols": 1, "count": 1, "row0": 0}, {"A_first_x": {"noc_x": [1, 1]}, "A_first_y": {"noc_y": [1, 1]}, "A_last_x": {"noc_x": [1, 1]}, "A_last_y": {"noc_y": [1, 1]}, "A_receiver_sem": {"semaphore": "A_receiver_sem"}, "A_sender": 1, "A_sender_sem": {"semaphore": "A_sender_sem"}, "A_sender_x": {"noc_x": [0, 1]}, "A_sender_y": {"noc_y": [0, 1]}, "B_first_x": {"noc_x": [0, 1]}, "B_first_y": {"noc_y": [0, 1]}, "B_last_x": {"noc_x": [0, 1]}, "B_last_y": {"noc_y": [0, 1]}, "B_receiver_sem": {"semaphore": "B_receiver_sem"}, "B_sender": 0, "B_sender_sem": {"semaphore": "B_sender_sem"}, "B_sender_x": {"noc_x": [0, 0]}, "B_sender_y": {"noc_y": [0, 0]}, "col0": 0, "cols": 1, "count": 1, "row0": 1}, {"A_first_x": {"noc_x": [1, 1]}, "A_first_y": {"noc_y": [1, 1]}, "A_last_x": {"noc_x": [1, 1]}, "A_last_y": {"noc_y": [1, 1]}, "A_receiver_sem": {"semaphore": "A_receiver_sem"}, "A_sender": 0, "A_sender_sem": {"semaphore": "A_sender_sem"}, "A_sender_x": {"noc_x": [0, 1]}, "A_sender_y": {"noc_y": [0, 1]}, "B_first_x": {"noc_x": [1, 0]}, "B_first_y": {"noc_y": [1, 0]}, "B_last_x": {"noc_x": [1, 0]}, "B_last_y": {"noc_y": [1, 0]}, "B_receiver_sem": {"semaphore": "B_receiver_sem"}, "B_sender": 1, "B_sender_sem": {"semaphore": "B_sender_sem"}, "B_sender_x": {"noc_x": [1, 1]}, "B_sender_y": {"noc_y": [1, 1]}, "col0": 1, "cols": 1, "count": 1, "row0": 1}]})
        A_addr = T.uint32()
        B_addr = T.uint32()
        Bias_addr = T.uint32()
        count = T.int32()
        col0 = T.int32()
        cols = T.int32()
        row0 = T.int32()
        A_sender_sem = T.int32()
        A_receiver_sem = T.int32()
        A_sender = T.int32()
        A_last_x = T.int32()
        A_last_y = T.int32()
        A_first_x = T.int32()
        A_first_y = T.int32()
        A_sender_x = T.int32()
        A_sender_y = T.int32()
        B_sender_sem = T.int32()
        B_receiver_sem = T.int32()
        B_sender = T.int32()
        B_last_x = T.int32()
        B_last_y = T.int32()
        B_first_x = T.int32()
        B_first_y = T.int32()
        B_sender_x = T.int32()
        B_sender_y = T.int32()
        accessor_args: T.let[T.handle] = T.tt.tensor_accessor_args(0)
        accessor: T.let[T.handle] = T.tt.tensor_accessor(accessor_args, A_addr, 2048)
        offset: T.let[T.int32] = T.tt.next_compile_time_args_offset(accessor_args)
        accessor_args_1: T.let[T.handle] = T.tt.tensor_accessor_args(offset)
        accessor_1: T.let[T.handle] = T.tt.tensor_accessor(accessor_args_1, B_addr, 2048)
        offset_1: T.let[T.int32] = T.tt.next_compile_time_args_offset(accessor_args_1)
        accessor_args_2: T.let[T.handle] = T.tt.tensor_accessor_args(offset_1)
        accessor_2: T.let[T.handle] = T.tt.tensor_accessor(accessor_args_2, Bias_addr, 2048)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            bx: T.let[T.int32] = col0 + i % cols
            by: T.let[T.int32] = row0 + i // cols
            for k in T.serial(2, annotations={"num_stages": 2}):
                T.tt.cb_reserve_back(0, 1)
                l1_write_addr: T.let[T.int32] = T.Cast("int32", T.tt.get_write_ptr(0))
                sender_sem_addr: T.let[T.int32] = T.Cast("int32", T.tt.get_semaphore(A_sender_sem))
                receiver_sem_addr: T.let[T.int32] = T.Cast("int32", T.tt.get_semaphore(A_receiver_sem))
                sender_sem_ptr: T.let[T.handle] = T.tt.l1_word_ptr(sender_sem_addr)
                receiver_sem_ptr: T.let[T.handle] = T.tt.l1_word_ptr(receiver_sem_addr)
                if A_sender == 1:
                    T.tt.noc_async_read_page(by * 32 // 32 * 2 + k * 32 // 32, accessor, l1_write_addr)
                    T.tt.noc_async_read_barrier()
                    T.tt.noc_semaphore_wait(sender_sem_ptr, 1)
                    T.tt.noc_semaphore_set(sender_sem_ptr, 0)
                    block_dests: T.let[T.uint64] = T.tt.get_noc_multicast_addr(A_last_x, A_last_y, A_first_x, A_first_y, l1_write_addr)
                    flag_dests: T.let[T.uint64] = T.tt.get_noc_multicast_addr(A_last_x, A_last_y, A_first_x, A_first_y, receiver_sem_addr)
                    T.tt.noc_async_write_multicast_linked(l1_write_addr, block_dests, 2048, 1, 1)
                    T.tt.noc_semaphore_set(receiver_sem_ptr, 1)
                    T.tt.noc_semaphore_set_multicast(receiver_sem_addr, flag_dests, 1)
                    T.tt.noc_async_write_barrier()
                else:
                    T.tt.noc_semaphore_set(receiver_sem_ptr, 0)
                    sender_sem_noc_addr: T.let[T.uint64] = T.tt.get_noc_addr(A_sender_x, A_sender_y, sender_sem_addr)
                    T.tt.noc_semaphore_inc(sender_sem_noc_addr, 1)
                    T.tt.noc_semaphore_wait(receiver_sem_ptr, 1)
                T.tt.cb_push_back(0, 1)
                T.tt.cb_reserve_back(1, 1)
                l1_write_addr_1: T.let[T.int32] = T.Cast("int32", T.tt.get_write_ptr(1))
                sender_sem_addr_1: T.let[T.int32] = T.Cast("int32", T.tt.get_semaphore(B_sender_sem))
                receiver_sem_addr_1: T.let[T.int32] = T.Cast("int32", T.tt.get_semaphore(B_receiver_sem))
                sender_sem_ptr_1: T.let[T.handle] = T.tt.l1_word_ptr(sender_sem_addr_1)
                receiver_sem_ptr_1: T.let[T.handle] = T.tt.l1_word_ptr(receiver_sem_addr_1)
                if B_sender == 1:
                    T.tt.noc_async_read_page(k * 32 // 32 * 2 + bx * 32 // 32, accessor_1, l1_write_addr_1)
                    T.tt.noc_async_read_barrier()
                    T.tt.noc_semaphore_wait(sender_sem_ptr_1, 1)
                    T.tt.noc_semaphore_set(sender_sem_ptr_1, 0)
                    block_dests: T.let[T.uint64] = T.tt.get_noc_multicast_addr(B_last_x, B_last_y, B_first_x, B_first_y, l1_write_addr_1)
                    flag_dests: T.let[T.uint64] = T.tt.get_noc_multicast_addr(B_last_x, B_last_y, B_first_x, B_first_y, receiver_sem_addr_1)
                    T.tt.noc_async_write_multicast_linked(l1_write_addr_1, block_dests, 2048, 1, 1)
                    T.tt.noc_semaphore_set(receiver_sem_ptr_1, 1)
                    T.tt.noc_semaphore_set_multicast(receiver_sem_addr_1, flag_dests, 1)
                    T.tt.noc_async_write_barrier()
                else:
                    T.tt.noc_semaphore_set(receiver_sem_ptr_1, 0)
                    sender_sem_noc_addr: T.let[T.uint64] = T.tt.get_noc_addr(B_sender_x, B_sender_y, sender_sem_addr_1)
                    T.tt.noc_semaphore_inc(sender_sem_noc_addr, 1)
                    T.tt.noc_semaphore_wait(receiver_sem_ptr_1, 1)
                T.tt.cb_push_back(1, 1)
            T.tt.cb_reserve_back(2, 1)
            l1_write_addr: T.let[T.int32] = T.Cast("int32", T.tt.get_write_ptr(2))
            T.tt.noc_async_read_page(by * 32 // 32 * 2 + bx * 32 // 32, accessor_2, l1_write_addr)
            T.tt.noc_async_read_barrier()
            T.tt.cb_push_back(2, 1)

    @T.prim_func
    def main_writer(A: T.Buffer((64, 64), "bfloat16"), B: T.Buffer((64, 64), "bfloat16"), Bias: T.Buffer((64, 64), "bfloat16"), D: T.Buffer((64, 64), "bfloat16")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "B": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 1, "stride_mode": "tiled"}, "Bias": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 2, "stride_mode": "tiled"}, "D": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 3, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "B": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "Bias": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "D": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}}, "tt.cbs": [{"block_pages": 1, "buffer": "A_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "A_shared#1"}, {"block_pages": 1, "buffer": "B_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 1, "page_bytes": 2048, "producer": "reader", "stream": "B_shared#1"}, {"block_pages": 1, "buffer": "Bias_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 2, "page_bytes": 2048, "producer": "reader", "stream": "Bias_shared#1"}, {"block_pages": 1, "buffer": "D_local", "buffer_dtype": "bfloat16", "class": "output", "consumer": "writer", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 16, "page_bytes": 2048, "producer": "compute", "stream": "D_local#1"}, {"block_pages": 1, "buffer": "C_local", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 24, "page_bytes": 4096, "producer": "compute", "stream": "C_local#2"}], "tt.compile_time_args": [{"offset": 0, "tensor": "D"}], "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 1]], "tt.grid_blocks": [2, 2, 1], "tt.kernel_role": "writer", "tt.launch_vars": {"blockIdx.x": "bx", "blockIdx.y": "by"}, "tt.partition_mode": "shard", "tt.tensor_args": {"D_addr": "D"}, "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 0, "cols": 1, "core": [0, 1], "count": 1, "row0": 1, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 1], "count": 1, "row0": 1, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}, {"col0": 1, "cols": 1, "count": 1, "row0": 0}, {"col0": 0, "cols": 1, "count": 1, "row0": 1}, {"col0": 1, "cols": 1, "count": 1, "row0": 1}]})
        D_addr = T.uint32()
        count = T.int32()
        col0 = T.int32()
        cols = T.int32()
        row0 = T.int32()
        accessor_args: T.let[T.handle] = T.tt.tensor_accessor_args(0)
        accessor: T.let[T.handle] = T.tt.tensor_accessor(accessor_args, D_addr, 2048)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            bx: T.let[T.int32] = col0 + i % cols
            by: T.let[T.int32] = row0 + i // cols
            T.tt.cb_wait_front(16, 1)
            l1_read_addr: T.let[T.int32] = T.Cast("int32", T.tt.get_read_ptr(16))
            T.tt.noc_async_write_page(by * 32 // 32 * 2 + bx * 32 // 32, accessor, l1_read_addr)
            T.tt.noc_async_write_barrier()
            T.tt.cb_pop_front(16, 1)
