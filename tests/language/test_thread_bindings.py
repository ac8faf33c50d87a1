"""T.get_thread_binding kernels (TileLang's SIMT style, tests/tt_thread_kernels.py) on the targets without threads:
llvm and Tenstorrent run the block's threads as loops over the thread indices (pass SerializeThreads) and match
numpy; CUDA keeps the threads. TileLang's own gemv examples run through tools/upstream_examples.py
(tools/upstream_cases.py, "gemv").

Numerics: fp16 operands from U(-1, 1), fp32 accumulation of K <= 256 products (rtol/atol 1e-2, as upstream's own
checks; an fp16 output rounds to 2^-11 relative); the reversal moves values exactly."""

import numpy as np
import pytest
import tt_thread_kernels as K

import tilelang
import tilelang.language as T
from tilelang.errors import TileLangError

RNG = np.random.default_rng(28)
TARGETS = ["llvm"]


def uniform(*shape: int) -> np.ndarray:
    return RNG.uniform(-1.0, 1.0, shape).astype("float16")


def gemv_ref(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return b.astype("float32") @ a.astype("float32")


@pytest.mark.parametrize("target", [*TARGETS, "tenstorrent"])
def test_row_per_thread_gemv(target: str) -> None:
    """On Tenstorrent the per-thread sum over kk is an element-wise block of terms reduced by rows (reduce_sum)."""
    n, k = 128, 96  # K not a tile multiple
    kernel = tilelang.compile(K.gemv_row_per_thread(n, k, 32), out_idx=[-1], target=target)
    a, b = uniform(k), uniform(n, k)
    np.testing.assert_allclose(kernel(a, b), gemv_ref(a, b), rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize("target", [*TARGETS, "tenstorrent"])
def test_staged_gemv(target: str) -> None:
    """TileLang's naive_gemv: the two staging stores that share the kk loop are split into two block copies on
    Tenstorrent (A's slice, B's (block_n, block_k) block) before the row sums; N and K not tile multiples."""
    n, k = 40, 72
    kernel = tilelang.compile(K.gemv_staged_per_thread(n, k, 20, 24), out_idx=[-1], target=target)
    a, b = uniform(k), uniform(n, k)
    np.testing.assert_allclose(kernel(a, b).astype("float32"), gemv_ref(a, b), rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize("target", [*TARGETS, "tenstorrent"])
def test_split_k_gemv_one_element_per_thread(target: str) -> None:
    """TileLang's naive_splitk_gemv. On Tenstorrent: the `tk == 0` clear is one fill, the A slice every thread tn
    loads alike is one 1-D array, the [tk, tn] arrays are transposed to B's [tn, tk] order, the per-thread products
    an element-wise block and the shared atomic adds a row sum."""
    n, k = 40, 72
    kernel = tilelang.compile(K.gemv_split_k_per_element(n, k, 4, 8), out_idx=[-1], target=target)
    a, b = uniform(k), uniform(n, k)
    np.testing.assert_allclose(kernel(a, b).astype("float32"), gemv_ref(a, b), rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize("target", [*TARGETS, "tenstorrent"])
def test_split_k_gemv_with_atomic_add_into_shared_memory(target: str) -> None:
    """TileLang's splitk_gemv. On Tenstorrent: the per-thread sums summed whole into the row sums, A's and B's
    (tk, j) runs fused and their loops merged into one contiguous range, B's block transposed to its DRAM order."""
    n, k = 100, 200  # blocks of 4 rows, 2 x 4 x 25 columns: neither a tile multiple
    kernel = tilelang.compile(K.gemv_split_k(n, k, 4, 2, 4), out_idx=[-1], target=target)
    a, b = uniform(k), uniform(n, k)
    np.testing.assert_allclose(kernel(a, b).astype("float32"), gemv_ref(a, b), rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize("target", TARGETS)
def test_a_statement_boundary_is_a_barrier(target: str) -> None:
    """Thread t reads what thread threads - 1 - t wrote: run whole per thread, the body would read stale data."""
    n, threads = 64, 32
    kernel = tilelang.compile(K.reverse_through_shared(n, threads), out_idx=[-1], target=target)
    a = RNG.standard_normal(n).astype("float32")
    np.testing.assert_array_equal(kernel(a), 2 * a.reshape(-1, threads)[:, ::-1].reshape(-1))


def test_llvm_loops_over_threads_and_keeps_per_thread_arrays() -> None:
    art = tilelang.lower(K.gemv_split_k(64, 64, 4, 2, 4), target="llvm")
    assert "threadIdx" not in art.device_mod.script()


def test_cuda_keeps_the_threads() -> None:
    source = tilelang.lower(K.gemv_row_per_thread(128, 64, 32), target="cuda").kernel_source
    assert "threadIdx.x" in source and "__launch_bounds__(128)" in source


def test_thread_binding_inside_a_loop_is_refused() -> None:
    with pytest.raises(TileLangError, match=r"T.get_thread_binding must be called directly in the T.Kernel body"):
        @T.prim_func
        def main(A: T.Tensor((4,), T.float32)):
            with T.Kernel(1, threads=4) as _:
                for i in T.serial(2):
                    A[T.get_thread_binding()] = i


@pytest.mark.parametrize(("kernel", "message"), [
    (K.strided_runs(16), r"storing x\[t, j\] = A\[t \* 4 \+ j\] moves elements of a DRAM tensor that are not a block "
                         r"slice"),
    (K.reverse_through_shared(64, 32), r"operand s\[31 - t\] reads 's' at other indices than the loop variables"),
], ids=["strided_runs", "reverse"])
def test_tenstorrent_refuses_the_thread_loops_it_cannot_read_as_blocks(kernel, message: str) -> None:
    """The thread loops reach LowerTTLoopsToTileOps as element loops over the thread indices; these ones move DRAM
    elements in column slices or strided runs, or read shared memory shifted, which it refuses naming the loop."""
    with pytest.raises(TileLangError, match=message):
        tilelang.lower(kernel, target="tenstorrent")


def test_thread_dependent_tile_op_is_refused_on_tenstorrent() -> None:
    @T.prim_func
    def main(A: T.Tensor((32, 32), T.float32), B: T.Tensor((32, 32), T.float32)):
        with T.Kernel(1, threads=2) as _:
            t = T.get_thread_binding()
            s = T.alloc_shared((32, 32), T.float32)
            if t == 0:
                T.copy(A, s)
            T.copy(s, B)

    with pytest.raises(TileLangError, match=r"SerializeThreads: tirx.tile.copy in per-thread code"):
        tilelang.lower(main, target="tenstorrent")


def _reducer_gemv(m: int, n: int, block_m: int, block_n: int, op: str = "sum"):
    """TileLang's gemv_alloc_reducer body (T.Pipelined over K blocks, `o[i] += a[i, j] * x[j]` in T.Parallel)."""

    @T.prim_func
    def main(a: T.Tensor((m, n), T.float16), x: T.Tensor((n,), T.float16), o: T.Tensor((m,), T.float16)):
        with T.Kernel(T.ceildiv(m, block_m), threads=128) as i0_m:
            o_reducer = T.alloc_reducer(block_m, T.float32, op=op, replication="all")
            T.clear(o_reducer)
            for i0_n in T.Pipelined(T.ceildiv(n, block_n), num_stages=2):
                a_smem = T.alloc_shared((block_m, block_n), T.float16)
                T.copy(a[i0_m * block_m, i0_n * block_n], a_smem)
                a_frag = T.alloc_fragment((block_m, block_n), T.float16)
                T.copy(a_smem, a_frag)
                x_frag = T.alloc_fragment(block_n, T.float16)
                T.copy(x[i0_n * block_n], x_frag)
                for i1_m, i1_n in T.Parallel(block_m, block_n):
                    o_reducer[i1_m] += a_frag[i1_m, i1_n] * x_frag[i1_n]
            T.finalize_reducer(o_reducer)
            T.copy(o_reducer, o[i0_m * block_m])

    return main


def test_alloc_reducer_gemv_on_llvm() -> None:
    """T.alloc_reducer is the block's fragment where the block runs on one thread: the partial is the result."""
    kernel = tilelang.compile(_reducer_gemv(32, 96, 16, 32), out_idx=[-1], target="llvm")
    a, x = uniform(32, 96), uniform(96)
    np.testing.assert_allclose(kernel(a, x).astype("float32"), a.astype("float32") @ x.astype("float32"),
                               rtol=1e-2, atol=1e-2)


def test_alloc_reducer_refuses_an_unknown_op() -> None:
    with pytest.raises(TileLangError, match=r"T.alloc_reducer: op must be one of sum, max, min, got 'prod'"):
        tilelang.lower(_reducer_gemv(32, 96, 16, 32, op="prod"), target="llvm")
