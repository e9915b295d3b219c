"""``touchline serve`` imports nothing of Kivy (nor OpenCV, numpy or matplotlib): the real command,
in its own process, for a match of every game; what it imported is read from its
``sys.modules`` as it exits. Its terminal shows its own lines and nothing else."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.web_kit import GAMES, GrowingJournal

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("kivy", "cv2", "numpy", "matplotlib")
# The real command's entry point, with every module it imported written down as it exits.
RECORD = """
import atexit, faulthandler, json, signal, sys
faulthandler.register(signal.SIGUSR1, all_threads=True)   # a hung stop says where it hangs
out, sys.argv = sys.argv[1], ["touchline"] + sys.argv[2:]
atexit.register(lambda: open(out, "w").write(json.dumps(sorted(sys.modules))))
from companion.cli import main
sys.exit(main())
"""


@pytest.mark.parametrize("game", GAMES)
def test_serve_draws_every_game_without_kivy(tmp_path, game):
    table = GrowingJournal(tmp_path / f"{game}.sqlite", game=game, upto=40)
    table.close()
    record = tmp_path / "modules.json"
    proc = subprocess.Popen([sys.executable, "-c", RECORD, str(record), "serve", str(table.path), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        first = proc.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:\d+/\S+/", first)
        assert url, first
        deadline = time.monotonic() + 60
        while True:   # until the board is drawn: the game's look is imported by then
            with urllib.request.urlopen(url.group(0) + "state.json", timeout=30) as resp:
                data = json.loads(resp.read())
            if data.get("game") == game or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert data["game"] == game and data["viewbox"] and data["figures"]
    finally:
        proc.terminate()
        try:
            out, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:   # hung: every thread's stack into the failure
            proc.send_signal(signal.SIGUSR1)
            time.sleep(2)
            proc.kill()
            raise AssertionError(f"serve did not stop:\n{proc.communicate()[1][-8000:]}") from None
    imported = set(json.loads(record.read_text()))
    assert f"ui.looks.{game}" in imported and "uvicorn" in imported   # the record is real
    heavy = sorted(m for m in imported if m.split(".")[0] in HEAVY)
    assert heavy == [], heavy[:10]
    assert not any(m.startswith("ui.games") for m in imported)   # the tablet's faces stay out
    assert err == ""   # no Kivy banner, no libmtdev traceback: nothing on stderr at all
    lines = (first + out).splitlines()
    assert lines[0].startswith(f"Scoreboard for {game}.sqlite: http://127.0.0.1:") and lines[-1] == "Scoreboard stopped."


def imported_names(path: Path) -> list[str]:
    """Absolute names of the modules a source file imports (relative imports resolved)."""
    import ast

    package = path.relative_to(ROOT).with_suffix("").parts[:-1]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = list(package[:len(package) - node.level + 1]) if node.level else []
            out.append(".".join(base + ([node.module] if node.module else [])))
    return out


LOOK_AND_PAGE = sorted((ROOT / "ui" / "looks").rglob("*.py")) + sorted((ROOT / "ui" / "web").glob("*.py"))


@pytest.mark.parametrize("path", LOOK_AND_PAGE, ids=[str(p.relative_to(ROOT)) for p in LOOK_AND_PAGE])
def test_the_looks_and_the_page_import_nothing_of_kivy_nor_the_faces(path):
    """What the page shares with the tablet is pure Python: the looks and the page import no
    Kivy, and nothing of the tablet's faces (ui.games) or widgets."""
    names = imported_names(path)
    assert names or "import " not in path.read_text(encoding="utf-8"), path   # the reader is real
    assert [n for n in names if n.split(".")[0] in HEAVY or n.startswith(("ui.games", "ui.widgets", "ui.screens"))] == []
