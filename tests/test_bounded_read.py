"""Reading any file is bounded (issue 30): every reader opens a match file the same way, so a
FIFO, a device, a socket, a file too large, an SQLite file whose ``events`` is an endless VIEW
or that holds anything but Touchline's tables is refused in one line naming the file, before
anything in it runs, and the folder is left as it was found (no ``-shm`` or ``-wal`` made).

No test here can hang on a regression, by construction: a FIFO is opened by the test itself
for reading and writing first (so an open of it never waits) and primed with a line that is
no journal (so a read of it returns at once); a query that ran away would be stopped by the
progress budget, which counts SQLite's operations, not seconds.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from contextlib import contextmanager
from pathlib import Path

import pytest

import hostile_kit as k
from companion import journal_guard, journal_snapshot, opener
from companion.cli import main
from companion.errors import JournalError, TouchlineError
from companion.journal import Journal, load_file, read_stored
from companion.jsonl import ImportError_, read_file
from companion.match import Match
from companion.report import history as h
from toy_game import Add, Start, ToyRules


@pytest.fixture(scope="module")
def real(tmp_path_factory) -> Path:
    return k.fublet_journal(tmp_path_factory.mktemp("real") / "real.sqlite", commands=40)


@pytest.fixture(autouse=True)
def own_data_dir(tmp_path, monkeypatch):
    """Every command reads this test's data folder (its anchors), never the user's."""
    monkeypatch.setenv("TOUCHLINE_DATA_DIR", str(tmp_path / "data"))


def cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def state(folder: Path) -> dict[str, str]:
    """Every name in the folder with what it is (a FIFO or a socket by its kind, a file by its
    content's digest): what "left as found" compares."""
    out = {}
    for p in sorted(folder.iterdir()):
        if p.is_symlink():
            out[p.name] = f"link to {os.readlink(p)}"
        elif p.is_file():
            out[p.name] = hashlib.sha256(p.read_bytes()).hexdigest()
        else:
            out[p.name] = opener.kind_of(p.stat().st_mode)
    return out


@contextmanager
def primed(fifo: Path):
    """Hold the FIFO open for reading and writing, with a line in it that is no match file:
    a reader that opened it by mistake would get that line at once instead of waiting."""
    fd = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)
    try:
        os.write(fd, b"not a match file\n")
        yield
    finally:
        os.close(fd)


def one_line(err: str, *fragments: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


COMMANDS = ("replay", "verify", "export", "import", "report")


def run_every_command(capsys, path: Path, *fragments: str) -> None:
    """Each command refuses the file with one line naming it, exit 2; nothing is written."""
    folder = path.parent
    before = state(folder)
    for command in COMMANDS:
        extra = {"export": [folder / "out.jsonl"], "import": [folder / "out.sqlite"],
                 "report": ["--out", folder / "report"]}.get(command, [])
        code, _, err = cli(capsys, command, path, *extra)
        assert code == 2, (command, err)
        one_line(err, str(path), *fragments)
        assert state(folder) == before, command


# --- files that are not regular files ----------------------------------------------------------------

@pytest.mark.parametrize("name", ["m.sqlite", "m.jsonl", "m.db", "m"])
def test_a_fifo_is_refused_by_every_command_without_being_read(capsys, tmp_path, name):
    folder = tmp_path / "in"
    folder.mkdir()
    fifo = k.fifo(folder / name)
    with primed(fifo):
        run_every_command(capsys, fifo, "FIFO")


@pytest.mark.parametrize("name", ["m.sqlite", "m.jsonl"])
def test_a_socket_and_a_device_are_refused(capsys, tmp_path, name):
    folder = tmp_path / "in"
    folder.mkdir()
    run_every_command(capsys, k.unix_socket(folder / name), "socket")
    (folder / name).unlink()
    run_every_command(capsys, k.device_link(folder / name, "/dev/zero"), "device")


def test_a_file_too_large_is_refused_by_its_size_before_it_is_read(capsys, tmp_path):
    big = tmp_path / "big.jsonl"
    with open(big, "wb") as fh:  # sparse: takes no room on the disk
        fh.truncate(opener.MAX_BYTES + 1)
    with pytest.raises(ImportError_, match=r"too large for a JSON Lines export \(at most 128.0 MB"):
        read_file(big)
    journal = tmp_path / "big.sqlite"
    big.rename(journal)
    with pytest.raises(JournalError, match="too large"):
        read_stored(journal)


def test_a_side_file_that_is_no_regular_file_is_refused(tmp_path, real):
    path = tmp_path / "m.sqlite"
    path.write_bytes(real.read_bytes())
    fifo = k.fifo(Path(f"{path}-wal"))
    with primed(fifo):
        with pytest.raises(JournalError, match=r"m.sqlite-wal: the write-ahead log \(-wal\) beside the journal is a "
                                               r"FIFO"):
            read_stored(path)


def test_a_line_longer_than_any_event_is_refused_before_it_is_held_whole(tmp_path):
    path = tmp_path / "long.jsonl"
    path.write_text("[" * (3 * 1024 * 1024) + "\n", encoding="utf-8")
    with pytest.raises(ImportError_, match=r"line 1: longer than any event's line"):
        read_file(path)


# --- SQLite files built to hurt --------------------------------------------------------------------------

HOSTILE = [
    ("recursive_view", k.recursive_view, ("'events' is a view",)),
    ("recursive_meta", k.recursive_meta, ("'meta' is a view",)),
    ("generated_column", k.generated_column, ("events.data is a generated or hidden column",)),
    ("virtual_table", k.virtual_table, ("'events' is a virtual table",)),
]


@pytest.mark.parametrize("name, make, fragments", HOSTILE, ids=[c[0] for c in HOSTILE])
def test_a_hostile_schema_is_refused_before_anything_in_it_runs(capsys, tmp_path, name, make, fragments):
    folder = tmp_path / "in"
    folder.mkdir()
    path = make(folder / f"{name}.sqlite")
    run_every_command(capsys, path, "not a journal Touchline wrote", *fragments)


def test_a_trigger_another_table_or_a_foreign_index_beside_ours_is_refused(tmp_path, real):
    cases = [(k.with_trigger(real, tmp_path / "t.sqlite"), "a trigger 't'"),
             (k.extra_table(real, tmp_path / "x.sqlite"), "a table 'notes'"),
             (k.extra_table(real, tmp_path / "v.sqlite", "CREATE VIEW later AS SELECT 1"), "a view 'later'"),
             (k.extra_table(real, tmp_path / "i.sqlite", "CREATE INDEX by_type ON events (type)"), "an index 'by_type'")]
    for path, fragment in cases:
        with pytest.raises(JournalError, match=f"not a journal Touchline wrote: it holds {fragment}"):
            load_file(path)
    other = tmp_path / "o.sqlite"
    other.write_bytes(real.read_bytes())
    conn = sqlite3.connect(other)
    conn.execute("DROP INDEX events_by_status")
    conn.execute("CREATE INDEX events_by_status ON events (abs(seq))")
    conn.commit()
    conn.close()
    with pytest.raises(JournalError, match="its index 'events_by_status' is not the one Touchline makes"):
        load_file(other)


def test_a_sound_journal_passes_the_schema_check_as_written(real):
    assert load_file(real).game == "fublet"


def test_a_game_named_os_or_chess_is_refused_naming_the_file(capsys, tmp_path, real):
    for game in ("os", "chess"):
        path = k.game_named(real, tmp_path / f"{game}.sqlite", game)
        for command in ("replay", "verify"):
            code, _, err = cli(capsys, command, path)
            assert code == 2
            one_line(err, str(path), f"no ruleset for game '{game}'")
    odd = k.game_named(real, tmp_path / "odd.sqlite", "../../etc")
    code, _, err = cli(capsys, "verify", odd)
    one_line(err, str(odd), "which is no game's name")


# --- side files: the folder is left as found -------------------------------------------------------------

@pytest.mark.parametrize("side", ["-wal", "-shm"])
def test_a_lone_side_file_of_garbage_makes_no_other_beside_the_journal(capsys, tmp_path, real, side):
    folder = tmp_path / "in"
    folder.mkdir()
    path = folder / "m.sqlite"
    path.write_bytes(real.read_bytes())
    Path(f"{path}{side}").write_bytes(bytes((i * 37 + 11) % 256 for i in range(4096)))
    before = state(folder)
    code, out, err = cli(capsys, "verify", path)
    assert code == 0, err
    assert "ok:" in out
    assert state(folder) == before  # no -shm (or -wal) made, nothing changed


def test_a_leftover_wal_is_still_read(tmp_path):
    """A -wal a killed writer left, copied without its -shm: its commits are read (through a
    private copy), and the folder stays as found."""
    src = tmp_path / "src.sqlite"
    j = Journal.create(src, "toy")
    m = Match(ToyRules(), j)
    m.submit(Start())
    j._conn.execute("PRAGMA wal_autocheckpoint = 0")  # keep the commits in the -wal
    m.submit(Add(1))
    m.submit(Add(2))
    folder = tmp_path / "copy"
    folder.mkdir()
    (folder / "m.sqlite").write_bytes(src.read_bytes())
    (folder / "m.sqlite-wal").write_bytes(Path(f"{src}-wal").read_bytes())
    m.close()
    before = state(folder)
    assert [e.seq for e in load_file(folder / "m.sqlite").events][-1] == m.last_seq
    assert state(folder) == before


# --- SQLite's own limits ---------------------------------------------------------------------------------

def test_the_progress_budget_stops_a_statement_that_runs_away():
    conn = sqlite3.connect(":memory:")
    budget = journal_guard.Budget(200_000)
    journal_guard.harden(conn, budget)
    with pytest.raises(sqlite3.OperationalError, match="interrupted"):
        conn.execute("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) "
                     "SELECT n FROM r ORDER BY n DESC").fetchone()
    assert budget.spent
    assert journal_guard.stalled(sqlite3.OperationalError("interrupted"), budget)


def test_a_budget_is_in_proportion_to_the_files_size_and_a_real_read_stays_well_inside(real, monkeypatch):
    budget = journal_guard.Budget(10**9)
    before = budget.calls_left
    monkeypatch.setattr(journal_snapshot, "budget_for", lambda size: budget)
    read_stored(real)
    ops = (before - budget.calls_left) * journal_guard.STEP
    allowed = journal_guard.BASE_OPS + journal_guard.OPS_PER_BYTE * real.stat().st_size
    assert 0 < ops * 5 < allowed  # a real journal's read takes a fifth of its budget at most


def test_a_query_that_would_need_temporary_storage_is_refused(tmp_path, real):
    conn = sqlite3.connect(f"{real.resolve().as_uri()}?mode=ro&immutable=1", uri=True)
    journal_guard.harden(conn, journal_guard.Budget(10**7))
    with pytest.raises(JournalError, match="would need temporary storage"):
        journal_guard.planned(conn, real, "SELECT seq FROM events ORDER BY data")
    assert journal_guard.planned(conn, real, "SELECT seq FROM events ORDER BY seq").fetchone() == (1,)
    conn.close()


def test_limits_hold_on_every_reading_connection(real):
    conn = sqlite3.connect(f"{real.resolve().as_uri()}?mode=ro&immutable=1", uri=True)
    journal_guard.harden(conn, journal_guard.Budget(10**7))
    for limit, value in journal_guard.LIMITS.items():
        assert conn.getlimit(limit) == value
    assert conn.execute("PRAGMA trusted_schema").fetchone() == (0,)
    with pytest.raises(sqlite3.DataError):
        conn.execute("SELECT zeroblob(2000000)").fetchone()  # a value over 1 MB
    conn.close()


# --- the matches folder: a hostile file is listed, the rest reads ------------------------------------------

def test_hostile_files_in_the_matches_folder_are_listed_as_unreadable_and_the_rest_reads(tmp_path, real):
    folder = tmp_path / "data" / "matches"
    folder.mkdir(parents=True)
    (folder / "good.sqlite").write_bytes(real.read_bytes())
    k.recursive_view(folder / "view.sqlite")
    k.recursive_meta(folder / "meta.sqlite")
    k.generated_column(folder / "gen.sqlite")
    fifo = k.fifo(folder / "fifo.sqlite")
    k.fifo(folder / "fifo.jsonl")
    k.unix_socket(folder / "socket.jsonl")
    k.device_link(folder / "zero.jsonl")
    k.game_named(real, folder / "os.sqlite", "os")
    before = state(folder)
    with primed(fifo), primed(folder / "fifo.jsonl"):
        entries = h.scan(folder, tmp_path / "cache.json")
    by = {e.path.name: e for e in entries}
    assert by["good.sqlite"].ok and by["good.sqlite"].home
    problems = {name: e.problem for name, e in by.items() if not e.ok}
    assert set(problems) == {"view.sqlite", "meta.sqlite", "gen.sqlite", "fifo.sqlite", "fifo.jsonl", "socket.jsonl",
                             "zero.jsonl", "os.sqlite"}
    assert "'events' is a view" in problems["view.sqlite"]
    assert "FIFO" in problems["fifo.jsonl"] and "FIFO" in problems["fifo.sqlite"]
    assert "socket" in problems["socket.jsonl"] and "device" in problems["zero.jsonl"]
    assert "no ruleset for game 'os'" in problems["os.sqlite"]
    assert state(folder) == before


def test_history_lists_such_a_folder_in_one_line_a_file(capsys, tmp_path, real):
    folder = tmp_path / "m"
    folder.mkdir()
    (folder / "good.sqlite").write_bytes(real.read_bytes())
    k.recursive_view(folder / "view.sqlite")
    code, out, err = cli(capsys, "history", "--folder", folder)
    assert code == 0, err
    assert "good.sqlite" in out and "view.sqlite" in out and "unreadable" in out


# --- the scoreboard's reader -------------------------------------------------------------------------------

def test_the_followers_reader_is_as_bounded(tmp_path, real):
    from ui.web.follow import FollowError, JournalReader, read_match

    view = k.recursive_view(tmp_path / "view.sqlite")
    fifo = k.fifo(tmp_path / "fifo.sqlite")
    zero = k.device_link(tmp_path / "zero.jsonl")
    with primed(fifo):
        for path, fragment in ((view, "'events' is a view"), (fifo, "FIFO"), (zero, "device")):
            with pytest.raises(FollowError, match=fragment):
                read_match(path)
        with pytest.raises(TouchlineError, match="FIFO"):
            JournalReader(fifo)
    folded = read_match(real)
    assert folded.last is not None and folded.last.seq == load_file(real).events[-1].seq
    reader = JournalReader(real)
    valid, events = reader.read([])
    assert valid and events[-1].seq == folded.last.seq


def test_the_follower_refuses_a_journal_swapped_for_a_view_after_it_began(tmp_path, real):
    from ui.web.follow import FollowError, JournalReader

    path = tmp_path / "m.sqlite"
    path.write_bytes(real.read_bytes())
    reader = JournalReader(path)
    path.unlink()
    k.recursive_view(path)
    with pytest.raises(FollowError, match="'events' is a view"):
        reader.read([1, 2])


def test_a_file_with_more_events_than_any_match_is_refused_before_its_rows_are_read(capsys, tmp_path, real,
                                                                                    monkeypatch):
    import companion.journal as journal_module
    import companion.jsonl as jsonl_module

    total = len(load_file(real).checked.events)
    export = tmp_path / "m.jsonl"
    assert cli(capsys, "export", real, export)[0] == 0
    monkeypatch.setattr(journal_module, "MAX_EVENTS", total - 1)
    monkeypatch.setattr(jsonl_module, "MAX_EVENTS", total - 1)
    with pytest.raises(JournalError, match=f"holds {total:,} events, more than any match"):
        load_file(real)
    with pytest.raises(ImportError_, match=f"line {total + 1}: more events than any match"):
        read_file(export)
