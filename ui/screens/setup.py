"""Match setup: game, teams, the game's options, dice source, camera, calibration status."""

from __future__ import annotations

from kivy.app import App
from kivy.metrics import dp, sp
from kivy.properties import DictProperty, ListProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.popup import Popup
from kivy.uix.screenmanager import Screen
from kivy.uix.scrollview import ScrollView
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
        self._more: list = []                 # the game's options folded under "More options"
        self._more_button = None
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

    def take_pairing(self, game: str, home: str, away: str) -> None:
        """The club's next game at this table (Home's "Set up this match"): its game and its
        teams, when this box has teams of those names; otherwise said."""
        titles = {g: t for t, g in self._by_title.items()}
        if game in titles:
            self.game = titles[game]
        missing = [name for name in (home, away) if name not in self._team_by_name]
        if not missing:
            self.choose_team("home", home)
            self.choose_team("away", away)
            self.message = f"The club's next game here: {home} v {away}."
        else:
            self.message = (f"The club's next game here is {home} v {away}; this box has no team called "
                            f"{' or '.join(missing)}: choose the teams that play them.")

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
        self._more_button = None
        for option in face.options:
            if not option.more:
                for w in self._option_widgets(option):
                    box.add_widget(w)
        more = [o for o in face.options if o.more]
        self._more = more
        if more:   # the rest in one row: what it holds, and how many are on
            box.add_widget(self._label("More options"))
            self._more_button = Button(font_size=sp(20), size_hint_y=None, height=dp(56), halign="center",
                                       valign="middle")
            self._more_button.bind(size=lambda w, size: setattr(w, "text_size", (size[0] - dp(12), None)),
                                   on_release=lambda *_: self.open_more())
            box.add_widget(self._more_button)
            self._name_more()

    @staticmethod
    def _label(text: str) -> Label:
        # Wrapped to its column, and its row as tall as its lines (a narrow window's third line
        # was cut at a fixed row's foot: "The goalkeeper counts in the four in a line").
        label = Label(text=text, font_size=sp(20), halign="center", valign="middle", size_hint_y=None,
                      height=dp(56), line_height=0.95)
        label.bind(width=lambda w, width: setattr(w, "text_size", (width, None)),
                   texture_size=lambda w, size: setattr(w, "height", max(dp(56), size[1] + dp(4))))
        return label

    def _option_widgets(self, option) -> list:
        """An option's label and its control, showing the value chosen so far."""
        label = self._label(option.label)
        value = self.options.get(option.key, option.default)
        if option.text:
            field = TextInput(text=str(value or ""), hint_text=str(option.default), multiline=False,
                              font_size=sp(18), size_hint_y=None, height=dp(56))
            field.bind(text=lambda _w, text, k=option.key: self._set_option(k, text))
            return [label, field]
        if option.values:
            shown = {option_name(v): v for v in option.values}
            spinner = Spinner(text=option_name(str(value)), values=list(shown), font_size=sp(20),
                              size_hint_y=None, height=dp(56))
            spinner.bind(text=lambda _w, text, k=option.key, m=shown: self._set_option(k, m.get(text, text)))
            return [label, spinner]
        toggle = ToggleButton(text="Yes" if value else "No", font_size=sp(20),
                              state="down" if value else "normal", size_hint_y=None, height=dp(56))
        toggle.bind(state=lambda w, st, k=option.key: self._toggled(w, k, st == "down"))
        return [label, toggle]

    def _name_more(self) -> None:
        button = getattr(self, "_more_button", None)
        if button is None:
            return
        on = sum(1 for o in self._more if self.options.get(o.key) not in (False, "", None)
                 and self.options.get(o.key) != o.default)
        button.text = f"{len(self._more)} more: {on} on" if on else f"{len(self._more)} more: all off"

    def open_more(self) -> None:
        """The folded options in a window of their own; Done returns to the form."""
        row, gap = dp(56), dp(10)
        grid = GridLayout(cols=2, spacing=gap, size_hint_y=None, row_default_height=row)
        grid.bind(minimum_height=grid.setter("height"))
        for option in self._more:
            for w in self._option_widgets(option):
                grid.add_widget(w)
        grid.height = len(self._more) * (row + gap) - gap   # until the labels have wrapped
        self._more_grid = grid
        # A short window (a laptop's) scrolls the list; at 1280x800 it all shows.
        scroll = ScrollView(do_scroll_x=False, bar_width=dp(10), scroll_type=["bars", "content"])
        scroll.add_widget(grid)
        content = BoxLayout(orientation="vertical", spacing=dp(12), padding=dp(8))
        content.add_widget(scroll)
        done = Button(text="Done", font_size=sp(22), size_hint_y=None, height=dp(64))
        content.add_widget(done)
        popup = Popup(title=f"More options: {self.game}", title_size=sp(24), content=content,
                      size_hint=(0.8, None), auto_dismiss=False)
        # Title bar, padding and Done around the list.
        popup.height = min(self.height * 0.96, grid.height + dp(64) + dp(12) + dp(16) + dp(72))
        done.bind(on_release=lambda *_: popup.dismiss())
        popup.bind(on_dismiss=lambda *_: self._name_more())
        self._more_popup = popup
        popup.open()

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
