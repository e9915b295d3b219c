"""Fouls, cards, misconduct called by a coach acting as referee, the goalkeeper's
replacement, and substitutions.

Every third foul of a player shows him the yellow card; the second yellow card sends him
off. After a caution or a sending-off the other side gets an indirect free-kick unless it
already has a direct free-kick or a penalty-kick.
"""

from __future__ import annotations

from ..board import Square
from ..teams import PlayerRef, Team
from . import events as ev
from . import flow
from . import queries as q
from .commands import CallMisconduct, Substitute
from .model import AdvantageCtx, Choice, KeeperCtx, Phase, RestartKind
from .resolve import player_option
from .stoppages import award
from .tx import Tx, refuse

CARDS = "Yellow and Red Cards"
FOUL = "Foul Play"
MISCONDUCT = "Referees"
SUBS = "Substitutions"


def book(tx: Tx, ref: PlayerRef, reason: str) -> bool:
    """Show the yellow card; returns True when it was his second (sent off)."""
    s = tx.state
    p = s.players[ref]
    second = p.yellow + 1 >= q.limits(s).yellows_to_send_off
    was_keeper = p.goalkeeper
    tx.emit(ev.CardShown(ref, "yellow", reason, sent_off=second))
    if second and tx.state.ball.holder == ref:
        flow.set_ball(tx, p.square, last_team=ref.team)
    if second and was_keeper:
        replace_keeper(tx, ref.team)
    return second


def replace_keeper(tx: Tx, team: Team) -> None:
    s = tx.state
    fielders = tuple(str(p.ref) for p in q.on_pitch(s, team) if not p.goalkeeper)
    if fielders:
        flow.open_choice(tx, team, f"{team.label}: the goalkeeper was sent off: name the field player who replaces "
                                   f"him", fielders, KeeperCtx(team))


def choose_keeper(tx: Tx, choice: Choice, option: str) -> None:
    tx.emit(ev.GoalkeeperNamed(player_option(option), stand_in=True))


def foul(tx: Tx, fouler: PlayerRef, spot: Square, yellow: bool, where: Square | None) -> None:
    """Foul play: counted (every third a yellow card), carded, then the fouled side chooses
    the direct free-kick (a penalty-kick when ``where``, the fouled attacker's or the ball's
    square, is in the offender's penalty area) or to play on for its advantage."""
    s = tx.state
    count = s.players[fouler].fouls + 1
    tx.emit(ev.FoulCommitted(fouler, spot, count))
    third = count % q.limits(s).fouls_per_yellow == 0
    # One foul in both cases shows the yellow card once (LV36), unless the table counts two.
    if yellow and third and s.options.third_foul_two_cards:
        if not book(tx, fouler, "foul (a roll of 1)"):
            book(tx, fouler, f"foul no. {count} (every third foul)")
    elif yellow or third:
        book(tx, fouler, "foul (a roll of 1)" if yellow else f"foul no. {count} (every third foul)")
    s = tx.state
    team = fouler.team.other
    penalty = q.in_penalty_area(s, s.end_of(fouler.team), where)
    kind = RestartKind.PENALTY if penalty else RestartKind.FREE_KICK
    option = "penalty_kick" if penalty else "free_kick"
    flow.open_choice(tx, team, f"{team.label}: foul by {fouler}: take the {kind.label} or play on (advantage)?",
                     (option, "advantage"), AdvantageCtx(fouler, spot, penalty), front=True)


def choose_advantage(tx: Tx, choice: Choice, option: str) -> None:
    ctx: AdvantageCtx = choice.ctx
    if option == "advantage":
        return
    keeper_choice = next((p for p in tx.state.queue if isinstance(p, Choice) and isinstance(p.ctx, KeeperCtx)), None)
    kind = RestartKind.PENALTY if ctx.penalty else RestartKind.FREE_KICK
    award(tx, kind, choice.team, f"foul by {ctx.fouler}", None if ctx.penalty else ctx.spot)
    if keeper_choice is not None:
        replace_keeper(tx, keeper_choice.ctx.team)


# --- misconduct ---------------------------------------------------------------------------------

OFFENCES = ("foul", "shot_out", "played_on", "other")


def call_misconduct(tx: Tx, cmd: CallMisconduct) -> None:
    s = tx.state
    if s.phase in (Phase.TOSS, Phase.SHOOTOUT, Phase.OVER):
        raise refuse(MISCONDUCT, "there is no play to referee now")
    if cmd.offence not in OFFENCES:
        raise refuse(MISCONDUCT, f"the offence is one of {', '.join(OFFENCES)}, not {cmd.offence!r}")
    p = s.players.get(cmd.player)
    if p is None or not p.on_pitch:
        raise refuse(MISCONDUCT, f"{cmd.player} is not on the pitch")
    if s.queue:
        raise refuse(MISCONDUCT, "finish the pending roll or choice first")
    team = cmd.player.team
    if cmd.offence == "foul":
        # Foul play declared by a coach acting as referee: a free-kick from the ball's square.
        ball = s.ball.square
        if ball is None or not q.pitch(s).in_field(ball) or s.phase not in (Phase.SHOT, Phase.MOVEMENT):
            raise refuse(MISCONDUCT, "foul play is called during play, with the ball on the field")
        tx.emit(ev.MisconductCalled(cmd.player, cmd.offence))
        foul(tx, cmd.player, ball, False, ball)
        return
    spot = s.ball.square if s.ball.square is not None and q.pitch(s).in_field(s.ball.square) else p.square
    kind, reason = RestartKind.INDIRECT_FREE_KICK, f"misconduct by {cmd.player}"
    if cmd.offence == "shot_out":
        last = s.last_kick
        if (s.phase is not Phase.SET_UP or last is None or last.kicker != cmd.player
                or q.pitch(s).in_field(last.target) or q.pitch(s).goal_end(last.target) is not None
                or (s.restart is not None and s.restart.reason.startswith("misconduct"))):
            raise refuse(MISCONDUCT, "a shot aimed willfully off the field is called right after it, before the "
                                     "restart")
        kind = RestartKind.THROW_IN
        spot = next(sq for sq in last.path if not q.pitch(s).in_field(sq))
        if not 0 <= spot[0] < q.pitch(s).cols:  # off over a goal line: the throw-in from the nearest touch line
            spot = (max(0, min(spot[0], q.pitch(s).cols - 1)), -1 if spot[1] < q.pitch(s).rows / 2 else
                    q.pitch(s).rows)
        reason = f"misconduct by {cmd.player}: shot off the field willfully"
    elif cmd.offence == "played_on":
        if s.time_ran_out_at is None:
            raise refuse(MISCONDUCT, "playing on is called after a phase's time ran out")
        spot = s.time_ran_out_at
        reason = f"misconduct by {cmd.player}: played on after time ran out"
    if spot is None:
        raise refuse(MISCONDUCT, "the ball's position is not known: place the ball first")
    tx.emit(ev.MisconductCalled(cmd.player, cmd.offence))
    sent_off = book(tx, cmd.player, reason)
    keeper_choice = next((c for c in tx.state.queue if isinstance(c, Choice) and isinstance(c.ctx, KeeperCtx)), None)
    r = tx.state.restart
    if r is not None and r.team is team.other and r.kind in (RestartKind.FREE_KICK, RestartKind.PENALTY) \
            and kind is RestartKind.INDIRECT_FREE_KICK:
        return  # the other side has a direct free-kick or a penalty-kick already
    award(tx, kind, team.other, reason, spot)
    if keeper_choice is not None and sent_off:
        replace_keeper(tx, team)


# --- substitutions ---------------------------------------------------------------------------------

def substitute(tx: Tx, cmd: Substitute) -> None:
    s = tx.state
    if s.phase not in (Phase.LINE_UP, Phase.SET_UP):
        raise refuse(SUBS, "substitutions are made at a stoppage: before a kick-off or a restart")
    off, on = s.players.get(cmd.off), s.players.get(cmd.on)
    if off is None or on is None or cmd.off.team is not cmd.on.team:
        raise refuse(SUBS, "substitute a player for a teammate on the bench")
    team = cmd.off.team
    if not off.on_pitch:
        raise refuse(SUBS, f"{cmd.off} is not on the pitch")
    if on.where.value != "bench":
        raise refuse(SUBS, f"{cmd.on} is not on the bench (players who left the pitch do not return)")
    if cmd.on in s.options.suspended:
        raise refuse("Tournament Play", f"{cmd.on} is suspended for this match and may not be fielded")
    if s.subs_used[team] >= s.options.max_substitutions:
        raise refuse(SUBS, f"{team.label} has made all {s.options.max_substitutions} substitutions")
    if cmd.goalkeeper and not on.card.goalkeeper:
        raise refuse(SUBS, f"{cmd.on} is not a goalkeeper")
    if off.goalkeeper and not cmd.goalkeeper:
        raise refuse(SUBS, f"{cmd.off} keeps goal: bring the substitute on as the goalkeeper")
    if s.ball.holder == cmd.off:
        raise refuse(SUBS, f"{cmd.off} has the ball")
    tx.emit(ev.SubstitutionMade(cmd.off, cmd.on, cmd.goalkeeper))
