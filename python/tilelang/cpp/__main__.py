"""`python -m tilelang.cpp [passes|emulator ...]`: rebuild a checkout's C++ libraries (incremental CMake build)."""

import sys

from .build import main

sys.exit(main())
