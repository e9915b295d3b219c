"""The journal file (SQLite) and its JSON Lines export: storing, reloading, refusing bad files."""

from __future__ import annotations

import hashlib
import io
import json
import os
import sqlite3
from pathlib import Path

import pytest

from companion.errors import JournalError
from companion.journal import APPLICATION_ID, SCHEMA_VERSION, Journal, inspect
from companion.jsonl import ImportError_, export_journal, export_lines, import_to_journal, read_file, read_lines
from companion.match import Match
from toy_game import RULESETS, Add, ResetCounter, Start, ToyRules, ToyState


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def make_journal(path: Path, adds=(1, 2, 3), undo: int = 0, padding: int = 0) -> Match:
    m = Match(ToyRules(), Journal.create(path, "toy"))
    m.submit(Start())
    for n in adds:
        m.submit(Add(n))
    for _ in range(padding):  # more pages, so damage lands inside the data
        m.submit(ResetCounter())
    m.undo(undo)
    return m


@pytest.fixture
def journal_file(tmp_path) -> Path:
    path = tmp_path / "match.sqlite"
    make_journal(path, adds=(1, 2, 3, 4), undo=1, padding=300).close()
    return path


# --- storing and reloading -------------------------------------------------------------------------

def test_create_append_undo_redo_reload_exact_state(tmp_path):
    path = tmp_path / "m.sqlite"
    m = make_journal(path, adds=(1, 2, 3, 4))
    assert m.state == ToyState(True, 10, 4, 1)
    m.undo(2)
    m.redo(1)
    state, events = m.state, m.events
    m.close()

    j = Journal.open(path)
    loaded = j.load()
    assert loaded.game == "toy"
    assert loaded.events == events
    assert [[e.seq for e in batch] for batch in loaded.redo] == [[5, 6]]  # Add(4) and its toy.full
    assert [status for _, status in j.rows()] == ["active"] * 4 + ["undone"] * 2
    j.close()

    m = Match.open(path, RULESETS)
    assert m.state == state and m.events == events and m.can_redo == 1
    m.redo()
    assert m.state == ToyState(True, 10, 4, 1)
    m.close()


def test_header_marks_the_file(tmp_path):
    path = tmp_path / "m.sqlite"
    make_journal(path).close()
    header = path.read_bytes()[:100]
    assert header.startswith(b"SQLite format 3\x00")
    assert int.from_bytes(header[68:72], "big") == APPLICATION_ID
    assert int.from_bytes(header[60:64], "big") == SCHEMA_VERSION
    assert inspect(path) == "toy"
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        meta = dict(conn.execute("SELECT key, value FROM meta"))
    assert meta == {"app": "touchline", "game": "toy", "schema_version": str(SCHEMA_VERSION), "chain": "full"}


def test_creating_over_an_existing_file_is_refused(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("my notes\n")
    before = digest(path)
    with pytest.raises(JournalError, match="already exists"):
        Journal.create(path, "toy")
    assert digest(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]  # no leftovers


def test_creating_makes_the_folder(tmp_path):
    path = tmp_path / "a" / "b" / "m.sqlite"
    Journal.create(path, "toy").close()
    assert inspect(path) == "toy"


# --- refusing files that are not sound journals --------------------------------------------------

def foreign_sqlite(path: Path) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE recipes (name TEXT)")
        conn.execute("INSERT INTO recipes VALUES ('soup')")
    conn.close()


def random_bytes(path: Path) -> None:
    path.write_bytes(os.urandom(5000))


def zero_bytes(path: Path) -> None:
    path.write_bytes(b"")


def newer_schema(path: Path) -> None:
    make_journal(path).close()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 99")
    conn.commit()
    conn.close()


def sqlite_with_our_id_but_no_meta(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute("PRAGMA user_version = 1")
    conn.execute("CREATE TABLE other (x)")
    conn.commit()
    conn.close()


def truncated(path: Path) -> None:
    make_journal(path, padding=300).close()
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def truncated_header(path: Path) -> None:
    make_journal(path).close()
    path.write_bytes(path.read_bytes()[:50])


def damaged_page(path: Path) -> None:
    make_journal(path, padding=300).close()
    data = bytearray(path.read_bytes())
    page = 4096 * 2  # the third page: a b-tree page of the events table
    data[page:page + 64] = b"\xff" * 64
    path.write_bytes(bytes(data))


def undecodable_event(path: Path) -> None:
    make_journal(path).close()
    conn = sqlite3.connect(path)
    conn.execute("UPDATE events SET data = '{\"n\": \"three\"}' WHERE seq = 3")
    conn.commit()
    conn.close()


BAD_FILES = [
    (foreign_sqlite, r"not a Touchline journal \(application id"),
    (random_bytes, r"not a Touchline journal \(not an SQLite file\)"),
    (zero_bytes, r"not a Touchline journal \(not an SQLite file\)"),
    (newer_schema, rf"newer Touchline \(journal schema 99, this version reads up to {SCHEMA_VERSION}\)"),
    (sqlite_with_our_id_but_no_meta, r"damaged or not a journal|header table"),
    (truncated, r"damaged"),
    (truncated_header, r"damaged \(cut short at 50 bytes"),
    (damaged_page, r"damaged"),
]


@pytest.mark.parametrize("make, message", BAD_FILES, ids=[f.__name__ for f, _ in BAD_FILES])
def test_bad_files_are_refused_and_left_untouched(tmp_path, make, message):
    path = tmp_path / "suspect.sqlite"
    make(path)
    before = digest(path)
    listing = sorted(p.name for p in tmp_path.iterdir())
    with pytest.raises(JournalError, match=message) as info:
        Journal.open(path)
    assert str(path) in str(info.value)
    with pytest.raises(JournalError, match=message):
        Match.open(path, RULESETS)
    assert digest(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == listing  # no -wal or -shm made either


def test_an_event_that_does_not_decode_names_its_seq(tmp_path):
    path = tmp_path / "m.sqlite"
    undecodable_event(path)
    with pytest.raises(JournalError, match=r"event 3 \(toy.added\): cannot be read \(data.n: expected an integer.*"
                                           r"and the hash chain breaks here"):
        Match.open(path, RULESETS)


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(JournalError, match="no such journal"):
        Journal.open(tmp_path / "nothing.sqlite")
    with pytest.raises(JournalError, match="is a folder"):
        Journal.open(tmp_path)


def test_closed_journal_refuses_writes(tmp_path):
    m = make_journal(tmp_path / "m.sqlite")
    m.journal.close()
    with pytest.raises(JournalError, match="closed"):
        m.submit(Add(1))


# --- JSON Lines -----------------------------------------------------------------------------------------

def test_jsonl_round_trip_keeps_events_and_statuses(tmp_path):
    source = tmp_path / "m.sqlite"
    m = make_journal(source, adds=(1, 2, 3, 4), undo=2)
    m.redo(1)
    m.submit(Add(0))   # discards the batch still undone
    m.undo(1)          # and leaves this one undone (redoable)
    m.close()
    j = Journal.open(source)
    rows = list(j.rows())
    out = tmp_path / "m.jsonl"
    assert export_journal(j, out) == len(rows)
    j.close()
    assert not Path(f"{out}.partial").exists()

    imported = read_file(out)
    assert [(e.to_json(), s) for e, s in imported.all_rows] == [(e.to_json(), s) for e, s in rows]
    assert {s for _, s in rows} == {"active", "undone", "discarded"}

    copy = tmp_path / "copy.sqlite"
    import_to_journal(imported, copy, "toy").close()
    a, b = Match.open(source, RULESETS), Match.open(copy, RULESETS)
    assert a.state == b.state and a.events == b.events and a.can_redo == b.can_redo == 1
    a.close()
    b.close()


def test_export_active_only(tmp_path):
    m = make_journal(tmp_path / "m.sqlite", undo=1)
    buffer = io.StringIO()
    count = export_lines(m.journal.rows(), buffer, include_undone=False)
    assert count == len(m.events)
    assert '"status"' not in buffer.getvalue()
    m.close()


def test_import_refuses_an_existing_journal(tmp_path):
    path = tmp_path / "m.sqlite"
    make_journal(path).close()
    before = digest(path)
    buffer = io.StringIO()
    j = Journal.open(path)
    export_lines(j.rows(), buffer)
    j.close()
    with pytest.raises(JournalError, match="already exists"):
        import_to_journal(read_lines(buffer.getvalue().splitlines()), path, "toy", accept_altered=True)
    assert digest(path) == before


def good_lines() -> list[str]:
    m = Match(ToyRules())
    m.submit(Start())
    m.submit(Add(4))
    m.submit(Add(6))  # seq 3 toy.added, seq 4 toy.full (derived)
    return [e.to_line() for e in m.events]


def edit(line: str, **changes) -> str:
    obj = json.loads(line)
    for key, value in changes.items():
        if value is None:
            obj.pop(key, None)
        else:
            obj[key] = value
    return json.dumps(obj)


BAD_LINES = [
    ("bad JSON", lambda ls: ls[:2] + ['{"seq": 3, "at": '] + ls[3:], 3, r"not valid JSON"),
    ("unknown type", lambda ls: ls[:1] + [edit(ls[1], type="toy.multiplied")] + ls[2:], 2,
     r"unknown event type 'toy.multiplied'"),
    ("missing envelope field", lambda ls: ls[:1] + [edit(ls[1], at=None)] + ls[2:], 2, r"at: missing field"),
    ("missing payload field", lambda ls: ls[:1] + [edit(ls[1], data={})] + ls[2:], 2,
     r"data.n: missing field"),
    ("wrong payload type", lambda ls: ls[:1] + [edit(ls[1], data={"n": "4"})] + ls[2:], 2,
     r"data.n: expected an integer"),
    ("seq out of order", lambda ls: [ls[0], ls[2], ls[1], ls[3]], 2, r"event 3: event 2 missing before it"),
    ("repeated seq", lambda ls: [ls[0], ls[1], ls[1], ls[2], ls[3]], 3, r"event 2: this seq appears twice"),
    ("wrong source for a derived event", lambda ls: ls[:3] + [edit(ls[3], source="manual")], 4,
     r"toy.full is derived by the rules; its source must be 'rules'"),
    ("unknown status", lambda ls: ls[:1] + [edit(ls[1], status="maybe")] + ls[2:], 2,
     r"unknown status 'maybe' \(expected one of active, undone, discarded\)"),
    ("line deleted", lambda ls: [ls[0], ls[1], ls[3]], 3, r"event 4: event 3 missing before it \(lost or deleted\)"),
    ("batch never started", lambda ls: [ls[0], ls[1], edit(ls[2], batch=2), ls[3]], 4,
     r"event 4: belongs to batch 3, but the command before it is batch 2"),
    ("batch mixes statuses", lambda ls: ls[:3] + [edit(ls[3], status="undone")], 4, r"mixes 'active' and 'undone'"),
    ("not an object", lambda ls: ls[:1] + ["[1, 2]"] + ls[2:], 2, r"expected a JSON object"),
    ("blank lines still count", lambda ls: [ls[0], "", "   ", edit(ls[1], type="toy.nope")] + ls[2:], 4,
     r"unknown event type"),
]


@pytest.mark.parametrize("name, mutate, line, message", BAD_LINES, ids=[b[0] for b in BAD_LINES])
def test_bad_jsonl_lines_are_named_by_number(tmp_path, name, mutate, line, message):
    lines = mutate(good_lines())
    with pytest.raises(ImportError_, match=message) as info:
        read_lines(lines, "export.jsonl")
    assert info.value.line == line
    assert str(info.value).startswith(f"export.jsonl, line {line}: ")
    path = tmp_path / "export.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(ImportError_, match=rf"export.jsonl, line {line}: "):
        read_file(path)


def test_good_lines_read_back():
    imported = read_lines(good_lines())
    assert [e.seq for e in imported.events] == [1, 2, 3, 4]
    assert Match.from_events(ToyRules(), imported.events).state == ToyState(True, 10, 2, 1)


def test_undone_batch_before_active_events_is_refused():
    lines = good_lines()
    lines[1] = edit(lines[1], status="undone")
    with pytest.raises(ImportError_, match="active batch 3 comes after undone batch 2") as info:
        read_lines(lines, "x.jsonl")
    assert info.value.line == 3 and str(info.value).startswith("x.jsonl, line 3: ")


def test_unreadable_jsonl_files(tmp_path):
    with pytest.raises(ImportError_, match="cannot read the file"):
        read_file(tmp_path / "missing.jsonl")
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(ImportError_, match="not UTF-8"):
        read_file(binary)
