"""T.Persistent (TileLang's persistent tile loop), `driver.get_num_sms()` off a GPU, and `T.dynamic` in a classic
`@tilelang.jit` kernel factory (issue 28: examples/gemm/example_gemm_persistent.py and the sparse GQA decodes of
examples/blocksparse_attention), each against numpy."""

from __future__ import annotations

import os
import shutil

import numpy as np
import pytest

import tilelang
import tilelang.language as T
from tilelang.carver.arch import driver
from tilelang.engine.compile_target import building_for
from tilelang.errors import TileLangError

RNG = np.random.default_rng(2029)
needs_cxx = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")


def persistent_gemm(M, N, K, block, waves, group):  # noqa: N803
    @T.prim_func
    def main(A: T.Tensor((M, K), "float32"), B: T.Tensor((K, N), "float32"), C: T.Tensor((M, N), "float32")):  # noqa: N803
        with T.Kernel(waves) as block_id:
            a = T.alloc_shared((block, block), "float32")
            b = T.alloc_shared((block, block), "float32")
            c = T.alloc_fragment((block, block), "float32")
            for bx, by in T.Persistent([T.ceildiv(M, block), T.ceildiv(N, block)], waves, block_id, group):
                T.clear(c)
                for k in T.Pipelined(T.ceildiv(K, block), num_stages=2):
                    T.copy(A[bx * block, k * block], a)
                    T.copy(B[k * block, by * block], b)
                    T.gemm(a, b, c)
                T.copy(c, C[bx * block, by * block])

    return main


def owners(domain, waves, group):  # noqa: ANN001, ANN201
    """Which block T.Persistent gives each tile, in TileLang's grouped order (upstream ir.cc, PersistentFor): the tile
    number decomposes, outermost first, as (group, domain[0], ..., domain[-2], position in the group)."""
    *outer, last = domain
    group = max(1, min(group, last))
    grouped = [-(-last // group), *outer, group]
    owner = np.full(domain, -1)
    for tile in range(int(np.prod(grouped))):
        g, *rest, pos = np.unravel_index(tile, grouped)
        if g * group + pos < last:
            coord = (*rest, g * group + pos)
            assert owner[coord] == -1
            owner[coord] = tile % waves
    return owner


@pytest.mark.parametrize(("domain", "waves", "group"), [((7,), 3, 8), ((5, 7), 3, 3), ((2, 3, 5), 4, 2)])
def test_persistent_visits_each_tile_once_in_grouped_order(domain, waves, group):
    @T.prim_func
    def main(Count: T.Tensor(domain, "int32"), Owner: T.Tensor(domain, "int32")):  # noqa: N803
        with T.Kernel(waves) as block_id:
            for tile in T.Persistent(list(domain), waves, block_id, group):
                coord = tile if len(domain) > 1 else [tile]
                Count[tuple(coord)] = Count[tuple(coord)] + 1
                Owner[tuple(coord)] = block_id

    count, owner = tilelang.compile(main, out_idx=[0, 1], target="llvm")()
    np.testing.assert_array_equal(count, np.ones(domain, "int32"))
    np.testing.assert_array_equal(owner, owners(domain, waves, group))


@pytest.mark.parametrize("target", ["llvm", pytest.param("tenstorrent", marks=needs_cxx)])
def test_persistent_gemm_matches_numpy(target):
    a = RNG.standard_normal((96, 64)).astype("float32")
    b = RNG.standard_normal((64, 160)).astype("float32")
    c = tilelang.compile(persistent_gemm(96, 160, 64, 32, 3, 2), out_idx=[2], target=target)(a, b)
    np.testing.assert_allclose(c, a @ b, rtol=1e-4, atol=1e-4)


def test_persistent_refuses_a_non_positive_wave_size():
    with pytest.raises(TileLangError, match="T.Persistent: wave_size must be positive, got 0"):
        persistent_gemm(64, 64, 32, 32, 0, 8)


def test_get_num_sms_answers_for_the_target_being_built_for():
    with building_for("tenstorrent"):
        assert driver.get_num_sms() == 64  # Wormhole n150's 8x8 worker grid
    with building_for("tenstorrent:p150"):
        assert driver.get_num_sms() == 130  # Blackhole p150's 13x10
    with building_for("llvm"):
        assert driver.get_num_sms() == (os.cpu_count() or 1)
    assert driver.get_num_sms() == (os.cpu_count() or 1)  # outside a build: "auto", llvm here


@tilelang.jit(out_idx=[-1])
def split_sums(batch, block):
    """A factory whose split count is T.dynamic, bound by the caller's `partial` shape; two launches."""
    splits = T.dynamic("splits")

    @T.prim_func
    def main(X: T.Tensor((batch, splits, block), "float32"), Partial: T.Tensor((batch, splits), "float32"),  # noqa: N803
             Out: T.Tensor((batch,), "float32")):  # noqa: N803
        with T.Kernel(batch, splits) as (bx, sid):
            acc = T.alloc_var("float32")
            acc = 0.0
            for i in T.serial(block):
                acc = acc + X[bx, sid, i]
            Partial[bx, sid] = acc
        with T.Kernel(batch) as bx:
            total = T.alloc_var("float32")
            total = 0.0
            for s in T.serial(splits):
                total = total + Partial[bx, s]
            Out[bx] = total

    return main


def test_factory_dynamic_is_bound_by_each_call():
    kernel = split_sums(2, 8)
    for splits in (3, 5):
        x = RNG.standard_normal((2, splits, 8)).astype("float32")
        partial = np.zeros((2, splits), "float32")
        np.testing.assert_allclose(kernel(x, partial), x.sum(axis=(1, 2)), rtol=1e-5)
        np.testing.assert_allclose(partial, x.sum(axis=2), rtol=1e-5)
    assert len(kernel.cache) == 2
    with pytest.raises(TileLangError, match="'splits' is 3 from an earlier tensor but 'Partial' has shape"):
        kernel(np.zeros((2, 3, 8), "float32"), np.zeros((2, 4), "float32"))


def test_factory_dynamic_only_in_an_output_is_refused_by_name():
    @tilelang.jit(out_idx=[-1])
    def widen(n):
        width = T.dynamic("width")

        @T.prim_func
        def main(X: T.Tensor((n,), "float32"), Y: T.Tensor((n, width), "float32")):  # noqa: N803
            with T.Kernel(1):
                for i, j in T.Parallel(n, width):
                    Y[i, j] = X[i]

        return main

    with pytest.raises(TileLangError, match="T.dynamic 'width' is not a dimension of any tensor the call passes"):
        widen(4)(np.zeros(4, "float32"))


@needs_cxx
def test_factory_dynamic_on_tenstorrent_is_specialised_per_shape():
    @tilelang.jit(out_idx=[-1], target="tenstorrent")
    def double(block):
        rows = T.dynamic("rows")

        @T.prim_func
        def main(A: T.Tensor((rows, block), "float32"), B: T.Tensor((rows, block), "float32")):  # noqa: N803
            with T.Kernel(T.ceildiv(rows, block)) as bx:
                tile = T.alloc_shared((block, block), "float32")
                T.copy(A[bx * block, 0], tile)
                T.copy(tile, B[bx * block, 0])

        return main

    kernel = double(32)
    for rows in (64, 96):
        a = RNG.standard_normal((rows, 32)).astype("float32")
        np.testing.assert_array_equal(kernel(a), a)
    assert len(kernel.cache) == 2
