"""The per-format part of `make bench` (benchmarks/bench_tt_perf.py, issue 31): the generated GEMM with its A, B and C
stored in the data format of each of tt-metal's published rows (BFLOAT16, BFLOAT8_B, BFLOAT4_B: test_benchmark.py
stores in0, in1 and the output in the row's dtype; here `pass_configs={"tl.tt.dram_format": {...}}`), modelled with
the calibrated model next to the published figure and the model's prediction of it, and, per row, the terms of the
busiest core that set the modelled time, ours against tt-metal's configuration (the model's reasons).

The blocks are the bf16 tuning's winner at the row's fidelity. 1024^3 and 2048^3 run in the emulator in every format
(the block-float result checked against numpy: bfp(A) @ bfp(B) within one step of C's format per face row); 4096^3
is too slow to emulate once per format: its block-float counters are the bf16 run's with every byte counter scaled by
the tile bytes (every transfer of this GEMM moves tiles of A, B or C), a derivation the 2048^3 runs check exactly
(the scaled bf16 counters equal the emulated block-float ones, per core) before it is used.

`floor` is what this blocking cannot go below while C goes to DRAM: the busiest core's tile math plus the drain of
its last output block at the chip's write-back rate, and the launch (tt-metal's published 1024^3 and 2048^3
configurations keep C sharded in L1 and pay no drain)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import ml_dtypes
import numpy as np
from tt_block_float_kernels import bfp_values

from tilelang.tenstorrent import perf_model, tt_metal_matmul

# tt-metal dtype -> (our DRAM format, mantissa bits; None: bf16 as the tuning ran it)
FORMATS: dict[str, tuple[str | None, int]] = {"BFLOAT16": (None, 0), "BFLOAT8_B": ("bfloat8_b", 7),
                                              "BFLOAT4_B": ("bfloat4_b", 3)}
TENSORS = ("A", "B", "C")
EMULATED = (1024, 2048)  # sizes emulated in every format; larger ones scale the bf16 counters (checked at CHECKED)
CHECKED = 2048
BYTE_COUNTERS = tuple(perf_model.TRANSFERS)
BF16_TILE = 2048
Config = tuple[int, int, int, bool]


def dram_formats(dtype: str) -> dict[str, str]:
    fmt = FORMATS[dtype][0]
    return {name: fmt for name in TENSORS} if fmt else {}


def run_format(size: int, cfg: Config, dtype: str, compile_gemm: Callable[..., Any]) -> tuple[Any, float]:
    """The kernel with A, B, C in `dtype`'s format after one emulated run, and its error against numpy in steps of
    C's format (<= 1 passes): per face row, |C - bfp(A) @ bfp(B)| / (one mantissa step of the row's largest value
    + 2^-8 of it)."""
    kernel = compile_gemm(size, cfg, {"tl.tt.dram_format": dram_formats(dtype)})
    rng = np.random.default_rng(size)
    a = rng.uniform(-1, 1, (size, size)).astype(ml_dtypes.bfloat16)
    b = rng.uniform(-1, 1, (size, size)).astype(ml_dtypes.bfloat16)
    got = kernel(a, b).astype(np.float32)
    bits = FORMATS[dtype][1]
    ref = bfp_values(a, bits) @ bfp_values(b, bits)
    row_max = np.abs(ref).reshape(size, -1, 16).max(axis=2, keepdims=True)
    step = np.exp2(np.floor(np.log2(row_max)) - (bits - 1)) + 2.0 ** -8 * row_max
    return kernel, float((np.abs(got - ref).reshape(step.shape[0], -1, 16) / step).max())


def scaled_report(report: Mapping[str, Any], tile_bytes: int) -> dict[str, Any]:
    """The bf16 run's report with every byte counter scaled from bf16 tiles to `tile_bytes` tiles."""
    cores = []
    for core in report["cores"]:
        scaled = dict(core)
        for key in BYTE_COUNTERS:
            if core.get(key, 0) % BF16_TILE:
                raise ValueError(f"counter {key} of core {core.get('core')} ({core[key]}) is not whole tiles")
            scaled[key] = core.get(key, 0) // BF16_TILE * tile_bytes
        cores.append(scaled)
    return {**report, "cores": cores}


def tile_bytes(plan: Mapping[str, Any], name: str) -> int:
    return int(next(t["page_bytes"] for t in plan["tensors"] if t["name"] == name))


def counters_match(bf16: Any, bfp: Any) -> bool:
    """The 2048^3 check of the derivation: the scaled bf16 counters equal the emulated block-float ones."""
    plan = bfp.artifact.rt_mod.plan
    derived = scaled_report(bf16.last_report, tile_bytes(plan, "A"))["cores"]
    keys = (*BYTE_COUNTERS, "matmul_tiles", "pack_tiles", "semaphore_waits")
    return all(d.get(k, 0) == e.get(k, 0) for d, e in zip(derived, bfp.last_report["cores"], strict=True)
               for k in keys)


def terms(plan: Mapping[str, Any], report: Mapping[str, Any], fidelity: str) -> tuple[perf_model.PerfEstimate, str,
                                                                                     float]:
    """The estimate, the busiest core's terms in k-cycles, and this blocking's C-in-DRAM floor in seconds."""
    est = perf_model.estimate(plan, report, fidelity=fidelity)
    perf = perf_model.device_perf(plan["device"]["name"])
    cores = report["cores"]
    writers = max(1, sum(1 for c in cores if c.get("dram_bytes_written", 0)))
    fill, drain = perf_model.pipeline_cycles(plan, perf_model.multicast_rate(cores, perf), perf, writers,
                                             perf_model.writes_to_l1(plan, cores))
    worst = max(est.cores, key=lambda c: c.cycles)
    math = worst.compute_cycles
    text = (f"math {math / 1e3:.1f} fill {fill / 1e3:.1f} drain {drain / 1e3:.1f} "
            f"wait {worst.wait_cycles / 1e3:.1f} | noc {worst.noc_cycles / 1e3:.1f}")
    drained = drain if any(c.get("dram_bytes_written", 0) for c in cores) else 0.0
    return est, text, (math + drained) / est.clock_hz + est.launch_seconds


def format_rows(tuned: dict[int, dict[Config, Any]], published: list[dict[str, Any]],
                tt_metal_config: Callable[[dict[str, Any]], tt_metal_matmul.MatmulConfig],
                compile_gemm: Callable[..., Any],
                best_at: Callable[[dict[Config, Any], str], tuple[Config, Any]]) -> None:
    """Print generated vs published per (size, dtype, fidelity) of tt-metal's n150 rows at the tuned sizes."""
    print("Generated GEMM with A, B, C in each published format (tl.tt.dram_format) vs tt-metal's best published n150 "
          "figure of that format (trace or not); terms of the busiest core in k-cycles at 0.906 GHz, ours | "
          "tt-metal's configuration as modelled; floor: math + last-block drain (C to DRAM) + launch")
    print(f"  {'size':>6} {'dtype':>9} {'fid':>5} {'ours':>6} {'pub':>7} {'model':>6} {'ratio':>5} {'floor':>5} "
          f"{'run':>9}  ours: terms  ||  tt-metal: terms")
    sizes = sorted(tuned)
    runs: dict[tuple[int, Config, str], tuple[Any, str]] = {}
    checked: dict[str, bool] = {}
    for size in sizes:
        for dtype in FORMATS:
            for fidelity in sorted({r["math_fidelity"] for r in published if r["dtype"] == dtype}):
                rows = [r for r in published if r["m"] == r["k"] == r["n"] == size and r["dtype"] == dtype
                        and r["math_fidelity"] == fidelity]
                if not rows:
                    continue
                row = max(rows, key=lambda r: r["tflops"])
                cfg, bf16 = best_at(tuned[size], fidelity)
                key = (size, cfg, dtype)
                if key not in runs:
                    runs[key] = _kernel(size, cfg, dtype, bf16, compile_gemm, checked)
                kernel, how = runs[key]
                if kernel is None:
                    print(f"  {size:>5}^3 {dtype:>9} {fidelity:>5} not modelled: {how}")
                    continue
                plan, report = kernel
                est, ours, floor = terms(plan, report, fidelity)
                ref = tt_metal_config(row)
                theirs = terms(tt_metal_matmul.plan(ref), tt_metal_matmul.counters(ref), fidelity)
                modelled = tt_metal_matmul.tflops(ref, row["use_trace"])
                flops = est.flops
                print(f"  {size:>5}^3 {dtype:>9} {fidelity:>5} {est.tflops:>6.1f} {row['tflops']:>7.2f} "
                      f"{modelled:>6.1f} {est.tflops / row['tflops']:>5.2f} "
                      f"{flops / floor / 1e12 / row['tflops']:>5.2f} {how:>9}  {ours}  ||  {theirs[1]}")


def _kernel(size: int, cfg: Config, dtype: str, bf16: Any, compile_gemm: Callable[..., Any],
            checked: dict[str, bool]) -> tuple[tuple[Mapping[str, Any], Mapping[str, Any]] | None, str]:
    """((plan, report), how it was obtained) of the GEMM in `dtype`: the bf16 tuning's run, an emulated run, or the
    bf16 run's counters scaled (only once the 2048^3 check of that format passed)."""
    if FORMATS[dtype][0] is None:
        return (bf16.artifact.rt_mod.plan, bf16.last_report), "tuned"
    if size in EMULATED:
        kernel, err = run_format(size, cfg, dtype, compile_gemm)
        if size == CHECKED:
            checked[dtype] = counters_match(bf16, kernel)
        if err > 1:
            return None, f"emulated result off numpy by {err:.2f} steps of {dtype}"
        return (kernel.artifact.rt_mod.plan, kernel.last_report), f"emu {err:.2f}"
    if not checked.get(dtype):
        return None, f"the {CHECKED}^3 check of scaled counters did not pass for {dtype}"
    plan = compile_gemm(size, cfg, {"tl.tt.dram_format": dram_formats(dtype)}).artifact.rt_mod.plan
    return (plan, scaled_report(bf16.last_report, tile_bytes(plan, "A"))), "scaled"
