"""The report as a web page: index.html beside its plots (SVG) and the CSV and JSON files."""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

from ..outfiles import Staged, check_folder, write_text
from .export import LABELS, write_all

GAME_NAMES = {"fublet": "Fublet", "football_leader": "Football Leader", "fussball_liga": "Fußball-Liga",
              "futboard": "Futboard"}

STYLE = """
body{font-family:system-ui,sans-serif;margin:24px auto;max-width:1000px;color:#1b1b1b;font-size:17px}
h1{font-size:30px;margin:0} h2{margin-top:34px;border-bottom:2px solid #ddd;padding-bottom:4px}
.score{font-size:42px;font-weight:700;margin:10px 0} .home{color:#1f5fbf} .away{color:#d0402a}
table{border-collapse:collapse;margin:8px 0} td,th{padding:5px 12px;border-bottom:1px solid #e4e4e4;text-align:left}
th{background:#f4f4f4} td.n{text-align:right;font-variant-numeric:tabular-nums}
img{max-width:100%;display:block;margin:10px 0} .muted{color:#666;font-size:15px}
.badge{display:inline-block;padding:2px 10px;border-radius:12px;background:#eee;font-size:15px}
"""


def _td(v: Any) -> str:
    if v is None:
        return '<td class="n muted">n/a</td>'
    return f'<td class="n">{escape(str(v))}</td>' if isinstance(v, (int, float)) else f"<td>{escape(str(v))}</td>"


def _table(header: list[str], rows: list[list[Any]]) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(_td(v) for v in row) + "</tr>" for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def page(report: dict[str, Any], plots: dict[str, dict[str, str]], files: list[str], source: str) -> str:
    names = report.get("players") or {}

    def who(ref: str | None) -> str:
        if not ref:
            return "-"
        name = names.get(ref)
        return f"{name} (#{ref.partition('#')[2]})" if name else ref

    teams = report["teams"] or {"home": "Home", "away": "Away"}
    score = report["score"] or {"home": 0, "away": 0}
    game = GAME_NAMES.get(report["game"], report["game"])
    result = report["result"]
    if result:
        winner = result.get("winner")
        status = (f"Final: {escape(teams[winner])} win" if winner else "Final: a draw") + \
            f" ({escape(str(result.get('decided_by', '')))})"
    else:
        status = "Not finished: the report shows the match so far"
    shootout = report.get("shootout")
    so = f" <span class='badge'>{shootout['home']} - {shootout['away']} on penalties</span>" if shootout else ""
    parts = [f"<!doctype html><html lang='en'><head><meta charset='utf-8'>"
             f"<meta name='viewport' content='width=device-width, initial-scale=1'>"
             f"<title>{escape(teams['home'])} v {escape(teams['away'])}: match report</title>"
             f"<style>{STYLE}</style></head><body>",
             f"<h1>{escape(game)} match report</h1>",
             f"<div class='score'><span class='home'>{escape(teams['home'])}</span> {score['home']} - "
             f"{score['away']} <span class='away'>{escape(teams['away'])}</span>{so}</div>",
             f"<p><span class='badge'>{status}</span> <span class='muted'>started {escape(report['started'])}, "
             f"{report['events']} events, from {escape(source)}</span></p>"]
    parts.append("<h2>Goals</h2>")
    if report["goals"]:
        parts.append(_table(["Team", "Scorer", "When", "Period", "How"],
                            [[teams[g["team"]], who(g["scorer"]), g["when"], g["period"], g["how"] or "-"]
                             for g in report["goals"]]))
    else:
        parts.append("<p>No goals.</p>")
    parts.append("<h2>The numbers</h2>")
    parts.append(_table(["", teams["home"], teams["away"]],
                        [[LABELS.get(k, k), report["stats"]["home"][k], report["stats"]["away"][k]]
                         for k in report["stat_names"]]))
    poss = report["possession"]["percent"]
    parts.append(f"<p>Possession: {escape(teams['home'])} {poss['home']}%, {escape(teams['away'])} {poss['away']}%"
                 f" <span class='muted'>(of {report['possession']['ticks_counted']} {report['unit']}s)</span></p>")
    sections = [("Possession", "possession"), ("Timeline", "timeline"),
                ("Round by round" if report["unit"] == "round" else "Turn by turn", "counters"),
                ("Luck meter: the dice against fair dice", "luck"), ("Heat map", "heat")]
    for title, key in sections:
        parts.append(f"<h2>{escape(title)}</h2>")
        if key in plots and "svg" in plots[key]:
            parts.append(f"<img src='{escape(plots[key]['svg'])}' alt='{escape(title)}'>")
        if key == "luck":
            rows = []
            for side in ("home", "away"):
                c = report["luck"]["coaches"][side]
                meter = c["luck"] if c["luck"] is not None else c["z"]
                rows.append([teams[side], c["rolls"], c["dice"], f"{meter:+.1f}", c["verdict"]])
            parts.append(_table(["Coach", "Rolls", "Dice", "Meter (z)", "Verdict"], rows))
            parts.append("<p class='muted'>The meter is 0 for average dice; beyond +-2 happens about one match in "
                         "twenty. Positive means the faces that help the roller in this game.</p>")
        if key == "counters":
            unit = report["unit"]
            header = [unit.capitalize(), "Period", "Clock", "Ball mostly with"] + [
                c.replace("_", " ").replace(" home", f" ({teams['home']})").replace(" away", f" ({teams['away']})")
                for c in report["counters"]]
            rows = [[t[unit], t["period"], t["clock"], teams.get(t["possession"], t["possession"] or "-")]
                    + [teams.get(t[c], t[c]) if isinstance(t[c], str) else t[c] for c in report["counters"]]
                    for t in report["ticks"]]
            parts.append(f"<details><summary>Every {unit} ({len(rows)})</summary>{_table(header, rows)}</details>")
        if key == "timeline":
            parts.append(_table(["When", "Team", "What"],
                                [[e["clock"] or e["period"], teams.get(e["team"], "") if e["team"] else "", e["text"]]
                                 for e in report["timeline"]]))
    parts.append("<h2>Shots</h2>")
    parts.append(_table(["Team", "Player", "How", "Outcome", report["unit"].capitalize()],
                        [[teams[s["team"]], who(s["player"]), s["how"] or "-", s["outcome"], s[report["unit"]]]
                         for s in report["shots"]]) if report["shots"] else "<p>No shots.</p>")
    parts.append("<h2>Notes</h2><ul>" + "".join(f"<li>{escape(n)}</li>" for n in report["notes"]) + "</ul>")
    if files:
        parts.append("<h2>Files</h2><p>" + " · ".join(f"<a href='{escape(f)}'>{escape(f)}</a>" for f in files)
                     + "</p>")
    parts.append("</body></html>")
    return "\n".join(parts)


def file_name(report: dict[str, Any], title: str = "") -> str:
    """A report file's name a coach recognises in a folder or a mail: the day, the match and
    its score ("2027-01-02 FC Gruenwald 2-0 SV Rotstein.html"); only letters, digits, spaces
    and "-" (any file system, any app it is shared to)."""
    teams = report.get("teams") or {"home": "Home", "away": "Away"}
    score = report.get("score") or {"home": 0, "away": 0}
    words = f"{report.get('started', '')[:10]} {title + ' ' if title else ''}{teams['home']} {score['home']}-" \
            f"{score['away']} {teams['away']}"
    safe = "".join(c if c.isalnum() or c in " -" else " " for c in words)
    return " ".join(safe.split())[:120] + ".html"


def write_single(report: dict[str, Any], path: Path, source: str, plots_folder: Path | None = None) -> Path:
    """The whole report as one web page, its plots inside it (SVG), to share or keep as one
    file. The plots are drawn in a temporary folder that is removed after, or kept in
    ``plots_folder`` (the tablet's: the same report shared again is not drawn again,
    companion/report/plot_cache.py)."""
    import base64
    import tempfile

    from .plot_cache import drawn as plots_in

    def inline(folder: Path) -> dict[str, dict[str, str]]:
        drawn = plots_in(report, folder, ("svg",))
        return {key: {"svg": "data:image/svg+xml;base64," + base64.b64encode(
            (folder / files["svg"]).read_bytes()).decode("ascii")} for key, files in drawn.items() if "svg" in files}

    if plots_folder is not None:
        plots = inline(plots_folder)
    else:
        with tempfile.TemporaryDirectory(prefix="touchline-report-") as tmp:
            plots = inline(Path(tmp))
    check_folder(path.parent)
    path.parent.mkdir(parents=True, exist_ok=True)
    # Saved again, the same match's page is replaced; never through a link (companion/outfiles.py).
    return write_text(path, page(report, plots, [], source), force=True)


def write_report(report: dict[str, Any], out: Path, source: str, png: bool = False, force: bool = False) -> Path:
    """Write index.html, the plots, report.json and the CSV tables into ``out``; returns index.html.

    Every file goes through a temporary file beside it and is put in place only when all are
    written (companion/outfiles.py): a link or non-file at any of them, or (without ``force``)
    a file already there, is refused before any is replaced."""
    check_folder(out)
    out.mkdir(parents=True, exist_ok=True)
    staged = Staged(out, force)
    try:
        files = [p.name for p in write_all(report, staged)]  # the numbers first: they need no plotting library
        try:
            from .plots import draw_all
        except ImportError:
            staged.commit()  # the numbers are written; the caller says the plots could not be
            raise
        plots = draw_all(report, staged, ("svg", "png") if png else ("svg",))
        staged.write_text("index.html", page(report, plots, files, source))
    except BaseException:
        staged.discard()
        raise
    return staged.commit()[-1]
