"""The dice-tray protocol's constants: message types, limits, timings, reasons.

Everything here is what goes on the wire or what both ends must agree on; it is
documented in docs/dice-tray-protocol.md, and the reference firmware repeats the values.
"""

from __future__ import annotations

from companion.teams import CodeEnum

PROTOCOL_VERSION = 1
MAX_FRAME = 512          # bytes from "$" to "\n" inclusive; a longer line is dropped
MAX_SEQ = 2**32 - 1      # sequence numbers never wrap within one boot
START, CHECK, END = b"$", b"*", b"\n"

# Timings, in seconds. The device's are what the reference firmware does; the host
# tolerates any, and only relies on hearing something at least every SILENCE.
BEAT_INTERVAL = 1.0      # a device sends BEAT when it has sent nothing else for this long
RESEND_INTERVAL = 0.25   # a device resends its oldest unacknowledged ROLL this often
SILENCE = 3.0            # the host reconnects after hearing no valid frame for this long


class Direction(CodeEnum):
    DEVICE = "device"    # sent by the tray
    HOST = "host"        # sent by Touchline


class MsgType(CodeEnum):
    # tray -> host
    HELLO = "HELLO"
    BEAT = "BEAT"
    ROLLING = "ROLLING"
    ROLL = "ROLL"
    BATTERY = "BATTERY"
    ERROR = "ERROR"
    # host -> tray
    PING = "PING"
    ACK = "ACK"
    NAK = "NAK"
    FLASH = "FLASH"

    @property
    def direction(self) -> Direction:
        return Direction.HOST if self in _HOST_TYPES else Direction.DEVICE


_HOST_TYPES = frozenset({MsgType.PING, MsgType.ACK, MsgType.NAK, MsgType.FLASH})


class Reject(CodeEnum):
    """Why received bytes did not become a message. The first five come from framing."""

    GARBAGE = "garbage"              # bytes outside any frame
    TRUNCATED = "truncated"          # a frame cut short by the next "$"
    OVERLONG = "overlong"            # no "\n" within MAX_FRAME bytes
    CHECKSUM = "checksum"            # missing or wrong CRC
    MALFORMED = "malformed"          # CRC fine, but not the frame grammar
    UNKNOWN_TYPE = "unknown-type"    # a message type this host does not know
    WRONG_DIRECTION = "wrong-direction"  # a host message (an echo?) arriving at the host
    BAD_FIELD = "bad-field"          # a missing or invalid field for its message type
    BAD_DIE = "bad-die"              # an unknown die kind, or a face out of its range
    WRONG_VERSION = "wrong-version"  # the tray speaks another protocol version
    NO_HELLO = "no-hello"            # a roll before the tray introduced itself (resent later)
    DUPLICATE = "duplicate"          # a roll already received (its ACK was lost): acked again
    OUT_OF_ORDER = "out-of-order"    # a roll numbered below the last with no restart seen: held, PING


class NakReason(CodeEnum):
    """Why the host refuses a roll it received intact (the tray stops resending it)."""

    BAD_DIE = "bad-die"        # unknown kind or face out of range: a firmware bug
    MALFORMED = "malformed"    # the ROLL's fields do not parse


class FlashColour(CodeEnum):
    """Feedback the host may ask the tray to show, e.g. for a passed or failed test."""

    GREEN = "green"
    RED = "red"
    AMBER = "amber"
    OFF = "off"
