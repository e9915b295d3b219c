"""Transport: open a tray's port with pyserial's ``serial_for_url`` (a device path or COM
port, ``loop://``, ``socket://host:port``, ``rfc2217://host:port``), and turn the ways
that fails into one clear message that names the port and the fix."""

from __future__ import annotations

import errno
import os
import sys

import serial

from companion.errors import TouchlineError
from companion.teams import CodeEnum

BAUDRATE = 115200
READ_TIMEOUT = 0.05    # a read returns this soon with nothing, so timers and stop() run
WRITE_TIMEOUT = 1.0    # a tray that stops reading counts as gone


class PortTrouble(CodeEnum):
    MISSING = "missing"          # not there (yet): unplugged, or a wrong name
    PERMISSION = "permission"    # there, but this user may not open it
    BUSY = "busy"                # another program has it
    OTHER = "other"


class PortError(TouchlineError):
    """A port cannot be opened; the message says what to do."""

    def __init__(self, port: str, trouble: PortTrouble, message: str) -> None:
        super().__init__(message)
        self.port = port
        self.trouble = trouble


def open_port(url: str, baudrate: int = BAUDRATE, timeout: float = READ_TIMEOUT) -> serial.SerialBase:
    """An open port, exclusively ours where the platform allows; raises PortError."""
    try:
        port = serial.serial_for_url(url, baudrate=baudrate, timeout=timeout, write_timeout=WRITE_TIMEOUT,
                                     exclusive=True, do_not_open=True)
        port.open()
    except (serial.SerialException, OSError, ValueError) as exc:
        raise port_error(url, exc) from None
    return port


def port_error(port: str, exc: BaseException) -> PortError:
    """Classify an open failure by its errno (or, on Windows, its text)."""
    code = getattr(exc, "errno", None)
    text = str(exc)
    lowered = text.lower()
    if code in (errno.ENOENT, errno.ENODEV, errno.ENXIO) or "filenotfounderror" in lowered \
            or "cannot find the file" in lowered:
        return PortError(port, PortTrouble.MISSING,
                         f"{port}: no such port. Is the tray plugged in and switched on? List the ports with: "
                         f"python -m serial.tools.list_ports -v")
    if code in (errno.EACCES, errno.EPERM):
        return PortError(port, PortTrouble.PERMISSION, f"{port}: permission denied. {permission_fix(port)}")
    if code in (errno.EBUSY, errno.EAGAIN, errno.EWOULDBLOCK) or "exclusively lock" in lowered \
            or "access is denied" in lowered:
        return PortError(port, PortTrouble.BUSY,
                         f"{port} is busy: another program has it open (a serial monitor, ModemManager, another "
                         f"Touchline?). Close that program and try again" +
                         (f"; 'fuser {port}' shows which one" if sys.platform.startswith("linux") else ""))
    return PortError(port, PortTrouble.OTHER, f"{port}: cannot open the port: {text}")


def permission_fix(port: str) -> str:
    if sys.platform.startswith("linux"):
        group = _group_of(port) or "dialout"
        return (f"Add your user to the '{group}' group, which owns it: sudo usermod -aG {group} $USER, then log "
                f"out and back in")
    if sys.platform == "darwin":
        return "Check the port's owner and mode with: ls -l " + port
    return "Run Touchline as a user allowed to use serial ports"


def _group_of(path: str) -> str:
    try:
        import grp

        return grp.getgrgid(os.stat(path).st_gid).gr_name
    except (ImportError, KeyError, OSError):
        return ""
