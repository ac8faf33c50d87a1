"""Passes written as specs only, with options, added to a copy of the checkout as the README's "How to add a pass
from existing rule kinds" says (the passes and the pipeline edit are in tests/checkout_edits.py): they lower, and
their expressions and messages read `options` and `device` in every engine (issue 20: a verify or partition rule
reading `options` failed at lowering, as those engines did not provide it).
"""

from __future__ import annotations

import pytest
from checkout_edits import TenstorrentEdits, run_in

# Run in the copy: the defaults lower; an option that makes a check fail is the check's message, with the values.
SCRIPT = """
import tilelang
from tt_kernels import matmul

kernel = matmul(256, 256, 256, 64, 64, 32, dtype="bfloat16")  # 4x4 blocks
tilelang.compile(kernel, target="tenstorrent")
for configs in ({"tl.CheckTTKernelBudget.max_cbs": 2},
                {"tl.PartitionTTWorkCapped.max_blocks": 1, "tl.PartitionTTWorkCapped.core_grid": [2, 2]}):
    try:
        tilelang.compile(kernel, target="tenstorrent", pass_configs=configs)
    except tilelang.TileLangError as err:
        print(type(err).__name__, err)
"""


@pytest.mark.slow  # builds the C++ passes of a checkout copy (shared: tests/checkout_edits.py)
@pytest.mark.xdist_group("tenstorrent_edits")
def test_spec_only_verify_and_partition_passes_read_their_options(tenstorrent_edits: TenstorrentEdits) -> None:
    done = run_in(tenstorrent_edits, "spec_only_passes", SCRIPT)
    assert done.returncode == 0, done.stdout + done.stderr
    verify, partition = done.stdout.strip().split("\n")
    assert verify.startswith("TTLoweringError main_") and \
        "CBs, more than options.max_cbs = 2 (the device has 32)" in verify, verify
    assert partition == ("TTLoweringError 4x4 blocks on 2x2 cores, more than options.max_blocks = 1 per core"), \
        partition
