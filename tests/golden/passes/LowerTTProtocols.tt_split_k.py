# ruff: noqa
# Golden of LowerTTProtocols, case tt_split_k (lower_and_legalize_tt + optimize_tenstorrent):
# splitk_matmul(64, 64, 128, 32, 32, 32, 2, dtype='bfloat16'): T.atomic_add of a split-K group (turn semaphore).
# Written by `TILELANG_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/passes/test_pass_golden.py`; do not edit by hand. The pass's input, then its output.
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main_compute(A: T.Buffer((64, 128), "bfloat16"), B: T.Buffer((64, 128), "bfloat16"), C: T.Buffer((64, 64), "float32")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "B": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 1, "stride_mode": "tiled"}, "C": {"compile_time_args": 2, "page_bytes": 4096, "parameter": 2, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 128], "page_bytes": 2048, "page_layout": "tile", "pages": 8, "shape": [64, 128], "tile_cols": 4, "tile_rows": 2, "transposed": False}, "B": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 128], "page_bytes": 2048, "page_layout": "tile", "pages": 8, "shape": [64, 128], "tile_cols": 4, "tile_rows": 2, "transposed": False}, "C": {"blocks": [0, 0], "data_format": "Float32", "dram_format": "", "dtype": "float32", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 4096, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}}, "tt.cbs": [{"block_pages": 1, "buffer": "A_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "A_shared#1"}, {"block_pages": 1, "buffer": "B_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 1, "page_bytes": 2048, "producer": "reader", "stream": "B_shared#1"}, {"block_pages": 1, "buffer": "C_local_atomic_in", "buffer_dtype": "float32", "class": "input", "consumer": "compute", "data_format": "Float32", "depth": 2, "dtype": "float32", "index": 2, "page_bytes": 4096, "producer": "reader", "stream": "C_local_atomic_in#1"}, {"block_pages": 1, "buffer": "C_local_atomic_sum", "buffer_dtype": "float32", "class": "output", "consumer": "writer", "data_format": "Float32", "depth": 2, "dtype": "float32", "index": 16, "page_bytes": 4096, "producer": "compute", "stream": "C_local_atomic_sum#1"}, {"block_pages": 1, "buffer": "B_shared_T", "buffer_dtype": "bfloat16", "class": "intermediate", "consumer": "compute", "data_format": "Float16_b", "depth": 1, "dtype": "bfloat16", "index": 24, "page_bytes": 2048, "producer": "compute", "stream": "B_shared_T#1"}, {"block_pages": 1, "buffer": "C_local", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 25, "page_bytes": 4096, "producer": "compute", "stream": "C_local#2"}, {"block_pages": 1, "buffer": "C_local", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 26, "page_bytes": 4096, "producer": "compute", "stream": "C_local#partial"}], "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 7, 0]], "tt.grid_blocks": [2, 2, 2], "tt.kernel_role": "compute", "tt.launch_vars": {"blockIdx.x": "bx", "blockIdx.y": "by", "blockIdx.z": "bz"}, "tt.partition_mode": "split", "tt.work_args": ["start", "count", "z"], "tt.work_partition": [{"core": [0, 0], "count": 1, "start": 0, "z": 0}, {"core": [1, 0], "count": 1, "start": 0, "z": 1}, {"core": [2, 0], "count": 1, "start": 1, "z": 0}, {"core": [3, 0], "count": 1, "start": 1, "z": 1}, {"core": [4, 0], "count": 1, "start": 2, "z": 0}, {"core": [5, 0], "count": 1, "start": 2, "z": 1}, {"core": [6, 0], "count": 1, "start": 3, "z": 0}, {"core": [7, 0], "count": 1, "start": 3, "z": 1}], "tt.work_values": [{"count": 1, "start": 0, "z": 0}, {"count": 1, "start": 0, "z": 1}, {"count": 1, "start": 1, "z": 0}, {"count": 1, "start": 1, "z": 1}, {"count": 1, "start": 2, "z": 0}, {"count": 1, "start": 2, "z": 1}, {"count": 1, "start": 3, "z": 0}, {"count": 1, "start": 3, "z": 1}]})
        count = T.int32()
        T.tt.compute_kernel_hw_startup_unary(1, 24)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            for ko in range(2):
                T.tt.transpose_block(1, 24, 1, 1, 1)
                T.tt.matmul_block(0, 24, 25, 26, 1, 1, 1, ko, 2, 1, 1, 1, 1, 1, 1, -1, 0, 0, 0, 1, 0, 0, 0, 1)
            T.tt.eltwise_block(2, 25, 16, 1, "add", "none", "none", "none", 0, "none", 0, 0, "none", T.float32(0.0), 1, 1, 1, 1, 1)

    @T.prim_func
    def main_reader(A: T.Buffer((64, 128), "bfloat16"), B: T.Buffer((64, 128), "bfloat16"), C: T.Buffer((64, 64), "float32")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "B": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 1, "stride_mode": "tiled"}, "C": {"compile_time_args": 2, "page_bytes": 4096, "parameter": 2, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 128], "page_bytes": 2048, "page_layout": "tile", "pages": 8, "shape": [64, 128], "tile_cols": 4, "tile_rows": 2, "transposed": False}, "B": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 128], "page_bytes": 2048, "page_layout": "tile", "pages": 8, "shape": [64, 128], "tile_cols": 4, "tile_rows": 2, "transposed": False}, "C": {"blocks": [0, 0], "data_format": "Float32", "dram_format": "", "dtype": "float32", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 4096, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}}, "tt.cbs": [{"block_pages": 1, "buffer": "A_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "A_shared#1"}, {"block_pages": 1, "buffer": "B_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 1, "page_bytes": 2048, "producer": "reader", "stream": "B_shared#1"}, {"block_pages": 1, "buffer": "C_local_atomic_in", "buffer_dtype": "float32", "class": "input", "consumer": "compute", "data_format": "Float32", "depth": 2, "dtype": "float32", "index": 2, "page_bytes": 4096, "producer": "reader", "stream": "C_local_atomic_in#1"}, {"block_pages": 1, "buffer": "C_local_atomic_sum", "buffer_dtype": "float32", "class": "output", "consumer": "writer", "data_format": "Float32", "depth": 2, "dtype": "float32", "index": 16, "page_bytes": 4096, "producer": "compute", "stream": "C_local_atomic_sum#1"}, {"block_pages": 1, "buffer": "B_shared_T", "buffer_dtype": "bfloat16", "class": "intermediate", "consumer": "compute", "data_format": "Float16_b", "depth": 1, "dtype": "bfloat16", "index": 24, "page_bytes": 2048, "producer": "compute", "stream": "B_shared_T#1"}, {"block_pages": 1, "buffer": "C_local", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 25, "page_bytes": 4096, "producer": "compute", "stream": "C_local#2"}, {"block_pages": 1, "buffer": "C_local", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 26, "page_bytes": 4096, "producer": "compute", "stream": "C_local#partial"}], "tt.compile_time_args": [{"offset": 0, "tensor": "A"}, {"offset": 2, "tensor": "B"}, {"offset": 4, "tensor": "C"}], "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 7, 0]], "tt.grid_blocks": [2, 2, 2], "tt.kernel_role": "reader", "tt.launch_vars": {"blockIdx.x": "bx", "blockIdx.y": "by", "blockIdx.z": "bz"}, "tt.partition_mode": "split", "tt.semaphores": [{"initial_value": 0, "name": "C_turn_sem"}], "tt.tensor_args": {"A_addr": "A", "B_addr": "B", "C_addr": "C"}, "tt.work_args": ["start", "count", "z", "C_turn_sem"], "tt.work_partition": [{"core": [0, 0], "count": 1, "start": 0, "z": 0}, {"core": [1, 0], "count": 1, "start": 0, "z": 1}, {"core": [2, 0], "count": 1, "start": 1, "z": 0}, {"core": [3, 0], "count": 1, "start": 1, "z": 1}, {"core": [4, 0], "count": 1, "start": 2, "z": 0}, {"core": [5, 0], "count": 1, "start": 2, "z": 1}, {"core": [6, 0], "count": 1, "start": 3, "z": 0}, {"core": [7, 0], "count": 1, "start": 3, "z": 1}], "tt.work_values": [{"C_turn_sem": {"semaphore": "C_turn_sem"}, "count": 1, "start": 0, "z": 0}, {"C_turn_sem": {"semaphore": "C_turn_sem"}, "count": 1, "start": 0, "z": 1}, {"C_turn_sem": {"semaphore": "C_turn_sem"}, "count": 1, "start": 1, "z": 0}, {"C_turn_sem": {"semaphore": "C_turn_sem"}, "count": 1, "start": 1, "z": 1}, {"C_turn_sem": {"semaphore": "C_turn_sem"}, "count": 1, "start": 2, "z": 0}, {"C_turn_sem": {"semaphore": "C_turn_sem"}, "count": 1, "start": 2, "z": 1}, {"C_turn_sem": {"semaphore": "C_turn_sem"}, "count": 1, "start": 3, "z": 0}, {"C_turn_sem": {"semaphore": "C_turn_sem"}, "count": 1, "start": 3, "z": 1}]})
        A_addr = T.uint32()
        B_addr = T.uint32()
        C_addr = T.uint32()
        count = T.int32()
        start = T.int32()
        z = T.int32()
        C_turn_sem = T.int32()
        accessor_args: T.let[T.handle] = T.tt.tensor_accessor_args(0)
        accessor: T.let[T.handle] = T.tt.tensor_accessor(accessor_args, A_addr, 2048)
        offset: T.let[T.int32] = T.tt.next_compile_time_args_offset(accessor_args)
        accessor_args_1: T.let[T.handle] = T.tt.tensor_accessor_args(offset)
        accessor_1: T.let[T.handle] = T.tt.tensor_accessor(accessor_args_1, B_addr, 2048)
        offset_1: T.let[T.int32] = T.tt.next_compile_time_args_offset(accessor_args_1)
        accessor_args_2: T.let[T.handle] = T.tt.tensor_accessor_args(offset_1)
        accessor_2: T.let[T.handle] = T.tt.tensor_accessor(accessor_args_2, C_addr, 4096)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            bx: T.let[T.int32] = (start + i) % 2
            by: T.let[T.int32] = (start + i) // 2
            bz: T.let[T.int32] = z
            for ko in range(2):
                T.tt.read_block(0, accessor, by * 32 // 32 * 4 + (bz * 64 + ko * 32) // 32, 1, 1, 4, 2048)
                T.tt.read_block(1, accessor_1, bx * 32 // 32 * 4 + (bz * 64 + ko * 32) // 32, 1, 1, 4, 2048)
            T.tt.read_block_after(2, accessor_2, by * 32 // 32 * 2 + bx * 32 // 32, 1, 1, 2, 4096, bz, i, C_turn_sem)

    @T.prim_func
    def main_writer(A: T.Buffer((64, 128), "bfloat16"), B: T.Buffer((64, 128), "bfloat16"), C: T.Buffer((64, 64), "float32")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "B": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 1, "stride_mode": "tiled"}, "C": {"compile_time_args": 2, "page_bytes": 4096, "parameter": 2, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 128], "page_bytes": 2048, "page_layout": "tile", "pages": 8, "shape": [64, 128], "tile_cols": 4, "tile_rows": 2, "transposed": False}, "B": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 128], "page_bytes": 2048, "page_layout": "tile", "pages": 8, "shape": [64, 128], "tile_cols": 4, "tile_rows": 2, "transposed": False}, "C": {"blocks": [0, 0], "data_format": "Float32", "dram_format": "", "dtype": "float32", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 4096, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}}, "tt.cbs": [{"block_pages": 1, "buffer": "A_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "A_shared#1"}, {"block_pages": 1, "buffer": "B_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 1, "page_bytes": 2048, "producer": "reader", "stream": "B_shared#1"}, {"block_pages": 1, "buffer": "C_local_atomic_in", "buffer_dtype": "float32", "class": "input", "consumer": "compute", "data_format": "Float32", "depth": 2, "dtype": "float32", "index": 2, "page_bytes": 4096, "producer": "reader", "stream": "C_local_atomic_in#1"}, {"block_pages": 1, "buffer": "C_local_atomic_sum", "buffer_dtype": "float32", "class": "output", "consumer": "writer", "data_format": "Float32", "depth": 2, "dtype": "float32", "index": 16, "page_bytes": 4096, "producer": "compute", "stream": "C_local_atomic_sum#1"}, {"block_pages": 1, "buffer": "B_shared_T", "buffer_dtype": "bfloat16", "class": "intermediate", "consumer": "compute", "data_format": "Float16_b", "depth": 1, "dtype": "bfloat16", "index": 24, "page_bytes": 2048, "producer": "compute", "stream": "B_shared_T#1"}, {"block_pages": 1, "buffer": "C_local", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 25, "page_bytes": 4096, "producer": "compute", "stream": "C_local#2"}, {"block_pages": 1, "buffer": "C_local", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 26, "page_bytes": 4096, "producer": "compute", "stream": "C_local#partial"}], "tt.compile_time_args": [{"offset": 0, "tensor": "C"}], "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 7, 0]], "tt.grid_blocks": [2, 2, 2], "tt.kernel_role": "writer", "tt.launch_vars": {"blockIdx.x": "bx", "blockIdx.y": "by", "blockIdx.z": "bz"}, "tt.partition_mode": "split", "tt.semaphores": [{"initial_value": 0, "name": "C_turn_sem"}], "tt.tensor_args": {"C_addr": "C"}, "tt.work_args": ["start", "count", "z", "C_next_x", "C_next_y", "C_turn_sem"], "tt.work_partition": [{"core": [0, 0], "count": 1, "start": 0, "z": 0}, {"core": [1, 0], "count": 1, "start": 0, "z": 1}, {"core": [2, 0], "count": 1, "start": 1, "z": 0}, {"core": [3, 0], "count": 1, "start": 1, "z": 1}, {"core": [4, 0], "count": 1, "start": 2, "z": 0}, {"core": [5, 0], "count": 1, "start": 2, "z": 1}, {"core": [6, 0], "count": 1, "start": 3, "z": 0}, {"core": [7, 0], "count": 1, "start": 3, "z": 1}], "tt.work_values": [{"C_next_x": {"noc_x": [1, 0]}, "C_next_y": {"noc_y": [1, 0]}, "C_turn_sem": {"semaphore": "C_turn_sem"}, "count": 1, "start": 0, "z": 0}, {"C_next_x": {"noc_x": [2, 0]}, "C_next_y": {"noc_y": [2, 0]}, "C_turn_sem": {"semaphore": "C_turn_sem"}, "count": 1, "start": 0, "z": 1}, {"C_next_x": {"noc_x": [3, 0]}, "C_next_y": {"noc_y": [3, 0]}, "C_turn_sem": {"semaphore": "C_turn_sem"}, "count": 1, "start": 1, "z": 0}, {"C_next_x": {"noc_x": [4, 0]}, "C_next_y": {"noc_y": [4, 0]}, "C_turn_sem": {"semaphore": "C_turn_sem"}, "count": 1, "start": 1, "z": 1}, {"C_next_x": {"noc_x": [5, 0]}, "C_next_y": {"noc_y": [5, 0]}, "C_turn_sem": {"semaphore": "C_turn_sem"}, "count": 1, "start": 2, "z": 0}, {"C_next_x": {"noc_x": [6, 0]}, "C_next_y": {"noc_y": [6, 0]}, "C_turn_sem": {"semaphore": "C_turn_sem"}, "count": 1, "start": 2, "z": 1}, {"C_next_x": {"noc_x": [7, 0]}, "C_next_y": {"noc_y": [7, 0]}, "C_turn_sem": {"semaphore": "C_turn_sem"}, "count": 1, "start": 3, "z": 0}, {"C_next_x": {"noc_x": [0, 0]}, "C_next_y": {"noc_y": [0, 0]}, "C_turn_sem": {"semaphore": "C_turn_sem"}, "count": 1, "start": 3, "z": 1}]})
        C_addr = T.uint32()
        count = T.int32()
        start = T.int32()
        z = T.int32()
        C_next_x = T.int32()
        C_next_y = T.int32()
        C_turn_sem = T.int32()
        accessor_args: T.let[T.handle] = T.tt.tensor_accessor_args(0)
        accessor: T.let[T.handle] = T.tt.tensor_accessor(accessor_args, C_addr, 4096)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            bx: T.let[T.int32] = (start + i) % 2
            by: T.let[T.int32] = (start + i) // 2
            bz: T.let[T.int32] = z
            T.tt.write_block_signal(16, accessor, by * 32 // 32 * 2 + bx * 32 // 32, 1, 1, 2, 4096, bz, 2, C_next_x, C_next_y, C_turn_sem)

# ---------------------------------------- after LowerTTProtocols
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main_compute(A: T.Buffer((64, 128), "bfloat16"), B: T.Buffer((64, 128), "bfloat16"), C: T.Buffer((64, 64), "float32")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "B": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 1, "stride_mode": "tiled"}, "C": {"compile_time_args": 2, "page_bytes": 4096, "parameter": 2, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 128], "page_bytes": 2048, "page_layout": "tile", "pages": 8, "shape": [64, 128], "tile_cols": 4, "tile_rows": 2, "transposed": False}, "B": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 128], "page_bytes": 2048, "page_layout": "tile", "pages": 8, "shape": [64, 128], "tile_cols": 4, "tile_rows": 2, "transposed": False}, "C": {"blocks": [0, 0], "data_format": "Float32", "dram_format": "", "dtype": "float32", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 4096, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}}, "tt.cbs": [{"block_pages": 1, "buffer": "A_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "A_shared#1"}, {"block_pages": 1, "buffer": "B_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 1, "page_bytes": 2048, "producer": "reader", "stream": "B_shared#1"}, {"block_pages": 1, "buffer": "C_local_atomic_in", "buffer_dtype": "float32", "class": "input", "consumer": "compute", "data_format": "Float32", "depth": 2, "dtype": "float32", "index": 2, "page_bytes": 4096, "producer": "reader", "stream": "C_local_atomic_in#1"}, {"block_pages": 1, "buffer": "C_local_atomic_sum", "buffer_dtype": "float32", "class": "output", "consumer": "writer", "data_format": "Float32", "depth": 2, "dtype": "float32", "index": 16, "page_bytes": 4096, "producer": "compute", "stream": "C_local_atomic_sum#1"}, {"block_pages": 1, "buffer": "B_shared_T", "buffer_dtype": "bfloat16", "class": "intermediate", "consumer": "compute", "data_format": "Float16_b", "depth": 1, "dtype": "bfloat16", "index": 24, "page_bytes": 2048, "producer": "compute", "stream": "B_shared_T#1"}, {"block_pages": 1, "buffer": "C_local", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 25, "page_bytes": 4096, "producer": "compute", "stream": "C_local#2"}, {"block_pages": 1, "buffer": "C_local", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 26, "page_bytes": 4096, "producer": "compute", "stream": "C_local#partial"}], "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 7, 0]], "tt.grid_blocks": [2, 2, 2], "tt.kernel_role": "compute", "tt.launch_vars": {"blockIdx.x": "bx", "blockIdx.y": "by", "blockIdx.z": "bz"}, "tt.partition_mode": "split", "tt.work_args": ["start", "count", "z"], "tt.work_partition": [{"core": [0, 0], "count": 1, "start": 0, "z": 0}, {"core": [1, 0], "count": 1, "start": 0, "z": 1}, {"core": [2, 0], "count": 1, "start": 1, "z": 0}, {"core": [3, 0], "count": 1, "start": 1, "z": 1}, {"core": [4, 0], "count": 1, "start": 2, "z": 0}, {"core": [5, 0], "count": 1, "start": 2, "z": 1}, {"core": [6, 0], "count": 1, "start": 3, "z": 0}, {"core": [7, 0], "count": 1, "start": 3, "z": 1}], "tt.work_values": [{"count": 1, "start": 0, "z": 0}, {"count": 1, "start": 0, "z": 1}, {"count": 1, "start": 1, "z": 0}, {"count": 1, "start": 1, "z": 1}, {"count": 1, "start": 2, "z": 0}, {"count": 1, "start": 2, "z": 1}, {"count": 1, "start": 3, "z": 0}, {"count": 1, "start": 3, "z": 1}]})
        count = T.int32()
        T.tt.compute_kernel_hw_startup_unary(1, 24)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            for ko in range(2):
                T.tt.reconfig_data_format_srca(1)
                T.tt.pack_reconfig_data_format(24)
                T.tt.cb_wait_front(1, 1)
                T.tt.tile_regs_acquire()
                T.tt.transpose_init(1)
                T.tt.transpose_tile(1, 0, 0)
                T.tt.tile_regs_commit()
                T.tt.tile_regs_wait()
                T.tt.cb_reserve_back(24, 1)
                T.tt.pack_tile(0, 24)
                T.tt.cb_push_back(24, 1)
                T.tt.tile_regs_release()
                T.tt.cb_pop_front(1, 1)
                T.tt.reconfig_data_format(24, 0)
                T.tt.pack_reconfig_data_format(25)
                T.tt.matmul_init(0, 24)
                T.tt.cb_wait_front(0, 1)
                T.tt.cb_wait_front(24, 1)
                T.tt.tile_regs_acquire()
                if ko > 0:
                    T.tt.cb_wait_front(26, 1)
                    T.tt.reconfig_data_format_srca(26)
                    T.tt.copy_tile_init(26)
                    T.tt.copy_tile(26, 0, 0)
                    T.tt.cb_pop_front(26, 1)
                    T.tt.reconfig_data_format(24, 0)
                    T.tt.pack_reconfig_data_format(25)
                    T.tt.matmul_init(0, 24)
                T.tt.matmul_tiles(0, 24, 0, 0, 0)
                T.tt.tile_regs_commit()
                T.tt.tile_regs_wait()
                if ko == 1:
                    T.tt.pack_reconfig_data_format(25)
                    T.tt.cb_reserve_back(25, 1)
                    T.tt.pack_tile(0, 25)
                    T.tt.cb_push_back(25, 1)
                else:
                    T.tt.pack_reconfig_data_format(26)
                    T.tt.cb_reserve_back(26, 1)
                    T.tt.pack_tile(0, 26)
                    T.tt.cb_push_back(26, 1)
                T.tt.tile_regs_release()
                T.tt.cb_pop_front(0, 1)
                T.tt.cb_pop_front(24, 1)
            T.tt.reconfig_data_format(2, 25)
            T.tt.pack_reconfig_data_format(16)
            T.tt.cb_wait_front(2, 1)
            T.tt.cb_wait_front(25, 1)
            T.tt.tile_regs_acquire()
            T.tt.add_tiles_init(2, 25)
            T.tt.add_tiles(2, 25, 0, 0, 0)
            T.tt.tile_regs_commit()
            T.tt.tile_regs_wait()
            T.tt.cb_reserve_back(16, 1)
            T.tt.pack_tile(0, 16)
            T.tt.cb_push_back(16, 1)
            T.tt.tile_regs_release()
            T.tt.cb_pop_front(2, 1)
            T.tt.cb_pop_front(25, 1)

    @T.prim_func
    def main_reader(A: T.Buffer((64, 128), "bfloat16"), B: T.Buffer((64, 128), "bfloat16"), C: T.Buffer((64, 64), "float32")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "B": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 1, "stride_mode": "tiled"}, "C": {"compile_time_args": 2, "page_bytes": 4096, "parameter": 2, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 128], "page_bytes": 2048, "page_layout": "tile", "pages": 8, "shape": [64, 128], "tile_cols": 4, "tile_rows": 2, "transposed": False}, "B": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 128], "page_bytes": 2048, "page_layout": "tile", "pages": 8, "shape": [64, 128], "tile_cols": 4, "tile_rows": 2, "transposed": False}, "C": {"blocks": [0, 0], "data_format": "Float32", "dram_format": "", "dtype": "float32", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 4096, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}}, "tt.cbs": [{"block_pages": 1, "buffer": "A_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "A_shared#1"}, {"block_pages": 1, "buffer": "B_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 1, "page_bytes": 2048, "producer": "reader", "stream": "B_shared#1"}, {"block_pages": 1, "buffer": "C_local_atomic_in", "buffer_dtype": "float32", "class": "input", "consumer": "compute", "data_format": "Float32", "depth": 2, "dtype": "float32", "index": 2, "page_bytes": 4096, "producer": "reader", "stream": "C_local_atomic_in#1"}, {"block_pages": 1, "buffer": "C_local_atomic_sum", "buffer_dtype": "float32", "class": "output", "consumer": "writer", "data_format": "Float32", "depth": 2, "dtype": "float32", "index": 16, "page_bytes": 4096, "producer": "compute", "stream": "C_local_atomic_sum#1"}, {"block_pages": 1, "buffer": "B_shared_T", "buffer_dtype": "bfloat16", "class": "intermediate", "consumer": "compute", "data_format": "Float16_b", "depth": 1, "dtype": "bfloat16", "index": 24, "page_bytes": 2048, "producer": "compute", "stream": "B_shared_T#1"}, {"block_pages": 1, "buffer": "C_local", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 25, "page_bytes": 4096, "producer": "compute", "stream": "C_local#2"}, {"block_pages": 1, "buffer": "C_local", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 26, "page_bytes": 4096, "producer": "compute", "stream": "C_local#partial"}], "tt.compile_time_args": [{"offset": 0, "tensor": "A"}, {"offset": 2, "tensor": "B"}, {"offset": 4, "tensor": "C"}], "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 7, 0]], "tt.grid_blocks": [2, 2, 2], "tt.kernel_role": "reader", "tt.launch_vars": {"blockIdx.x": "bx", "blockIdx.y": "by", "blockIdx.z": "bz"}, "tt.partition_mode": "split", "tt.semaphores": [{"initial_value": 0, "name": "C_turn_sem"}], "tt.tensor_args": {"A_addr": "A", "B_addr": "B", "C_addr": "C"}, "tt.work_args": ["start", "count", "z", "C_turn_sem"], "tt.work_partition": [{"core": [0, 0], "count": 1, "start": 0, "z": 0}, {"core": [1, 0], "count": 1, "start": 0, "z": 1}, {"core": [2, 0], "count": 1, "start": 1, "z": 0}, {"core": [3, 0], "count": 1, "start": 1, "z": 1}, {"core": [4, 0], "count": 1, "start": 2, "z": 0}, {"core": [5, 0], "count": 1, "start": 2, "z": 1}, {"core": [6, 0], "count": 1, "start": 3, "z": 0}, {"core": [7, 0], "count": 1, "start": 3, "z": 1}], "tt.work_values": [{"C_turn_sem": {"semaphore": "C_turn_sem"}, "count": 1, "start": 0, "z": 0}, {"C_turn_sem": {"semaphore": "C_turn_sem"}, "count": 1, "start": 0, "z": 1}, {"C_turn_sem": {"semaphore": "C_turn_sem"}, "count": 1, "start": 1, "z": 0}, {"C_turn_sem": {"semaphore": "C_turn_sem"}, "count": 1, "start": 1, "z": 1}, {"C_turn_sem": {"semaphore": "C_turn_sem"}, "count": 1, "start": 2, "z": 0}, {"C_turn_sem": {"semaphore": "C_turn_sem"}, "count": 1, "start": 2, "z": 1}, {"C_turn_sem": {"semaphore": "C_turn_sem"}, "count": 1, "start": 3, "z": 0}, {"C_turn_sem": {"semaphore": "C_turn_sem"}, "count": 1, "start": 3, "z": 1}]})
        A_addr = T.uint32()
        B_addr = T.uint32()
        C_addr = T.uint32()
        count = T.int32()
        start = T.int32()
        z = T.int32()
        C_turn_sem = T.int32()
        accessor_args: T.let[T.handle] = T.tt.tensor_accessor_args(0)
        accessor: T.let[T.handle] = T.tt.tensor_accessor(accessor_args, A_addr, 2048)
        offset: T.let[T.int32] = T.tt.next_compile_time_args_offset(accessor_args)
        accessor_args_1: T.let[T.handle] = T.tt.tensor_accessor_args(offset)
        accessor_1: T.let[T.handle] = T.tt.tensor_accessor(accessor_args_1, B_addr, 2048)
        offset_1: T.let[T.int32] = T.tt.next_compile_time_args_offset(accessor_args_1)
        accessor_args_2: T.let[T.handle] = T.tt.tensor_accessor_args(offset_1)
        accessor_2: T.let[T.handle] = T.tt.tensor_accessor(accessor_args_2, C_addr, 4096)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            bx: T.let[T.int32] = (start + i) % 2
            by: T.let[T.int32] = (start + i) // 2
            bz: T.let[T.int32] = z
            for ko in range(2):
                T.tt.cb_reserve_back(0, 1)
                l1_write_addr: T.let[T.int32] = T.Cast("int32", T.tt.get_write_ptr(0))
                T.tt.noc_async_read_page(by * 32 // 32 * 4 + (bz * 64 + ko * 32) // 32, accessor, l1_write_addr)
                T.tt.noc_async_read_barrier()
                T.tt.cb_push_back(0, 1)
                T.tt.cb_reserve_back(1, 1)
                l1_write_addr_1: T.let[T.int32] = T.Cast("int32", T.tt.get_write_ptr(1))
                T.tt.noc_async_read_page(bx * 32 // 32 * 4 + (bz * 64 + ko * 32) // 32, accessor_1, l1_write_addr_1)
                T.tt.noc_async_read_barrier()
                T.tt.cb_push_back(1, 1)
            if bz > 0:
                turn_sem_addr: T.let[T.int32] = T.Cast("int32", T.tt.get_semaphore(C_turn_sem))
                turn_sem_ptr: T.let[T.handle] = T.tt.l1_word_ptr(turn_sem_addr)
                T.tt.noc_semaphore_wait_min(turn_sem_ptr, i + 1)
            T.tt.cb_reserve_back(2, 1)
            l1_write_addr: T.let[T.int32] = T.Cast("int32", T.tt.get_write_ptr(2))
            T.tt.noc_async_read_page(by * 32 // 32 * 2 + bx * 32 // 32, accessor_2, l1_write_addr)
            T.tt.noc_async_read_barrier()
            T.tt.cb_push_back(2, 1)

    @T.prim_func
    def main_writer(A: T.Buffer((64, 128), "bfloat16"), B: T.Buffer((64, 128), "bfloat16"), C: T.Buffer((64, 64), "float32")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "B": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 1, "stride_mode": "tiled"}, "C": {"compile_time_args": 2, "page_bytes": 4096, "parameter": 2, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 128], "page_bytes": 2048, "page_layout": "tile", "pages": 8, "shape": [64, 128], "tile_cols": 4, "tile_rows": 2, "transposed": False}, "B": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 128], "page_bytes": 2048, "page_layout": "tile", "pages": 8, "shape": [64, 128], "tile_cols": 4, "tile_rows": 2, "transposed": False}, "C": {"blocks": [0, 0], "data_format": "Float32", "dram_format": "", "dtype": "float32", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 4096, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}}, "tt.cbs": [{"block_pages": 1, "buffer": "A_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "A_shared#1"}, {"block_pages": 1, "buffer": "B_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 1, "page_bytes": 2048, "producer": "reader", "stream": "B_shared#1"}, {"block_pages": 1, "buffer": "C_local_atomic_in", "buffer_dtype": "float32", "class": "input", "consumer": "compute", "data_format": "Float32", "depth": 2, "dtype": "float32", "index": 2, "page_bytes": 4096, "producer": "reader", "stream": "C_local_atomic_in#1"}, {"block_pages": 1, "buffer": "C_local_atomic_sum", "buffer_dtype": "float32", "class": "output", "consumer": "writer", "data_format": "Float32", "depth": 2, "dtype": "float32", "index": 16, "page_bytes": 4096, "producer": "compute", "stream": "C_local_atomic_sum#1"}, {"block_pages": 1, "buffer": "B_shared_T", "buffer_dtype": "bfloat16", "class": "intermediate", "consumer": "compute", "data_format": "Float16_b", "depth": 1, "dtype": "bfloat16", "index": 24, "page_bytes": 2048, "producer": "compute", "stream": "B_shared_T#1"}, {"block_pages": 1, "buffer": "C_local", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 25, "page_bytes": 4096, "producer": "compute", "stream": "C_local#2"}, {"block_pages": 1, "buffer": "C_local", "buffer_dtype": "float32", "class": "intermediate", "consumer": "compute", "data_format": "Float32", "depth": 1, "dtype": "float32", "index": 26, "page_bytes": 4096, "producer": "compute", "stream": "C_local#partial"}], "tt.compile_time_args": [{"offset": 0, "tensor": "C"}], "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 7, 0]], "tt.grid_blocks": [2, 2, 2], "tt.kernel_role": "writer", "tt.launch_vars": {"blockIdx.x": "bx", "blockIdx.y": "by", "blockIdx.z": "bz"}, "tt.partition_mode": "split", "tt.semaphores": [{"initial_value": 0, "name": "C_turn_sem"}], "tt.tensor_args": {"C_addr": "C"}, "tt.work_args": ["start", "count", "z", "C_next_x", "C_next_y", "C_turn_sem"], "tt.work_partition": [{"core": [0, 0], "count": 1, "start": 0, "z": 0}, {"core": [1, 0], "count": 1, "start": 0, "z": 1}, {"core": [2, 0], "count": 1, "start": 1, "z": 0}, {"core": [3, 0], "count": 1, "start": 1, "z": 1}, {"core": [4, 0], "count": 1, "start": 2, "z": 0}, {"core": [5, 0], "count": 1, "start": 2, "z": 1}, {"core": [6, 0], "count": 1, "start": 3, "z": 0}, {"core": [7, 0], "count": 1, "start": 3, "z": 1}], "tt.work_values": [{"C_next_x": {"noc_x": [1, 0]}, "C_next_y": {"noc_y": [1, 0]}, "C_turn_sem": {"semaphore": "C_turn_sem"}, "count": 1, "start": 0, "z": 0}, {"C_next_x": {"noc_x": [2, 0]}, "C_next_y": {"noc_y": [2, 0]}, "C_turn_sem": {"semaphore": "C_turn_sem"}, "count": 1, "start": 0, "z": 1}, {"C_next_x": {"noc_x": [3, 0]}, "C_next_y": {"noc_y": [3, 0]}, "C_turn_sem": {"semaphore": "C_turn_sem"}, "count": 1, "start": 1, "z": 0}, {"C_next_x": {"noc_x": [4, 0]}, "C_next_y": {"noc_y": [4, 0]}, "C_turn_sem": {"semaphore": "C_turn_sem"}, "count": 1, "start": 1, "z": 1}, {"C_next_x": {"noc_x": [5, 0]}, "C_next_y": {"noc_y": [5, 0]}, "C_turn_sem": {"semaphore": "C_turn_sem"}, "count": 1, "start": 2, "z": 0}, {"C_next_x": {"noc_x": [6, 0]}, "C_next_y": {"noc_y": [6, 0]}, "C_turn_sem": {"semaphore": "C_turn_sem"}, "count": 1, "start": 2, "z": 1}, {"C_next_x": {"noc_x": [7, 0]}, "C_next_y": {"noc_y": [7, 0]}, "C_turn_sem": {"semaphore": "C_turn_sem"}, "count": 1, "start": 3, "z": 0}, {"C_next_x": {"noc_x": [0, 0]}, "C_next_y": {"noc_y": [0, 0]}, "C_turn_sem": {"semaphore": "C_turn_sem"}, "count": 1, "start": 3, "z": 1}]})
        C_addr = T.uint32()
        count = T.int32()
        start = T.int32()
        z = T.int32()
        C_turn_sem = T.int32()
        C_next_x = T.int32()
        C_next_y = T.int32()
        accessor_args: T.let[T.handle] = T.tt.tensor_accessor_args(0)
        accessor: T.let[T.handle] = T.tt.tensor_accessor(accessor_args, C_addr, 4096)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            bx: T.let[T.int32] = (start + i) % 2
            by: T.let[T.int32] = (start + i) // 2
            bz: T.let[T.int32] = z
            T.tt.cb_wait_front(16, 1)
            l1_read_addr: T.let[T.int32] = T.Cast("int32", T.tt.get_read_ptr(16))
            T.tt.noc_async_write_page(by * 32 // 32 * 2 + bx * 32 // 32, accessor, l1_read_addr)
            T.tt.noc_async_write_barrier()
            T.tt.cb_pop_front(16, 1)
            if bz + 1 < 2:
                turn_sem_addr: T.let[T.int32] = T.Cast("int32", T.tt.get_semaphore(C_turn_sem))
                next_turn_addr: T.let[T.uint64] = T.tt.get_noc_addr(C_next_x, C_next_y, turn_sem_addr)
                T.tt.noc_semaphore_inc(next_turn_addr, 1)
