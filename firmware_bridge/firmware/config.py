# The reference tray's wiring and dice. Edit to match your build; main.py reads it.
#
# Fublet's dice: each coach a black (tens) and a white d10, a shared green d8. Die ids are
# what HELLO and ROLL name, and what the host's dice file (fublet_dice.json) maps to coaches.

DEVICE_PREFIX = "TL"          # the device id is this plus the board's unique id: TL-7F3A2B
DICE = [                      # (kind, id, colour)
    ("d10", "home-black", "black"),
    ("d10", "home-white", "white"),
    ("d10", "away-black", "black"),
    ("d10", "away-white", "white"),
    ("d8", "green", "green"),
]
# The other games (the host's conventions, firmware_bridge/owners.py GAME_DICE, use these ids):
#   Football Leader: ("d12", "home-black", "black"), ("d12", "home-white", "white"), the same for away.
#   Futboard: ("d12", "home-black", "black"), ("d12", "away-black", "black").
#   Fussball-Liga variant: ("d6", "home-black", "black"), ("d6", "away-black", "black").
# (Remove the buttons' dice that are gone.)
BUTTONS = [                   # (GPIO pin, label on the display, dice it throws)
    (14, "HOME", ("home-black", "home-white")),
    (15, "AWAY", ("away-black", "away-white")),
    (16, "SCATTER", ("green",)),
]
TUMBLE_MS = 600               # ROLLING shows this long before the faces
LED_PIN = "LED"               # on-board LED for FLASH (a board without one: None)
I2C = (0, 4, 5)               # SSD1306 128x64 display: (bus, SDA pin, SCL pin), or None
BATTERY_ADC = 29              # Pico: VSYS/3 on ADC3 (GPIO29); None if not wired
BATTERY_EVERY_MS = 60000
PENDING_FILE = "pending.txt"  # unacknowledged rolls, kept across restarts
