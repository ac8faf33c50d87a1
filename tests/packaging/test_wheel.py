"""The wheel: built from the checkout (its C++ libraries compiled by the build, from scratch), installed into a fresh
venv without network access, and used from a folder outside the checkout: the standard GEMM compiled for
Tenstorrent and run in the emulator agrees with numpy, and every library it used is the installed package's one
(nothing was compiled on first use but the emulated program itself, as by design).

The fresh venv gets its dependencies (apache-tvm, numpy, ...) from this venv's site-packages through a .pth that
lists only that folder: the .pth files inside it (among them the editable install of this checkout) are not
processed, so the `tilelang` imported is the wheel's.
"""

from __future__ import annotations

import importlib.util
import inspect
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
import venv
import zipfile
from pathlib import Path
from typing import Any

import pytest
from test_language_llvm import matmul as standard_matmul

from projects import REPO

# One test, so that one pytest-xdist worker builds the wheel once (xdist_group does not group under pytest 9.2: its
# node-id suffix is lost, so split tests each built the wheel on their own worker).
pytestmark = pytest.mark.slow

# Run by the installed package's Python, in a folder outside the checkout.
GEMM_TEMPLATE = '''
import json
import sys

import ml_dtypes
import numpy as np

import tilelang
import tilelang.cpp
import tilelang.language as T
from tilelang import _layout
from tilelang.tenstorrent import emulator


{matmul}

kernel = tilelang.compile(matmul(256, 256, 256, 64, 64, 32, dtype="bfloat16"), out_idx=[-1], target="tenstorrent")
rng = np.random.default_rng(0)
a = rng.uniform(-1, 1, (256, 256)).astype(ml_dtypes.bfloat16)
b = rng.uniform(-1, 1, (256, 256)).astype(ml_dtypes.bfloat16)
c = kernel(a, b)
reference = a.astype(np.float32) @ b.astype(np.float32)
with open("/proc/self/maps") as maps:
    mapped = sorted({line.split()[-1] for line in maps if ".so" in line and "tilelang" in line})
print(json.dumps({
    "tilelang": tilelang.__file__, "in_checkout": _layout.IN_CHECKOUT, "passes": str(tilelang.cpp.load()),
    "emulator": str(emulator.library()), "include": [str(d) for d in emulator.INCLUDE_DIRS], "mapped": mapped,
    "error": float(np.abs(c.astype(np.float32) - reference).max() / np.abs(reference).max()),
    "cores": len(kernel.last_report["cores"])}))
'''
# The standard TileLang GEMM of the llvm tests, verbatim (its source, run outside the repo).
GEMM = GEMM_TEMPLATE.replace("{matmul}", inspect.getsource(standard_matmul))


def run(command: list[str], cwd: Path, env: dict[str, str] | None = None, timeout: float = 600) -> str:
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"$ {' '.join(command)}\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    return done.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel, built the way a release would be (a fresh build directory) but with this venv's build tools."""
    if importlib.util.find_spec("scikit_build_core") is None:
        pytest.fail("scikit-build-core is not installed in this venv: run `make install`")
    out = tmp_path_factory.mktemp("wheel")
    # A fresh build directory two levels below the checkout, as the checkout's own (build/cpp): its compile
    # commands are then those of the checkout's build (ccache makes paths below the source tree relative to the
    # build directory), so the wheel's objects come from the compiler cache that build filled (`make test` runs it).
    (REPO / "build").mkdir(exist_ok=True)
    build_dir = Path(tempfile.mkdtemp(prefix="wheel-test-", dir=REPO / "build"))
    try:
        start = time.perf_counter()
        run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "--no-index",
             "-C", f"build-dir={build_dir}", "-w", str(out / "dist"), str(REPO)], cwd=out)
        print(f"wheel built in {time.perf_counter() - start:.1f} s")
    finally:
        shutil.rmtree(build_dir, ignore_errors=True)
    (found,) = (out / "dist").glob("tilelang_declarative-*.whl")
    return found


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the wheel installed (no dependencies, no index); returns its Python."""
    root = tmp_path_factory.mktemp("venv") / "venv"
    venv.create(root, with_pip=False, symlinks=True)
    python = root / "bin" / "python"
    # without PYTHONPATH: a checkout on it would make pip see the package as installed already
    run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps", "--no-index",
         str(wheel)], cwd=root, env=isolated_env(root))
    site = Path(run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], cwd=root).strip())
    dependencies = sorted({sysconfig.get_path("purelib"), sysconfig.get_path("platlib")})
    (site / "_dev_venv_dependencies.pth").write_text("".join(f"{d}\n" for d in dependencies))
    return python


def isolated_env(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    return {**env, "TT_EMU_CACHE": str(tmp / "tt_emu"), "XDG_CACHE_HOME": str(tmp / "cache")}


def check_the_wheel_holds_one_tilelang_folder(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    handwritten = {p.relative_to(REPO / "python").as_posix() for p in (REPO / "python" / "tilelang").rglob("*")
                   if p.is_file() and "__pycache__" not in p.parts}
    rendered = {p.relative_to(REPO / "generated").as_posix() for p in (REPO / "generated" / "tilelang").rglob("*")
                if p.is_file() and "__pycache__" not in p.parts}
    assert "tilelang/tenstorrent/metalium/main.cpp.j2" in handwritten
    assert handwritten <= names and rendered <= names
    # Two roots, as in the checkout: a hand-written header may #include_next the rendered one of the same path.
    headers = {f"tilelang/emulator/{folder}/{p.relative_to(root).as_posix()}"
               for folder, root in (("include", REPO / "src" / "emulator" / "include"),
                                    ("rendered", REPO / "generated" / "emulator" / "include"))
               for p in root.rglob("*") if p.is_file()}
    assert "tilelang/emulator/include/tt-metalium/host_api.hpp" in headers and headers <= names
    assert "tilelang/emulator/rendered/ttnn_0_81/api/compute/pack.h" in headers
    assert "tilelang/cuda/include/tl_cuda/gemm_mma.h" in names  # the cuda backend's device header (issue 32)
    assert {"tilelang/lib/libtilelang_passes.so", "tilelang/lib/libtt_emu.so", "generator/__main__.py"} <= names
    top = {name.split("/")[0] for name in names}
    assert top == {"tilelang", "generator", wheel.name.split("-py3")[0] + ".dist-info"}
    assert not [n for n in names if "__pycache__" in n or n.endswith((".inputs", ".cpp", ".cc"))]
    assert "-py3-none-linux_" in wheel.name


def check_the_installed_package_compiles_and_emulates_the_gemm(installed: Path, tmp_path: Path) -> None:
    package = installed.parent.parent / "lib"
    work = tmp_path / "outside"
    work.mkdir()
    (work / "gemm.py").write_text(GEMM)
    env = isolated_env(tmp_path)
    start = time.perf_counter()
    result: dict[str, Any] = json.loads(run([str(installed), "gemm.py"], cwd=work, env=env).splitlines()[-1])
    print(f"GEMM compiled and emulated by the installed package in {time.perf_counter() - start:.1f} s")
    tilelang_dir = Path(result["tilelang"]).parent
    assert package in tilelang_dir.parents and not result["in_checkout"]  # the wheel's tilelang, not the checkout's
    lib = tilelang_dir / "lib"
    assert result["passes"] == str(lib / "libtilelang_passes.so")
    assert result["emulator"] == str(lib / "libtt_emu.so")
    assert result["mapped"] == [str(lib / "libtilelang_passes.so")]
    assert result["include"] == [str(tilelang_dir / "emulator" / folder) for folder in ("include", "rendered")]
    assert result["error"] < 1e-2 and result["cores"] > 1
    # Compiled at run time: the host program and the kernels only; the host program links the installed library.
    hosts = sorted((tmp_path / "tt_emu" / "host").glob("*/main"))
    assert hosts
    if shutil.which("ldd"):
        assert f"libtt_emu.so => {lib / 'libtt_emu.so'}" in run(["ldd", str(hosts[0])], cwd=work)
    built = [p for p in tmp_path.rglob("lib*.so") if "kernels" not in p.parts]
    assert built == [], "a library was compiled on first use"


def check_the_installed_tools(installed: Path, tmp_path: Path) -> None:
    env = isolated_env(tmp_path)
    assert "spec files" in run([str(installed), "-m", "generator", "--root", str(REPO), "list"], cwd=tmp_path,
                               env=env)
    done = subprocess.run([str(installed), "-m", "tilelang.cpp"], cwd=tmp_path, env=env, capture_output=True,
                          text=True)
    assert done.returncode == 1 and "is an installed package, not a checkout" in done.stderr


def test_the_wheel_installed_outside_the_checkout(wheel: Path, installed: Path, tmp_path: Path) -> None:
    check_the_wheel_holds_one_tilelang_folder(wheel)
    (tmp_path / "gemm").mkdir()
    check_the_installed_package_compiles_and_emulates_the_gemm(installed, tmp_path / "gemm")
    (tmp_path / "tools").mkdir()
    check_the_installed_tools(installed, tmp_path / "tools")
