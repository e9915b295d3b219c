"""Fuzz: no file, however mangled, makes reading a journal or an export raise anything but a
TouchlineError (one line naming the file), and reading never changes the file.

10,000+ seeded cases over small files, so the run stays short: byte-level mutations of
chained and unchained JSON Lines (a toy match and a real Fublet one), byte-level damage to a
journal file, and SQL-level edits of a journal (rows deleted, duplicated, renumbered, values
of the wrong type, tables dropped, columns renamed, marks changed); then 400 mangled Fublet
journals and exports through the whole ``touchline replay/verify/export`` command, which must
exit 0 or 2 with one error line. Any other exception is a traceback a coach would see; the
test collects them and names the first few cases.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import random
import sqlite3
import traceback
from pathlib import Path
from typing import Callable

import pytest

from benchmarks.driver import AutoDriver
from companion.cli import main
from companion.errors import TouchlineError
from companion.fublet.rules import FubletRules
from companion.journal import Journal, load_file
from companion.jsonl import export_journal, export_lines, read_lines
from companion.match import Match
from toy_game import Add, ResetCounter, Start, ToyRules

SEED = 20261201
JSONL_TOY, JSONL_LEGACY, JSONL_FUBLET, JOURNAL_BYTES, JOURNAL_SQL = 3000, 1500, 1000, 2500, 2000
CLI_CASES = 400  # Fublet journals and exports through the whole command: exit 0 or 2, one line
RULES = {"toy": ToyRules(), "fublet": FubletRules()}


def fold(loaded) -> None:
    rules = RULES.get(loaded.game)
    if rules is not None:
        Match.from_events(rules, loaded.events, loaded.redo)


def toy_match(path: Path | None) -> Match:
    m = Match(ToyRules(), Journal.create(path, "toy") if path else None)
    m.submit(Start())
    for n in (1, 2, 3, 4):
        m.submit(Add(n))
    m.undo(1)
    m.submit(ResetCounter())
    m.submit(Add(6))
    m.undo(1)
    return m


@pytest.fixture(scope="module")
def bases(tmp_path_factory) -> dict:
    folder = tmp_path_factory.mktemp("fuzz")
    journal = folder / "toy.sqlite"
    toy_match(journal).close()
    chained = folder / "toy.jsonl"
    with Journal.open(journal) as j:
        export_journal(j, chained)
    m = toy_match(None)
    buf = io.StringIO()
    export_lines(((e, "active") for e in m.events), buf)
    legacy = buf.getvalue()
    fub = folder / "fublet.sqlite"
    driver = AutoDriver.new(seed=3, journal=Journal.create(fub, "fublet"))
    driver.play(commands=6)
    driver.match.close()
    fub_export = folder / "fublet.jsonl"
    with Journal.open(fub) as j:
        export_journal(j, fub_export)
    return {"journal": journal.read_bytes(), "chained": chained.read_text(encoding="utf-8"), "legacy": legacy,
            "fublet": fub_export.read_text(encoding="utf-8"), "fublet_journal": fub.read_bytes(), "folder": folder}


# --- mutations ------------------------------------------------------------------------------------

NASTY = ['NaN', 'Infinity', '-1', '0', '18446744073709551616', '1e999', '"x"', 'null', 'true', '[]', '{}',
         '"\\ud800"', '[' * 5000 + ']' * 5000, '9' * 400, '"' + 'é' * 50 + '"', '1.5']


def mutate_text(rng: random.Random, text: str) -> str:
    lines = text.splitlines()
    kind = rng.randrange(9)
    if kind == 0 and lines:  # delete a line
        del lines[rng.randrange(len(lines))]
    elif kind == 1 and lines:  # duplicate a line
        i = rng.randrange(len(lines))
        lines.insert(i, lines[i])
    elif kind == 2 and len(lines) > 1:  # swap two lines
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == 3 and lines:  # replace a JSON value inside a line
        i = rng.randrange(len(lines))
        try:
            obj = json.loads(lines[i])
        except ValueError:
            obj = None
        if isinstance(obj, dict) and obj:
            key = rng.choice(sorted(obj))
            target = obj
            if key == "data" and isinstance(obj["data"], dict) and obj["data"] and rng.random() < 0.7:
                target, key = obj["data"], rng.choice(sorted(obj["data"]))
            target[key] = "\x00PLACEHOLDER\x00"
            lines[i] = json.dumps(obj).replace('"\\u0000PLACEHOLDER\\u0000"', rng.choice(NASTY))
    elif kind == 4 and lines:  # drop a key
        i = rng.randrange(len(lines))
        try:
            obj = json.loads(lines[i])
            obj.pop(rng.choice(sorted(obj)))
            lines[i] = json.dumps(obj)
        except (ValueError, AttributeError, IndexError, TypeError):
            pass
    else:  # raw byte damage
        data = bytearray("\n".join(lines).encode("utf-8", "surrogateescape"))
        for _ in range(rng.randint(1, 6)):
            if not data:
                break
            pos = rng.randrange(len(data))
            op = rng.randrange(4)
            if op == 0:
                data[pos] = rng.randrange(256)
            elif op == 1:
                del data[pos:pos + rng.randint(1, 40)]
            elif op == 2:
                data[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
            else:
                del data[pos:]
        return data.decode("utf-8", errors=rng.choice(["replace", "ignore", "surrogateescape"]))
    return "\n".join(lines) + "\n"


def mutate_bytes(rng: random.Random, data: bytes) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        op = rng.randrange(5)
        pos = rng.randrange(len(out)) if op != 4 else rng.randrange(100)
        if op in (0, 4):
            out[pos] = rng.randrange(256)
        elif op == 1:
            out[pos:pos + 64] = bytes(rng.randrange(256) for _ in range(64))[:len(out) - pos]
        elif op == 2:
            out[pos:pos + 16] = b"\x00" * min(16, len(out) - pos)
        else:
            del out[pos:]
            break
    return bytes(out)


SQL_EDITS: list[Callable[[random.Random, int], list[str]]] = [
    lambda r, n: [f"DELETE FROM events WHERE seq = {r.randint(1, n)}"],
    lambda r, n: [f"UPDATE events SET seq = {r.choice([0, -1, n + 5, 2 ** 63 - 1])} WHERE seq = {r.randint(1, n)}"],
    lambda r, n: [f"UPDATE events SET {r.choice(['seq', 'batch', 'at', 'source', 'type', 'data', 'status', 'hash'])}"
                  f" = {r.choice(['NULL', '1', '-5', '2.5', chr(39) + 'x' + chr(39), 'x' + chr(39) + 'ff' + chr(39), chr(39) + '{}' + chr(39), '9223372036854775807', chr(39) + 'undone' + chr(39)])}"
                  f" WHERE seq = {r.randint(1, n)}"],
    # rebuilt by hand with Touchline's columns and key but without its constraints (read, and
    # its rows checked one by one), or without the key (refused by the schema check)
    lambda r, n: ["CREATE TABLE e2 (seq INTEGER PRIMARY KEY, batch, at, source, type, data, status, hash)",
                  "INSERT INTO e2 SELECT * FROM events", "DROP TABLE events", "ALTER TABLE e2 RENAME TO events",
                  f"UPDATE events SET {r.choice(['status', 'batch', 'at'])} = {r.choice(['NULL', chr(39) + 'maybe' + chr(39), '7'])} "
                  f"WHERE seq = {r.randint(1, n)}"] if r.random() < 0.8 else
                 ["CREATE TABLE e2 AS SELECT * FROM events", "DROP TABLE events", "ALTER TABLE e2 RENAME TO events",
                  f"INSERT INTO events SELECT * FROM events WHERE seq = {r.randint(1, n)}"],
    lambda r, n: ["DROP TABLE events"],
    lambda r, n: ["DROP TABLE meta"],
    lambda r, n: [f"ALTER TABLE events RENAME COLUMN {r.choice(['seq', 'batch', 'at', 'data', 'status', 'hash'])} TO x"],
    lambda r, n: [f"ALTER TABLE events DROP COLUMN {r.choice(['hash', 'status'])}"],
    lambda r, n: [f"PRAGMA user_version = {r.choice([0, 1, 3, -1, 99])}"],
    lambda r, n: [f"UPDATE meta SET value = {r.choice([chr(39) + 'x' + chr(39), chr(39) + '3' + chr(39), 'NULL', '7'])}"
                  f" WHERE key = '{r.choice(['game', 'app', 'schema_version', 'chain', 'omitted'])}'"],
    lambda r, n: [f"INSERT OR REPLACE INTO meta VALUES ('omitted', '{r.choice(['[[1,2,3]]', 'x', '[]', '[[2,3,null]]'])}')"],
    lambda r, n: [f"UPDATE events SET data = CAST(x'{r.randrange(256):02x}{r.randrange(256):02x}' AS TEXT) "
                  f"WHERE seq = {r.randint(1, n)}"],
    lambda r, n: [f"UPDATE events SET data = json_set(data, '$.n', {r.choice(['NULL', '1e308', '-1', chr(39) + 'q' + chr(39), '99'])}) "
                  f"WHERE seq = {r.randint(1, n)} AND json_valid(data)"],
    lambda r, n: [f"UPDATE events SET status = '{r.choice(['active', 'undone', 'discarded', 'gone'])}' "
                  f"WHERE seq = {r.randint(1, n)}"],
    lambda r, n: [f"UPDATE events SET batch = {r.randint(1, n)} WHERE seq = {r.randint(1, n)}"],
]


# --- the test -------------------------------------------------------------------------------------------

def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_no_traceback_from_any_file(bases, tmp_path):
    rng = random.Random(SEED)
    failures: list[str] = []
    cases = 0

    def probe(name: str, work: Callable[[], None]) -> None:
        nonlocal cases
        cases += 1
        try:
            work()
        except TouchlineError as exc:
            text = str(exc)
            if "\n" in text or not text:
                failures.append(f"{name}: message not one line: {text[:200]!r}")
        except BaseException:  # noqa: BLE001 - the point is to catch whatever escapes
            failures.append(f"{name}: {traceback.format_exc(limit=4)[-1500:]}")

    for label, base, count in (("toy", bases["chained"], JSONL_TOY), ("legacy", bases["legacy"], JSONL_LEGACY),
                               ("fublet", bases["fublet"], JSONL_FUBLET)):
        for i in range(count):
            text = mutate_text(rng, base)
            if rng.random() < 0.2:
                text = mutate_text(rng, text)
            probe(f"{label} jsonl case {i}", lambda: fold(read_lines(text.splitlines(), "x.jsonl")))

    path = tmp_path / "case.sqlite"

    def check_journal(name: str) -> None:
        before = digest(path)
        listing = sorted(p.name for p in tmp_path.iterdir())
        probe(name, lambda: fold(load_file(path)))
        if digest(path) != before or sorted(p.name for p in tmp_path.iterdir()) != listing:
            failures.append(f"{name}: reading changed the file or left files beside it")

    for i in range(JOURNAL_BYTES):
        path.write_bytes(mutate_bytes(rng, bases["journal"]))
        check_journal(f"journal bytes case {i}")

    n = len(load_file(_write(path, bases["journal"])).checked.rows)
    for i in range(JOURNAL_SQL):
        _write(path, bases["journal"])
        edits = [stmt for _ in range(rng.randint(1, 3)) for stmt in rng.choice(SQL_EDITS)(rng, n)]
        conn = sqlite3.connect(path)
        try:
            for stmt in edits:
                try:
                    conn.execute(stmt)
                except sqlite3.Error:
                    pass  # an edit SQLite itself refuses: the file stays as the others left it
            conn.commit()
        finally:
            conn.close()
        check_journal(f"journal sql case {i}: {edits}")

    # The whole command on real Fublet files: whatever the damage, exit 0 or 2 with one line.
    for i in range(CLI_CASES):
        if i % 2:
            target = tmp_path / "cli.jsonl"
            target.write_text(mutate_text(rng, bases["fublet"]), encoding="utf-8", errors="surrogateescape")
        else:
            target = tmp_path / "cli.sqlite"
            target.write_bytes(mutate_bytes(rng, bases["fublet_journal"]))
        before = digest(target)
        cases += 1
        command = ("replay", "verify", "export")[i % 3]
        argv = [command, str(target)] + ([str(tmp_path / "out.jsonl"), "--force"] if command == "export" else [])
        err = io.StringIO()
        try:
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                code = main(argv)
        except BaseException:  # noqa: BLE001
            failures.append(f"cli case {i} ({command}): {traceback.format_exc(limit=4)[-1500:]}")
            continue
        lines = [line for line in err.getvalue().splitlines() if "error:" in line]
        if code not in (0, 2) or (code == 2 and len(lines) != 1) or digest(target) != before:
            failures.append(f"cli case {i} ({command}): exit {code}, stderr {err.getvalue()[:300]!r}")

    assert cases >= 10_000
    assert not failures, f"{len(failures)} of {cases} cases escaped:\n" + "\n".join(failures[:5]) + \
        "\nlast lines:\n" + "\n".join(f.strip().splitlines()[-1][:200] for f in failures)


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path
