"""``touchline club``: the real command in its own process serves the club (and imports nothing
of Kivy, OpenCV, numpy or matplotlib); ``touchline club publish`` joins it and sends a journal
with its confirmed result; the store's schema is versioned."""

from __future__ import annotations

import json
import re
import signal
import sqlite3
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from companion.cli import main
from companion.club.store import LATEST, SqliteStore, StoreError
from tests.club_kit import match_journal

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("kivy", "cv2", "numpy", "matplotlib")
RECORD = """
import atexit, json, sys
out, sys.argv = sys.argv[1], ["touchline"] + sys.argv[2:]
atexit.register(lambda: open(out, "w").write(json.dumps(sorted(sys.modules))))
from companion.cli import main
sys.exit(main())
"""


def test_touchline_club_serves_a_club_and_a_journal_is_published_to_it(tmp_path, capsys):
    record = tmp_path / "modules.json"
    folder = tmp_path / "club"
    proc = subprocess.Popen([sys.executable, "-c", RECORD, str(record), "club", "--folder", str(folder),
                             "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        first = proc.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:\d+", first)
        assert url and first.startswith("Club server: "), first
        token_line = proc.stdout.readline()
        token = json.loads((folder / "club.json").read_text())["join_token"]
        link = f"{url.group(0)}/#join={token}"
        assert f"join link: {link} " in token_line
        assert oct((folder / "club.json").stat().st_mode & 0o777) == "0o600"
        assert (folder / "join-qr.svg").read_text().startswith("<?xml")

        journal = match_journal(tmp_path, "fublet")
        tablet = tmp_path / "tablet"
        status = main(["club", "publish", str(journal), "--server", url.group(0), "--folder", str(tablet)])
        err = capsys.readouterr().err
        assert status == 2 and "--join LINK" in err and "Traceback" not in err
        status = main(["club", "publish", str(journal), "--folder", str(tablet), "--join", link,
                       "--name", "Table 1", "--confirm"])
        out = capsys.readouterr().out
        assert status == 0, capsys.readouterr().err
        assert "joined the club" in out and "published 1309 events and its confirmed result" in out
        assert main(["club", "publish", str(journal), "--folder", str(tablet)]) == 0   # the club remembered
        assert "published 1309 events" in capsys.readouterr().out
        with urllib.request.urlopen(url.group(0) + "/league", timeout=60) as resp:
            league = json.loads(resp.read())
        assert [r["team"] for r in league["games"]["fublet"]["table"]] == ["Touchline Rovers", "Harbour Athletic"]
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0 and err == "" and out.strip().endswith("Club server stopped.")
    imported = set(json.loads(record.read_text()))
    assert "uvicorn" in imported and "companion.club.ledger" in imported
    assert [m for m in imported if m.split(".")[0] in HEAVY] == []
    assert not any(m.startswith(("ui.games", "ui.widgets", "ui.screens")) for m in imported)


def test_a_taken_port_is_one_line(tmp_path, capsys):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        status = main(["club", "--folder", str(tmp_path / "club"), "--port", str(port), "--for", "0"])
    err = capsys.readouterr().err
    assert status == 2 and "cannot serve the club on 127.0.0.1" in err and len(err.strip().splitlines()) == 1


def test_publish_of_a_missing_file_is_one_line(tmp_path, capsys):
    status = main(["club", "publish", str(tmp_path / "none.sqlite"), "--server", "http://127.0.0.1:9",
                   "--folder", str(tmp_path / "t"), "--join", "x", "--wait", "0"])
    err = capsys.readouterr().err
    assert status == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_the_store_is_built_by_versioned_migrations_and_a_newer_one_is_refused(tmp_path):
    store = SqliteStore(tmp_path / "club.sqlite")
    assert store.version() == LATEST == 6
    store.close()
    again = SqliteStore(tmp_path / "club.sqlite")      # opening again applies nothing twice
    assert again.version() == 6
    again.close()
    with sqlite3.connect(tmp_path / "club.sqlite") as conn:
        conn.execute("INSERT INTO schema_version (version) VALUES (99)")
    conn.close()
    with pytest.raises(StoreError, match="schema version 99, written by a newer Touchline"):
        SqliteStore(tmp_path / "club.sqlite")
    with sqlite3.connect(tmp_path / "club.sqlite") as conn:
        assert conn.execute("SELECT count(*) FROM schema_version").fetchone()[0] == 7   # left untouched
    conn.close()
    (tmp_path / "junk.sqlite").write_bytes(b"not a database at all, " * 100)
    with pytest.raises(StoreError, match="cannot be used as the club's store"):
        SqliteStore(tmp_path / "junk.sqlite")


def test_an_older_store_is_brought_up_to_date(tmp_path):
    from companion.club.store import MIGRATIONS

    with sqlite3.connect(tmp_path / "club.sqlite") as conn:   # a store as the first version left it
        conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        for sql in MIGRATIONS[0][1]:
            conn.execute(sql)
        conn.execute("INSERT INTO tablets VALUES ('0123456789abcdef', 'Table 1', 'a2V5', 'then')")
        conn.execute("INSERT INTO schema_version VALUES (1)")
    conn.close()
    store = SqliteStore(tmp_path / "club.sqlite")
    assert store.version() == 6 and store.tablet("0123456789abcdef").name == "Table 1"
    assert store.setting("join_token", "first") == "first" and store.setting("join_token", "second") == "first"
    store.close()


def test_a_join_link_names_the_club_and_its_token():
    from companion.club.keys import KeyProblem, join_link, parse_join_link

    link = join_link("http://192.168.1.20:8790/", "3q8R-x_Y")
    assert link == "http://192.168.1.20:8790/#join=3q8R-x_Y"
    assert parse_join_link(link) == ("http://192.168.1.20:8790", "3q8R-x_Y")
    for bad in ("http://192.168.1.20:8790/", "ftp://x/#join=a", "#join=a", "http://x/#join="):
        with pytest.raises(KeyProblem, match="not a club's join link"):
            parse_join_link(bad)
