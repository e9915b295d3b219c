"""The codec's generated fast decoders agree with its full, path-naming decoders.

Replay decodes through the fast path (``decoder(value, None)``) and only falls back to the
full one to word an error. So on every payload of a played match of each game, and on
seeded mutations of them (a leaf swapped for another value, a field dropped or added), the
fast path must give the same payload, or refuse what the full decoder refuses.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from benchmarks.driver import AutoDriver as FubletDriver
from benchmarks.football_leader_driver import AutoDriver as LeaderDriver
from benchmarks.fussball_liga_driver import LigaDriver
from benchmarks.futboard_driver import FutboardDriver
from companion.codec import constructor, decoder_for, from_json, to_json
from companion.errors import DecodeError
from companion.events import Event

DRIVERS = {"fublet": FubletDriver, "football_leader": LeaderDriver, "futboard": FutboardDriver,
           "fussball_liga": LigaDriver}

ODD_VALUES = [None, True, False, 0, -1, 1, 7, 99, 100, 2 ** 64, 1.5, float("inf"), "", "x", "home#8", "away#99",
              "home#100", "left#1", "d10", "pitch", "contest", "choice", [], [0], [1, 2], [1, "2"], [[1, 2]], {},
              {"kind": "contest"}, {"kind": ["list"]}, [None]]


def played(game: str) -> list[Event]:
    driver = DRIVERS[game].new(seed=3)
    driver.play(commands=250)
    return list(driver.match.events)


def outcome(decode, value: Any) -> tuple[str, Any]:
    try:
        return "ok", decode(value)
    except DecodeError:
        return "refused", None


def leaves(value: Any, path: tuple = ()) -> list[tuple]:
    """Paths to every value inside a JSON value, containers included."""
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += leaves(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += leaves(v, path + (i,))
    return out


def mutated(value: Any, rng: random.Random) -> Any:
    value = json.loads(json.dumps(value))
    paths = leaves(value)
    path = rng.choice(paths)
    if not path:
        return rng.choice(ODD_VALUES)
    parent = value
    for step in path[:-1]:
        parent = parent[step]
    key = path[-1]
    roll = rng.random()
    if isinstance(parent, dict) and roll < 0.15:
        del parent[key]
    elif isinstance(parent, dict) and roll < 0.25:
        parent["unknown_field"] = 1
    else:
        parent[key] = rng.choice(ODD_VALUES)
    return value


@pytest.mark.parametrize("game", sorted(DRIVERS))
def test_fast_and_full_decoders_agree_on_a_match_and_its_mutations(game):
    events = played(game)
    rng = random.Random(f"codec-{game}")
    types = {}
    for event in events:
        types.setdefault(type(event.payload), []).append(to_json(event.payload))
    assert len(types) >= 8, "the match should hold many kinds of event"
    mutations = 0
    for tp, values in types.items():
        decoder = decoder_for(tp)
        for value in values:
            assert decoder(value, None) == decoder(value, "data") == from_json(tp, value)
        for value in rng.sample(values, min(len(values), 30)):
            for _ in range(12):
                bad = mutated(value, rng)
                fast = outcome(lambda v: decoder(v, None), bad)
                full = outcome(lambda v: decoder(v, "data"), bad)
                assert fast == full, (tp.__name__, bad)
                mutations += 1
    assert mutations > 1000


def test_fast_payloads_are_the_classes_own_instances():
    """Filled slots make an instance equal to, and hashing like, one built through __init__."""
    event = played("fublet")[5]
    payload = event.payload
    again = from_json(type(payload), json.loads(json.dumps(to_json(payload))))
    assert type(again) is type(payload) and again == payload and hash(again) == hash(payload)
    assert repr(again) == repr(payload)
    make = constructor(Event)
    built = make(event.seq, event.batch, event.at, event.source, payload)
    assert built == event and hash(built) == hash(event) and repr(built) == repr(event)


def test_records_built_through_their_twin_are_the_classes_own():
    """A record built as its twin and given its class (twins.slot_twin) is the instance the
    class's __init__ makes: same class, fields, equality, hash and repr, frozen as ever;
    a class whose slots Python would mangle gets no twin (its slots are set one by one)."""
    import dataclasses

    from companion.twins import slot_twin

    @dataclasses.dataclass(frozen=True, slots=True)
    class Base:
        a: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class Child(Base):
        b: str
        c: tuple[int, ...] = ()

    make = constructor(Child)
    assert slot_twin(Child) is not None
    built = make(1, "x", (2, 3))
    assert type(built) is Child and built == Child(1, "x", (2, 3)) and hash(built) == hash(Child(1, "x", (2, 3)))
    assert repr(built) == repr(Child(1, "x", (2, 3)))
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.b = "y"  # type: ignore[misc]

    class Mangled:
        __slots__ = ("__secret",)

    assert slot_twin(Mangled) is None
