"""The (batch, seq, heads, dim) layout on Tenstorrent (issue 16): tensors a block slices per head are row-major.

A block `X[b, s0:s0 + block_M, h, :]` is block_M rows of dim elements, heads * dim elements apart: not a set of tiles
of the tensor's last two dims (heads, dim). InferTTLayout lays such a tensor out row-major (ttnn's ROW_MAJOR
interleaved layout: one DRAM page per row of the last dim), the host uploads and reads it as it is, the reader reads a
block's rows (one page each) into a CB in tilize_block's input format, the compute kernel tilizes it (tilize_init /
tilize_block / tilize_uninit) into the CB the rest of the kernel reads, and a block written out is untilized on chip
(pack_untilize_init / pack_untilize_block / pack_untilize_uninit) and written by rows.

Tolerances (bf16 inputs, fp32 accumulation): the copy-and-exp kernel |got - exp(x)| <= 2^-8 * max|exp(x)| (one bf16
rounding of the result; the tilize and untilize move values unchanged); flash attention 2^-7 of the largest magnitude
of the fp32 reference, as tests/tenstorrent/test_tt_flash_attention.py (P rounded to bf16 before P @ V, the output to
bf16).

The emulator's sanitizer rules for the conversion are seeded into the compute kernel of a compiled kernel: an
operation while the unpacker is still in tilize mode, tilize_block inside a DST section, tile math on a CB of
row-major rows, a second init before the uninit, and (in flash attention) a tilize after fp32 math without the
unpacker's reconfig to the rows' format."""

from __future__ import annotations

import dataclasses
import re
import shutil
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from tt_attention_kernels import bshd_copy, bshd_exp, flashattn_bshd

import tilelang
import tilelang.language as T
from tilelang.errors import TileLangError, TTLoweringError
from tilelang.tenstorrent.records import COUNTERS

BF16 = ml_dtypes.bfloat16
pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")


def bshd_block(dim: int, cols: slice, onchip: tuple[int, int], dtype: str = "bfloat16") -> Any:
    """A copy of rows of one head of a (1, 64, 2, dim) tensor, `cols` of its last dim."""

    @T.prim_func
    def main(Q: T.Tensor((1, 64, 2, dim), dtype), Out: T.Tensor((1, 64, 2, dim), dtype)):
        with T.Kernel(2, 1, threads=128) as (bx, by):
            Q_shared = T.alloc_shared(onchip, dtype)
            T.copy(Q[0, bx * 32:(bx + 1) * 32, 1, cols], Q_shared)
            T.copy(Q_shared, Out[0, bx * 32:(bx + 1) * 32, 1, cols])
    return main


def uniform(shape: tuple[int, ...], seed: int) -> np.ndarray:
    return np.random.default_rng(seed).uniform(-1, 1, shape).astype(BF16)


@pytest.mark.parametrize("block_M", [32, 64])
def test_a_bshd_elementwise_kernel_matches_numpy(block_M: int) -> None:
    b, s, h, d = 2, 128, 3, 64
    kernel = tilelang.compile(bshd_exp(b, s, h, d, block_M), out_idx=[-1], target="tenstorrent")
    q = uniform((b, s, h, d), block_M)
    got = kernel(q).astype(np.float32)
    want = np.exp(q.astype(np.float32))
    assert float(np.abs(got - want).max()) <= 2.0**-8 * float(np.abs(want).max())
    plan = kernel.artifact.rt_mod.plan
    layouts = {t["name"]: (t["page_layout"], t["page_bytes"], t["pages"]) for t in plan["tensors"]}
    assert layouts == {"Q": ("row_major", d * 2, b * s * h), "Out": ("row_major", d * 2, b * s * h)}
    # Q's rows come in one CB, are tilized into Q_shared's, and O_local is untilized into the writer's CB.
    flows = {cb["buffer"]: (cb["producer"], cb["consumer"]) for cb in plan["cbs"]}
    assert flows["Q_shared_rm"] == ("reader", "compute") and flows["Q_shared"] == ("compute", "compute")
    assert flows["O_local_rm"] == ("compute", "writer")
    report = kernel.last_report["total"]
    assert report[COUNTERS.DRAM_BYTES_READ] == q.nbytes and report[COUNTERS.DRAM_BYTES_WRITTEN] == q.nbytes


def test_a_bshd_copy_through_an_on_chip_block_is_bit_exact() -> None:
    """Rows in, tilized, untilized, rows out (bf16 through DST: no rounding), 4 tiles wide, blocks of 64 rows."""
    kernel = tilelang.compile(bshd_copy(2, 64, 2, 128, 64), out_idx=[-1], target="tenstorrent")
    q = uniform((2, 64, 2, 128), 9)
    assert np.array_equal(kernel(q).view(np.uint16), q.view(np.uint16))


def test_the_reader_reads_rows_and_the_compute_kernel_tilizes_them() -> None:
    files = tilelang.lower(bshd_exp(1, 64, 2, 64, 32), target="tenstorrent").rt_mod.files
    reader, compute, writer = files["reader.cpp"], files["compute.cpp"], files["writer.cpp"]
    # One page per row (noc_async_read_page, or the 2025 API's noc_async_read_tile), rows 2 pages (heads) apart.
    assert re.search(r"for \(int32_t r = 0; r < 32; \+\+r\) \{\n\s+noc_async_read_(page|tile)\(.* r \* 2 .*r \* 128",
                     reader)
    assert re.search(r"noc_async_write_(page|tile)\(.* r \* 2 .*r \* 128", writer)
    calls = re.findall(r"^\s+(\w+(?:<[^>]*>)?)\(", compute, flags=re.M)
    tilize = calls.index("tilize_init")
    assert calls[tilize:tilize + 7] == ["tilize_init", "cb_wait_front", "cb_reserve_back", "tilize_block",
                                        "cb_push_back", "cb_pop_front", "tilize_uninit"]
    untilize = calls.index("pack_untilize_init<2, 2>")
    assert calls[untilize:untilize + 7] == ["pack_untilize_init<2, 2>", "cb_wait_front", "cb_reserve_back",
                                            "pack_untilize_block<2, 2>", "cb_push_back", "cb_pop_front",
                                            "pack_untilize_uninit"]
    assert "tilize_nfaces" not in files["main.cpp"].split("Inputs:")[1].split("Outputs:")[0]


@pytest.mark.parametrize("block", [32, 64])
def test_bshd_flash_attention_forward_matches_numpy(block: int) -> None:
    b, h, s, d = 2, 2, 128, 64
    rng = np.random.default_rng(block)
    q, k, v = (rng.standard_normal((b, s, h, d)).astype(np.float16) for _ in range(3))
    kernel = tilelang.compile(flashattn_bshd(b, h, s, d, False, block, block), out_idx=[3], target="tenstorrent")
    got = kernel(q, k, v).astype(np.float32)
    qf, kf, vf = (x.astype(np.float32) for x in (q, k, v))
    scores = np.einsum("bqhd,bkhd->bhqk", qf, kf) / np.sqrt(d)
    e = np.exp(scores - scores.max(-1, keepdims=True))
    want = np.einsum("bhqk,bkhd->bqhd", e / e.sum(-1, keepdims=True), vf)
    assert got.shape == (b, s, h, d)
    assert float(np.abs(got - want).max()) <= 2.0**-7 * float(np.abs(want).max())
    assert kernel.last_report["status"] == "ok"
    layouts = {t["name"]: t["page_layout"] for t in kernel.artifact.rt_mod.plan["tensors"]}
    assert layouts == {**dict.fromkeys(["Q", "K", "V", "Output"], "row_major"), "reduce_scaler": "tile"}


def test_a_block_of_part_of_the_rows_off_the_noc_alignment_is_refused_naming_the_layout() -> None:
    """A part of the last dim is a run of each page (test_tt_column_index.py); one starting at element 8 of bf16
    rows (byte 16) breaks Wormhole's 32-byte DRAM read alignment."""
    with pytest.raises(TileLangError, match=r"tensor 'Q' \(shape \[1, 64, 2, 64\], laid out row-major: one DRAM page "
                                            r"per row of its last dim\).*is read from element 8 of each row \(byte "
                                            r"16\), not provably a multiple of 32 bytes.*noc_alignment.dram_read"):
        tilelang.lower(bshd_block(64, slice(8, 40), (32, 32)), target="tenstorrent")


def test_a_row_major_block_wider_than_dst_is_refused_naming_the_layout() -> None:
    with pytest.raises(TileLangError, match=r"tensor 'Out' \(shape \[1, 64, 2, 256\], laid out row-major.*8 tiles "
                                            r"wide; pack_untilize .* at most 4 tiles"):
        tilelang.lower(bshd_block(256, slice(None), (32, 256)), target="tenstorrent")


def test_row_major_rows_shorter_than_the_noc_alignment_are_refused_naming_the_device() -> None:
    """A uint8 row of 32 elements is one 32-byte page: n150's NoC reads DRAM at 32-byte alignment, p150's at 64 (its
    device record's noc_alignment.dram_read), so on p150 the rows would land misaligned in L1."""
    tilelang.lower(bshd_block(32, slice(None), (32, 32), "uint8"), target="tenstorrent")
    with pytest.raises(TTLoweringError, match=r"tensor 'Q' \(uint8\) is read in runs of 32 bytes, and a NoC read "
                                              r"from DRAM on device p150 keeps the L1 and DRAM addresses equal modulo "
                                              r"64 bytes \(noc_alignment.dram_read of its device record\)"):
        tilelang.lower(bshd_block(32, slice(None), (32, 32), "uint8"), target="tenstorrent:p150")


# ------------------------------------------------------------------------------------------- sanitizer


@pytest.fixture(scope="module")
def emulator() -> Any:
    from tilelang.tenstorrent import emulator as emu

    emu.library()
    return emu


def seeded(emulator: Any, tmp_path: Path, edit: Any) -> str:
    """The emulator's error for the copy-and-exp kernel (its 4 blocks on one core) with its compute kernel edited."""
    rt_mod = tilelang.compile(bshd_exp(1, 64, 2, 64, 32), target="tenstorrent",
                              pass_configs={"tl.PartitionTTWork.core_grid": [1, 1]}).artifact.rt_mod
    prog = dataclasses.replace(rt_mod, files=dict(rt_mod.files))
    before = prog.files["compute.cpp"]
    prog.files["compute.cpp"] = edit(before)
    assert prog.files["compute.cpp"] != before, "the seed did not change compute.cpp"
    arrays = [uniform((1, 64, 2, 64), 1), np.zeros((1, 64, 2, 64), BF16)]
    with pytest.raises(emulator.TTEmulatorError) as caught:
        prog.run(arrays, workdir=tmp_path)
    return str(caught.value)


def test_an_operation_before_tilize_uninit_is_an_error(emulator: Any, tmp_path: Path) -> None:
    error = seeded(emulator, tmp_path, lambda text: re.sub(r"^\s+tilize_uninit\(.*\);\n", "", text, flags=re.M))
    assert re.search(r"while the unpacker is set up for tilize \(tilize_init\) of CBs 0 -> 24: call tilize_uninit",
                     error), error


def test_tilize_block_inside_a_dst_section_is_an_error(emulator: Any, tmp_path: Path) -> None:
    error = seeded(emulator, tmp_path, lambda text: text.replace("tilize_block(0, 2, 24);",
                                                                 "tile_regs_acquire(); tilize_block(0, 2, 24);", 1))
    assert "tilize_block inside a DST section" in error, error


def test_tile_math_on_row_major_rows_is_an_error(emulator: Any, tmp_path: Path) -> None:
    """The rows CB copied straight into DST as if it held tiles (the tilize skipped)."""

    def edit(text: str) -> str:
        copy_init = re.search(r"\b(copy_init|copy_tile_init)\(", text).group(1)  # the profile's spelling
        text = re.sub(r"^\s+tilize_(init|uninit)\(.*\);\n", "", text, flags=re.M)
        text = text.replace("tilize_block(0, 2, 24);", f"tile_regs_acquire(); {copy_init}(0); copy_tile(0, 0, 0); "
                            "tile_regs_commit(); tile_regs_wait(); pack_tile(0, 24); pack_tile(0, 24); "
                            "tile_regs_release();", 1)
        return text

    error = seeded(emulator, tmp_path, edit)
    assert re.search(r"reads page 0 of CB 0, which holds row-major rows .*tilize them first", error), error


def test_a_second_init_before_the_uninit_is_an_error(emulator: Any, tmp_path: Path) -> None:
    error = seeded(emulator, tmp_path, lambda text: re.sub(r"^\s+pack_untilize_uninit\(.*\);\n", "", text, flags=re.M))
    assert re.search(r"tilize_init while the untilize \(pack_untilize_init\) of CBs 25 -> 16 is still set up", error), \
        error


def test_a_tilize_after_fp32_math_without_its_reconfig_is_a_format_error(emulator: Any, tmp_path: Path) -> None:
    """Flash attention's K block is tilized in the loop after fp32 operations: without the unpacker's reconfig to the
    fp16 rows CB (upstream's kernel is fp16), hardware would misread the rows (kapi_formats.cpp's rule, for
    tilize_block too)."""
    rt_mod = tilelang.compile(flashattn_bshd(1, 1, 64, 64, False, 32, 32), target="tenstorrent").artifact.rt_mod
    prog = dataclasses.replace(rt_mod, files=dict(rt_mod.files))
    compute = prog.files["compute.cpp"]
    tilizes = re.findall(r"^\s+reconfig_data_format_srca\((\d+)\);\n(?=.*\n\s+tilize_init\(\1,)", compute, flags=re.M)
    assert len(tilizes) >= 2, compute  # Q before the loop, K (and V) in it
    k_cb = tilizes[1]
    prog.files["compute.cpp"] = re.sub(rf"^\s+reconfig_data_format_srca\({k_cb}\);\n(?=.*\n\s+tilize_init\({k_cb},)",
                                       "", compute, count=1, flags=re.M)
    assert prog.files["compute.cpp"] != compute
    q, k, v = (uniform((1, 64, 1, 64), seed).astype(np.float16) for seed in (1, 2, 3))
    message = rf"data format mismatch: tilize_block uses CB {k_cb} \(Float16\) through the unpacker's SrcA, which is "
    with pytest.raises(emulator.TTEmulatorError, match=message + "configured for Float32"):
        prog.run([q, k, v, np.zeros((1, 64, 1, 64), np.float16)], workdir=tmp_path)
