"""SIMT kernels in TileLang's per-thread style (T.get_thread_binding, as TileLang's examples/gemv writes them): the
block's body runs on each thread, T.alloc_local buffers are per thread, shared buffers are the block's. On llvm and
Tenstorrent the threads run as loops (pass SerializeThreads); tests/language/test_thread_bindings.py checks them."""

import tilelang.language as T


def gemv_row_per_thread(n: int, k: int, block_k: int, threads: int = 128):
    """C = B @ A, thread tn of block bn computes row bn * threads + tn; A's slice is staged in shared memory."""

    @T.prim_func
    def main(A: T.Tensor((k,), T.float16), B: T.Tensor((n, k), T.float16), C: T.Tensor((n,), T.float32)):
        with T.Kernel(T.ceildiv(n, threads), threads=threads) as bn:
            tn = T.get_thread_binding(0)
            a_shared = T.alloc_shared((block_k,), T.float16)
            acc = T.alloc_local((1,), T.float32)
            T.clear(acc)
            for ko in T.serial(k // block_k):
                for kk in T.serial(block_k):
                    a_shared[kk] = A[ko * block_k + kk]
                for kk in T.serial(block_k):
                    acc[0] += a_shared[kk].astype("float32") * B[bn * threads + tn, ko * block_k + kk].astype("float32")
            C[bn * threads + tn] = acc[0]

    return main


def gemv_staged_per_thread(n: int, k: int, block_n: int, block_k: int):
    """TileLang's naive_gemv: thread tn of block bn stages its row's block_k columns of B (and the block's slice of A)
    in shared memory, then sums their products (after SerializeThreads, the two staging stores share the tk loop)."""

    @T.prim_func
    def main(A: T.Tensor((k,), T.float16), B: T.Tensor((n, k), T.float16), C: T.Tensor((n,), T.float16)):
        with T.Kernel(T.ceildiv(n, block_n), threads=block_n) as bn:
            tn = T.get_thread_binding(0)
            a_shared = T.alloc_shared((block_k,), T.float16)
            b_shared = T.alloc_shared((block_n, block_k), T.float16)
            acc = T.alloc_local((1,), T.float32)
            T.clear(acc)
            for ko in T.serial(T.ceildiv(k, block_k)):
                for kk in T.serial(block_k):
                    a_shared[kk] = A[ko * block_k + kk]
                    b_shared[tn, kk] = B[bn * block_n + tn, ko * block_k + kk]
                for kk in T.serial(block_k):
                    acc[0] += a_shared[kk].astype("float32") * b_shared[tn, kk].astype("float32")
            C[bn * block_n + tn] = acc[0]

    return main


def gemv_split_k_per_element(n: int, k: int, block_n: int, block_k: int):
    """TileLang's naive_splitk_gemv: thread (tn, tk) adds one product per K block, then its sum into the block's
    shared row sums with T.atomic_add (cleared by thread tk == 0)."""

    @T.prim_func
    def main(A: T.Tensor((k,), T.float16), B: T.Tensor((n, k), T.float16), C: T.Tensor((n,), T.float16)):
        with T.Kernel(T.ceildiv(n, block_n), threads=(block_n, block_k)) as bn:
            tn = T.get_thread_binding(0)
            tk = T.get_thread_binding(1)
            a_local = T.alloc_local((1,), T.float16)
            b_local = T.alloc_local((1,), T.float16)
            acc = T.alloc_local((1,), T.float32)
            sums = T.alloc_shared((block_n,), T.float32)
            if tk == 0:
                sums[tn] = 0
            T.clear(acc)
            for ko in T.serial(T.ceildiv(k, block_k)):
                a_local[0] = A[ko * block_k + tk]
                b_local[0] = B[bn * block_n + tn, ko * block_k + tk]
                acc[0] += a_local[0].astype("float32") * b_local[0].astype("float32")
            T.atomic_add(sums[tn], acc[0])
            C[bn * block_n + tn] = sums[tn]

    return main


def gemv_split_k(n: int, k: int, block_n: int, split: int, tile_k: int, vectorized: bool = False):
    """C = B @ A on threads (block_n, split): thread (tn, tk) sums tile_k-element runs of row tn in a per-thread
    array, then adds its sum into the block's shared row sums with T.atomic_add, which thread tk == 0 cleared.
    `vectorized`: the runs are loaded with T.vectorized (TileLang's splitk_gemv_vectorized, 16 bytes a thread)."""
    block_k = split * tile_k
    loads = T.vectorized if vectorized else T.serial

    @T.prim_func
    def main(A: T.Tensor((k,), T.float16), B: T.Tensor((n, k), T.float16), C: T.Tensor((n,), T.float16)):
        with T.Kernel(T.ceildiv(n, block_n), threads=(block_n, split)) as bn:
            tn, tk, _ = T.get_thread_bindings()
            a_local = T.alloc_local((tile_k,), T.float16)
            b_local = T.alloc_local((tile_k,), T.float16)
            sums = T.alloc_shared((block_n,), T.float32)
            acc = T.alloc_local((1,), T.float32)
            if tk == 0:
                sums[tn] = 0
            T.clear(acc)
            for ko in T.serial(k // block_k):
                for j in loads(tile_k):
                    a_local[j] = A[ko * block_k + tk * tile_k + j]
                    b_local[j] = B[bn * block_n + tn, ko * block_k + tk * tile_k + j]
                for j in T.serial(tile_k):
                    acc[0] += a_local[j].astype("float32") * b_local[j].astype("float32")
            T.atomic_add(sums[tn], acc[0])
            C[bn * block_n + tn] = sums[tn]

    return main


def reverse_through_shared(n: int, threads: int):
    """B[i] = 2 * A[mirror of i within its block]: thread t writes element t of shared memory and reads element
    threads - 1 - t, which another thread wrote (right only where a barrier separates the two statements)."""

    @T.prim_func
    def main(A: T.Tensor((n,), T.float32), B: T.Tensor((n,), T.float32)):
        with T.Kernel(n // threads, threads=threads) as bx:
            t = T.get_thread_binding()
            s = T.alloc_shared((threads,), T.float32)
            x = T.alloc_local((1,), T.float32)
            s[t] = A[bx * threads + t]
            x[0] = s[threads - 1 - t] * 2
            B[bx * threads + t] = x[0]

    return main


def strided_runs(threads: int):
    """Thread t copies A[4t], A[4t + 1] (runs of 2, 4 apart: no block of A) and writes them doubled to B[2t + j]."""

    @T.prim_func
    def main(A: T.Tensor((4 * threads,), T.float32), B: T.Tensor((2 * threads,), T.float32)):
        with T.Kernel(1, threads=threads) as _:
            t = T.get_thread_binding()
            x = T.alloc_local((2,), T.float32)
            for j in T.serial(2):
                x[j] = A[t * 4 + j]
            for j in T.serial(2):
                B[t * 2 + j] = x[j] * 2

    return main
