# Dice-tray protocol, version 1: framing for the reference firmware.
#
# Pure MicroPython (also runs under CPython, where Touchline's tests check it against the
# shared test vectors in firmware_bridge/vectors.json). No I/O, no allocation per byte
# beyond the line buffer. Frames look like
#     $ROLL 17 boot=5B1E9C02 dice=d10:home-black:4,d10:home-white:0*6795\r\n
# see docs/dice-tray-protocol.md.

PROTOCOL = 1
MAX_FRAME = 512          # bytes from "$" to "\n" inclusive
MAX_SEQ = 4294967295

_DOLLAR, _STAR, _CR, _LF = 36, 42, 13, 10
_HUNT, _FRAME, _SKIP = 0, 1, 2


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE, bit by bit (no table: RAM is scarce)."""
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            if crc & 0x8000:
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF
            else:
                crc = (crc << 1) & 0xFFFF
    return crc


def encode(mtype, seq, fields=()):
    """Bytes for one frame; ``fields`` is a sequence of (key, value) strings."""
    body = mtype + " " + str(seq)
    for key, value in fields:
        body += " " + key + "=" + str(value)
    body = body.encode()
    return b"$" + body + b"*" + ("%04X" % crc16(body)).encode() + b"\r\n"


def _is_type(b):
    if not 1 <= len(b) <= 12:
        return False
    for c in b:
        if not 65 <= c <= 90:
            return False
    return True


def _is_seq(b):
    if not 1 <= len(b) <= 10 or (len(b) > 1 and b[0] == 48):
        return False
    for c in b:
        if not 48 <= c <= 57:
            return False
    return int(b.decode()) <= MAX_SEQ


def _is_key(b):
    if not 1 <= len(b) <= 16 or not 97 <= b[0] <= 122:
        return False
    for c in b:
        if not (97 <= c <= 122 or 48 <= c <= 57 or c == 95):
            return False
    return True


def _is_value(b):
    if not b:
        return False
    for c in b:
        if c < 33 or c > 126 or c == _DOLLAR or c == _STAR:
            return False
    return True


def _is_hex4(b):
    if len(b) != 4:
        return False
    for c in b:
        if not (48 <= c <= 57 or 65 <= c <= 70 or 97 <= c <= 102):
            return False
    return True


def parse_line(line):
    """One line from "$" up to its "\n" (excluded): ("frame", type, seq, [(key, value)...])
    or ("reject", reason)."""
    if line and line[-1] == _CR:
        line = line[:-1]
    star = line.rfind(b"*")
    if not line or line[0] != _DOLLAR or star < 0 or not _is_hex4(line[star + 1:]):
        return ("reject", "checksum")
    body = line[1:star]
    if crc16(body) != int(line[star + 1:].decode(), 16):
        return ("reject", "checksum")
    parts = body.split(b" ")
    if len(parts) < 2 or not _is_type(parts[0]) or not _is_seq(parts[1]):
        return ("reject", "malformed")
    fields = []
    keys = []
    for part in parts[2:]:
        eq = part.find(b"=")
        if eq < 0:
            return ("reject", "malformed")
        key, value = part[:eq], part[eq + 1:]
        if not _is_key(key) or not _is_value(value) or key in keys:
            return ("reject", "malformed")
        keys.append(key)
        fields.append((key.decode(), value.decode()))
    return ("frame", parts[0].decode(), int(parts[1].decode()), fields)


class Decoder:
    """Bytes in, frames and rejections out; resynchronises on "$" after garbage."""

    def __init__(self, max_frame=MAX_FRAME):
        self.buf = bytearray(max_frame)
        self.n = 0               # bytes of the current frame in buf
        self.limit = max_frame - 1
        self.state = _HUNT
        self.junk = 0            # garbage bytes in the current run

    def feed(self, data):
        out = []
        for c in data:
            if self.state == _HUNT:
                if c == _DOLLAR:
                    if self.junk:
                        out.append(("reject", "garbage"))
                        self.junk = 0
                    self._start()
                elif c != _CR and c != _LF:
                    self.junk += 1
            elif self.state == _FRAME:
                if c == _DOLLAR:
                    out.append(("reject", "truncated"))
                    self._start()
                elif c == _LF:
                    out.append(parse_line(bytes(self.buf[:self.n])))
                    self.state = _HUNT
                elif self.n >= self.limit:
                    out.append(("reject", "overlong"))
                    self.state = _SKIP
                else:
                    self.buf[self.n] = c
                    self.n += 1
            elif c == _DOLLAR:       # skipping an overlong line
                self._start()
            elif c == _LF:
                self.state = _HUNT
        if self.junk:
            out.append(("reject", "garbage"))
            self.junk = 0
        return out

    def _start(self):
        self.buf[0] = _DOLLAR
        self.n = 1
        self.state = _FRAME
