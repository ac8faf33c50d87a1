"""Modelled Wormhole n150 performance of the standard TileLang GEMM against tt-metal's published figures.

Each kernel is compiled with `tilelang.compile(..., target="tenstorrent")`, run once in the Metalium emulator,
and its counters go through the calibrated `tilelang.tenstorrent.perf_model` (measured rates and per-call costs
of specs/backends/tenstorrent.yaml `device.perf.measured`; formula in that module and in docs/emulator.md). Nothing
here ran on hardware; tt-metal's figures are measured on an n150 and quoted from tests/data/tt_metal_published.yaml
(GEMM_FLOPS.md). Printed in this one run:

- Compile latency of GEMM 1024^3 (blocks 256x256x32) through the whole TT pipeline and Metalium codegen.
- Tuning: for GEMM 1024^3, 2048^3 (bf16, fp32 accumulation) `tilelang.autotuner.AutoTuner` ranks block sizes and
  multicast on/off by the calibrated model (the DST sub-block follows from the block: PlanTTDst); 4096^3 runs the
  2048^3 winner's blocks (one 4096^3 emulation takes minutes). Per config: modelled time, roofline bound and ratio,
  bound, TF/s, DRAM bytes against tt-metal's `matmul_multi_core` (no reuse; target <= 1/4 of its bytes).
- The generated GEMM against tt-metal: modelled TF/s of each size's winner at LoFi, HiFi2 and HiFi4 (the emulator's
  counters do not depend on the fidelity, only the tile-matmul rate does) next to tt-metal's best published TF/s at
  that size and fidelity, with or without trace (bf16 at HiFi2/HiFi4; at LoFi tt-metal publishes only bfp8/bfp4)
  and the model's prediction of that published figure from tt-metal's stated configuration; the ratio is ours /
  published. Goal: >= 1.0 at 2048^3 HiFi4. Next to ours, the same kernel without packer L1 accumulation (its partial
  sums reloaded with copy_tile at every K step: the code generator before issue 31), emulated once per size and
  block choice, and the fastest candidate whose blocks are one per core with C left in L1, block-sharded
  (tl.tt.memory_config {"C": "l1_sharded"}, as tt-metal's published 1024^3/2048^3 configurations keep C with
  out_sharded; the output CB is C's shard), with its ratio to C in DRAM. ours/published takes the faster; for a row
  below 1.0 the bench names the busiest core's modelled term that exceeds tt-metal's configuration's most
  (benchmarks/bench_tt_limits.py); a LoFi row (tt-metal publishes block-float operands only) also runs the same
  blocks with A and B in the row's format and names what limits that. After the table: the C-in-L1 kernels with B fed
  by the writer kernel (tt-metal's in1 sender, tl.tt.in1_sender), and benchmarks/bench_tt_in1.py: C-in-L1 blocks and
  K blocks with and without it.
- Per published format (benchmarks/bench_tt_formats.py): the winners with A, B and C stored as BFLOAT16, BFLOAT8_B or
  BFLOAT4_B (tl.tt.dram_format) against every published row of that format and fidelity, with the busiest core's
  modelled terms (math, fill, drain, semaphore waits, NoC) next to those of tt-metal's configuration.
- The same winners' blocks compiled for Blackhole p150 and modelled with its facts, next to tt-metal's published
  P150 figures (benchmarks/bench_tt_perf_p150.py).
- Baselines of the same run: the 2048^3 winner with the global partition; element-wise add 2048^2 bf16: modelled
  time / DRAM-bandwidth bound (target <= 1.2).
- If matplotlib is importable, a PNG of ours vs published TF/s (build/bench_tt_perf.png).

Run: .venv/bin/python benchmarks/bench_tt_perf.py
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np
import yaml

import tilelang
from tilelang.autotuner import AutoTuner
from tilelang.tenstorrent import device, perf_model, tt_metal_matmul

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import layers  # noqa: E402, F401  (and the layer folders of tests/, where the standard kernels are)
from bench_tt_formats import FORMATS, format_rows  # noqa: E402  (benchmarks/ is this script's folder)
from bench_tt_in1 import main as in1_rows  # noqa: E402
from bench_tt_limits import core_terms, limit  # noqa: E402
from bench_tt_perf_p150 import p150_rows  # noqa: E402
from test_language_llvm import elementwise_add, matmul  # noqa: E402  (the standard TileLang kernels, verbatim)

PUBLISHED = Path(__file__).resolve().parent.parent / "tests" / "data" / "tt_metal_published.yaml"
MULTICAST = "tl.PlanTTMulticast.enabled"
IN1 = "tl.tt.in1_sender"  # BuildTTTileDataflow's in1_sender: B read by the writer kernel
L1_ACC = "tl.tt.packer_l1_acc"  # LowerTTProtocols' packer_l1_acc (default on)
IN_L1 = {"tl.tt.memory_config": {"C": "l1_sharded"}}  # C left in L1, block-sharded (InferTTLayout's memory_config)
# Candidate (block_M, block_N, block_K, multicast) per size; 4096^3 reuses the 2048^3 winner.
TUNE = {1024: [(128, 128, 64, True), (128, 128, 128, True), (128, 128, 256, True), (128, 128, 128, False),
               (256, 256, 128, True)],
        2048: [(256, 256, 64, True), (256, 256, 128, True), (256, 256, 256, True), (256, 256, 128, False),
               (128, 128, 256, True), (256, 128, 128, True), (128, 256, 256, True)]}
SIZES = (1024, 2048, 4096)
FIDELITIES = ("LoFi", "HiFi2", "HiFi4")
GOAL = (2048, "HiFi4", 1.0)
NO_REUSE_TARGET = 0.25  # our DRAM bytes / matmul_multi_core's at 2048^3
ELTWISE_SIZE, ELTWISE_BLOCK, ELTWISE_TARGET = 2048, 128, 1.2
COMPILE_SIZE, COMPILE_BLOCKS, COMPILE_REPEATS = 1024, (256, 256, 32), 5
TILE_BYTES = device.TILE[0] * device.TILE[1] * device.DATA_FORMATS["bfloat16"][1]
PLOT = Path("build/bench_tt_perf.png")
Config = tuple[int, int, int, bool]


def multi_core_bytes(m: int, n: int, k: int) -> int:
    """tt-metal matmul_multi_core: each output tile reads Kt A tiles and Kt B tiles, then writes itself."""
    mt, nt, kt = m // device.TILE[0], n // device.TILE[1], k // device.TILE[1]
    return (mt * nt * kt * 2 + mt * nt) * TILE_BYTES


def compile_gemm(size: int, cfg: Config, pass_configs: dict[str, Any] | None = None) -> Any:
    bm, bn, bk, multicast = cfg
    return tilelang.compile(matmul(size, size, size, bm, bn, bk, dtype="bfloat16"), out_idx=[-1],
                            target="tenstorrent", pass_configs={MULTICAST: multicast, **(pass_configs or {})})


def run_gemm(size: int, cfg: Config, pass_configs: dict[str, Any] | None = None) -> Any:
    """The kernel after one emulated run (its `last_report` holds the counters)."""
    rng = np.random.default_rng(size)
    a = rng.uniform(-1, 1, (size, size)).astype(ml_dtypes.bfloat16)
    b = rng.uniform(-1, 1, (size, size)).astype(ml_dtypes.bfloat16)
    kernel = compile_gemm(size, cfg, pass_configs)
    kernel(a, b)
    return kernel


def label(cfg: Config) -> str:
    return f"{cfg[0]}x{cfg[1]}x{cfg[2]} {'mcast' if cfg[3] else 'no-mcast'}"


def print_config(size: int, cfg: Config, est: perf_model.PerfEstimate, mark: str = "") -> None:
    print(f"  {size:>5}^3 {label(cfg):>20} {est.modelled_seconds * 1e6:>9.1f} {est.roofline_seconds * 1e6:>8.1f} "
          f"{est.ratio:>6.2f} {est.bound:>7} {est.tflops:>6.1f} {est.dram_bytes / 1e6:>8.1f} "
          f"{est.dram_bytes / multi_core_bytes(size, size, size):>9.3f} {mark}")


def tune(size: int) -> tuple[Config, Any, dict[Config, Any]]:
    """AutoTuner over TUNE[size], ranked by the calibrated model (Profiler.do_bench on Tenstorrent) at the default
    fidelity (HiFi4); also returns every candidate that ran, for picking at other fidelities."""
    kernels: dict[Config, Any] = {}

    def factory(block_M: int, block_N: int, block_K: int, multicast: bool) -> Any:  # noqa: N803 (TileLang names)
        cfg = (block_M, block_N, block_K, multicast)
        kernels[cfg] = compile_gemm(size, cfg)
        return kernels[cfg]

    configs = [dict(zip(("block_M", "block_N", "block_K", "multicast"), c, strict=True)) for c in TUNE[size]]
    result = AutoTuner.from_kernel(kernel=factory, configs=configs).run(warmup=1, rep=1)
    best = tuple(result.config.values())
    for cfg in TUNE[size]:
        if cfg in kernels and getattr(kernels[cfg], "last_report", None):
            print_config(size, cfg, perf_model.estimate_kernel(kernels[cfg]), "<- tuned" if cfg == best else "")
        else:
            print(f"  {size:>5}^3 {label(cfg):>20} not compiled: {dict(result.trials).get(cfg, '?')}")
    ran = {cfg: k for cfg, k in kernels.items() if getattr(k, "last_report", None)}
    return best, result.kernel, ran  # type: ignore[return-value]


def best_at(candidates: dict[Config, Any], fidelity: str) -> tuple[Config, Any]:
    """The candidate the model ranks fastest at `fidelity` (the counters are the same; the tile-matmul rate is not)."""
    return max(candidates.items(), key=lambda c: perf_model.estimate_kernel(c[1], fidelity=fidelity).tflops)


def tuned_rows() -> dict[int, dict[Config, Any]]:
    measured = device.PERF["measured"]
    print(f"GEMM bf16 (fp32 accumulation), modelled on Wormhole n150 with measured rates (clock "
          f"{measured['clock_hz'] / 1e9:.3f} GHz, DRAM {measured['dram_bytes_per_second'] / 1e9:.0f} GB/s), HiFi4; "
          "roofline at the peaks")
    print(f"  {'size':>6} {'config':>20} {'model us':>9} {'roof us':>8} {'ratio':>6} {'bound':>7} {'TF/s':>6} "
          f"{'DRAM MB':>8} {'/no-reuse':>9}")
    tuned: dict[int, dict[Config, Any]] = {}  # per size: the candidates that ran, the HiFi4 winner first
    for index, size in enumerate(SIZES):
        if size in TUNE:
            best, kernel, ran = tune(size)
            tuned[size] = {best: kernel, **ran}
        else:  # too slow to emulate every candidate: the previous size's winners at each fidelity
            previous = tuned[SIZES[index - 1]]
            tuned[size] = {}
            for cfg in dict.fromkeys(best_at(previous, f)[0] for f in ("HiFi4", *FIDELITIES)):
                tuned[size][cfg] = run_gemm(size, cfg)
                print_config(size, cfg, perf_model.estimate_kernel(tuned[size][cfg]),
                             f"<- a {SIZES[index - 1]}^3 winner")
    size = GOAL[0]
    winner = next(iter(tuned[size].values()))
    fewest = perf_model.estimate_kernel(winner).dram_bytes / multi_core_bytes(size, size, size)
    print(f"  DRAM bytes / matmul_multi_core at {size}^3: {fewest:.3f} "
          f"({'meets' if fewest <= NO_REUSE_TARGET else 'MISSES'} the {NO_REUSE_TARGET} target)")
    return tuned


def published() -> list[dict[str, Any]]:
    gemm = yaml.safe_load(PUBLISHED.read_text("utf-8"))["gemm"]
    return [dict(zip(gemm["row_columns"], r, strict=True)) for r in gemm["rows"]]


def published_row(size: int, fidelity: str) -> dict[str, Any]:
    """tt-metal's best published TF/s for a square GEMM of `size` at `fidelity`, with or without trace: with bf16
    operands like ours where tt-metal publishes them, else (LoFi) its best block-float figure."""
    rows = [r for r in published() if r["m"] == r["k"] == r["n"] == size and r["math_fidelity"] == fidelity]
    return max(rows, key=lambda r: (r["dtype"] == "BFLOAT16", r["tflops"]))


def tt_metal_config(row: dict[str, Any]) -> tt_metal_matmul.MatmulConfig:
    doc = yaml.safe_load(PUBLISHED.read_text("utf-8"))["gemm"]
    values = next(c for c in doc["configs"][row["dtype"]] if c[:3] == [row["m"], row["k"], row["n"]])
    blocks = dict(zip(doc["config_columns"][3:], values[3:], strict=True))
    fmt = doc["formats"][row["dtype"]]
    return tt_metal_matmul.MatmulConfig(row["m"], row["k"], row["n"], fmt["data_format"], fmt["tile_bytes"],
                                        row["math_fidelity"], **blocks)


def shards_on_grid(size: int, cfg: Config) -> bool:
    """Whether C can stay in L1: one output block per core, each on the core at its block coordinates."""
    return size // cfg[1] <= device.CORE_GRID[0] and size // cfg[0] <= device.CORE_GRID[1]


def versus_published(tuned: dict[int, dict[Config, Any]]) -> list[tuple[int, str, float, float]]:
    print("Generated GEMM (bf16 operands, modelled) vs tt-metal's best published n150 figure (measured; "
          "GEMM_FLOPS.md); 'reload' is the same kernel without packer L1 accumulation (tl.tt.packer_l1_acc=False: "
          "copy_tile reloads of the partial sums at every K step), run in this benchmark")
    print("  'C in L1': the fastest candidate whose blocks are one per core with C left in L1, block-sharded "
          "(tl.tt.memory_config {'C': 'l1_sharded'}, as tt-metal's out_sharded; its output CB is C's shard), and its "
          "ratio to C in DRAM; ours/published takes the faster, whose blocks are shown ('(L1)': C in L1); below 1.0 "
          "the limit is the busiest core's term exceeding tt-metal's configuration most")
    print(f"  {'size':>6} {'fidelity':>8} {'ours TF/s':>9} {'reload':>7} {'C in L1':>7} {'L1/DRAM':>7} "
          f"{'(blocks)':>15} {'tt-metal TF/s':>13} {'(dtype, trace)':>18} {'model of it':>11} {'ours/published':>14} "
          f"{'reload/published':>16}  limit")
    results = []
    reloads: dict[tuple[int, Config], Any] = {}  # (size, blocks) -> the kernel without L1 accumulation, after a run
    in_l1: dict[tuple[int, Config], Any] = {}  # (size, blocks) -> the kernel with C in L1, after a run
    senders: list[tuple[int, str, Config, float]] = []  # the fastest C-in-L1 blocks per size and fidelity
    for size in SIZES:
        for fidelity in FIDELITIES:
            cfg, kernel = best_at(tuned[size], fidelity)
            if (size, cfg) not in reloads:
                reloads[size, cfg] = run_gemm(size, cfg, {L1_ACC: False})
            for c in tuned[size]:  # every candidate whose blocks are one per core, with C in L1
                if shards_on_grid(size, c) and c[3] and (size, c) not in in_l1:
                    in_l1[size, c] = run_gemm(size, c, IN_L1)
            ours = perf_model.estimate_kernel(kernel, fidelity=fidelity).tflops
            before = perf_model.estimate_kernel(reloads[size, cfg], fidelity=fidelity).tflops
            l1_cfg, sharded = best_at({c: k for (n, c), k in in_l1.items() if n == size}, fidelity) if any(
                n == size for n, _ in in_l1) else (cfg, None)
            l1 = perf_model.estimate_kernel(sharded, fidelity=fidelity).tflops if sharded else 0.0
            best, cfg = (sharded, l1_cfg) if sharded and l1 > ours else (kernel, cfg)
            row = published_row(size, fidelity)
            ref = tt_metal_config(row)
            modelled = tt_metal_matmul.tflops(ref, row["use_trace"])
            ratio = max(ours, l1) / row["tflops"]
            where = f"({row['dtype'].lower()}, {'trace' if row['use_trace'] else 'no trace'})"
            blocks = "x".join(map(str, cfg[:3])) + (" (L1)" if best is sharded else "")
            theirs = core_terms(tt_metal_matmul.plan(ref), tt_metal_matmul.counters(ref), fidelity)
            why = "" if ratio >= 1.0 else limit(core_terms(best.artifact.rt_mod.plan, best.last_report, fidelity),
                                                theirs, modelled, row["tflops"])
            if why and row["dtype"] != "BFLOAT16":  # LoFi: tt-metal publishes block-float operands only
                why = block_float_limit(size, cfg, fidelity, row, theirs, modelled, why)
            print(f"  {size:>5}^3 {fidelity:>8} {ours:>9.1f} {before:>7.1f} {l1 or float('nan'):>7.1f} "
                  f"{l1 / ours if l1 else float('nan'):>7.2f} {blocks:>15} {row['tflops']:>13.2f} {where:>18} "
                  f"{modelled:>11.1f} {ratio:>14.2f} {before / row['tflops']:>16.2f}  {why}")
            results.append((size, fidelity, max(ours, l1), row["tflops"]))
            if sharded:  # the same blocks with B fed by the writer kernel (the in1 sender)
                senders.append((size, fidelity, l1_cfg, row["tflops"]))
    in1_kernels: dict[tuple[int, Config], Any] = {}  # B read by the writer kernel (tl.tt.in1_sender), generated
    for size, fidelity, l1_cfg, published_tflops in senders:
        if (size, l1_cfg) not in in1_kernels:
            in1_kernels[size, l1_cfg] = run_gemm(size, l1_cfg, {**IN_L1, IN1: True})
        sender = perf_model.estimate_kernel(in1_kernels[size, l1_cfg], fidelity=fidelity).tflops
        print(f"  C in L1 {size}^3 {fidelity} ({'x'.join(map(str, l1_cfg[:3]))}) with the in1 sender (generated, "
              f"tl.tt.in1_sender): {sender:.1f} TF/s, {sender / published_tflops:.2f}x published")
        results = [(n, f, max(o, sender) if (n, f) == (size, fidelity) else o, p) for n, f, o, p in results]
    size, fidelity, goal = GOAL
    ratio = next(o / p for s, f, o, p in results if (s, f) == (size, fidelity))
    print(f"  {size}^3 {fidelity}: {ratio:.3f}x tt-metal's published figure, the in1 sender included "
          f"({'meets' if ratio >= goal else 'MISSES'} the {goal:.1f}x goal; what limits it: docs/emulator.md, "
          "Performance model)")
    return results


def block_float_limit(size: int, cfg: Config, fidelity: str, row: dict[str, Any], theirs: dict[str, float],
                      modelled: float, bf16_limit: str) -> str:
    """The limit of a row tt-metal publishes only with block-float operands (LoFi: BFLOAT8_B/BFLOAT4_B): the same
    blocks with A and B stored in that format (tl.tt.dram_format; C in L1 where its blocks allow, else in DRAM, both
    in bf16), emulated and modelled, and what still limits that one."""
    fmt = FORMATS[row["dtype"]][0]
    configs = {"tl.tt.dram_format": {"A": fmt, "B": fmt}, **(IN_L1 if shards_on_grid(size, cfg) else {})}
    kernel = run_gemm(size, cfg, configs)
    tflops = perf_model.estimate_kernel(kernel, fidelity=fidelity).tflops
    then = "" if tflops >= row["tflops"] else ", limit then: " + limit(
        core_terms(kernel.artifact.rt_mod.plan, kernel.last_report, fidelity), theirs, modelled, row["tflops"])
    return (f"operand format: tt-metal publishes {fidelity} with {row['dtype']} only; bf16 operands: {bf16_limit}; "
            f"A, B in {fmt}: {tflops:.1f} TF/s, {tflops / row['tflops']:.2f}x{then}")


def baseline_rows(tuned: dict[int, dict[Config, Any]]) -> None:
    size = GOAL[0]
    cfg, kernel = next(iter(tuned[size].items()))
    best = perf_model.estimate_kernel(kernel)
    est = perf_model.estimate_kernel(run_gemm(size, cfg, {"tl.PartitionTTWork.mode": "global"}))
    print(f"GEMM {size}^3 {label(cfg)} vs the global partition compiled in this run: modelled "
          f"{est.modelled_seconds * 1e6:.1f} us ({est.bound}-bound), DRAM {est.dram_bytes / 1e6:.1f} MB; "
          f"tuned/baseline: time {best.modelled_seconds / est.modelled_seconds:.2f}, "
          f"DRAM bytes {best.dram_bytes / est.dram_bytes:.3f}")


def eltwise_row() -> None:
    size, block = ELTWISE_SIZE, ELTWISE_BLOCK
    a = np.ones((size, size), ml_dtypes.bfloat16)
    kernel = tilelang.compile(elementwise_add(size, size, block, block, in_dtype="bfloat16", out_dtype="bfloat16"),
                              out_idx=[-1], target="tenstorrent")
    start = time.perf_counter()
    kernel(a, a)
    seconds = time.perf_counter() - start
    est = perf_model.estimate_kernel(kernel)
    ratio = est.modelled_seconds / est.roofline_dram_seconds
    print(f"element-wise add {size}^2 bf16, blocks {block}x{block}, {len(est.cores)} cores: modelled "
          f"{est.modelled_seconds * 1e6:.1f} us, DRAM bound {est.roofline_dram_seconds * 1e6:.1f} us, ratio "
          f"{ratio:.2f} ({'meets' if ratio <= ELTWISE_TARGET else 'MISSES'} the {ELTWISE_TARGET} target; bound: "
          f"{est.bound}; emulated in {seconds:.2f} s)")


def compile_latency() -> None:
    times = []
    for _ in range(COMPILE_REPEATS):
        func = matmul(COMPILE_SIZE, COMPILE_SIZE, COMPILE_SIZE, *COMPILE_BLOCKS, dtype="bfloat16")
        start = time.perf_counter()
        kernel = tilelang.compile(func, out_idx=[-1], target="tenstorrent")
        kernel.artifact.rt_mod.plan  # noqa: B018  (codegen done: the plan and sources exist)
        times.append(time.perf_counter() - start)
    blocks = "x".join(map(str, COMPILE_BLOCKS))
    print(f"compile latency GEMM {COMPILE_SIZE}^3 (blocks {blocks}; pipeline + Metalium codegen): median "
          f"{statistics.median(times) * 1e3:.0f} ms, min {min(times) * 1e3:.0f} ms over {COMPILE_REPEATS} "
          f"(first in this process: {times[0] * 1e3:.0f} ms)")


def plot(results: list[tuple[int, str, float, float]]) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    fig, ax = plt.subplots(figsize=(6, 4))
    for fidelity, color in zip(FIDELITIES, ("C0", "C1", "C2"), strict=True):
        rows = [(s, o, p) for s, f, o, p in results if f == fidelity]
        ax.plot([s for s, _, _ in rows], [o for _, o, _ in rows], "o-", color=color, label=f"ours {fidelity} (model)")
        ax.plot([s for s, _, _ in rows], [p for _, _, p in rows], "s--", color=color,
                label=f"tt-metal {fidelity} (published)")
    ax.set(xscale="log", xlabel="M = N = K", ylabel="TF/s", title="GEMM on Wormhole n150")
    ax.legend(fontsize=7)
    PLOT.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(PLOT, dpi=120)
    print(f"plot: {PLOT}")


def main() -> None:
    start = time.perf_counter()
    compile_latency()
    tuned = tuned_rows()
    results = versus_published(tuned)
    in1_rows()
    format_rows(tuned, published(), tt_metal_config, compile_gemm, best_at)
    p150_rows({size: next(iter(tuned[size])) for size in SIZES}, matmul, MULTICAST, FIDELITIES)
    baseline_rows(tuned)
    eltwise_row()
    plot(results)
    print(f"benchmark wall time: {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
