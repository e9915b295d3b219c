"""Match history and league tables over a data folder: finished, unfinished, damaged and
foreign files; the tables checked against results worked out by hand."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.report import history as h

DATA = Path(__file__).parent / "data"


def variant(src: str, out: Path, home: str, away: str, day: int, cut: int | None = None) -> Path:
    """A copy of a scripted full match with other team names and another date (optionally
    cut after ``cut`` events: not finished)."""
    lines = (DATA / src).read_text(encoding="utf-8").splitlines()
    if cut is not None:
        lines = lines[:cut]
    rows = []
    for line in lines:
        row = json.loads(line)
        row["at"] = f"2027-01-{day:02d}" + row["at"][10:]
        if row["type"].endswith(".match_created"):
            row["data"]["home"]["name"], row["data"]["away"]["name"] = home, away
        rows.append(json.dumps(row))
    out.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return out


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """Fußball-Liga: Rotstein beat Gruenwald 2-0 (day 1), Gruenwald beat Rotstein 2-0 (day 2),
    Rotstein beat Kickers 2-0 (day 3), and Kickers-Rotstein stopped half way (day 4);
    Futboard: Estrela-Mare 1-1 (day 5); a cut export, a damaged journal and a text file."""
    d = tmp_path_factory.mktemp("data") / "matches"
    d.mkdir()
    liga = "fussball_liga_full_match.jsonl"
    variant(liga, d / "a.jsonl", "SV Rotstein", "FC Gruenwald", 1)
    variant(liga, d / "b.jsonl", "FC Gruenwald", "SV Rotstein", 2)
    variant(liga, d / "c.jsonl", "SV Rotstein", "Kickers", 3)
    variant(liga, d / "d.jsonl", "Kickers", "SV Rotstein", 4, cut=250)
    variant("futboard_full_match.jsonl", d / "e.jsonl", "Estrela FC", "Mare Azul", 5)
    variant("futboard_full_match.jsonl", d / "e-early.jsonl", "Estrela FC", "Mare Azul", 5, cut=100)  # a copy
    (d / "cut.jsonl").write_text((DATA / liga).read_text(encoding="utf-8")[:3000], encoding="utf-8")
    (d / "bad.sqlite").write_bytes(b"SQLite format 3\x00" + b"\xff" * 500)
    (d / "notes.txt").write_text("bring snacks", encoding="utf-8")
    (d / "chess.jsonl").write_text(json.dumps({"seq": 1, "at": "2027-01-01T00:00:00Z", "source": "manual",
                                               "type": "chess.match_created", "data": {}}) + "\n", encoding="utf-8")
    (d / "x.sqlite-wal").write_bytes(b"")  # a journal's side file: not listed
    return d


def test_every_file_is_listed_once_readable_or_not(folder):
    entries = h.scan(folder)
    names = [e.path.name for e in entries]
    assert names[:5] == ["e.jsonl", "d.jsonl", "c.jsonl", "b.jsonl", "a.jsonl"]  # newest first
    assert sorted(names[5:]) == ["bad.sqlite", "chess.jsonl", "cut.jsonl", "notes.txt"]
    by = {e.path.name: e for e in entries}
    assert by["e.jsonl"].copies == ("e-early.jsonl",)
    assert [by[n].status for n in ("a.jsonl", "d.jsonl")] == ["finished", "not finished"]
    assert (by["b.jsonl"].home, by["b.jsonl"].score, by["b.jsonl"].game) == ("FC Gruenwald", "2-0", "fussball_liga")
    assert by["a.jsonl"].date.startswith("2027-01-01")
    assert "journal" in by["bad.sqlite"].problem  # damaged or foreign, in the journal reader's words
    assert "line" in by["cut.jsonl"].problem
    assert "chess" in by["chess.jsonl"].problem
    assert "not a match file" in by["notes.txt"].problem
    assert all(e.status == "unreadable" for e in entries[5:])


def test_filters_by_game_and_team(folder):
    entries = h.scan(folder)
    assert [e.path.name for e in h.select(entries, game="futboard")] == ["e.jsonl"]
    assert [e.path.name for e in h.select(entries, team="kick")] == ["d.jsonl", "c.jsonl"]
    assert [e.path.name for e in h.select(entries, game="fussball_liga", team="GRUEN")] == ["b.jsonl", "a.jsonl"]


def test_league_table_head_to_head_and_records(folder):
    entries = h.scan(folder)
    table = [r.row() for r in h.league(entries, "fussball_liga")]
    assert table == [
        ["SV Rotstein", 3, 2, 0, 1, 4, 2, 2, 6],
        ["FC Gruenwald", 2, 1, 0, 1, 2, 2, 0, 3],
        ["Kickers", 1, 0, 0, 1, 0, 2, -2, 0],
    ]
    assert [r.row() for r in h.league(entries, "futboard")] == [
        ["Estrela FC", 1, 0, 1, 0, 1, 1, 0, 1], ["Mare Azul", 1, 0, 1, 0, 1, 1, 0, 1]]
    pairs = {(p.first, p.second): p.row()[3:] for p in h.head_to_head(entries, "fussball_liga")}
    assert pairs == {("FC Gruenwald", "SV Rotstein"): [2, 1, 0, 1, "2-2"],
                     ("Kickers", "SV Rotstein"): [1, 0, 0, 1, "0-2"]}
    rec = h.records(entries)
    assert rec["SV Rotstein"]["all"].row() == ["SV Rotstein", 3, 2, 0, 1, 4, 2, 2, 6]
    assert rec["SV Rotstein"]["all"].form == ["W", "L", "W"]
    assert rec["Mare Azul"]["futboard"].row()[1:] == [1, 0, 1, 0, 1, 1, 0, 1]


def test_history_cli_table_json_and_csv(capsys, folder, tmp_path):
    data_dir = folder.parent
    assert main(["history", "--data-dir", str(data_dir)]) == 0
    out, err = capsys.readouterr()
    assert "SV Rotstein" in out and "not finished" in out and "unreadable" in out and "Traceback" not in err
    assert main(["history", "--data-dir", str(data_dir), "--game", "futboard", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr()[0].splitlines()]
    assert [line["file"] for line in lines if line["status"] != "unreadable"] == ["e.jsonl"]
    target = tmp_path / "history.csv"
    assert main(["history", "--folder", str(folder), "--team", "Kickers", "--csv", str(target)]) == 0
    capsys.readouterr()
    with open(target, newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    assert rows[0] == h.HISTORY_HEADER
    assert [r[8] for r in rows[1:3]] == ["d.jsonl", "c.jsonl"]


def test_a_table_is_laid_out_in_columns_written_a_line_at_a_time():
    """The listing's layout: columns as wide as their widest cell, two spaces apart, no spaces
    at a line's end, a rule under the header; the streamed table is the same text, and asks
    for the rows twice (widths, then lines) rather than holding them."""
    import io

    from companion.report.history_cli import table, write_table

    rows = [["2027-01-01", None, "Kickers"], ["x", "Futboard", ""]]
    expected = ("date        game      home\n"
                "----------  --------  -------\n"
                "2027-01-01            Kickers\n"
                "x           Futboard")
    assert table(["date", "game", "home"], rows) == expected
    asked = []
    out = io.StringIO()
    write_table(out, ["date", "game", "home"], lambda: asked.append(1) or iter(rows))
    assert out.getvalue() == expected + "\n" and len(asked) == 2


def test_the_list_order_is_readable_first_newest_first_a_copy_after_its_match_then_by_name():
    """in_list_order sorts by keys the entries hold (no tuple per entry): the order of the
    tuple keys it had before, on entries of every kind."""
    import random

    rng = random.Random(7)
    entries = [h.Entry(Path(f"m/{rng.choice('abc')}{i:02d}.jsonl"), date=rng.choice(["", "2027-01-01", "2027-02-01"]),
                       problem=rng.choice(["", "", "damaged"]), copy_of=rng.choice(["", "", "x.jsonl"]))
               for i in range(80)]
    rng.shuffle(entries)
    expected = list(entries)
    expected.sort(key=lambda e: (bool(e.copy_of), e.path.name))
    expected.sort(key=lambda e: (not e.date, e.date), reverse=True)
    expected.sort(key=lambda e: not e.ok)
    assert [e.path.name for e in h.in_list_order(entries)] == [e.path.name for e in expected]


def test_league_cli_and_csv(capsys, folder, tmp_path):
    target = tmp_path / "league.csv"
    assert main(["league", "--folder", str(folder), "--game", "fussball_liga", "--csv", str(target)]) == 0
    out, _ = capsys.readouterr()
    assert "Fußball-Liga: league table (3 finished matches)" in out
    with open(target, newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    assert rows[1] == ["Fußball-Liga", "1", "SV Rotstein", "3", "2", "0", "1", "4", "2", "2", "6"]
    assert (tmp_path / "league-head-to-head.csv").exists() and (tmp_path / "league-records.csv").exists()


def test_an_empty_or_missing_folder(capsys, tmp_path):
    assert main(["history", "--data-dir", str(tmp_path)]) == 0
    assert "no matches in" in capsys.readouterr()[0]
    assert main(["league", "--data-dir", str(tmp_path)]) == 0
    assert "no finished matches" in capsys.readouterr()[0]
    assert main(["history", "--folder", str(tmp_path / "nope")]) == 2
    _, err = capsys.readouterr()
    assert err.strip().count("\n") == 0 and "no such folder" in err and "Traceback" not in err


def test_the_cache_skips_unchanged_files_and_rereads_changed_ones(tmp_path, monkeypatch):
    folder = tmp_path / "matches"
    folder.mkdir()
    variant("futboard_full_match.jsonl", folder / "a.jsonl", "Estrela FC", "Mare Azul", 1)
    (folder / "b.jsonl").write_text("not json\n", encoding="utf-8")
    cache = tmp_path / "cache.json"
    first = h.scan(folder, cache)
    assert cache.exists()
    reads = []
    real = h.read_entry
    monkeypatch.setattr(h, "read_entry", lambda path, *more: reads.append(path.name) or real(path, *more))
    assert [e.to_json() for e in h.scan(folder, cache)] == [e.to_json() for e in first]
    assert reads == []
    variant("futboard_full_match.jsonl", folder / "a.jsonl", "Estrela FC", "Nova", 1)  # changed since
    again = h.scan(folder, cache)
    assert reads == ["a.jsonl"] and again[0].away == "Nova"
    cache.write_text("{broken", encoding="utf-8")  # a damaged cache only costs time
    assert [e.away for e in h.scan(folder, cache) if e.ok] == ["Nova"]
