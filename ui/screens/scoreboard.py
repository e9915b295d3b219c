"""Settings > Scoreboard page: switch the spectators' page on and off, show its QR code.

While it is on, the app serves the read-only page (ui/web/) on the tablet's local-network
address; switching it off closes the socket. Each switch-on makes a new secret address, so a
link given out earlier stops working.
"""

from __future__ import annotations

import io

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.errors import TouchlineError


def qr_texture(text: str):
    """The QR code of ``text`` as a Kivy texture (segno draws it, Kivy loads the PNG)."""
    import segno
    from kivy.core.image import Image as CoreImage

    buf = io.BytesIO()
    segno.make(text, error="m").save(buf, kind="png", scale=8, border=4, dark="#000000", light="#ffffff")
    buf.seek(0)
    texture = CoreImage(buf, ext="png").texture
    texture.mag_filter = "nearest"
    texture.min_filter = "nearest"
    return texture


class ScoreboardScreen(Screen):
    on = BooleanProperty(False)
    url = StringProperty("")
    host = StringProperty("")
    status = StringProperty("")
    qr = ObjectProperty(None, allownone=True)
    help_text = StringProperty(
        "The page shows the score, the clock, the pitch with the figures, what the match waits for and "
        "the last events, and follows the match by itself.\n\n"
        "Anyone with its address can watch; nobody can change anything. The address holds a secret code: "
        "switching off closes the page; switching on again makes a new address. The tablet address is "
        "this tablet's on the Wi-Fi the phones use.")

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._ticker = None

    def on_pre_enter(self, *_args) -> None:
        app = App.get_running_app()
        if not self.host:
            from ui.web.in_app import local_addresses

            saved = app.match_settings.get("scoreboard_host", "")
            found = local_addresses()
            self.host = saved or (found[0] if found else "")
        self.refresh()
        self._ticker = Clock.schedule_interval(lambda _dt: self.refresh(), 2.0)

    def on_leave(self, *_args) -> None:
        if self._ticker is not None:
            self._ticker.cancel()
            self._ticker = None

    def refresh(self) -> None:
        board = App.get_running_app().scoreboard
        self.on, self.url = board.on, board.url
        if not board.on:
            if not self.status.startswith("Could not"):
                self.status = ("Off: nothing is listening. Switch it on to let friends on the same Wi-Fi follow "
                               "the match on their phones (read-only).")
            return
        watching = board.viewers
        self.status = f"On: {watching} watching now. Scan the code, or type the address."

    def switch(self, want_on: bool) -> None:
        app = App.get_running_app()
        board = app.scoreboard
        if not want_on:
            board.stop()
            self.qr, self.status = None, ""
            self.refresh()
            return
        host = self.host.strip()
        if not host:
            self.status = ("Could not switch on: this tablet has no local-network address. Join the Wi-Fi, "
                           "or type the tablet's address above.")
            self.refresh()
            return
        try:
            try:
                url = board.start(host)
            except TouchlineError:      # the usual port is taken: any free one will do
                url = board.start(host, 0)
        except TouchlineError as exc:
            self.status = f"Could not switch on: {exc}"
            self.qr = None
            self.refresh()
            return
        app.settings_for_match(scoreboard_host=host)
        self.qr = qr_texture(url)
        self.status = ""
        self.refresh()
