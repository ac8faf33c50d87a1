"""`tilelang.carver.roller`: TileLang's configuration roller; only its rasterization plans exist here."""
