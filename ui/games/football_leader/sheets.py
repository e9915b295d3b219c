"""Football Leader's strategy sheets and set-up: preset sheets, a sheet written by touch, the
sheets' places shown before the first kick-off, and each side's set-up (confirm, a position
change, a replacement). The sheets' places before the first kick-off are drawn by the look
(ui/looks/football_leader)."""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from companion.football_leader import commands as c
from companion.football_leader import queries as q
from companion.football_leader.model import StrategySheet
from companion.football_leader.pitch import LOW, Space
from companion.teams import Team

from ... import theme
from ...widgets.keypad import TOUCH, button, wrap_label

# Strategy sheets for the team defending x = 0 (the other team's sheet is the board turned
# half round), by the order of the ten outfield starters. The shipped board's rows 0..3
# are a team's own half; any other board gets its own sheet written by touch.
PRESETS: dict[str, tuple[tuple[Space, ...], tuple[Space, ...]]] = {
    # name: (kick-off spaces, goal-kick spaces)
    "4-4-2": (((0, 1), (0, 3), (1, 1), (1, 4), (2, 0), (2, 4), (2, 2), (3, 2), (3, 3), (3, 1)),
              ((0, 1), (0, 3), (1, 2), (1, 3), (2, 1), (2, 3), (2, 2), (3, 2), (3, 3), (3, 4))),
    "attacking": (((0, 1), (0, 3), (1, 2), (1, 3), (2, 1), (2, 3), (3, 1), (3, 2), (3, 3), (3, 4)),
                  ((0, 2), (1, 1), (1, 4), (2, 0), (2, 2), (2, 4), (3, 1), (3, 2), (3, 3), (3, 4))),
    "defensive": (((0, 1), (0, 2), (0, 3), (1, 1), (1, 4), (2, 1), (2, 3), (2, 2), (3, 2), (3, 3)),
                  ((0, 1), (0, 2), (0, 3), (1, 1), (1, 4), (1, 2), (1, 3), (2, 2), (2, 1), (2, 3))),
}

# A turn's actions: the slots a coach fills, in order; the last card touched submits.
# Player slots are filled by touching a figure (or its chip), "space" by touching a space,


def preset_sheet(state: Any, team: Team, name: str) -> StrategySheet:
    """A preset sheet for ``team``: its first ten outfield counters by number; the team
    defending x = L reads the spaces on the board turned half round."""
    roster = state.roster(team)
    starters = sorted(cn.number for cn in roster.counters if not cn.goalkeeper)[:10]
    ko, gk = PRESETS[name]
    b = q.board(state)
    turn = (lambda sp: sp) if q.own_end(state, team) == LOW else b.mirror
    return StrategySheet(roster.goalkeeper.number, {n: turn(sp) for n, sp in zip(starters, gk)},
                         {n: turn(sp) for n, sp in zip(starters, ko)})



class Sheets:
    """The strategy and set-up panels, and the sheet editor's mode."""

    def _strategy_panel(self, screen: Any, state: Any, open_: dict, add) -> None:
        for a in open_.get("strategy", ()):
            team = a.team
            add(wrap_label(f"{team.label} ({state.roster(team).name}): a preset sheet, or write one by touch.", 15))
            row = BoxLayout(size_hint_y=None, height=TOUCH, spacing=dp(4))
            for name in PRESETS:
                b = button(f"{team.label} {name}", lambda t=team, n=name: self._submit(
                    screen, c.WriteStrategy(t, preset_sheet(state, t, n))))
                b.font_size = theme.SMALL
                row.add_widget(b)
            add(row)
            add(button(f"{team.label}: write the sheet by touch...", lambda t=team: self._start_sheet(screen, state, t)))

    def _set_up_panel(self, screen: Any, state: Any, open_: dict, add) -> None:
        if "set_up" not in open_:
            return
        waiting = {a.team for a in open_["set_up"]}
        for team in (Team.HOME, Team.AWAY):
            if team not in waiting:
                add(wrap_label(f"{team.label} is ready.", 15))
                continue
            add(button(f"{team.label}: confirm the set-up", lambda t=team: self._submit(screen, c.ConfirmSetUp(t))))
            if any(a.team is team for a in open_.get("change_strategy", ())):
                add(button(f"{team.label}: change a position...", lambda t=team: self._start(
                    screen, "change", {"team": t, "kind": "kick_off"})))
            if any(a.team is team for a in open_.get("replace", ())):
                add(button(f"{team.label}: replace a counter...", lambda t=team: self._start(
                    screen, "replace", {"team": t})))

    def _start_sheet(self, screen: Any, state: Any, team: Team) -> None:
        sheet = preset_sheet(state, team, next(iter(PRESETS)))
        self._start(screen, "sheet", {"team": team, "kind": "kick_off", "ko": dict(sheet.kick_off),
                                      "gk": dict(sheet.goal_kick), "pick": None})

    def _sheet_panel(self, screen: Any, state: Any, form: dict, add) -> None:
        team, kind = form["team"], form["kind"]
        spaces = form["ko"] if kind == "kick_off" else form["gk"]
        pick = form.get("pick")
        add(wrap_label(f"{team.label}'s sheet, {kind.replace('_', ' ')} set-up: touch a counter, then his space "
                       f"(ten counters; the goalkeeper stays in goal).", 15, bold=True))
        row = BoxLayout(size_hint_y=None, height=TOUCH, spacing=dp(4))
        for k, text in (("kick_off", "kick-off"), ("goal_kick", "goal kick")):
            row.add_widget(button(("> " if k == kind else "") + text, lambda k=k: self._set_form(screen, kind=k,
                                                                                                  pick=None)))
        add(row)
        grid = GridLayout(cols=2, spacing=dp(3), size_hint_y=None)
        roster = state.roster(team)
        outfield = [cn for cn in sorted(roster.counters, key=lambda cn: cn.number) if not cn.goalkeeper]
        for cn in outfield:
            where = q.where(state, spaces[cn.number]) if cn.number in spaces else "bench"
            text = f"{'> ' if pick == cn.number else ''}#{cn.number} {cn.name[:8]}: {where}"
            grid.add_widget(button(text, lambda n=cn.number: self._sheet_pick(screen, n)))
        grid.height = ((len(outfield) + 1) // 2) * (TOUCH + dp(3))
        add(grid)
        if pick is not None and pick in spaces:
            add(button(f"#{pick} to the bench", lambda: self._sheet_place(screen, None)))
        count = len(spaces)
        ready = len(form["ko"]) == 10 and len(form["gk"]) == 10 and set(form["ko"]) == set(form["gk"])
        if ready:
            add(button(f"Write {team.label}'s sheet", lambda: self._submit(screen, c.WriteStrategy(
                team, StrategySheet(roster.goalkeeper.number, dict(form["gk"]), dict(form["ko"]))))))
        else:
            add(wrap_label(f"{count} counters placed for this set-up; ten, the same in both.", 14))
        self._mark(screen, sorted(set(spaces.values())))

    def _sheet_pick(self, screen: Any, number: int) -> None:
        self._set_form(screen, pick=None if screen.form.get("pick") == number else number)

    def _sheet_place(self, screen: Any, space: Space | None) -> None:
        form = dict(screen.form)
        pick = form.get("pick")
        if pick is None:
            return
        key = "ko" if form["kind"] == "kick_off" else "gk"
        spaces = dict(form[key])
        if space is None:
            spaces.pop(pick, None)
        else:
            spaces[pick] = space
        form[key] = spaces
        form["pick"] = None
        screen.form = form
        screen.build_panel()

