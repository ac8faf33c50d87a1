"""One element of a DRAM tensor read as a value in a loop (issue 28): TileLang's attention-sink forward fills a
fragment row with one element per head (`sinks[i] = Sinks[by]`), its layernorm backward reads a row statistic per
row (`m_v = Mean[row]`; that one is refused by the element-wise recognition: a DRAM operand must be copied on chip
first). The tenstorrent backend refuses such a nest naming the element, the tensor, the loop and
the store (src/transform/loop_dram_element.cc); compiling stops at LowerTTLoopsToTileOps, so the test is cheap."""

import shutil

import pytest

import tilelang
import tilelang.language as T
from tilelang.errors import TileLangError

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")


def _sink_fill(heads: int = 2, m: int = 64, n: int = 64, dtype: str = "float32"):
    @T.prim_func
    def main(X: T.Tensor((heads, m, n), dtype), Sinks: T.Tensor((heads,), dtype),  # noqa: N803
             Y: T.Tensor((heads, m, n), dtype)):  # noqa: N803
        with T.Kernel(m // 32, heads, threads=128) as (bx, by):
            x = T.alloc_fragment((32, n), dtype)
            sinks = T.alloc_fragment((32,), dtype)
            T.copy(X[by, bx * 32:(bx + 1) * 32, :], x)
            for i in T.Parallel(32):
                sinks[i] = Sinks[by]
            for i, j in T.Parallel(32, n):
                x[i, j] = x[i, j] + sinks[i]
            T.copy(x, Y[by, bx * 32:(bx + 1) * 32, :])

    return main


@pytest.mark.parametrize("dtype", ["float32", "bfloat16", "float16"])
def test_tt_refuses_one_dram_element_used_as_a_value(dtype: str) -> None:
    what = (r"loop \(i\) storing sinks\[i\] = Sinks\[by\] reads one element Sinks\[by\] of DRAM tensor 'Sinks', "
            r"the same in every iteration of the loop, and uses it as a value across on-chip buffer 'sinks'; .*"
            r"cannot yet broadcast a single DRAM element into a compute kernel \(issue 28\)")
    with pytest.raises(TileLangError, match=what):
        tilelang.compile(_sink_fill(dtype=dtype), target="tenstorrent")
