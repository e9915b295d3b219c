"""A seeded fuzz and property suite of hostile journals and exports (issue 30, item 7).

Hypothesis draws the same examples on every run (tests/conftest.py: the "ci" profile is
derandomized), and every example is bounded by construction, never by a clock: the files are
small, a FIFO is never made here, and any statement SQLite runs on a file stops at the
progress budget (a count of SQLite's operations) even if the schema check let a view through.

- **Schemas**: an SQLite file with Touchline's marks and any mix of tables, views (recursive
  ones too), virtual tables, triggers, indexes and columns in the place of ``meta`` and
  ``events``. Reading it either gives a journal (and then the file held exactly Touchline's
  tables, columns and index) or refuses it with a JournalError; nothing else, no side file.
- **Exports cut or reordered**: a real export cut at any byte, or with a line dropped,
  doubled or moved, is never read as a match with fewer or other events.
- **Chains stripped**: a stripped export, edited or not, is never imported without the
  user's word, and ``verify`` never vouches for it.
- **Chains forged**: an export edited and given a fresh chain, header and closing line is
  told from the match this tablet anchored exactly when the anchor can tell (an edit at or
  before the anchor's count, or before a mark the copy reaches), and never read as that match.
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import hostile_kit as k
from companion.anchors import MARK_EVERY, AnchorBook, anchored
from companion.errors import JournalError, TouchlineError
from companion.journal import APPLICATION_ID, Journal, load_file
from companion.journal_guard import EVENT_COLUMNS, OWN_INDEXES
from companion.jsonl import ImportError_, Unvouched, import_to_journal, read_file, read_lines

FUZZ = settings(max_examples=120, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> dict:
    """A real Fublet match journaled as the app journals it (anchored), and its export."""
    folder = tmp_path_factory.mktemp("base")
    data = folder / "data"
    from benchmarks.driver import AutoDriver

    path = data / "matches" / "m.sqlite"
    driver = AutoDriver.new(seed=11, journal=Journal.create(path, "fublet", anchors=AnchorBook.of_data_dir(data)))
    driver.play(commands=130)
    driver.match.close()
    export = folder / "m.jsonl"
    from companion.cli import main

    assert main(["export", str(path), str(export)]) == 0
    rows = sqlite3.connect(path).execute(f"SELECT {', '.join(EVENT_COLUMNS)} FROM events ORDER BY seq").fetchall()
    return Base({"journal": path, "data": data, "export": export,
                 "lines": export.read_text(encoding="utf-8").splitlines(), "rows": rows})


class Base(dict):
    """The module's match: a dict with a short repr (Hypothesis prints its arguments)."""

    def __repr__(self) -> str:
        return f"<the base match: {len(self['rows'])} events>"


def listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


# --- schemas ---------------------------------------------------------------------------------------------

OUR_EVENTS = ("CREATE TABLE events (seq INTEGER PRIMARY KEY, batch INTEGER NOT NULL, at TEXT NOT NULL, "
              "source TEXT NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'active' "
              "CHECK (status IN ('active', 'undone', 'discarded')), hash TEXT NOT NULL)")
OUR_META = "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
RECURSIVE = "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r)"

EVENTS_KINDS = {
    "ours": OUR_EVENTS,
    "plain columns": "CREATE TABLE events (seq INTEGER PRIMARY KEY, batch, at, source, type, data, status, hash)",
    "no key": "CREATE TABLE events (seq, batch, at, source, type, data, status, hash)",
    "key not seq": "CREATE TABLE events (seq INTEGER, batch INTEGER PRIMARY KEY, at, source, type, data, status, hash)",
    "text key": "CREATE TABLE events (seq TEXT PRIMARY KEY, batch, at, source, type, data, status, hash)",
    "without rowid": "CREATE TABLE events (seq INTEGER PRIMARY KEY, batch, at, source, type, data, status, hash) "
                     "WITHOUT ROWID",
    "permuted": "CREATE TABLE events (batch, seq INTEGER PRIMARY KEY, at, source, type, data, status, hash)",
    "missing hash": "CREATE TABLE events (seq INTEGER PRIMARY KEY, batch, at, source, type, data, status)",
    "extra column": "CREATE TABLE events (seq INTEGER PRIMARY KEY, batch, at, source, type, data, status, hash, x)",
    "generated": "CREATE TABLE events (seq INTEGER PRIMARY KEY, batch, at, source, type, "
                 "data TEXT GENERATED ALWAYS AS (hex(zeroblob(1000))) VIRTUAL, status, hash)",
    "recursive view": f"CREATE VIEW events AS {RECURSIVE} SELECT n AS seq, n AS batch, '' AS at, '' AS source, "
                      f"'' AS type, '{{}}' AS data, 'active' AS status, '' AS hash FROM r ORDER BY n DESC",
    "view of a table": "CREATE VIEW events AS SELECT * FROM shadow",
    "cross join view": "CREATE VIEW events AS SELECT a.* FROM shadow a, shadow b, shadow c, shadow d",
    "virtual": f"CREATE VIRTUAL TABLE events USING fts5({', '.join(EVENT_COLUMNS)})",
    "missing": None,
}
META_KINDS = {
    "ours": OUR_META,
    "no key": "CREATE TABLE meta (key, value)",
    "extra column": "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL, x)",
    "recursive view": f"CREATE VIEW meta AS {RECURSIVE} SELECT 'app' AS key, 'touchline' AS value FROM r",
    "virtual": "CREATE VIRTUAL TABLE meta USING fts5(key, value)",
    "missing": None,
}
EXTRAS = {
    "our index": OWN_INDEXES["events_by_status"],
    "other index": "CREATE INDEX by_type ON events (type)",
    "expression index": "CREATE INDEX events_by_status ON events (length(data) * 2)",
    "trigger": "CREATE TRIGGER t AFTER INSERT ON meta BEGIN DELETE FROM events; END",
    "view": f"CREATE VIEW later AS {RECURSIVE} SELECT n FROM r",
    "table": "CREATE TABLE notes (x)",
    "stat table": "ANALYZE",
}


def build(path: Path, events_kind: str, meta_kind: str, extras: list[str], rows: list[tuple], version: int) -> None:
    if path.exists():
        path.unlink()
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE shadow (seq, batch, at, source, type, data, status, hash)")
    conn.executemany("INSERT INTO shadow VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
    for kind, table in ((meta_kind, META_KINDS), (events_kind, EVENTS_KINDS)):
        if table[kind]:
            conn.execute(table[kind])
    if META_KINDS[meta_kind] and "VIEW" not in META_KINDS[meta_kind]:
        conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", sorted({**k.META, "schema_version":
                                                                                str(version)}.items()))
    if EVENTS_KINDS[events_kind] and "VIEW" not in EVENTS_KINDS[events_kind] and events_kind not in (
            "generated", "missing hash", "extra column", "permuted"):
        conn.executemany(f"INSERT OR IGNORE INTO events ({', '.join(EVENT_COLUMNS)}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                         rows)
    for extra in extras:
        try:
            conn.execute(EXTRAS[extra])
        except sqlite3.Error:
            pass  # an extra that does not fit the drawn tables (an index on a view...): left out
    if "view of a table" != events_kind and "cross join view" != events_kind:
        conn.execute("DROP TABLE shadow")
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute(f"PRAGMA user_version = {version}")
    conn.commit()
    conn.close()


def exactly_ours(path: Path) -> bool:
    conn = sqlite3.connect(path)
    try:
        objects = {(t, n) for t, n in conn.execute("SELECT type, name FROM sqlite_master")}
        columns = [r[1] for r in conn.execute("PRAGMA table_xinfo(events)")]
        key = [r[1] for r in conn.execute("PRAGMA table_xinfo(events)") if r[5]]
    finally:
        conn.close()
    allowed = {("table", "meta"), ("table", "events"), ("index", "sqlite_autoindex_meta_1"),
               ("index", "events_by_status")}
    return objects <= allowed and columns == list(EVENT_COLUMNS) and key == ["seq"]


@FUZZ
@given(events_kind=st.sampled_from(sorted(EVENTS_KINDS)), meta_kind=st.sampled_from(sorted(META_KINDS)),
       extras=st.lists(st.sampled_from(sorted(EXTRAS)), max_size=3, unique=True),
       count=st.integers(0, 12), version=st.sampled_from([2, 2, 2, 1]))
def test_any_schema_is_read_only_when_it_is_exactly_ours(base, tmp_path, events_kind, meta_kind, extras, count,
                                                         version):
    folder = tmp_path / f"s{os.getpid()}"
    folder.mkdir(exist_ok=True)
    path = folder / "m.sqlite"
    build(path, events_kind, meta_kind, extras, base["rows"][:count], version)
    before = listing(folder)
    try:
        loaded = load_file(path)
    except JournalError:
        accepted = False
    else:
        accepted = True
        assert loaded.game == "fublet"
    assert listing(folder) == before  # no side file made, whatever the file held
    if accepted:
        assert version == 2 and exactly_ours(path), (events_kind, meta_kind, extras)
    if events_kind in ("recursive view", "view of a table", "cross join view", "virtual", "generated") or \
            meta_kind in ("recursive view", "virtual") or {"trigger", "view", "table", "other index",
                                                            "expression index"} & set(extras):
        assert not accepted


def test_the_schema_builder_makes_an_accepted_journal_when_it_draws_ours(base, tmp_path):
    """The property above is not empty: the draws that build Touchline's own schema are read."""
    for kind, extras in (("ours", ["our index"]), ("ours", []), ("plain columns", [])):
        path = tmp_path / f"{kind.replace(' ', '-')}-{len(extras)}.sqlite"
        build(path, kind, "ours", extras, base["rows"][:12], 2)
        assert len(load_file(path).events) == 12 and exactly_ours(path)


# --- exports cut or reordered ------------------------------------------------------------------------------

@FUZZ
@given(data=st.data())
def test_an_export_cut_at_any_byte_is_never_read_as_a_shorter_match(base, data):
    text = "\n".join(base["lines"]) + "\n"
    cut = data.draw(st.integers(0, len(text) - 1), label="cut")
    assume(text[cut:].strip())  # a cut that loses more than the final line break
    try:
        imported = read_lines(text[:cut].splitlines(), "cut.jsonl")
    except ImportError_:
        return
    assert cut == 0 and not imported.all_rows  # nothing left: every command says it holds no events


@FUZZ
@given(data=st.data())
def test_an_export_with_a_line_dropped_doubled_or_moved_is_refused(base, data):
    lines = list(base["lines"])
    how = data.draw(st.sampled_from(["drop", "double", "move"]), label="how")
    i = data.draw(st.integers(0, len(lines) - 1), label="line")
    if how == "drop":
        del lines[i]
    elif how == "double":
        lines.insert(i, lines[i])
    else:
        j = data.draw(st.integers(0, len(lines) - 1), label="to")
        assume(lines[i] != lines[j])
        lines.insert(j, lines.pop(i))
        assume(lines != base["lines"])
    with pytest.raises(ImportError_):
        read_lines(lines, "x.jsonl")


# --- chains stripped ---------------------------------------------------------------------------------------

@FUZZ
@given(data=st.data())
def test_a_stripped_export_is_never_imported_without_the_users_word(base, tmp_path, data):
    events = [json.loads(line) for line in base["lines"][1:-1]]
    for e in events:
        e.pop("hash")
    if data.draw(st.booleans(), label="edited"):
        i = data.draw(st.integers(1, len(events) - 1), label="event")
        events[i]["at"] = "2026-01-01T00:00:00.000000Z"
    lines = [json.dumps(e) for e in events]
    try:
        imported = read_lines(lines, "stripped.jsonl")
    except ImportError_:
        return  # refused outright: nothing to import
    assert imported.unchained
    target = tmp_path / f"i{data.draw(st.integers(0, 10**9), label='name')}.sqlite"
    with pytest.raises(Unvouched):
        import_to_journal(imported, target, "fublet")
    assert not target.exists()


# --- chains forged -----------------------------------------------------------------------------------------

def rechained(lines: list[str], keep: int, edit_at: int) -> list[str]:
    """The export's first ``keep`` events, event ``edit_at`` (1-based, 0: none) edited (its
    time; the creation event its home team's name, so it keeps the match's time), with a
    fresh chain, header and closing line: sound on its own."""
    from companion.journal_chain import GENESIS, chain_hash

    header = json.loads(lines[0])
    events = [json.loads(line) for line in lines[1:-1]][:keep]
    if edit_at == 1:
        events[0]["data"]["home"]["name"] = "Forged FC"
    elif edit_at:
        events[edit_at - 1]["at"] = "2026-01-01T00:00:00.000000Z"
    prev = GENESIS
    for e in events:
        e.pop("status", None)
        prev = chain_hash(prev, e["seq"], e["batch"], e["at"], e["source"], e["type"],
                          json.dumps(e["data"], separators=(",", ":")))
        e["hash"] = prev
    header.update(events=len(events), last_seq=events[-1]["seq"], head=prev, active_only=False, omitted=[])
    closing = {"touchline": "export end", "events": len(events), "last_seq": events[-1]["seq"], "head": prev}
    return [json.dumps(header)] + [json.dumps(e) for e in events] + [json.dumps(closing)]


@FUZZ
@given(data=st.data())
def test_a_forged_copy_is_told_from_the_anchored_match_whenever_the_anchor_can_tell(base, data):
    lines = base["lines"]
    n = len(lines) - 2
    keep = data.draw(st.integers(2, n), label="keep")
    edit_at = data.draw(st.integers(1, keep), label="edit")
    original = json.loads(lines[edit_at])["at"]
    assume(original != "2026-01-01T00:00:00.000000Z")
    forged = read_lines(rechained(lines, keep, edit_at), "forged.jsonl")  # sound on its own
    book = AnchorBook.of_data_dir(base["data"])
    anchor = book.lookup(base["journal"])
    found = anchored(book, Path("forged.jsonl"), forged.checked, forged.omitted, journal=False)
    reachable = keep >= anchor.last_seq or any(edit_at <= m <= keep for m in anchor.marks)
    if edit_at == 1:
        reachable = True  # the creation event: the anchor names the match by its time too
    # (a forger who also changes the creation's time makes another match as far as any file
    # or anchor can tell: docs/journal.md says so)
    assert (found.kind == "altered") == reachable, (keep, edit_at, found)
    if not reachable:
        assert found.kind == "earlier" and keep < anchor.last_seq  # said to be an earlier copy, never "the match"


@FUZZ
@given(data=st.data())
def test_an_untouched_copy_of_any_length_agrees_with_the_anchor(base, data):
    lines = base["lines"]
    keep = data.draw(st.integers(1, len(lines) - 2), label="keep")
    copy = read_lines(rechained(lines, keep, 0), "copy.jsonl")
    book = AnchorBook.of_data_dir(base["data"])
    found = anchored(book, Path("copy.jsonl"), copy.checked, copy.omitted, journal=False)
    anchor = book.lookup(base["journal"])
    assert found.kind == ("" if keep >= anchor.last_seq else "earlier"), (keep, found)


def test_the_marks_are_where_the_forgery_property_says(base):
    anchor = AnchorBook.of_data_dir(base["data"]).lookup(base["journal"])
    assert anchor is not None and anchor.last_seq > 2 * MARK_EVERY  # the draws reach past two marks
    assert sorted(anchor.marks) == list(range(MARK_EVERY, anchor.last_seq + 1, MARK_EVERY))


# --- every file through the command: one line, exit 0 or 2 -------------------------------------------------

@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(events_kind=st.sampled_from(sorted(EVENTS_KINDS)), meta_kind=st.sampled_from(sorted(META_KINDS)),
       extras=st.lists(st.sampled_from(sorted(EXTRAS)), max_size=2, unique=True), count=st.integers(0, 6),
       command=st.sampled_from(["replay", "verify", "export", "history"]))
def test_every_command_on_any_schema_exits_0_or_2_with_one_line(base, tmp_path, capsys, events_kind, meta_kind,
                                                                extras, count, command):
    from companion.cli import main

    folder = tmp_path / f"c{os.getpid()}"
    folder.mkdir(exist_ok=True)
    for p in folder.iterdir():
        p.unlink()
    path = folder / "m.sqlite"
    build(path, events_kind, meta_kind, extras, base["rows"][:count], 2)
    before = listing(folder)
    argv = {"export": ["export", str(path), str(tmp_path / "out.jsonl"), "--force"],
            "history": ["history", "--folder", str(folder)]}.get(command, [command, str(path)])
    code = main(argv)
    out, err = capsys.readouterr()
    assert code in (0, 2) and "Traceback" not in err
    if code == 2:
        assert len(err.strip().splitlines()) == 1, err
    assert listing(folder) == before
    try:
        os.unlink(tmp_path / "out.jsonl")
    except FileNotFoundError:
        pass
    if command == "history":
        assert "m.sqlite" in out


def test_a_file_made_by_any_maker_never_raises_anything_but_a_touchline_error(base, tmp_path):
    """The kit's own hostile files, each read by both readers (a journal's, an export's)."""
    real = base["journal"]
    made = [k.recursive_view(tmp_path / "a.sqlite"), k.recursive_meta(tmp_path / "b.sqlite"),
            k.generated_column(tmp_path / "c.sqlite"), k.virtual_table(tmp_path / "d.sqlite"),
            k.with_trigger(real, tmp_path / "e.sqlite"), k.extra_table(real, tmp_path / "f.sqlite"),
            k.game_named(real, tmp_path / "g.sqlite", "os"), k.cut_journal(real, tmp_path / "h.sqlite", 5),
            k.unix_socket(tmp_path / "i.sqlite"), k.device_link(tmp_path / "j.jsonl", "/dev/urandom")]
    for path in made:
        for reader in (load_file, read_file):
            try:
                reader(path)
            except TouchlineError:
                pass
