"""Starting a match, line-ups, substitutions, and figures placed outside any action.

"Choose a team and place 10 players plus the Goalkeeper in your field ... choosing who
starts with the ball and the time or the amount of goals for the match to reach the end.
Position a player with the ball inside the Central Circle." After a goal the teams go back
to their own fields, reserves may come on, and the side that conceded kicks off.
"""

from __future__ import annotations

from ..commands import PlaceFigure
from ..teams import Team
from . import events as ev
from . import queries as q
from .commands import CreateMatch, Substitute
from .components import check_lineup
from .kicks import place_corner_taker
from .model import MAX_PER_LINE, KickOff, Phase, Where
from .movement import MOVEMENT
from .penalty import place_kicker
from .turns import LINE
from .tx import Tx, refuse

START = "Start"
STREET = "Futboard Street (Variant)"
FAQ = "Frequently Asked Questions"


def create_match(tx: Tx, cmd: CreateMatch) -> None:
    if tx.state.created:
        raise refuse(START, "this match has already been set up")
    street = cmd.options.street
    if street and cmd.components.pitch.yellow_lines is None:
        raise refuse(STREET, "play Futboard Street on the Futboard Street board (a board with yellow lines)")
    lineups = []
    for team, roster, given in ((Team.HOME, cmd.home, cmd.home_lineup), (Team.AWAY, cmd.away, cmd.away_lineup)):
        numbers = tuple(given) or (roster.street_starters if street else roster.starters)
        try:
            check_lineup(roster, numbers, street)
        except ValueError as exc:
            raise refuse(STREET if street else START, f"{team.label} ({roster.name}): {exc}") from None
        lineups.append(numbers)
    tx.emit(ev.MatchCreated(cmd.home, cmd.away, cmd.components, cmd.options, lineups[0], lineups[1]))


def place_figure(tx: Tx, cmd: PlaceFigure) -> None:
    s = tx.state
    p = s.players.get(cmd.player)
    if p is None:
        raise refuse(START, f"no figure {cmd.player} in this match")
    b = q.pitch(s)
    space = tuple(cmd.square) if cmd.square is not None else None
    if space is None and cmd.x_mm is not None and cmd.y_mm is not None:
        space = b.space_at(cmd.x_mm, cmd.y_mm)
    if p.where is Where.OFF:
        raise refuse("D. Take the Ball Out of the Opponent", f"{cmd.player} was sent off and cannot come back")
    if p.where is Where.RESERVE:
        raise refuse(FAQ, f"{cmd.player} is a reserve: replace a player with him before the kick-off after a goal")
    if space is not None:
        if not b.on_board(space):
            raise refuse(START, f"space {space} is not on the board")
        if not b.inside(space, s.street):
            where = "beyond the yellow lines" if s.street and b.inside(space) else "outside the field"
            raise refuse("Move From Outside", f"{space} is {where}: a figure cannot stay there")
        other = q.occupant(s, space)
        if other is not None and other != cmd.player:
            raise refuse(MOVEMENT, f"{space} is taken by {other}")
    if cmd.correction:
        if space is None:
            raise refuse(MOVEMENT, "a correction puts the figure on a space; a player leaves the field only by a "
                                   "substitution or a sending-off")
        if q.line_full(s, cmd.player, space):
            raise refuse(LINE, f"{cmd.player.team.label} would have more than {MAX_PER_LINE} players in line "
                               f"{space[0]}")
        tx.emit(ev.FigurePlaced(cmd.player, space, True))
        return
    if s.phase is Phase.LINEUP:
        place_in_lineup(tx, cmd.player, space)
    elif s.phase is Phase.CORNER:
        place_corner_taker(tx, cmd.player, space)
    elif s.phase is Phase.PENALTY:
        place_kicker(tx, cmd.player, space)
    else:
        raise refuse(MOVEMENT, "in play a figure moves only as an action (a movement in its coach's turn); mark "
                               "this placement as a correction to override")


def place_in_lineup(tx: Tx, ref, space) -> None:
    s = tx.state
    if space is not None and not q.in_own_field(s, ref.team, space):
        kicking = isinstance(s.restart, KickOff) and s.restart.team is ref.team
        if not (kicking and tuple(space) in q.pitch(s).centre_circle):
            raise refuse(START, f"place {ref} in {ref.team.label}'s own field (the player with the ball may stand "
                                f"anywhere in the centre circle)")
    tx.emit(ev.FigurePlaced(ref, space))


def substitute(tx: Tx, cmd: Substitute) -> None:
    s = tx.state
    if s.phase is not Phase.LINEUP:
        raise refuse(FAQ, "you can replace a player in the field with a reserve before restarting after a goal")
    off, on = s.players.get(cmd.off), s.players.get(cmd.on)
    if off is None or on is None:
        raise refuse(FAQ, f"no player {cmd.off if off is None else cmd.on} in this match")
    if cmd.off.team is not cmd.on.team:
        raise refuse(FAQ, "a reserve replaces a player of his own team")
    if not off.on_field:
        raise refuse(FAQ, f"{cmd.off} is not on the field")
    if on.where is not Where.RESERVE:
        raise refuse(FAQ, f"{cmd.on} is not a reserve" + (" (he was sent off)" if on.where is Where.OFF else ""))
    if off.goalkeeper != on.goalkeeper:
        raise refuse(FAQ, "a goalkeeper is replaced by a goalkeeper, an outfield player by an outfield player")
    if s.street and off.tile.position is not on.tile.position:
        raise refuse(STREET, f"Futboard Street plays 2 players from each tactical position: replace the "
                             f"{off.tile.position.value} {cmd.off} with a {off.tile.position.value}")
    tx.emit(ev.SubstitutionMade(cmd.off, cmd.on))
