"""A GEMM whose C stays in L1, block-sharded over the cores that compute it (issue 31; pass_configs
"tl.tt.memory_config"), as tt-metal's matmul with ttnn's out_sharded memory config. Its pass_configs, which the corpus
tools merge into every variant's, hold the shard partition too (C's shards are the partition's blocks: the `global`
variant would give a core several). A profile whose host API is the single-device one has no sharded L1 buffers in
the emulator: there the entry is the same kernel with C in DRAM (tt_mesh_kernels.OnMesh)."""

from __future__ import annotations

from typing import Any

from test_language_llvm import matmul
from tt_mesh_kernels import OnMesh

L1_GEMM = (128, 128, 128, 64, 64, 32)  # M, N, K, block_M, block_N, block_K: 2x2 output blocks on 4 cores
L1_CORPUS: dict[str, Any] = {
    "gemm_c_l1_sharded": OnMesh(lambda: matmul(*L1_GEMM, dtype="bfloat16"),
                                {"tl.tt.memory_config": {"C": "l1_sharded"}, "tl.PartitionTTWork.mode": "shard"}),
}
