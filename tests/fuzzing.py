"""The size of the fuzz campaigns (Hypothesis). By default each campaign is small and deterministic: a fixed seed
per test (the same examples every run, so a failure reproduces and `make test` stays short). TILELANG_FUZZ=full
runs the large campaigns with fresh random examples (and Hypothesis' example database), e.g. before a release:

    TILELANG_FUZZ=full python -m pytest tests/generator/test_fuzz_specs.py tests/generator/test_emitter_fuzz.py
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

MODES = ("", "full")
MODE = os.environ.get("TILELANG_FUZZ", "")
if MODE not in MODES:
    raise ValueError(f"TILELANG_FUZZ={MODE!r}: set it to 'full' (the large random campaigns) or leave it unset")
FULL = MODE == "full"


def campaign(default: int, full: int) -> settings:
    """`default` examples from a fixed seed, or `full` random ones under TILELANG_FUZZ=full; no deadline (an
    example may run the generator or g++)."""
    return settings(max_examples=full if FULL else default, derandomize=not FULL, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                           HealthCheck.data_too_large])
