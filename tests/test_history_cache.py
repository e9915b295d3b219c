"""The history's cache (issue 32, item 2): ``touchline history`` and ``touchline league`` read
the matches through the cache the app's Matches screen keeps, replay only what changed, and
are safe with a damaged cache, a cache in a hostile place, and two processes at once."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
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


def read_cache(cache: Path) -> tuple[dict, list[list]]:
    """The cache's header and its files' lines, each line parsed alone (JSON Lines), checked
    to be whole and in name order."""
    text = cache.read_text(encoding="utf-8")
    assert text.endswith("\n")
    head, *lines = [json.loads(line) for line in text.splitlines()]
    assert [line[0] for line in lines] == sorted({line[0] for line in lines})   # in order, each once
    return head, lines


def cached_names(cache: Path) -> set[str]:
    return {line[0] for line in read_cache(cache)[1]}


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
    assert read_cache(cache)[0] == {"version": h.CACHE_VERSION} and cached_names(cache) == {"a.jsonl", "b.jsonl"}
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


@pytest.mark.parametrize("damage", ["half", "garbage", "version", "v6", "shape", "deep", "empty", "list",
                                    "header"])
def test_a_damaged_cache_is_ignored_and_written_anew(capsys, data_dir, reads, damage):
    assert main(["history", "--data-dir", str(data_dir)]) == 0
    cold = capsys.readouterr()[0]
    cache = h.cache_path(data_dir)
    text = cache.read_bytes()
    head, lines = read_cache(cache)
    half = text[: len(text) // 2]
    cache.write_bytes({
        "half": half,
        "garbage": os.urandom(4096),
        "version": b"\n".join([json.dumps({"version": h.CACHE_VERSION - 1}).encode(), *text.split(b"\n")[1:]]),
        "v6": json.dumps({"version": 6, "files": {n: [s, f] for n, s, f in lines}}).encode(),   # the last format
        "shape": b"".join([text.split(b"\n")[0] + b"\n"]
                          + [json.dumps([n, s, [1, "x"]]).encode() + b"\n" for n, s, _ in lines]),
        "deep": b"[" * 100_000 + b"]" * 100_000,
        "empty": b"",
        "list": b"[]",
        "header": b'{"version":' + b"9" * 100_000 + b"}\n",   # over the header's bound: never parsed
    }[damage])
    reads.clear()
    assert main(["history", "--data-dir", str(data_dir)]) == 0
    out, err = capsys.readouterr()
    assert out == cold and "Traceback" not in err
    # A cache cut short keeps its whole lines (each one says all of its file); every other damage
    # costs every file's replay.
    kept = {json.loads(line)[0] for line in half.split(b"\n")[1:-1]} if damage == "half" else set()
    assert sorted(reads) == sorted({"a.jsonl", "b.jsonl"} - kept) and reads
    assert read_cache(cache)[0]["version"] == h.CACHE_VERSION and cached_names(cache) == {"a.jsonl", "b.jsonl"}
    reads.clear()
    assert main(["history", "--data-dir", str(data_dir)]) == 0 and reads == []


def test_a_warm_listing_writes_nothing(capsys, data_dir):
    cache = h.cache_path(data_dir)
    assert main(["history", "--data-dir", str(data_dir)]) == 0
    before, st = cache.read_bytes(), cache.stat()
    assert main(["league", "--data-dir", str(data_dir)]) == 0
    assert main(["history", "--data-dir", str(data_dir)]) == 0
    assert cache.read_bytes() == before and (cache.stat().st_ino, cache.stat().st_mtime_ns) == (st.st_ino,
                                                                                                 st.st_mtime_ns)
    assert sorted(p.name for p in cache.parent.iterdir()) == ["history-cache.json"]   # no temporary left


def test_a_warm_listing_makes_no_temporary_cache_either(monkeypatch, data_dir):
    """Nothing differs, so nothing is written at all (a season's cache is some 4 MB: written
    and thrown away at every look at the Matches screen, it would wear a tablet's flash)."""
    cache = h.cache_path(data_dir)
    h.scan(data_dir / "matches", cache)
    made = []
    real = tempfile.mkstemp
    monkeypatch.setattr(tempfile, "mkstemp", lambda *a, **k: made.append(k) or real(*a, **k))
    h.scan(data_dir / "matches", cache)
    with h.listing(data_dir / "matches", cache) as listed:
        assert len(list(listed)) == 3   # two matches and a text file
    assert made == []
    third_match(data_dir)   # a file new: the cache is written again, through one temporary
    assert len(h.scan(data_dir / "matches", cache)) == 4
    assert len(made) == 1 and h.scan(data_dir / "matches", cache) and len(made) == 1


def third_match(data_dir: Path) -> Path:
    return variant(data_dir / "matches" / "c.jsonl", "Porto Novo", "Estrela FC", 3)


@pytest.mark.parametrize("damage", ["bad line", "cut line", "shape", "stamp"])
def test_one_bad_line_among_good_ones_only_rereads_its_file(capsys, caplog, data_dir, reads, damage):
    third_match(data_dir)
    assert main(["history", "--data-dir", str(data_dir)]) == 0
    cold = capsys.readouterr()[0]
    cache = h.cache_path(data_dir)
    head, a, b, c = cache.read_bytes().split(b"\n")[:-1]
    assert json.loads(b)[0] == "b.jsonl"
    b = {"bad line": b"\xff{not json", "cut line": b[: len(b) // 2], "shape": b'["b.jsonl", "x"]',
         "stamp": json.dumps(["b.jsonl", "0:0:0:0", json.loads(b)[2]]).encode()}[damage]
    cache.write_bytes(b"\n".join([head, a, b, c]) + b"\n")
    reads.clear()
    assert main(["history", "--data-dir", str(data_dir)]) == 0
    assert capsys.readouterr()[0] == cold and reads == ["b.jsonl"]
    cache.write_bytes(b"\n".join([head, a, b, c]) + b"\n")   # once more, to see what the scan says of it
    with caplog.at_level("INFO", logger="companion.report.history"):
        h.scan(data_dir / "matches", cache)
    assert ("1 line(s) damaged or out of order" in caplog.text) == (damage != "stamp")   # a stale line is no damage
    reads.clear()
    assert cached_names(cache) == {"a.jsonl", "b.jsonl", "c.jsonl"}   # the line written anew
    reads.clear()
    assert main(["history", "--data-dir", str(data_dir)]) == 0 and reads == []


def test_lines_out_of_order_are_read_again_and_written_in_order(capsys, data_dir, reads):
    third_match(data_dir)
    assert main(["history", "--data-dir", str(data_dir)]) == 0
    cold = capsys.readouterr()[0]
    cache = h.cache_path(data_dir)
    head, a, b, c = cache.read_bytes().split(b"\n")[:-1]
    cache.write_bytes(b"\n".join([head, c, a, b]) + b"\n")
    reads.clear()
    assert main(["history", "--data-dir", str(data_dir)]) == 0
    assert capsys.readouterr()[0] == cold
    assert sorted(reads) == ["a.jsonl", "b.jsonl"]   # after c's line, theirs are out of place: not trusted
    assert cache.read_bytes().split(b"\n")[1:4] == [a, b, c]   # in order again, each line as it was
    reads.clear()
    assert main(["history", "--data-dir", str(data_dir)]) == 0 and reads == []


def test_a_line_twice_is_used_once_and_the_cache_written_without_it(capsys, data_dir, reads):
    cache = h.cache_path(data_dir)
    assert main(["history", "--data-dir", str(data_dir)]) == 0
    cold = capsys.readouterr()[0]
    head, a, b = cache.read_bytes().split(b"\n")[:-1]
    stale = json.dumps(["a.jsonl", "0:0:0:0", json.loads(a)[2][:-1] + [True]]).encode()
    cache.write_bytes(b"\n".join([head, a, stale, b]) + b"\n")
    reads.clear()
    assert main(["history", "--data-dir", str(data_dir)]) == 0
    assert capsys.readouterr()[0] == cold and reads == []
    assert cache.read_bytes() == b"\n".join([head, a, b]) + b"\n"


def test_a_gone_file_leaves_the_cache_and_a_new_one_joins_it(capsys, data_dir, reads):
    cache = h.cache_path(data_dir)
    assert main(["history", "--data-dir", str(data_dir)]) == 0
    (data_dir / "matches" / "a.jsonl").unlink()
    third_match(data_dir)
    reads.clear()
    assert main(["history", "--data-dir", str(data_dir)]) == 0
    assert reads == ["c.jsonl"] and cached_names(cache) == {"b.jsonl", "c.jsonl"}


def test_homes_few_files_keep_the_others_lines_as_they_were(data_dir, reads):
    """read_files (Home's matches played here) replays a changed file and puts its line in the
    cache; the other files' lines are copied byte for byte."""
    cache = h.cache_path(data_dir)
    third_match(data_dir)
    h.scan(data_dir / "matches", cache)
    head, a, b, c = cache.read_bytes().split(b"\n")[:-1]
    variant(data_dir / "matches" / "b.jsonl", "Mare Azul", "Nova", 2)
    reads.clear()
    assert [e.away for e in h.read_files([data_dir / "matches" / "b.jsonl", data_dir / "matches" / "a.jsonl"],
                                         cache)] == ["Nova", "Mare Azul"]
    assert reads == ["b.jsonl"]
    head2, a2, b2, c2 = cache.read_bytes().split(b"\n")[:-1]
    assert (head2, a2, c2) == (head, a, c) and b2 != b and json.loads(b2)[2][2] == "Nova"
    reads.clear()
    assert [e.away for e in h.read_files([data_dir / "matches" / "b.jsonl"], cache)] == ["Nova"] and reads == []
    h.scan(data_dir / "matches", cache)
    assert reads == []


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
    assert read_cache(h.cache_path(data_dir))[0]["version"] == h.CACHE_VERSION


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
    assert read_cache(cache)[0]["version"] == h.CACHE_VERSION and {"a.jsonl", "b.jsonl"} <= cached_names(cache)
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
    assert read_cache(mine)[0]["version"] == h.CACHE_VERSION


@pytest.mark.parametrize("damage", ["garbage", "v6"])
def test_homes_few_files_through_a_damaged_cache_write_a_sound_one(data_dir, reads, damage):
    cache = h.cache_path(data_dir)
    cache.parent.mkdir(parents=True)
    cache.write_bytes(os.urandom(4096) if damage == "garbage" else b'{"version":6,"files":{"a.jsonl":["x",[]]}}')
    assert [e.home for e in h.read_files([data_dir / "matches" / "a.jsonl"], cache)] == ["Estrela FC"]
    assert reads == ["a.jsonl"]
    assert read_cache(cache)[0] == {"version": h.CACHE_VERSION} and cached_names(cache) == {"a.jsonl"}
    reads.clear()
    h.scan(data_dir / "matches", cache)
    assert reads == ["b.jsonl"] and cached_names(cache) == {"a.jsonl", "b.jsonl"}
