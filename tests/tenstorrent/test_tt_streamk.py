"""Stream-K GEMM on Tenstorrent as upstream writes it (examples/gemm_streamk, tests/tt_streamk_kernel.py; issue 28).

Its fix-up adds a partial tile onto C with T.atomic_add inside the while loop and an if/else, onto tiles chosen at
run time: PartitionTTWork's `streamk` mode runs program p on core p % cores, and the adds land in program order
(specs/protocols/writer_pass_turn.yaml: each program's reader waits for its predecessor's turn before reading a
tile it adds onto, its writer passes the turn once after the while loop). `C_local`, made before the if, is freed
in both branches (copied on chip where the writer writes it). The module's schedule is computed at its import from
its shapes; `streamk_module` imports it for another shape (the module's constants replaced, its code unchanged).

Numerics: fp16 operands from U(-1, 1), fp32 accumulation and fp32 adds onto C (K <= 128 terms; rtol/atol 1e-3).
"""

import importlib.util
import re
import shutil
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import tilelang
import tilelang.language as T

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")
SOURCE = Path(__file__).resolve().parents[1] / "tt_streamk_kernel.py"


def streamk_module(tmp: Path, m: int, n: int, k: int, sms: int, block: int) -> ModuleType:
    """tests/tt_streamk_kernel.py with its module-level shapes, program count and block sizes replaced."""
    text = SOURCE.read_text()
    for name, value in (("m", m), ("n", n), ("k", k), ("total_sm", sms), ("BLOCK_SIZE_M", block),
                        ("BLOCK_SIZE_N", block), ("BLOCK_SIZE_K", block)):
        text, count = re.subn(rf"^{name} = \d+$", f"{name} = {value}", text, flags=re.M)
        assert count == 1, name
    path = tmp / f"streamk_{m}x{n}x{k}_{sms}.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return module


def compile_streamk(module: ModuleType, block: int, **pass_configs: Any) -> Any:
    fn = tilelang.jit(target="tenstorrent", pass_configs=pass_configs or None)(module.tl_matmul_streamk.__wrapped__)
    return fn.compile(streamk_tiles=module.streamk_tiles, M=module.m, N=module.n, K=module.k, block_M=block,
                      block_N=block, block_K=block, trans_A=False, trans_B=True, dtypeAB=T.float16,
                      dtypeC=T.float32, accum_dtype=T.float32, num_stages=2, threads=64)


def run(kernel: Any, module: ModuleType, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    a = rng.uniform(-1, 1, (module.m, module.k)).astype("float16")
    b = rng.uniform(-1, 1, (module.n, module.k)).astype("float16")
    c = np.zeros((module.m, module.n), "float32")
    kernel(a, b, c)
    return c, a.astype("float32") @ b.astype("float32").T


@pytest.fixture(scope="module")
def upstream_shape_module(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    return streamk_module(tmp_path_factory.mktemp("streamk"), 64, 128, 128, 3, 32)


def test_streamk_as_upstream_writes_it_matches_numpy(upstream_shape_module: ModuleType) -> None:
    """8 output tiles of 4 K steps over 3 programs: 5 stream-K tiles (3 split across programs, added in turn, 2
    whole, copied) and 3 data-parallel ones; on 3 cores, and on 2 (program 2 follows program 1 on core 0)."""
    module = upstream_shape_module
    for configs in ({}, {"tl.PartitionTTWork.core_grid": [2, 1]}):
        kernel = compile_streamk(module, 32, **configs)
        c, want = run(kernel, module, 3)
        np.testing.assert_allclose(c, want, rtol=1e-3, atol=1e-3)
        work = kernel.artifact.rt_mod.plan["work_partition"]
        assert [w["start"] for w in work] == list(range(len(work)))
        assert all(w["stride"] == len(work) for w in work)


def test_streamk_ragged_matches_numpy(tmp_path: Path) -> None:
    """M, N, K = 100, 72, 80 (3 x 3 tiles of 3 K steps, all ragged) over 4 programs: 9 stream-K tiles, programs of
    6 and 7 K steps, so every program starts or ends inside a tile."""
    module = streamk_module(tmp_path, 100, 72, 80, 4, 32)
    c, want = run(compile_streamk(module, 32), module, 4)
    np.testing.assert_allclose(c, want, rtol=1e-3, atol=1e-3)


@pytest.fixture(scope="module")
def emulator() -> Any:
    from tilelang.tenstorrent import emulator as emu

    emu.library()
    return emu


def test_sanitizer_catches_an_add_out_of_turn(emulator: Any, upstream_shape_module: ModuleType,
                                              tmp_path: Path) -> None:
    """Without the reader's turn wait, a program reads the tile it adds onto unordered with its predecessor's write
    of that tile (a lost update on hardware): the emulator's DRAM sanitizer reports it."""
    import dataclasses

    module = upstream_shape_module
    rt_mod = compile_streamk(module, 32).artifact.rt_mod
    prog = dataclasses.replace(rt_mod, files=dict(rt_mod.files))
    before = prog.files["reader.cpp"]
    prog.files["reader.cpp"] = re.sub(r"noc_semaphore_wait_min\((\w+), [^;]*\);", r"(void)\1;", before)
    assert prog.files["reader.cpp"] != before
    rng = np.random.default_rng(5)
    a = rng.uniform(-1, 1, (module.m, module.k)).astype("float16")
    b = rng.uniform(-1, 1, (module.n, module.k)).astype("float16")
    with pytest.raises(emulator.TTEmulatorError) as caught:
        prog.run([a, b, np.zeros((module.m, module.n), "float32")], workdir=tmp_path)
    assert re.search(r"(read|write) of page \d+ of tensor C lands while nothing orders it after core \(\d+,\d+\) "
                     r"\w+'s write of that page", str(caught.value)), caught.value
