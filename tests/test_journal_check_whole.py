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


# --- the payload parser and the collector ---------------------------------------------------------

def test_payloads_parse_as_the_standard_decoder_parses_them(bases, tmp_path):
    """load_payload (orjson where it accepts the text) gives the very values json gives, types
    included (repr tells 1 from 1.0 and True), on every payload of a played match; text orjson
    refuses goes to the standard decoder, which accepts it or says why not."""
    from companion.journal_chain import load_payload

    path = tmp_path / "sound.sqlite"
    path.write_bytes(bases["fublet_journal"])
    texts = {row.data for row in read_stored(path).rows}
    assert len(texts) > 10
    for text in texts:
        assert repr(load_payload(text)) == repr(load_json(text))
    assert load_payload('{"name":"\\ud800"}') == {"name": "\ud800"}  # a lone surrogate: json keeps it
    assert load_payload('{"a":1e999}') == {"a": float("inf")}  # as json gives it; the decoders refuse it
    for bad in ('{"a":NaN}', '[' * 5000 + ']' * 5000, '{"a":1}x'):
        with pytest.raises(ValueError):
            load_payload(bad)


def test_a_pause_of_the_collector_leaves_its_objects_old(tmp_path):
    """What a replay builds while the collector is paused goes to the oldest generation, so
    the first allocation afterwards does not walk it all; objects a program froze stay frozen
    (and then the pause ends as it always did: the young objects are walked)."""
    import gc

    from companion.journal_chain import gc_paused

    class Node:
        pass

    runs: list[int] = []

    def seen(phase: str, info: dict) -> None:
        if phase == "start":
            runs.append(info["generation"])

    was = gc.isenabled()
    gc.enable()
    gc.collect()
    gc.callbacks.append(seen)
    try:
        with gc_paused():
            kept = [Node() for _ in range(5000)]
        after = [Node() for _ in range(10)]  # the allocations that would start the walk
        assert runs == [] and gc.get_count()[0] < 100
        assert all(gc.is_tracked(n) for n in kept[:10])
        gc.freeze()
        frozen = gc.get_freeze_count()
        with gc_paused():
            more = [Node() for _ in range(5000)]
        after_frozen = [Node() for _ in range(10)]
        assert gc.get_freeze_count() == frozen  # not released by the pause
        assert runs and runs[0] == 0  # left young: walked at once, as without the promotion
        del kept, more, after, after_frozen
    finally:
        gc.callbacks.remove(seen)
        gc.unfreeze()
        if not was:
            gc.disable()


# Event times: the column path reads them with datetime.fromisoformat as a column (Python 3.11
# reads a trailing Z as UTC), the walk with parse_time; forms either might take differently.
TIMES = ["2026-11-30T18:00:01.000000Z", "2026-11-30T18:00:01Z", "2026-11-30T18:00:01.5Z", "2026-11-30T18Z",
         "20261130T180001Z", "2026-11-30T18:00:01+01:00", "2026-11-30T18:00:01-00:00", "2026-11-30T18:00:01z",
         "2026-11-30Z", "2026-11-30", "2026-11-30T18:00:01", "2026-11-30T18:00:01+01:00Z", "2026-11-30T18:00:01ZZ",
         "2026-11-30T18:00:01 Z", "Z", "", "2026-11-30T24:00:00Z", "2026-13-30T18:00:01Z", "2026-W48-1T10:00Z"]


@pytest.mark.parametrize("text", TIMES)
def test_event_times_agree(bases, tmp_path, text):
    from companion.events import parse_time
    from companion.journal import _chain_raw
    from companion.journal_chain import GENESIS

    path = tmp_path / "sound.sqlite"
    path.write_bytes(bases["fublet_journal"])
    stored = read_stored(path)
    rows = [tuple(r) for r in stored.fetched]
    k = len(rows) // 2
    rows[k] = (*rows[k][:2], text, *rows[k][3:])
    rows, _ = _chain_raw(GENESIS, rows)  # the chain holds: only the time is in question
    assert not same(rows, True, stored.game)
    try:
        parse_time(text)
        accepted = True
    except TouchlineError:
        accepted = False
    whole = _check_whole(rows, True, domain_checker(stored.game))
    assert (whole is not None) == accepted
    if accepted:
        assert whole.events[k].at == parse_time(text)


def test_board_square_sets_agree_with_the_boards_own_tests():
    """The domain check looks squares up in a board's set: the set must hold exactly the
    squares the board's own test accepts, on the board, on its edge and beyond it."""
    from companion.fublet.components import load_board
    from companion.fussball_liga.components import load_pitch as liga_pitch
    from companion.futboard.components import load_pitch as futboard_pitch

    grid, liga, futboard = load_board(), liga_pitch(), futboard_pitch()
    boards = [(grid.ms_squares(), grid.is_ms), (liga.board_squares(), liga.on_board),
              (futboard.board_squares(), futboard.on_board)]
    probe = [(c, r) for c in range(-5, 80) for r in range(-5, 80)]
    for squares, test in boards:
        assert {sq for sq in probe if test(sq)} == squares
