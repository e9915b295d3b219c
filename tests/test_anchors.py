"""Truncation and rewriting told apart from a real match (issue 30): the app anchors each
journal's end in the data folder as it appends, every export carries a closing line, a file
whose chain was stripped or that is marked altered is imported only on the user's word and
stays marked in every copy, and the history lists altered files beside the original.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

import hostile_kit as k
from benchmarks.driver import AutoDriver
from companion.anchors import MARK_EVERY, AnchorBook
from companion.cli import main
from companion.errors import JournalError
from companion.journal import Journal, load_file, read_stored
from companion.jsonl import Unvouched, import_to_journal, read_file
from companion.match import Match
from companion.report import history as h


@pytest.fixture
def data(tmp_path, monkeypatch) -> Path:
    """This test's data folder: what the app writes to and every command reads."""
    folder = tmp_path / "data"
    monkeypatch.setenv("TOUCHLINE_DATA_DIR", str(folder))
    return folder


def played(data: Path, commands: int = 160, name: str = "m.sqlite", seed: int = 11) -> Path:
    """A Fublet match played as the app plays it: anchored as it is appended."""
    path = data / "matches" / name
    book = AnchorBook.of_data_dir(data)
    driver = AutoDriver.new(seed=seed, journal=Journal.create(path, "fublet", anchors=book))
    driver.play(commands=commands)
    driver.match.close()
    return path


def cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def error(capsys, *argv) -> str:
    code, out, err = cli(capsys, *argv)
    assert code == 2, (out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def last_seq(path: Path) -> int:
    return load_file(path).checked.last_seq


# --- the anchor follows the journal ------------------------------------------------------------------

def test_the_app_anchors_every_append(data):
    path = played(data)
    anchor = AnchorBook.of_data_dir(data).lookup(path)
    checked = load_file(path).checked
    assert anchor is not None and anchor.last_seq == checked.last_seq and anchor.head == checked.head
    assert anchor.first == checked.hashes[0]
    assert set(anchor.marks) == {s for s in range(MARK_EVERY, checked.last_seq + 1, MARK_EVERY)}
    assert all(anchor.marks[s] == checked.hashes[s - 1] for s in anchor.marks)
    m = Match.open(path, anchors=AnchorBook.of_data_dir(data))  # resumed and played on: still anchored
    driver = AutoDriver(m, seed=3)
    driver.play(commands=5)
    m.close()
    assert AnchorBook.of_data_dir(data).lookup(path).last_seq == last_seq(path) > checked.last_seq


def test_an_anchor_that_lags_the_journal_is_caught_up_when_the_app_opens_it(data):
    path = played(data, commands=40)
    anchor_file = AnchorBook.of_data_dir(data).path_for(path)
    anchor_file.unlink()  # a journal from before anchors were kept, or a lost anchor
    Match.open(path, anchors=AnchorBook.of_data_dir(data)).close()
    assert AnchorBook.of_data_dir(data).lookup(path).last_seq == last_seq(path)


# --- a journal cut at its end, or rewritten ------------------------------------------------------------

def test_a_journal_with_its_last_events_deleted_ends_early(capsys, data):
    path = played(data)
    total = last_seq(path)
    conn = sqlite3.connect(path)
    conn.execute("DELETE FROM events WHERE seq > ?", (total - 40,))
    conn.commit()
    conn.close()
    kept = total - 40
    for command in ("verify", "replay"):
        line = error(capsys, command, path)
        assert f"ends early: events after {kept} are missing (this tablet recorded {total})" in line
    with pytest.raises(JournalError, match=f"ends early: events after {kept} are missing"):
        Match.open(path, anchors=AnchorBook.of_data_dir(data))
    entry = {e.path.name: e for e in h.scan(data / "matches")}["m.sqlite"]
    assert entry.status == "unreadable" and f"events after {kept} are missing" in entry.problem


def test_a_journal_rewritten_with_a_fresh_chain_is_refused(capsys, data):
    path = played(data, commands=60)
    conn = sqlite3.connect(path)
    conn.execute("UPDATE events SET at = '2020-01-01T00:00:00.000000Z' WHERE seq = 3")
    rechain(conn)
    conn.commit()
    conn.close()
    line = error(capsys, "verify", path)
    assert "are not the ones this tablet recorded (the chain was rewritten)" in line


def test_a_journal_replaced_by_another_match_is_refused(capsys, data):
    path = played(data, commands=30)
    other = played(data, commands=30, name="other.sqlite", seed=12)
    path.write_bytes(other.read_bytes())
    assert "not the match this tablet recorded in this file" in error(capsys, "verify", path)


def rechain(conn: sqlite3.Connection) -> None:
    from companion.journal_chain import GENESIS, chain_hash

    prev = GENESIS
    for row in conn.execute("SELECT seq, batch, at, source, type, data FROM events ORDER BY seq").fetchall():
        prev = chain_hash(prev, *row)
        conn.execute("UPDATE events SET hash = ? WHERE seq = ?", (prev, row[0]))


def test_an_anchor_written_after_the_read_is_no_cut(data, monkeypatch):
    """The app may append (and anchor) between a reader's snapshot and its look at the
    anchor: the reader then reads again, and finds no cut."""
    path = played(data, commands=20)
    m = Match.open(path, anchors=AnchorBook.of_data_dir(data))
    driver = AutoDriver(m, seed=4)
    real_lookup = AnchorBook.lookup
    looks = []

    def append_then_look(book, journal):
        if not looks:
            driver.play(commands=3)  # the app goes on between the snapshot and this look
        looks.append(journal)
        return real_lookup(book, journal)
    monkeypatch.setattr(AnchorBook, "lookup", append_then_look)
    try:
        from companion.cli import read_match

        reading = read_match(path)
    finally:
        m.close()
    assert len(looks) == 2 and reading.last_seq == last_seq(path) == AnchorBook.of_data_dir(data).lookup(path).last_seq


# --- exports: the closing line, and older exports ---------------------------------------------------------

def test_an_export_ends_with_a_closing_line_that_names_its_end(capsys, data):
    path = played(data, commands=40)
    out = data / "m.jsonl"
    assert cli(capsys, "export", path, out)[0] == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    header, closing = json.loads(lines[0]), json.loads(lines[-1])
    assert header["schema"] == 3 and "altered" not in header
    assert closing == {"touchline": "export end", "events": len(lines) - 2, "last_seq": header["last_seq"],
                       "head": header["head"]}
    for cut in (lines[:-1], lines[:-5] + lines[-1:], lines[:-5]):
        bad = data / "cut.jsonl"
        bad.write_text("\n".join(cut) + "\n", encoding="utf-8")
        assert "ends early" in error(capsys, "verify", bad)
    bad.write_text("\n".join(lines[:-1] + [json.dumps({**closing, "events": 3}), lines[1]]) + "\n", encoding="utf-8")
    assert "after the closing line" in error(capsys, "verify", bad)


def test_an_older_export_without_a_closing_line_gets_a_note_not_a_refusal(capsys, data):
    path = played(data, commands=40)
    out = data / "m.jsonl"
    assert cli(capsys, "export", path, out)[0] == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["schema"] = 2
    old = data / "old.jsonl"
    old.write_text("\n".join([json.dumps(header)] + lines[1:-1]) + "\n", encoding="utf-8")
    code, said, err = cli(capsys, "verify", old)
    assert code == 0, err
    assert "ok:" in said and "written before exports carried a closing line" in said
    code, _, err = cli(capsys, "import", old, data / "old.sqlite")
    assert code == 0, err
    code, _, err = cli(capsys, "replay", old)
    assert code == 0 and err == ""


def test_an_export_taken_mid_match_is_an_earlier_copy(capsys, data):
    path = played(data, commands=40)
    early = data / "early.jsonl"
    assert cli(capsys, "export", path, early)[0] == 0
    m = Match.open(path, anchors=AnchorBook.of_data_dir(data))
    AutoDriver(m, seed=5).play(commands=10)
    m.close()
    code, said, err = cli(capsys, "verify", early)
    assert code == 0, err
    assert f"an earlier copy: this tablet recorded the match further, to event {last_seq(path)}" in said


# --- altered exports: refused by import unless the user says so; marked for good -------------------------

def forged_name(events):
    events[0]["data"]["home"]["name"] = "Forged FC"


def test_a_stripped_and_edited_export_is_not_vouched_for_and_import_needs_the_users_word(capsys, data):
    path = played(data, commands=60)
    export = data / "m.jsonl"
    assert cli(capsys, "export", path, export)[0] == 0
    plain = k.stripped_export(export, data / "plain.jsonl")  # the same events, no chain
    assert "no hash chain" in error(capsys, "verify", plain)
    stripped = k.stripped_export(export, data / "stripped.jsonl", forged_name)
    # its creation event edited: this tablet's anchor of the match tells it too
    assert "altered: its first event differs from that of the match this tablet recorded in m.sqlite" in \
        error(capsys, "verify", stripped)
    code, out, err = cli(capsys, "replay", stripped)  # still readable: a replay says what it shows
    assert code == 0 and "Forged FC" in out and "altered" in err
    target = data / "matches" / "imported.sqlite"
    line = error(capsys, "import", stripped, target)
    assert "no hash chain" in line and "--accept-altered" in line and not target.exists()
    code, out, err = cli(capsys, "import", stripped, target, "--accept-altered")
    assert code == 0, err
    assert "marked altered" in out
    assert "carried no hash chain" in read_stored(target).meta["altered"]
    # every later copy stays marked: verify, export, import again
    assert "altered:" in error(capsys, "verify", target)
    again = data / "again.jsonl"
    assert cli(capsys, "export", target, again)[0] == 0
    assert "carried no hash chain" in json.loads(again.read_text(encoding="utf-8").splitlines()[0])["altered"]
    assert "altered:" in error(capsys, "verify", again)
    assert "marked altered" in error(capsys, "import", again, data / "third.sqlite")
    assert cli(capsys, "import", again, data / "third.sqlite", "--accept-altered")[0] == 0
    assert "carried no hash chain" in read_stored(data / "third.sqlite").meta["altered"]


def test_a_rechained_forgery_differs_from_this_tablets_record(capsys, data):
    path = played(data, commands=60)
    export = data / "m.jsonl"
    assert cli(capsys, "export", path, export)[0] == 0
    def late_edit(events):
        events[40]["at"] = "2026-01-01T00:00:00.000000Z"
    forged = k.rechained_export(export, data / "forged.jsonl", late_edit)
    assert read_file(forged).header is not None  # the file alone is sound
    line = error(capsys, "verify", forged)
    assert "altered: its events differ from the match this tablet recorded in m.sqlite" in line
    renamed = k.rechained_export(export, data / "renamed.jsonl", forged_name)
    assert "altered: its first event differs from that of the match this tablet recorded in m.sqlite" in \
        error(capsys, "verify", renamed)
    assert "--accept-altered" in error(capsys, "import", forged, data / "f.sqlite")
    with pytest.raises(Unvouched):
        import_to_journal(read_file(forged), data / "f.sqlite", "fublet", source=str(forged),
                          altered="differs from m.sqlite")


def test_legacy_imports_of_unchained_exports_count_as_altered(capsys, data):
    """Journals imported from chainless exports before this mark existed say so in their chain
    note: they are altered too."""
    path = played(data, commands=30)
    export = data / "m.jsonl"
    assert cli(capsys, "export", path, export)[0] == 0
    stripped = k.stripped_export(export, data / "s.jsonl")
    target = data / "legacy.sqlite"
    import_to_journal(read_file(stripped), target, "fublet", accept_altered=True).close()
    conn = sqlite3.connect(target)
    conn.execute("DELETE FROM meta WHERE key = 'altered'")
    conn.commit()
    conn.close()
    assert "imported from an export without its hash chain" in error(capsys, "verify", target)


# --- history: altered copies beside the original -----------------------------------------------------------

def test_history_lists_altered_copies_beside_the_original_and_true_copies_under_it(capsys, data):
    path = played(data, commands=60)
    matches = data / "matches"
    export = matches / "m.jsonl"
    assert cli(capsys, "export", path, export)[0] == 0
    k.stripped_export(export, data / "stripped.jsonl", forged_name)
    assert cli(capsys, "import", data / "stripped.jsonl", matches / "imported.sqlite", "--accept-altered")[0] == 0
    k.rechained_export(export, matches / "forged.jsonl", forged_name)
    k.stripped_export(export, matches / "plain.jsonl")  # no chain, but the same events: a copy
    entries = h.scan(matches)
    by = {e.path.name: e for e in entries}
    assert set(by) == {"m.sqlite", "imported.sqlite", "forged.jsonl"}
    original = by["m.sqlite"]
    assert original.status != "altered" and set(original.copies) == {"m.jsonl", "plain.jsonl"}
    for name in ("imported.sqlite", "forged.jsonl"):
        assert by[name].status == "altered" and by[name].copy_of == "m.sqlite", name
    assert "carried no hash chain" in by["imported.sqlite"].altered
    names = [e.path.name for e in entries]
    assert names.index("m.sqlite") < names.index("forged.jsonl") and names.index("m.sqlite") < names.index(
        "imported.sqlite")  # beside it, after it
    assert [e.path.name for e in entries if e.ok and not e.copy_of] == ["m.sqlite"]  # only the original counts
    code, out, err = cli(capsys, "history", "--data-dir", data)
    assert code == 0, err
    forged_line = next(line for line in out.splitlines() if "forged.jsonl" in line)
    assert "altered" in forged_line and "m.sqlite is the one that counts" in forged_line


def test_an_altered_file_alone_is_listed_as_altered_and_counts(capsys, data):
    path = played(data, commands=40, name="x.sqlite")
    export = data / "x.jsonl"
    assert cli(capsys, "export", path, export)[0] == 0
    path.unlink()
    AnchorBook.of_data_dir(data).path_for(path).unlink()
    folder = data / "elsewhere"
    folder.mkdir()
    k.stripped_export(export, data / "s.jsonl", forged_name)
    assert cli(capsys, "import", data / "s.jsonl", folder / "i.sqlite", "--accept-altered")[0] == 0
    entries = h.scan(folder)
    assert [(e.path.name, e.status, e.copy_of) for e in entries] == [("i.sqlite", "altered", "")]


def test_a_chainless_copy_that_goes_on_past_the_original_is_altered_not_its_best_copy(capsys, data, tmp_path):
    path = played(data, commands=40)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    copy = elsewhere / "copy.sqlite"
    copy.write_bytes(path.read_bytes())
    m = Match.open(copy)
    AutoDriver(m, seed=6).play(commands=10)  # goes on past the original
    m.close()
    longer = elsewhere / "longer.jsonl"
    assert cli(capsys, "export", copy, longer)[0] == 0
    k.stripped_export(longer, data / "matches" / "longer-stripped.jsonl")
    by = {e.path.name: e for e in h.scan(data / "matches")}
    assert by["m.sqlite"].status != "altered" and by["m.sqlite"].copies == ()
    stripped = by["longer-stripped.jsonl"]
    assert stripped.status == "altered" and stripped.copy_of == "m.sqlite"
    assert "goes on past m.sqlite's last event" in stripped.altered


def test_the_anchor_is_rewritten_in_place_and_a_torn_one_counts_as_none(capsys, data):
    """Each append overwrites the anchor's own bytes (no new file, so the journal's fsync does
    not carry one); a torn or garbled anchor is no anchor, and the file still reads."""
    path = played(data, commands=20)
    book = AnchorBook.of_data_dir(data)
    anchor_file = book.path_for(path)
    inode, size = anchor_file.stat().st_ino, anchor_file.stat().st_size
    assert size % 4096 == 0
    m = Match.open(path, anchors=book)
    AutoDriver(m, seed=8).play(commands=5)
    m.close()
    assert (anchor_file.stat().st_ino, anchor_file.stat().st_size) == (inode, size)
    assert book.lookup(path).last_seq == last_seq(path)
    book.record(path, "a" * 64, 1, "b" * 64, {n: "c" * 64 for n in range(128, 128 * 200, 128)})
    assert anchor_file.stat().st_size > size  # outgrown: a new, larger file renamed into place
    anchor_file.write_bytes(b'{"version":1,"file":"' + b"\x00" * 100)  # torn by a power cut
    assert AnchorBook.of_data_dir(data).lookup(path) is None
    code, out, err = cli(capsys, "verify", path)
    assert code == 0 and "ok:" in out
