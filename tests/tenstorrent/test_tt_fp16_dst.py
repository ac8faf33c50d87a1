"""A 16-bit DST holds fp16, not bf16, when the unpacker reads Float16 (issue 29, item 5).

tt-metal unpacks a Float16 CB to a Float16 DST (jit_build/data_format.cpp: the unpack destination format of a
non-fp32, non-block-float input is its own format), and the matrix unit rounds each result to the DST's format
(tt-isa-documentation WormholeB0 ELWADD: Dst16b = RoundToFP16(Result) when SrcA is FP16-style). An fp16 add on the
emulator is therefore the correctly rounded fp16 sum; before, every 16-bit DST value was rounded to bf16 (3041 of
4096 elements differed).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from tt_kernels import elementwise_binary

import tilelang


def test_fp16_add_is_correctly_rounded_fp16(tmp_path: Path) -> None:
    if shutil.which("g++") is None:
        pytest.fail("g++ is required: the README lists a C++ compiler as a requirement")
    kernel = tilelang.compile(elementwise_binary(64, 64, 32, 32, "add", dtype="float16"), target="tenstorrent")
    rng = np.random.default_rng(29)
    a = rng.uniform(-1, 1, (64, 64)).astype(np.float16)
    b = rng.uniform(-1, 1, (64, 64)).astype(np.float16)
    c = np.zeros((64, 64), np.float16)
    assert kernel.artifact.rt_mod.run([a, b, c], workdir=tmp_path)["status"] == "ok"
    exact = a.astype(np.float32) + b.astype(np.float32)  # exact: both are fp16 of like magnitude
    want = exact.astype(np.float16)
    assert int((c.view(np.uint16) != want.view(np.uint16)).sum()) == 0
    # The bf16 rounding it replaces differs from the fp16 result in most elements, so this test tells them apart.
    as_bf16 = exact.astype(ml_dtypes.bfloat16).astype(np.float16)
    assert int((as_bf16.view(np.uint16) != want.view(np.uint16)).sum()) > 2000
