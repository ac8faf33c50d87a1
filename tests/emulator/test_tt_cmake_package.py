"""The emulator as a CMake package: `python -m tilelang.tenstorrent.emulator --cmake-prefix` prints a prefix whose
`find_package(TT-Metalium)` / `TT::Metalium` is the emulator, so that a Metalium program builds with its own
CMakeLists.txt, unchanged, and runs without a device. Kernel paths resolve as tt-metal's CreateKernel resolves
them (absolute, working directory, $TT_METAL_HOME, $TT_METAL_KERNEL_PATH).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from tt_kernels import matmul

import tilelang
from tilelang.tenstorrent import emulator, host_args

BF16 = ml_dtypes.bfloat16
# Builds with CMake (each test module's fixture once, on one worker: --dist loadgroup keeps the group together).
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("cmake_package")]
M = N = K = 128


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tilelang.tenstorrent.emulator", *args], capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})


def _program_env(**extra: str) -> dict[str, str]:
    """The environment of a program run by hand: none of the variables the Python driver sets."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TT_EMU_", "TT_METAL_"))}
    env["TT_EMU_CACHE"] = str(emulator.cache_dir())  # share the kernel cache with the rest of the suite
    return {**env, **extra}


def test_cli_prints_a_prefix_with_the_package() -> None:
    done = _cli("--cmake-prefix")
    assert done.returncode == 0, done.stderr
    prefix = Path(done.stdout.strip())
    config = prefix / "lib" / "cmake" / "TT-Metalium" / "TT-MetaliumConfig.cmake"
    text = config.read_text()
    assert "add_library(TT::Metalium SHARED IMPORTED)" in text
    assert str(emulator.library()) in text and str(emulator.INCLUDE_DIRS[0]) in text
    assert emulator.cmake_prefix() == prefix  # stable: the same inputs, the same folder


def test_cli_help_documents_running_a_program() -> None:
    done = _cli("--help")
    assert done.returncode == 0
    for words in ("-DCMAKE_PREFIX_PATH=", "find_package(TT-Metalium)", "TT_EMU_PROFILE", "TT_METAL_HOME",
                  "exit code is 2", "sanitizer"):
        assert words in done.stdout, words


def test_cli_without_an_action_is_a_usage_error() -> None:
    done = _cli()
    assert done.returncode == 2 and "one of the arguments --cmake-prefix" in done.stderr


@pytest.fixture(scope="module")
def built_gemm(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A saved TileLang GEMM built with its own CMakeLists.txt against the emulator's package."""
    kernel = tilelang.compile(matmul(M, N, K, 64, 64, 32, dtype="bfloat16"), out_idx=[-1], target="tenstorrent")
    src = kernel.save(tmp_path_factory.mktemp("saved") / "gemm")
    build = src / "build"
    prefix = f"-DCMAKE_PREFIX_PATH={emulator.cmake_prefix()}"
    configure = subprocess.run(["cmake", "-S", str(src), "-B", str(build), prefix], capture_output=True, text=True)
    assert configure.returncode == 0, configure.stdout + configure.stderr
    compiled = subprocess.run(["cmake", "--build", str(build)], capture_output=True, text=True)
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    exe = build / "main"
    assert exe.is_file()
    return src, exe


def _inputs(data: Path) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(7)
    a = rng.uniform(-1, 1, (M, K)).astype(BF16)
    b = rng.uniform(-1, 1, (K, N)).astype(BF16)
    data.mkdir(parents=True, exist_ok=True)
    a.tofile(data / "A.bin")
    b.tofile(data / "B.bin")
    return a, b


def _check(data: Path, a: np.ndarray, b: np.ndarray) -> None:
    c = np.fromfile(data / "C.bin", dtype=BF16).reshape(M, N).astype(np.float32)
    ref = a.astype(np.float32) @ b.astype(np.float32)
    assert np.max(np.abs(c - ref)) <= 2**-7 * np.max(np.abs(ref))


def test_saved_gemm_builds_with_its_cmakelists_and_matches_numpy(built_gemm: tuple[Path, Path], tmp_path: Path) -> None:
    src, exe = built_gemm
    data = tmp_path / "data"
    a, b = _inputs(data)
    done = subprocess.run([str(exe), str(src), str(data)], capture_output=True, text=True, env=_program_env(),
                          cwd=tmp_path, timeout=600)
    assert done.returncode == 0, done.stderr
    _check(data, a, b)


def test_relative_kernel_paths_are_read_from_tt_metal_home(built_gemm: tuple[Path, Path], tmp_path: Path) -> None:
    """tt-metal's programs name kernels relative to the tt-metal tree: `<dir>/reader.cpp` under $TT_METAL_HOME."""
    src, exe = built_gemm
    home = tmp_path / "home"
    shutil.copytree(src, home / "gemm", ignore=shutil.ignore_patterns("build"))
    data = tmp_path / "data"
    a, b = _inputs(data)
    elsewhere = tmp_path / "cwd"
    (elsewhere / "gemm").mkdir(parents=True)  # main.cpp opens its host arguments itself, relative to the working folder
    shutil.copy2(src / host_args.FILE, elsewhere / "gemm" / host_args.FILE)
    done = subprocess.run([str(exe), "gemm", str(data)], capture_output=True, text=True, cwd=elsewhere,
                          env=_program_env(TT_METAL_HOME=str(home)), timeout=600)
    assert done.returncode == 0, done.stderr
    _check(data, a, b)


def test_a_kernel_found_nowhere_names_every_folder_searched(built_gemm: tuple[Path, Path], tmp_path: Path) -> None:
    src, exe = built_gemm
    (tmp_path / "nowhere").mkdir()  # only the host arguments main.cpp opens itself: no kernel source
    shutil.copy2(src / host_args.FILE, tmp_path / "nowhere" / host_args.FILE)
    data = tmp_path / "data"
    _inputs(data)
    done = subprocess.run([str(exe), "nowhere", str(data)], capture_output=True, text=True, cwd=tmp_path,
                          env=_program_env(TT_METAL_HOME=str(tmp_path / "home")), timeout=600)
    assert done.returncode == emulator.EXIT_EMULATOR_ERROR
    assert "kernel source nowhere/reader.cpp does not exist (searched, as tt-metal does:" in done.stderr
    assert str(tmp_path / "home" / "nowhere" / "reader.cpp") in done.stderr
