"""The real tt-metal device headers of one API profile: the `ttnn` wheel of the profile's version
(`ttnn_wheel` in specs/backends/tenstorrent.yaml), and clang from the `ziglang` wheel, each fetched once with
`pip download` and unzipped into a cache outside the repository ($TILELANG_TTNN_CACHE, default
~/.cache/tilelang/ttnn). Nothing is installed."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

ZIGLANG = "0.17.0"  # its clang (22.x) targets riscv32


class Offline(RuntimeError):
    """A wheel could not be downloaded (no network or no such version on the package index)."""


def cache_root() -> Path:
    return Path(os.environ.get("TILELANG_TTNN_CACHE", Path.home() / ".cache" / "tilelang" / "ttnn"))


def _download(package: str, version: str) -> Path:
    folder = cache_root() / "wheels"
    found = sorted(folder.glob(f"{package}-{version}-*.whl"))
    if found:
        return found[0]
    folder.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--python-version", "3.12",
           "--disable-pip-version-check", "-q", f"{package}=={version}", "-d", str(folder)]
    done = subprocess.run(cmd, capture_output=True, text=True)
    found = sorted(folder.glob(f"{package}-{version}-*.whl"))
    if done.returncode != 0 or not found:
        last = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
        raise Offline(f"cannot download the {package} {version} wheel with pip ({last})")
    return found[0]


def _unzip(wheel: Path, target: Path, members: tuple[str, ...]) -> Path:
    """Unzip the members under the given prefixes once; a marker file says the copy is complete."""
    done = target / ".complete"
    if not done.exists():
        target.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(wheel) as archive:
            for name in archive.namelist():
                if name.startswith(members):
                    archive.extract(name, target)
        done.write_text(wheel.name)
    return target


# GCC accepts an attribute on a template parameter (`template <..., [[maybe_unused]] bool x = false>`), clang
# rejects it; the cached copy of a wheel's headers drops such attributes (no change of meaning) so that clang
# checks what follows; and the 2025 ckernel.h's `volatile uint short` becomes `volatile std::uint16_t`. Counted per
# wheel in `<cache>/<version>/.clang_compat2`.
_TEMPLATE_ATTRIBUTE = re.compile(r"(template\s*<[^;{}]*?)\[\[maybe_unused\]\]\s*")


def _clang_compat(tree: Path) -> int:
    changed = 0
    for header in tree.rglob("*.h"):
        text = header.read_text(errors="surrogateescape")
        if "[[maybe_unused]]" not in text and "uint short" not in text:
            continue
        new, count = text, 1
        while count:
            new, count = _TEMPLATE_ATTRIBUTE.subn(r"\1", new)
        new = new.replace("volatile uint short", "volatile std::uint16_t")  # 2025 ckernel.h; clang rejects it
        if new != text:
            header.write_text(new, errors="surrogateescape")
            changed += 1
    return changed


def ttnn_headers(version: str) -> Path:
    """The folder that holds `tt_metal/` (the device-side tree) and `build/lib/libtt_metal.so` of ttnn `version`."""
    wheel = _download("ttnn", version)
    root = _unzip(wheel, cache_root() / version, ("ttnn/tt_metal/", "ttnn/build/lib/libtt_metal.so"))
    marker = root / ".clang_compat2"
    if not marker.exists():
        changed = _clang_compat(root / "ttnn" / "tt_metal")
        marker.write_text(f"{changed} headers rewritten (template-parameter attributes, `volatile uint short`)\n")
    return root / "ttnn"


def ttnn_binding(version: str) -> Path:
    """The folder that holds the Python side of ttnn `version`: `ttnn/__init__.py` and the nanobind module
    `ttnn/_ttnn.*.so` (the wheel has no .pyi stubs; the names it exports are the module's strings)."""
    wheel = _download("ttnn", version)
    return _unzip(wheel, cache_root() / f"{version}-python", ("ttnn/__init__.py", "ttnn/_ttnn.")) / "ttnn"


def ttnn_kernels(version: str) -> Path:
    """The folder that stands for $TT_METAL_HOME to ttnn `version`'s production kernels: it holds
    `ttnn/cpp/ttnn/operations/**/device/kernels/` and the helpers they include (`ttnn/cpp/ttnn/kernel_lib/`,
    `ttnn/cpp/ttnn/kernel/`), unzipped as the wheel ships them (its package folder `ttnn/` is tt-metal's root)."""
    wheel = _download("ttnn", version)
    return _unzip(wheel, cache_root() / f"{version}-kernels", ("ttnn/ttnn/cpp/",)) / "ttnn"


def clang_compat_note(version: str) -> str:
    marker = cache_root() / version / ".clang_compat2"
    return marker.read_text().strip() if marker.exists() else ""


def clang() -> list[str]:
    """The command that runs the ziglang wheel's clang driver (`zig c++`)."""
    root = _unzip(_download("ziglang", ZIGLANG), cache_root() / f"ziglang-{ZIGLANG}", ("ziglang/",))
    zig = root / "ziglang" / "zig"
    zig.chmod(0o755)
    return [str(zig), "c++"]
