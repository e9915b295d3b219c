"""Which match Resume offers: the unfinished match this tablet played last, never a finished
one nor one imported into the matches folder, whatever the files' times say; several
unfinished ones in the order they were last played; cheap to ask again."""

from __future__ import annotations

import json

from companion.fublet import commands as c
from companion.fublet.components import load_components, shipped_team
from companion.report import history as h
from matches_kit import imported
from ui import played_here
from ui.controller import Controller


def create():
    return c.CreateMatch(shipped_team("rovers"), shipped_team("harbour"), load_components())


def start(data_dir, seed=1) -> str:
    ctl = Controller(threaded=False, data_dir=data_dir)
    ctl.new_match(create(), seed=seed)
    ctl.roll_software(ctl.view.pending[0])
    path = ctl.view.path
    ctl.close()
    return path


def test_a_killed_match_is_resumed_not_a_finished_imported_one(tmp_path):
    matches = tmp_path / "matches"
    imported(matches, "rotstein-gruenwald.sqlite")            # finished, and the newest file
    playing = start(tmp_path)
    imported(matches, "gruenwald-rotstein.sqlite", home="FC Gruenwald", away="SV Rotstein", day=2)
    ctl = Controller(threaded=False, data_dir=tmp_path)
    assert str(ctl.last_journal()) == playing
    ctl.resume()
    assert ctl.view.path == playing and not ctl.view.over
    assert ctl.view.summary.teams == ("Touchline Rovers", "Harbour Athletic")
    ctl.close()


def test_an_imported_unfinished_match_is_not_offered_but_one_played_here_is(tmp_path):
    matches = tmp_path / "matches"
    imported(matches, "half-played.sqlite", cut=250)          # unfinished, but never played here
    assert played_here.unfinished(tmp_path, matches) == []
    playing = start(tmp_path)
    found = played_here.unfinished(tmp_path, matches)
    assert [str(e.path) for e in found] == [playing]
    # Once the coach resumes the imported match on this tablet, it is his to resume too.
    ctl = Controller(threaded=False, data_dir=tmp_path)
    ctl.resume(matches / "half-played.sqlite")
    ctl.close()
    assert [e.path.name for e in played_here.unfinished(tmp_path, matches)] == ["half-played.sqlite",
                                                                               playing.rsplit("/", 1)[1]]


def test_with_no_match_played_here_nothing_is_resumed_and_starting_says_nothing(tmp_path):
    imported(tmp_path / "matches", "finished.sqlite")
    ctl = Controller(threaded=False, data_dir=tmp_path)
    assert ctl.last_journal() is None
    ctl.resume(quiet=True)
    assert ctl.view.error == "" and not ctl.view.active
    ctl.resume()
    assert "no match to resume" in ctl.view.error
    ctl.close()


def test_several_unfinished_matches_the_last_played_first(tmp_path):
    first = start(tmp_path, seed=1)
    second = start(tmp_path, seed=2)
    found = played_here.unfinished(tmp_path, tmp_path / "matches")
    assert [str(e.path) for e in found] == [second, first]
    ctl = Controller(threaded=False, data_dir=tmp_path)
    ctl.resume(found[1].path)                                 # the coach picks the older one
    ctl.close()
    found = played_here.unfinished(tmp_path, tmp_path / "matches")
    assert [str(e.path) for e in found] == [first, second]
    line = played_here.resume_line(found[0])
    assert line.startswith("Touchline Rovers 0-0 Harbour Athletic") and "·" in line, line


def test_a_damaged_record_is_no_record_and_is_written_anew(tmp_path):
    start(tmp_path)
    played_here.record_path(tmp_path).write_text("{not json", encoding="utf-8")
    assert played_here.unfinished(tmp_path, tmp_path / "matches") == []
    playing = start(tmp_path, seed=3)
    assert [str(e.path) for e in played_here.unfinished(tmp_path, tmp_path / "matches")] == [playing]
    assert len(json.loads(played_here.record_path(tmp_path).read_text())["played"]) == 1


def test_asking_again_replays_nothing_that_did_not_change(tmp_path, monkeypatch):
    for n in range(3):
        imported(tmp_path / "matches", f"finished-{n}.sqlite", day=n + 1)
    playing = start(tmp_path)
    played_here.unfinished(tmp_path, tmp_path / "matches")
    reads = []
    real = h.read_entry
    monkeypatch.setattr(h, "read_entry", lambda path, *more: reads.append(path.name) or real(path, *more))
    assert [str(e.path) for e in played_here.unfinished(tmp_path, tmp_path / "matches")] == [playing]
    assert reads == []   # neither the match played here nor any imported one was replayed
    # The history screen's listing keeps the cache Home filled.
    h.scan(tmp_path / "matches", played_here.cache_path(tmp_path))
    assert sorted(reads) == [f"finished-{n}.sqlite" for n in range(3)]


def test_when_a_match_was_last_played_is_said_as_a_coach_says_it():
    from datetime import UTC, datetime, timedelta

    now = datetime(2027, 3, 10, 12, 0).astimezone()   # noon here, whatever this machine's zone

    def stamp(at: datetime) -> str:
        return at.astimezone(UTC).isoformat().replace("+00:00", "Z")
    assert played_here.when(stamp(now - timedelta(hours=1)), now) == "today 11:00"
    assert played_here.when(stamp(now - timedelta(days=1)), now) == "yesterday 12:00"
    assert played_here.when(stamp(now.replace(month=1, day=2)), now) == "2 Jan 12:00"
    assert played_here.when(stamp(now.replace(year=2025, month=1, day=2)), now) == "2 Jan 2025"
    assert played_here.when("garbage", now) == ""
