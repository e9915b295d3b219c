"""check_rows checks a sound file a column at a time (``_check_whole``) and walks the rows
one by one (``_walk``) only when something is off, to name the first bad row. The two must
agree: on every mangled journal and export below, the column-at-a-time path either gives up
(``None``) or gives exactly what the walk gives; it never accepts what the walk refuses.
"""

from __future__ import annotations

import random
import sqlite3

import pytest

from companion.errors import TouchlineError
from companion.journal import read_stored
from companion.journal_chain import Broken, RawRow, _check_whole, _walk
from companion.journal_domains import domain_checker
from companion.journal_chain import load_json
from companion.jsonl import _raw
from test_journal_fuzz import SQL_EDITS, bases, mutate_text  # noqa: F401 - bases is a fixture

SEED = 20261202
JOURNAL_CASES, JSONL_CASES = 600, 600


def same(rows, chained: bool, game: str) -> str | None:
    """'' when both paths agree; otherwise what differs."""
    try:
        whole = _check_whole(rows, chained, domain_checker(game))
    except Exception as exc:  # noqa: BLE001 - the column path must only ever give up
        return f"the column path raised {exc!r}"
    try:
        walked = _walk([RawRow(*r) for r in rows] if rows and len(rows[0]) == 8 else rows, chained, {},
                       domain_checker(game))
    except (Broken, TouchlineError):
        walked = None
    except Exception:  # noqa: BLE001 - a walk that raises anything else: the column path must give up
        walked = None
    if whole is None:
        return ""
    if walked is None:
        return "the column path accepted what the walk refuses"
    if (whole.events, whole.statuses, whole.hashes, whole.head, whole.last_seq) != \
            (walked.events, walked.statuses, walked.hashes, walked.head, walked.last_seq):
        return "the two paths give different events"
    return ""


def test_sound_files_take_the_column_path(bases, tmp_path):
    path = tmp_path / "sound.sqlite"
    path.write_bytes(bases["fublet_journal"])
    stored = read_stored(path)
    for rows in (stored.fetched, stored.rows):  # as SQLite gives them, and as RawRows
        whole = _check_whole(rows, stored.chained, domain_checker(stored.game))
        assert whole is not None and len(whole.events) == len(rows)
        assert not same(rows, stored.chained, stored.game)


def test_mangled_journals_agree(bases, tmp_path):
    rng = random.Random(SEED)
    path = tmp_path / "case.sqlite"
    path.write_bytes(bases["fublet_journal"])
    n = len(read_stored(path).rows)
    problems, gave_up = [], 0
    for i in range(JOURNAL_CASES):
        path.write_bytes(bases["fublet_journal"])
        edits = [stmt for _ in range(rng.randint(1, 3)) for stmt in rng.choice(SQL_EDITS)(rng, n)]
        conn = sqlite3.connect(path)
        for stmt in edits:
            try:
                conn.execute(stmt)
            except sqlite3.Error:
                pass
        conn.commit()
        conn.close()
        try:
            stored = read_stored(path)
        except TouchlineError:
            continue  # refused before any row is checked
        problem = same(stored.fetched, stored.chained, stored.game)
        if not problem and _check_whole(stored.fetched, stored.chained, domain_checker(stored.game)) is None:
            gave_up += 1
        if problem:
            problems.append(f"case {i} {edits}: {problem}")
    assert not problems, "\n".join(problems[:5])
    assert gave_up > JOURNAL_CASES // 4  # the edits do reach the walk


@pytest.mark.parametrize("chained", [True, False])
def test_mangled_exports_agree(bases, chained):
    rng = random.Random(SEED + chained)
    base = bases["fublet"] if chained else bases["legacy"]
    game = "fublet" if chained else "toy"
    problems = []
    for i in range(JSONL_CASES):
        text = mutate_text(rng, base)
        rows = []
        for number, line in enumerate(text.splitlines(), start=1):
            try:
                obj = load_json(line.strip())
            except ValueError:
                continue
            if type(obj) is not dict or "touchline" in obj:
                continue
            try:
                rows.append(_raw(obj, "x.jsonl", number, chained))
            except (TouchlineError, KeyError):
                continue
        problem = same(rows, chained, game)
        if problem:
            problems.append(f"case {i}: {problem}")
    assert not problems, "\n".join(problems[:5])
