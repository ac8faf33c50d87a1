"""A cache that builds each key once, also when several threads ask for it at the same time (the jit caches:
compiling a kernel takes long enough that concurrent first calls would otherwise each compile it)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class OnceCache(Generic[V]):
    def __init__(self) -> None:
        self._values: dict[Hashable, V] = {}
        self._lock = threading.Lock()
        self._building: dict[Hashable, threading.Lock] = {}

    def __contains__(self, key: Hashable) -> bool:
        with self._lock:
            return key in self._values

    def __len__(self) -> int:
        with self._lock:
            return len(self._values)

    def get(self, key: Hashable, build: Callable[[], V]) -> V:
        """The value of `key`, built by `build()` by the first caller; the others wait for it. A build that raises
        is not cached (the next caller builds again)."""
        with self._lock:
            if key in self._values:
                return self._values[key]
            key_lock = self._building.setdefault(key, threading.Lock())
        with key_lock:
            with self._lock:
                if key in self._values:
                    return self._values[key]
            value = build()
            with self._lock:
                self._values[key] = value
                self._building.pop(key, None)
            return value
