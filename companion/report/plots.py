"""The report's plots, drawn with matplotlib (Agg: no display needed). Imported only when a
report is written, so reading and replaying matches never loads matplotlib."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)
from matplotlib.ticker import MaxNLocator  # noqa: E402

from ..outfiles import Staged, check_folder  # noqa: E402

# Rounds, turns, squares and counts are whole numbers: every axis of them ticks whole numbers.

HOME, AWAY = "#1f5fbf", "#d0402a"
COLOURS = {"home": HOME, "away": AWAY}
plt.rcParams.update({"font.size": 11, "axes.titlesize": 13, "svg.fonttype": "none", "figure.dpi": 100})


DPI = {"dpi": 100}  # of the PNGs; draw_all sets it for one call


def _save(fig, out: Staged, name: str, formats: tuple[str, ...]) -> dict[str, str]:
    files = {}
    for fmt in formats:
        buf = io.BytesIO()  # staged, then put in place with the rest (companion/outfiles.py)
        fig.savefig(buf, format=fmt, dpi=DPI["dpi"])  # fixed margins: a "tight" box would draw every plot twice
        files[fmt] = out.write_bytes(f"{name}.{fmt}", buf.getvalue()).name
    plt.close(fig)
    return files


def _legend(ax, **kwargs) -> None:
    """A legend when something on the axes has a label (matplotlib warns on an empty one: a
    match with no dice of a kind yet, a turn with nothing counted)."""
    if ax.get_legend_handles_labels()[0]:
        ax.legend(**kwargs)


def _nothing_yet(ax, unit: str) -> None:
    """An empty plot says why: the match has not reached its first round or turn."""
    ax.text(0.5, 0.5, f"no {unit} played yet", ha="center", va="center", transform=ax.transAxes, color="#666")
    ax.set_xticks([])


def _whole_ticks(ax, xs: list[int]) -> None:
    """Rounds or turns on the x axis: whole numbers, each bar or point inside the axes (one
    round alone would otherwise get ticks at 0.45, 0.7 ... 1.5)."""
    if xs and max(xs) - min(xs) <= 12:
        ax.set_xticks(range(min(xs), max(xs) + 1))   # the locator falls back to fractions for so few
    else:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    if xs:
        ax.set_xlim(min(xs) - 0.6, max(xs) + 0.6)


def _names(report: dict[str, Any]) -> dict[str, str]:
    teams = report.get("teams") or {}
    return {"home": teams.get("home", "Home"), "away": teams.get("away", "Away")}


def possession(report: dict[str, Any], out: Staged, formats: tuple[str, ...]) -> dict[str, str]:
    ticks = report["ticks"]
    unit = report["unit"]
    names = _names(report)
    fig, ax = plt.subplots(figsize=(9, 3.2))
    xs, ys, home = [], [], 0.0
    counted = 0.0
    for t in ticks:
        side = t["possession"]
        if side in ("home", "away", "shared"):
            counted += 1
            home += 1 if side == "home" else 0.5 if side == "shared" else 0
        xs.append(t[unit])
        ys.append(100.0 * home / counted if counted else float("nan"))   # nobody has held it: no share yet
    for side, colour in COLOURS.items():  # one collection a side: hundreds of bars draw slowly
        spans = [(t[unit] - 0.5, 1.0) for t in ticks if t["possession"] == side]
        if spans:
            ax.broken_barh(spans, (-12, 8), facecolors=colour, linewidth=0)
    # Points marked while there are few: one round alone is one point, which a line never draws.
    if counted:
        ax.plot(xs, ys, color=HOME, linewidth=2, marker="o" if len(xs) <= 12 else None,
                label=f"{names['home']}: share so far")
    ax.axhline(50, color="#888", linewidth=0.8, linestyle="--")
    ax.set_ylim(-14, 100)
    ax.set_ylabel(f"% of {unit}s with the ball")
    ax.set_xlabel(f"{unit} (strip: who had the ball)")
    _whole_ticks(ax, xs)
    if not ticks:
        _nothing_yet(ax, unit)
    percent = report["possession"]["percent"]
    shares = (f"{names['home']} {percent['home']}%, {names['away']} {percent['away']}%"
              if percent["home"] is not None else "nobody has had the ball yet")
    ax.set_title(f"Possession: {shares}")
    _legend(ax, loc="upper right", fontsize=9)
    fig.subplots_adjust(left=0.09, right=0.98, bottom=0.17, top=0.89)
    return _save(fig, out, "possession", formats)


TIMELINE_MARKS = {"goal": ("*", 260), "shot": ("o", 60), "yellow_card": ("s", 70), "red_card": ("s", 90),
                  "foul": ("x", 50), "injury": ("P", 80), "substitution": ("^", 60), "shootout": ("D", 50)}
TIMELINE_ROW = {"goal": 0, "shot": 1, "foul": 2, "yellow_card": 3, "red_card": 3, "injury": 4, "substitution": 5,
                "shootout": 6}


def timeline(report: dict[str, Any], out: Staged, formats: tuple[str, ...]) -> dict[str, str]:
    unit = report["unit"]
    fig, ax = plt.subplots(figsize=(9, 3.6))
    rows = ["goal", "shot", "foul", "card", "injury", "substitution", "shoot-out"]
    groups: dict[tuple[str, str | None], list[int]] = {}
    for e in report["timeline"]:
        if e["kind"] == "period":
            ax.axvline(e["tick"], color="#999", linewidth=0.8, linestyle=":")
            ax.text(e["tick"], len(rows) - 0.4, " " + e["text"], fontsize=8, color="#555", va="top")
            continue
        groups.setdefault((e["kind"], e["team"]), []).append(e["tick"])
    for (kind, team), xs in groups.items():  # one scatter a kind and team
        marker, size = TIMELINE_MARKS.get(kind, ("o", 40))
        colour = COLOURS.get(team, "#444")
        face = {"yellow_card": "#f2c200", "red_card": "#c00000"}.get(kind, colour)
        edges = {} if marker == "x" else {"edgecolors": colour}  # an unfilled marker has no edge colour
        ax.scatter(xs, [TIMELINE_ROW.get(kind, 6)] * len(xs), marker=marker, s=size, c=face, linewidths=1.5,
                   zorder=3, **edges)
    ax.set_yticks(range(len(rows)), rows)
    ax.set_ylim(-0.7, len(rows) - 0.3)
    last = max([t[unit] for t in report["ticks"]] + [1])
    ax.set_xlim(0, last + 1)
    ax.invert_yaxis()
    ax.set_xlabel(unit)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.grid(axis="x", color="#eee")
    names = _names(report)
    ax.set_title(f"Timeline ({names['home']} blue, {names['away']} red)")
    fig.subplots_adjust(left=0.13, right=0.98, bottom=0.15, top=0.9)
    return _save(fig, out, "timeline", formats)


def counters(report: dict[str, Any], out: Staged, formats: tuple[str, ...]) -> dict[str, str]:
    unit, ticks, game = report["unit"], report["ticks"], report["game"]
    names = _names(report)
    xs = [t[unit] for t in ticks]
    fig, ax = plt.subplots(figsize=(9, 3.4))
    if game == "fublet":
        for side, colour in COLOURS.items():
            ax.plot(xs, [t[f"mp_earned_{side}"] for t in ticks], color=colour, label=f"{names[side]} MP earned")
            ax.plot(xs, [-t[f"mp_spent_{side}"] for t in ticks], color=colour, linestyle="--",
                    label=f"{names[side]} MP spent (below 0)")
        ax.step(xs, [t["round_pace"] for t in ticks], where="mid", color="#2a9d4a", label="round pace")
        ax.axhline(0, color="#888", linewidth=0.8)
        ax.set_title("Movement points and round pace, round by round")
    elif game == "football_leader":
        for side, colour in COLOURS.items():
            ax.plot(xs, [t[f"cards_left_{side}"] for t in ticks], color=colour, label=f"{names[side]} cards left")
            played = [t[f"cards_played_{side}"] for t in ticks]
            if xs:  # one outline for all the turns: a bar each draws slowly
                ax.stairs(played, [x - 0.5 for x in xs] + [xs[-1] + 0.5], fill=True, color=colour, alpha=0.5,
                          label=f"{names[side]} cards played")
        ax.set_title("Action cards: played each turn and left (deck and hand)")
    elif game == "fussball_liga":
        width = 0.4
        ax.bar([x - width / 2 for x in xs], [t["mp_spent_home"] for t in ticks], width, color=HOME,
               label=f"{names['home']} MP spent")
        ax.bar([x + width / 2 for x in xs], [t["mp_spent_away"] for t in ticks], width, color=AWAY,
               label=f"{names['away']} MP spent")
        ax.set_title("Movement points spent, turn by turn")
    else:
        for side, colour in COLOURS.items():
            ax.bar([t[unit] for t in ticks if t.get("team") == side],
                   [t["actions_used"] for t in ticks if t.get("team") == side], color=colour,
                   label=f"{names[side]} actions used")
        ax.set_title("Actions used, turn by turn")
    ax.set_xlabel(unit)
    _whole_ticks(ax, xs)
    if not ticks:
        _nothing_yet(ax, unit)
    if len(xs) <= 12:   # a line through one or two points draws (almost) nothing: mark the points
        for line in ax.get_lines():
            if not line.get_label().startswith("_"):
                line.set_marker("o")
    if game != "fublet":   # counts from 0 up (Fublet draws MP spent below 0)
        ax.set_ylim(bottom=0, top=max(1.0, ax.get_ylim()[1]))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    if ticks:
        _legend(ax, fontsize=8, ncol=2, loc="best")
    fig.subplots_adjust(left=0.07, right=0.98, bottom=0.15, top=0.9)
    return _save(fig, out, "counters", formats)


def luck(report: dict[str, Any], out: Staged, formats: tuple[str, ...]) -> dict[str, str]:
    names = _names(report)
    coaches = report["luck"]["coaches"]
    kinds = sorted({k["die"] for c in coaches.values() for k in c["kinds"]}, key=lambda d: int(d[1:]))
    n = max(1, len(kinds)) + 1
    fig, axes = plt.subplots(1, n, figsize=(4.2 * n, 3.2), squeeze=False,
                             gridspec_kw={"width_ratios": [0.8] + [1.0] * (n - 1)})
    _meter(axes[0][0], report, names)
    for ax, die in zip(axes[0][1:], kinds or ["-"]):
        width = 0.4
        for i, side in enumerate(("home", "away")):
            k = next((k for k in coaches[side]["kinds"] if k["die"] == die), None)
            if k is None:
                continue
            faces = [int(f) for f in k["faces"]]
            ax.bar([f + (i - 0.5) * width for f in faces], list(k["faces"].values()), width, color=COLOURS[side],
                   label=f"{names[side]} ({k['count']})")
            ax.hlines(k["expected_per_face"], min(faces) - 0.5, max(faces) + 0.5, colors=COLOURS[side],
                      linestyles="--", linewidth=1)
        ax.set_title(f"{die}: faces thrown (dashes: fair dice)")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("face")
        _legend(ax, fontsize=8)
    fig.subplots_adjust(left=0.04, right=0.98, bottom=0.17, top=0.88, wspace=0.2)
    return _save(fig, out, "luck", formats)


def heat(report: dict[str, Any], out: Staged, formats: tuple[str, ...]) -> dict[str, str]:
    names = _names(report)
    bounds = report["heat"].get("bounds")
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), squeeze=False)
    for ax, side in zip(axes[0], ("home", "away")):
        ax.set_title(f"{names[side]}: where the figures stood")
        if bounds is None:
            ax.text(0.5, 0.5, "no positions recorded", ha="center", va="center", transform=ax.transAxes)
            ax.set_axis_off()
            continue
        (x0, x1), (y0, y1) = bounds["x"], bounds["y"]
        grid = [[0] * (x1 - x0 + 1) for _ in range(y1 - y0 + 1)]
        for r in report["heat"]["rows"]:
            if r["team"] == side:
                grid[r["y"] - y0][r["x"] - x0] += r["count"]
        cmap = "Blues" if side == "home" else "Reds"
        ax.imshow(grid, origin="lower", cmap=cmap, extent=(x0 - 0.5, x1 + 0.5, y0 - 0.5, y1 + 0.5),
                  aspect="equal", interpolation="nearest")
        ax.set_xlabel("x (board square)")
        ax.set_ylabel("y")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    fig.subplots_adjust(left=0.06, right=0.98, bottom=0.13, top=0.92, wspace=0.2)
    return _save(fig, out, "heat", formats)


def _meter(ax, report: dict[str, Any], names: dict[str, str]) -> None:
    """The luck meter: each coach's z from -3 to +3, green where the dice helped."""
    directed = report["luck"]["high_is_lucky"] is not None
    ax.axvspan(-3, -2, color="#f4c7c3" if directed else "#eee")
    ax.axvspan(2, 3, color="#c7ecd0" if directed else "#eee")
    ax.axvline(0, color="#888", linewidth=1)
    for i, side in enumerate(("home", "away")):
        c = report["luck"]["coaches"][side]
        value = c["luck"] if c["luck"] is not None else c["z"]
        ax.barh(i, max(-3.0, min(3.0, value)), color=COLOURS[side], height=0.5)
        ax.text(0.05 if value < 0 else -0.05, i, f"{value:+.1f}", va="center",
                ha="left" if value < 0 else "right", fontsize=10)
        ax.text(-2.9, i - 0.32, names[side], va="bottom", ha="left", fontsize=10, color=COLOURS[side])
    ax.set_yticks([])
    ax.set_ylim(-0.8, 1.5)
    ax.set_xlim(-3, 3)
    ax.invert_yaxis()
    ax.set_title("luck meter (z)" if directed else "faces above fair (z)")
    ax.set_xlabel("unlucky  <-  0  ->  lucky" if directed else "lower  <-  0  ->  higher")


PLOTS = {"possession": possession, "timeline": timeline, "counters": counters, "luck": luck, "heat": heat}


def draw_all(report: dict[str, Any], out: Path | Staged, formats: tuple[str, ...] = ("svg",),
             dpi: int = 100) -> dict[str, dict[str, str]]:
    """Every plot into ``out`` (PNGs at ``dpi``); returns {plot: {format: file name}}. ``out`` is
    a folder (its plots are replaced, never written through a link) or a report's staging."""
    if isinstance(out, Staged):
        return _draw_all(report, out, formats, dpi)
    check_folder(out)
    out.mkdir(parents=True, exist_ok=True)
    staged = Staged(out, force=True)
    try:
        drawn = _draw_all(report, staged, formats, dpi)
    except BaseException:
        staged.discard()
        raise
    staged.commit()
    return drawn


def _draw_all(report: dict[str, Any], out: Staged, formats: tuple[str, ...], dpi: int) -> dict[str, dict[str, str]]:
    DPI["dpi"] = dpi
    try:
        return {name: draw(report, out, formats) for name, draw in PLOTS.items()}
    finally:
        DPI["dpi"] = 100
