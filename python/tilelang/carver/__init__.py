"""`tilelang.carver`: TileLang's hardware-aware tuning helpers, as far as the backends here can honour them.

TileLang's carver describes a GPU (`arch.CUDA`, `arch.CDNA`, read from the device's driver), recommends tile
configurations for a kernel template with its "roller" (`template.MatmulTemplate(...).recommend_hints()`) and names
block rasterization plans (`roller.rasterization`). Here the device facts are read from the CUDA runtime when one is
installed with a device (`arch.driver`), the rasterization plans are plain descriptions, and the roller, which this
project does not implement, is a TileLangError naming the call: the examples that import it pick their block sizes
from a fixed list when not asked to use it.
"""
