"""GPU architectures for tuning: `CUDA("cuda")` reads the device through the CUDA runtime (`driver`); `CDNA("hip")`
names an AMD GPU, whose runtime this project does not read (a TileLangError naming it)."""

from __future__ import annotations

from typing import Any

from ...errors import TileLangError
from . import driver


class GpuArch:
    """A GPU's tuning facts: streaming multiprocessors, shared memory and registers per block, compute capability."""

    platform = ""

    def __init__(self, target: Any = "", device_id: int = 0) -> None:
        self.target = target
        self.device_id = device_id


class CUDA(GpuArch):
    platform = "CUDA"

    def __init__(self, target: Any = "cuda", device_id: int = 0) -> None:
        super().__init__(target, device_id)
        self.compute_max_core = driver.cuda_num_sms(device_id)
        self.smem_cap = driver.get_shared_memory_per_block(device_id)
        self.reg_cap = driver.get_registers_per_block(device_id)
        self.compute_capability = "sm_{}{}".format(*driver.get_compute_capability(device_id))


class CDNA(GpuArch):
    platform = "CDNA"

    def __init__(self, target: Any = "hip", device_id: int = 0) -> None:
        raise TileLangError("tilelang.carver.arch.CDNA: the HIP runtime's device facts are not read by this project")


def auto_infer_current_arch() -> GpuArch:
    """The CUDA device of this machine (a TileLangError naming the query when there is none)."""
    return CUDA("cuda")
