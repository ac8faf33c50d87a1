"""Block rasterization plans (the order a grid's blocks are walked for L2 reuse; `T.use_swizzle` in a kernel).

The backends here run blocks in grid order (CPU loops, Tenstorrent's own work partition), so a plan is a
description a tuner reports, not a transformation applied."""

from __future__ import annotations


class Rasterization:
    """A rasterization plan: blocks walked in panels of `panel_width` along `order` ("row" or "column")."""

    order = ""

    def __init__(self, panel_width: int = 8) -> None:
        self.panel_width = panel_width

    def __repr__(self) -> str:
        return f"{type(self).__name__}(panel_width={self.panel_width})"


class NoRasterization(Rasterization):
    """The grid's own order."""

    def __init__(self) -> None:
        super().__init__(1)

    def __repr__(self) -> str:
        return "NoRasterization()"


class Rasterization2DRow(Rasterization):
    order = "row"


class Rasterization2DColumn(Rasterization):
    order = "column"
