"""A small thread-safe least-recently-used map, local to this process: the one kind
of cache the live rendering keeps (frames, log tails, memoised template pieces)."""

from __future__ import annotations

from collections import OrderedDict
from threading import Lock
from typing import Any


class LRU:
    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[Any, Any] = OrderedDict()
        self.lock = Lock()

    def get(self, key: Any) -> Any:
        """The value, or None (None is never stored)."""
        with self.lock:
            value = self.items.get(key)
            if value is not None:
                self.items.move_to_end(key)
            return value

    def put(self, key: Any, value: Any) -> None:
        with self.lock:
            self.items[key] = value
            self.items.move_to_end(key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)
