# Dice-tray protocol, version 1: the tray's side, without hardware.
#
# The reference firmware (main.py) drives this with the button, the display and the USB
# serial port; Touchline's simulator (firmware_bridge/sim.py) drives the very same code
# over a pseudo-terminal, so the simulator behaves as the documented tray. MicroPython
# and CPython alike: no annotations, no f-strings, time passed in as milliseconds.
#
# What it does: HELLO at start and in answer to every PING, followed at once by its oldest
# unacknowledged roll (or a BEAT if it has none); one ROLL in flight at a time, resent every RESEND_MS until
# ACK or NAK names it by (boot, seq); BEAT when it has been quiet for BEAT_MS. Unacknowledged
# rolls are kept in a store that survives a restart (flash on the tray), and are resent
# under the boot and seq they were rolled with, so the host can tell them from new ones.

try:
    from . import trayproto  # inside Touchline's host package (the simulator)
except ImportError:
    import trayproto  # on the tray: a flat filesystem

FIRMWARE = "1.0.0"
BEAT_MS = 1000
RESEND_MS = 250
MAX_PENDING = 8
KINDS = {"d6": (1, 6), "d8": (1, 8), "d10": (0, 9), "d12": (1, 12)}


def randbelow(n, urandom):
    """A uniform integer in 0..n-1 (n <= 256) from random bytes, without modulo bias."""
    limit = 256 - 256 % n
    while True:
        b = urandom(1)[0]
        if b < limit:
            return b % n


def random_face(kind, urandom):
    low, high = KINDS[kind]
    return low + randbelow(high - low + 1, urandom)


class MemoryStore:
    """Unacknowledged rolls kept across restarts. The tray uses a file (see main.py)."""

    def __init__(self):
        self.rolls = []

    def load(self):
        return list(self.rolls)

    def save(self, rolls):
        self.rolls = list(rolls)


class Tray:
    """One tray. ``dice`` is a list of (kind, id, colour); ``write(bytes)`` sends a frame."""

    def __init__(self, device_id, dice, boot, write, store=None, firmware=FIRMWARE,
                 beat_ms=BEAT_MS, resend_ms=RESEND_MS, ticks_diff=None):
        self.device_id = device_id
        self.dice = dice
        self.kinds = {}
        for die in dice:
            self.kinds[die[1]] = die[0]
        self.boot = boot
        self.write = write
        self.store = store if store is not None else MemoryStore()
        self.firmware = firmware
        self.beat_ms = beat_ms
        self.resend_ms = resend_ms
        self.diff = ticks_diff if ticks_diff is not None else _diff
        self.decoder = trayproto.Decoder()
        self.seq = 0
        self.pending = self.store.load()  # [(boot, seq, dice text)], oldest first
        self.last_sent = 0
        self.last_roll_sent = None        # when the head of pending was last sent
        self.host_seen = None             # when a valid host frame last arrived
        self.on_flash = None              # callback(colour) for FLASH
        self.on_nak = None                # callback(reason) when the host refuses a roll
        self.errors = 0                   # frames from the host that did not decode

    # --- what the hardware calls -------------------------------------------------------------
    def start(self, now):
        self.hello(now)
        self._send_head(now)

    def poll(self, now):
        """Call often (every few ms): resends and heartbeats."""
        if self.pending and (self.last_roll_sent is None or self.diff(now, self.last_roll_sent) >= self.resend_ms):
            self._send_head(now)
        elif self.diff(now, self.last_sent) >= self.beat_ms:
            self.beat(now)

    def beat(self, now):
        self._send("BEAT", [("boot", self.boot), ("pending", len(self.pending))], now)

    def tumbling(self, ids, now):
        self._send("ROLLING", [("dice", ",".join(ids))], now)

    def full(self, now):
        """True if the queue of unacknowledged rolls is full: the tray says so to the host
        (ERROR code=queue-full) and should ask the player to wait."""
        if len(self.pending) >= MAX_PENDING:
            self.error("queue-full", "host-not-acknowledging", now)
            return True
        return False

    def roll(self, faces, now):
        """Report a roll: ``faces`` is [(die id, face)]. Returns its seq, or None if the
        queue of unacknowledged rolls is full (the tray should ask the player to wait)."""
        if self.full(now):
            return None
        parts = []
        for die_id, face in faces:
            parts.append("%s:%s:%d" % (self.kinds[die_id], die_id, face))
        seq = self._next()
        self.pending.append((self.boot, seq, ",".join(parts)))
        self.store.save(self.pending)
        if len(self.pending) == 1:
            self._send_head(now)
        return seq

    def roll_random(self, ids, urandom, now):
        faces = []
        for die_id in ids:
            faces.append((die_id, random_face(self.kinds[die_id], urandom)))
        self.roll(faces, now)
        return faces

    def battery(self, percent, millivolts, charging, now):
        self._send("BATTERY", [("percent", percent), ("mv", millivolts), ("charging", 1 if charging else 0)], now)

    def error(self, code, detail, now):
        self._send("ERROR", [("code", code), ("detail", detail)], now)

    def hello(self, now):
        dice = []
        for kind, die_id, colour in self.dice:
            dice.append("%s:%s" % (kind, die_id) if colour == die_id else "%s:%s:%s" % (kind, die_id, colour))
        self._send("HELLO", [("id", self.device_id), ("fw", self.firmware), ("proto", trayproto.PROTOCOL),
                             ("boot", self.boot), ("dice", ",".join(dice))], now)

    def receive(self, data, now):
        for item in self.decoder.feed(data):
            if item[0] != "frame":
                self.errors += 1
                continue
            mtype, fields = item[1], dict(item[3])
            if mtype == "PING":
                self.host_seen = now
                if fields.get("proto") != str(trayproto.PROTOCOL):
                    self.error("protocol", "host-speaks-%s" % fields.get("proto"), now)
                self.hello(now)
                if self.pending:
                    self._send_head(now)
                else:
                    self.beat(now)  # short: likelier to get through a noisy line than HELLO
            elif mtype == "ACK" or mtype == "NAK":
                self.host_seen = now
                self._settled(fields.get("boot"), fields.get("seq"), now)
                if mtype == "NAK" and self.on_nak:
                    self.on_nak(fields.get("reason"))
            elif mtype == "FLASH":
                self.host_seen = now
                if self.on_flash:
                    self.on_flash(fields.get("colour"))

    # --- inside ----------------------------------------------------------------------------------
    def _settled(self, boot, seq, now):
        if self.pending and boot == self.pending[0][0] and seq == str(self.pending[0][1]):
            self.pending.pop(0)
            self.store.save(self.pending)
            self.last_roll_sent = None
            if self.pending:
                self._send_head(now)

    def _send_head(self, now):
        if self.pending:
            boot, seq, dice = self.pending[0]
            self.write(trayproto.encode("ROLL", seq, [("boot", boot), ("dice", dice)]))
            self.last_sent = self.last_roll_sent = now

    def _send(self, mtype, fields, now):
        self.write(trayproto.encode(mtype, self._next(), fields))
        self.last_sent = now

    def _next(self):
        self.seq += 1
        return self.seq


def _diff(a, b):
    return a - b
