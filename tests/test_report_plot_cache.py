"""The report's plots kept beside their drawing (issue 32, item 3): a report opened again shows
the plots drawn last time, without matplotlib; anything that differs, or that anyone changed,
is drawn again, never trusted and never waited on."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import hostile_kit as k
from companion.games import ruleset_for
from companion.jsonl import read_file
from companion.report import build_report
from companion.report import plot_cache as pc
from companion.report import plots
from companion.outfiles import OutputRefused

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def report():
    events = read_file(DATA / "futboard_full_match.jsonl").events[:400]   # a short match: quick plots
    return build_report(ruleset_for("futboard"), events)


@pytest.fixture
def draws(monkeypatch):
    """How many times the plots were really drawn from here on."""
    count = []
    real = plots.draw_all

    def counted(*args, **kwargs):
        count.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(plots, "draw_all", counted)
    return count


def test_a_report_opened_again_is_not_drawn_again(tmp_path, report, draws):
    first = pc.drawn(report, tmp_path, ("png",), dpi=60)
    assert draws == [1] and set(first) == set(plots.PLOTS)
    assert all((tmp_path / f["png"]).is_file() for f in first.values())
    again = pc.drawn(report, tmp_path, ("png",), dpi=60)
    assert again == first and draws == [1]


def test_a_hit_needs_no_matplotlib(tmp_path, report):
    pc.drawn(report, tmp_path, ("png",), dpi=60)
    (tmp_path / "report.json").write_text(json.dumps(report), encoding="utf-8")
    code = ("import json, sys\nfrom pathlib import Path\nfrom companion.report.plot_cache import drawn\n"
            "folder = Path(sys.argv[1])\nreport = json.loads((folder / 'report.json').read_text())\n"
            "got = drawn(report, folder, ('png',), dpi=60)\n"
            "print(json.dumps([sorted(got), 'matplotlib' in sys.modules]))\n")
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)
    assert done.returncode == 0, done.stderr
    names, loaded = json.loads(done.stdout)
    assert names == sorted(plots.PLOTS) and loaded is False


@pytest.mark.parametrize("change", ["score", "dpi", "format", "code"])
def test_what_the_plots_are_drawn_from_changing_draws_them_again(tmp_path, report, draws, change, monkeypatch):
    pc.drawn(report, tmp_path, ("png",), dpi=60)
    other, formats, dpi = report, ("png",), 60
    if change == "score":
        other = {**report, "score": {"home": 9, "away": 9}}
    elif change == "dpi":
        dpi = 61
    elif change == "format":
        formats = ("png", "svg")
    else:   # a Touchline that draws differently
        changed = tmp_path / "plots-changed.py"
        changed.write_bytes(pc._PLOTS_SOURCE.read_bytes() + b"\n# drawn otherwise\n")
        monkeypatch.setattr(pc, "_PLOTS_SOURCE", changed)
    pc.drawn(other, tmp_path, formats, dpi=dpi)
    assert draws == [1, 1]
    pc.drawn(other, tmp_path, formats, dpi=dpi)
    assert draws == [1, 1]   # and kept in turn


def _first_plot(folder: Path) -> Path:
    manifest = json.loads((folder / pc.MANIFEST).read_text())
    return folder / sorted(manifest["files"])[0]


DAMAGE = {
    "manifest garbage": lambda f: (f / pc.MANIFEST).write_bytes(b"\x00{not json"),
    "manifest a list": lambda f: (f / pc.MANIFEST).write_text("[1, 2]"),
    "manifest nested deep": lambda f: (f / pc.MANIFEST).write_text("[" * 100_000 + "]" * 100_000),
    "manifest huge": lambda f: (f / pc.MANIFEST).write_bytes(b" " * (pc.MANIFEST_MAX_BYTES + 1)),
    "manifest a FIFO": lambda f: ((f / pc.MANIFEST).unlink(), k.fifo(f / pc.MANIFEST)),
    "manifest a folder": lambda f: ((f / pc.MANIFEST).unlink(), (f / pc.MANIFEST).mkdir()),
    "manifest a device": lambda f: ((f / pc.MANIFEST).unlink(), k.device_link(f / pc.MANIFEST, "/dev/zero")),
    "plot gone": lambda f: _first_plot(f).unlink(),
    "plot cut short": lambda f: _first_plot(f).write_bytes(_first_plot(f).read_bytes()[:100]),
    "plot changed, same size": lambda f: _first_plot(f).write_bytes(bytes(len(_first_plot(f).read_bytes()))),
    "plot a link": lambda f: (os.replace(_first_plot(f), f / "moved.png"), os.symlink(f / "moved.png", _first_plot(f))),
    "plot a FIFO": lambda f: (_first_plot(f).rename(f / "old.png"), k.fifo(_first_plot_name(f))),
    "names a file elsewhere": lambda f: _rewrite(f, lambda m: m["plots"]["heat"].update(png="../heat.png")),
    "names a file it does not list": lambda f: _rewrite(f, lambda m: m["files"].pop(sorted(m["files"])[0])),
    "sizes not numbers": lambda f: _rewrite(f, lambda m: m["files"].update({n: ["1", "x"] for n in m["files"]})),
}


def _first_plot_name(folder: Path) -> Path:
    return folder / sorted(json.loads((folder / pc.MANIFEST).read_text())["files"])[0]


def _rewrite(folder: Path, edit) -> None:
    manifest = json.loads((folder / pc.MANIFEST).read_text())
    edit(manifest)
    (folder / pc.MANIFEST).write_text(json.dumps(manifest))


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_a_damaged_or_planted_cache_is_drawn_again_never_trusted(tmp_path, report, draws, damage):
    first = pc.drawn(report, tmp_path, ("png",), dpi=60)
    DAMAGE[damage](tmp_path)
    if damage in ("manifest a folder", "manifest a device", "manifest a FIFO"):
        # Nothing is written over a folder or a FIFO, or through a link: drawn each time, said in the log.
        assert pc.drawn(report, tmp_path, ("png",), dpi=60) == first and draws == [1, 1]
        assert pc.drawn(report, tmp_path, ("png",), dpi=60) == first and draws == [1, 1, 1]
        return
    if damage in ("plot a FIFO", "plot a link"):
        # Drawn again, and the plots are refused at a FIFO or a link (companion/outfiles.py): the
        # report screen says so, as it did before the plots were kept.
        with pytest.raises(OutputRefused):
            pc.drawn(report, tmp_path, ("png",), dpi=60)
        assert draws == [1, 1]
        return
    again = pc.drawn(report, tmp_path, ("png",), dpi=60)
    assert again == first and draws == [1, 1]
    assert all((tmp_path / f["png"]).is_file() and not (tmp_path / f["png"]).is_symlink() for f in again.values())
    assert pc.drawn(report, tmp_path, ("png",), dpi=60) == first and draws == [1, 1]   # the new manifest holds


def test_a_manifest_that_cannot_be_written_only_means_drawing_again(tmp_path, report, draws, monkeypatch):
    def refused(*_args, **_kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pc, "write_text", refused)
    first = pc.drawn(report, tmp_path, ("png",), dpi=60)
    assert pc.drawn(report, tmp_path, ("png",), dpi=60) == first and draws == [1, 1]
    assert not (tmp_path / pc.MANIFEST).exists()


def test_a_report_shared_again_is_not_drawn_again(tmp_path, report, draws):
    from companion.report.html import write_single

    kept = tmp_path / "reports" / "match" / "page"
    first = write_single(report, tmp_path / "shared" / "page.html", "match.sqlite", kept)
    page = first.read_bytes()
    assert draws == [1] and page.count(b"data:image/svg+xml;base64,") == len(plots.PLOTS)
    again = write_single(report, tmp_path / "shared" / "page.html", "match.sqlite", kept)
    assert again.read_bytes() == page and draws == [1]
    write_single(report, tmp_path / "elsewhere.html", "match.sqlite")   # no folder to keep them: drawn
    assert draws == [1, 1]


def test_a_link_in_place_of_the_folder_is_refused_before_anything_in_it_is_read(tmp_path, report, draws):
    elsewhere = tmp_path / "elsewhere"
    pc.drawn(report, elsewhere, ("png",), dpi=60)
    planted = tmp_path / "reports" / "match"
    planted.parent.mkdir()
    planted.symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(OutputRefused):
        pc.drawn(report, planted, ("png",), dpi=60)
    assert draws == [1]
    made = tmp_path / "new" / "deeper"   # a missing folder is made
    assert set(pc.drawn(report, made, ("png",), dpi=60)) == set(plots.PLOTS) and made.is_dir()
