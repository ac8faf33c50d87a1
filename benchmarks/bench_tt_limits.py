"""What limits a generated GEMM row of `make bench` below tt-metal's published figure (issue 31): the busiest core's
modelled terms (tilelang.tenstorrent.perf_model, over the emulator's counters of our kernel and over tt-metal's
stated configuration, tilelang.tenstorrent.tt_metal_matmul) compared term by term. The limit named is the term by
which ours exceeds tt-metal's configuration most (math, pipeline fill, last-block drain, semaphore waits, NoC
beyond the compute stream); when none does by more than half a percent of our cycles, the modelled tt-metal figure
itself falls short of the published one (a model error, or the host: the published run's time exceeds its modelled
device time)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tilelang.tenstorrent import perf_model

TERMS = ("math", "fill", "drain", "waits", "noc")
NEGLIGIBLE = 0.005  # an excess below this share of our cycles limits nothing (a few copy_tile reloads)


def core_terms(plan: Mapping[str, Any], report: Mapping[str, Any], fidelity: str) -> dict[str, float]:
    """The busiest core's modelled cycles by term; `noc` is its NoC stream beyond its compute stream (0 when
    compute-bound)."""
    est = perf_model.estimate(plan, report, fidelity=fidelity)
    perf = perf_model.device_perf(plan["device"]["name"])
    cores = report["cores"]
    writers = max(1, sum(1 for c in cores if c.get("dram_bytes_written", 0)))
    fill, drain = perf_model.pipeline_cycles(plan, perf_model.multicast_rate(cores, perf), perf, writers,
                                             perf_model.writes_to_l1(plan, cores))
    worst = max(est.cores, key=lambda c: c.cycles)
    busy = worst.compute_cycles + worst.pipeline_cycles
    return {"math": worst.compute_cycles, "fill": fill, "drain": drain, "waits": worst.wait_cycles,
            "noc": max(0.0, worst.noc_cycles - busy)}


def limit(ours: dict[str, float], theirs: dict[str, float], modelled_theirs: float, published: float) -> str:
    """The mechanism that keeps our row below tt-metal's published TF/s, in words with its k-cycles."""
    excess = {t: ours[t] - theirs[t] for t in TERMS}
    term = max(excess, key=lambda t: excess[t])
    if excess[term] > NEGLIGIBLE * sum(ours.values()):
        return (f"{term} +{excess[term] / 1e3:.1f}k cycles over tt-metal's "
                f"({ours[term] / 1e3:.1f}k vs {theirs[term] / 1e3:.1f}k)")
    return (f"no term above tt-metal's configuration; the model puts it at {modelled_theirs:.1f} TF/s against the "
            f"published {published:.1f} (host time or model error of that row)")

