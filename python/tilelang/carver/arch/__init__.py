"""`tilelang.carver.arch`: a GPU's facts for tuning (`CUDA("cuda")`, `CDNA("hip")`, `driver.get_num_sms()`)."""

from __future__ import annotations

from . import driver
from .gpu import CDNA, CUDA, GpuArch, auto_infer_current_arch

__all__ = ["CDNA", "CUDA", "GpuArch", "auto_infer_current_arch", "driver"]
