"""The ``touchline`` command, in-process (``main([...])``) and as ``python -m companion.cli``."""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.driver import AutoDriver
from companion.cli import build_parser, demo_path, main, scoreboard
from companion.journal import Journal
from companion.match import Match

ROOT = Path(__file__).resolve().parents[1]


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> dict:
    """A Fublet journal a few dozen commands deep (one undone), its export, and its summary."""
    folder = tmp_path_factory.mktemp("cli")
    journal = folder / "match.sqlite"
    driver = AutoDriver.new(seed=7, journal=Journal.create(journal, "fublet"))
    driver.play(commands=40)
    driver.match.undo(1)
    summary = driver.match.summary()
    events = len(driver.match.events)
    driver.match.close()
    export = folder / "match.jsonl"
    assert main(["export", str(journal), str(export)]) == 0
    return {"journal": journal, "export": export, "summary": summary, "active": events, "folder": folder}


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def one_error_line(err: str, *fragments: str) -> None:
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    for fragment in fragments:
        assert fragment in lines[0]


# --- replay -----------------------------------------------------------------------------------------

def test_replay_a_journal_prints_its_summary_and_leaves_it_byte_identical(capsys, played):
    journal = played["journal"]
    before = digest(journal)
    listing = sorted(p.name for p in journal.parent.iterdir())
    code, out, err = run(capsys, "replay", journal)
    assert code == 0, err
    assert json.loads(out) == played["summary"]
    assert digest(journal) == before
    assert sorted(p.name for p in journal.parent.iterdir()) == listing  # no -wal or -shm either


def test_replay_of_a_journal_still_open_for_writing(capsys, tmp_path):
    journal = tmp_path / "live.sqlite"
    driver = AutoDriver.new(seed=3, journal=Journal.create(journal, "fublet"))
    driver.play(commands=15)
    try:  # the writer keeps its connection: recent events may live in the -wal file only
        code, out, err = run(capsys, "replay", journal)
        assert code == 0, err
        assert json.loads(out) == driver.match.summary()
    finally:
        driver.match.close()


def test_replay_an_export_gives_the_same_summary(capsys, played):
    code, out, err = run(capsys, "replay", played["export"], "--json-indent", "0")
    assert code == 0, err
    assert len(out.strip().splitlines()) == 1
    assert json.loads(out) == played["summary"]


def test_replay_finds_a_journal_by_its_header_whatever_its_name(capsys, played, tmp_path):
    renamed = tmp_path / "match.backup"
    renamed.write_bytes(played["journal"].read_bytes())
    code, out, err = run(capsys, "replay", renamed)
    assert code == 0, err
    assert json.loads(out) == played["summary"]


def bad_export(played, tmp_path, line_no: int, text: str) -> Path:
    lines = played["export"].read_text(encoding="utf-8").splitlines()
    lines[line_no - 1] = text
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_replay_names_the_bad_line(capsys, played, tmp_path):
    path = bad_export(played, tmp_path, 5, '{"seq": 5, "oops"')
    code, out, err = run(capsys, "replay", path)
    assert code == 2 and out == ""
    one_error_line(err, f"{path}, line 5: not valid JSON")


def test_replay_names_an_unknown_event_type(capsys, played, tmp_path):
    lines = played["export"].read_text(encoding="utf-8").splitlines()
    obj = json.loads(lines[6])
    obj["type"] = "fublet.teleported"
    path = bad_export(played, tmp_path, 7, json.dumps(obj))
    code, _, err = run(capsys, "replay", path)
    assert code == 2
    one_error_line(err, "line 7", "unknown event type 'fublet.teleported'")


def unchained(lines: list[str]) -> list[str]:
    """An export's lines as an older Touchline wrote them: no header, no hashes."""
    out = []
    for line in lines:
        obj = json.loads(line)
        if "touchline" not in obj:
            obj.pop("hash")
            out.append(json.dumps(obj))
    return out


def test_replay_names_the_event_that_does_not_fold(capsys, played, tmp_path):
    lines = [line for line in unchained(played["export"].read_text(encoding="utf-8").splitlines())
             if "status" not in json.loads(line)]  # active events only (the undone batch is last)
    last = json.loads(lines[-1])
    seq = last["seq"] + 1
    ghost = {"seq": seq, "batch": seq, "at": last["at"], "source": "rules", "type": "fublet.player_injured",
             "data": {"player": "home#99", "result": 25}}  # nobody wears 99: the fold cannot apply it
    path = tmp_path / "ghost.jsonl"
    path.write_text("\n".join(lines + [json.dumps(ghost)]) + "\n", encoding="utf-8")
    code, _, err = run(capsys, "replay", path)
    assert code == 2
    one_error_line(err, f"event {seq} (fublet.player_injured) does not replay")


def test_replay_refuses_an_export_that_does_not_start_a_match(capsys, played, tmp_path):
    lines = played["export"].read_text(encoding="utf-8").splitlines()
    path = tmp_path / "headless.jsonl"
    path.write_text("\n".join(lines[1:]) + "\n", encoding="utf-8")
    code, _, err = run(capsys, "replay", path)
    assert code == 2
    one_error_line(err, "headless.jsonl")


def test_replay_refuses_an_empty_export(capsys, tmp_path):
    path = tmp_path / "empty.jsonl"
    path.write_text("\n", encoding="utf-8")
    code, _, err = run(capsys, "replay", path)
    assert code == 2
    one_error_line(err, "holds no events")


@pytest.mark.parametrize("make, fragment", [
    (lambda p: p.write_bytes(b"\x00" * 300), "not a Touchline journal"),
    (lambda p: sqlite3.connect(p).execute("CREATE TABLE t (x)").connection.commit(), "not a Touchline journal"),
    (lambda p: p.write_bytes(b""), "not a Touchline journal"),
])
def test_replay_refuses_foreign_files(capsys, tmp_path, make, fragment):
    path = tmp_path / "other.db"
    make(path)
    before = digest(path)
    code, _, err = run(capsys, "replay", path)
    assert code == 2
    one_error_line(err, str(path), fragment)
    assert digest(path) == before


def test_replay_refuses_a_newer_journal(capsys, played, tmp_path):
    path = tmp_path / "newer.sqlite"
    path.write_bytes(played["journal"].read_bytes())
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 99")
    conn.commit()
    conn.close()
    before = digest(path)
    code, _, err = run(capsys, "replay", path)
    assert code == 2
    one_error_line(err, str(path), "newer Touchline")
    assert "journal.sqlite" not in err  # the message names the user's file, not the private copy
    assert digest(path) == before


def test_replay_of_a_missing_file(capsys, tmp_path):
    for name in ("nothing.sqlite", "nothing.jsonl"):
        code, _, err = run(capsys, "replay", tmp_path / name)
        assert code == 2
        one_error_line(err, name)


# --- export and import ------------------------------------------------------------------------------

def test_export_writes_every_row_and_refuses_to_overwrite(capsys, played, tmp_path):
    lines = played["export"].read_text(encoding="utf-8").splitlines()
    statuses = [json.loads(line).get("status", "active") for line in lines[1:-1]]  # between header and closing
    assert statuses.count("active") == played["active"] and "undone" in statuses
    out = tmp_path / "again.jsonl"
    out.write_text("keep me")
    code, _, err = run(capsys, "export", played["journal"], out)
    assert code == 2
    one_error_line(err, "already exists")
    assert out.read_text() == "keep me"
    code, stdout, err = run(capsys, "export", played["journal"], out, "--force")
    assert code == 0, err
    assert out.read_text(encoding="utf-8").splitlines() == lines
    assert f"exported {len(lines) - 2} events" in stdout


def test_export_active_only(capsys, played, tmp_path):
    out = tmp_path / "active.jsonl"
    code, _, err = run(capsys, "export", played["journal"], out, "--active-only")
    assert code == 0, err
    header, *lines, closing = out.read_text(encoding="utf-8").splitlines()
    assert json.loads(closing)["touchline"] == "export end"
    assert len(lines) == played["active"] and not any("status" in json.loads(line) for line in lines)
    header = json.loads(header)
    assert header["active_only"] is True and header["events"] == len(lines) and header["omitted"]
    assert main(["verify", str(out)]) == 0


def test_export_never_replaces_a_journal(capsys, played, tmp_path):
    target = tmp_path / "precious.sqlite"
    target.write_bytes(played["journal"].read_bytes())
    before = digest(target)
    code, _, err = run(capsys, "export", played["journal"], target, "--force")
    assert code == 2
    one_error_line(err, "SQLite")
    assert digest(target) == before


def test_import_makes_a_journal_that_replays_the_same(capsys, played, tmp_path):
    target = tmp_path / "imported.sqlite"
    code, out, err = run(capsys, "import", played["export"], target)
    assert code == 0, err
    assert "imported" in out and "fublet" in out
    original, copy = Match.open(played["journal"]), Match.open(target)
    try:
        assert copy.state == original.state and copy.can_redo == original.can_redo == 1
    finally:
        original.close()
        copy.close()
    before = digest(target)
    code, _, err = run(capsys, "import", played["export"], target)
    assert code == 2
    one_error_line(err, "already exists")
    assert digest(target) == before


def test_import_of_a_bad_export_makes_nothing(capsys, played, tmp_path):
    path = bad_export(played, tmp_path, 3, "not json at all")
    target = tmp_path / "never.sqlite"
    code, _, err = run(capsys, "import", path, target)
    assert code == 2
    one_error_line(err, "line 3")
    assert not target.exists()


# --- demo, usage -------------------------------------------------------------------------------------

def test_demo_text_is_a_scoreboard_and_the_json_is_behind_a_flag(capsys):
    code, out, err = run(capsys, "demo", "--text")
    assert code == 0, err
    if demo_path() is None:
        assert "not shipped" in out
        return
    lines = out.strip().splitlines()
    assert len(lines) < 40 and "{" not in out
    assert lines[0] == "Touchline Rovers (home) 1 - 1 Harbour Athletic (away)"
    assert lines[1] == "Full time: Touchline Rovers win on penalties (4 - 2)"
    # Goals and cards with the minute and the player's team, number and name; never an id.
    assert "   17'  Harbour Athletic #8 Xan" in lines and "   55'  Touchline Rovers #10 Ike" in lines
    assert "   27'  Harbour Athletic #4 Tam: yellow card" in lines
    assert "   54'  Harbour Athletic #4 Tam: second yellow, sent off" in lines
    story = lines[lines.index("Last events") + 1:]
    assert len(story) == 10 and story[-1] == "  Final: 1-1, Home win (shoot-out)"
    assert "Away #8 Xan Finalization (shoot-out)" in story[-3]
    assert not re.search(r"\b(home|away)#\d", out)
    code, out, err = run(capsys, "demo", "--text", "--json", "--json-indent", "0")
    assert code == 0, err
    summary = json.loads(out)
    assert summary["teams"]["home"] == "Touchline Rovers" and summary["result"]["decided_by"] == "shoot-out"


def test_a_running_match_as_text_names_its_figures_and_leaves_out_the_bookkeeping():
    from companion.match_text import Names, headline

    summary = {"teams": {"home": "Rovers", "away": "Harbour"}, "score": {"home": 0, "away": 1}, "half": "1st half",
               "minute": 17, "round": 7, "phase": "movement",
               "players": [{"player": "home#8", "name": "Hal"}, {"player": "away#4", "name": "Tam"}]}
    names = Names(summary)
    assert headline(summary, names) == ["Rovers (home) 0 - 1 Harbour (away)", "1st half, 17', round 7, movement"]
    assert names.line("Away: #4 declares keep and run to (24, 17)") == "Harbour: #4 Tam declares keep and run"
    assert names.line("foul by away#4 on home#8") == "foul by Harbour #4 Tam on Rovers #8 Hal"
    assert names.line("Correction: home#9 placed at (9, 27)") == "Correction: Rovers #9 placed"


def test_scoreboard_lines():
    running = {"teams": {"home": "Rovers", "away": "Harbour"}, "score": {"home": 2, "away": 1},
               "half": "2nd half", "minute": 31, "round": 40, "phase": "tactical_movement", "result": None,
               "shootout": None}
    assert scoreboard(running) == "Rovers 2 - 1 Harbour | 2nd half, 31' | round 40, tactical movement"
    over = dict(running, result={"winner": "away", "decided_by": "shoot-out"},
                shootout={"home": 3, "away": 4}, score={"home": 1, "away": 1})
    assert scoreboard(over) == "Rovers 1 - 1 Harbour (3 - 4 on penalties) | final: Harbour win (shoot-out)"
    draw = dict(running, result={"winner": None, "decided_by": "draw"})
    assert scoreboard(draw).endswith("final: a draw (draw)")
    assert scoreboard({"game": "fublet", "created": False}) == "fublet: not started"


def test_usage(capsys, monkeypatch):
    from companion import cli

    assert cli._default_argv([]) == ["app"]  # plain `touchline` starts the tablet app
    assert main(["--bogus"]) == 2
    assert "usage: touchline" in capsys.readouterr().err
    assert main(["--help"]) == 0
    assert "replay" in capsys.readouterr().out
    assert main(["replay"]) == 2
    assert main(["frobnicate"]) == 2


def test_parser_is_built_from_small_functions():
    from companion import cli

    names = set(build_parser()._subparsers._group_actions[0].choices)
    assert {"replay", "export", "import", "demo"} <= names
    assert len(cli.SUBCOMMANDS) + len(cli.PLUGINS) == len(names)
    assert set(cli.PLUGINS) <= names


# --- as a separate process ---------------------------------------------------------------------------

def module(*argv) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "companion.cli", *map(str, argv)], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)


def test_python_m_companion_cli(played, tmp_path):
    done = module("replay", played["journal"])
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == played["summary"]
    done = module("replay", played["export"])
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == played["summary"]

    path = bad_export(played, tmp_path, 4, '{"seq": 4')
    done = module("replay", path)
    assert done.returncode == 2
    assert done.stdout == ""
    one_error_line(done.stderr, "line 4", "not valid JSON")


def test_plugin_commands_are_imported_only_when_run(tmp_path, monkeypatch, capsys):
    from companion import cli

    (tmp_path / "fake_touchline_plugin.py").write_text(
        "def add_arguments(p):\n    p.add_argument('--n', type=int, default=1)\n    p.set_defaults(run=run)\n"
        "def run(args):\n    print('plugin ran', args.n)\n    return 0\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(cli.PLUGINS, "fake", ("fake_touchline_plugin", "a test plugin"))
    monkeypatch.setitem(cli.PLUGINS, "broken", ("no_such_touchline_module", "needs a module that is missing"))
    import sys
    sys.modules.pop("fake_touchline_plugin", None)
    assert cli.main(["demo", "--help"]) == 0 and "fake_touchline_plugin" not in sys.modules
    assert cli.main(["fake", "--n", "3"]) == 0
    assert "plugin ran 3" in capsys.readouterr().out
    assert cli.main(["broken"]) == 2
    assert "needs no_such_touchline_module" in capsys.readouterr().err
