"""The kernel corpus of one API profile: every kernel of tests/tt_kernels.CORPUS under every pass-option variant
of tools/artifacts_digest.py, lowered by this checkout and saved as `<out>/<kernel>.<variant>/`.

Run in its own process per profile (`TILELANG_TT_API_PROFILE=<profile> python -m tools.check_metal.corpus OUT
[DEVICE]`): the pass library reads the profile once per process. DEVICE (a record of device.devices in
specs/backends/tenstorrent.yaml) is the device the corpus is lowered for; without it, the default device.
TILELANG_CHECK_METAL_ONLY=select_,mask_ narrows the corpus to the kernels whose names contain one of the substrings;
TILELANG_CHECK_METAL_VARIANTS=default to the named pass-option variants."""

from __future__ import annotations

import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def save_corpus(out: Path, device: str | None = None) -> list[str]:
    sys.path.insert(0, str(REPO / "tests"))
    sys.path.insert(0, str(REPO / "tools"))
    from artifacts_digest import VARIANTS
    from tt_kernels import CORPUS

    import tilelang

    target = f"tenstorrent:{device}" if device else "tenstorrent"
    saved = []
    only = os.environ.get("TILELANG_CHECK_METAL_ONLY", "")  # comma-separated substrings of kernel names
    chosen = os.environ.get("TILELANG_CHECK_METAL_VARIANTS", "")  # comma-separated variant names
    variants = {v: c for v, c in VARIANTS.items() if not chosen or v in chosen.split(",")}
    for name, factory in sorted(CORPUS.items()):
        if only and not any(part in name for part in only.split(",")):
            continue
        # Parsed once for all its variants: parsing the TileLang script costs about as much as lowering it, and
        # a PrimFunc is immutable (lowering makes new ones), so each variant lowers the same function it would
        # parse afresh (the saved artifacts are the same: tests/golden/tt_artifacts.sha256).
        func = factory()
        for variant, configs in variants.items():
            configs = {**configs, **getattr(factory, "pass_configs", {})}  # a factory's own (tl.tt.dram_format)
            kernel = tilelang.compile(func, target=target, pass_configs=configs)
            kernel.save(out / f"{name}.{variant}")
            saved.append(f"{name}.{variant}")
    return saved


if __name__ == "__main__":
    print(len(save_corpus(Path(sys.argv[1]), sys.argv[2] if len(sys.argv) > 2 else None)))
