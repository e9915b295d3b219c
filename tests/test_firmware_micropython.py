"""The firmware's portable modules under real MicroPython (the WebAssembly port, run by
node), when a developer has it: set TOUCHLINE_MICROPYTHON to the folder of the npm package
@micropython/micropython-webassembly-pyscript (``npm install`` it anywhere). Skipped
otherwise; the CPython checks in test_firmware_vectors.py always run."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = os.environ.get("TOUCHLINE_MICROPYTHON", "")

pytestmark = pytest.mark.skipif(not PACKAGE or not shutil.which("node"),
                                reason="set TOUCHLINE_MICROPYTHON to the micropython-webassembly npm package's folder")

CHECK = r'''
import sys, json
sys.path.insert(0, "/lib")
import trayproto, traycore
v = json.load(open("/lib/vectors.json"))
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

RUNNER = r'''
import { loadMicroPython } from "%s";
import fs from "fs";
const mp = await loadMicroPython({ stdout: (l) => console.log(l), stderr: (l) => console.error(l) });
mp.FS.mkdir("/lib");
const files = JSON.parse(process.argv[2]);
for (const name in files) mp.FS.writeFile("/lib/" + name, fs.readFileSync(files[name]));
mp.runPython(fs.readFileSync(process.argv[3], "utf8"));
'''


def test_firmware_modules_pass_the_vectors_under_micropython(tmp_path):
    import json

    (tmp_path / "check.py").write_text(CHECK, encoding="utf-8")
    entry = Path(PACKAGE) / "micropython.mjs"
    (tmp_path / "run.mjs").write_text(RUNNER % entry.as_uri(), encoding="utf-8")
    files = {"trayproto.py": str(ROOT / "firmware_bridge/firmware/trayproto.py"),
             "traycore.py": str(ROOT / "firmware_bridge/firmware/traycore.py"),
             "vectors.json": str(ROOT / "firmware_bridge/vectors.json")}
    done = subprocess.run(["node", str(tmp_path / "run.mjs"), json.dumps(files), str(tmp_path / "check.py")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    result = [line for line in done.stdout.splitlines() if line.startswith("RESULT")][-1].split(" ")
    assert result[1] == "micropython" and result[2] == "0" and result[3] == "0", done.stdout
