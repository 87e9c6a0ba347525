"""The tracker's view never builds a request its calculators refuse (issue #38, item 4): over random
fights in every system (combatants added with random declared values, damage, heals, rulings,
rounds started, turns taken), every card link that carries inputs and every odds request in the
view is accepted by `calc.evaluate`; a target the calculator cannot take is a card's reason, never
a request. The values are drawn from the declarations the page's forms offer (the view's `fields`
and `rulings`), so the test holds no range of its own."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import calc
from calc import fight
from calc.errors import CalcError
from calc.fight import fighter
from calc.fight import state as fight_state
from calc.inputs import data as data_mod

SYSTEMS = ["phases", "countup", "segments", "action-points", "active-defense"]
COUNTS = {"fights": 0, "actions": 0, "requests": 0, "refused": 0}
_ANSWERED: dict[str, str | None] = {}
"""Each request checked once (by its JSON): the refusal's text, or None when accepted."""


def refusal(request: dict[str, Any]) -> str | None:
    """Why `calc.evaluate` refuses `request` (None: it answers it). The answer without its first
    attack: the same checks, less work."""
    key = json.dumps(request, sort_keys=True)
    if key not in _ANSWERED:
        try:
            calc.evaluate(request, first_attack=False)
            _ANSWERED[key] = None
        except CalcError as err:
            _ANSWERED[key] = f"{err.input}: {err.reason}"
    return _ANSWERED[key]


def built_requests(system: str, view: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Every request the view builds: the odds' requests and the cards' links that carry inputs."""
    out = []
    for t in (view.get("odds") or {}).get("targets", []):
        if "request" in t:
            out.append((f"odds vs {t['name']}", t["request"]))
    for c in view["combatants"]:
        for name, link in c["links"].items():
            if "inputs" in link:
                request = {"system": system, "calculator": name, "inputs": link["inputs"]}
                out.append((f"{c['name']}'s {name} link (attacker {link['attacker']})", request))
    return out


def field_value(draw: Any, decl: dict[str, Any]) -> Any:
    """A value the form offers for one declared field (texts left out)."""
    kind = decl["type"]
    if kind == "integer":
        lo, hi = decl.get("min", -50), decl.get("max", 500)
        return draw(st.one_of(st.sampled_from([lo, hi, decl.get("default", lo)]), st.integers(lo, hi)))
    if kind == "choice":
        return draw(st.sampled_from([o["value"] for o in decl["options"]]))
    if kind == "boolean":
        return draw(st.booleans())
    if kind == "dice":
        dice = [decl.get("default") or "1d6", "1d4", "2d6", "1d8+1", "3d12", "1d2", "4d6", "2d20+3"]
        return draw(st.sampled_from(dice))
    return None


class Driven:
    """One fight driven by random actions; refused actions (the engine's own checks) are skipped."""

    def __init__(self, system: str) -> None:
        self.system = system
        self.state: Any = None
        self.view: dict[str, Any] = fight.act(system, None, {"type": "view"})["view"]
        self.n = 0
        fields = self.view["fields"]
        known = {d["name"] for d in fields}
        self.offered = fields + [d for d in fighter.carried(data_mod.system(system)) if d["name"] not in known]
        """What a card's form offers a combatant to carry: the tracker's fields, the fighter's inputs."""

    def do(self, action: dict[str, Any]) -> bool:
        try:
            answer = fight.act(self.system, self.state, action)
        except CalcError:
            return False
        self.state, self.view = answer["state"], answer["view"]
        COUNTS["actions"] += 1
        return True

    def ids(self) -> list[str]:
        return [c["id"] for c in self.view["combatants"]]


def act_randomly(draw: Any, f: Driven) -> None:
    kinds = ["add", "damage", "heal", "next_round", "next_turn", "next_turn", "option", "edit_hp", "previous_turn"]
    kind = draw(st.sampled_from(kinds if f.ids() else ["add"]))
    if kind == "add":
        values = {}
        for decl in f.offered:
            if draw(st.booleans()):
                v = field_value(draw, decl)
                if v is not None:
                    values[decl["name"]] = v
        top = draw(st.one_of(st.integers(1, 80), st.sampled_from([1, 100, 500, fight_state.HEALTH_MAX])))
        f.n += 1
        side = draw(st.sampled_from(["pc", "foe"]))
        f.do({"type": "add", "combatant": {"name": f"F{f.n}", "side": side, "max": top, "values": values}})
    elif kind in ("damage", "heal"):
        amount = draw(st.one_of(st.integers(1, 30), st.sampled_from([100, 1000, fight_state.HEALTH_MAX])))
        f.do({"type": kind, "id": draw(st.sampled_from(f.ids())), "amount": amount, "critical": draw(st.booleans())})
    elif kind == "edit_hp":
        c = draw(st.sampled_from(f.view["combatants"]))
        f.do({"type": "edit", "id": c["id"], "combatant": {"hp": draw(st.integers(-c["max"] - 20, c["max"]))}})
    elif kind == "option" and f.view["rulings"]:
        decl = draw(st.sampled_from(f.view["rulings"]))
        v = field_value(draw, decl)
        if v is not None:
            f.do({"type": "option", "name": decl["name"], "value": v})
    elif kind == "next_round":
        if f.do({"type": "next_round"}) and f.view["pending"] is not None:
            for _ in range(4):  # the dice, then re-rolls of ties while the procedure asks
                rolls = {}
                for e in f.view["pending"]["dice"]:
                    if e["value"] is None and not e["optional"]:
                        count, sides = (int(x) for x in e["dice"].split("d"))
                        rolls[e["key"]] = draw(st.integers(count, count * sides))
                if not f.do({"type": "start_round", "rolls": rolls}) or f.state["pending"] is None:
                    break
    elif kind != "option":
        f.do({"type": kind})


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(system=st.sampled_from(SYSTEMS), data=st.data())
def test_every_request_the_view_builds_is_accepted(system: str, data: Any) -> None:
    f = Driven(system)
    COUNTS["fights"] += 1
    for _ in range(data.draw(st.integers(4, 14))):
        act_randomly(data.draw, f)
        for where, request in built_requests(system, f.view):
            COUNTS["requests"] += 1
            why = refusal(request)
            if why is not None:
                COUNTS["refused"] += 1
            assert why is None, f"{system}: {where} is refused ({why}): {json.dumps(request)}"


def test_counts_reported() -> None:
    """What the property test checked (run with -s to read it)."""
    print(f"\nview requests: {COUNTS}")
