# ruff: noqa
# Golden of FinalizeTTSignature, case tt_gemm (lower_and_legalize_tt + optimize_tenstorrent):
# matmul(64, 64, 64, 32, 32, 32, dtype='bfloat16'): 2x2 blocks, 2 K steps, A/B multicast.
# Written by `TILELANG_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/passes/test_pass_golden.py`; do not edit by hand. The pass's input, then its output.
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main_compute(A: T.Buffer((64, 64), "bfloat16"), B: T.Buffer((64, 64), "bfloat16"), C: T.Buffer((64, 64), "bfloat16")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "B": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 1, "stride_mode": "tiled"}, "C": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 2, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "B": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "C": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}}, "tt.cbs": [{"block_pages": 1, "buffer": "A_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "A_shared#1"}, {"block_pages": 1, "buffer": "B_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 1, "page_bytes": 2048, "producer": "reader", "stream": "B_shared#1"}, {"block_pages": 1, "buffer": "C_local", "buffer_dtype": "float32", "class": "output", "consumer": "writer", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 16, "page_bytes": 2048, "producer": "compute", "stream": "C_local#2"}], "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 1]], "tt.grid_blocks": [2, 2, 1], "tt.kernel_role": "compute", "tt.launch_vars": {"blockIdx.x": "bx", "blockIdx.y": "by"}, "tt.partition_mode": "shard", "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 0, "cols": 1, "core": [0, 1], "count": 1, "row0": 1, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 1], "count": 1, "row0": 1, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}, {"col0": 1, "cols": 1, "count": 1, "row0": 0}, {"col0": 0, "cols": 1, "count": 1, "row0": 1}, {"col0": 1, "cols": 1, "count": 1, "row0": 1}]})
        count = T.int32()
        T.tt.compute_kernel_hw_startup_matmul(0, 1, 16)
        T.tt.matmul_init(0, 1)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            for k in T.serial(2, annotations={"num_stages": 3}):
                if k == 0:
                    T.tt.tile_regs_acquire()
                T.tt.cb_wait_front(0, 1)
                T.tt.cb_wait_front(1, 1)
                T.tt.matmul_tiles(0, 1, 0, 0, 0)
                T.tt.cb_pop_front(0, 1)
                T.tt.cb_pop_front(1, 1)
                if k == 1:
                    T.tt.tile_regs_commit()
                    T.tt.tile_regs_wait()
                    T.tt.cb_reserve_back(16, 1)
                    T.tt.pack_tile(0, 16)
                    T.tt.cb_push_back(16, 1)
                    T.tt.tile_regs_release()

    @T.prim_func
    def main_reader(A: T.Buffer((64, 64), "bfloat16"), B: T.Buffer((64, 64), "bfloat16"), C: T.Buffer((64, 64), "bfloat16")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "B": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 1, "stride_mode": "tiled"}, "C": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 2, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "B": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "C": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}}, "tt.cbs": [{"block_pages": 1, "buffer": "A_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "A_shared#1"}, {"block_pages": 1, "buffer": "B_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 1, "page_bytes": 2048, "producer": "reader", "stream": "B_shared#1"}, {"block_pages": 1, "buffer": "C_local", "buffer_dtype": "float32", "class": "output", "consumer": "writer", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 16, "page_bytes": 2048, "producer": "compute", "stream": "C_local#2"}], "tt.compile_time_args": [{"offset": 0, "tensor": "A"}, {"offset": 2, "tensor": "B"}], "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 1]], "tt.grid_blocks": [2, 2, 1], "tt.kernel_role": "reader", "tt.launch_vars": {"blockIdx.x": "bx", "blockIdx.y": "by"}, "tt.partition_mode": "shard", "tt.semaphores": [{"initial_value": 0, "name": "A_sender_sem"}, {"initial_value": 0, "name": "A_receiver_sem"}, {"initial_value": 0, "name": "B_sender_sem"}, {"initial_value": 0, "name": "B_receiver_sem"}], "tt.tensor_args": {"A_addr": "A", "B_addr": "B"}, "tt.work_args": ["row0", "col0", "cols", "count", "A_sender", "A_sender_x", "A_sender_y", "A_first_x", "A_first_y", "A_last_x", "A_last_y", "A_sender_sem", "A_receiver_sem", "B_sender", "B_sender_x", "B_sender_y", "B_first_x", "B_first_y", "B_last_x", "B_last_y", "B_sender_sem", "B_receiver_sem"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 0, "cols": 1, "core": [0, 1], "count": 1, "row0": 1, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 1], "count": 1, "row0": 1, "rows": 1}], "tt.work_values": [{"A_first_x": {"noc_x": [0, 0]}, "A_first_y": {"noc_y": [0, 0]}, "A_last_x": {"noc_x": [0, 0]}, "A_last_y": {"noc_y": [0, 0]}, "A_receiver_sem": {"semaphore": "A_receiver_sem"}, "A_sender": 0, "A_sender_sem": {"semaphore": "A_sender_sem"}, "A_sender_x": {"noc_x": [1, 0]}, "A_sender_y": {"noc_y": [1, 0]}, "B_first_x": {"noc_x": [0, 1]}, "B_first_y": {"noc_y": [0, 1]}, "B_last_x": {"noc_x": [0, 1]}, "B_last_y": {"noc_y": [0, 1]}, "B_receiver_sem": {"semaphore": "B_receiver_sem"}, "B_sender": 1, "B_sender_sem": {"semaphore": "B_sender_sem"}, "B_sender_x": {"noc_x": [0, 0]}, "B_sender_y": {"noc_y": [0, 0]}, "col0": 0, "cols": 1, "count": 1, "row0": 0}, {"A_first_x": {"noc_x": [0, 0]}, "A_first_y": {"noc_y": [0, 0]}, "A_last_x": {"noc_x": [0, 0]}, "A_last_y": {"noc_y": [0, 0]}, "A_receiver_sem": {"semaphore": "A_receiver_sem"}, "A_sender": 1, "A_sender_sem": {"semaphore": "A_sender_sem"}, "A_sender_x": {"noc_x": [1, 0]}, "A_sender_y": {"noc_y": [1, 0]}, "B_first_x": {"noc_x": [1, 0]}, "B_first_y": {"noc_y": [1, 0]}, "B_last_x": {"noc_x": [1, 0]}, "B_last_y": {"noc_y": [1, 0]}, "B_receiver_sem": {"semaphore": "B_receiver_sem"}, "B_sender": 0, "B_sender_sem": {"semaphore": "B_sender_sem"}, "B_sender_x": {"noc_x": [1, 1]}, "B_sender_y": {"noc_y": [1, 1]}, "col0": 1, "cols": 1, "count": 1, "row0": 0}, {"A_first_x": {"noc_x": [1, 1]}, "A_first_y": {"noc_y": [1, 1]}, "A_last_x": {"noc_x": [1, 1]}, "A_last_y": {"noc_y": [1, 1]}, "A_receiver_sem": {"semaphore": "A_receiver_sem"}, "A_sender": 1, "A_sender_sem": {"semaphore": "A_sender_sem"}, "A_sender_x": {"noc_x": [0, 1]}, "A_sender_y": {"noc_y": [0, 1]}, "B_first_x": {"noc_x": [0, 1]}, "B_first_y": {"noc_y": [0, 1]}, "B_last_x": {"noc_x": [0, 1]}, "B_last_y": {"noc_y": [0, 1]}, "B_receiver_sem": {"semaphore": "B_receiver_sem"}, "B_sender": 0, "B_sender_sem": {"semaphore": "B_sender_sem"}, "B_sender_x": {"noc_x": [0, 0]}, "B_sender_y": {"noc_y": [0, 0]}, "col0": 0, "cols": 1, "count": 1, "row0": 1}, {"A_first_x": {"noc_x": [1, 1]}, "A_first_y": {"noc_y": [1, 1]}, "A_last_x": {"noc_x": [1, 1]}, "A_last_y": {"noc_y": [1, 1]}, "A_receiver_sem": {"semaphore": "A_receiver_sem"}, "A_sender": 0, "A_sender_sem": {"semaphore": "A_sender_sem"}, "A_sender_x": {"noc_x": [0, 1]}, "A_sender_y": {"noc_y": [0, 1]}, "B_first_x": {"noc_x": [1, 0]}, "B_first_y": {"noc_y": [1, 0]}, "B_last_x": {"noc_x": [1, 0]}, "B_last_y": {"noc_y": [1, 0]}, "B_receiver_sem": {"semaphore": "B_receiver_sem"}, "B_sender": 1, "B_sender_sem": {"semaphore": "B_sender_sem"}, "B_sender_x": {"noc_x": [1, 1]}, "B_sender_y": {"noc_y": [1, 1]}, "col0": 1, "cols": 1, "count": 1, "row0": 1}]})
        A_addr = T.uint32()
        B_addr = T.uint32()
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
        accessor_args_1: T.let[T.handle] = T.tt.tensor_accessor_args(T.tt.next_compile_time_args_offset(accessor_args))
        accessor_1: T.let[T.handle] = T.tt.tensor_accessor(accessor_args_1, B_addr, 2048)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            bx: T.let[T.int32] = col0 + i % cols
            by: T.let[T.int32] = row0 + i // cols
            for k in T.serial(2, annotations={"num_stages": 3}):
                T.tt.cb_reserve_back(0, 1)
                l1_write_addr: T.let[T.int32] = T.Cast("int32", T.tt.get_write_ptr(0))
                sender_sem_addr: T.let[T.int32] = T.Cast("int32", T.tt.get_semaphore(A_sender_sem))
                receiver_sem_addr: T.let[T.int32] = T.Cast("int32", T.tt.get_semaphore(A_receiver_sem))
                sender_sem_ptr: T.let[T.handle] = T.tt.l1_word_ptr(T.Cast("int32", T.tt.get_semaphore(A_sender_sem)))
                receiver_sem_ptr: T.let[T.handle] = T.tt.l1_word_ptr(T.Cast("int32", T.tt.get_semaphore(A_receiver_sem)))
                if A_sender == 1:
                    T.tt.noc_async_read_page(row0 * 2 + i // cols * 2 + k, accessor, l1_write_addr)
                    T.tt.noc_async_read_barrier()
                    T.tt.noc_semaphore_wait(sender_sem_ptr, 1)
                    T.tt.noc_semaphore_set(sender_sem_ptr, 0)
                    block_dests: T.let[T.uint64] = T.tt.get_noc_multicast_addr(A_last_x, A_last_y, A_first_x, A_first_y, l1_write_addr)
                    flag_dests: T.let[T.uint64] = T.tt.get_noc_multicast_addr(A_last_x, A_last_y, A_first_x, A_first_y, T.Cast("int32", T.tt.get_semaphore(A_receiver_sem)))
                    T.tt.noc_async_write_multicast_linked(l1_write_addr, T.tt.get_noc_multicast_addr(A_last_x, A_last_y, A_first_x, A_first_y, l1_write_addr), 2048, 1, 1)
                    T.tt.noc_semaphore_set(receiver_sem_ptr, 1)
                    T.tt.noc_semaphore_set_multicast(T.Cast("int32", T.tt.get_semaphore(A_receiver_sem)), T.tt.get_noc_multicast_addr(A_last_x, A_last_y, A_first_x, A_first_y, T.Cast("int32", T.tt.get_semaphore(A_receiver_sem))), 1)
                    T.tt.noc_async_write_barrier()
                else:
                    T.tt.noc_semaphore_set(receiver_sem_ptr, 0)
                    sender_sem_noc_addr: T.let[T.uint64] = T.tt.get_noc_addr(A_sender_x, A_sender_y, T.Cast("int32", T.tt.get_semaphore(A_sender_sem)))
                    T.tt.noc_semaphore_inc(T.tt.get_noc_addr(A_sender_x, A_sender_y, T.Cast("int32", T.tt.get_semaphore(A_sender_sem))), 1)
                    T.tt.noc_semaphore_wait(receiver_sem_ptr, 1)
                T.tt.cb_push_back(0, 1)
                T.tt.cb_reserve_back(1, 1)
                l1_write_addr_1: T.let[T.int32] = T.Cast("int32", T.tt.get_write_ptr(1))
                sender_sem_addr_1: T.let[T.int32] = T.Cast("int32", T.tt.get_semaphore(B_sender_sem))
                receiver_sem_addr_1: T.let[T.int32] = T.Cast("int32", T.tt.get_semaphore(B_receiver_sem))
                sender_sem_ptr_1: T.let[T.handle] = T.tt.l1_word_ptr(T.Cast("int32", T.tt.get_semaphore(B_sender_sem)))
                receiver_sem_ptr_1: T.let[T.handle] = T.tt.l1_word_ptr(T.Cast("int32", T.tt.get_semaphore(B_receiver_sem)))
                if B_sender == 1:
                    T.tt.noc_async_read_page(k * 2 + col0 + i % cols, accessor_1, l1_write_addr_1)
                    T.tt.noc_async_read_barrier()
                    T.tt.noc_semaphore_wait(sender_sem_ptr_1, 1)
                    T.tt.noc_semaphore_set(sender_sem_ptr_1, 0)
                    block_dests: T.let[T.uint64] = T.tt.get_noc_multicast_addr(B_last_x, B_last_y, B_first_x, B_first_y, l1_write_addr_1)
                    flag_dests: T.let[T.uint64] = T.tt.get_noc_multicast_addr(B_last_x, B_last_y, B_first_x, B_first_y, T.Cast("int32", T.tt.get_semaphore(B_receiver_sem)))
                    T.tt.noc_async_write_multicast_linked(l1_write_addr_1, T.tt.get_noc_multicast_addr(B_last_x, B_last_y, B_first_x, B_first_y, l1_write_addr_1), 2048, 1, 1)
                    T.tt.noc_semaphore_set(receiver_sem_ptr_1, 1)
                    T.tt.noc_semaphore_set_multicast(T.Cast("int32", T.tt.get_semaphore(B_receiver_sem)), T.tt.get_noc_multicast_addr(B_last_x, B_last_y, B_first_x, B_first_y, T.Cast("int32", T.tt.get_semaphore(B_receiver_sem))), 1)
                    T.tt.noc_async_write_barrier()
                else:
                    T.tt.noc_semaphore_set(receiver_sem_ptr_1, 0)
                    sender_sem_noc_addr: T.let[T.uint64] = T.tt.get_noc_addr(B_sender_x, B_sender_y, T.Cast("int32", T.tt.get_semaphore(B_sender_sem)))
                    T.tt.noc_semaphore_inc(T.tt.get_noc_addr(B_sender_x, B_sender_y, T.Cast("int32", T.tt.get_semaphore(B_sender_sem))), 1)
                    T.tt.noc_semaphore_wait(receiver_sem_ptr_1, 1)
                T.tt.cb_push_back(1, 1)

    @T.prim_func
    def main_writer(A: T.Buffer((64, 64), "bfloat16"), B: T.Buffer((64, 64), "bfloat16"), C: T.Buffer((64, 64), "bfloat16")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "B": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 1, "stride_mode": "tiled"}, "C": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 2, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "B": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "C": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}}, "tt.cbs": [{"block_pages": 1, "buffer": "A_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "A_shared#1"}, {"block_pages": 1, "buffer": "B_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 1, "page_bytes": 2048, "producer": "reader", "stream": "B_shared#1"}, {"block_pages": 1, "buffer": "C_local", "buffer_dtype": "float32", "class": "output", "consumer": "writer", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 16, "page_bytes": 2048, "producer": "compute", "stream": "C_local#2"}], "tt.compile_time_args": [{"offset": 0, "tensor": "C"}], "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 1]], "tt.grid_blocks": [2, 2, 1], "tt.kernel_role": "writer", "tt.launch_vars": {"blockIdx.x": "bx", "blockIdx.y": "by"}, "tt.partition_mode": "shard", "tt.tensor_args": {"C_addr": "C"}, "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 0, "cols": 1, "core": [0, 1], "count": 1, "row0": 1, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 1], "count": 1, "row0": 1, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}, {"col0": 1, "cols": 1, "count": 1, "row0": 0}, {"col0": 0, "cols": 1, "count": 1, "row0": 1}, {"col0": 1, "cols": 1, "count": 1, "row0": 1}]})
        C_addr = T.uint32()
        count = T.int32()
        col0 = T.int32()
        cols = T.int32()
        row0 = T.int32()
        accessor_args: T.let[T.handle] = T.tt.tensor_accessor_args(0)
        accessor: T.let[T.handle] = T.tt.tensor_accessor(accessor_args, C_addr, 2048)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            bx: T.let[T.int32] = col0 + i % cols
            by: T.let[T.int32] = row0 + i // cols
            T.tt.cb_wait_front(16, 1)
            l1_read_addr: T.let[T.int32] = T.Cast("int32", T.tt.get_read_ptr(16))
            T.tt.noc_async_write_page(row0 * 2 + i // cols * 2 + col0 + i % cols, accessor, l1_read_addr)
            T.tt.noc_async_write_barrier()
            T.tt.cb_pop_front(16, 1)

# ---------------------------------------- after FinalizeTTSignature
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main_compute():
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "B": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 1, "stride_mode": "tiled"}, "C": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 2, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "B": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "C": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}}, "tt.cbs": [{"block_pages": 1, "buffer": "A_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "A_shared#1"}, {"block_pages": 1, "buffer": "B_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 1, "page_bytes": 2048, "producer": "reader", "stream": "B_shared#1"}, {"block_pages": 1, "buffer": "C_local", "buffer_dtype": "float32", "class": "output", "consumer": "writer", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 16, "page_bytes": 2048, "producer": "compute", "stream": "C_local#2"}], "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 1]], "tt.grid_blocks": [2, 2, 1], "tt.kernel_role": "compute", "tt.launch_vars": {"blockIdx.x": "bx", "blockIdx.y": "by"}, "tt.partition_mode": "shard", "tt.runtime_arg_values": [{"args": [1], "core": [0, 0]}, {"args": [1], "core": [1, 0]}, {"args": [1], "core": [0, 1]}, {"args": [1], "core": [1, 1]}], "tt.runtime_args": ["count"], "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 0, "cols": 1, "core": [0, 1], "count": 1, "row0": 1, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 1], "count": 1, "row0": 1, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}, {"col0": 1, "cols": 1, "count": 1, "row0": 0}, {"col0": 0, "cols": 1, "count": 1, "row0": 1}, {"col0": 1, "cols": 1, "count": 1, "row0": 1}]})
        count: T.let[T.int32] = T.Cast("int32", T.tt.get_arg_val(0))
        T.tt.compute_kernel_hw_startup_matmul(0, 1, 16)
        T.tt.matmul_init(0, 1)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            for k in T.serial(2, annotations={"num_stages": 3}):
                if k == 0:
                    T.tt.tile_regs_acquire()
                T.tt.cb_wait_front(0, 1)
                T.tt.cb_wait_front(1, 1)
                T.tt.matmul_tiles(0, 1, 0, 0, 0)
                T.tt.cb_pop_front(0, 1)
                T.tt.cb_pop_front(1, 1)
                if k == 1:
                    T.tt.tile_regs_commit()
                    T.tt.tile_regs_wait()
                    T.tt.cb_reserve_back(16, 1)
                    T.tt.pack_tile(0, 16)
                    T.tt.cb_push_back(16, 1)
                    T.tt.tile_regs_release()

    @T.prim_func
    def main_reader():
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "B": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 1, "stride_mode": "tiled"}, "C": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 2, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "B": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "C": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}}, "tt.cbs": [{"block_pages": 1, "buffer": "A_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "A_shared#1"}, {"block_pages": 1, "buffer": "B_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 1, "page_bytes": 2048, "producer": "reader", "stream": "B_shared#1"}, {"block_pages": 1, "buffer": "C_local", "buffer_dtype": "float32", "class": "output", "consumer": "writer", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 16, "page_bytes": 2048, "producer": "compute", "stream": "C_local#2"}], "tt.compile_time_args": [{"offset": 0, "tensor": "A"}, {"offset": 2, "tensor": "B"}], "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 1]], "tt.grid_blocks": [2, 2, 1], "tt.kernel_role": "reader", "tt.launch_vars": {"blockIdx.x": "bx", "blockIdx.y": "by"}, "tt.partition_mode": "shard", "tt.runtime_arg_values": [{"args": [{"tensor": "A"}, {"tensor": "B"}, 0, 0, 1, 1, 0, {"noc_x": [1, 0]}, {"noc_y": [1, 0]}, {"noc_x": [0, 0]}, {"noc_y": [0, 0]}, {"noc_x": [0, 0]}, {"noc_y": [0, 0]}, {"semaphore": "A_sender_sem"}, {"semaphore": "A_receiver_sem"}, 1, {"noc_x": [0, 0]}, {"noc_y": [0, 0]}, {"noc_x": [0, 1]}, {"noc_y": [0, 1]}, {"noc_x": [0, 1]}, {"noc_y": [0, 1]}, {"semaphore": "B_sender_sem"}, {"semaphore": "B_receiver_sem"}], "core": [0, 0]}, {"args": [{"tensor": "A"}, {"tensor": "B"}, 0, 1, 1, 1, 1, {"noc_x": [1, 0]}, {"noc_y": [1, 0]}, {"noc_x": [0, 0]}, {"noc_y": [0, 0]}, {"noc_x": [0, 0]}, {"noc_y": [0, 0]}, {"semaphore": "A_sender_sem"}, {"semaphore": "A_receiver_sem"}, 0, {"noc_x": [1, 1]}, {"noc_y": [1, 1]}, {"noc_x": [1, 0]}, {"noc_y": [1, 0]}, {"noc_x": [1, 0]}, {"noc_y": [1, 0]}, {"semaphore": "B_sender_sem"}, {"semaphore": "B_receiver_sem"}], "core": [1, 0]}, {"args": [{"tensor": "A"}, {"tensor": "B"}, 1, 0, 1, 1, 1, {"noc_x": [0, 1]}, {"noc_y": [0, 1]}, {"noc_x": [1, 1]}, {"noc_y": [1, 1]}, {"noc_x": [1, 1]}, {"noc_y": [1, 1]}, {"semaphore": "A_sender_sem"}, {"semaphore": "A_receiver_sem"}, 0, {"noc_x": [0, 0]}, {"noc_y": [0, 0]}, {"noc_x": [0, 1]}, {"noc_y": [0, 1]}, {"noc_x": [0, 1]}, {"noc_y": [0, 1]}, {"semaphore": "B_sender_sem"}, {"semaphore": "B_receiver_sem"}], "core": [0, 1]}, {"args": [{"tensor": "A"}, {"tensor": "B"}, 1, 1, 1, 1, 0, {"noc_x": [0, 1]}, {"noc_y": [0, 1]}, {"noc_x": [1, 1]}, {"noc_y": [1, 1]}, {"noc_x": [1, 1]}, {"noc_y": [1, 1]}, {"semaphore": "A_sender_sem"}, {"semaphore": "A_receiver_sem"}, 1, {"noc_x": [1, 1]}, {"noc_y": [1, 1]}, {"noc_x": [1, 0]}, {"noc_y": [1, 0]}, {"noc_x": [1, 0]}, {"noc_y": [1, 0]}, {"semaphore": "B_sender_sem"}, {"semaphore": "B_receiver_sem"}], "core": [1, 1]}], "tt.runtime_args": ["A_addr", "B_addr", "row0", "col0", "cols", "count", "A_sender", "A_sender_x", "A_sender_y", "A_first_x", "A_first_y", "A_last_x", "A_last_y", "A_sender_sem", "A_receiver_sem", "B_sender", "B_sender_x", "B_sender_y", "B_first_x", "B_first_y", "B_last_x", "B_last_y", "B_sender_sem", "B_receiver_sem"], "tt.semaphores": [{"initial_value": 0, "name": "A_sender_sem"}, {"initial_value": 0, "name": "A_receiver_sem"}, {"initial_value": 0, "name": "B_sender_sem"}, {"initial_value": 0, "name": "B_receiver_sem"}], "tt.tensor_args": {"A_addr": "A", "B_addr": "B"}, "tt.work_args": ["row0", "col0", "cols", "count", "A_sender", "A_sender_x", "A_sender_y", "A_first_x", "A_first_y", "A_last_x", "A_last_y", "A_sender_sem", "A_receiver_sem", "B_sender", "B_sender_x", "B_sender_y", "B_first_x", "B_first_y", "B_last_x", "B_last_y", "B_sender_sem", "B_receiver_sem"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 0, "cols": 1, "core": [0, 1], "count": 1, "row0": 1, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 1], "count": 1, "row0": 1, "rows": 1}], "tt.work_values": [{"A_first_x": {"noc_x": [0, 0]}, "A_first_y": {"noc_y": [0, 0]}, "A_last_x": {"noc_x": [0, 0]}, "A_last_y": {"noc_y": [0, 0]}, "A_receiver_sem": {"semaphore": "A_receiver_sem"}, "A_sender": 0, "A_sender_sem": {"semaphore": "A_sender_sem"}, "A_sender_x": {"noc_x": [1, 0]}, "A_sender_y": {"noc_y": [1, 0]}, "B_first_x": {"noc_x": [0, 1]}, "B_first_y": {"noc_y": [0, 1]}, "B_last_x": {"noc_x": [0, 1]}, "B_last_y": {"noc_y": [0, 1]}, "B_receiver_sem": {"semaphore": "B_receiver_sem"}, "B_sender": 1, "B_sender_sem": {"semaphore": "B_sender_sem"}, "B_sender_x": {"noc_x": [0, 0]}, "B_sender_y": {"noc_y": [0, 0]}, "col0": 0, "cols": 1, "count": 1, "row0": 0}, {"A_first_x": {"noc_x": [0, 0]}, "A_first_y": {"noc_y": [0, 0]}, "A_last_x": {"noc_x": [0, 0]}, "A_last_y": {"noc_y": [0, 0]}, "A_receiver_sem": {"semaphore": "A_receiver_sem"}, "A_sender": 1, "A_sender_sem": {"semaphore": "A_sender_sem"}, "A_sender_x": {"noc_x": [1, 0]}, "A_sender_y": {"noc_y": [1, 0]}, "B_first_x": {"noc_x": [1, 0]}, "B_first_y": {"noc_y": [1, 0]}, "B_last_x": {"noc_x": [1, 0]}, "B_last_y": {"noc_y": [1, 0]}, "B_receiver_sem": {"semaphore": "B_receiver_sem"}, "B_sender": 0, "B_sender_sem": {"semaphore": "B_sender_sem"}, "B_sender_x": {"noc_x": [1, 1]}, "B_sender_y": {"noc_y": [1, 1]}, "col0": 1, "cols": 1, "count": 1, "row0": 0}, {"A_first_x": {"noc_x": [1, 1]}, "A_first_y": {"noc_y": [1, 1]}, "A_last_x": {"noc_x": [1, 1]}, "A_last_y": {"noc_y": [1, 1]}, "A_receiver_sem": {"semaphore": "A_receiver_sem"}, "A_sender": 1, "A_sender_sem": {"semaphore": "A_sender_sem"}, "A_sender_x": {"noc_x": [0, 1]}, "A_sender_y": {"noc_y": [0, 1]}, "B_first_x": {"noc_x": [0, 1]}, "B_first_y": {"noc_y": [0, 1]}, "B_last_x": {"noc_x": [0, 1]}, "B_last_y": {"noc_y": [0, 1]}, "B_receiver_sem": {"semaphore": "B_receiver_sem"}, "B_sender": 0, "B_sender_sem": {"semaphore": "B_sender_sem"}, "B_sender_x": {"noc_x": [0, 0]}, "B_sender_y": {"noc_y": [0, 0]}, "col0": 0, "cols": 1, "count": 1, "row0": 1}, {"A_first_x": {"noc_x": [1, 1]}, "A_first_y": {"noc_y": [1, 1]}, "A_last_x": {"noc_x": [1, 1]}, "A_last_y": {"noc_y": [1, 1]}, "A_receiver_sem": {"semaphore": "A_receiver_sem"}, "A_sender": 0, "A_sender_sem": {"semaphore": "A_sender_sem"}, "A_sender_x": {"noc_x": [0, 1]}, "A_sender_y": {"noc_y": [0, 1]}, "B_first_x": {"noc_x": [1, 0]}, "B_first_y": {"noc_y": [1, 0]}, "B_last_x": {"noc_x": [1, 0]}, "B_last_y": {"noc_y": [1, 0]}, "B_receiver_sem": {"semaphore": "B_receiver_sem"}, "B_sender": 1, "B_sender_sem": {"semaphore": "B_sender_sem"}, "B_sender_x": {"noc_x": [1, 1]}, "B_sender_y": {"noc_y": [1, 1]}, "col0": 1, "cols": 1, "count": 1, "row0": 1}]})
        A_addr: T.let[T.uint32] = T.tt.get_arg_val(0)
        B_addr: T.let[T.uint32] = T.tt.get_arg_val(1)
        row0: T.let[T.int32] = T.Cast("int32", T.tt.get_arg_val(2))
        col0: T.let[T.int32] = T.Cast("int32", T.tt.get_arg_val(3))
        cols: T.let[T.int32] = T.Cast("int32", T.tt.get_arg_val(4))
        count: T.let[T.int32] = T.Cast("int32", T.tt.get_arg_val(5))
        A_sender: T.let[T.int32] = T.Cast("int32", T.tt.get_arg_val(6))
        A_sender_x: T.let[T.int32] = T.Cast("int32", T.tt.get_arg_val(7))
        A_sender_y: T.let[T.int32] = T.Cast("int32", T.tt.get_arg_val(8))
        A_first_x: T.let[T.int32] = T.Cast("int32", T.tt.get_arg_val(9))
        A_first_y: T.let[T.int32] = T.Cast("int32", T.tt.get_arg_val(10))
        A_last_x: T.let[T.int32] = T.Cast("int32", T.tt.get_arg_val(11))
        A_last_y: T.let[T.int32] = T.Cast("int32", T.tt.get_arg_val(12))
        A_sender_sem: T.let[T.int32] = T.Cast("int32", T.tt.get_arg_val(13))
        A_receiver_sem: T.let[T.int32] = T.Cast("int32", T.tt.get_arg_val(14))
        B_sender: T.let[T.int32] = T.Cast("int32", T.tt.get_arg_val(15))
        B_sender_x: T.let[T.int32] = T.Cast("int32", T.tt.get_arg_val(16))
        B_sender_y: T.let[T.int32] = T.Cast("int32", T.tt.get_arg_val(17))
        B_first_x: T.let[T.int32] = T.Cast("int32", T.tt.get_arg_val(18))
        B_first_y: T.let[T.int32] = T.Cast("int32", T.tt.get_arg_val(19))
        B_last_x: T.let[T.int32] = T.Cast("int32", T.tt.get_arg_val(20))
        B_last_y: T.let[T.int32] = T.Cast("int32", T.tt.get_arg_val(21))
        B_sender_sem: T.let[T.int32] = T.Cast("int32", T.tt.get_arg_val(22))
        B_receiver_sem: T.let[T.int32] = T.Cast("int32", T.tt.get_arg_val(23))
        accessor_args: T.let[T.handle] = T.tt.tensor_accessor_args(0)
        accessor: T.let[T.handle] = T.tt.tensor_accessor(accessor_args, A_addr, 2048)
        offset: T.let[T.int32] = T.tt.next_compile_time_args_offset(accessor_args)
        accessor_args_1: T.let[T.handle] = T.tt.tensor_accessor_args(T.tt.next_compile_time_args_offset(accessor_args))
        accessor_1: T.let[T.handle] = T.tt.tensor_accessor(accessor_args_1, B_addr, 2048)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            bx: T.let[T.int32] = col0 + i % cols
            by: T.let[T.int32] = row0 + i // cols
            for k in T.serial(2, annotations={"num_stages": 3}):
                T.tt.cb_reserve_back(0, 1)
                l1_write_addr: T.let[T.int32] = T.Cast("int32", T.tt.get_write_ptr(0))
                sender_sem_addr: T.let[T.int32] = T.Cast("int32", T.tt.get_semaphore(A_sender_sem))
                receiver_sem_addr: T.let[T.int32] = T.Cast("int32", T.tt.get_semaphore(A_receiver_sem))
                sender_sem_ptr: T.let[T.handle] = T.tt.l1_word_ptr(T.Cast("int32", T.tt.get_semaphore(A_sender_sem)))
                receiver_sem_ptr: T.let[T.handle] = T.tt.l1_word_ptr(T.Cast("int32", T.tt.get_semaphore(A_receiver_sem)))
                if A_sender == 1:
                    T.tt.noc_async_read_page(row0 * 2 + i // cols * 2 + k, accessor, l1_write_addr)
                    T.tt.noc_async_read_barrier()
                    T.tt.noc_semaphore_wait(sender_sem_ptr, 1)
                    T.tt.noc_semaphore_set(sender_sem_ptr, 0)
                    block_dests: T.let[T.uint64] = T.tt.get_noc_multicast_addr(A_last_x, A_last_y, A_first_x, A_first_y, l1_write_addr)
                    flag_dests: T.let[T.uint64] = T.tt.get_noc_multicast_addr(A_last_x, A_last_y, A_first_x, A_first_y, T.Cast("int32", T.tt.get_semaphore(A_receiver_sem)))
                    T.tt.noc_async_write_multicast_linked(l1_write_addr, T.tt.get_noc_multicast_addr(A_last_x, A_last_y, A_first_x, A_first_y, l1_write_addr), 2048, 1, 1)
                    T.tt.noc_semaphore_set(receiver_sem_ptr, 1)
                    T.tt.noc_semaphore_set_multicast(T.Cast("int32", T.tt.get_semaphore(A_receiver_sem)), T.tt.get_noc_multicast_addr(A_last_x, A_last_y, A_first_x, A_first_y, T.Cast("int32", T.tt.get_semaphore(A_receiver_sem))), 1)
                    T.tt.noc_async_write_barrier()
                else:
                    T.tt.noc_semaphore_set(receiver_sem_ptr, 0)
                    sender_sem_noc_addr: T.let[T.uint64] = T.tt.get_noc_addr(A_sender_x, A_sender_y, T.Cast("int32", T.tt.get_semaphore(A_sender_sem)))
                    T.tt.noc_semaphore_inc(T.tt.get_noc_addr(A_sender_x, A_sender_y, T.Cast("int32", T.tt.get_semaphore(A_sender_sem))), 1)
                    T.tt.noc_semaphore_wait(receiver_sem_ptr, 1)
                T.tt.cb_push_back(0, 1)
                T.tt.cb_reserve_back(1, 1)
                l1_write_addr_1: T.let[T.int32] = T.Cast("int32", T.tt.get_write_ptr(1))
                sender_sem_addr_1: T.let[T.int32] = T.Cast("int32", T.tt.get_semaphore(B_sender_sem))
                receiver_sem_addr_1: T.let[T.int32] = T.Cast("int32", T.tt.get_semaphore(B_receiver_sem))
                sender_sem_ptr_1: T.let[T.handle] = T.tt.l1_word_ptr(T.Cast("int32", T.tt.get_semaphore(B_sender_sem)))
                receiver_sem_ptr_1: T.let[T.handle] = T.tt.l1_word_ptr(T.Cast("int32", T.tt.get_semaphore(B_receiver_sem)))
                if B_sender == 1:
                    T.tt.noc_async_read_page(k * 2 + col0 + i % cols, accessor_1, l1_write_addr_1)
                    T.tt.noc_async_read_barrier()
                    T.tt.noc_semaphore_wait(sender_sem_ptr_1, 1)
                    T.tt.noc_semaphore_set(sender_sem_ptr_1, 0)
                    block_dests: T.let[T.uint64] = T.tt.get_noc_multicast_addr(B_last_x, B_last_y, B_first_x, B_first_y, l1_write_addr_1)
                    flag_dests: T.let[T.uint64] = T.tt.get_noc_multicast_addr(B_last_x, B_last_y, B_first_x, B_first_y, T.Cast("int32", T.tt.get_semaphore(B_receiver_sem)))
                    T.tt.noc_async_write_multicast_linked(l1_write_addr_1, T.tt.get_noc_multicast_addr(B_last_x, B_last_y, B_first_x, B_first_y, l1_write_addr_1), 2048, 1, 1)
                    T.tt.noc_semaphore_set(receiver_sem_ptr_1, 1)
                    T.tt.noc_semaphore_set_multicast(T.Cast("int32", T.tt.get_semaphore(B_receiver_sem)), T.tt.get_noc_multicast_addr(B_last_x, B_last_y, B_first_x, B_first_y, T.Cast("int32", T.tt.get_semaphore(B_receiver_sem))), 1)
                    T.tt.noc_async_write_barrier()
                else:
                    T.tt.noc_semaphore_set(receiver_sem_ptr_1, 0)
                    sender_sem_noc_addr: T.let[T.uint64] = T.tt.get_noc_addr(B_sender_x, B_sender_y, T.Cast("int32", T.tt.get_semaphore(B_sender_sem)))
                    T.tt.noc_semaphore_inc(T.tt.get_noc_addr(B_sender_x, B_sender_y, T.Cast("int32", T.tt.get_semaphore(B_sender_sem))), 1)
                    T.tt.noc_semaphore_wait(receiver_sem_ptr_1, 1)
                T.tt.cb_push_back(1, 1)

    @T.prim_func
    def main_writer():
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.accessors": {"A": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 0, "stride_mode": "tiled"}, "B": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 1, "stride_mode": "tiled"}, "C": {"compile_time_args": 2, "page_bytes": 2048, "parameter": 2, "stride_mode": "tiled"}}, "tt.buffers": {"A": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "B": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}, "C": {"blocks": [0, 0], "data_format": "Float16_b", "dram_format": "", "dtype": "bfloat16", "layout": "interleaved", "memory": "DRAM", "pad_value": 0.0, "padded_shape": [64, 64], "page_bytes": 2048, "page_layout": "tile", "pages": 4, "shape": [64, 64], "tile_cols": 2, "tile_rows": 2, "transposed": False}}, "tt.cbs": [{"block_pages": 1, "buffer": "A_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 0, "page_bytes": 2048, "producer": "reader", "stream": "A_shared#1"}, {"block_pages": 1, "buffer": "B_shared", "buffer_dtype": "bfloat16", "class": "input", "consumer": "compute", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 1, "page_bytes": 2048, "producer": "reader", "stream": "B_shared#1"}, {"block_pages": 1, "buffer": "C_local", "buffer_dtype": "float32", "class": "output", "consumer": "writer", "data_format": "Float16_b", "depth": 2, "dtype": "bfloat16", "index": 16, "page_bytes": 2048, "producer": "compute", "stream": "C_local#2"}], "tt.compile_time_args": [{"offset": 0, "tensor": "C"}], "tt.core_grid": [8, 8], "tt.core_ranges": [[0, 0, 1, 1]], "tt.grid_blocks": [2, 2, 1], "tt.kernel_role": "writer", "tt.launch_vars": {"blockIdx.x": "bx", "blockIdx.y": "by"}, "tt.partition_mode": "shard", "tt.runtime_arg_values": [{"args": [{"tensor": "C"}, 0, 0, 1, 1], "core": [0, 0]}, {"args": [{"tensor": "C"}, 0, 1, 1, 1], "core": [1, 0]}, {"args": [{"tensor": "C"}, 1, 0, 1, 1], "core": [0, 1]}, {"args": [{"tensor": "C"}, 1, 1, 1, 1], "core": [1, 1]}], "tt.runtime_args": ["C_addr", "row0", "col0", "cols", "count"], "tt.tensor_args": {"C_addr": "C"}, "tt.work_args": ["row0", "col0", "cols", "count"], "tt.work_partition": [{"col0": 0, "cols": 1, "core": [0, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 0], "count": 1, "row0": 0, "rows": 1}, {"col0": 0, "cols": 1, "core": [0, 1], "count": 1, "row0": 1, "rows": 1}, {"col0": 1, "cols": 1, "core": [1, 1], "count": 1, "row0": 1, "rows": 1}], "tt.work_values": [{"col0": 0, "cols": 1, "count": 1, "row0": 0}, {"col0": 1, "cols": 1, "count": 1, "row0": 0}, {"col0": 0, "cols": 1, "count": 1, "row0": 1}, {"col0": 1, "cols": 1, "count": 1, "row0": 1}]})
        C_addr: T.let[T.uint32] = T.tt.get_arg_val(0)
        row0: T.let[T.int32] = T.Cast("int32", T.tt.get_arg_val(1))
        col0: T.let[T.int32] = T.Cast("int32", T.tt.get_arg_val(2))
        cols: T.let[T.int32] = T.Cast("int32", T.tt.get_arg_val(3))
        count: T.let[T.int32] = T.Cast("int32", T.tt.get_arg_val(4))
        accessor_args: T.let[T.handle] = T.tt.tensor_accessor_args(0)
        accessor: T.let[T.handle] = T.tt.tensor_accessor(accessor_args, C_addr, 2048)
        for i in T.serial(count, annotations={"tt.persistent_loop": 1}):
            bx: T.let[T.int32] = col0 + i % cols
            by: T.let[T.int32] = row0 + i // cols
            T.tt.cb_wait_front(16, 1)
            l1_read_addr: T.let[T.int32] = T.Cast("int32", T.tt.get_read_ptr(16))
            T.tt.noc_async_write_page(row0 * 2 + i // cols * 2 + col0 + i % cols, accessor, l1_read_addr)
            T.tt.noc_async_write_barrier()
            T.tt.cb_pop_front(16, 1)
