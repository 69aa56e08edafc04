"""What Java computes that Android's answers depend on, for the toolkit and the system alike."""

from __future__ import annotations

import functools


@functools.lru_cache(maxsize=1024)
def java_hash(text: str) -> int:
    """``String.hashCode()``: a signed 32-bit int over the UTF-16 code units (a letter tile's colour, a bucket id)."""
    h = 0
    data = text.encode("utf-16-be")
    for i in range(0, len(data), 2):
        h = (31 * h + (data[i] << 8 | data[i + 1])) & 0xFFFFFFFF
    return h - (1 << 32) if h >= 1 << 31 else h
