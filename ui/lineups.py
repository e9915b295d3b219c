"""Line-ups in one or two taps: a formation preset, the line-up of the team's last match, or
the positions the camera sees now (no Kivy here).

Every way ends in the same proposal a coach's hands make: ``PlaceFigure`` at a board point in
millimetres, which each game's rules read as their own square or space and may refuse like
any placement. Positions are worked out in a team's own frame (depth from its own goal line,
width from the touch line on its right) so a line-up fits whichever end the team defends.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from companion.commands import PlaceFigure
from companion.teams import PlayerRef, Team

KEEPER = (0.03, 0.5)            # depth (share of the own half), width (share of the pitch)
FIRST_LINE, LAST_LINE = 0.30, 0.86
PRESETS = {10: ("4-4-2", "4-3-3", "3-5-2", "5-3-2", "4-5-1"), 6: ("2-2-2", "3-2-1", "2-3-1")}
IN_PLAY = ("pitch", "field")    # what each game's PlayerState.where says for a figure in the match


def presets(outfield: int) -> tuple[str, ...]:
    """The formations offered for a side with this many outfield figures."""
    if outfield in PRESETS:
        return PRESETS[outfield]
    third = max(outfield // 3, 1)
    return (f"{outfield - 2 * third}-{third}-{third}",) if outfield >= 3 else (str(outfield),)


def shape(preset: str) -> list[tuple[float, float]]:
    """A formation's outfield places, defenders first, as (depth, width) shares."""
    counts = [int(n) for n in preset.split("-") if n]
    lines = len(counts)
    out = []
    for i, n in enumerate(counts):
        depth = FIRST_LINE + (LAST_LINE - FIRST_LINE) * (i / (lines - 1) if lines > 1 else 0.5)
        out += [(depth, (k + 0.5) / n) for k in range(n)]
    return out


# --- the state of any game, as far as a line-up needs it ------------------------------------------

def side(state: Any, team: Team) -> list[Any]:
    """A team's figures in the match (not on the bench), goalkeeper first, then by number."""
    players = [p for p in getattr(state, "players", {}).values()
               if p.ref.team is team and str(getattr(p.where, "value", p.where)) in IN_PLAY]
    return sorted(players, key=lambda p: (not p.goalkeeper, p.ref.number))


def defends_low(state: Any, team: Team) -> bool:
    """Whether ``team`` defends the goal at x = 0 now (Home does, unless the game says other)."""
    end_of = getattr(state, "end_of", None)
    if callable(end_of):
        try:
            return str(getattr(end_of(team), "value", end_of(team))) == "low"
        except (KeyError, ValueError, TypeError):
            pass
    home_low = getattr(state, "home_defends_low", None)
    if isinstance(home_low, bool):
        return home_low == (team is Team.HOME)
    return team is Team.HOME


def field_size(geometry: Any) -> tuple[float, float]:
    """The field's length and width in the rules' millimetres (without a drawn outer ring)."""
    return (geometry.length_mm - 2 * getattr(geometry, "x_off", 0.0),
            geometry.width_mm - 2 * getattr(geometry, "y_off", 0.0))


def to_board(own: tuple[float, float], size: tuple[float, float], low: bool) -> tuple[float, float]:
    """A (depth, width) share in the team's own frame to board millimetres."""
    length, width = size
    depth, across = own
    if low:
        return depth * length / 2, across * width
    return length - depth * length / 2, width - across * width


def to_own(point: tuple[float, float], size: tuple[float, float], low: bool) -> tuple[float, float]:
    length, width = size
    x, y = point
    if low:
        return x / (length / 2), y / width
    return (length - x) / (length / 2), (width - y) / width


# --- the three ways ------------------------------------------------------------------------------

def formation(state: Any, geometry: Any, team: Team, preset: str) -> dict[PlayerRef, tuple[float, float]]:
    """Where a formation puts the team's figures (goalkeeper in goal, then by number)."""
    players = side(state, team)
    size, low = field_size(geometry), defends_low(state, team)
    keepers = [p for p in players if p.goalkeeper][:1]
    outfield = [p for p in players if p not in keepers]
    places = shape(preset)
    if len(places) != len(outfield):
        places = shape(presets(len(outfield))[0])
    out = {p.ref: to_board(KEEPER, size, low) for p in keepers}
    for p, place in zip(outfield, places):
        out[p.ref] = to_board(place, size, low)
    return out


def placements(state: Any, figures: Iterable[Any], geometry: Any,
               target: dict[PlayerRef, tuple[float, float]]) -> list[PlaceFigure]:
    """The placements that put figures at ``target``: those on the pitch lifted first (a figure
    may not be set down where another still stands), then each set down."""
    standing = {f.ref for f in figures}
    lifts = [PlaceFigure(ref) for ref in target if ref in standing]
    return lifts + [PlaceFigure(ref, x_mm=round(x, 1), y_mm=round(y, 1)) for ref, (x, y) in target.items()]


def from_camera(seen: Sequence[Any]) -> dict[PlayerRef, tuple[float, float]]:
    """The figures the camera reads now (``vision.locate.Seen``), at their board points."""
    return {s.player: (s.x_mm, s.y_mm) for s in seen if getattr(s, "player", None) is not None}


def figure_points(face: Any, state: Any, geometry: Any) -> dict[PlayerRef, tuple[float, float]]:
    """Where each standing figure is, in the rules' board millimetres."""
    out = {}
    for f in face.figures(state):
        out[f.ref] = f.at if f.at is not None else geometry.point(f.cell)
    return out


def last_lineup(matches: Iterable[Path], game: str, team_name: str, face: Any,
                skip: str = "") -> dict[int, tuple[float, float]] | None:
    """The line-up ``team_name`` kicked off with in its newest earlier match of ``game``: each
    jersey number's place in the team's own frame (so it fits either end), or None."""
    from companion.loading import load_match
    from companion.errors import TouchlineError

    for path in sorted(matches, key=lambda p: p.stat().st_mtime, reverse=True):
        if str(path) == skip or not path.name.startswith(f"{game}-"):
            continue
        try:
            match = load_match(path)
        except (TouchlineError, OSError, ValueError):
            continue
        found = _kick_off_shape(match, team_name, face)
        if found:
            return found
    return None


def _kick_off_shape(match: Any, team_name: str, face: Any) -> dict[int, tuple[float, float]] | None:
    """The team's places just before the first event after its line-up that is not a placement."""
    rules = match.ruleset
    state = rules.initial_state()
    snapshot = None
    for event in match.events:
        if event.type.endswith("placed") or type(event.payload).__name__ == "FigurePlaced":
            state = rules.evolve(state, event)
            snapshot = state
            continue
        if snapshot is not None and _team(snapshot, team_name) is not None:
            team = _team(snapshot, team_name)
            standing = {f.ref for f in face.figures(snapshot) if f.ref.team is team}
            if standing and all(p.ref in standing for p in side(snapshot, team)):
                break
        state = rules.evolve(state, event)
    if snapshot is None:
        return None
    team = _team(snapshot, team_name)
    if team is None:
        return None
    board = rules.board(snapshot)
    if board is None:
        return None
    geometry = face.geometry(board)
    size, low = field_size(geometry), defends_low(snapshot, team)
    points = figure_points(face, snapshot, geometry)
    return {ref.number: to_own(xy, size, low) for ref, xy in points.items() if ref.team is team} or None


def _team(state: Any, name: str) -> Team | None:
    for team in Team:
        roster = getattr(state, team.value, None)
        if getattr(roster, "name", None) == name:
            return team
    return None


def as_last(state: Any, geometry: Any, team: Team, shape_by_number: dict[int, tuple[float, float]]
            ) -> dict[PlayerRef, tuple[float, float]]:
    """The team's figures at their places of the last match (figures that did not play then
    are left where they are)."""
    size, low = field_size(geometry), defends_low(state, team)
    return {p.ref: to_board(shape_by_number[p.ref.number], size, low)
            for p in side(state, team) if p.ref.number in shape_by_number}
