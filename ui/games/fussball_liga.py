"""The Fußball-Liga variant on the tablet: the square grid with its goals, areas and marks;
the half's real-time clock and the phase time limit (the tablet is the game's clock: it
calls "time up" itself); each side's 18 movement points; kicks aimed by touch, interception
attempts, dribbling interceptions, the goalkeeper's options, set-ups, penalty-kicks, cards,
substitutions and corrections.

Everything above ``FussballLigaFace.panel`` is plain Python (tested without a window)."""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from companion import box
from companion.commands import PlaceFigure
from companion.fussball_liga import commands as c
from companion.fussball_liga.clock import Instant
from companion.fussball_liga.components import (
    load_components,
)
from companion.fussball_liga.interception import attempt_problem
from companion.fussball_liga.model import (
    Control,
    LigaState,
    Options,
    Phase,
    PhaseLimit,
    RestartKind,
)
from companion.fussball_liga.pitch import Pitch, dist
from companion.teams import PlayerRef, Team

from .base import (
    TEAM_BAR,
    WHITE,
    BallMark,
    BarSpec,
    Chip,
    Choice,
    Face,
    Figure,
    RectGeometry,
    Scoreboard,
    Shape,
)

log = logging.getLogger(__name__)

PHASES = ("toss", "line_up", "set_up", "shot", "movement")
GRASS = ((0.17, 0.5, 0.23, 1), (0.2, 0.55, 0.26, 1))
RING = (0.1, 0.3, 0.14, 1)
GRID = (1, 1, 1, 0.16)
NET = (0.93, 0.93, 0.93, 0.85)
DARK = (0.1, 0.1, 0.1, 1)
TIMER = (0.95, 0.8, 0.2, 1)
LATE = (0.95, 0.35, 0.2, 1)
OPTIONAL_RULES = ("goalkeeper_save", "taking_a_pass", "goal_posts", "bonus_points")
OFFENCES = (("foul", "Foul play (free-kick)"), ("shot_out", "Shot aimed off the field"),
            ("played_on", "Played on after time ran out"), ("other", "Other willful violation"))

# The standard kick-off shape for a 30 x 20 board, kicking side in the low half (each number
# to a square; scaled to other boards). The waiting side mirrors it into the high half.
KICKING = {1: (0, 10), 2: (4, 3), 3: (4, 8), 4: (4, 12), 5: (4, 16), 6: (9, 4), 7: (9, 8), 8: (9, 12),
           10: (9, 16), 9: (14, 9), 11: (13, 12)}
WAITING = {1: (0, 10), 2: (4, 3), 3: (4, 8), 4: (4, 12), 5: (4, 16), 6: (9, 4), 7: (9, 8), 8: (9, 12),
           10: (9, 16), 9: (11, 9), 11: (11, 12)}


# --- the printed board ----------------------------------------------------------------------------

def _arc(cx: float, cy: float, r: float, keep: Callable[[float, float], bool], n: int = 48) -> list[Shape]:
    """A circle of radius ``r`` as line runs, only where ``keep(x, y)`` (a penalty arc
    outside its area)."""
    runs: list[list[float]] = [[]]
    for i in range(n + 1):
        a = 2 * math.pi * i / n
        x, y = cx + r * math.cos(a), cy + r * math.sin(a)
        if keep(x, y):
            runs[-1].extend((x, y))
        elif runs[-1]:
            runs.append([])
    return [Shape("line", WHITE, tuple(run), 1.2) for run in runs if len(run) >= 4]


def board_shapes(p: Pitch) -> list[Shape]:
    """The board as printed, in the rules' millimetres (the field from 0, 0)."""
    s = p.square_mm
    L, W = p.length_mm, p.width_mm
    out = [Shape("fill", RING, (-s, -s, L + s, W + s))]
    # Stripes of two columns, and the square grid the figures stand on.
    for col in range(p.cols):
        out.append(Shape("fill", GRASS[(col // 2) % 2], (col * s, 0, (col + 1) * s, W)))
    for col in range(-1, p.cols + 2):
        out.append(Shape("line", GRID, (col * s, -s, col * s, W + s), 1))
    for row in range(-1, p.rows + 2):
        out.append(Shape("line", GRID, (-s, row * s, L + s, row * s), 1))
    out.append(Shape("outline", WHITE, (0, 0, L, W), 1.8))
    half = p.halfway_col * s
    out.append(Shape("line", WHITE, (half, 0, half, W), 1.5))
    cx, cy = p.centre[0] * s, p.centre[1] * s
    out.extend(_arc(cx, cy, p.centre_circle_radius * s, lambda x, y: True))
    out.append(Shape("fill", WHITE, (cx - 2, cy - 2, cx + 2, cy + 2)))
    for end, areas in p.ends.items():
        for rects, width in ((areas.penalty_area, 1.5), (areas.goal_area, 1.3)):
            for r in rects:
                out.append(Shape("outline", WHITE, (r.col0 * s, r.row0 * s, (r.col1 + 1) * s, (r.row1 + 1) * s),
                                 width))
        # The penalty mark: on the grid point the two kicker's squares touch, goal side.
        cols = {sq[0] for sq in areas.penalty_squares}
        mx = (min(cols) if end == "low" else max(cols) + 1) * s
        my = max(sq[1] for sq in areas.penalty_squares) * s
        out.append(Shape("fill", WHITE, (mx - 2, my - 2, mx + 2, my + 2)))
        edge = (max(r.col1 for r in areas.penalty_area) + 1) * s if end == "low" else \
            min(r.col0 for r in areas.penalty_area) * s
        outside = (lambda x, y, e=edge: x > e) if end == "low" else (lambda x, y, e=edge: x < e)
        out.extend(_arc(mx, my, 3.0 * s, outside))
        for sq in areas.goal:
            out.append(Shape("fill", NET, (sq[0] * s + 1, sq[1] * s + 1, (sq[0] + 1) * s - 1, (sq[1] + 1) * s - 1)))
        for number, sq in areas.goal_numbers.items():
            out.append(Shape("text", DARK, ((sq[0] + 0.5) * s, (sq[1] + 0.5) * s), 0.55 * s, str(number)))
        for sq in areas.corners:
            # A quarter circle in the field's corner: the corner area.
            kx = 0 if sq[0] == 0 else L
            ky = 0 if sq[1] == 0 else W
            out.extend(_arc(kx, ky, 0.45 * s, lambda x, y: 0 <= x <= L and 0 <= y <= W, 24))
        # The end's name in the ring below the touch line, three squares in from its goal line:
        # the ring strip is as tall as a square and has room for it (beside the goal, a square
        # wide, the label ran over the goal line and the pitch's edge).
        gx = 3 * s if end == "low" else L - 3 * s
        out.append(Shape("fill", RING, (gx - 2.5 * s, -0.95 * s, gx + 2.5 * s, -0.1 * s)))   # under the touch line
        out.append(Shape("text", WHITE, (gx, -0.5 * s), 0.6 * s, f"{end} goal"))
    for end, squares in p.kick_off_squares.items():
        for sq in squares:   # where the kicker stands at a kick-off
            out.append(Shape("outline", (1, 1, 1, 0.45), (sq[0] * s + 2, sq[1] * s + 2, (sq[0] + 1) * s - 2,
                                                            (sq[1] + 1) * s - 2), 1))
    return out


def _geometry(p: Pitch) -> RectGeometry:
    return RectGeometry(p.length_mm, p.width_mm, p.cols, p.rows, board_shapes(p), margin=1, radius=0.44)


# --- clocks ---------------------------------------------------------------------------------------

def _elapsed(watch: dict, as_of: str | None, now: datetime | None) -> float:
    """A clock's reading now: the reading at the last event plus the time since, if running."""
    value = float(watch.get("elapsed_s") or 0.0)
    if watch.get("running") and as_of and now is not None:
        value += max(0.0, Instant.of(now).seconds_since(Instant.parse(as_of)))
    return value


def readings(summary: dict, now: datetime | None) -> dict[str, Any]:
    """The half's clock and the phase timer(s) as of ``now``: {"half": (elapsed, limit, running),
    "phase": (...), or "chess": {team: (...)}}."""
    clock = summary.get("clock") or {}
    as_of = clock.get("as_of")
    out: dict[str, Any] = {}
    half = clock.get("half")
    if half is not None:
        out["half"] = (_elapsed(half, as_of, now), half.get("limit_s"), bool(half.get("running")))
    if "phase" in clock:
        w = clock["phase"]
        out["phase"] = (_elapsed(w, as_of, now), w.get("limit_s"), bool(w.get("running")))
    if "chess" in clock:
        out["chess"] = {t: (_elapsed(w, as_of, now), w.get("limit_s"), bool(w.get("running")))
                        for t, w in clock["chess"].items()}
    return out


def expired(summary: dict, now: datetime) -> list[tuple[str, Team | None]]:
    """The time-up calls due now: ("half", None), ("phase", None) for the egg timer, or
    ("phase", team) for a coach's chess clock; never one the rules have already taken."""
    clock = summary.get("clock") or {}
    r = readings(summary, now)
    due: list[tuple[str, Team | None]] = []
    value, limit, running = r.get("half", (0.0, None, False))
    if running and limit and not clock.get("half_time_up") and value >= limit:
        due.append(("half", None))
    if clock.get("phase_time_up"):
        return due
    if "phase" in r:
        value, limit, running = r["phase"]
        if running and limit and value >= limit:
            due.append(("phase", None))
    for team, (value, limit, running) in sorted(r.get("chess", {}).items()):
        if running and limit and value >= limit:
            due.append(("phase", Team(team)))
    return due


def mmss(seconds: float) -> str:
    seconds = max(0, int(seconds))
    return f"{seconds // 60:02d}:{seconds % 60:02d}"


# --- the standard line-up ----------------------------------------------------------------------------

def standard_lineup(s: LigaState) -> list[tuple[PlayerRef, tuple[int, int]]]:
    """Each player on the pitch to a square of the kick-off shape for his end (the kicking
    side's #9, or its first field player, on a kick-off square): a start for coaches who set
    the figures by hand. Scaled to the board; never two on a square, no defender in the
    centre circle."""
    p = s.components.pitch
    r = s.restart
    kicking = r.team if r is not None else Team.HOME
    taken: set[tuple[int, int]] = set()
    out = []
    for team in (kicking, kicking.other):
        low = s.end_of(team) == "low"
        shape = KICKING if team is kicking else WAITING
        players = sorted((x for x in s.players.values() if x.on_pitch and x.ref.team is team),
                         key=lambda x: (not x.goalkeeper, x.ref.number))
        spare = [n for n in shape if n not in {x.ref.number for x in players}]
        kicker_done = team is not kicking
        for x in players:
            n = x.ref.number if x.ref.number in shape and not (x.goalkeeper and x.ref.number != 1) else None
            if x.goalkeeper:
                n = 1
            elif n is None or n == 1:
                n = spare.pop(0) if spare else 6
            col, row = shape[n]
            col = round(col * p.halfway_col / 15) if col else 0
            row = min(p.rows - 1, round(row * p.rows / 20))
            sq = (col, row) if low else (p.cols - 1 - col, p.rows - 1 - row)
            if not kicker_done and not x.goalkeeper and n == 9:
                sq = p.kick_off_squares[s.end_of(team)][0]
                kicker_done = True
            sq = _free_near(p, sq, taken, s.end_of(team), team is not kicking)
            taken.add(sq)
            out.append((x.ref, sq))
    return out


def _free_near(p: Pitch, want, taken: set, end: str, defending: bool):
    def ok(sq) -> bool:
        return (p.in_field(sq) and sq not in taken and p.half_of(sq) == end
                and not (defending and p.in_centre_circle(sq)))
    if ok(want):
        return want
    options = [sq for sq in p.field_squares() if ok(sq)]
    return min(options, key=lambda sq: (dist(sq, want), sq))


_TYPED_PLAYER = re.compile(r"(home|away)\s*#?\s*(\d{1,2})", re.IGNORECASE)


def _players(text: object) -> tuple[PlayerRef, ...]:
    """Players typed on the setup screen: "Home 4, Away 8" (or "home#4 away#8")."""
    if not text or not str(text).strip():
        return ()
    found = list(_TYPED_PLAYER.finditer(str(text)))
    rest = _TYPED_PLAYER.sub("", str(text)).replace(",", "").strip()
    if rest or not found:
        raise ValueError(f"players: write each as its side and shirt number, like \"Home 4, Away 8\" "
                         f"(got {str(text).strip()!r})")
    return tuple(PlayerRef(Team(m.group(1).lower()), int(m.group(2))) for m in found)


# --- the face ---------------------------------------------------------------------------------------

class FussballLigaFace(Face):
    def __init__(self) -> None:
        # ``match_options`` also takes "optional_rules" (all four optional rules at once).
        super().__init__(game="fussball_liga", title="Fußball-Liga", tick_s=0.5, options=[
            Choice("no_limit", "No phase time limit (trying out tactics)"),
            Choice("chess_clock", "Chess clock instead of 30 s egg timers"),
            Choice("half", "Half length (minutes)", "45", ("10", "15", "20", "30", "45")),
            Choice("ties", "A draw goes to extra time and penalties"),
            Choice("keep_ends", "Keep the ends at half-time"),
            # The optional rules and tournament play: under "More options" (13 rows do not fit).
            Choice("goalkeeper_save", "Optional rule: the goalkeeper's save", more=True),
            Choice("taking_a_pass", "Optional rule: taking a pass", more=True),
            Choice("goal_posts", "Optional rule: goal posts", more=True),
            Choice("bonus_points", "Optional rule: bonus points", more=True),
            Choice("tournament", "Tournament play (yellow cards carry over)", more=True),
            Choice("third_foul_two_cards", "A third foul that is a 1: two yellow cards", more=True),
            Choice("carried_yellows", "Booked in this round's earlier match", "Home 4, Away 8", text=True, more=True),
            Choice("suspended", "Suspended for this match", "Away 8", text=True, more=True),
        ])
        self._sent: set[tuple] = set()   # time-up calls made (kind, team, the clock's as-of)

    # --- setup -------------------------------------------------------------------------------
    def teams(self, folder: Any = None) -> list[str]:
        return box.team_keys(self.game, folder)

    @staticmethod
    def match_options(options: dict[str, bool | str]) -> Options:
        limit = PhaseLimit.NONE if options.get("no_limit") else (
            PhaseLimit.CHESS_CLOCK if options.get("chess_clock") else PhaseLimit.EGG_TIMER)
        ties = bool(options.get("ties"))
        every = bool(options.get("optional_rules"))
        rules = {key: every or bool(options.get(key)) for key in OPTIONAL_RULES}
        carried, suspended = _players(options.get("carried_yellows")), _players(options.get("suspended"))
        return Options(phase_limit=limit, extra_time=ties, shootout=ties, half_minutes=int(options.get("half", 45)),
                       change_ends=not options.get("keep_ends"),
                       tournament=bool(options.get("tournament")) or bool(carried or suspended),
                       carried_yellows=carried, suspended=suspended,
                       third_foul_two_cards=bool(options.get("third_foul_two_cards")), **rules)

    def create(self, home: str, away: str, options: dict[str, bool | str], folder: Any) -> Any:
        rosters = {Team.HOME: box.team(self.game, home, folder), Team.AWAY: box.team(self.game, away, folder)}
        chosen = self.match_options(options)
        for ref in chosen.carried_yellows + chosen.suspended:
            roster = rosters[ref.team]
            if all(p.number != ref.number for p in roster.players):
                raise ValueError(f"{ref.team.label} {ref.number}: {roster.name} has no player #{ref.number}")
        return c.CreateMatch(rosters[Team.HOME], rosters[Team.AWAY], load_components(folder), chosen)

    # --- drawing -------------------------------------------------------------------------------
    def geometry(self, board: Pitch) -> RectGeometry:
        return self.cached_geometry(board, _geometry)

    def figures(self, state: LigaState) -> list[Figure]:
        m = state.movement
        moving = state.phase is Phase.MOVEMENT
        out = []
        for p in state.players.values():
            if not p.placed:
                continue
            # Moved players are dimmed (the rulebook turns them upside-down), bar the one moving now.
            moved = moving and p.ref in m.by_player and p.ref != m.current
            out.append(Figure(p.ref, p.square, dim=moved, crossed=p.ref in m.committed and moving,
                              goalkeeper=p.goalkeeper or p.stand_in, manual=p.manual, badge="Y" * p.yellow))
        return out

    def ball(self, state: LigaState, board: Pitch | None) -> BallMark:
        ball = state.ball
        if board is None:
            return BallMark()
        if ball.holder is not None and state.players[ball.holder].square == ball.square:
            return BallMark(carrier=ball.holder)
        f = state.flight
        if f is not None and ball.square == f.origin and state.players[f.kicker].square == f.origin:
            return BallMark(carrier=f.kicker)   # at the kicker's feet until the flight resolves
        if ball.square is not None:
            return BallMark(cell=ball.square)
        if state.restart is not None and state.restart.kind is RestartKind.KICK_OFF:
            # On the centre mark, between squares.
            g = self.geometry(board)
            return BallMark(at=g.to_board(board.centre[0] * board.square_mm, board.centre[1] * board.square_mm))
        return BallMark()

    # --- panels --------------------------------------------------------------------------------
    def scoreboard(self, summary: dict[str, Any], now: datetime | None = None) -> Scoreboard:
        if not summary.get("created", True) or "score" not in summary:
            return Scoreboard("Fußball-Liga", "", "")
        teams, score = summary["teams"], summary["score"]
        shoot = summary.get("shootout")
        pens = f"  ({shoot['home']}-{shoot['away']} pens)" if shoot else ""
        text = f"{teams['home']}  {score['home']} - {score['away']}  {teams['away']}{pens}"
        r = readings(summary, now)
        clock = summary.get("clock") or {}
        half = summary.get("half", "")
        if "half" in r and r["half"][1]:
            value, limit, _running = r["half"]
            time = mmss(min(value, limit))
            if clock.get("half_time_up"):
                time += " up"
            elif clock.get("paused"):
                time += " paused"
            when = f"{time}  {half}"
        else:
            when = half
        phase = summary.get("phase", "")
        result = summary.get("result")
        if result is not None:
            how = result["decided_by"]
            line = f"Final {result['home']}-{result['away']} ({how})"
        elif phase in ("shot", "movement"):
            att = summary.get("attacking") or ""
            line = f"Turn {summary.get('turn', 0)}: {att.capitalize()} attacks, {phase} phase"
        else:
            line = phase.replace("_", "-")
            if summary.get("restart"):
                rs = summary["restart"]
                line = f"{rs['kind'].replace('_', ' ').capitalize()} for {rs['team'].capitalize()}: {line}"
        return Scoreboard(text, when, line)

    def bars(self, summary: dict[str, Any]) -> list[BarSpec]:
        return bar_specs(summary, datetime.now(UTC))

    def stepper(self, state: LigaState, summary: dict[str, Any]) -> tuple[tuple[str, ...], str]:
        phase = state.phase.value
        extra = (phase,) if phase not in PHASES else ()
        return PHASES + extra, phase

    def chips(self, state: LigaState) -> list[Chip]:
        out = []
        moving = state.phase is Phase.MOVEMENT
        for p in sorted(state.players.values(), key=lambda p: (p.ref.team.value, p.ref.number)):
            if p.where.value == "bench" or (p.substituted and not p.sent_off):
                continue
            mark = "~" if moving and p.ref in state.movement.by_player else ""
            mark += "Y" * p.yellow + ("R" if p.sent_off else "")
            mark += "?" if p.on_pitch and p.square is None else ""
            out.append(Chip(p.ref, f"{p.ref.number}{mark}", enabled=p.on_pitch))
        return out

    # --- the action buttons ------------------------------------------------------------------------
    def panel(self, screen: Any, view: Any, add: Callable[[Any], None]) -> None:
        from ..widgets.keypad import button, wrap_label

        state: LigaState = view.state
        ids = {r.id for r in view.pending}
        sel = screen.selected
        self._mark(screen, [])
        if state.phase is Phase.OVER:
            add(wrap_label("The match is over.", 18))
            return
        if "kick_off" in ids:
            team = state.restart.team
            add(button("Standard line-up (set the figures to match)", lambda: self._line_up(screen, view)))
            add(wrap_label("Place a figure: touch his chip or figure, then the square.", 15))
            if sel is not None and sel.team is team:
                add(button(f"Kick off by #{sel.number}: touch the target", lambda k=sel: self._kick_mode(screen, k)))
            else:
                add(wrap_label(f"Select {team.label}'s player on a kick-off square to kick off.", 15))
        if "set_up" in ids:
            req = next(r for r in view.pending if r.id == "set_up")
            add(wrap_label("Move figures by touch (select, then the square).", 15))
            if sel is not None and sel.team is req.team:
                add(button(f"Move #{sel.number} square by square...",
                           lambda k=sel: self._enter(screen, "path", k, path=[], hand_to=None)))
            add(button(f"{req.team.label}: set-up done", lambda t=req.team: screen.submit(c.PassTurn(t))))
        if "penalty" in ids:
            team = state.restart.team
            add(wrap_label("Place the figures by touch; the goalkeeper on goal square 1-4.", 15))
            if sel is not None and sel.team is team:
                add(button(f"Penalty-kick by #{sel.number}", lambda k=sel: screen.submit(c.TakePenalty(k))))
            else:
                add(wrap_label(f"Select {team.label}'s kicker (on a square behind the penalty mark).", 15))
        if "restart_kick" in ids:
            self._kicker_buttons(screen, state, state.restart.team, add, "Take it")
        if "intercept" in ids:
            self._intercept_buttons(screen, state, add)
        if "drop_kick" in ids:
            gk = state.holding
            add(button(f"#{gk.number}: drop the ball, then kick", lambda k=gk: self._enter(screen, "drop", k)))
        if "follow_up" in ids:
            h = state.ball.holder
            att = state.attacking
            add(button(f"Follow-up by #{h.number}: touch the target", lambda k=h: self._kick_mode(screen, k)))
            add(button(f"{att.label}: no follow-up", lambda t=att: screen.submit(c.PassTurn(t))))
        if "keeper" in ids:
            gk = state.ball.holder
            att = state.attacking
            add(button(f"#{gk.number} kicks it: touch the target", lambda k=gk: self._kick_mode(screen, k)))
            add(button(f"#{gk.number} holds the ball for a turn", lambda k=gk: screen.submit(c.HoldBall(k))))
            if sel is not None and sel.team is att and sel != gk:
                add(button(f"#{sel.number} kicks it: touch the target", lambda k=sel: self._kick_mode(screen, k)))
            add(button(f"{att.label}: put the ball down (no kick)", lambda t=att: screen.submit(c.PassTurn(t))))
        if "shoot" in ids:
            h = state.ball.holder
            att = state.attacking
            if h is not None:
                add(button(f"Shoot or pass (#{h.number}): touch the target",
                           lambda k=h: self._kick_mode(screen, k)))
            add(button(f"{att.label}: no kick this phase", lambda t=att: screen.submit(c.PassTurn(t))))
        if "move" in ids:
            self._movement_buttons(screen, state, next(r for r in view.pending if r.id == "move"), add)
        if "shootout" in ids:
            team = state.attacking
            if sel is not None and sel.team is team:
                add(button(f"Penalty by #{sel.number}", lambda k=sel: screen.submit(c.TakePenalty(k))))
            else:
                add(wrap_label(f"Select {team.label}'s next kicker; put the other goalkeeper on goal square 1-4.",
                               15))
        self._always(screen, state, add)

    def _kicker_buttons(self, screen, state, team: Team, add, what: str) -> None:
        from ..widgets.keypad import button, wrap_label

        sel = screen.selected
        r = state.restart
        if sel is not None and sel.team is team:
            add(button(f"{what}: #{sel.number} kicks, touch the target", lambda k=sel: self._kick_mode(screen, k)))
            return
        where = {RestartKind.THROW_IN: "on the throw-in square", RestartKind.CORNER: "on the corner area",
                 RestartKind.GOAL_KICK: "in the goal area"}.get(r.kind, "next to the ball")
        add(wrap_label(f"Select {team.label}'s kicker ({where}).", 15))

    def _intercept_buttons(self, screen, state, add) -> None:
        from ..widgets.keypad import button, wrap_label

        f = state.flight
        defenders = f.kicker.team.other
        self._mark(screen, list(f.path))
        options = [(p.ref, i) for p in state.players.values() if p.placed and p.ref.team is defenders
                   for i in range(len(f.path)) if attempt_problem(state, f, p.ref, i) is None]
        for ref, i in sorted(options, key=lambda o: (o[1], o[0].number))[:8]:
            sq = f.path[i]
            add(button(f"#{ref.number} tries in {sq[0]},{sq[1]}", lambda r=ref, s=sq: screen.submit(
                c.Intercept(r, s))))
        if not options:
            add(wrap_label("No defender can reach the ball's path.", 15))
        add(button(f"{defenders.label}: let it go", lambda t=defenders: screen.submit(c.PassTurn(t))))

    def _movement_buttons(self, screen, state, req, add) -> None:
        from ..widgets.keypad import button, wrap_label

        team = req.team
        sel = screen.selected
        ball = state.ball
        if state.holding is not None and state.hold_turn == state.turn_no:
            add(wrap_label(f"#{state.holding.number} holds the ball: opponents keep 3 squares away.", 15))
        add(wrap_label("Move a figure: select it, touch the square (cheapest path), or:", 15))
        if sel is not None and sel.team is team:
            add(button(f"Move #{sel.number} square by square...", lambda k=sel: self._enter(screen, "path", k, path=[], hand_to=None)))
        h = ball.holder
        if h is not None and h.team is team and team is state.attacking and ball.control in (Control.CLOSE,
                                                                                           Control.LOOSE):
            add(button(f"Move the ball around #{h.number}...", lambda k=h: self._enter(screen, "ball", k)))
        if team is not state.attacking and h is not None and h.team is state.attacking \
                and ball.control in (Control.CLOSE, Control.LOOSE) and state.holding is None:
            add(button("Dribbling interception...", lambda: self._enter(screen, "tackle", fair_play=False)))
        add(button(f"{team.label}: step done", lambda t=team: screen.submit(c.PassTurn(t))))

    def _always(self, screen, state, add) -> None:
        from ..widgets.keypad import button

        clock = state.clocks
        if state.phase in (Phase.LINE_UP, Phase.SET_UP):
            add(button("Substitution...", lambda: screen.set_mode("sub_off")))
        if state.phase in (Phase.SHOT, Phase.MOVEMENT, Phase.SET_UP, Phase.LINE_UP):
            add(button("Call misconduct...", lambda: screen.set_mode("misconduct")))
        if clock.half_on and not clock.paused:
            add(button("Pause the clock", lambda: screen.submit(c.PauseClock("paused on the tablet"))))
        elif clock.paused:
            add(button("Resume the clock", lambda: screen.submit(c.ResumeClock())))
        add(button("Clock and ball corrections...", lambda: screen.set_mode("fix")))

    # --- modes --------------------------------------------------------------------------------------
    @staticmethod
    def _mark(screen, cells) -> None:
        pitch = screen.ids.get("pitch") if hasattr(screen, "ids") else None
        if pitch is not None:
            pitch.marked = [tuple(sq) for sq in cells]

    @staticmethod
    def _enter(screen, mode: str, who: PlayerRef | None = None, **form) -> None:
        """Into one of this game's touch modes, acting for ``who`` (set before the panel is built)."""
        screen.form = form
        screen.action = who
        screen.set_mode(mode, keep_action=True)

    def _kick_mode(self, screen, kicker: PlayerRef) -> None:
        self._enter(screen, "kick", kicker)

    def _line_up(self, screen, view) -> None:
        """Lift every figure, then put each on his square of the standard shape."""
        state = view.state
        ctl = screen.controller
        for p in state.players.values():
            if p.square is not None:
                ctl.submit(PlaceFigure(p.ref, None))
        for ref, sq in standard_lineup(state):
            ctl.submit(PlaceFigure(ref, square=sq))
        screen.reset()

    def mode_panel(self, screen: Any, view: Any, add: Callable[[Any], None]) -> bool:
        from kivy.metrics import dp
        from kivy.uix.boxlayout import BoxLayout

        from ..widgets.keypad import TOUCH, button, wrap_label

        state: LigaState = view.state
        mode = screen.mode
        form = dict(screen.form)
        if mode == "kick":
            add(wrap_label(f"#{screen.action.number} kicks: touch the target square (a teammate for a pass, a "
                           f"goal square for a shot).", 17, bold=True))
        elif mode == "drop":
            drop = form.get("drop")
            add(wrap_label(f"#{screen.action.number}: touch the free square next to him to drop the ball"
                           if drop is None else f"Dropped at {drop[0]},{drop[1]}: now touch the target.", 17, bold=True))
            self._mark(screen, [drop] if drop else [])
        elif mode == "receiver":
            target = form["target"]
            add(wrap_label(f"Several teammates stand next to {target[0]},{target[1]}: who takes the pass?", 17,
                           bold=True))
            for ref in form["mates"]:
                add(button(f"To #{ref.number}", lambda r=ref: screen.submit(c.Kick(
                    screen.action, tuple(form["target"]), receiver=r, drop=form.get("drop")))))
        elif mode == "path":
            path = form.get("path", [])
            ref = screen.action
            hand = form.get("hand_to")
            add(wrap_label(f"#{ref.number}: touch each square he steps through ({len(path)} so far)"
                           + (f"; hands the ball to #{hand.number}" if hand else "") + ".", 17, bold=True))
            self._mark(screen, path)
            if path:
                add(button(f"Move along {len(path)} square(s)", lambda: screen.submit(c.Move(
                    ref, tuple(path[-1]), tuple(tuple(x) for x in path), hand))))
                add(button("Take back the last square", lambda: self._set_form(screen, path=path[:-1])))
            if state.ball.holder == ref:
                add(wrap_label("Touch a teammate to hand him the ball at the end.", 15))
        elif mode == "ball":
            add(wrap_label(f"Move the ball around #{screen.action.number}: touch its new square (his own, or "
                           f"one next to him).", 17, bold=True))
        elif mode == "tackle":
            picked = list(screen.picked)
            fair = form.get("fair_play", False)
            names = (f"#{picked[0].number} tries" + (", supported by " + ", ".join(f"#{r.number}" for r in picked[1:])
                                                      if len(picked) > 1 else "")) if picked else "nobody yet"
            add(wrap_label(f"Dribbling interception: touch the defender next to the ball, then any supporters "
                           f"({names}).", 17, bold=True))
            add(button(f"Fair play: {'yes' if fair else 'no'}", lambda: self._set_form(screen, fair_play=not fair)))
            if picked:
                add(button("Try it", lambda: screen.submit(c.Tackle(picked[0], tuple(picked[1:]), fair))))
        elif mode == "misconduct":
            picked = list(screen.picked)
            who = f"#{picked[0].number} ({picked[0].team.label})" if picked else "touch the offender"
            add(wrap_label(f"Call misconduct: {who}", 17, bold=True))
            if picked:
                for offence, text in OFFENCES:
                    add(button(text, lambda o=offence: screen.submit(c.CallMisconduct(picked[0], o))))
        elif mode == "sub_off":
            add(wrap_label("Substitution: touch the player coming off.", 17, bold=True))
        elif mode == "sub_on":
            off = screen.picked[0]
            out = state.players[off]
            add(wrap_label(f"#{off.number} comes off: who comes on?", 17, bold=True))
            for p in sorted(state.players.values(), key=lambda p: p.ref.number):
                if p.ref.team is not off.team or p.where.value != "bench":
                    continue
                if out.goalkeeper or not p.card.goalkeeper:
                    add(button(f"#{p.ref.number} {p.card.name}", lambda on=p.ref, gk=out.goalkeeper: screen.submit(
                        c.Substitute(off, on, gk))))
                else:
                    add(button(f"#{p.ref.number} {p.card.name} (field)", lambda on=p.ref: screen.submit(
                        c.Substitute(off, on))))
                    add(button(f"#{p.ref.number} {p.card.name} in goal", lambda on=p.ref: screen.submit(
                        c.Substitute(off, on, True))))
        elif mode == "fix":
            self._fix_panel(screen, state, add)
        elif mode == "ball_fix":
            sq = form.get("square")
            if sq is None:
                add(wrap_label("Correct the ball: touch the square where it lies.", 17, bold=True))
            else:
                sq = tuple(sq)
                add(wrap_label(f"The ball at {sq[0]},{sq[1]}: who controls it?", 17, bold=True))
                add(button("Nobody (loose ball)", lambda: screen.submit(c.PlaceBall(sq))))
                near = sorted((p for p in state.players.values() if p.placed and dist(p.square, sq) <= 1),
                              key=lambda p: (p.ref.team.value, p.ref.number))
                for p in near:
                    control = Control.CLOSE if p.square == sq else Control.LOOSE
                    row = BoxLayout(size_hint_y=None, height=TOUCH, spacing=dp(4))
                    row.add_widget(button(f"{p.ref.team.label} #{p.ref.number} ({control.value})",
                                          lambda r=p.ref, k=control: screen.submit(c.PlaceBall(sq, r, k))))
                    if p.goalkeeper:
                        row.add_widget(button("in his hands", lambda r=p.ref: screen.submit(
                            c.PlaceBall(sq, r, Control.HANDS))))
                    add(row)
        else:
            return False
        return True

    def _fix_panel(self, screen, state, add) -> None:
        from ..widgets.keypad import button, wrap_label

        add(wrap_label("Corrections (a person overrides the rules' books):", 17, bold=True))
        add(button("Correct the ball...", lambda: self._enter(screen, "ball_fix")))
        now = lambda: Instant.of(datetime.now(UTC))
        if state.clocks.half_on and not state.half_time_up:
            add(button("Time up: the half ends now", lambda: screen.submit(c.CallTimeUp("half", now(),
                                                                                          correction=True))))
        limit = state.options.phase_limit
        if state.phase in (Phase.SHOT, Phase.MOVEMENT) and not state.phase_time_up:
            if limit is PhaseLimit.EGG_TIMER:
                add(button("Time up: the egg timer ran out", lambda: screen.submit(
                    c.CallTimeUp("phase", now(), correction=True))))
            elif limit is PhaseLimit.CHESS_CLOCK:
                for team in (Team.HOME, Team.AWAY):
                    add(button(f"Time up: {team.label}'s chess clock", lambda t=team: screen.submit(
                        c.CallTimeUp("phase", now(), t, correction=True))))
        add(wrap_label("Override (bottom bar) places a figure anywhere with a touch.", 15))

    @staticmethod
    def _set_form(screen, **changes) -> None:
        form = dict(screen.form)
        form.update(changes)
        screen.form = form
        screen.build_panel()

    # --- touches -----------------------------------------------------------------------------------
    def on_figure(self, screen: Any, view: Any, ref: PlayerRef) -> bool:
        mode = screen.mode
        state: LigaState = view.state
        p = state.players.get(ref)
        if mode == "kick" and ref.team is screen.action.team and ref != screen.action and p.placed:
            # A pass to his square: he is the receiver.
            screen.submit(c.Kick(screen.action, p.square, receiver=ref))
            return True
        if mode in ("kick", "drop", "ball", "ball_fix") and p is not None and p.placed:
            return self.on_cell(screen, view, p.square)   # the figure's square is the one meant
        if mode == "path":
            if ref.team is screen.action.team and ref != screen.action and state.ball.holder == screen.action:
                hand = screen.form.get("hand_to")
                self._set_form(screen, hand_to=None if hand == ref else ref)
            return True
        if mode == "tackle":
            if ref.team is not state.attacking:
                screen.toggle_pick(ref)
            return True
        if mode == "misconduct":
            screen.picked = [ref]
            screen.build_panel()
            return True
        if mode == "sub_off":
            screen.picked = [ref]
            screen.set_mode("sub_on", keep_picked=True)
            return True
        return mode in ("receiver", "fix")

    def on_cell(self, screen: Any, view: Any, cell) -> bool:
        mode = screen.mode
        state: LigaState = view.state
        cell = tuple(cell)
        if mode == "kick":
            self._aim(screen, state, cell, screen.form.get("drop"))
            return True
        if mode == "drop":
            if screen.form.get("drop") is None:
                self._set_form(screen, drop=cell)
            else:
                self._aim(screen, state, cell, tuple(screen.form["drop"]))
            return True
        if mode == "path":
            self._set_form(screen, path=[*screen.form.get("path", []), cell])
            return True
        if mode == "ball":
            screen.submit(c.MoveBall(screen.action, cell))
            return True
        if mode == "ball_fix":
            self._set_form(screen, square=cell)
            return True
        return bool(mode)

    def _aim(self, screen, state: LigaState, target, drop) -> None:
        """A kick at ``target``: a teammate next to it takes the pass; name him when several."""
        kicker = screen.action
        pitch = state.components.pitch
        mates = []
        if pitch.goal_end(target) is None and not any(p.square == target for p in state.players.values() if p.placed):
            mates = sorted(p.ref for p in state.players.values()
                           if p.placed and p.ref.team is kicker.team and p.ref != kicker and dist(p.square, target) == 1)
        if len(mates) > 1:
            self._enter(screen, "receiver", kicker, target=target, mates=mates, drop=drop)
            return
        screen.submit(c.Kick(kicker, target, drop=drop))

    # --- the clock ------------------------------------------------------------------------------------
    def tick(self, screen: Any, view: Any, now: datetime) -> None:
        """The tablet is the game's clock: show the running clocks, and call time up once for
        each expiry (the rules check the reading against their own fold)."""
        summary = view.summary
        as_of = (summary.get("clock") or {}).get("as_of")
        for kind, team in expired(summary, now):
            key = (kind, team, as_of)
            if key in self._sent:
                continue
            self._sent.add(key)
            log.info("time up: %s%s", kind, f" ({team.label})" if team else "")
            screen.controller.submit(c.CallTimeUp(kind, Instant.of(now), team))
            if hasattr(screen, "time_up"):
                screen.time_up()
        screen.build_bars(summary)


def bar_specs(summary: dict[str, Any], now: datetime | None) -> list[BarSpec]:
    """Each side's movement points left, what the defender may spend now, the phase timer
    (egg timer or each coach's chess clock) and the half's clock."""
    out = []
    mv = summary.get("movement")
    per_side = (mv or {}).get("per_side", 18)
    spent = (mv or {}).get("spent", {"home": 0, "away": 0})
    for team in (Team.HOME, Team.AWAY):
        left = per_side - spent.get(team.value, 0)
        out.append(BarSpec(f"{team.label} MP {left}/{per_side}", left, per_side, TEAM_BAR[team]))
    att = summary.get("attacking")
    if mv is not None and att:
        may = mv.get("defender_may_spend", 0)
        out.append(BarSpec(f"Defender MP {may}", may, per_side, (0.6, 0.6, 0.65, 1)))
    else:
        out.append(BarSpec("Defender MP 0", 0, per_side, (0.6, 0.6, 0.65, 1)))
    r = readings(summary, now)
    clock = summary.get("clock") or {}
    if "phase" in r:
        value, limit, _running = r["phase"]
        left = max(0.0, (limit or 0) - value)
        caption = "Time up!" if clock.get("phase_time_up") else f"Timer {left:.0f} s"
        out.append(BarSpec(caption, left, limit or 1, LATE if left < 10 else TIMER))
    elif "chess" in r:
        for team in (Team.HOME, Team.AWAY):
            value, limit, _running = r["chess"][team.value]
            left = max(0.0, (limit or 0) - value)
            out.append(BarSpec(f"{team.label} clock {left:.0f} s", left, limit or 1, LATE if left < 10 else TIMER))
    else:
        out.append(BarSpec("No time limit", 0, 1))
    if "half" in r and r["half"][1]:
        value, limit, _running = r["half"]
        out.append(BarSpec(f"Half {mmss(min(value, limit))}", min(value, limit), limit, (0.55, 0.8, 0.95, 1)))
    else:
        out.append(BarSpec("Half not started", 0, 1, (0.55, 0.8, 0.95, 1)))
    return out
