"""tilelang.layout, tilelang.carver and tilelang.contrib as TileLang's examples import them (issue 28): T.Layout's
index arithmetic, layout annotations on llvm (a swizzle on a shared tile, a T.Layout on a global tensor: results of
the logical order), and the names that need a GPU or the carver's roller refused by name."""

import shutil
from pathlib import Path

import numpy as np
import pytest

import tilelang
import tilelang.language as T
from tilelang.carver.arch import CDNA
from tilelang.carver.roller.rasterization import NoRasterization, Rasterization2DRow
from tilelang.carver.template import MatmulTemplate
from tilelang.contrib import nvcc
from tilelang.errors import TileLangError
from tilelang.layout import Layout, make_gemm_fragment_8x8_transposed, make_linear_layout, make_swizzled_layout


def dq_layout(shape):
    """example_mha_bwd_bhsd.py's make_dq_layout: dQ reordered to match an 8x8 gemm fragment."""
    return T.Layout(shape, lambda b, h, s, d: [b, h, s // 8, d // 8, (d % 2), 4 * (s % 8) + (d % 8) // 2])


def test_a_layout_maps_indices_and_knows_its_output_shape() -> None:
    layout = dq_layout((1, 2, 200, 64))
    assert isinstance(layout, Layout)
    assert layout.get_output_shape() == [1, 2, 25, 8, 2, 32]
    assert [int(i) for i in layout.map_forward_index([0, 1, 9, 5])] == [0, 1, 1, 0, 1, 6]
    tiled = layout.repeat(0, 3)
    assert tiled.get_input_shape() == [3, 2, 200, 64] and tiled.get_output_shape() == [3, 1, 2, 25, 8, 2, 32]
    assert [int(i) for i in tiled(2, 1, 9, 5)] == [2, 0, 1, 1, 0, 1, 6]
    assert layout.is_equal(dq_layout((1, 2, 200, 64))) and not layout.is_equal(
        T.Layout((1, 2, 200, 64), lambda b, h, s, d: [b, h, s, d]))


@pytest.mark.skipif(shutil.which("g++") is None and shutil.which("clang") is None, reason="no C compiler")
def test_annotated_layouts_keep_the_logical_order_on_llvm() -> None:
    @T.prim_func
    def main(dQ: T.Tensor((1, 2, 64, 32), "float32"), out: T.Tensor((1, 2, 64, 32), "float16")):
        with T.Kernel(2, 2) as (bx, by):
            s = T.alloc_shared((32, 32), "float32")
            T.annotate_layout({dQ: dq_layout(dQ.shape), s: make_swizzled_layout(s)})
            T.copy(dQ[0, by, bx * 32:(bx + 1) * 32, :], s)
            T.copy(s, out[0, by, bx * 32:(bx + 1) * 32, :])

    dq = np.random.default_rng(28).standard_normal((1, 2, 64, 32)).astype("float32")
    kernel = tilelang.compile(main, out_idx=[-1], target="llvm")
    np.testing.assert_allclose(kernel(dq), dq.astype("float16"), rtol=0, atol=0)


def test_swizzles_store_the_tile_unswizzled_and_fragments_are_refused_by_name() -> None:
    buf = T.Tensor((64, 32), "float16")
    swizzled = make_swizzled_layout(buf)
    assert swizzled.get_input_shape() == [64, 32] and swizzled.is_equal(make_linear_layout(buf))
    with pytest.raises(TileLangError, match="make_gemm_fragment_8x8_transposed is not supported"):
        make_gemm_fragment_8x8_transposed()
    with pytest.raises(TileLangError, match="T.Fragment is not supported"):
        T.Fragment((16, 16), forward_thread_fn=lambda i, j: i)


def test_nvcc_version_is_read_from_the_toolkit(tmp_path: Path) -> None:
    (tmp_path / "bin").mkdir()
    fake = tmp_path / "bin" / "nvcc"
    fake.write_text("#!/bin/sh\necho 'Cuda compilation tools, release 12.8, V12.8.93'\n")
    fake.chmod(0o755)
    assert nvcc.get_cuda_version(str(tmp_path)) == (12, 8)
    fake.write_text("#!/bin/sh\necho 'no version here'\n")
    with pytest.raises(TileLangError, match="no 'release X.Y'"):
        nvcc.get_cuda_version(str(tmp_path))


def test_the_carver_template_is_real_and_its_roller_refused_by_name() -> None:
    template = MatmulTemplate(M=64, N=96, K=32, in_dtype="float16", out_dtype="float16", accum_dtype="float32")
    func = template.equivalent_function()
    assert [tuple(int(d) for d in p.ty.shape) for p in func.params] == [(64, 32), (96, 32), (64, 96)]
    with pytest.raises(TileLangError, match="MatmulTemplate.recommend_hints"):
        template.recommend_hints(topk=4)
    with pytest.raises(TileLangError, match="tilelang.carver.arch.CDNA"):
        CDNA("hip")
    assert repr(NoRasterization()) == "NoRasterization()" and Rasterization2DRow(10).order == "row"
