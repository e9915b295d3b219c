"""A finished match's final record (companion/final_record.py): written at the final whistle
by the match itself, read by the listing instead of a replay only where this tablet's anchor
names it and the chain ends where it says, and never trusted otherwise.

Each game's scripted full match (tests/data/build_*.py) is played again through a journal
with the app's anchors, so the record is the one the app writes; every listing read from a
record is compared with the listing the replay of the same file gives."""

from __future__ import annotations

import importlib
import shutil
import sqlite3
import sys
from pathlib import Path

import pytest

from companion.anchors import AnchorBook
from companion.final_record import KEY, FinalRecord, fields_of, read_record
from companion.journal import Journal
from companion.journal_chain import check_chain
from companion.match import Match
from companion.report import history
from companion.report.history import read_entry, scan

DATA = Path(__file__).parent / "data"
SCRIPTS = {"futboard": "build_futboard_match", "fublet": "build_full_match",
           "football_leader": "build_football_leader_match", "fussball_liga": "build_fussball_liga_match"}


def play(game: str, data_dir: Path, name: str = "m.sqlite") -> tuple[Path, Match]:
    """The game's scripted full match played through a journal in ``data_dir``/matches,
    anchored in ``data_dir``/anchors, as the app plays one."""
    sys.path.insert(0, str(DATA))
    try:
        script = importlib.import_module(SCRIPTS[game])
    finally:
        sys.path.remove(str(DATA))
    path = data_dir / "matches" / name
    book = AnchorBook.of_data_dir(data_dir)
    made: list[Match] = []

    def journaled(rules, journal=None, clock=None):
        m = Match(rules, Journal.create(path, rules.game, anchors=book), **({"clock": clock} if clock else {}))
        made.append(m)
        return m

    real = script.Match
    script.Match = journaled
    try:
        script.build()
    finally:
        script.Match = real
    return path, made[0]


def replayed_entry(path: Path, monkeypatch) -> history.Entry:
    """The entry the replay of every event gives (the record ignored)."""
    with monkeypatch.context() as m:
        m.setattr(history, "read_finished", lambda stored, book: None)
        return read_entry(path)


def record_read(monkeypatch) -> list[Path]:
    """Paths whose entry came from their final record (read_match not called for them)."""
    replays: list[Path] = []
    real = history.read_match

    def spy(path, *args, **kwargs):
        replays.append(Path(path))
        return real(path, *args, **kwargs)
    monkeypatch.setattr(history, "read_match", spy)
    return replays


def meta(path: Path) -> dict[str, str]:
    conn = sqlite3.connect(path)
    try:
        return dict(conn.execute("SELECT key, value FROM meta"))
    finally:
        conn.close()


@pytest.fixture(scope="module", params=sorted(SCRIPTS))
def played(request, tmp_path_factory):
    data_dir = tmp_path_factory.mktemp(request.param) / "data"
    path, match = play(request.param, data_dir)
    match.close()
    return request.param, path


def test_the_whistle_writes_the_record_and_the_listing_reads_it_as_the_replay_would(played, monkeypatch):
    game, path = played
    record = read_record(meta(path)[KEY])
    assert record is not None and record.summary["result"] is not None
    replays = record_read(monkeypatch)
    entry = read_entry(path)
    assert replays == [], "the listing replayed a match whose final record it should have read"
    assert entry.finished and entry.game == game and not entry.problem
    assert entry == replayed_entry(path, monkeypatch)
    assert AnchorBook.of_data_dir(path.parent.parent).lookup(path).final == record.digest()


def test_undo_of_the_whistle_removes_the_record_and_redo_writes_it_again(tmp_path, monkeypatch):
    path, match = play("futboard", tmp_path / "data")
    try:
        assert KEY in meta(path)
        match.undo()
        assert KEY not in meta(path)
        assert AnchorBook.of_data_dir(tmp_path / "data").lookup(path).final == ""
        replays = record_read(monkeypatch)
        entry = read_entry(path)
        assert replays == [path] and not entry.finished and entry.events == len(match.events)
        match.redo()
        assert KEY in meta(path)
        replays.clear()
        entry = read_entry(path)
        assert replays == [] and entry.finished and entry == replayed_entry(path, monkeypatch)
    finally:
        match.close()


def test_the_record_is_written_only_once_the_match_is_finished(tmp_path, monkeypatch):
    results: list[bool] = []
    real = Journal.append

    def append(self, events, result=None, active=0):
        results.append(result is not None)
        return real(self, events, result, active)
    monkeypatch.setattr(Journal, "append", append)
    path, match = play("fussball_liga", tmp_path / "data")
    match.close()
    finished = results.count(True)
    assert finished >= 1 and results == [False] * (len(results) - finished) + [True] * finished
    assert read_record(meta(path)[KEY]).active == len(match.events)


@pytest.mark.parametrize("game", sorted(SCRIPTS))
def test_a_record_edited_by_hand_is_not_believed(game, tmp_path, monkeypatch):
    path, match = play(game, tmp_path / "data")
    match.close()
    record = read_record(meta(path)[KEY])
    score = dict(record.summary["score"], home=record.summary["score"]["home"] + 5)
    forged = FinalRecord(record.head, record.active, {**record.summary, "score": score}).text()
    conn = sqlite3.connect(path)
    conn.execute("UPDATE meta SET value = ? WHERE key = ?", (forged, KEY))
    conn.commit()
    conn.close()
    replays = record_read(monkeypatch)
    entry = read_entry(path)
    assert replays == [path], "a record its anchor does not name must not be read"
    assert entry.home_goals == record.summary["score"]["home"] and entry == replayed_entry(path, monkeypatch)


def test_a_copy_without_this_tablets_anchor_is_replayed(played, tmp_path, monkeypatch):
    game, original = played
    path = tmp_path / "elsewhere" / original.name
    path.parent.mkdir()
    shutil.copy(original, path)
    replays = record_read(monkeypatch)
    entry = read_entry(path, AnchorBook.of_data_dir(tmp_path / "empty"))
    assert replays == [path] and entry.finished and not entry.problem


def test_an_undo_that_left_the_record_behind_is_seen_by_the_count(tmp_path, monkeypatch):
    """An undo by a Touchline older than the record (it marks the whistle's batch undone and
    knows of no record to remove): the chain and the anchor still agree, the active count not."""
    path, match = play("futboard", tmp_path / "data")
    match.close()
    last = match.events[-1].batch
    conn = sqlite3.connect(path)
    conn.execute("UPDATE events SET status = 'undone' WHERE batch = ?", (last,))
    conn.commit()
    conn.close()
    assert KEY in meta(path)
    replays = record_read(monkeypatch)
    entry = read_entry(path)
    assert replays == [path] and not entry.finished and not entry.problem


def test_a_changed_event_breaks_the_chain_and_the_listing_says_so(tmp_path, monkeypatch):
    path, match = play("futboard", tmp_path / "data")
    match.close()
    conn = sqlite3.connect(path)
    conn.execute("UPDATE events SET at = replace(at, '.000000Z', '.000001Z') WHERE seq = 7")
    conn.commit()
    conn.close()
    replays = record_read(monkeypatch)
    entry = read_entry(path)
    assert replays == [path] and entry.problem and "event 7" in entry.problem


def test_check_chain_refuses_what_check_rows_refuses(played):
    _, path = played
    conn = sqlite3.connect(path)
    rows = conn.execute("SELECT seq, batch, at, source, type, data, status, hash FROM events ORDER BY seq").fetchall()
    conn.close()
    chain = check_chain(rows)
    assert chain is not None and chain.last_seq == len(rows) and chain.head == rows[-1][-1]
    broken = [
        rows[:3] + [rows[4]] + rows[5:],                                  # an event missing
        rows[:5] + [(*rows[5][:5], rows[5][5] + " ", *rows[5][6:])] + rows[6:],  # a payload changed
        rows[:5] + [(*rows[5][:3], "oracle", *rows[5][4:])] + rows[6:],    # an unknown source
        rows[:5] + [(*rows[5][:2], "yesterday", *rows[5][3:])] + rows[6:],  # a time that is none
        rows[:-1] + [(*rows[-1][:6], "undone", rows[-1][7])] + [rows[-1]],  # seqs out of order
    ]
    assert [check_chain(b) for b in broken] == [None] * len(broken)


@pytest.mark.parametrize("text", [
    None, "", "[]", "{}", "x" * 20_000, '{"head": "ab", "active": 3, "summary": {}}',
    '{"head": "' + "a" * 64 + '", "active": 0, "summary": {"result": {}}}',
    '{"head": "' + "a" * 64 + '", "active": true, "summary": {"result": {}}}',
    '{"head": "' + "a" * 64 + '", "active": 5, "summary": {"result": null}}',
    '{"head": "' + "a" * 64 + '", "active": 5, "summary": {"result": {}, "players": []}}',
    '{"head": "' + "a" * 64 + '", "active": NaN, "summary": {"result": {}}}',
    "[" * 5000,
])
def test_read_record_refuses_what_is_no_record(text):
    assert read_record(text) is None


def test_a_season_lists_from_records_and_agrees_with_its_replay(tmp_path, monkeypatch):
    data = tmp_path / "data"
    for game in sorted(SCRIPTS):
        play(game, data, f"{game}.sqlite")[1].close()
    replays = record_read(monkeypatch)
    fast = scan(data / "matches")
    assert replays == []
    monkeypatch.setattr(history, "read_finished", lambda stored, book: None)
    slow = scan(data / "matches")
    assert fast == slow and len(fast) == 4 and all(e.finished for e in fast)
