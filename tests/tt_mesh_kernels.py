"""The mesh kernels of the codegen corpus (tests/tt_kernels.py CORPUS): kernels split over a mesh of chips by their
pass_configs (PartitionTTMesh's mesh and reduce_axis), so that `make check-metal` checks main.cpp's mesh host calls
(tt-metal's distributed API) against the real library. A profile whose host API is the single-device one refuses a
mesh: there the entry is the same kernel on one chip."""

from __future__ import annotations

from typing import Any

import layers  # noqa: F401  (the layer folders on the import path)
from test_language_llvm import matmul

__all__ = ["MESH_CORPUS"]


class OnMesh:
    """A corpus factory whose pass_configs split its kernel over a mesh where the API profile has the mesh host API
    (tools/check_metal/corpus.py and tools/artifacts_digest.py read `pass_configs` of each factory)."""

    def __init__(self, factory: Any, configs: dict[str, Any]) -> None:
        self.factory, self.configs = factory, configs

    def __call__(self) -> Any:
        return self.factory()

    @property
    def pass_configs(self) -> dict[str, Any]:
        from tilelang.tenstorrent import PROFILES, api_profile

        return self.configs if PROFILES[api_profile()].host_api == "mesh" else {}


MESH_CORPUS: dict[str, Any] = {
    # Split-K over the two chips of an n300: A's K columns sharded, B's K rows restacked, C's partials added.
    "mesh_1x2_split_k_gemm": OnMesh(lambda: matmul(64, 64, 128, 32, 32, 32, dtype="bfloat16"),
                                    {"tl.PartitionTTMesh.mesh": [1, 2], "tl.PartitionTTMesh.reduce_axis": "cols"}),
}


def mesh_case(kind: str, mesh: tuple[int, int]) -> tuple[Any, dict[str, Any], list[int]]:
    """(kernel, pass_configs, out_idx) of the issue's done-when kernels on a rows x cols mesh, each device's part the
    same tiny kernel on every mesh (one 32-row block): a GEMM block per device (A's rows over the mesh rows, B's
    columns over its columns), softmax's row blocks over both axes (grid_axes xx: device (r, c) a run of them),
    and flash attention with its heads over the mesh columns (restacked: one head per device column) and its query
    blocks over the mesh rows (grid_axes xy), 128 keys."""
    from tt_attention_kernels import flashattn
    from tt_norm_kernels import softmax

    rows, cols = mesh
    if kind == "gemm":
        return matmul(32 * rows, 32 * cols, 32, 32, 32, 32, dtype="bfloat16"), {}, [-1]
    if kind == "softmax":
        axes = "xx" if rows > 1 and cols > 1 else "xy" if rows > 1 else "yx"
        return softmax(32 * rows * cols, 32, 32), {"tl.PartitionTTMesh.grid_axes": axes}, [-1]
    if kind == "flash_attention":
        return flashattn(1, cols, 32 * rows, 128, 32, False, 32, 32), {"tl.PartitionTTMesh.grid_axes": "xy"}, [3]
    raise ValueError(f"no mesh case {kind!r}")
