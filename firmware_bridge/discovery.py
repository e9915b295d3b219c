"""Finding the tray: ``serial.tools.list_ports`` by USB VID:PID, then asking each
candidate for a HELLO. Only USB ports are ever probed, and ports of other makers only
when asked (``probe_all``): a PING line is harmless to a tray but not ours to send to a
stranger's device unbidden."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Callable, Iterable

import serial
from serial.tools import list_ports
from serial.tools.list_ports_common import ListPortInfo

from . import messages as m
from .framing import Decoder, Frame
from .transport import BAUDRATE, PortError, PortTrouble, open_port

log = logging.getLogger(__name__)

# USB ids of boards the reference firmware runs on, as MicroPython enumerates them.
KNOWN_USB_IDS: dict[tuple[int, int], str] = {
    (0x2E8A, 0x0005): "Raspberry Pi RP2040 (MicroPython)",
    (0x303A, 0x4001): "Espressif ESP32-S2/S3 native USB (MicroPython)",
}


@dataclass(frozen=True, slots=True)
class Found:
    port: str
    hello: m.Hello


def candidates(ports: Iterable[ListPortInfo] | None = None, probe_all: bool = False) -> list[ListPortInfo]:
    """USB serial ports worth asking: known VID:PID first, then (with ``probe_all``) any
    other USB port, e.g. an ESP32 behind a CP210x or CH340 bridge."""
    ports = list(list_ports.comports() if ports is None else ports)
    known = [p for p in ports if (p.vid, p.pid) in KNOWN_USB_IDS]
    others = [p for p in ports if p.vid is not None and p not in known] if probe_all else []
    return sorted(known, key=lambda p: p.device) + sorted(others, key=lambda p: p.device)


def probe(url: str, timeout: float = 1.5, opener: Callable[[str], serial.SerialBase] | None = None) -> m.Hello | None:
    """Ask a port for a HELLO; None if it gives none in time or cannot be opened."""
    try:
        port = (opener or (lambda u: open_port(u, BAUDRATE)))(url)
    except PortError as exc:
        log.info("not probing %s", exc)
        return None
    decoder = Decoder()
    try:
        port.write(m.to_bytes(m.Ping(1)))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for item in decoder.feed(port.read(port.in_waiting or 1)):
                if isinstance(item, Frame) and item.type == "HELLO":
                    try:
                        return m.parse(item)
                    except m.MessageError as exc:
                        log.info("%s answers, but: %s", url, exc)
                        return None
    except (serial.SerialException, OSError) as exc:
        log.info("%s: probe failed: %s", url, exc)
    finally:
        port.close()
    return None


def find_tray(probe_all: bool = False, timeout: float = 1.5,
              ports: Iterable[ListPortInfo] | None = None) -> Found:
    """The first port whose device says HELLO; raises PortError (MISSING) naming what was tried."""
    tried = candidates(ports, probe_all)
    for info in tried:
        hello = probe(info.device, timeout)
        if hello is not None:
            log.info("found tray %s on %s", hello.device, info.device)
            return Found(info.device, hello)
    names = ", ".join(p.device for p in tried) or "no USB serial port with a known tray's USB id"
    hint = "" if probe_all else "; to ask every USB serial port, add --probe-all"
    raise PortError("auto", PortTrouble.MISSING, f"no dice tray found (tried: {names}). Plug the tray in, or name "
                                                 f"its port{hint}")


def discovering_opener(baudrate: int = BAUDRATE, probe_all: bool = False) -> Callable[[], serial.SerialBase]:
    """An opener for ``TraySession`` that finds the tray again at every reconnect."""
    def opener() -> serial.SerialBase:
        return open_port(find_tray(probe_all).port, baudrate)
    return opener
