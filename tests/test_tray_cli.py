"""``touchline tray-sim`` and ``touchline tray-listen``, as a person runs them (separate
processes over a real pty), their expected failures (one line on stderr, status 2, no
traceback), and finding a tray by its USB id."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from serial.tools.list_ports_common import ListPortInfo

from companion.cli import main
from firmware_bridge import discovery
from firmware_bridge.notices import RollReceived
from firmware_bridge.session import TraySession
from firmware_bridge.sim import TraySim
from firmware_bridge.transport import PortError, open_port

ROOT = Path(__file__).resolve().parents[1]
# Only a guard against hangs: every wait below returns as soon as what it waits for comes (the
# simulator's --settle and the listener's --timeout too), so a slow, loaded machine is never
# mistaken for a broken tray.
WAIT = 120.0


def touchline(*argv, **kwargs) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "companion.cli", *map(str, argv)], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kwargs)


def first_line(proc: subprocess.Popen) -> str:
    """The first line a child prints on stdout (the simulator's port path), or fail after WAIT."""
    got: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: got.put(proc.stdout.readline()), daemon=True).start()
    try:
        return got.get(timeout=WAIT).strip()
    except queue.Empty:
        pytest.fail(f"{proc.args[3:5]} printed nothing within {WAIT} s")


def one_error_line(err: str, *fragments: str) -> None:
    assert "Traceback" not in err
    lines = [line for line in err.strip().splitlines() if line]
    assert len(lines) == 1, err
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


def test_sim_script_to_listen_json_lines(tmp_path):
    script = tmp_path / "rolls.txt"
    script.write_text("wait 0.3\nhome 4 0\n# the away coach\naway 9 9\nreboot\nscatter 3\ndisconnect 0.3\n"
                      "home-black+green 1 8\n", encoding="utf-8")
    sim = touchline("tray-sim", "--seed", 1, "--link", tmp_path / "tray", "--script", script, "--exit-when-done",
                    "--settle", WAIT, stdin=subprocess.DEVNULL)
    try:
        path = first_line(sim)
        assert path == str(tmp_path / "tray")
        listen = subprocess.run([sys.executable, "-m", "companion.cli", "tray-listen", path, "--wait", "--count", "4",
                                 "--timeout", str(WAIT), "--stats"], cwd=ROOT, text=True, capture_output=True,
                                timeout=WAIT * 2)
        assert listen.returncode == 0, listen.stderr
        assert sim.wait(timeout=WAIT) == 0
    finally:
        sim.kill()
        sim.wait()
    rolls = [json.loads(line) for line in listen.stdout.splitlines()]
    assert [[d["face"] for d in r["dice"]] for r in rolls] == [[4, 0], [9, 9], [3], [1, 8]]
    assert rolls[0]["dice"][0]["die"] == {"kind": "d10", "colour": "black", "owner": "home"}
    assert rolls[1]["dice"][1]["die"] == {"kind": "d10", "colour": "white", "owner": "away"}
    assert rolls[2]["dice"][0]["die"] == {"kind": "d8", "colour": "green", "owner": None}
    assert all(r["source"] == "tray" and r["device"].startswith("tray SIM-0001 boot=") for r in rolls)
    assert "connected: tray SIM-0001" in listen.stderr
    stats = json.loads(listen.stderr.strip().splitlines()[-1].split("tray-listen: ", 1)[1])
    assert stats["rolls"] == 4


def test_sim_rolls_on_enter_and_typed_lines(tmp_path):
    sim = touchline("tray-sim", "--seed", 2, "--link", tmp_path / "tray", "--group", "away,home",
                    stdin=subprocess.PIPE)
    session = None
    try:
        path = first_line(sim)
        session = TraySession(path).start()
        assert session.connected.wait(WAIT)
        sim.stdin.write("\nscatter 5\nnonsense\n\n")  # Enter rolls the --group list in turn
        sim.stdin.flush()
        rolls = []
        while len(rolls) < 3:
            notice = session.notices.get(timeout=WAIT)
            if isinstance(notice, RollReceived):
                rolls.append(notice.roll)
        sim.stdin.close()  # end of input ends the simulator
        assert sim.wait(timeout=WAIT) == 0
    finally:
        if session is not None:
            session.stop()
        sim.kill()
        sim.wait()
    assert [{d.die.owner.value if d.die.owner else None for d in r.dice} for r in rolls] == [{"away"}, {None}, {"home"}]
    assert rolls[1].faces == (5,)
    assert "unknown dice 'nonsense'" in sim.stderr.read()


@pytest.mark.parametrize("argv, fragments", [
    (["tray-sim", "--exit-when-done"], ["--exit-when-done needs --script"]),
    (["tray-sim", "--group", "visitors"], ["--group", "unknown dice 'visitors'"]),
    (["tray-sim", "--script", "{bad}"], ["{bad} line 2", "give 2 faces, not 3"]),
    (["tray-sim", "--script", "{missing}"], ["cannot read the script"]),
    (["tray-listen", "{missing}"], ["no such port", "plugged in"]),
    (["tray-listen", "loop://", "--dice", "{baddice}"], ["version", "expected 1"]),
    (["tray-listen", "loop://", "--count", "0"], ["--count"]),
])
def test_expected_failures_are_one_line(tmp_path, capsys, argv, fragments):
    bad = tmp_path / "bad.txt"
    bad.write_text("home\naway 1 2 3\n", encoding="utf-8")
    baddice = tmp_path / "dice.json"
    baddice.write_text('{"version": 3}', encoding="utf-8")
    names = {"{bad}": str(bad), "{missing}": str(tmp_path / "missing"), "{baddice}": str(baddice)}
    assert main([names.get(a, a) for a in argv]) == 2
    fragments = [f.format(**{k[1:-1]: v for k, v in names.items()}) for f in fragments]
    one_error_line(capsys.readouterr().err, *fragments)


def test_listen_on_a_busy_port_names_it_and_the_fix(capsys):
    with TraySim(seed=4) as sim:
        holder = open_port(str(sim.link))
        try:
            assert main(["tray-listen", str(sim.link), "--count", "1", "--timeout", "5"]) == 2
        finally:
            holder.close()
    one_error_line(capsys.readouterr().err, str(sim.link), "busy", "another program")


def test_listen_times_out_when_rolls_do_not_come(capsys):
    with TraySim(seed=4) as sim:
        assert main(["tray-listen", str(sim.link), "--count", "1", "--timeout", "0.5"]) == 2
    err = capsys.readouterr().err
    assert "0 of 1 rolls" in err and "Traceback" not in err


# --- finding the tray -------------------------------------------------------------------------------------

def port_info(device: str, vid: int | None, pid: int | None) -> ListPortInfo:
    info = ListPortInfo(device, skip_link_detection=True)
    info.vid, info.pid = vid, pid
    return info


def test_candidates_known_boards_first_and_others_only_when_asked():
    pico = port_info("/dev/ttyACM1", 0x2E8A, 0x0005)
    cp210x = port_info("/dev/ttyUSB0", 0x10C4, 0xEA60)
    builtin = port_info("/dev/ttyS0", None, None)
    ports = [builtin, cp210x, pico]
    assert discovery.candidates(ports) == [pico]
    assert discovery.candidates(ports, probe_all=True) == [pico, cp210x]  # never the built-in port


def test_find_tray_asks_each_candidate_for_hello(tmp_path):
    with TraySim(seed=6, device_id="TL-FOUND") as sim:
        silent = tmp_path / "silent"
        silent.write_text("")  # opening it fails: it is no serial port
        ports = [port_info(str(silent), 0x2E8A, 0x0005), port_info(str(sim.link), 0x2E8A, 0x0005)]
        found = discovery.find_tray(ports=ports, timeout=WAIT)
    assert found.port == str(sim.link) and found.hello.device == "TL-FOUND"


def test_find_tray_says_what_it_tried():
    with pytest.raises(PortError) as caught:
        discovery.find_tray(ports=[port_info("/dev/ttyUSB0", 0x10C4, 0xEA60)])
    assert "no dice tray found" in str(caught.value) and "--probe-all" in str(caught.value)


def test_sim_timer_with_faults_and_ctrl_c(tmp_path):
    import signal

    # A suite started in the background by a shell ignores SIGINT, and a child inherits that:
    # the simulator gets Ctrl-C's default disposition whatever ran the tests.
    sim = touchline("tray-sim", "--seed", 3, "--link", tmp_path / "tray", "--every", "0.1", "--group",
                    "home,away,scatter", "--corrupt", "0.01", "--duplicate", "0.2", "--reboot-every", "0.45",
                    "--disconnect-every", "0.7", "--down", "0.2", stdin=subprocess.DEVNULL,
                    preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    session = None
    try:
        path = first_line(sim)
        session = TraySession(path).start()
        rolls = []
        while len(rolls) < 8:
            notice = session.notices.get(timeout=WAIT)
            if isinstance(notice, RollReceived):
                rolls.append(notice.roll)
        sim.send_signal(signal.SIGINT)
        assert sim.wait(timeout=WAIT) == 130
    finally:
        if session is not None:
            session.stop()
        sim.kill()
        sim.wait()
    assert len({r.device for r in rolls}) == len(rolls)  # faults, restarts, disconnects: still no roll twice
    err = sim.stderr.read()
    assert "Traceback" not in err and "interrupted" in err


def test_listen_auto_finds_the_tray_by_usb_id(monkeypatch, capsys):
    with TraySim(seed=9, device_id="TL-AUTO") as sim:
        monkeypatch.setattr(discovery.list_ports, "comports",
                            lambda: [port_info("/dev/ttyS0", None, None), port_info(str(sim.link), 0x2E8A, 0x0005)])
        sim.roll("home", [3, 1])  # rolled before anyone listens: the tray keeps it until acknowledged
        assert main(["tray-listen", "auto", "--count", "1", "--timeout", str(WAIT)]) == 0
    out, err = capsys.readouterr()
    [line] = out.splitlines()
    assert [d["face"] for d in json.loads(line)["dice"]] == [3, 1]
    assert f"found a tray on {sim.link}" in err
