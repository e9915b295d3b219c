"""The coach's taps per normal action in each game, with the dice tray and the camera on.

    .venv/bin/python benchmarks/taps_bench.py [--wire pty]    # a few seconds

Plays tests/autoflow_scenarios.py (a simulated table: the tray's firmware core joined to the
host's link in memory, the camera's sightings handed to the controller as the live tracker's
relay does) twice: with the tablet's automatic steps off (as before issue 10 item 4) and on
(the default with a tray or a camera in use). Prints a Markdown table: declarations, the
other taps and what each one is. Counts, not times: the same on any machine. ``--wire pty``
throws the dice in the tray simulator on a pseudo-terminal instead, through the app's serial
session and the controller's worker thread (the same counts).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections import Counter
from pathlib import Path

os.environ.setdefault("KIVY_NO_ARGS", "1")        # a game's face is imported (Kivy): our options are ours
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
ROOT = Path(__file__).resolve().parents[1]
if __package__ in (None, ""):  # run as a script: make the project and the scenarios importable
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from autoflow_scenarios import GAMES, play  # noqa: E402
from ui.autoflow import Auto  # noqa: E402

TITLES = {"fublet": "Fublet", "futboard": "Futboard", "football_leader": "Football Leader",
          "fussball_liga": "Fußball-Liga"}


def words(taps) -> str:
    if not taps:
        return "none"
    counts = Counter(t.what for t in taps)
    return "; ".join(f"{what}" + (f" (x{n})" if n > 1 else "") for what, n in counts.items())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wire", choices=("memory", "pty"), default="memory",
                        help="the tray: firmware core and host link in memory, or the simulator on a pty")
    args = parser.parse_args(argv)
    rows = ["| game | normal action | declaration taps | other taps before | other taps after | what each remaining "
            "tap is |", "|---|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as folder:
        for game in GAMES:
            before = play(game, Path(folder) / f"{game}-before", Auto.OFF, args.wire)
            after = play(game, Path(folder) / f"{game}-after", Auto.DEVICES, args.wire)
            rows.append(f"| {TITLES[game]} | {after.action} | {after.declarations} | {len(before.others)} "
                        f"({words(before.others)}) | {len(after.others)} | {words(after.others)} |")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
