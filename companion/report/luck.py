"""The luck meter: each coach's dice against fair dice.

Every die's face is compared with a fair die of its kind (faces equally likely: d10 0-9,
the others 1-n). Per coach and kind: how often each face came up against how often it
should, the mean against the fair mean, and a chi-square test of fairness. The meter is
Stouffer's z over all of a coach's dice, each face standardised, ``(face - mean) / sd``,
summed and divided by the square root of the count: 0 is average, +-2 is unusual (about
one match in twenty), signed so that positive means the faces that help the roller in this
game.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..dice import DieKind, Roll
from ..teams import Team


@dataclass
class DiceTally:
    """Faces thrown, by coach (None: dice nobody owns, such as a shared scatter die) and kind."""

    faces: dict[Team | None, dict[DieKind, list[int]]] = field(default_factory=dict)
    rolls: Counter = field(default_factory=Counter)

    def add(self, roll: Roll, request_team: Team | None) -> None:
        for d in roll.dice:
            owner = d.die.owner if d.die.owner is not None else request_team
            self.faces.setdefault(owner, {}).setdefault(d.die.kind, []).append(d.face)
        owners = {d.die.owner for d in roll.dice if d.die.owner is not None} or {request_team}
        for owner in owners:
            self.rolls[owner] += 1


def fair(kind: DieKind) -> tuple[float, float]:
    """Mean and standard deviation of one fair die's face."""
    k = kind.highest - kind.lowest + 1
    return (kind.lowest + kind.highest) / 2.0, math.sqrt((k * k - 1) / 12.0)


def chi_square_p(stat: float, dof: int) -> float:
    """P(X >= stat) for a chi-square variable with ``dof`` degrees of freedom."""
    if dof <= 0:
        return 1.0
    return _gamma_q(dof / 2.0, stat / 2.0)


def _gamma_q(a: float, x: float) -> float:
    """The regularised upper incomplete gamma function Q(a, x) (series below a + 1, continued
    fraction above, as in the usual numerical recipe)."""
    if x <= 0:
        return 1.0
    ln_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        for _ in range(500):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-14:
                break
        return max(0.0, 1.0 - total * math.exp(ln_front))
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 500):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-14:
            break
    return min(1.0, math.exp(ln_front) * h)


def kind_report(kind: DieKind, faces: list[int]) -> dict[str, Any]:
    n = len(faces)
    mean, sd = fair(kind)
    counts = Counter(faces)
    sides = range(kind.lowest, kind.highest + 1)
    expected = n / len(sides)
    chi = sum((counts.get(f, 0) - expected) ** 2 / expected for f in sides) if n else 0.0
    return {
        "die": kind.value, "count": n,
        "mean": round(sum(faces) / n, 3) if n else None, "fair_mean": mean,
        "z": round((sum(faces) - n * mean) / (sd * math.sqrt(n)), 3) if n else None,
        "faces": {str(f): counts.get(f, 0) for f in sides},
        "expected_per_face": round(expected, 3),
        "chi_square": round(chi, 3), "p_fair": round(chi_square_p(chi, len(sides) - 1), 4) if n else None,
    }


def luck_report(tally: DiceTally, high_is_lucky: bool | None) -> dict[str, Any]:
    out: dict[str, Any] = {"high_is_lucky": high_is_lucky, "coaches": {}, "unowned": []}
    for owner, kinds in tally.faces.items():
        per_kind = [kind_report(kind, faces) for kind, faces in sorted(kinds.items(), key=lambda kv: kv[0].sides)]
        if owner is None:
            out["unowned"] = per_kind
            continue
        total = sum(len(f) for f in kinds.values())
        u = sum((face - fair(kind)[0]) / fair(kind)[1] for kind, faces in kinds.items() for face in faces)
        z = u / math.sqrt(total) if total else 0.0
        meter = None if high_is_lucky is None else round(z if high_is_lucky else -z, 3)
        out["coaches"][owner.value] = {"rolls": tally.rolls[owner], "dice": total, "z": round(z, 3),
                                       "luck": meter, "verdict": verdict(meter if meter is not None else z,
                                                                         high_is_lucky is not None),
                                       "kinds": per_kind}
    for side in ("home", "away"):
        out["coaches"].setdefault(side, {"rolls": 0, "dice": 0, "z": 0.0, "luck": None, "verdict": "no dice thrown",
                                         "kinds": []})
    return out


def verdict(z: float, directed: bool) -> str:
    if not directed:
        word = "higher" if z > 0 else "lower"
        return "as fair dice would" if abs(z) < 1 else f"{word} faces than fair dice" + (
            " (unusual)" if abs(z) >= 2 else "")
    if abs(z) < 1:
        return "about average luck"
    if abs(z) < 2:
        return "lucky" if z > 0 else "unlucky"
    return "very lucky" if z > 0 else "very unlucky"
