"""``touchline report MATCH --out DIR``: the files it writes, and bad input (a damaged journal,
an unfinished match, a match of an unknown game) ending in one clear line, never a traceback."""

from __future__ import annotations

import csv
import hashlib
import json
from pathlib import Path

import pytest

from benchmarks.driver import AutoDriver
from companion.cli import main
from companion.games import ruleset_for
from companion.journal import Journal
from companion.jsonl import read_file
from companion.report import build_report

DATA = Path(__file__).parent / "data"


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def one_error_line(err: str, *fragments: str) -> None:
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


@pytest.mark.parametrize("game", ["fublet", "football_leader", "fussball_liga", "futboard"])
def test_report_of_each_games_full_match(capsys, tmp_path, game):
    match = DATA / f"{game}_full_match.jsonl"
    code, out, err = run(capsys, "report", match, "--out", tmp_path / "r")
    assert code == 0, err
    assert "finished" in out and str(tmp_path / "r" / "index.html") in out
    folder = tmp_path / "r"
    report = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    assert report == json.loads(json.dumps(build_report(ruleset_for(game), read_file(match).events)))
    html = (folder / "index.html").read_text(encoding="utf-8")
    for plot in ("possession", "timeline", "counters", "luck", "heat"):
        svg = folder / f"{plot}.svg"
        assert svg.read_text(encoding="utf-8").lstrip().startswith("<?xml") and f"src='{plot}.svg'" in html
    for team in report["teams"].values():
        assert team in html
    with open(folder / "stats.csv", newline="", encoding="utf-8") as fh:
        stats = list(csv.reader(fh))
    assert stats[0][0] == "stat" and len(stats) == 1 + len(report["stat_names"])
    goals_row = next(r for r in stats if r[0] == "Goals")
    assert [int(goals_row[1]), int(goals_row[2])] == [report["score"]["home"], report["score"]["away"]]
    with open(folder / f"{report['unit']}s.csv", newline="", encoding="utf-8") as fh:
        assert len(list(csv.reader(fh))) == 1 + len(report["ticks"])


def test_report_from_a_journal_leaves_it_untouched(capsys, tmp_path):
    journal = tmp_path / "m.sqlite"
    driver = AutoDriver.new(seed=3, journal=Journal.create(journal, "fublet"))
    driver.play(commands=60)
    driver.match.close()
    before = hashlib.sha256(journal.read_bytes()).hexdigest()
    code, out, err = run(capsys, "report", journal, "--out", tmp_path / "r", "--png")
    assert code == 0, err
    assert "not finished" in out
    assert (tmp_path / "r" / "possession.png").read_bytes()[:4] == b"\x89PNG"
    assert "Not finished" in (tmp_path / "r" / "index.html").read_text(encoding="utf-8")
    assert hashlib.sha256(journal.read_bytes()).hexdigest() == before


def test_an_unfinished_match_is_reported_as_far_as_it_went(capsys, tmp_path):
    lines = (DATA / "fussball_liga_full_match.jsonl").read_text(encoding="utf-8").splitlines()[:200]
    part = tmp_path / "half.jsonl"
    part.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "report", part, "--out", tmp_path / "r")
    assert code == 0, err
    report = json.loads((tmp_path / "r" / "report.json").read_text(encoding="utf-8"))
    assert report["finished"] is False and report["result"] is None and report["events"] == 200


def test_a_damaged_journal_gives_one_line(capsys, tmp_path):
    bad = tmp_path / "broken.sqlite"
    bad.write_bytes(b"SQLite format 3\x00" + b"\x13" * 3000)
    code, _, err = run(capsys, "report", bad, "--out", tmp_path / "r")
    assert code == 2
    one_error_line(err, "touchline report: error:", str(bad))
    assert not (tmp_path / "r").exists()


def test_a_damaged_export_names_the_line(capsys, tmp_path):
    lines = (DATA / "futboard_full_match.jsonl").read_text(encoding="utf-8").splitlines()
    lines[10] = lines[10][:25]
    bad = tmp_path / "cut.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, _, err = run(capsys, "report", bad, "--out", tmp_path / "r")
    assert code == 2
    one_error_line(err, str(bad), "line 11")


def test_a_match_of_an_unknown_game_gives_one_line(capsys, tmp_path):
    foreign = tmp_path / "chess.jsonl"
    foreign.write_text(json.dumps({"seq": 1, "at": "2026-01-01T00:00:00Z", "source": "manual",
                                   "type": "chess.match_created", "data": {}}) + "\n", encoding="utf-8")
    code, _, err = run(capsys, "report", foreign, "--out", tmp_path / "r")
    assert code == 2
    one_error_line(err, str(foreign), "chess")


@pytest.mark.parametrize("content", [b"", b"\x00\x01\x02 not json", b"{}\n"])
def test_empty_or_foreign_files_give_one_line(capsys, tmp_path, content):
    bad = tmp_path / "odd.jsonl"
    bad.write_bytes(content)
    code, _, err = run(capsys, "report", bad, "--out", tmp_path / "r")
    assert code == 2
    one_error_line(err, str(bad))


def test_missing_match_and_out_that_is_a_file(capsys, tmp_path):
    code, _, err = run(capsys, "report", tmp_path / "nope.sqlite", "--out", tmp_path / "r")
    assert code == 2
    one_error_line(err, "nope.sqlite")
    target = tmp_path / "file.txt"
    target.write_text("x")
    code, _, err = run(capsys, "report", DATA / "futboard_full_match.jsonl", "--out", target)
    assert code == 2
    one_error_line(err, "file.txt", "folder")


@pytest.mark.parametrize("seed", range(4))
def test_cut_or_damaged_exports_give_a_report_or_one_line(capsys, tmp_path, seed):
    """Seeded damage: an export cut anywhere (even inside a command), a line garbled, lines
    swapped. Either a report of the match so far, or one line saying what is wrong."""
    import random

    rng = random.Random(seed)
    game = ["fublet", "football_leader", "fussball_liga", "futboard"][seed]
    lines = (DATA / f"{game}_full_match.jsonl").read_text(encoding="utf-8").splitlines()
    cases = [lines[:rng.randrange(2, len(lines))]]
    garbled = list(lines)
    i = rng.randrange(1, len(garbled))
    garbled[i] = garbled[i].replace('"', "'", 1)
    cases.append(garbled)
    swapped = list(lines)
    i = rng.randrange(1, len(swapped) - 1)
    swapped[i], swapped[i + 1] = swapped[i + 1], swapped[i]
    cases.append(swapped)
    for n, case in enumerate(cases):
        path = tmp_path / f"case{n}.jsonl"
        path.write_text("\n".join(case) + "\n", encoding="utf-8")
        code, out, err = run(capsys, "report", path, "--out", tmp_path / f"r{n}")
        assert code in (0, 2), (n, code, err)
        if code == 2:
            one_error_line(err, str(path))
        else:
            assert (tmp_path / f"r{n}" / "index.html").exists() and "Traceback" not in err


def test_without_matplotlib_the_numbers_are_written_and_one_line_says_why(capsys, tmp_path, monkeypatch):
    import sys

    monkeypatch.delitem(sys.modules, "companion.report.plots", raising=False)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # an import of it fails
    code, _, err = run(capsys, "report", DATA / "futboard_full_match.jsonl", "--out", tmp_path / "r")
    assert code == 2
    one_error_line(err, "matplotlib", "pip install")
    assert (tmp_path / "r" / "report.json").exists() and (tmp_path / "r" / "stats.csv").exists()
