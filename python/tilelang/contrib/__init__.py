"""`tilelang.contrib`: helpers around the toolchains (TileLang's `tilelang.contrib.nvcc`)."""
