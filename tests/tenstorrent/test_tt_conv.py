"""T.im2col on Tenstorrent: TileLang's examples/convolution as upstream writes it (tests/tt_conv_kernels.py) in the
emulator against numpy. The NHWC input is laid out row-major (one DRAM page per pixel); the reader reads each row of
the im2col tile (an output pixel) as runs of min(C, block_K) channels of one input pixel, part of a page at the
channel's byte offset, and copies zeros from the constant tile `im2col_zeros` where a run falls in the padding, past
the last pixel or past the filter; the compute kernel tilizes the rows and the gemm runs as usual (accumulating
through a partial-sum CB: the tilize needs DST between the K steps)."""

import ml_dtypes
import numpy as np
import pytest
from tt_conv_kernels import conv_prim_func, conv_reference, convolution, im2col_matrix, im2col_reference

import tilelang
import tilelang.language as T
from tilelang.errors import TileLangError, TTLoweringError

RNG = np.random.default_rng(28)


def uniform(*shape: int) -> np.ndarray:
    return RNG.uniform(-1.0, 1.0, shape).astype("float16")


def _id(s: tuple[int, ...]) -> str:
    return "N{}_H{}_W{}_C{}_F{}_K{}_S{}_D{}_P{}_bm{}_bn{}_bk{}".format(*s)


# (N, H, W, C, F, K, S, D, P, block_M, block_N, block_K). The example's filter and output are T.Tensor views
# ((K * K * C, F) and (N * OH * OW, F)) of the 4-D tensors, which the kernel accesses only through them, so each is
# laid out as that 2-D matrix (loop_views.cc): upstream's 8x8 image (OW = 8, one 64-row block of output pixels); a
# ragged 2x7x9 image with stride 2 (N * OH * OW = 40 rows in blocks of 32; block_K = 2 * C, so a 64-row filter block
# crosses a KW row and the last one hangs 32 rows past the 288-row filter); dilation 2 with C = 2 * block_K (runs at
# a byte offset).
SHAPES = [
    (1, 8, 8, 32, 32, 3, 1, 1, 1, 64, 32, 32),
    (2, 7, 9, 32, 64, 3, 2, 1, 1, 32, 32, 64),
    (1, 3, 32, 64, 32, 3, 1, 2, 2, 32, 32, 32),
]


@pytest.mark.parametrize("shape", SHAPES, ids=_id)
def test_upstream_convolution_matches_numpy_on_tenstorrent(shape: tuple[int, ...]) -> None:
    n, h, w, c, f, k, s, d, p, bm, bn, bk = shape
    data, weight = uniform(n, h, w, c), uniform(k, k, c, f)
    kern = tilelang.jit(target="tenstorrent")(convolution)
    out = kern(data, weight, s, d, p, bm, bn, bk, 1, 128)
    np.testing.assert_allclose(out.astype("float32"), conv_reference(data, weight, s, p, d), rtol=2e-2, atol=2e-2)


# (N, H, W, C, K, S, D, P, block_M, block_K): a ragged image (N * OH * OW = 2 * 4 * 5 = 40 rows) with stride 2 and
# block_K = 2 * C (two filter taps per row; K * K * C = 288 columns, the last 32 past the filter); the upstream
# case's 8x8 image.
# C = 16: the NHWC tensor's pixel pages are padded to 32 channels in DRAM (a row-major last dim is padded to whole
# tiles); the runs read the 16 channels at their offsets within a page
IM2COL_SHAPES = [(2, 7, 9, 32, 3, 2, 1, 1, 32, 64), (1, 8, 8, 32, 3, 1, 1, 1, 64, 32),
                 (1, 8, 8, 16, 3, 1, 1, 1, 64, 32)]


@pytest.mark.parametrize("shape", IM2COL_SHAPES, ids=lambda s: "N{}_H{}_W{}_C{}_K{}_S{}_D{}_P{}_bm{}_bk{}".format(*s))
def test_im2col_tiles_are_bit_exact(shape: tuple[int, ...]) -> None:
    """Every tile of the im2col matrix, zeros included, moves without rounding (bf16 through tilize; the emulator's
    unpacker takes fp16 at bf16's precision)."""
    n, h, w, c, k, s, d, p, bm, bk = shape
    func = im2col_matrix(*shape, dtype="bfloat16")
    rows, cols = (int(x) for x in func.params[1].ty.shape)
    data = uniform(n, h, w, c).astype(ml_dtypes.bfloat16)
    got = tilelang.compile(func, out_idx=[1], target="tenstorrent")(data)
    assert np.array_equal(got.view(np.uint16), im2col_reference(data, k, s, p, d, rows, cols).view(np.uint16))


def test_im2col_runs_at_blackholes_dram_alignment_are_bit_exact_on_p150() -> None:
    """On p150 (Blackhole: NoC DRAM reads aligned to 64 bytes) runs of 32 bf16 channels (64 bytes) run in the
    emulator, whose sanitizer checks the device's alignment."""
    shape = (1, 8, 8, 32, 3, 1, 1, 1, 64, 32)
    n, h, w, c, k, s, d, p, bm, bk = shape
    func = im2col_matrix(*shape, dtype="bfloat16")
    rows, cols = (int(x) for x in func.params[1].ty.shape)
    data = uniform(n, h, w, c).astype(ml_dtypes.bfloat16)
    got = tilelang.compile(func, out_idx=[1], target="tenstorrent:p150")(data)
    assert np.array_equal(got.view(np.uint16), im2col_reference(data, k, s, p, d, rows, cols).view(np.uint16))


# Runs shorter than the device's NoC DRAM read alignment (its record's noc_alignment.dram_read) would be stopped by
# tt-metal's watcher (DebugSanitizeNocAlignment) and the emulator's sanitizer at run time: refused when compiling.
# C = 8 in bf16 (16-byte runs) on n150 (Wormhole: 32 B); C = 16 (32-byte runs, which n150 runs) on p150 (64 B).
@pytest.mark.parametrize(("target", "c", "run_bytes", "device", "align"), [
    ("tenstorrent", 8, 16, "n150", 32), ("tenstorrent:p150", 16, 32, "p150", 64)])
def test_im2col_runs_that_break_the_noc_alignment_are_refused(target: str, c: int, run_bytes: int, device: str,
                                                             align: int) -> None:
    with pytest.raises(TTLoweringError, match=(
            rf"T.im2col\(data, tile\): tensor 'data' \(bfloat16\) is read in runs of {run_bytes} bytes, and a NoC "
            rf"read from DRAM on device {device} keeps the L1 and DRAM addresses equal modulo {align} bytes "
            rf"\(noc_alignment.dram_read of its device record\), so every run must be a multiple of {align} bytes; "
            rf"make min\(C, block_K\) \(here {c}\) a multiple of {align // 2} channels")):
        tilelang.lower(im2col_matrix(1, 8, 8, c, 3, 1, 1, 1, 64, 32, dtype="bfloat16"), target=target)


def test_im2col_reader_reads_pixel_runs_and_zeros_from_the_constant_tile() -> None:
    """The reader kernel: part-page reads of the input at the channel offset, zeros from im2col_zeros otherwise; the
    compute kernel tilizes the rows before the gemm."""
    files = tilelang.lower(conv_prim_func(*SHAPES[2]), target="tenstorrent").rt_mod.files
    reader, compute = files["reader.cpp"], files["compute.cpp"]
    assert reader.count("noc_async_read(") == 2 and ".get_noc_addr(" in reader
    assert "tilize_block(" in compute and "matmul_tiles(" in compute


@pytest.mark.parametrize(("shape", "message"), [
    ((1, 8, 8, 64, 3, 1, 1, 1, 64, 96),
     r"T.im2col\(data, tile\): C = 64 and block_K = 96 do not divide one another"),
])
def test_im2col_limits_are_named(shape: tuple[int, ...], message: str) -> None:
    with pytest.raises(TileLangError, match=message):
        tilelang.lower(im2col_matrix(*shape), target="tenstorrent")


def test_tensors_used_only_through_views_are_their_matrices() -> None:
    """The ragged case's filter (3, 3, 32, 64) and output (2, 4, 5, 64) are laid out as their views' matrices, padded
    as 2-D tensors to whole blocks (the filter's 288 rows to 320 for its 64-row blocks, the output's 40 to 64): the
    host moves the same C-order bytes."""
    plan = tilelang.lower(conv_prim_func(*SHAPES[1]), target="tenstorrent").rt_mod.plan
    tensors = {t["name"]: t for t in plan["tensors"]}
    assert (tensors["kernel"]["shape"], tensors["kernel"]["padded_shape"]) == ([288, 64], [320, 64])
    assert (tensors["out"]["shape"], tensors["out"]["padded_shape"]) == ([40, 64], [64, 64])
    assert tensors["data"]["shape"] == [2, 7, 9, 32]


def test_a_view_block_of_a_tensor_also_accessed_directly_must_be_a_block_of_its_tiles() -> None:
    """A tensor read through a view and directly keeps its own tiling, where a 64-row block of its (288, 64) view
    crosses a KW row of (3, 3, 32, 64)."""

    @T.prim_func
    def main(kernel: T.Tensor((3, 3, 32, 64), "float16"), out: T.Tensor((64, 64), "float16")):
        with T.Kernel(1, 4, threads=128) as (bx, by):
            block = T.alloc_shared((64, 64), "float16")
            tap = T.alloc_shared((32, 64), "float16")
            flat = T.Tensor((288, 64), "float16", kernel.data)
            T.copy(flat[by * 64, 0], block)
            T.copy(kernel[0, 0, 0:32, 0:64], tap)
            T.copy(block, out[0:64, 0:64])
            T.copy(tap, out[0:32, 0:64])

    with pytest.raises(TileLangError, match=r"a block of view 'flat' of tensor 'kernel' is not a block of the "
                                            r"tensor's tiles: 64 rows do not split into whole blocks of dim 1 \(3\) "
                                            r"\(the tensor is also accessed other than through views of one shape"):
        tilelang.lower(main, target="tenstorrent")
