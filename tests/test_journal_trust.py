"""Trustworthy books (issue 11): a consistent snapshot beside a live writer, the hash chain,
impossible contents refused, and no traceback from any file (one line, exit status 2, the
file untouched)."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from pathlib import Path

import pytest

from benchmarks.driver import AutoDriver
from benchmarks.football_leader_driver import AutoDriver as LeaderDriver
from companion import journal_snapshot
from companion.cli import main
from companion.errors import JournalError
from companion.journal import Journal, check_stored, load_file, read_stored
from companion.journal_chain import GENESIS, chain_hash
from companion.jsonl import ImportError_, import_to_journal, read_file, read_lines
from companion.match import Match
from toy_game import RULESETS, Add, ResetCounter, Start, ToyRules


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def toy_journal(path: Path, adds=(1, 2, 3), undo: int = 0) -> Match:
    m = Match(ToyRules(), Journal.create(path, "toy"))
    m.submit(Start())
    for n in adds:
        m.submit(Add(n))
    m.undo(undo)
    return m


@pytest.fixture(scope="module")
def fublet(tmp_path_factory) -> Path:
    """A Fublet journal 60 commands deep: rolls, moves, the board in its first event."""
    path = tmp_path_factory.mktemp("trust") / "fublet.sqlite"
    driver = AutoDriver.new(seed=11, journal=Journal.create(path, "fublet"))
    driver.play(commands=60)
    driver.match.close()
    return path


def edited(src: Path, dst: Path, *sql: str, rechain: bool = False) -> Path:
    """A copy of a journal changed by SQL; ``rechain`` rewrites every hash afterwards, as a
    careful forger would, so only the domain checks can catch the change."""
    dst.write_bytes(src.read_bytes())
    conn = sqlite3.connect(dst)
    for statement in sql:
        conn.execute(statement)
    if rechain:
        prev = GENESIS
        for row in conn.execute("SELECT seq, batch, at, source, type, data FROM events ORDER BY seq").fetchall():
            prev = chain_hash(prev, *row)
            conn.execute("UPDATE events SET hash = ? WHERE seq = ?", (prev, row[0]))
    conn.commit()
    conn.close()
    return dst


def cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys, path: Path, *fragments: str, command: str = "verify") -> str:
    before = digest(path)
    code, out, err = cli(capsys, command, path)
    assert code == 2, (out, err)
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert str(path) in lines[0]
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    assert digest(path) == before
    return lines[0]


# --- the chain ------------------------------------------------------------------------------------

def test_a_sound_journal_and_its_export_verify(capsys, fublet, tmp_path):
    code, out, err = cli(capsys, "verify", fublet)
    assert code == 0, err
    assert "ok:" in out and "hash chain intact" in out
    export = tmp_path / "m.jsonl"
    assert cli(capsys, "export", fublet, export)[0] == 0
    code, out, _ = cli(capsys, "verify", export)
    assert code == 0 and "hash chain intact" in out
    # the chain survives export and import: the imported journal stores the same hashes
    target = tmp_path / "again.sqlite"
    assert cli(capsys, "import", export, target)[0] == 0
    assert load_file(target).checked.hashes == load_file(fublet).checked.hashes


def test_an_edited_event_breaks_the_chain_there(capsys, fublet, tmp_path):
    path = edited(fublet, tmp_path / "m.sqlite", "UPDATE events SET at = '2020-01-01T00:00:00.000000Z' WHERE seq = 9")
    refused(capsys, path, "event 9", "hash chain breaks here")


REBUILT = ("CREATE TABLE e2 (seq INTEGER PRIMARY KEY, batch, at, source, type, data, status, hash)",
           "INSERT INTO e2 SELECT * FROM events", "DROP TABLE events", "ALTER TABLE e2 RENAME TO events")


@pytest.mark.parametrize("sql, fragment", [
    ("DELETE FROM events WHERE seq = 12", "event 12 missing before it"),
    ("UPDATE events SET seq = seq + 1000 WHERE seq = (SELECT max(seq) FROM events)", "missing before it"),
    ("UPDATE events SET status = 'maybe' WHERE seq = 5", "unknown status 'maybe'"),
])
def test_lost_or_changed_rows_are_named(capsys, fublet, tmp_path, sql, fragment):
    # the CHECK constraint and the types are gone, as in a file someone rebuilt by hand with
    # Touchline's tables and columns: it is read, and its rows are checked one by one
    path = edited(fublet, tmp_path / "m.sqlite", *REBUILT, sql)
    refused(capsys, path, fragment)


def test_a_table_without_its_key_could_hold_a_seq_twice_and_is_refused_by_its_schema(capsys, fublet, tmp_path):
    # without seq as its key a table could hold event 20 twice (and would need sorting to
    # read in order): the schema check refuses it before any row is read
    path = edited(fublet, tmp_path / "m.sqlite",
                  "CREATE TABLE e2 AS SELECT * FROM events", "DROP TABLE events", "ALTER TABLE e2 RENAME TO events",
                  "INSERT INTO events SELECT * FROM events WHERE seq = 20")
    refused(capsys, path, "events table is missing or changed", "seq is not its INTEGER PRIMARY KEY")
    # (a repeated seq where a file can hold one, an export, is named by the rows' check:
    # tests/test_journal.py)


def test_a_batch_mixing_active_and_undone_is_refused(capsys, tmp_path):
    m = toy_journal(tmp_path / "src.sqlite", adds=(4, 6))  # seq 3 toy.added and seq 4 toy.full: one batch
    m.close()
    path = edited(tmp_path / "src.sqlite", tmp_path / "m.sqlite", "UPDATE events SET status = 'undone' WHERE seq = 4")
    with pytest.raises(JournalError, match="batch 3 mixes 'active' and 'undone'"):
        load_file(path)


def test_header_schema_disagreeing_with_the_file(capsys, fublet, tmp_path):
    path = edited(fublet, tmp_path / "m.sqlite", "UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    refused(capsys, path, "header table says schema '1' but the file is marked schema 2")


# --- the event types' domains (the chain rewritten to match: only the domain can tell) -------------

def first(path: Path, type_: str, where: str = "1") -> tuple[int, dict]:
    conn = sqlite3.connect(path)
    seq, data = conn.execute(f"SELECT seq, data FROM events WHERE type = ? AND {where} ORDER BY seq LIMIT 1",
                             (type_,)).fetchone()
    conn.close()
    return seq, json.loads(data)


def with_data(src: Path, dst: Path, seq: int, data: dict | str) -> Path:
    text = data if isinstance(data, str) else json.dumps(data, separators=(",", ":"))
    return edited(src, dst, f"UPDATE events SET data = '{text}' WHERE seq = {seq}", rechain=True)


def test_a_percentile_reading_of_150(capsys, fublet, tmp_path):
    seq, data = first(fublet, "fublet.dice_rolled", "json_array_length(data, '$.roll.dice') = 2")
    data["reading"] = 150
    path = with_data(fublet, tmp_path / "m.sqlite", seq, data)
    refused(capsys, path, f"event {seq}", "150 is not a reading of the roll")


def test_a_square_off_the_board(capsys, fublet, tmp_path):
    seq, data = first(fublet, "fublet.player_moved", "json_extract(data, '$.to') IS NOT NULL")
    data["to"] = [999, 999]
    path = with_data(fublet, tmp_path / "m.sqlite", seq, data)
    refused(capsys, path, f"event {seq}", "square (999, 999) is not on this match's board")


def test_a_football_leader_space_off_the_board(capsys, tmp_path):
    """A field annotated with the bare ``Space`` (a counter's move) is checked as much as an
    optional or a listed one: its hint comes back from ``get_type_hints`` as a new int pair."""
    src = tmp_path / "fl.sqlite"
    driver = LeaderDriver.new(seed=5, journal=Journal.create(src, "football_leader"))
    driver.play(commands=200)
    driver.match.close()
    seq, data = first(src, "football_leader.counter_moved")
    data["to"] = [999, 999]
    path = with_data(src, tmp_path / "m.sqlite", seq, data)
    refused(capsys, path, f"event {seq}", "square (999, 999) is not on this match's board")


def test_a_nan_board_length(capsys, fublet, tmp_path):
    conn = sqlite3.connect(fublet)
    text = conn.execute("SELECT data FROM events WHERE seq = 1").fetchone()[0]
    conn.close()
    assert '"length_mm":' in text
    head, tail = text.split('"length_mm":', 1)
    number = tail.split(",", 1)[0]
    path = with_data(fublet, tmp_path / "m.sqlite", 1, f'{head}"length_mm":NaN{tail[len(number):]}')
    refused(capsys, path, "event 1", "NaN")


# --- JSON Lines -----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def export_lines_(fublet, tmp_path_factory) -> list[str]:
    out = tmp_path_factory.mktemp("exp") / "m.jsonl"
    assert main(["export", str(fublet), str(out)]) == 0
    return out.read_text(encoding="utf-8").splitlines()


def write(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "x.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_export_with_a_line_deleted(capsys, export_lines_, tmp_path):
    lines = export_lines_[:30] + export_lines_[31:]
    refused(capsys, write(tmp_path, lines), "line 31", "missing before it", command="replay")


def test_export_with_its_last_event_deleted(capsys, export_lines_, tmp_path):
    last = json.loads(export_lines_[-2])["seq"]
    lines = export_lines_[:-2] + export_lines_[-1:]
    refused(capsys, write(tmp_path, lines), f"ends early: events after {last - 1} are missing", command="replay")


def test_export_cut_before_its_closing_line(capsys, export_lines_, tmp_path):
    refused(capsys, write(tmp_path, export_lines_[:-1]), "ends early: its closing line is missing", command="verify")


def test_export_with_its_header_removed(capsys, export_lines_, tmp_path):
    refused(capsys, write(tmp_path, export_lines_[1:]), "line 1", "no header line", command="replay")


def test_export_renumbered(capsys, export_lines_, tmp_path):
    lines = list(export_lines_)
    for i in range(10, len(lines) - 1):  # every event line from line 11 (not the closing line)
        obj = json.loads(lines[i])
        obj["seq"] += 1
        obj["batch"] += 1
        lines[i] = json.dumps(obj)
    refused(capsys, write(tmp_path, lines), "line 11: event 11: event 10 missing", command="replay")


def test_seq_beyond_sqlite_and_deep_nesting_and_nan(tmp_path):
    base = '{"seq":%s,"batch":1,"at":"2026-01-01T00:00:00.000000Z","source":"manual","type":"toy.started","data":%s}'
    for seq, data, fragment in [(2 ** 64, "{}", "seq must be an integer from 1 to"),
                                (1, "[" * 200_000 + "]" * 200_000, "nested too deeply"),
                                (1, '{"name": NaN}', "NaN is not a number JSON allows")]:
        with pytest.raises(ImportError_, match=fragment):
            read_lines([base % (seq, data)], "x.jsonl")


# --- reading beside a writer ------------------------------------------------------------------------

def test_reads_beside_a_writer_that_checkpoints_often_are_never_torn(tmp_path):
    path = tmp_path / "live.sqlite"
    m = toy_journal(path, adds=())
    m.journal._conn.execute("PRAGMA wal_autocheckpoint = 20")
    stop = threading.Event()

    def write() -> None:
        while not stop.is_set():
            m.submit(ResetCounter())
            m.submit(Add(1))  # bigger rows too, so pages fill and checkpoints come often

    writer = threading.Thread(target=write)
    writer.start()
    counts = []
    try:
        for _ in range(150):
            loaded = load_file(path)  # raises on a torn or inconsistent snapshot
            counts.append(len(loaded.checked.rows))
    finally:
        stop.set()
        writer.join()
    m.close()
    assert counts == sorted(counts) and counts[-1] > counts[0]


def test_a_reader_that_cannot_open_in_place_reads_a_checked_private_copy(tmp_path, monkeypatch):
    path = tmp_path / "m.sqlite"
    m = toy_journal(path, adds=(1, 2))  # still open: -wal and -shm lie beside it
    expected = load_file(path).checked.rows
    monkeypatch.setattr(journal_snapshot, "_attempt", lambda p, reader, before: journal_snapshot._CANNOT_OPEN)
    assert load_file(path).checked.rows == expected
    m.close()


# --- opening old journals -----------------------------------------------------------------------------

def schema1(src: Path, dst: Path) -> Path:
    """A journal as Touchline wrote it before the chain (schema 1)."""
    return edited(src, dst, "CREATE TABLE e2 (seq INTEGER PRIMARY KEY, batch INTEGER NOT NULL, at TEXT NOT NULL, "
                            "source TEXT NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL, status TEXT NOT NULL "
                            "DEFAULT 'active' CHECK (status IN ('active', 'undone', 'discarded')))",
                  "INSERT INTO e2 SELECT seq, batch, at, source, type, data, status FROM events",
                  "DROP TABLE events", "ALTER TABLE e2 RENAME TO events",
                  "UPDATE meta SET value = '1' WHERE key = 'schema_version'", "DELETE FROM meta WHERE key = 'chain'",
                  "PRAGMA user_version = 1")


def test_a_schema_1_journal_replays_the_same_and_is_upgraded_when_opened_for_writing(capsys, fublet, tmp_path):
    old = schema1(fublet, tmp_path / "old.sqlite")
    before = digest(old)
    code, out, err = cli(capsys, "replay", old, "--json-indent", "0")
    assert code == 0 and err == ""
    code, said, _ = cli(capsys, "verify", old)
    assert code == 0 and "schema 1 keeps no hash chain" in said
    code, fresh, _ = cli(capsys, "replay", fublet, "--json-indent", "0")
    assert out == fresh and digest(old) == before  # read-only paths never upgrade
    export = tmp_path / "old.jsonl"
    assert cli(capsys, "export", old, export)[0] == 0 and digest(old) == before
    header = json.loads(export.read_text(encoding="utf-8").splitlines()[0])
    assert header["chain"].startswith("computed ") and "schema 1" in header["chain"]
    code, out, _ = cli(capsys, "verify", export)
    assert code == 0 and "hash chain intact" in out and "note: " in out
    m = Match.open(old)
    m.close()
    stored = read_stored(old)
    assert stored.version == 2 and stored.meta["chain"].startswith("upgraded ")
    assert check_stored(stored).checked.hashes == load_file(fublet).checked.hashes
    code, out, _ = cli(capsys, "verify", old)
    assert code == 0 and "vouches for earlier events only as they were then" in out


# --- import: stale files, unwritable places ----------------------------------------------------------

def test_a_stale_wal_beside_the_import_target_is_not_applied(capsys, tmp_path):
    m = toy_journal(tmp_path / "m.sqlite", adds=(1, 2))
    m.close()
    export = tmp_path / "m.jsonl"
    assert cli(capsys, "export", tmp_path / "m.sqlite", export)[0] == 0
    target = tmp_path / "new.sqlite"
    stale = Path(f"{target}-wal")
    stale.write_bytes(b"left over by another journal" * 100)
    before = digest(stale)
    imported = read_file(export)
    with pytest.raises(JournalError, match=r"a stale new.sqlite-wal lies there"):
        import_to_journal(imported, target, "toy")
    assert digest(stale) == before and not target.exists()


def test_import_into_a_place_that_cannot_hold_a_journal(capsys, fublet, tmp_path):
    export = tmp_path / "m.jsonl"
    assert cli(capsys, "export", fublet, export)[0] == 0
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    code, _, err = cli(capsys, "import", export, blocker / "new.sqlite")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "is a file, not a folder" in err


def test_import_onto_a_full_disk(capsys, fublet, tmp_path, monkeypatch):
    export = tmp_path / "m.jsonl"
    assert cli(capsys, "export", fublet, export)[0] == 0
    import companion.journal as journal_module

    def full(*args, **kwargs):
        raise sqlite3.OperationalError("database or disk is full")
    monkeypatch.setattr(journal_module, "_chain_raw", full)
    target = tmp_path / "new.sqlite"
    code, _, err = cli(capsys, "import", export, target)
    assert code == 2 and "database or disk is full" in err and "cannot create the journal" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.jsonl"]


# --- damaged files: one line, exit 2, untouched ------------------------------------------------------

@pytest.mark.parametrize("sql, fragment", [
    (("DROP TABLE events",), "events table is missing or changed"),
    (("ALTER TABLE events RENAME COLUMN data TO payload",), "events table is missing or changed"),
    (("UPDATE events SET data = CAST(x'7b22ff22' AS TEXT) WHERE seq = 3",), "damaged"),
    (("DROP TABLE meta",), "header table is missing"),
])
def test_damaged_journals(capsys, fublet, tmp_path, sql, fragment):
    path = edited(fublet, tmp_path / "m.sqlite", *sql)
    for command in ("replay", "verify"):
        refused(capsys, path, fragment, command=command)
    code, _, err = cli(capsys, "export", path, tmp_path / "out.jsonl")
    assert code == 2 and not (tmp_path / "out.jsonl").exists()


def test_an_active_only_export_says_so_verifies_and_imports_into_a_journal_that_goes_on(capsys, tmp_path):
    m = toy_journal(tmp_path / "m.sqlite", adds=(1, 2, 3), undo=1)
    m.submit(Add(4))  # the undone Add(3) is now discarded, in the middle
    m.undo(1)         # and Add(4) undone at the end
    state = m.state
    m.close()
    export = tmp_path / "active.jsonl"
    assert cli(capsys, "export", tmp_path / "m.sqlite", export, "--active-only")[0] == 0
    header = json.loads(export.read_text(encoding="utf-8").splitlines()[0])
    assert header["active_only"] is True and [run[:2] for run in header["omitted"]] == [[4, 5]]
    imported = read_file(export)
    assert "an --active-only export" in imported.note
    target = tmp_path / "again.sqlite"
    import_to_journal(imported, target, "toy").close()
    assert "active-only" in load_file(target).note
    again = Match.open(target, RULESETS)
    assert again.state == state and again.can_redo == 0
    again.submit(Add(5))  # the chain goes on from the imported events
    again.close()
    assert [e.seq for e in load_file(target).events] == [1, 2, 3, 4]
    # dropping a kept line is still found, also where runs were left out
    lines = export.read_text(encoding="utf-8").splitlines()
    with pytest.raises(ImportError_, match="missing before it|hash chain breaks"):
        read_lines(lines[:2] + lines[3:], "x.jsonl")


def test_a_checkpoint_in_the_middle_of_a_read_changes_nothing_it_sees(tmp_path):
    """The interleaving that tore the old copy (a checkpoint between two reads), forced: the
    writer appends and checkpoints while the reader is half-way, and is not held up."""
    path = tmp_path / "live.sqlite"
    m = toy_journal(path, adds=(1, 2))
    m.journal._conn.execute("PRAGMA wal_autocheckpoint = 20")
    seen = []

    def reader(conn, p):
        seen.append(conn.execute("SELECT count(*), max(hash) FROM events").fetchone())
        for _ in range(60):  # several WAL pages: automatic checkpoints happen meanwhile
            m.submit(ResetCounter())
        busy, log, done = m.journal._conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        seen.append(conn.execute("SELECT count(*), max(hash) FROM events").fetchone())
        return done

    done = journal_snapshot.read_snapshot(path, reader)
    assert seen[0] == seen[1] == (3, seen[0][1])  # the read saw one commit throughout
    assert done > 0  # and the writer did checkpoint meanwhile
    assert len(load_file(path).checked.rows) == 63
    m.close()
