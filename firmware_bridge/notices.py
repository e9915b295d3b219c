"""What the bridge puts on the queue for the consumer (the feed, the UI, ``tray-listen``).

Rolls from every source arrive as ``RollReceived``; the rest tells people what the tray is
doing (connected, tumbling, battery low, a problem with the port and how to fix it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from companion.dice import Roll


@dataclass(frozen=True, slots=True)
class RollReceived:
    """A roll for the rules core. ``request`` names the pending request it answers, when
    the source knows (the keypad does; a tray does not: the core matches it by its dice)."""

    roll: Roll
    request: str | None = None


@dataclass(frozen=True, slots=True)
class TrayConnected:
    port: str
    device: str
    firmware: str
    boot: str
    dice: tuple[str, ...]  # as HELLO lists them: "d10:home-black:black"


@dataclass(frozen=True, slots=True)
class TrayRebooted:
    port: str
    device: str
    boot: str
    previous: str


@dataclass(frozen=True, slots=True)
class TrayDisconnected:
    port: str
    reason: str


@dataclass(frozen=True, slots=True)
class TrayProblem:
    """Something a person must fix (the port is busy, the tray speaks another protocol...)."""

    port: str
    message: str


@dataclass(frozen=True, slots=True)
class DiceTumbling:
    device: str
    dice: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BatteryReport:
    device: str
    percent: int
    charging: bool | None = None


@dataclass(frozen=True, slots=True)
class TrayFault:
    """The tray reported an ERROR (its own fault, e.g. ``code='rng'``)."""

    device: str
    code: str
    detail: str = ""


Notice = Union[RollReceived, TrayConnected, TrayRebooted, TrayDisconnected, TrayProblem, DiceTumbling,
               BatteryReport, TrayFault]
