"""Fault injection for the tray simulator: lost, changed and repeated bytes and frames.

Seeded, so a failing run can be repeated. Disconnects, reboots and a slow line are the
simulator's own (they are events, not byte mangling); their settings live here too.
"""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Faults:
    drop: float = 0.0           # chance that a byte from the tray is lost
    corrupt: float = 0.0        # chance that a byte from the tray arrives changed
    duplicate: float = 0.0      # chance that a frame from the tray arrives twice
    reply_drop: float = 0.0     # the same for bytes from the host (lost ACKs make resends)
    reply_corrupt: float = 0.0
    baud: int | None = None     # pace the tray's bytes as on a line this slow (10 bits a byte)

    def __post_init__(self) -> None:
        for name in ("drop", "corrupt", "duplicate", "reply_drop", "reply_corrupt"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{name} is a probability, 0..1, not {value!r}")
        if self.baud is not None and self.baud < 50:
            raise ValueError(f"baud must be 50 or more, not {self.baud!r}")


def mangle(data: bytes, rng: random.Random, drop: float, corrupt: float) -> bytes:
    """``data`` with each byte lost (``drop``) or changed to another value (``corrupt``)."""
    if not drop and not corrupt:
        return data
    out = bytearray()
    for byte in data:
        r = rng.random()
        if r < drop:
            continue
        if r < drop + corrupt:
            byte ^= rng.randrange(1, 256)
        out.append(byte)
    return bytes(out)
