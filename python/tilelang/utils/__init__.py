"""TileLang's `tilelang.utils` helpers that examples import (`tilelang.utils.tensor`)."""
