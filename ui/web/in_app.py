"""The scoreboard page served from the tablet app while a coach has it switched on.

The server listens only between ``start`` and ``stop`` (the switch in Settings), on the
tablet's local-network address (or one the coach typed), never on every interface. Each view
the controller publishes is handed to the hub, which builds the page on its own thread: the
command worker that just appended to the journal only stores a reference.
"""

from __future__ import annotations

import ipaddress
import logging
import socket
from typing import Any

from .hub import Hub
from .reference_link import rule_link
from .server import ScoreboardServer

log = logging.getLogger(__name__)

DEFAULT_PORT = 8765


def local_addresses() -> list[str]:
    """This device's private (local-network) IPv4 addresses, best first; no packet is sent."""
    found: list[str] = []
    names = {socket.gethostname(), socket.getfqdn()}
    for name in names:
        try:
            infos = socket.getaddrinfo(name, None, socket.AF_INET)
        except OSError:
            continue
        for info in infos:
            address = info[4][0]
            ip = ipaddress.ip_address(address)
            if ip.is_private and not ip.is_loopback and not ip.is_link_local and address not in found:
                found.append(address)
    found += _linux_addresses(found)
    return found


def _linux_addresses(known: list[str]) -> list[str]:
    """Addresses of the interfaces Linux (and Android) routes through, from /proc/net/route."""
    try:
        import fcntl
        import struct

        with open("/proc/net/route", encoding="ascii") as fh:
            names = {line.split()[0] for line in fh.readlines()[1:] if line.strip()}
    except (OSError, ImportError):
        return []
    out = []
    for name in sorted(names):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                packed = fcntl.ioctl(s.fileno(), 0x8915, struct.pack("256s", name[:15].encode()))  # SIOCGIFADDR
            address = socket.inet_ntoa(packed[20:24])
        except OSError:
            continue
        ip = ipaddress.ip_address(address)
        if ip.is_private and not ip.is_loopback and address not in known and address not in out:
            out.append(address)
    return out


class AppScoreboard:
    """The switch: ``start`` binds and serves, ``stop`` closes the socket."""

    def __init__(self) -> None:
        self.server: ScoreboardServer | None = None
        self.hub: Hub | None = None
        self._last: tuple | None = None

    @property
    def on(self) -> bool:
        return self.server is not None

    @property
    def url(self) -> str:
        return self.server.url if self.server is not None else ""

    def start(self, host: str, port: int = DEFAULT_PORT) -> str:
        """Serve on ``host``; returns the page's address. Raises TouchlineError with the reason
        (address not on this tablet, port taken)."""
        self.stop()
        hub = Hub(rule_link=rule_link)
        try:
            server = ScoreboardServer(hub, host, port)
        except Exception:
            hub.stop()
            raise
        self.hub, self.server = hub, server
        if self._last is not None:
            self._hand_on()
        log.info("scoreboard page on %s", server.url)
        return server.url

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()
        self.server = self.hub = None

    def offer(self, view: Any, match: Any) -> None:
        """A view the controller published (called on its worker thread: cheap)."""
        if match is None or view is None or not getattr(view, "active", False):
            return
        self._last = (view, match)
        if self.hub is not None:
            self._hand_on()

    def _hand_on(self) -> None:
        view, match = self._last
        events = match.events
        self.hub.offer_match(match.ruleset, view.state, view.log, events[-1] if events else None, view.error)

    @property
    def viewers(self) -> int:
        return self.server.viewers if self.server is not None else 0
