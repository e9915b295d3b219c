# A stand-in for MicroPython's `machine` module, so the tray's own main.py runs unmodified
# under MicroPython's unix port in the tests. A button is pressed through a file: the test
# writes a pin number to press.txt; the next read of that pin takes the file away and reads
# down, and the read after it reads up again.

import os

PRESS = "press.txt"


def _pressed(pin):
    try:
        with open(PRESS) as fh:
            wanted = fh.read().strip()
    except OSError:
        return False
    if wanted != str(pin):
        return False
    os.remove(PRESS)
    return True


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 2

    def __init__(self, pin, mode=IN, pull=None):
        self.pin = pin
        self.mode = mode
        self.level = 1
        self.down = False

    def value(self, level=None):
        if level is not None:  # an output (the LED)
            self.level = level
            return None
        if self.mode != Pin.IN:
            return self.level
        if self.down:  # released after one read
            self.down = False
            return 1
        if _pressed(self.pin):
            self.down = True
            return 0
        return 1


class I2C:
    def __init__(self, bus, sda=None, scl=None):
        self.bus = bus


class ADC:
    def __init__(self, channel):
        self.channel = channel

    def read_u16(self):
        return 52000  # about 4.2 V on VSYS/3


def unique_id():
    return b"\x00\x00\x00\x7f\x3a\x2b"
