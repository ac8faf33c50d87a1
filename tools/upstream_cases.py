"""The cases of tools/upstream_examples.py: which TileLang example kernel, at what shape, on what inputs, against which
numpy reference. Each names the example file (relative to a tile-ai/tilelang source folder) and its kernel."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import ml_dtypes
import numpy as np

RNG = np.random.default_rng(28)
F16, BF16, F32 = np.float16, ml_dtypes.bfloat16, np.float32


@dataclass
class Case:
    """One example kernel at one shape. `run(kernel, inputs)` returns the outputs to compare (for a kernel writing
    an input in place, that input); `inputs()` makes numpy arrays; `ref(*inputs)` the expected outputs."""

    name: str
    file: str
    attr: str
    inputs: Callable[[], list[np.ndarray]]
    ref: Callable[..., Any]
    run: Callable[[Any, list[np.ndarray]], Any]
    atol: float = 1e-2
    rtol: float = 1e-2
    module_globals: dict[str, Any] = field(default_factory=dict)  # set on the module first (its M, N, ...)
    out_idx: Any = None  # a plain prim_func factory (testing/python style): compiled with these outputs


def _f(shape: Sequence[int], dtype: Any = F32, lo: float = -1.0, hi: float = 1.0) -> np.ndarray:
    return RNG.uniform(lo, hi, shape).astype(dtype)


def _distinct_rows(m: int, n: int) -> np.ndarray:
    """Distinct multiples of 1/2048 per row (n <= 2048): exact in the FPU's 19-bit SrcA, which top-k's comparisons with
    the row maximum read on Tenstorrent."""
    return np.stack([RNG.permutation(2048)[:n] for _ in range(m)]).astype(F32) / 2048


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def _attention(q: np.ndarray, k: np.ndarray, v: np.ndarray, causal: bool, layout: str = "bhsd") -> np.ndarray:
    """softmax(q k^T / sqrt(d)) v in float32; bshd tensors are (batch, seq, heads, dim)."""
    q, k, v = (x.astype(F32) for x in (q, k, v))
    if layout == "bshd":
        q, k, v = (x.transpose(0, 2, 1, 3) for x in (q, k, v))
    scores = np.einsum("bhqd,bhkd->bhqk", q, k) / np.sqrt(q.shape[-1])
    if causal:
        sq, sk = scores.shape[-2:]
        mask = np.tril(np.ones((sq, sk), bool), sk - sq)
        scores = np.where(mask, scores, -np.inf)
    out = np.einsum("bhqk,bhkd->bhqd", _softmax(scores), v)
    return out.transpose(0, 2, 1, 3) if layout == "bshd" else out


def _gemm_cases() -> list[Case]:
    cases = []
    for m, n, k in ((128, 128, 64), (100, 200, 72)):
        cases.append(Case(
            f"gemm {m}x{n}x{k}", "examples/gemm/example_gemm.py", "matmul",
            lambda m=m, n=n, k=k: [_f((m, k), F16), _f((k, n), F16)],
            lambda a, b: a.astype(F32) @ b.astype(F32),
            lambda kern, x: kern(*x, 64, 64, 32)))
    for m, n, k in ((128, 128, 64), (100, 200, 128)):  # the split-K examples need K % (split_k * block_K) == 0
        cases.append(Case(
            f"gemm_splitk (element atomic_add) {m}x{n}x{k}", "examples/gemm_splitk/example_tilelang_gemm_splitk.py",
            "matmul", lambda m=m, n=n, k=k: [_f((m, k), F16), _f((k, n), F16), np.zeros((m, n), F32)],
            lambda a, b, c: a.astype(F32) @ b.astype(F32),
            lambda kern, x: (kern(*x, 32, 32, 32, 2), x[2])[1]))
        cases.append(Case(
            f"gemm_splitk (tile atomic_add) {m}x{n}x{k}",
            "examples/gemm_splitk/example_tilelang_gemm_splitk_vectorize_atomicadd.py", "matmul",
            lambda m=m, n=n, k=k: [_f((m, k), F16), _f((k, n), F16), np.zeros((m, n), F32)],
            lambda a, b, c: a.astype(F32) @ b.astype(F32),
            lambda kern, x: (kern(*x, 32, 32, 32, 2), x[2])[1]))
    cases.append(Case(
        "gemm_streamk 256x1024x512 (the module's shape)", "examples/gemm_streamk/example_tilelang_gemm_streamk.py",
        "tl_matmul_streamk", lambda: [_f((256, 512), F16), _f((1024, 512), F16), np.zeros((256, 1024), F32)],
        lambda a, b, c: a.astype(F32) @ b.astype(F32).T,
        lambda kern, x: (kern(*x, _streamk_tiles(), 16, 128, 32, False, True, "float16", "float32", "float32", 2,
                              64), x[2])[1]))
    cases.append(Case(
        "blocksparse_gemm 128^3 (bool block mask)", "examples/blocksparse_gemm/example_blocksparse_gemm.py",
        "blocksparse_matmul",
        lambda: [_f((128, 128), F16), _f((128, 128), F16), RNG.random((2, 2, 4)) > 0.4],
        lambda a, b, mask: np.einsum("mkn->mn", np.stack([
            (a.astype(F32)[:, kk * 32:(kk + 1) * 32] @ b.astype(F32)[kk * 32:(kk + 1) * 32, :])
            * np.kron(mask[:, :, kk], np.ones((64, 64))) for kk in range(4)], axis=1)),
        lambda kern, x: kern(*x, 64, 64, 32, 1, 128, False)))
    return cases + _gemv_cases()


def _gemv_cases() -> list[Case]:
    """The SIMT gemv examples (T.get_thread_binding; threads run as loops on llvm and Tenstorrent). naive_gemv runs
    on T.Kernel's default 128 threads, one a row, so its BLOCK_N is 128 (upstream's main); the others take
    threads=(BLOCK_N, BLOCK_K or reduce_threads), blocks that divide N and K (the examples guard no global access)."""
    cases = []

    def gemv(name: str, attr: str, n: int, k: int, args: tuple[Any, ...]) -> Case:
        return Case(f"gemv {name} N={n} K={k}", "examples/gemv/example_gemv.py", attr,
                    lambda: [_f((k,), F16), _f((n, k), F16)], lambda a, b: b.astype(F32) @ a.astype(F32),
                    lambda kern, x: kern(*x, *args))

    cases.append(gemv("naive", "naive_gemv", 128, 256, (128, 32)))
    cases.append(gemv("naive", "naive_gemv", 128, 200, (128, 40)))
    for n, k in ((64, 128), (100, 200)):
        cases.append(gemv("naive_splitk (atomic_add into shared)", "naive_splitk_gemv", n, k, (4, 8)))
        cases.append(gemv("splitk", "splitk_gemv", n, k, (4, 40, 4) if k == 200 else (4, 32, 4)))
    cases.append(gemv("splitk_vectorized", "splitk_gemv_vectorized", 64, 128, (2, 8)))
    cases.append(gemv("splitk_vectorized", "splitk_gemv_vectorized", 100, 192, (4, 8)))
    cases.append(Case("gemv alloc_reducer M=128 N=256 (T.alloc_reducer, T.Pipelined)", "examples/gemv/example_gemv.py",
                      "gemv_alloc_reducer", lambda: [_f((128, 256), F16), _f((256,), F16)],
                      lambda a, x: a.astype(F32) @ x.astype(F32), lambda kern, x: kern(*x, 64, 64)))
    return cases


def _streamk_tiles() -> int:
    """The example module's own `streamk_tiles` (computed at its import from its shapes)."""
    return int(sys.modules["upstream_examples_gemm_streamk_example_tilelang_gemm_streamk"].streamk_tiles)


def _norm_cases() -> list[Case]:
    cases = []
    for m, n in ((64, 128), (100, 200)):
        cases.append(Case(
            f"rms_norm {m}x{n}", "examples/norm/rms_norm.py", "rms_norm", lambda m=m, n=n: [_f((m, n))],
            lambda a: a / np.sqrt((a * a).mean(1, keepdims=True) + 1e-12), lambda kern, x: kern(*x, 32),
            atol=1e-4, rtol=1e-4))
        cases.append(Case(
            f"rms_norm_splitk {m}x{n}", "examples/norm/rms_norm.py", "rms_norm_splitk",
            lambda m=m, n=n: [_f((m, n))],
            lambda a: a / np.sqrt((a * a).mean(1, keepdims=True) + 1e-12), lambda kern, x: kern(*x, 32, 32),
            atol=1e-4, rtol=1e-4))
        cases.append(Case(
            f"layernorm fwd {m}x{n} (blk_m=1)", "examples/norm/layernorm.py", "_layernorm_fwd",
            lambda m=m, n=n: [_f((m, n), BF16), _f((n,), BF16), _f((n,), BF16)],
            lambda x, g, b: _layernorm(x, g, b),
            lambda kern, x, m=m, n=n: kern(m, n)(*x), atol=5e-2, rtol=5e-2))
        cases.append(Case(
            f"online_softmax {m}x{n} (the module's M, N)", "examples/online_softmax/online_softmax.py",
            "softmax_kernel",
            lambda m=m, n=n: [_f((m, n), F16, -3, 3)], lambda x: _softmax(x.astype(F32)),
            lambda kern, x: kern(*x, 1, 64), atol=1e-2, rtol=1e-2, module_globals={"M": m, "N": n}))
    return cases


def _layernorm(x: np.ndarray, g: np.ndarray, b: np.ndarray) -> list[np.ndarray]:
    x32 = x.astype(F32)
    mean = x32.mean(1)
    rstd = 1 / np.sqrt(x32.var(1) + 1e-5)
    y = (x32 - mean[:, None]) * rstd[:, None] * g.astype(F32) + b.astype(F32)
    return [y, mean, rstd]


def _attention_cases() -> list[Case]:
    cases = []
    for causal in (False, True):
        for s in (128, 200):
            tag = "causal" if causal else "non-causal"
            cases.append(Case(
                f"mha_fwd_bhsd {tag} S={s}", "examples/flash_attention/example_mha_fwd_bhsd.py", "flashattn",
                lambda s=s: [_f((1, 2, s, 64), F16) for _ in range(3)],
                lambda q, k, v, causal=causal: _attention(q, k, v, causal),
                lambda kern, x, s=s, causal=causal: kern(1, 2, s, s, 64, causal, 64, 64, 1, 128)(*x)))
            cases.append(Case(
                f"mha_fwd_bshd {tag} S={s}", "examples/flash_attention/example_mha_fwd_bshd.py", "flashattn",
                lambda s=s: [_f((1, s, 2, 64), F16) for _ in range(3)],
                lambda q, k, v, causal=causal: _attention(q, k, v, causal, "bshd"),
                lambda kern, x, s=s, causal=causal: kern(1, 2, s, 64, causal, 64, 64, 1, 128)(*x)))
    return cases


def _misc_cases() -> list[Case]:
    def topk_ref(x: np.ndarray, k: int = 4) -> list[np.ndarray]:
        idx = np.argsort(-x, axis=1, kind="stable")[:, :k].astype(np.int32)
        return [np.take_along_axis(x, idx, 1), idx]

    def conv_ref(a: np.ndarray, b: np.ndarray, s: int = 1, p: int = 1) -> np.ndarray:
        n, h, w, c = a.shape
        kh, kw, _, f = b.shape
        padded = np.zeros((n, h + 2 * p, w + 2 * p, c), F32)
        padded[:, p:p + h, p:p + w] = a.astype(F32)
        oh, ow = (h + 2 * p - kh) // s + 1, (w + 2 * p - kw) // s + 1
        out = np.zeros((n, oh, ow, f), F32)
        for i in range(kh):
            for j in range(kw):
                out += np.einsum("nhwc,cf->nhwf", padded[:, i:i + oh * s:s, j:j + ow * s:s], b[i, j].astype(F32))
        return out

    return [
        Case("elementwise_add 128x128", "examples/elementwise/example_elementwise_add.py", "elementwise_add",
             lambda: [_f((128, 128)), _f((128, 128))], lambda a, b: a + b,
             lambda kern, x: kern(*x, 32, 32, "float32", "float32", 128), atol=0, rtol=0),
        Case("elementwise_add 100x200", "examples/elementwise/example_elementwise_add.py", "elementwise_add",
             lambda: [_f((100, 200)), _f((100, 200))], lambda a, b: a + b,
             lambda kern, x: kern(*x, 32, 32, "float32", "float32", 128), atol=0, rtol=0),
        Case("topk M=64 N=32 k=4 (int32 indices)", "examples/topk/example_topk.py", "tl_topk",
             lambda: [RNG.permutation(64 * 32).reshape(64, 32).astype(F32) / 2048],
             lambda x: topk_ref(x), lambda kern, x: kern(*x, 4, 64), atol=0, rtol=0),
        Case("topk M=100 N=40 k=4 (ragged; [M, k] outputs transposed in DRAM)", "examples/topk/example_topk.py",
             "tl_topk", lambda: [_distinct_rows(100, 40)], lambda x: topk_ref(x), lambda kern, x: kern(*x, 4, 64),
             atol=0, rtol=0),
        Case("topk M=320 N=128 k=6 (the module's shape)", "examples/topk/example_topk.py", "tl_topk",
             lambda: [_distinct_rows(320, 128)], lambda x: topk_ref(x, 6), lambda kern, x: kern(*x, 6, 64),
             atol=0, rtol=0),
        Case("convolution N=1 H=W=8 C=32 F=32 K=3", "examples/convolution/example_convolution.py", "convolution",
             lambda: [_f((1, 8, 8, 32), F16), _f((3, 3, 32, 32), F16)], conv_ref,
             lambda kern, x: kern(*x, 1, 1, 1, 64, 32, 32, 1, 128), atol=2e-2, rtol=2e-2),
        Case("convolution N=2 H=7 W=9 C=32 F=64 K=3 stride 2 (ragged)", "examples/convolution/example_convolution.py",
             "convolution", lambda: [_f((2, 7, 9, 32), F16), _f((3, 3, 32, 64), F16)],
             lambda a, b: conv_ref(a, b, 2, 1), lambda kern, x: kern(*x, 2, 1, 1, 32, 32, 64, 1, 128),
             atol=2e-2, rtol=2e-2),
    ]


def _testing_cases() -> list[Case]:
    """Kernels of TileLang's testing/python (prim_func factories compiled by the tests with out_idx)."""
    cases = []
    for op, fn in (("sum", np.sum), ("max", np.max)):
        for dim in (0, 1):
            cases.append(Case(
                f"cpu reduce_{op} dim={dim} 64x64 (loops over DRAM)", "testing/python/cpu/test_tilelang_cpu_reduce.py",
                "_make_kernel_2d", lambda dim=dim: [_f((64, 64)), _f((64,))],
                lambda a, init, fn=fn, dim=dim: fn(a, axis=dim),
                lambda kern, x, op=op, dim=dim: kern(op, 64, 64, dim, "float32", True)(*x), atol=1e-4, rtol=1e-4,
                out_idx=[2]))
    cases.append(Case(
        "cpu gemm 64x64x64 (multiply-add loops)", "testing/python/cpu/test_tilelang_cpu_gemm.py", "matmul",
        lambda: [_f((64, 64), F16), _f((64, 64), F16)], lambda a, b: a.astype(F32) @ b.astype(F32),
        lambda kern, x: kern(64, 64, 64, 32, 32, 32)(*x), atol=2e-2, out_idx=[2]))
    for dim in (0, 1):
        for reverse in (False, True):
            cases.append(Case(
                f"cumsum dim={dim} reverse={reverse} 64x64", "testing/python/language/test_tilelang_language_scan.py",
                "cumsum_smem_test", lambda: [_f((64, 64))],
                lambda a, dim=dim, reverse=reverse: _cumsum(a, 32, dim, reverse),
                lambda kern, x, dim=dim, reverse=reverse: kern(64, 64, 32, 32, dim, reverse)(*x), atol=1e-4,
                rtol=1e-4, out_idx=[1]))
    return cases


def _cumsum(a: np.ndarray, block: int, dim: int, reverse: bool) -> np.ndarray:
    """Cumulative sums within each block x block tile (TileLang's block-local T.cumsum)."""
    out = np.empty_like(a)
    for r in range(0, a.shape[0], block):
        for c in range(0, a.shape[1], block):
            t = a[r:r + block, c:c + block]
            t = np.flip(t, dim) if reverse else t
            s = np.cumsum(t, axis=dim)
            out[r:r + block, c:c + block] = np.flip(s, dim) if reverse else s
    return out


CASES: list[Case] = [*_misc_cases(), *_gemm_cases(), *_norm_cases(), *_attention_cases(), *_testing_cases()]
