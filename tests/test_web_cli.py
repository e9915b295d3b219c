"""``touchline serve`` with bad input: one line that says what is wrong, exit status 2."""

from __future__ import annotations

import pytest

from companion.cli import main
from companion.journal import Journal


def serve(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["serve", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("name, content, expected", [
    ("missing.sqlite", None, "no such match file"),
    ("junk.sqlite", b"not a journal at all", "not a Touchline journal"),
    ("empty.jsonl", b"", "holds no events"),
    ("bad.jsonl", b"{not json\n", "bad.jsonl"),
])
def test_a_bad_file_is_one_line(capsys, tmp_path, name, content, expected):
    path = tmp_path / name
    if content is not None:
        path.write_bytes(content)
    code, out, err = serve(capsys, str(path), "--port", "0")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and expected in err and "Traceback" not in err


def test_a_match_of_an_unknown_game(capsys, tmp_path):
    Journal.create(tmp_path / "chess.sqlite", "chess").close()
    code, _out, err = serve(capsys, str(tmp_path / "chess.sqlite"), "--port", "0")
    assert code == 2 and "chess" in err and "fublet" in err and err.count("\n") == 1


def test_a_port_in_use_is_one_line(capsys, tmp_path):
    import socket

    from tests.web_kit import GrowingJournal

    table = GrowingJournal(tmp_path / "m.sqlite", upto=3)
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    try:
        code, _out, err = serve(capsys, str(table.path), "--port", str(taken.getsockname()[1]))
    finally:
        taken.close()
        table.close()
    assert code == 2 and "choose another --port" in err and err.count("\n") == 1


def test_an_unfinished_match_is_served_and_stops(capsys, tmp_path):
    from tests.web_kit import GrowingJournal

    table = GrowingJournal(tmp_path / "m.sqlite", upto=3)
    code, out, err = serve(capsys, str(table.path), "--port", "0", "--for", "0.3")
    table.close()
    assert code == 0, err
    assert "http://127.0.0.1:" in out and "Scoreboard stopped." in out
