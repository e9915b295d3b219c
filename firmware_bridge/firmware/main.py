# Touchline reference dice tray: MicroPython on an RP2040 (Raspberry Pi Pico) or an ESP32.
#
# Buttons throw dice (hardware RNG), a small display shows the faces, and the rolls go to
# Touchline over the USB serial port in the dice-tray protocol (docs/dice-tray-protocol.md),
# through traycore.py, the very code Touchline's simulator runs. Copy main.py, config.py,
# traycore.py and trayproto.py to the board (e.g. mpremote cp *.py :), plus ssd1306.py for
# the display (mpremote mip install ssd1306).
#
# The USB serial port is also MicroPython's REPL: nothing here prints, and Ctrl-C from the
# line is switched off, so only protocol frames go over it. Hold the first button while
# plugging the tray in to skip all this and leave the REPL to mpremote.

import os
import select
import sys
import time

import machine
import micropython

import config
import traycore

try:
    import ssd1306
except ImportError:
    ssd1306 = None


def urandom(n):
    # os.urandom comes from the hardware: the ESP32's RNG, the RP2040's ring oscillator.
    return os.urandom(n)


class FileStore:
    """Unacknowledged rolls in a small file, so a power cut loses none."""

    def __init__(self, name):
        self.name = name

    def load(self):
        rolls = []
        try:
            with open(self.name) as fh:
                for line in fh:
                    parts = line.split()
                    if len(parts) == 3:
                        rolls.append((parts[0], int(parts[1]), parts[2]))
        except OSError:
            pass
        return rolls

    def save(self, rolls):
        with open(self.name + ".new", "w") as fh:
            for boot, seq, dice in rolls:
                fh.write("%s %d %s\n" % (boot, seq, dice))
        os.rename(self.name + ".new", self.name)  # whole or not at all


class Screen:
    def __init__(self):
        self.oled = None
        if config.I2C and ssd1306:
            bus, sda, scl = config.I2C
            try:
                i2c = machine.I2C(bus, sda=machine.Pin(sda), scl=machine.Pin(scl))
                self.oled = ssd1306.SSD1306_I2C(128, 64, i2c)
            except Exception:
                self.oled = None  # no display wired: the tray still works

    def show(self, *lines):
        if self.oled is None:
            return
        self.oled.fill(0)
        for i, line in enumerate(lines[:6]):
            self.oled.text(line[:16], 0, i * 10)
        self.oled.show()


def device_id():
    uid = machine.unique_id()
    return "%s-%s" % (config.DEVICE_PREFIX, "".join("%02X" % b for b in uid[-3:]))


def read_host(poll, tray, now, host_open):
    """Hand what the host sent to the tray, at most a frame's worth per pass so the buttons
    and resends are served between. At end of input (a desktop's closed pipe; USB never ends)
    stop reading: a stream at its end is always "readable", and reading it would spin."""
    for _ in range(512):
        if not poll.poll(0):
            return
        try:
            data = sys.stdin.buffer.read(1)
        except OSError:
            return  # the line hung up (a pty with no reader): try again next pass
        if not data:
            poll.unregister(sys.stdin)
            host_open[0] = False
            return
        tray.receive(data, now)


def main():
    first_button = machine.Pin(config.BUTTONS[0][0], machine.Pin.IN, machine.Pin.PULL_UP)
    if first_button.value() == 0:
        return  # maintenance: the REPL stays usable
    micropython.kbd_intr(-1)
    out = sys.stdout.buffer
    screen = Screen()
    led = machine.Pin(config.LED_PIN, machine.Pin.OUT) if config.LED_PIN else None
    boot = "".join("%02X" % b for b in urandom(4))

    def write(frame):
        out.write(frame)

    tray = traycore.Tray(device_id(), config.DICE, boot, write, FileStore(config.PENDING_FILE),
                         ticks_diff=time.ticks_diff)
    flash_until = [0]

    def on_flash(colour):
        if led:
            led.value(1 if colour in ("green", "amber") else 0)
            flash_until[0] = time.ticks_add(time.ticks_ms(), 1500)
        screen.show("", colour.upper() if colour else "")

    def on_nak(reason):
        screen.show("ROLL AGAIN", str(reason))

    tray.on_flash = on_flash
    tray.on_nak = on_nak
    buttons = [(machine.Pin(pin, machine.Pin.IN, machine.Pin.PULL_UP), label, ids)
               for pin, label, ids in config.BUTTONS]
    was_down = [False] * len(buttons)
    throw_at = None
    throwing = None
    battery = machine.ADC(config.BATTERY_ADC) if config.BATTERY_ADC is not None else None
    last_battery = time.ticks_ms()
    poll = select.poll()
    poll.register(sys.stdin, select.POLLIN)
    host_open = [True]
    screen.show("TOUCHLINE TRAY", tray.device_id, "boot " + boot, "%d pending" % len(tray.pending))
    tray.start(time.ticks_ms())
    while True:
        now = time.ticks_ms()
        if host_open[0]:
            read_host(poll, tray, now, host_open)
        for i, (pin, label, ids) in enumerate(buttons):
            down = pin.value() == 0
            if down and not was_down[i] and throwing is None:
                if tray.full(now):  # tells the host too: ERROR code=queue-full
                    screen.show("WAIT", "host not", "answering")
                else:
                    tray.tumbling(ids, now)
                    screen.show(label, "rolling...")
                    throwing, throw_at = (label, ids), time.ticks_add(now, config.TUMBLE_MS)
            was_down[i] = down
        if throwing and time.ticks_diff(now, throw_at) >= 0:
            label, ids = throwing
            faces = tray.roll_random(ids, urandom, now)
            screen.show(label, *["%s %d" % (die_id, face) for die_id, face in faces])
            throwing = None
        if battery and time.ticks_diff(now, last_battery) >= config.BATTERY_EVERY_MS:
            mv = battery.read_u16() * 3 * 3300 // 65535
            tray.battery(max(0, min(100, (mv - 3300) * 100 // 900)), mv, mv > 4300, now)
            last_battery = now
        if led and flash_until[0] and time.ticks_diff(now, flash_until[0]) >= 0:
            led.value(0)
            flash_until[0] = 0
        tray.poll(now)
        time.sleep_ms(5)


main()
