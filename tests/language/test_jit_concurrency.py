"""The jit caches compile each key once when several threads ask for it at the same time (a factory, a lazily
compiled prim_func, an eager function), and every caller gets the same kernel."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import tilelang
import tilelang.language as T
from tilelang.jit import kernel as jit_kernel
from tilelang.jit.once import OnceCache


def add_kernel(M: int, N: int) -> Any:
    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, N), "float32"), C: T.Tensor((M, N), "float32")):
        with T.Kernel(1, threads=128) as bx:
            for i, j in T.Parallel(M, N):
                C[i, j] = A[i, j] + B[i, j] + bx
    return main


def together(count: int, call: Callable[[], Any]) -> list[Any]:
    """`call()` from `count` threads released at once; their results (or the first exception)."""
    barrier = threading.Barrier(count)
    results: list[Any] = [None] * count

    def run(i: int) -> None:
        barrier.wait()
        results[i] = call()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


@pytest.fixture
def lowerings(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the lowerings the jit starts."""
    count: list[int] = []
    real = jit_kernel._lower

    def counted(*args: Any, **kwargs: Any) -> Any:
        count.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(jit_kernel, "_lower", counted)
    return count


def test_a_factory_compiles_once_for_concurrent_callers(lowerings: list[int]) -> None:
    factory = tilelang.jit(out_idx=[-1], target="llvm")(add_kernel)
    kernels = together(4, lambda: factory(32, 16))
    assert len(lowerings) == 1 and all(k is kernels[0] for k in kernels)
    a = np.ones((32, 16), np.float32)
    assert np.array_equal(kernels[0](a, a), a + a)


def test_a_lazy_prim_func_compiles_once_for_concurrent_first_calls(lowerings: list[int]) -> None:
    lazy = tilelang.jit(out_idx=[-1], target="llvm")(add_kernel(16, 16))
    a = np.full((16, 16), 2.0, np.float32)
    outputs = together(4, lambda: lazy(a, a))
    assert len(lowerings) == 1
    assert all(np.array_equal(o, a + a) for o in outputs)


def test_a_failed_build_is_not_cached() -> None:
    cache: OnceCache[int] = OnceCache()
    calls: list[int] = []

    def failing() -> int:
        calls.append(1)
        raise ValueError("no")

    for _ in range(2):
        with pytest.raises(ValueError):
            cache.get("k", failing)
    assert len(calls) == 2 and "k" not in cache
    assert cache.get("k", lambda: 7) == 7 and cache.get("k", lambda: 8) == 7
