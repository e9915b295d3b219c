"""The history's cache (issue 32, item 2): ``touchline history`` and ``touchline league`` read
the matches through the cache the app's Matches screen keeps, replay only what changed, and
are safe with a damaged cache, a cache in a hostile place, and two processes at once."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import hostile_kit as k
from companion.cli import main
from companion.report import history as h

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).resolve().parents[1]


def variant(out: Path, home: str, away: str, day: int, game: str = "futboard") -> Path:
    """A scripted full match under other team names and another date (as tests/test_history.py)."""
    rows = []
    for line in (DATA / f"{game}_full_match.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        row["at"] = f"2027-01-{day:02d}" + row["at"][10:]
        if row["type"].endswith(".match_created"):
            row["data"]["home"]["name"], row["data"]["away"]["name"] = home, away
        rows.append(json.dumps(row))
    out.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return out


@pytest.fixture
def data_dir(tmp_path) -> Path:
    d = tmp_path / "data"
    (d / "matches").mkdir(parents=True)
    variant(d / "matches" / "a.jsonl", "Estrela FC", "Mare Azul", 1)
    variant(d / "matches" / "b.jsonl", "Mare Azul", "Porto Novo", 2)
    (d / "matches" / "notes.txt").write_text("bring snacks", encoding="utf-8")
    return d


@pytest.fixture
def reads(monkeypatch) -> list[str]:
    """The names of the files replayed (not taken from the cache) from here on."""
    seen: list[str] = []
    real = h.read_entry
    monkeypatch.setattr(h, "read_entry", lambda path, *more: seen.append(path.name) or real(path, *more))
    return seen


def test_history_and_league_share_the_apps_cache(capsys, data_dir, reads):
    assert main(["history", "--data-dir", str(data_dir)]) == 0
    cold = capsys.readouterr()[0]
    assert sorted(reads) == ["a.jsonl", "b.jsonl"]
    cache = h.cache_path(data_dir)
    assert cache == data_dir / "reports" / "history-cache.json"   # where the Matches screen keeps it
    assert set(json.loads(cache.read_text(encoding="utf-8"))["files"]) == {"a.jsonl", "b.jsonl"}
    reads.clear()
    assert main(["history", "--data-dir", str(data_dir)]) == 0
    assert capsys.readouterr()[0] == cold and reads == []
    assert main(["league", "--data-dir", str(data_dir)]) == 0
    out = capsys.readouterr()[0]
    assert "Futboard: league table (2 finished matches)" in out and reads == []


def test_the_apps_listing_and_the_commands_fill_one_cache(capsys, data_dir, reads):
    from ui.played_here import cache_path

    h.scan(data_dir / "matches", cache_path(data_dir))   # what the Matches screen runs
    reads.clear()
    assert main(["league", "--data-dir", str(data_dir)]) == 0
    assert reads == []


def test_a_changed_file_is_read_again(capsys, data_dir, reads):
    assert main(["history", "--data-dir", str(data_dir)]) == 0
    reads.clear()
    variant(data_dir / "matches" / "a.jsonl", "Estrela FC", "Nova", 1)
    assert main(["history", "--data-dir", str(data_dir), "--json"]) == 0
    assert reads == ["a.jsonl"]
    assert "Nova" in capsys.readouterr()[0]


def test_a_file_swapped_for_another_of_the_same_size_and_time_is_read_again(capsys, data_dir, reads):
    """Size and modification time put back: the inode (and the change time) still tell."""
    target = data_dir / "matches" / "a.jsonl"
    assert main(["history", "--data-dir", str(data_dir)]) == 0
    before = os.stat(target)
    swapped = variant(data_dir / "matches" / ".swap", "Estrela FC", "Mare Azu1", 1)   # same length
    assert swapped.stat().st_size == before.st_size
    os.utime(swapped, ns=(before.st_atime_ns, before.st_mtime_ns))
    os.replace(swapped, target)
    assert (os.stat(target).st_size, os.stat(target).st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    reads.clear()
    assert main(["history", "--data-dir", str(data_dir), "--json"]) == 0
    assert reads == ["a.jsonl"] and "Mare Azu1" in capsys.readouterr()[0]


def test_a_folder_is_left_as_found_unless_a_cache_is_named(capsys, data_dir, reads, tmp_path):
    folder = data_dir / "matches"
    before = sorted(p.name for p in folder.iterdir())
    assert main(["history", "--folder", str(folder)]) == 0
    assert main(["history", "--data-dir", str(data_dir), "--no-cache"]) == 0
    assert sorted(p.name for p in folder.iterdir()) == before and not (data_dir / "reports").exists()
    reads.clear()
    mine = tmp_path / "mine" / "cache.json"
    assert main(["history", "--folder", str(folder), "--cache", str(mine)]) == 0
    assert sorted(reads) == ["a.jsonl", "b.jsonl"] and mine.is_file()
    reads.clear()
    assert main(["league", "--folder", str(folder), "--cache", str(mine)]) == 0 and reads == []
    assert sorted(p.name for p in folder.iterdir()) == before


@pytest.mark.parametrize("damage", ["half", "garbage", "version", "shape", "deep", "empty", "list"])
def test_a_damaged_cache_is_ignored_and_written_anew(capsys, data_dir, reads, damage):
    assert main(["history", "--data-dir", str(data_dir)]) == 0
    cold = capsys.readouterr()[0]
    cache = h.cache_path(data_dir)
    text = cache.read_text(encoding="utf-8")
    files = json.loads(text)["files"]
    cache.write_bytes({
        "half": text[: len(text) // 2].encode(),
        "garbage": os.urandom(4096),
        "version": json.dumps({"version": h.CACHE_VERSION - 1, "files": files}).encode(),
        "shape": json.dumps({"version": h.CACHE_VERSION, "files": {n: [v[0], [1, "x"]]
                                                                   for n, v in files.items()}}).encode(),
        "deep": b"[" * 100_000 + b"]" * 100_000,
        "empty": b"",
        "list": b"[]",
    }[damage])
    reads.clear()
    assert main(["history", "--data-dir", str(data_dir)]) == 0
    out, err = capsys.readouterr()
    assert out == cold and "Traceback" not in err
    assert sorted(reads) == ["a.jsonl", "b.jsonl"]
    assert json.loads(cache.read_text(encoding="utf-8"))["version"] == h.CACHE_VERSION   # written anew
    reads.clear()
    assert main(["history", "--data-dir", str(data_dir)]) == 0 and reads == []


@pytest.mark.parametrize("kind", ["fifo", "folder", "device"])
def test_a_cache_that_is_no_regular_file_is_refused_without_blocking(capsys, data_dir, kind):
    cache = h.cache_path(data_dir)
    cache.parent.mkdir(parents=True)
    if kind == "fifo":
        k.fifo(cache)      # nobody writes to it: an open or a read that waited would hang the test
    elif kind == "folder":
        cache.mkdir()
    else:
        k.device_link(cache, "/dev/zero")
    assert main(["history", "--data-dir", str(data_dir), "--json"]) == 0
    out, err = capsys.readouterr()
    assert {json.loads(line)["file"] for line in out.splitlines()} == {"a.jsonl", "b.jsonl", "notes.txt"}
    assert "Traceback" not in err
    assert not [p.name for p in cache.parent.iterdir() if p.name.endswith(".partial")]   # no temporary left


def test_the_cache_is_never_written_through_a_link_planted_at_a_temporary_name(capsys, data_dir, tmp_path):
    reports = data_dir / "reports"
    reports.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me", encoding="utf-8")
    for name in ("history-cache.json.partial", ".history-cache.json.partial"):   # the old and the new prefix
        (reports / name).symlink_to(victim)
    assert main(["history", "--data-dir", str(data_dir)]) == 0
    assert victim.read_text(encoding="utf-8") == "keep me"
    assert json.loads(h.cache_path(data_dir).read_text(encoding="utf-8"))["version"] == h.CACHE_VERSION


def test_a_cache_that_cannot_be_put_in_place_leaves_the_old_one_whole(data_dir, monkeypatch):
    cache = h.cache_path(data_dir)
    h.scan(data_dir / "matches", cache)
    old = cache.read_bytes()
    variant(data_dir / "matches" / "c.jsonl", "Porto Novo", "Estrela FC", 3)

    def refuse(src, dst):
        raise PermissionError(13, "refused", str(dst))

    monkeypatch.setattr(h.os, "replace", refuse)
    assert [e.path.name for e in h.scan(data_dir / "matches", cache) if e.ok] == ["c.jsonl", "b.jsonl", "a.jsonl"]
    assert cache.read_bytes() == old
    assert sorted(p.name for p in cache.parent.iterdir()) == ["history-cache.json"]   # the temporary is gone


def test_a_hostile_file_in_the_folder_is_refused_cold_and_warm(capsys, data_dir):
    k.fifo(data_dir / "matches" / "fifo.sqlite")             # no writer: a reader that opened it would hang
    k.recursive_view(data_dir / "matches" / "view.sqlite")
    for _ in ("cold", "warm"):
        assert main(["history", "--data-dir", str(data_dir), "--json"]) == 0
        out, err = capsys.readouterr()
        by = {json.loads(line)["file"]: json.loads(line) for line in out.splitlines()}
        assert "FIFO" in by["fifo.sqlite"]["problem"] and "view" in by["view.sqlite"]["problem"]
        assert by["a.jsonl"]["status"] == "finished" and "Traceback" not in err


WORKER = """
import json, os, sys
from pathlib import Path
from companion.report import history as h
folder, cache, me, rounds = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3], int(sys.argv[4])
for i in range(rounds):
    if me == "writer":   # a match that changes at every round: every scan writes the cache anew
        mine = folder / "live.jsonl"
        mine.write_text(Path(sys.argv[5]).read_text(encoding="utf-8")[: 2000 + 3000 * (i % 5)], encoding="utf-8")
    names = sorted(e.path.name for e in h.scan(folder, cache) if e.ok)
    assert names[:2] == ["a.jsonl", "b.jsonl"], names
print("ok")
"""


def test_two_processes_listing_and_writing_at_once_stay_whole(data_dir):
    """The app and a command (or two commands) at once: each scan reads a whole cache or none,
    each writes a whole one, and the last cache left is whole and used."""
    folder, cache = data_dir / "matches", h.cache_path(data_dir)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TOUCHLINE_DATA_DIR": str(data_dir)}
    procs = [subprocess.Popen([sys.executable, "-c", WORKER, str(folder), str(cache), who, "25",
                               str(DATA / "futboard_full_match.jsonl")], env=env, cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for who in ("writer", "writer", "reader")]
    for p in procs:
        out, err = p.communicate(timeout=600)
        assert p.returncode == 0 and out.strip() == "ok", err[-2000:]
    data = json.loads(cache.read_text(encoding="utf-8"))
    assert data["version"] == h.CACHE_VERSION and {"a.jsonl", "b.jsonl"} <= set(data["files"])
    assert [p.name for p in cache.parent.iterdir()] == ["history-cache.json"]   # no temporary left behind


@pytest.mark.parametrize("kind", ["text", "fifo"])
def test_a_named_cache_never_writes_over_a_file_that_is_no_cache(capsys, data_dir, tmp_path, kind):
    mine = tmp_path / "league.csv"
    if kind == "fifo":
        k.fifo(mine)
    else:
        mine.write_text("team,points\n", encoding="utf-8")
    assert main(["history", "--data-dir", str(data_dir), "--cache", str(mine)]) == 2
    _, err = capsys.readouterr()
    assert err.strip().count("\n") == 0 and "is no history cache" in err and "Traceback" not in err
    if kind == "text":
        assert mine.read_text(encoding="utf-8") == "team,points\n"
    mine.unlink()
    assert main(["history", "--data-dir", str(data_dir), "--cache", str(mine)]) == 0   # a new file: written
    assert main(["history", "--data-dir", str(data_dir), "--cache", str(mine)]) == 0   # and its own: used
    assert json.loads(mine.read_text(encoding="utf-8"))["version"] == h.CACHE_VERSION
