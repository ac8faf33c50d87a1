"""A GEMM whose C stays in L1, block-sharded over the cores that compute it (issue 31; pass_configs
"tl.tt.memory_config"), as tt-metal's matmul with ttnn's out_sharded memory config. Its pass_configs, which the corpus
tools merge into every variant's, hold the shard partition too (C's shards are the partition's blocks: the `global`
variant would give a core several). Under a profile whose host API has no sharded L1 buffers (`sharded_l1_buffers`
of specs/backends/tenstorrent.yaml) the entry is the same kernel with C in DRAM. `gemm_in1_sender` is the same GEMM with
B read and multicast by the writer kernel (pass_configs "tl.tt.in1_sender", tt-metal's in1 sender)."""

from __future__ import annotations

from typing import Any

from test_language_llvm import matmul

L1_GEMM = (128, 128, 128, 64, 64, 32)  # M, N, K, block_M, block_N, block_K: 2x2 output blocks on 4 cores


class InL1:
    """The corpus factory: its pass_configs leave C in L1 where the API profile can (tools/check_metal/corpus.py
    and tools/artifacts_digest.py read `pass_configs` of each factory), and B to the writer kernel with `in1_sender`."""

    def __init__(self, in1_sender: bool = False) -> None:
        self.in1_sender = in1_sender

    def __call__(self) -> Any:
        return matmul(*L1_GEMM, dtype="bfloat16")

    @property
    def pass_configs(self) -> dict[str, Any]:
        from tilelang.tenstorrent import PROFILES, api_profile

        configs: dict[str, Any] = {"tl.tt.memory_config": {"C": "l1_sharded"}, "tl.PartitionTTWork.mode": "shard"}
        sender = {"tl.tt.in1_sender": True, "tl.PartitionTTWork.mode": "shard"} if self.in1_sender else {}
        return {**(configs if PROFILES[api_profile()].sharded_l1_buffers else {}), **sender}


L1_CORPUS: dict[str, Any] = {"gemm_c_l1_sharded": InL1(), "gemm_in1_sender": InL1(in1_sender=True)}
