"""The listing kept in its own temporary database (companion/report/entry_store.py): the
same order, picks and tables as the lists the app holds, a memory that does not grow with
the folder, and a temporary folder with no room said in words."""

from __future__ import annotations

import gc
import random
import sqlite3
from pathlib import Path

import pytest

from companion.cli import main
from companion.report import entry_store
from companion.report import history as h

FOLDER = Path("/season/matches")
GAMES = ("fublet", "futboard", "football_leader", "fussball_liga")
TEAMS = ("SV Rotstein", "FC Gruenwald", "Kickers", "Estrela FC", "Mare Azul", "Ölberg 04")


def season(n: int, seed: int = 11) -> list[h.Entry]:
    """``n`` entries of every kind: finished or not, friendlies, titles, altered copies, damaged
    and undated files, names that are not UTF-8, dates shared."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        name = rng.choice(["m", "M", "é", "\udcff", "z"]) + f"{i:05d}" + rng.choice([".sqlite", ".jsonl"])
        if rng.random() < 0.08:
            out.append(h.Entry(FOLDER / name, problem=rng.choice(["damaged", "not a match file"]),
                               game=rng.choice(["", "fublet"])))
            continue
        home, away = rng.sample(TEAMS, 2)
        finished = rng.random() < 0.7
        winner = rng.choice(["home", "away", None]) if finished else None
        out.append(h.Entry(
            FOLDER / name, game=rng.choice(GAMES), home=home, away=away, home_goals=rng.randint(0, 4),
            away_goals=rng.randint(0, 4), date=rng.choice(["", f"2027-0{rng.randint(1, 3)}-{rng.randint(10, 12)}"]),
            finished=finished, winner=winner, points=(3, 0) if finished and rng.random() < 0.2 else None,
            friendly=rng.random() < 0.1, title=rng.choice(["", "", "Cup final"]),
            copy_of=rng.choice(["", "", "", "x.sqlite"]), altered=rng.choice(["", "edited"]),
            events=rng.randint(1, 900), first="a" * 64, head="b" * 64, last_seq=rng.randint(1, 900),
            last="2027-01-01T12:00:00+00:00", stage="" if finished else "2nd half, 30'"))
    rng.shuffle(out)
    return out


def names(entries) -> list[str]:
    return [e.path.name for e in entries]


def test_a_listing_gives_back_every_entry_whole_in_the_lists_order():
    entries = season(300)
    with h.Listing.of(entries, FOLDER) as listed:
        back = list(listed)
        assert back == h.in_list_order(entries)   # field for field, the Path too
        assert list(listed) == back               # walked again: the same
        assert len(listed._store) == 300


@pytest.mark.parametrize("game, team", [(None, None), ("fublet", None), (None, "rot"), ("futboard", "MARE"),
                                        (None, "ölberg"), ("fussball_liga", "nobody")])
def test_its_picks_and_tables_are_the_lists(game, team):
    entries = season(400, seed=5)
    chosen = h.select(entries, game, team)
    with h.Listing.of(entries, FOLDER) as listed:
        picked = listed.selected(game, team)
        assert names(picked) == names(h.in_list_order(chosen))
        assert names(picked.left_out()) == names(e for e in h.in_list_order(entries)
                                                 if (game or team) and not e.ok and e not in chosen)
        assert bool(picked) == bool(chosen)
        assert picked.titled() == any(e.title for e in chosen)
        assert h.games_in(picked) == h.games_in(chosen)
        for g in (None,) + GAMES:
            assert names(h.finished(picked, g)) == names(h.finished(chosen, g))
            assert h.count_finished(picked, g) == len(h.finished(chosen, g))
            assert names(h.friendlies(picked, g)) == names(h.friendlies(chosen, g))
            assert h.head_to_head(picked, g) == h.head_to_head(chosen, g)
        for g in GAMES:
            assert h.league(picked, g) == h.league(chosen, g)
        assert h.records(picked) == h.records(chosen)


def test_walking_a_listing_holds_no_season(monkeypatch):
    """Every walk of a listing (the list, the tables, the picks) holds a few entries at a time,
    never the season's 4,000: counted among the live objects as the walks go. (Not by memory
    peaks: pathlib's interning of each name can grow the process's table of interned strings,
    a one-off the size of the whole process.)"""
    unpack, seen = h._unpack, []

    def counting(folder, blob):
        if len(seen) % 499 == 0:
            seen.append(sum(1 for o in gc.get_objects() if type(o) is h.Entry))
        else:
            seen.append(None)
        return unpack(folder, blob)

    with h.Listing.of(season(4000, seed=3), FOLDER) as listed:
        gc.collect()
        monkeypatch.setattr(h, "_unpack", counting)
        assert sum(1 for _ in listed) == 4000
        h.league(listed, "fublet")
        h.records(listed)
        h.head_to_head(listed)
        assert sum(1 for _ in listed.selected(team="rot")) > 1000
        counts = [n for n in seen if n is not None]
    assert len(seen) > 10000 and len(counts) > 20
    assert max(counts) <= 3, counts   # the entry being read, and the one before it at most


def test_text_keys_sort_as_python_sorts_them():
    words = ["b", "a", "é", "z", "\udcff", "\U0001f600", "", "A", "ab"]
    assert sorted(words, key=entry_store.key) == sorted(words)
    assert all(entry_store.text_of(entry_store.key(w)) == w for w in words)


def full_store(monkeypatch):
    """Every listing's temporary database has room for a few pages only, as in a full folder."""
    connect = sqlite3.connect

    def cramped(*args, **kwargs):
        db = connect(*args, **kwargs)
        db.execute("PRAGMA max_page_count=8")
        return db

    monkeypatch.setattr(entry_store.sqlite3, "connect", cramped)


def test_no_room_for_the_listing_is_said_in_words(monkeypatch, capsys, tmp_path):
    matches = tmp_path / "matches"
    matches.mkdir()
    for i in range(400):   # damaged files: listed, never replayed, and each one a row
        (matches / f"m{i:03d}-{'x' * 80}.jsonl").write_text("{", encoding="utf-8")
    full_store(monkeypatch)
    with pytest.raises(entry_store.ListingError, match="temporary file"):
        h.scan(matches)
    assert main(["history", "--folder", str(matches)]) == 2
    out, err = capsys.readouterr()
    assert "touchline history: error: the list of matches needs a temporary file" in err
    assert "TMPDIR" in err and "Traceback" not in err and err.count("\n") == 1
