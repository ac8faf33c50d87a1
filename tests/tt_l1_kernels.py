"""A GEMM whose C stays in L1, block-sharded over the cores that compute it (issue 31; pass_configs
"tl.tt.memory_config"), as tt-metal's matmul with ttnn's out_sharded memory config. The factory carries the
pass_configs it is compiled with (`pass_configs`), which the corpus tools merge into every variant's: the shard
partition among them, since C's shards are the partition's blocks (the `global` variant would give a core several)."""

from __future__ import annotations

from typing import Any

from test_language_llvm import matmul

L1_GEMM = (128, 128, 128, 64, 64, 32)  # M, N, K, block_M, block_N, block_K: 2x2 output blocks on 4 cores


def gemm_c_in_l1() -> Any:
    return matmul(*L1_GEMM, dtype="bfloat16")


gemm_c_in_l1.pass_configs = {"tl.tt.memory_config": {"C": "l1_sharded"},  # type: ignore[attr-defined]
                             "tl.PartitionTTWork.mode": "shard"}
L1_CORPUS = {"gemm_c_l1_sharded": gemm_c_in_l1}
