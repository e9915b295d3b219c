"""Following a journal another process writes: read-only, incremental, undo-aware, and a clear
message for a file that cannot be shown."""

from __future__ import annotations

import sqlite3

import pytest

from tests.web_kit import GAMES, GrowingJournal, files_of, full_match
from ui.web.follow import Follower


class Seen:
    def __init__(self) -> None:
        self.matches, self.problems = [], []

    def follower(self, path) -> Follower:
        return Follower(path, self.matches.append, self.problems.append)


def test_new_events_are_read_as_the_journal_grows_and_nothing_else_is_read_twice(tmp_path):
    table = GrowingJournal(tmp_path / "m.sqlite", upto=5)
    seen = Seen()
    follower = seen.follower(table.path)
    assert follower.poll() is True
    assert seen.matches[-1].last.seq == table.last.seq
    assert follower.poll() is False            # nothing changed: not read again
    table.grow(3)
    assert follower.poll() is True
    folded = seen.matches[-1]
    assert folded.last.seq == table.last.seq
    assert folded.seqs == [e.seq for b in table.batches[:table.done] for e in b]
    assert not seen.problems
    table.close()


def test_the_folded_state_is_the_tablets_own(tmp_path):
    from companion.match import Match
    from companion.games import ruleset_for

    table = GrowingJournal(tmp_path / "m.sqlite", upto=40)
    seen = Seen()
    follower = seen.follower(table.path)
    follower.poll()
    table.grow(25)
    follower.poll()
    expected = Match.from_events(ruleset_for("fublet"), [e for b in table.batches[:table.done] for e in b])
    assert seen.matches[-1].state == expected.state
    table.close()


def test_an_undo_folds_again_without_the_undone_events(tmp_path):
    table = GrowingJournal(tmp_path / "m.sqlite", upto=12)
    seen = Seen()
    follower = seen.follower(table.path)
    follower.poll()
    undone = table.last.seq
    table.undo()
    assert follower.poll() is True
    assert seen.matches[-1].last.seq < undone
    assert undone not in seen.matches[-1].seqs
    table.redo()                               # the redo brings it back
    follower.poll()
    assert seen.matches[-1].last.seq == table.last.seq == undone
    table.close()


def test_following_never_writes_the_journal_nor_leaves_files_beside_it(tmp_path):
    table = GrowingJournal(tmp_path / "m.sqlite", upto=8)
    table.close()                              # the tablet closed it: no -wal, no -shm
    before = files_of(table.path)
    seen = Seen()
    follower = seen.follower(table.path)
    follower.poll()
    follower._sig = None                       # look again, as after a change
    follower.poll()
    assert files_of(table.path) == before
    assert seen.matches and not seen.problems


def test_a_reader_does_not_block_the_writer(tmp_path):
    table = GrowingJournal(tmp_path / "m.sqlite", upto=3)
    seen = Seen()
    follower = seen.follower(table.path)
    for _ in range(20):                        # interleaved, as the poller and the tablet run
        follower._sig = None
        follower.poll()
        table.grow()
    follower.poll()
    assert seen.matches[-1].last.seq == table.last.seq
    table.close()


def test_a_damaged_journal_is_one_clear_line(tmp_path):
    path = tmp_path / "m.sqlite"
    table = GrowingJournal(path, upto=20)
    table.close()
    data = bytearray(path.read_bytes())
    data[4096:8192] = b"\xff" * 4096           # a page of the events table overwritten
    path.write_bytes(bytes(data))
    seen = Seen()
    seen.follower(path).poll()
    assert len(seen.problems) == 1
    assert str(path) in seen.problems[0] and "damaged" in seen.problems[0]
    assert "Traceback" not in seen.problems[0]


def test_a_file_that_is_not_a_journal_and_a_missing_file(tmp_path):
    junk = tmp_path / "junk.sqlite"
    junk.write_text("hello")
    seen = Seen()
    seen.follower(junk).poll()
    seen.follower(tmp_path / "nothing.sqlite").poll()
    assert "not a Touchline journal" in seen.problems[0]
    assert "no such match file" in seen.problems[1]


def test_a_match_of_an_unknown_game_says_which_games_are_known(tmp_path):
    from companion.journal import Journal

    Journal.create(tmp_path / "chess.sqlite", "chess").close()
    seen = Seen()
    seen.follower(tmp_path / "chess.sqlite").poll()
    assert "chess" in seen.problems[0] and "fublet" in seen.problems[0]


def test_events_that_do_not_replay_are_named(tmp_path):
    path = tmp_path / "m.sqlite"
    table = GrowingJournal(path, upto=6)
    table.close()
    conn = sqlite3.connect(path)
    conn.execute("UPDATE events SET data = '{\"nonsense\": 1}' WHERE seq = (SELECT max(seq) FROM events)")
    conn.commit()
    conn.close()
    seen = Seen()
    seen.follower(path).poll()
    assert seen.problems and str(path) in seen.problems[0]


@pytest.mark.parametrize("game", GAMES)
def test_an_export_of_every_game_is_followed_too(game, tmp_path):
    from tests.web_kit import DATA

    seen = Seen()
    seen.follower(DATA / f"{game}_full_match.jsonl").poll()
    assert not seen.problems
    assert seen.matches[-1].last.seq == full_match(game)[-1].seq


def test_a_journal_locked_a_moment_is_read_on_the_next_look(tmp_path, monkeypatch):
    from ui.web import follow

    table = GrowingJournal(tmp_path / "m.sqlite", upto=4)
    seen = Seen()
    follower = seen.follower(table.path)
    follower.poll()
    table.grow()
    real = follow.JournalReader.read
    calls = {"n": 0}

    def busy_once(self, known):
        calls["n"] += 1
        if calls["n"] == 1:
            raise follow.Busy("m.sqlite: busy")
        return real(self, known)

    monkeypatch.setattr(follow.JournalReader, "read", busy_once)
    assert follower.poll() is False            # busy: nothing said, nothing lost
    assert follower.poll() is True             # the next look reads it, though the files did not change
    assert seen.matches[-1].last.seq == table.last.seq and not seen.problems
    table.close()


def test_a_commit_seen_before_its_fsync_ends_is_read_all_the_same(tmp_path):
    """The -wal file's stamps move when the frames are written, the commit shows only after the
    fsync: a follower looking in between must still read the commit once it shows."""
    import threading
    import time

    table = GrowingJournal(tmp_path / "m.sqlite", upto=2)
    seen = Seen()
    follower = seen.follower(table.path)
    done = threading.Event()

    def write() -> None:
        for _ in range(40):
            table.grow()
        done.set()

    writer = threading.Thread(target=write)
    writer.start()
    while not done.is_set():           # look as often as possible while the tablet writes
        follower.poll()
    writer.join()
    deadline = time.monotonic() + 30
    while (not seen.matches or seen.matches[-1].last.seq != table.last.seq) and time.monotonic() < deadline:
        follower.poll()
        time.sleep(0.01)
    assert seen.matches[-1].last.seq == table.last.seq
    table.close()
