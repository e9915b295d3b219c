"""Hostile match files, made on demand: what issue 30 tried as an attacker or an unlucky user.

Each maker writes one file (and any side file) into a folder and returns its path. The tests
(tests/test_bounded_read.py, tests/test_hostile_fuzz.py) and the benchmark
(benchmarks/hostile_bench.py) use the same makers, so a figure in docs/benchmarks.md is about
exactly the file a test refuses.

Nothing here waits or loops on time: a FIFO is made with ``os.mkfifo`` and never opened here,
a socket is bound and closed (its file stays).
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
from pathlib import Path

from companion.journal import APPLICATION_ID, Journal
from companion.journal_chain import GENESIS, chain_hash

META = {"app": "touchline", "game": "fublet", "schema_version": "2", "chain": "full"}
COLUMNS = "seq, batch, at, source, type, data, status, hash"


def fublet_journal(path: Path, commands: int = 60, seed: int = 11) -> Path:
    """A real Fublet journal, ``commands`` deep (rolls, moves, the board in its first event)."""
    from benchmarks.driver import AutoDriver

    driver = AutoDriver.new(seed=seed, journal=Journal.create(path, "fublet"))
    driver.play(commands=commands)
    driver.match.close()
    return path


def marked_sqlite(path: Path, *statements: str, meta: dict[str, str] | None = None, user_version: int = 2) -> Path:
    """An SQLite file that carries Touchline's marks (application id, schema version) and a
    sound ``meta`` table, then whatever ``statements`` make of the rest."""
    if path.exists():
        path.unlink()
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    conn.executemany("INSERT INTO meta VALUES (?, ?)", sorted((meta or META).items()))
    for statement in statements:
        conn.execute(statement)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute(f"PRAGMA user_version = {user_version}")
    conn.commit()
    conn.close()
    return path


def recursive_view(path: Path) -> Path:
    """The issue's 12 kB file: ``events`` is an endlessly recursive VIEW. Reading it in order
    makes SQLite sort rows that never end (100 % CPU, temporary files growing by GBs)."""
    return marked_sqlite(path, "CREATE VIEW events AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL "
                               "SELECT n + 1 FROM r) SELECT n AS seq, n AS batch, '2026-01-01T00:00:00Z' AS at, "
                               "'manual' AS source, 'fublet.x' AS type, '{}' AS data, 'active' AS status, "
                               "'' AS hash FROM r")


def recursive_meta(path: Path) -> Path:
    """``meta`` an endless VIEW and ``events`` a real table."""
    if path.exists():
        path.unlink()
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE events (seq INTEGER PRIMARY KEY, batch INTEGER NOT NULL, at TEXT NOT NULL, "
                 "source TEXT NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL, status TEXT NOT NULL, "
                 "hash TEXT NOT NULL)")
    conn.execute("CREATE VIEW meta AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) "
                 "SELECT 'k' || n AS key, 'v' AS value FROM r ORDER BY n DESC")
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute("PRAGMA user_version = 2")
    conn.commit()
    conn.close()
    return path


def with_trigger(src: Path, path: Path) -> Path:
    """A real journal with a trigger beside its tables (nothing a reader runs, but not ours)."""
    path.write_bytes(src.read_bytes())
    conn = sqlite3.connect(path)
    conn.execute("CREATE TRIGGER t AFTER INSERT ON meta BEGIN DELETE FROM events; END")
    conn.commit()
    conn.close()
    return path


def extra_table(src: Path, path: Path, sql: str = "CREATE TABLE notes (x)") -> Path:
    path.write_bytes(src.read_bytes())
    conn = sqlite3.connect(path)
    conn.execute(sql)
    conn.commit()
    conn.close()
    return path


def generated_column(path: Path) -> Path:
    """``events`` a table whose ``data`` is a generated column (computed on every read)."""
    return marked_sqlite(path, "CREATE TABLE events (seq INTEGER PRIMARY KEY, batch INTEGER NOT NULL, "
                               "at TEXT NOT NULL, source TEXT NOT NULL, type TEXT NOT NULL, "
                               "data TEXT GENERATED ALWAYS AS (printf('%.*c', 1000000, 'x')) VIRTUAL, "
                               "status TEXT NOT NULL, hash TEXT NOT NULL)")


def virtual_table(path: Path) -> Path:
    """``events`` an FTS virtual table (module code runs on every read)."""
    return marked_sqlite(path, f"CREATE VIRTUAL TABLE events USING fts5({COLUMNS})")


def fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def unix_socket(path: Path) -> Path:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.bind(str(path))
    finally:
        s.close()
    return path


def device_link(path: Path, device: str = "/dev/zero") -> Path:
    """A symbolic link to a device that never ends (reading it would fill memory)."""
    path.symlink_to(device)
    return path


def garbage_wal(src: Path, path: Path, size: int = 4096) -> Path:
    """A copy of a journal with a ``-wal`` of garbage beside it (and no ``-shm``)."""
    path.write_bytes(src.read_bytes())
    Path(f"{path}-wal").write_bytes(bytes((i * 37 + 11) % 256 for i in range(size)))
    return path


def game_named(src: Path, path: Path, game: str) -> Path:
    """A copy of a journal whose header names another game (``os``, ``chess``...)."""
    path.write_bytes(src.read_bytes())
    conn = sqlite3.connect(path)
    conn.execute("UPDATE meta SET value = ? WHERE key = 'game'", (game,))
    conn.commit()
    conn.close()
    return path


def cut_journal(src: Path, path: Path, drop: int) -> Path:
    """A copy of a journal with its last ``drop`` events deleted (the chain before them holds)."""
    path.write_bytes(src.read_bytes())
    conn = sqlite3.connect(path)
    last = conn.execute("SELECT max(seq) FROM events").fetchone()[0]
    conn.execute("DELETE FROM events WHERE seq > ?", (last - drop,))
    conn.commit()
    conn.execute("VACUUM")
    conn.close()
    return path


def export_lines_of(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def stripped_export(export: Path, path: Path, edit=None) -> Path:
    """An export with its header, closing line and hashes removed, and (``edit``: a function of
    the event objects) events changed: what a careless or careful editor leaves."""
    events = [json.loads(line) for line in export_lines_of(export)]
    events = [e for e in events if "touchline" not in e]
    for e in events:
        e.pop("hash", None)
    if edit is not None:
        edit(events)
    path.write_text("".join(json.dumps(e, separators=(",", ":")) + "\n" for e in events), encoding="utf-8")
    return path


def rechained_export(export: Path, path: Path, edit) -> Path:
    """An export edited by ``edit`` and then given a fresh chain, header and closing line that
    match: a forgery the file alone cannot reveal (only an anchor kept elsewhere can)."""
    lines = [json.loads(line) for line in export_lines_of(export)]
    header = lines[0]
    events = [e for e in lines[1:] if "touchline" not in e]
    edit(events)
    prev = GENESIS
    for e in events:
        data = json.dumps(e["data"], separators=(",", ":"))
        prev = chain_hash(prev, e["seq"], e["batch"], e["at"], e["source"], e["type"], data)
        e["hash"] = prev
    header.update(events=len(events), last_seq=events[-1]["seq"], head=prev)
    out = [header, *events]
    if any(o.get("touchline") == "export end" for o in lines):
        out.append({"touchline": "export end", "events": len(events), "last_seq": events[-1]["seq"], "head": prev})
    path.write_text("".join(json.dumps(o, separators=(",", ":")) + "\n" for o in out), encoding="utf-8")
    return path


def forged_rows(game_created: tuple, count: int, payload_of) -> list[tuple]:
    """``count`` rows after a real creation row, chained as Touchline chains them: only the
    rules can refuse them. ``payload_of(seq)`` gives each row's (type, source, data text)."""
    seq, batch, at, source, type_, data = game_created[:6]
    rows = [(seq, batch, at, source, type_, data, "active", chain_hash(GENESIS, seq, batch, at, source, type_, data))]
    prev = rows[0][-1]
    for n in range(2, count + 2):
        type_, source, data = payload_of(n)
        prev = chain_hash(prev, n, n, at, source, type_, data)
        rows.append((n, n, at, source, type_, data, "active", prev))
    return rows


def journal_of_rows(path: Path, rows: list[tuple], meta: dict[str, str] | None = None) -> Path:
    """A journal file with Touchline's own schema holding ``rows`` as given."""
    from companion.journal import _SCHEMA  # the very schema Touchline writes

    if path.exists():
        path.unlink()
    conn = sqlite3.connect(path)
    conn.executescript(_SCHEMA)
    conn.executemany("INSERT INTO meta VALUES (?, ?)", sorted((meta or META).items()))
    conn.executemany(f"INSERT INTO events ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute("PRAGMA user_version = 2")
    conn.commit()
    conn.close()
    return path


def side_files(path: Path) -> list[str]:
    """The names in the file's folder that begin with its name (the file and its side files)."""
    return sorted(p.name for p in path.parent.iterdir() if p.name.startswith(path.name))
