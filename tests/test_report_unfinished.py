"""The report of a match the journal ends in the middle of: a pass still rolling is neither
made nor lost; the plots of a match one round or turn old show that round; drawing a report
warns of nothing (an empty legend)."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from companion.games import ruleset_for
from companion.jsonl import read_file
from companion.report import build_report

DATA = Path(__file__).parent / "data"


def command_ends(events) -> list[int]:
    """Prefix lengths that end where a command's events end (what a journal can hold)."""
    return [i + 1 for i in range(len(events)) if i + 1 == len(events) or events[i + 1].batch != events[i].batch]


def first_pass_in_flight(game: str):
    events = read_file(DATA / f"{game}_full_match.jsonl").events
    rules = ruleset_for(game)
    ends = command_ends(events)
    for n, later in zip(ends, ends[1:]):
        report = build_report(rules, events[:n])
        if any(a["kind"] == "pass" for a in report["in_flight"]):
            return rules, events, n, later, report
    raise AssertionError(f"no pass in flight anywhere in the {game} match")


@pytest.mark.parametrize("game", ["fublet", "fussball_liga"])
def test_a_pass_still_rolling_is_neither_made_nor_lost(game):
    rules, events, n, _later, report = first_pass_in_flight(game)
    flying = [a for a in report["in_flight"] if a["kind"] == "pass"]
    side = flying[0]["team"]
    st = report["stats"][side]
    assert st["passes"] == st["passes_made"] + st["passes_lost"] + len(flying)
    assert not report["finished"]
    assert any("still under way" in note for note in report["notes"])
    # The same pass, once the match goes on until it is decided, is counted made or lost.
    ends = command_ends(events)
    for m in ends[ends.index(n) + 1:]:
        on = build_report(rules, events[:m])
        if not any(a["kind"] == "pass" and a["player"] == flying[0]["player"] for a in on["in_flight"]):
            st_on = on["stats"][side]
            assert st_on["passes_made"] + st_on["passes_lost"] >= st["passes_made"] + st["passes_lost"] + 1
            break
    else:
        raise AssertionError("the pass is never decided")


def test_a_finished_match_has_nothing_in_flight():
    events = read_file(DATA / "fublet_full_match.jsonl").events
    report = build_report(ruleset_for("fublet"), events)
    assert report["finished"] and report["in_flight"] == []
    assert not any("still under way" in note for note in report["notes"])


def one_tick_report(game: str) -> dict:
    events = read_file(DATA / f"{game}_full_match.jsonl").events
    rules = ruleset_for(game)
    for n in command_ends(events):
        report = build_report(rules, events[:n])
        if len(report["ticks"]) == 1:
            return report
    raise AssertionError("no report with one tick")


@pytest.mark.parametrize("game", ["fublet", "fussball_liga", "futboard", "football_leader"])
def test_a_one_round_report_plots_that_round_on_whole_ticks_and_warns_of_nothing(game, tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    from companion.report import plots

    figures = {}
    real_save = plots._save

    def keep(fig, out, name, formats):
        figures[name] = [list(ax.get_xticks()) for ax in fig.axes], [ax.get_xlim() for ax in fig.axes]
        return real_save(fig, out, name, formats)
    monkeypatch.setattr(plots, "_save", keep)
    report = one_tick_report(game)
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # matplotlib's "No artists with labels found to put in legend"
        plots.draw_all(report, tmp_path, ("png",))
    tick = report["ticks"][0][report["unit"]]
    for name in ("possession", "counters"):
        xticks, xlims = figures[name]
        assert xticks[0] == [tick], (name, xticks[0])
        low, high = xlims[0]
        assert low < tick < high and high - low < 2, (name, xlims[0])


def test_a_report_with_no_round_yet_says_so(tmp_path):
    pytest.importorskip("matplotlib")
    from companion.report import plots

    events = read_file(DATA / "futboard_full_match.jsonl").events
    report = build_report(ruleset_for("futboard"), events[:command_ends(events)[2]])
    assert report["ticks"] == []
    texts = []
    real_save = plots._save

    def keep(fig, out, name, formats):
        texts.extend(t.get_text() for ax in fig.axes for t in ax.texts)
        return real_save(fig, out, name, formats)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(plots, "_save", keep)
            plots.draw_all(report, tmp_path, ("png",))
    assert "no turn played yet" in texts
