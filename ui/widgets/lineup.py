"""The line-up chooser: both teams (or one) set in one more tap, by a formation preset, as
in their last match, or where the camera sees the figures now (ui/lineups.py works them out)."""

from __future__ import annotations

from kivy.app import App
from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.popup import Popup
from kivy.uix.togglebutton import ToggleButton

from companion.events import Source
from companion.teams import Team

from .. import lineups as L

ROW = dp(60)
TEXT = "20sp"   # a string: Kivy reads it as sp when a widget is made (the text-size setting)


class LineupPopup(Popup):
    def __init__(self, screen, **kwargs) -> None:
        super().__init__(title="Line-up", title_size=sp(24), size_hint=(0.9, 0.96), **kwargs)
        self.screen = screen
        self.app = App.get_running_app()
        view = screen.view
        self.state = view.state
        self.geometry = screen.face.geometry(screen.board) if screen.board is not None else None
        self.teams = [Team.HOME, Team.AWAY]
        self._last: dict[Team, dict | None] = {}
        self.content = self._build()

    # --- what is offered ---------------------------------------------------------------------------
    def _name(self, team: Team) -> str:
        roster = getattr(self.state, team.value, None)
        return getattr(roster, "name", team.label)

    def _build(self):
        box = BoxLayout(orientation="vertical", spacing=dp(10), padding=dp(10))
        home, away = (L.side(self.state, t) for t in Team)
        if self.geometry is None or not (home or away):
            box.add_widget(self._words("No figures to line up now: this game sets its figures from its own sheets "
                                       "or requests (see the panel on the right)."))
            box.add_widget(self._button("Close", self.dismiss))
            return box
        box.add_widget(self._words("Whose figures:"))
        whose = BoxLayout(size_hint_y=None, height=ROW, spacing=dp(8))
        for text, teams in (("Both teams", [Team.HOME, Team.AWAY]), (self._name(Team.HOME), [Team.HOME]),
                            (self._name(Team.AWAY), [Team.AWAY])):
            t = ToggleButton(text=text, group="lineup-teams", font_size=TEXT, allow_no_selection=False,
                             state="down" if len(teams) == 2 else "normal", shorten=True, halign="center")
            t.bind(size=lambda w, s: setattr(w, "text_size", (s[0] - dp(10), None)))
            t.bind(on_release=lambda _w, ts=teams: self._choose(ts))
            whose.add_widget(t)
        box.add_widget(whose)
        box.add_widget(self._words("Formation (goalkeeper in goal, then by shirt number):"))
        grid = GridLayout(cols=5, size_hint_y=None, height=ROW, spacing=dp(8))
        outfield = len([p for p in home if not p.goalkeeper]) or len([p for p in away if not p.goalkeeper])
        for preset in L.presets(outfield):
            grid.add_widget(self._button(preset, lambda p=preset: self.formation(p), height=None))
        box.add_widget(grid)
        self.last_button = self._button("As last match", self.as_last)
        box.add_widget(self.last_button)
        self.camera_button = self._button("Where the camera sees them", self.from_camera)
        box.add_widget(self.camera_button)
        box.add_widget(BoxLayout())   # the rest of the room, above Cancel
        box.add_widget(self._button("Cancel", self.dismiss))
        self._refresh()
        return box

    def _words(self, text: str) -> Label:
        lab = Label(text=text, font_size=sp(18), size_hint_y=None, height=dp(40), halign="left", valign="middle")
        lab.bind(size=lambda w, s: setattr(w, "text_size", s))
        return lab

    def _button(self, text: str, action, height=ROW) -> Button:
        b = Button(text=text, font_size=TEXT, size_hint_y=None if height else 1, height=height or ROW)
        b.bind(on_release=lambda *_: action())
        return b

    def _choose(self, teams: list[Team]) -> None:
        self.teams = teams
        self._refresh()

    def _refresh(self) -> None:
        missing = [self._name(t) for t in self.teams if self.last_shape(t) is None]
        self.last_button.disabled = bool(missing)
        self.last_button.text = "As last match" if not missing else \
            f"As last match (no earlier match of {', '.join(missing)})"
        seen = self._seen()
        self.camera_button.disabled = not seen
        self.camera_button.text = f"Where the camera sees them ({len(seen)} figures)" if seen else \
            "Where the camera sees them (camera off or no figure seen)"

    # --- the three ways ------------------------------------------------------------------------------
    def last_shape(self, team: Team):
        if team not in self._last:
            ctl = self.app.controller
            folder = ctl.matches_dir()
            files = list(folder.glob("*.sqlite")) if folder.is_dir() else []
            self._last[team] = L.last_lineup(files, self.screen.face.game, self._name(team), self.screen.face,
                                             skip=ctl.view.path)
        return self._last[team]

    def _seen(self) -> dict:
        latest = self.app.camera.latest() if self.app.camera is not None else None
        if latest is None or self.app.camera.kind == "none":
            return {}
        _image, result = latest
        return {ref: xy for ref, xy in L.from_camera(getattr(result, "figures", ())).items()
                if ref.team in self.teams}

    def formation(self, preset: str) -> None:
        target = {}
        for team in self.teams:
            target.update(L.formation(self.state, self.geometry, team, preset))
        self._place(target, Source.MANUAL, f"{preset} line-up")

    def as_last(self) -> None:
        target = {}
        for team in self.teams:
            shape = self.last_shape(team)
            if shape:
                target.update(L.as_last(self.state, self.geometry, team, shape))
        self._place(target, Source.MANUAL, "line-up of the last match")

    def from_camera(self) -> None:
        self._place(self._seen(), Source.VISION, "line-up seen by the camera")

    def _place(self, target: dict, source: Source, what: str) -> None:
        commands = L.placements(self.state, self.screen.face.figures(self.state), self.geometry, target)
        self.app.controller.submit_many(commands, source, what)
        self.dismiss()
