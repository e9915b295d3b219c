"""Match setup: game, teams, the game's options, dice source, camera, calibration status."""

from __future__ import annotations

from kivy.app import App
from kivy.metrics import dp, sp
from kivy.properties import DictProperty, ListProperty, StringProperty
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.spinner import Spinner
from kivy.uix.textinput import TextInput
from kivy.uix.togglebutton import ToggleButton

from ..games import face_for, ready
from ..words import CAMERA, DICE, named, option_name, value_of


class SetupScreen(Screen):
    games = ListProperty([])              # titles of the games the tablet can show
    game = StringProperty("")             # the chosen game's title
    teams = ListProperty([])
    home = StringProperty("")
    away = StringProperty("")
    options = DictProperty({})            # the chosen game's options, by key (yes/no or a value)
    dice = StringProperty("software")     # software / manual / tray
    camera = StringProperty("none")       # none / device / demo
    tray_port = StringProperty("")        # empty: find the tray by its USB id
    calibration = StringProperty("")
    message = StringProperty("")
    # What the spinners show: names, never ids or raw values (ui/words.py).
    team_names = ListProperty([])
    home_name = StringProperty("")
    away_name = StringProperty("")
    dice_names = ListProperty(list(DICE.values()))
    camera_names = ListProperty(list(CAMERA.values()))
    dice_name = StringProperty(DICE["software"])
    camera_name = StringProperty(CAMERA["none"])

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._by_title: dict[str, str] = {}
        self._team_by_name: dict[str, str] = {}
        self.bind(home=self._name_teams, away=self._name_teams,
                  dice=lambda *_: setattr(self, "dice_name", named(DICE, self.dice)),
                  camera=lambda *_: setattr(self, "camera_name", named(CAMERA, self.camera)))

    def _name_teams(self, *_args) -> None:
        names = {v: k for k, v in self._team_by_name.items()}
        self.home_name = names.get(self.home, self.home)
        self.away_name = names.get(self.away, self.away)

    def choose_team(self, side: str, name: str) -> None:
        setattr(self, side, self._team_by_name.get(name, name))

    def choose_dice(self, name: str) -> None:
        self.dice = value_of(DICE, name)

    def choose_camera(self, name: str) -> None:
        self.camera = value_of(CAMERA, name)

    def on_pre_enter(self, *_args) -> None:
        self._by_title = {face_for(g).title: g for g in ready()}
        self.games = list(self._by_title)
        if not self.game and self.games:
            self.game = self.games[0]
        else:
            self.on_game()
        app = App.get_running_app()
        path = app.camera.calibration_path
        self.calibration = ("Saved" if path.exists() else "None: found from the corner markers")

    def face(self):
        return face_for(self._by_title[self.game])

    def on_game(self, *_args) -> None:
        if self.game not in self._by_title:
            return
        face = self.face()
        folder = App.get_running_app().components_dir(self._by_title[self.game])   # the table's own teams too
        self.teams = face.teams(folder)
        self._team_by_name = {face.team_name(t, folder): t for t in self.teams}
        self.team_names = list(self._team_by_name)
        home, away = face.default_pair(folder)
        if self.home not in self.teams:
            self.home = home
        if self.away not in self.teams:
            self.away = away
        self._name_teams()
        self.options = {o.key: ("" if o.text else o.default) for o in face.options}
        box = self.ids.options
        box.clear_widgets()
        for option in face.options:
            label = Label(text=option.label, font_size=sp(20), halign="center", valign="middle")
            label.bind(size=lambda w, size: setattr(w, "text_size", size))
            box.add_widget(label)
            if option.text:
                field = TextInput(hint_text=str(option.default), multiline=False, font_size=sp(18),
                                  size_hint_y=None, height=dp(56))
                field.bind(text=lambda _w, text, k=option.key: self._set_option(k, text))
                box.add_widget(field)
                continue
            if option.values:
                shown = {option_name(v): v for v in option.values}
                spinner = Spinner(text=option_name(str(option.default)), values=list(shown), font_size=sp(20),
                                  size_hint_y=None, height=dp(56))
                spinner.bind(text=lambda _w, text, k=option.key, m=shown: self._set_option(k, m.get(text, text)))
                box.add_widget(spinner)
                continue
            toggle = ToggleButton(text="Yes" if option.default else "No", font_size=sp(20),
                                  state="down" if option.default else "normal", size_hint_y=None, height=dp(56))
            toggle.bind(state=lambda w, st, k=option.key: self._toggled(w, k, st == "down"))
            box.add_widget(toggle)

    def _toggled(self, widget, key: str, on: bool) -> None:
        widget.text = "Yes" if on else "No"
        self._set_option(key, on)

    def _set_option(self, key: str, value: bool | str) -> None:
        options = dict(self.options)
        options[key] = value
        self.options = options

    def start(self) -> None:
        app = App.get_running_app()
        if self.home == self.away:
            self.message = "Choose two different teams."
            return
        game = self._by_title[self.game]
        folder = app.components_dir(game)
        try:
            create = self.face().create(self.home, self.away, dict(self.options),
                                        folder if folder.is_dir() else None)
        except (OSError, ValueError, KeyError) as exc:   # broken box data, or options that do not go together
            self.message = f"Cannot start: {exc}"
            return
        self.message = ""
        app.settings_for_match(dice=self.dice, camera=self.camera, tray_port=self.tray_port.strip())
        app.controller.new_match(create, game=game)
        if self.dice == "tray":
            app.controller.start_tray(self.tray_port.strip())
        else:
            app.controller.stop_tray()
        app.start_camera(self.camera)
        app.show("live")
