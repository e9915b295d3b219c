"""``touchline history`` and ``touchline league`` over a large matches folder (issue 32, item 2):
cold (no cache: every journal replayed, the cache written) and warm (the cache read, each file
only stat'ed), against a bare read-and-parse of the same files, side by side in one run.
Figures for docs/benchmarks.md; nothing here asserts on time.

    .venv/bin/python benchmarks/bench_history.py --matches 1000 --rounds 3
    .venv/bin/python benchmarks/bench_history.py --matches 10000 --rounds 1
    .venv/bin/python benchmarks/bench_history.py --matches 1000 --code /work/main   # another checkout too
    .venv/bin/python benchmarks/bench_history.py --matches 10000 --only warm --code /work/main   # warm, both
    .venv/bin/python benchmarks/bench_history.py --fixed --code /work/main --rounds 7  # report and imports

The folder (``--dir``, default ``$TMPDIR/touchline-bench-history-N``, kept for the next run) is
a data folder whose ``matches/`` holds N journals as the tablet writes them: the four games'
scripted full matches (tests/data/*_full_match.jsonl) in turn, each under other team names and
another date, its hash chain computed as the app computes it, with the final record the app
writes at the final whistle and the anchor it keeps in ``anchors/`` (companion/final_record.py;
``--plain``: neither, as an older Touchline or another tablet left them). Every command runs in its own
process (Python's start and imports included, as a coach types it), its output to /dev/null;
the bare read runs in its own process too: ``sqlite3`` opens each journal read-only, reads
every row of ``events`` in order and parses each row's JSON. Each row is timed in wall and CPU
(user + system of that process, ``os.wait4``) with its peak memory; the rows of a round run
one after another, the rounds repeat, and the ratios are taken within a round, then the median.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the project importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from benchmarks.run import machine  # noqa: E402
from companion.journal_chain import GENESIS, chain_hash, dump_json  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
GAMES = ("fublet", "football_leader", "fussball_liga", "futboard")
TEAMS = ("Estrela FC", "Mare Azul", "Porto Novo", "SV Rotstein", "FC Gruenwald", "Kickers", "Atletico Sol",
         "Real Brisa", "Dynamo Nord", "Union Tal", "Sporting Lua", "Olympia Berg")
COLUMNS = "seq, batch, at, source, type, data, status, hash"
FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"

# Each process reports its own peak memory (VmHWM) as it exits: the rusage of a child counts
# the parent's memory at the fork as well.
PEAK = r"""
import atexit, sys
def _peak():
    with open("/proc/self/status") as fh:
        kb = next((line.split()[1] for line in fh if line.startswith("VmHWM")), "0")
    sys.stderr.write(f"\nPEAK_KB {kb}\n")
atexit.register(_peak)
"""

BARE = PEAK + r"""
import json, sqlite3, sys
from pathlib import Path
rows = 0
for p in sorted(Path(sys.argv[1]).iterdir()):
    if p.suffix != ".sqlite":
        continue
    conn = sqlite3.connect(f"file:{p}?mode=ro", uri=True)
    try:
        meta = dict(conn.execute("SELECT key, value FROM meta"))
        for r in conn.execute("SELECT seq, batch, at, source, type, data, status, hash FROM events ORDER BY seq"):
            json.loads(r[5])
            rows += 1
    finally:
        conn.close()
print(rows)
"""


def templates() -> dict[str, tuple[dict[str, str], list[tuple], dict]]:
    """Each game's scripted full match as a journal's meta and rows (written once by the app's
    own Journal, then read back), and its final record's fields (companion/final_record.py)
    as the match's replay gives them."""
    from journal_fixtures import journal_of

    from companion.final_record import fields_of
    from companion.jsonl import read_file
    from companion.loading import ruleset_named
    from companion.match import Match

    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for game in GAMES:
            path = journal_of(DATA / f"{game}_full_match.jsonl", Path(tmp) / f"{game}.sqlite")
            conn = sqlite3.connect(path)
            meta = dict(conn.execute("SELECT key, value FROM meta"))
            rows = conn.execute(f"SELECT {COLUMNS} FROM events ORDER BY seq").fetchall()
            conn.close()
            imported = read_file(DATA / f"{game}_full_match.jsonl")
            match = Match.from_events(ruleset_named(game), imported.events)
            out[game] = (meta, rows, fields_of(match.summary()))
    return out


def make_folder(folder: Path, count: int, start: int = 0, plain: bool = False) -> None:
    """``count`` journals in ``folder``: match i is game i % 4, two of TEAMS, its events i
    days later than the scripted match's, its chain computed anew; each with the final
    record the app writes at the final whistle (its teams the new ones) and the anchor the app
    keeps beside the data folder's matches, unless ``plain`` (journals as a Touchline before
    the final record wrote them, or from another tablet: every listing replays them).
    ``start``: the first i made (the ones before are kept: a long making that was stopped
    goes on)."""
    from companion.anchors import AnchorBook, marks_of
    from companion.final_record import KEY, FinalRecord
    from companion.journal import _SCHEMA, APPLICATION_ID  # the very schema Touchline writes

    folder.mkdir(parents=True, exist_ok=True)
    book = AnchorBook.of_data_dir(folder.parent)
    base = {game: (meta, [(row, datetime.strptime(row[2], FORMAT)) for row in rows], fields)
            for game, (meta, rows, fields) in templates().items()}
    for i in range(start, count):
        game = GAMES[i % len(GAMES)]
        meta, rows, fields = base[game]
        home, away = TEAMS[i % len(TEAMS)], TEAMS[(i + 1 + i // len(TEAMS)) % len(TEAMS)]
        if home == away:
            away = TEAMS[(i + 2) % len(TEAMS)]
        shift = timedelta(days=i // len(GAMES) + 1, minutes=i % 97)
        prev, out = GENESIS, []
        for (seq, batch, _, source, type_, data, status, _), when in rows:
            at = (when + shift).strftime(FORMAT)
            if seq == 1:
                payload = json.loads(data)
                payload["home"]["name"], payload["away"]["name"] = home, away
                data = dump_json(payload)
            prev = chain_hash(prev, seq, batch, at, source, type_, data)
            out.append((seq, batch, at, source, type_, data, status, prev))
        path = folder / f"match-{i:05d}.sqlite"
        path.unlink(missing_ok=True)
        record = None
        if not plain:
            active = sum(1 for row in out if row[6] == "active")
            record = FinalRecord(prev, active, {**fields, "teams": {"home": home, "away": away}})
            meta = {**meta, KEY: record.text()}
        conn = sqlite3.connect(path)
        conn.execute("PRAGMA synchronous = OFF")   # a benchmark's folder: made again if the machine stops
        conn.executescript(_SCHEMA)
        conn.executemany("INSERT INTO meta VALUES (?, ?)", sorted(meta.items()))
        conn.executemany(f"INSERT INTO events ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", out)
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute("PRAGMA user_version = 2")
        conn.commit()
        conn.close()
        if record is not None:
            book.record(path, out[0][-1], out[-1][0], prev, marks_of((r[0], r[-1]) for r in out), out[0][2],
                        record.digest())
    (folder.parent / "made.json").write_text(json.dumps({"matches": count, "plain": plain}), encoding="utf-8")
    if not plain:
        check_records(folder, count)


def check_records(folder: Path, count: int) -> None:
    """The folder's first journal of each game lists from its record as its replay lists it
    (else the benchmark would time a listing of wrong results)."""
    from companion.report import history

    for i in range(min(count, len(GAMES))):
        path = folder / f"match-{i:05d}.sqlite"
        fast = history.read_entry(path)
        real = history.read_finished
        history.read_finished = lambda stored, book: None
        try:
            slow = history.read_entry(path)
        finally:
            history.read_finished = real
        if fast != slow or not fast.finished:
            raise SystemExit(f"{path}: its final record lists {fast}, its replay {slow}")


def timed(argv: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float, float, int]:
    """(wall s, CPU s, peak MB, exit status) of one process."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = proc.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    if proc.returncode:
        print(f"  {' '.join(argv[-4:])}: exit {proc.returncode}: {err[-300:]}")
    peak = next((int(line.split()[1]) for line in reversed(err.splitlines()) if line.startswith("PEAK_KB ")), 0)
    return wall, usage.ru_utime + usage.ru_stime, peak / 1024, proc.returncode


IMPORT_CORE = ("import companion.match, companion.ruleset, companion.commands, companion.events, companion.board, "
               "companion.dice, companion.teams, companion.datafiles, companion.codec\n")


def fixed(args: argparse.Namespace) -> int:
    """The fixed costs (issue 32, item 3), each in its own process, CPU time: ``report`` of a
    short match (this checkout and ``--code``), the plots' matplotlib imports (pyplot against
    the Figure and its Agg canvas), and each game's rules imported over the shared core."""
    work = Path(tempfile.mkdtemp(prefix="touchline-bench-fixed-"))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(TOUCHLINE_DATA_DIR=str(work / "tablet"), PYTHONPYCACHEPREFIX=str(work / "pycache"))
    short = work / "short.jsonl"   # the first 60 events of the Futboard match: a short match, unfinished
    short.write_text("".join((DATA / "futboard_full_match.jsonl").read_text(encoding="utf-8").splitlines(True)[:60]),
                     encoding="utf-8")
    py = sys.executable
    cli = PEAK + "from companion.cli import main; sys.exit(main(sys.argv[1:]))"
    rows: dict[str, tuple[list[str], Path]] = {
        "python -c 'import sqlite3, json'": ([py, "-c", PEAK + "import sqlite3, json"], ROOT),
        "touchline replay (short match)": ([py, "-c", cli, "replay", str(short)], ROOT),
        "touchline report (short match)": ([py, "-c", cli, "report", str(short), "--out", str(work / "r"), "--force"],
                                           ROOT),
        "import matplotlib.pyplot (Agg)": ([py, "-c", PEAK + "import matplotlib; matplotlib.use('Agg'); "
                                            "import matplotlib.pyplot"], ROOT),
        "import matplotlib.figure + backend_agg": ([py, "-c", PEAK + "import matplotlib.figure, "
                                                    "matplotlib.backends.backend_agg"], ROOT),
        "import the shared core (companion.match ...)": ([py, "-c", PEAK + IMPORT_CORE], ROOT),
    }
    for game in GAMES:
        rows[f"import the core + {game}.rules"] = ([py, "-c", PEAK + IMPORT_CORE + f"import companion.{game}.rules"],
                                                    ROOT)
    if args.code:
        code = args.code.resolve()
        rows[f"touchline report (short match), {code}"] = (
            [py, "-c", cli, "report", str(short), "--out", str(work / "r0"), "--force"], code)
        rows[f"touchline replay (short match), {code}"] = ([py, "-c", cli, "replay", str(short)], code)
        rows[f"import the shared core, {code}"] = ([py, "-c", PEAK + IMPORT_CORE], code)
        for game in GAMES:
            rows[f"import the core + {game}.rules, {code}"] = (
                [py, "-c", PEAK + IMPORT_CORE + f"import companion.{game}.rules"], code)
    print(f"machine: {machine()}; nproc {os.cpu_count()}; load {os.getloadavg()}")
    print(f"{datetime.now().astimezone():%Y-%m-%d %H:%M %Z}; {args.rounds} rounds")
    got: dict[str, list[tuple[float, float, float, int]]] = {name: [] for name in rows}
    for argv_, cwd in rows.values():   # untimed: bytecode written
        timed(argv_, cwd, {**env, "PYTHONPATH": str(cwd)})
    for _ in range(args.rounds):
        for name, (argv_, cwd) in rows.items():
            got[name].append(timed(argv_, cwd, {**env, "PYTHONPATH": str(cwd)}))
    base = got["python -c 'import sqlite3, json'"]
    print("\n| process | wall s | CPU ms | peak MB | CPU / `import sqlite3, json` |")
    print("|---|---|---|---|---|")
    for name, runs in got.items():
        ratio = statistics.median(c / b[1] for (_, c, _, _), b in zip(runs, base))
        print(f"| {name} | {statistics.median(w for w, _, _, _ in runs):.2f} | "
              f"{1000 * statistics.median(c for _, c, _, _ in runs):.0f} | {max(m for _, _, m, _ in runs):.0f} | "
              f"{ratio:.1f}x |")
    print(f"\nload at the end {os.getloadavg()}")
    shutil.rmtree(work, ignore_errors=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--matches", type=int, default=1000)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--dir", type=Path, help="the data folder (made when it holds no folder of --matches)")
    p.add_argument("--code", type=Path, help="also run another checkout's history and league, warm, with a "
                                             "cache of their own (before the change)")
    p.add_argument("--fixed", action="store_true", help="the fixed costs instead: report, replay, imports")
    p.add_argument("--only", help="only the rows whose name holds one of these words (comma-separated), e.g. "
                                  "'bare,history' for a large folder")
    p.add_argument("--plain", action="store_true",
                   help="journals without the final record and the anchor the app now writes (an older "
                        "Touchline's, another tablet's): every cold listing replays them")
    p.add_argument("--no-warmup", action="store_true",
                   help="no untimed first run (a cold run of a large folder is the longest; the first timed cold "
                        "run writes the bytecode)")
    args = p.parse_args(argv)
    if args.fixed:
        return fixed(args)
    plain = "-plain" if args.plain else ""
    data = args.dir or Path(tempfile.gettempdir()) / f"touchline-bench-history-{args.matches}{plain}"
    matches = data / "matches"
    made = data / "made.json"
    if not (made.exists() and json.loads(made.read_text()) == {"matches": args.matches, "plain": args.plain}):
        shutil.rmtree(data, ignore_errors=True)
        start = time.perf_counter()
        make_folder(matches, args.matches, plain=args.plain)
        print(f"made {args.matches} journals in {time.perf_counter() - start:.0f} s")
    size = sum(f.stat().st_size for f in matches.iterdir()) / 1e6
    cache = data / "reports" / "history-cache.json"
    # Bytecode as an installed package has it (pip compiles it): PYTHONDONTWRITEBYTECODE, set
    # in some shells, would compile every module at every start; the prefix keeps the .pyc
    # files out of the checkouts. Each row runs once untimed first, so they exist.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(TOUCHLINE_DATA_DIR=str(data / "tablet"), PYTHONPYCACHEPREFIX=str(data / "pycache"))
    py = sys.executable

    def command(code: Path, *words: str) -> tuple[list[str], Path, dict[str, str]]:
        return ([py, "-c", PEAK + "from companion.cli import main; sys.exit(main(sys.argv[1:]))", *words],
                code, {**env, "PYTHONPATH": str(code)})

    rows = {
        "bare read-and-parse": lambda: ([py, "-c", BARE, str(matches)], ROOT, env),
        "history, cold (no cache)": lambda: (cache.unlink(missing_ok=True), command(ROOT, "history", "--data-dir",
                                                                                    str(data)))[1],
        "history, warm (cache)": lambda: command(ROOT, "history", "--data-dir", str(data)),
        "league, cold (no cache)": lambda: (cache.unlink(missing_ok=True), command(ROOT, "league", "--data-dir",
                                                                                   str(data)))[1],
        "league, warm (cache)": lambda: command(ROOT, "league", "--data-dir", str(data)),
        "python -c 'import sqlite3, json'": lambda: ([py, "-c", PEAK + "import sqlite3, json"], ROOT, env),
    }
    if args.code:   # a cache of its own: one shared with a checkout of another cache version lists cold
        before = data / "reports" / "history-cache-before.json"
        for word in ("history", "league"):
            rows[f"{word}, warm, of {args.code} (before)"] = (
                lambda word=word: command(args.code.resolve(), word, "--data-dir", str(data), "--cache", str(before)))
    if args.only:
        words = [w.strip() for w in args.only.split(",") if w.strip()]
        rows = {name: make for name, make in rows.items()
                if name == "bare read-and-parse" or any(w in name for w in words)}
    print(f"machine: {machine()}; nproc {os.cpu_count()}; load {os.getloadavg()}")
    print(f"{args.matches} journals, {size:.0f} MB, in {matches}; {datetime.now().astimezone():%Y-%m-%d %H:%M %Z}")
    got: dict[str, list[tuple[float, float, float, int]]] = {name: [] for name in rows}
    for name, make in rows.items():   # the untimed first run: bytecode written, files in the page cache
        if "cold" not in name and not args.no_warmup:
            timed(*make())
    for r in range(args.rounds):
        for name, make in rows.items():
            argv_, cwd, env_ = make()
            got[name].append(timed(argv_, cwd, env_))
        print(f"round {r + 1} done, load {os.getloadavg()[0]:.1f}")
    bare = got["bare read-and-parse"]
    print(f"\n| run ({args.matches} matches) | wall s | CPU s | peak MB | CPU / bare read-and-parse |")
    print("|---|---|---|---|---|")
    for name, runs in got.items():
        ratio = statistics.median(c / b[1] for (_, c, _, _), b in zip(runs, bare))
        print(f"| {name} | {statistics.median(w for w, _, _, _ in runs):.2f} | "
              f"{statistics.median(c for _, c, _, _ in runs):.2f} | {max(m for _, _, m, _ in runs):.0f} | "
              f"{ratio:.2f}x |")
    print(f"\nload at the end {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
