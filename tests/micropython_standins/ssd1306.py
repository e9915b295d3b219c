# A stand-in for the SSD1306 display driver: each show() appends the screen's text lines to
# display.txt, joined by "|", so the test can read what the tray showed the player.

DISPLAY = "display.txt"


class SSD1306_I2C:
    def __init__(self, width, height, i2c):
        self.lines = []

    def fill(self, colour):
        self.lines = []

    def text(self, line, x, y):
        self.lines.append(line)

    def show(self):
        with open(DISPLAY, "a") as fh:
            fh.write("|".join(self.lines) + "\n")
