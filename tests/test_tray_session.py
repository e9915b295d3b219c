"""The session over real transports: pyserial's ``loop://`` and pseudo-terminals (the tray
simulator), with each of the simulator's faults end to end; and the port errors a person
sees. Waits are event-based with generous bounds; nothing here asserts a speed."""

from __future__ import annotations

import errno
import os
import queue
import time

import pytest
import serial

from firmware_bridge.faults import Faults
from firmware_bridge.framing import encode, frame_of
from firmware_bridge.notices import RollReceived, TrayConnected, TrayDisconnected, TrayProblem, TrayRebooted
from firmware_bridge.session import Backoff, TraySession
from firmware_bridge.sim import TraySim
from firmware_bridge.transport import PortError, PortTrouble, open_port, port_error
from firmware_bridge.wire import FlashColour, Reject

WAIT = 20.0  # seconds; generous for a loaded 2-core machine, and only reached on failure


def take(q: queue.Queue, kind: type, timeout: float = WAIT):
    """The next notice of ``kind`` (others are skipped), or fail after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            pytest.fail(f"no {kind.__name__} within {timeout} s")
        try:
            notice = q.get(timeout=left)
        except queue.Empty:
            continue
        if isinstance(notice, kind):
            return notice


def drain(q: queue.Queue) -> list:
    out = []
    while True:
        try:
            out.append(q.get_nowait())
        except queue.Empty:
            return out


def rolls_in(q: queue.Queue, notices: list | None = None) -> list:
    return [n.roll for n in (drain(q) if notices is None else notices) if isinstance(n, RollReceived)]


def check_delivery(sim: TraySim, rolls: list) -> None:
    """Every roll the tray made arrived once, in order, with its faces."""
    assert [r.device for r in rolls] == [f"tray {sim.device_id} boot={m.boot}#{m.seq}" for m in sim.made]
    for made, roll in zip(sim.made, rolls):
        assert roll.faces == tuple(int(d.rsplit(":", 1)[1]) for d in made.dice.split(","))


# --- loop:// -------------------------------------------------------------------------------------------

def test_loop_url_session_reads_frames_written_to_the_port():
    port = serial.serial_for_url("loop://", timeout=0.05)
    session = TraySession("loop://", opener=lambda: port)
    with session:
        port.write(encode(frame_of("HELLO", 1, id="LOOP-1", fw="0", proto=1, boot="0000000A", dice="d6:red")))
        assert take(session.notices, TrayConnected).device == "LOOP-1"
        port.write(b"noise" + encode(frame_of("ROLL", 2, boot="0000000A", dice="d6:red:6")))
        roll = take(session.notices, RollReceived).roll
    assert roll.faces == (6,) and roll.dice[0].die.colour == "red"
    assert session.counters.rejected[Reject.GARBAGE] >= 1
    assert session.counters.rejected[Reject.WRONG_DIRECTION] >= 1  # loop:// echoes our PING and ACK back


def test_open_port_accepts_urls():
    with open_port("loop://") as port:
        port.write(b"x")
        assert port.read(1) == b"x"


# --- a real pty: the simulator ------------------------------------------------------------------------------

@pytest.fixture
def sim():
    with TraySim(seed=11, resend_ms=100) as tray:
        yield tray


def session_for(sim: TraySim, wake=None) -> TraySession:
    return TraySession(str(sim.link), wake=wake).start()


def test_rolls_arrive_over_a_pty_and_wake_is_called(sim):
    woken = []
    session = session_for(sim, wake=lambda: woken.append(1))
    try:
        hello = take(session.notices, TrayConnected)
        assert hello.device == sim.device_id and hello.boot == sim.boots[-1]
        sim.roll("home", [4, 0])
        sim.roll("scatter")
        assert sim.wait_settled(2, WAIT)
    finally:
        session.stop()
    check_delivery(sim, rolls_in(session.notices))
    assert woken


@pytest.mark.parametrize("faults", [
    Faults(drop=0.02),
    Faults(corrupt=0.02),
    Faults(duplicate=0.5),
    Faults(reply_drop=0.01, reply_corrupt=0.01),
    Faults(baud=4800),
], ids=["dropped bytes", "corrupted bytes", "duplicated frames", "lost acks", "slow baud"])
def test_fault_modes_lose_nothing_and_double_nothing(faults):
    with TraySim(seed=5, faults=faults, resend_ms=100) as sim:
        session = session_for(sim)
        try:
            for i in range(12):
                sim.roll(("home", "away", "scatter")[i % 3])
                assert sim.wait_settled(i + 1, WAIT)
        finally:
            session.stop()
        check_delivery(sim, rolls_in(session.notices))


def test_disconnects_and_reboots_mid_frame_lose_nothing(sim):
    session = session_for(sim)
    try:
        take(session.notices, TrayConnected)
        sim.roll("home")
        sim.disconnect(0.3)           # the cable out with a roll maybe unacknowledged
        sim.roll("away")              # rolled while the cable is out: kept until it is back
        assert sim.wait_settled(2, WAIT)
        sim.roll("home")
        sim.reboot(mid_frame=True)    # restart halfway through a frame
        sim.roll("scatter")
        assert sim.wait_settled(4, WAIT)
    finally:
        session.stop()
    notices = drain(session.notices)
    assert [n.boot for n in notices if isinstance(n, TrayRebooted)] == [sim.boots[-1]]
    assert len(sim.returned) == 1 and len(sim.boots) == 2
    assert session.counters.connects >= 2 and session.counters.reboots == 1
    check_delivery(sim, rolls_in(session.notices, notices))


def test_reconnects_after_the_port_returns(sim):
    session = session_for(sim)
    try:
        take(session.notices, TrayConnected)
        sim.disconnect(0.5)
        take(session.notices, TrayDisconnected)
        take(session.notices, TrayConnected)   # notices are in order: this one is the reconnect
        assert len(sim.returned) == 1
        sim.roll("away", [9, 9])
        assert sim.wait_settled(1, WAIT)
    finally:
        session.stop()


def test_flash_reaches_the_tray(sim):
    seen = []
    sim.tray.on_flash = seen.append
    session = session_for(sim)
    try:
        assert session.connected.wait(WAIT)
        session.flash(FlashColour.RED)
        deadline = time.monotonic() + WAIT
        while not seen and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        session.stop()
    assert seen == ["red"]


def test_a_roll_with_an_impossible_face_is_refused_and_not_resent(sim):
    session = session_for(sim)
    try:
        assert session.connected.wait(WAIT)
        sim.roll_raw("d10:home-black:12,d10:home-white:0")
        problem = take(session.notices, TrayProblem)
        assert "0..9" in problem.message and "roll again" in problem.message
        sim.roll("home", [1, 2])
        assert sim.wait_settled(1, WAIT)  # the NAK cleared the bad roll from the tray
    finally:
        session.stop()
    [roll] = rolls_in(session.notices)
    assert roll.faces == (1, 2)
    assert session.counters.naks == 1


def test_stop_is_prompt_even_while_waiting_for_a_missing_port(tmp_path):
    session = TraySession(str(tmp_path / "nothing-here"), backoff=Backoff(0.05, 0.1)).start()
    problem = take(session.notices, TrayProblem)
    assert "no such port" in problem.message and "plugged in" in problem.message
    started = time.monotonic()
    session.stop(timeout=WAIT)
    assert time.monotonic() - started < WAIT


# --- port errors a person sees ---------------------------------------------------------------------------

def test_a_busy_port_names_the_port_and_the_fix(sim):
    first = open_port(str(sim.link))
    try:
        with pytest.raises(PortError) as caught:
            open_port(str(sim.link))
    finally:
        first.close()
    assert caught.value.trouble is PortTrouble.BUSY
    assert str(sim.link) in str(caught.value) and "another program" in str(caught.value)


@pytest.mark.parametrize("exc, trouble, words", [
    (serial.SerialException(errno.EACCES, "could not open port /dev/ttyACM0: [Errno 13] Permission denied"),
     PortTrouble.PERMISSION, ["/dev/ttyACM0", "permission denied"]),
    (serial.SerialException(errno.EBUSY, "could not open port /dev/ttyACM0: [Errno 16] busy"),
     PortTrouble.BUSY, ["/dev/ttyACM0", "busy"]),
    (serial.SerialException(errno.ENOENT, "could not open port /dev/ttyACM0: [Errno 2] No such file"),
     PortTrouble.MISSING, ["/dev/ttyACM0", "plugged in"]),
    (serial.SerialException("could not open port 'COM3': PermissionError(13, 'Access is denied.', None, 5)"),
     PortTrouble.BUSY, ["COM3"]),
    (serial.SerialException("something else entirely"), PortTrouble.OTHER, ["something else"]),
])
def test_open_errors_are_classified_with_a_fix(exc, trouble, words):
    port = "COM3" if "COM3" in str(exc) else "/dev/ttyACM0"
    error = port_error(port, exc)
    assert error.trouble is trouble
    for word in words:
        assert word in str(error)


@pytest.mark.skipif(not os.path.exists("/dev/null") or not hasattr(os, "geteuid"), reason="POSIX only")
def test_permission_fix_names_the_group_on_linux(monkeypatch):
    import sys

    from firmware_bridge import transport

    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setattr(transport, "_group_of", lambda path: "dialout")
    message = str(port_error("/dev/ttyACM0", serial.SerialException(errno.EACCES, "denied")))
    assert "sudo usermod -aG dialout $USER" in message and "log out" in message


def test_socket_url_reaches_a_tray_over_tcp():
    """``socket://`` (a tray behind a serial-to-network bridge): the reference tray's code
    serving one connection on the loopback address."""
    import socket
    import threading

    from firmware_bridge.firmware import traycore
    from firmware_bridge.sim import REFERENCE_DICE

    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    done = threading.Event()

    def serve() -> None:
        conn, _ = server.accept()
        conn.settimeout(0.01)
        tray = traycore.Tray("NET-1", list(REFERENCE_DICE), "0000BEEF", conn.sendall)
        start = time.monotonic()
        ms = lambda: int((time.monotonic() - start) * 1000)  # noqa: E731
        tray.start(ms())
        tray.roll([("green", 7)], ms())
        while not done.is_set():
            try:
                data = conn.recv(4096)
            except socket.timeout:
                data = b""
            if data:
                tray.receive(data, ms())
            tray.poll(ms())
        conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    session = TraySession(f"socket://127.0.0.1:{port}").start()
    try:
        roll = take(session.notices, RollReceived).roll
    finally:
        done.set()
        session.stop()
        thread.join(WAIT)
        server.close()
    assert roll.faces == (7,) and roll.device == "tray NET-1 boot=0000BEEF#2"
