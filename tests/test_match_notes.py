"""What a coach says about a match, kept beside the journals (a name, a friendly) and the
trash a deleted match waits in: the journals are never written, a friendly counts in no
table, a deleted match comes back whole (its unfinished journal's write-ahead log too)."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from companion.cli import main
from companion.report import history as h
from companion.report import notes, trash
from matches_kit import imported


def digest(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.rglob("*"))
            if p.is_file() and not p.name.startswith(".touchline-notes")}


@pytest.fixture()
def folder(tmp_path) -> Path:
    d = tmp_path / "matches"
    imported(d, "a.sqlite", home="SV Rotstein", away="FC Gruenwald", day=1)
    imported(d, "b.sqlite", home="FC Gruenwald", away="SV Rotstein", day=2)
    imported(d, "c.sqlite", home="SV Rotstein", away="Kickers", day=3)
    return d


def test_a_name_and_a_friendly_change_no_journal(folder):
    before = digest(folder)
    notes.set_title(folder, "a.sqlite", "  Cup   final ")
    notes.set_friendly(folder, "b.sqlite", True)
    assert digest(folder) == before
    by = {e.path.name: e for e in h.scan(folder)}
    assert (by["a.sqlite"].title, by["a.sqlite"].name, by["a.sqlite"].friendly) == ("Cup final", "Cup final", False)
    assert by["b.sqlite"].friendly and by["b.sqlite"].name == "FC Gruenwald v SV Rotstein"
    notes.set_title(folder, "a.sqlite", "")   # back to the teams
    assert {e.path.name: e.name for e in h.scan(folder)}["a.sqlite"] == "SV Rotstein v FC Gruenwald"


def test_a_title_too_long_is_refused_in_words(folder):
    with pytest.raises(notes.NotesError, match="at most 60 characters"):
        notes.set_title(folder, "a.sqlite", "x" * 61)
    assert notes.load(folder) == {}


def test_a_friendly_counts_in_no_table(folder, capsys):
    entries = h.scan(folder)
    assert [r.team for r in h.league(entries, "fussball_liga")][:1] == ["SV Rotstein"]
    notes.set_friendly(folder, "b.sqlite", True)   # Gruenwald's win over Rotstein: a friendly
    entries = h.scan(folder)
    table = {r.team: r.row()[1:] for r in h.league(entries, "fussball_liga")}
    assert table["SV Rotstein"] == [2, 2, 0, 0, 4, 0, 4, 6]
    assert table["FC Gruenwald"] == [1, 0, 0, 1, 0, 2, -2, 0]
    assert [e.path.name for e in h.friendlies(entries)] == ["b.sqlite"]
    assert h.records(entries)["SV Rotstein"]["all"].played == 2
    assert sum(p.played for p in h.head_to_head(entries)) == 2
    assert main(["league", "--folder", str(folder)]) == 0
    out = capsys.readouterr()[0]
    assert "league table (2 finished matches; 1 friendly not counted)" in out
    assert main(["history", "--folder", str(folder)]) == 0
    assert "finished, friendly" in capsys.readouterr()[0]


def test_a_damaged_notes_file_lists_the_matches_without_names(folder):
    notes.notes_path(folder).write_text("{broken", encoding="utf-8")
    assert [e.title for e in h.scan(folder)] == ["", "", ""]
    notes.set_title(folder, "c.sqlite", "Derby")   # and a new note starts the file again
    assert {e.path.name: e.title for e in h.scan(folder)}["c.sqlite"] == "Derby"


def test_a_deleted_match_leaves_the_list_and_comes_back_whole(folder):
    wal = folder / "c.sqlite-wal"
    wal.write_bytes(b"the last moves")            # an unfinished journal's write-ahead log
    notes.set_title(folder, "c.sqlite", "Derby")
    before = digest(folder)
    when = datetime(2027, 2, 1, 12, 0, tzinfo=UTC)
    gone = trash.delete(folder, "c.sqlite", when)
    assert not (folder / "c.sqlite").exists() and not wal.exists()
    assert [e.path.name for e in h.scan(folder)] == ["b.sqlite", "a.sqlite"]
    listed = trash.listing(folder)
    assert [(t.name, t.deleted) for t in listed] == [("c.sqlite", when)] and listed[0].left(when) == 30
    trash.restore(folder, listed[0])
    assert digest(folder) == before and trash.listing(folder) == []
    assert {e.path.name: e.title for e in h.scan(folder)}["c.sqlite"] == "Derby"
    assert gone.name == "c.sqlite"


def test_the_trash_keeps_a_match_thirty_days_then_empties_it_and_its_notes(folder):
    notes.set_friendly(folder, "a.sqlite", True)
    when = datetime(2027, 2, 1, 12, 0, tzinfo=UTC)
    trash.delete(folder, "a.sqlite", when)
    assert trash.empty_old(folder, when + timedelta(days=29)) == []
    assert [t.name for t in trash.listing(folder)] == ["a.sqlite"]
    assert trash.empty_old(folder, when + timedelta(days=30)) == ["a.sqlite"]
    assert trash.listing(folder) == [] and "a.sqlite" not in notes.load(folder)
    assert not any(trash.trash_dir(folder).iterdir())


def test_restoring_never_overwrites_and_two_deletions_of_one_name_are_both_kept(folder):
    when = datetime(2027, 2, 1, 12, 0, tzinfo=UTC)
    trash.delete(folder, "a.sqlite", when)
    imported(folder, "a.sqlite", home="New", away="Match", day=5)
    with pytest.raises(trash.TrashError, match="stays in the trash"):
        trash.restore(folder, trash.listing(folder)[0])
    trash.delete(folder, "a.sqlite", when)        # the same second, the same name
    assert len(trash.listing(folder)) == 2
    with pytest.raises(trash.TrashError, match="no match file"):
        trash.delete(folder, "a.sqlite", when)
    with pytest.raises(trash.TrashError, match="no match file"):
        trash.delete(folder, "../escape.sqlite", when)
