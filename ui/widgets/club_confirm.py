"""The request panel at the final whistle on a club's tablet: each coach says the result is
right (both are needed); then the tablet signs the journal's end and sends it (ui/club.py).
A table in no club sees none of this."""

from __future__ import annotations

import time

from kivy.app import App

from companion.teams import Team

from .. import theme
from ..club import possessive, result_words
from .keypad import button, wrap_label


def add_club_confirm(view, add) -> None:
    """What the club makes of the match in ``view`` and, until it has the result, a button
    for each coach to confirm it, by ``add``."""
    app = App.get_running_app()
    state = app.club_state
    if not state.joined or not view.path:
        return
    teams = {side.value: (view.summary.name(side) if view.summary.created else "") or side.label
             for side in (Team.HOME, Team.AWAY)}
    row = state.row(view.path)
    add(wrap_label(result_words(state, view.path, teams, time.time()), theme.SMALL_SP, bold=True,
                   colour=theme.ACCENT))
    if row is not None and row.result:
        return
    agreed = state.sides_agreed(view.path)
    for side in (Team.HOME, Team.AWAY):
        done = side.value in agreed
        add(button(f"{possessive(teams[side.value])} coach: " + ("confirmed" if done else "the result is right"),
                   lambda s=side.value: app.club.agree(view.path, s), disabled=done))
