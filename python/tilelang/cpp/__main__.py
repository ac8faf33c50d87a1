"""`python -m tilelang.cpp`: build the C++ passes now (once; later runs find them in the cache)."""

import time

from . import load

start = time.perf_counter()
print(f"C++ passes: {load()} ({time.perf_counter() - start:.1f} s)")
