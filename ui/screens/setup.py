"""Match setup: game, teams, championship mode, dice source, camera."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.fublet import commands as c
from companion.fublet.components import shipped_team, shipped_teams
from companion.fublet.model import Options


class SetupScreen(Screen):
    teams = ListProperty([])
    home = StringProperty("")
    away = StringProperty("")
    dice = StringProperty("software")     # software / manual / tray
    camera = StringProperty("none")       # none / device / demo
    championship = BooleanProperty(False)
    tray_port = StringProperty("")        # empty: find the tray by its USB id
    message = StringProperty("")

    def on_pre_enter(self, *_args) -> None:
        self.teams = shipped_teams()
        if not self.home and self.teams:
            self.home = self.teams[-1]
        if not self.away and len(self.teams) > 1:
            self.away = self.teams[0]

    def start(self) -> None:
        app = App.get_running_app()
        if self.home == self.away:
            self.message = "Choose two different teams."
            return
        create = c.CreateMatch(shipped_team(self.home), shipped_team(self.away), app.components(),
                               Options(championship=self.championship))
        app.settings_for_match(dice=self.dice, camera=self.camera, tray_port=self.tray_port.strip())
        app.controller.new_match(create)
        if self.dice == "tray":
            app.controller.start_tray(self.tray_port.strip())
        else:
            app.controller.stop_tray()
        app.start_camera(self.camera)
        app.show("live")
