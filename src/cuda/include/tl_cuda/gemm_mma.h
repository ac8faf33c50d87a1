// Tensor-core GEMM of a CUDA block for the cuda backend (the hook bind_cuda_threads, src/transform/cuda_gemm.cc):
// tiles copied from global into shared memory by all the block's threads (16-byte vectors, cp.async on sm_80+),
// stored with an XOR swizzle of their 16-byte chunks (conflict-free ldmatrix), and C += A @ B of shared tiles with
// ldmatrix + mma.sync.m16n8k16 (fp16/bf16 in, fp32 accumulate), the accumulator partitioned over the block's warps
// in the mma accumulator layout (acc_row/acc_col: the (row, col) of each thread's elements). Written for this
// project from the PTX ISA's description of ldmatrix and the m16n8k16 fragment layouts.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>

namespace tl_cuda {

/*! \brief Physical element offset of (row, col) in a shared tile of COLS 16-bit elements a row: the row's 16-byte
 * chunks are XOR-permuted so that 8 consecutive rows' chunk c lie in 8 distinct bank groups. */
template <int COLS>
__device__ __forceinline__ int swizzle(int row, int col) {
  constexpr int chunks = COLS / 8;  // 16-byte chunks a row
  static_assert(COLS % 8 == 0, "a swizzled tile row holds whole 16-byte chunks");
  int key = chunks >= 8 ? row % 8 : (row / (8 / chunks)) % chunks;
  return row * COLS + ((((col / 8) ^ key) * 8) | (col % 8));
}

__device__ __forceinline__ uint32_t shared_address(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

/*! \brief Global tile [ROWS][COLS] (rows `ld` elements apart) into a swizzled shared tile, by THREADS threads.
 * VEC: 16-byte pieces (the caller proved g and ld 8-element aligned); ASYNC: cp.async (sm_80+; wait with
 * async_wait before reading the tile). */
template <int ROWS, int COLS, int THREADS, bool VEC, bool ASYNC, typename T>
__device__ __forceinline__ void copy_g2s(T* s, const T* g, int ld) {
  static_assert(sizeof(T) == 2, "16-bit elements");
  if constexpr (VEC) {
    constexpr int chunks = ROWS * COLS / 8;
#pragma unroll
    for (int it = 0; it < (chunks + THREADS - 1) / THREADS; ++it) {
      int c = it * THREADS + threadIdx.x;
      if (chunks % THREADS != 0 && c >= chunks) break;
      int row = c / (COLS / 8), col = (c % (COLS / 8)) * 8;
      T* dst = s + swizzle<COLS>(row, col);
      const T* src = g + static_cast<int64_t>(row) * ld + col;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
      if constexpr (ASYNC) {
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(shared_address(dst)), "l"(src));
      } else {
        *reinterpret_cast<uint4*>(dst) = *reinterpret_cast<const uint4*>(src);
      }
#else
      *reinterpret_cast<uint4*>(dst) = *reinterpret_cast<const uint4*>(src);
#endif
    }
  } else {
#pragma unroll 4
    for (int e = threadIdx.x; e < ROWS * COLS; e += THREADS) {
      int row = e / COLS, col = e % COLS;
      s[swizzle<COLS>(row, col)] = g[static_cast<int64_t>(row) * ld + col];
    }
  }
}

/*! \brief Commit this thread's cp.async copies as one group. */
__device__ __forceinline__ void async_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::);
#endif
}

/*! \brief Wait until at most N of this thread's committed cp.async groups are pending. */
template <int N>
__device__ __forceinline__ void async_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
#endif
}

__device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], const void* p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(shared_address(p)));
}

__device__ __forceinline__ void ldmatrix_x4_trans(uint32_t (&r)[4], const void* p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(shared_address(p)));
}

/*! \brief d += a @ b for one 16x8x16 tile (row-major A fragment, column-major B fragment, fp32 accumulator). */
__device__ __forceinline__ void mma_16816(float* d, const uint32_t (&a)[4], const uint32_t* b, __half) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

__device__ __forceinline__ void mma_16816(float* d, const uint32_t (&a)[4], const uint32_t* b, __nv_bfloat16) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

/*! \brief The accumulator layout of an M x N fragment on WM x WN warps (warp w at warp row w / WN, warp column
 * w % WN; each warp an (M / WM) x (N / WN) tile of 16x8 mma tiles): element `i` of a thread's M * N / (32 * WM * WN)
 * is mma tile (i / 4) (row-major over the warp's tiles), accumulator register i % 4. */
template <int M, int N, int WM, int WN>
__device__ __forceinline__ int acc_row(int i) {
  constexpr int NI = N / WN / 8;
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  return (warp / WN) * (M / WM) + (i / 4 / NI) * 16 + lane / 4 + (i % 4 / 2) * 8;
}

template <int M, int N, int WM, int WN>
__device__ __forceinline__ int acc_col(int i) {
  constexpr int NI = N / WN / 8;
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  return (warp % WN) * (N / WN) + (i / 4 % NI) * 8 + (lane % 4) * 2 + i % 2;
}

/*! \brief acc_col(i) / 2 for an even i: elements i and i + 1 of a thread are columns 2 * acc_pair(i) and
 * 2 * acc_pair(i) + 1 of row acc_row(i). */
template <int M, int N, int WM, int WN>
__device__ __forceinline__ int acc_pair(int i) {
  return acc_col<M, N, WM, WN>(i) / 2;
}

/*! \brief C += op(A) @ op(B) over shared swizzled tiles: A is [M][K] ([K][M] when TA), B is [K][N] ([N][K] when TB);
 * C is this thread's part of the M x N accumulator (acc_row/acc_col). */
template <int M, int N, int K, int WM, int WN, bool TA, bool TB, typename T>
__device__ __forceinline__ void gemm_ss(const T* A, const T* B, float* C) {
  constexpr int TM = M / WM, TN = N / WN, MI = TM / 16, NI = TN / 8;
  static_assert(TM % 16 == 0 && TN % 16 == 0 && K % 16 == 0, "warp tiles of whole 16x16 pieces, K of 16s");
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  int m0 = (warp / WN) * TM, n0 = (warp % WN) * TN;
  int r = lane % 8, q = lane / 8;  // this lane's row of 8x8 matrix q of an ldmatrix.x4
#pragma unroll
  for (int kk = 0; kk < K; kk += 16) {
    uint32_t a[MI][4], b[NI][2];
#pragma unroll
    for (int mi = 0; mi < MI; ++mi) {
      // matrix q: rows m + (q % 2) * 8, columns k + (q / 2) * 8 of the 16x16 A piece
      int m = m0 + mi * 16 + (q % 2) * 8, k = kk + (q / 2) * 8;
      if constexpr (TA) {
        ldmatrix_x4_trans(a[mi], A + swizzle<M>(k + r, m));
      } else {
        ldmatrix_x4(a[mi], A + swizzle<K>(m + r, k));
      }
    }
#pragma unroll
    for (int nj = 0; nj < NI / 2; ++nj) {
      // matrix q: k + (q % 2) * 8, n + (q / 2) * 8 -> b[2nj + q / 2][q % 2]
      int n = n0 + nj * 16 + (q / 2) * 8, k = kk + (q % 2) * 8;
      uint32_t x[4];
      if constexpr (TB) {
        ldmatrix_x4(x, B + swizzle<K>(n + r, k));
      } else {
        ldmatrix_x4_trans(x, B + swizzle<N>(k + r, n));
      }
      b[2 * nj][0] = x[0];
      b[2 * nj][1] = x[1];
      b[2 * nj + 1][0] = x[2];
      b[2 * nj + 1][1] = x[3];
    }
#pragma unroll
    for (int mi = 0; mi < MI; ++mi) {
#pragma unroll
      for (int ni = 0; ni < NI; ++ni) mma_16816(C + (mi * NI + ni) * 4, a[mi], b[ni], T());
    }
  }
}

}  // namespace tl_cuda
