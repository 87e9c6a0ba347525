"""The turn's action economy: what the acting combatant may still do this turn, by the system's own
declaration (`tracker: turn:` in its calculators.yaml: the turn's pools — action-points' 3 AP,
countup's one Primary and one Secondary Action — and each action with its cost, its limit, the
attacks it gives and what lasts past the turn), so no cost, budget or label is typed here.

The state records what the acting combatant has spent (`spent`: the actions taken and attacks made
this turn, its last target) and what lasts past a turn (`held`: an action that holds until the
combatant's next turn, such as a defense or a reserve); `begin` clears both as a turn begins.
An `attack` (calc/fight/resolve.py) and an `act` (calc/fight/actions.py) take an action through
`take`, which refuses, naming the rule, what the turn no longer allows. See CONTRIBUTING.md,
"The turn's actions".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from calc import systems
from calc.errors import InputError
from calc.fight import fighter, rulings
from calc.inputs import declared
from calc.inputs.data import SystemData
from calc.turns.helpers import tracker

TIMES_MAX = 99
"""The most times one action may be recorded in a turn (a saved state's counts stay small)."""


def declaration(data: SystemData) -> dict[str, Any] | None:
    """The system's `turn:` declaration, numbers read from their facts (None: the tracker declares
    no economy, so attacks and actions are not counted)."""
    return rulings.cached("economy", data, _declaration)


def _number(data: SystemData, ref: Any) -> int:
    """A count as the data gives it: a whole number, or `rule.fact` naming a fact."""
    if isinstance(ref, int):
        return ref
    rule, fact = str(ref).split(".", 1)
    return int(data.fact(rule, fact))


def _declaration(data: SystemData) -> dict[str, Any] | None:
    spec = tracker(data).get("turn")
    if not spec:
        return None
    pools = [{**p, "amount": _number(data, p["amount"])} for p in spec["pools"]]
    acts = []
    for a in spec["actions"]:
        acts.append(
            {
                **a,
                "cost": {pool: _number(data, n) for pool, n in (a.get("cost") or {}).items()},
                "limit": None if a.get("limit") is None else _number(data, a["limit"]),
                "cites": str(a["limit"]).split(".")[0] if isinstance(a.get("limit"), str) else a["rule"],
                "inputs": _typed_inputs(data, a),
                "die": None if a.get("die") is None else data.die_sides(*str(a["die"]).split(".", 1)),
            }
        )
    by_kind = {a["kind"]: a for a in acts}
    return {"rule": spec["rule"], "roll": spec.get("roll"), "pools": pools, "actions": acts, "by_kind": by_kind}


def _typed_inputs(data: SystemData, act: Mapping[str, Any]) -> dict[str, Any]:
    """The round calculator's inputs an action's attacks are made with (`inputs`), typed."""
    given = act.get("inputs") or {}
    if not given:
        return {}
    calc = str((fighter.declaration(data) or {}).get("calculator"))
    decls = {d["name"]: d for d in data.calculator(calc)["inputs"]}
    return {k: declared.value(decls[k], v, f"turn.{act['kind']}.{k}") for k, v in given.items()}


def phase_of(fight: Mapping[str, Any]) -> str | None:
    """The phase of the turn running (its order entry's `phase`; None: no phases, or no turn)."""
    turn, order = fight["turn"], fight["order"]
    return order[turn].get("phase") if fight["round"] > 0 and turn < len(order) else None


def _here(act: Mapping[str, Any], phase: str | None) -> bool:
    """Whether `act` may be taken in a turn of `phase` (an action with no `phases`: any turn)."""
    return not act.get("phases") or phase in act["phases"]


def _phase_name(data: SystemData, phase: str | None) -> str:
    """A phase as the GM reads it: "the Ranged attacks phase", from the data's `phases` table."""
    rows = {str(r["id"]): r for r in data.table("phases")} if "phases" in data.raw.get("tables", {}) else {}
    row = rows.get(str(phase))
    return f"the {row['name'] if row else phase} phase"


def turn_roll(fight: Mapping[str, Any], data: SystemData, c: Mapping[str, Any], sent: Any) -> tuple[int, str] | None:
    """The attack's face when the turn's declaration names a kept roll as the attack's (`roll`:
    phases' d20 of the phase is the action's own roll), and how it is said; None: none is kept
    (the attack's roll is asked). A face sent that is not the kept one is refused, naming the rule."""
    spec = declaration(data)
    ident = acting(fight)
    if spec is None or not spec.get("roll") or ident != c["id"]:
        return None
    entry = fight["order"][fight["turn"]]
    key = str(spec["roll"]["key"]).format(**{k: v for k, v in entry.items() if isinstance(v, str)})
    face = fight["rolls"].get(key)
    if face is None:
        return None
    where = _phase_name(data, entry.get("phase")) if entry.get("phase") else "this turn"
    said = f"its roll of {where}"
    typed = sent.strip() if isinstance(sent, str) else sent
    if typed not in (None, "") and str(typed) != str(face):
        title = _title(data, spec["roll"]["rule"])
        raise InputError(
            "action.roll",
            f"{c['name']} rolled {face} for {where}: that roll is the attack's, no other is rolled ({title})",
        )
    return int(face), said


def acting(fight: Mapping[str, Any]) -> str | None:
    """The id of the combatant whose turn it is (None: no round running)."""
    turn, order = fight["turn"], fight["order"]
    return order[turn]["id"] if fight["round"] > 0 and turn < len(order) else None


def _fresh(fight: Mapping[str, Any], ident: str) -> dict[str, Any]:
    return {"round": fight["round"], "turn": fight["turn"], "id": ident, "actions": {}, "attacks": {}, "target": None}


def current(fight: Mapping[str, Any]) -> dict[str, Any] | None:
    """What the acting combatant has spent this turn (a record of another turn counts as none)."""
    ident = acting(fight)
    if ident is None:
        return None
    kept = fight.get("spent")
    if kept and (kept["round"], kept["turn"], kept["id"]) == (fight["round"], fight["turn"], ident):
        return kept
    return _fresh(fight, ident)


def begin(fight: dict[str, Any], data: SystemData) -> dict[str, Any]:
    """A turn begins: nothing spent yet, and what its combatant held until now ends."""
    ident = acting(fight)
    if declaration(data) is None:
        return fight
    held = {k: v for k, v in (fight.get("held") or {}).items() if k != ident}
    return {**fight, "spent": None if ident is None else _fresh(fight, ident), "held": held}


def removed(fight: dict[str, Any], ident: str, shift: int) -> dict[str, Any]:
    """The fight without combatant `ident` in what is spent and held (`shift`: turns of the order
    before the current one that went with it)."""
    spent = fight.get("spent")
    if spent is not None:
        gone = spent["id"] == ident or spent["turn"] < shift  # its combatant, or a turn gone with it
        spent = None if gone else {**spent, "turn": spent["turn"] - shift}
        if spent is not None and spent["target"] == ident:
            spent = {**spent, "target": None}
    held = {k: v for k, v in (fight.get("held") or {}).items() if k != ident}
    return {**fight, "spent": spent, "held": held}


def _value(data: SystemData, c: Mapping[str, Any], name: str) -> int:
    """A combatant's fighter value as a count (its own, else the round calculator's default); a list
    counts its entries (segments' routine: each entry one attack)."""
    calc = str((fighter.declaration(data) or {}).get("calculator"))
    decl = next(d for d in data.calculator(calc)["inputs"] if d["name"] == name)
    value = declared.value(decl, c["values"].get(name), f"values.{name}")
    return len(value) if isinstance(value, list) else int(value)


def gives(data: SystemData, c: Mapping[str, Any], act: Mapping[str, Any]) -> int:
    """How many attacks one taking of `act` gives `c` (countup's Primary: its attack rate; a list
    of values multiplies them: segments' routine's attacks × the routines its turn makes)."""
    n = act.get("attacks", 0)
    if isinstance(n, int):
        return n
    out = 1
    for name in n if isinstance(n, list) else [n]:
        out *= _value(data, c, name)
    return out


def as_turn(fight: Mapping[str, Any], c: Mapping[str, Any]) -> Mapping[str, Any]:
    """`c` as its turn has it: the values the acting turn carries (the order entry's `inputs`:
    segments' share of a multi-attacker's routines, 1 before group initiative, the rest after LOW)
    over its own."""
    turn, order = fight["turn"], fight["order"]
    if fight["round"] > 0 and turn < len(order) and order[turn]["id"] == c["id"] and order[turn].get("inputs"):
        return {**c, "values": {**c["values"], **order[turn]["inputs"]}}
    return c


def plan(data: SystemData, c: Mapping[str, Any]) -> list[str]:
    """The turn's attacks as `c`'s fighter values plan them, one kind per attack, in the data's order
    (action-points: its standard, quick, power and charge counts; countup: the Primary's attack rate)."""
    spec = declaration(data)
    out: list[str] = []
    for a in (spec or {}).get("actions", []):
        if "planned" in a:
            times = a["planned"] if isinstance(a["planned"], int) else _value(data, c, a["planned"])
            out += [a["kind"]] * (times * gives(data, c, a))
    return out


def _title(data: SystemData, rule: str) -> str:
    return str(data.rule(rule)["title"])


def _left(spec: dict, record: Mapping[str, Any], rounds: Mapping[str, tuple[int, int]] | None = None) -> dict[str, int]:
    """Each pool's amount left after the actions taken; a round pool's (`per: round`) from what the
    combatant holds and has spent this round (`rounds`, `_round_pools`: its turn's actions among
    them), else as a turn's (a saved record's check: its own count is checked with the combatant)."""
    left = {p["id"]: p["amount"] for p in spec["pools"]}
    per_round = {p["id"] for p in spec["pools"] if p.get("per") == "round"}
    for kind, times in record["actions"].items():
        for pool, n in spec["by_kind"][kind]["cost"].items():
            if pool not in per_round:
                left[pool] -= n * times
    for pool, (amount, spent) in (rounds or {}).items():
        left[pool] = amount - spent
    return left


def _round_pools(data: SystemData, c: Mapping[str, Any], spec: dict) -> dict[str, tuple[int, int]]:
    """`c`'s round pools (`per: round`: held for the whole round, spent on and off its turn, as
    active-defense's complex actions that a block or dodge before its turn takes): {pool: (what it
    holds this round, what it has spent of it)}, as its fight rules count them (`round_pool`)."""
    pools = [p for p in spec["pools"] if p.get("per") == "round"]
    if not pools:
        return {}
    rules = systems.engine(data.id).FIGHT
    return {p["id"]: rules.round_pool(c, p, data) for p in pools}


def _spent_here(spec: dict, record: Mapping[str, Any], pool: str) -> int:
    """What the turn's actions took of `pool`."""
    return sum(spec["by_kind"][k]["cost"].get(pool, 0) * n for k, n in record["actions"].items())


def _open(data: SystemData, c: Mapping[str, Any], spec: dict, record: Mapping[str, Any], kind: str) -> int:
    """Attacks the actions of `kind` already taken still give this turn."""
    act = spec["by_kind"][kind]
    return record["actions"].get(kind, 0) * gives(data, c, act) - record["attacks"].get(kind, 0)


def refusal(
    data: SystemData, c: Mapping[str, Any], spec: dict, record: Mapping[str, Any], kind: str, phase: str | None = None
) -> str | None:
    """Why `c` cannot take one more `kind` action now (None: it can), in the GM's words with the rule;
    `phase`: the turn's phase (an action of other `phases` is refused)."""
    act = spec["by_kind"][kind]
    label = act["label"]
    if not _here(act, phase):
        now = _phase_name(data, phase) if phase else "a turn of no phase"
        then = " or ".join(_phase_name(data, p) for p in act["phases"])
        return f"{c['name']} acts in {now} now: {label} is taken in {then} ({_title(data, spec['rule'])})"
    if act.get("attacks") and not gives(data, c, act):  # active-defense's off hand without two weapons
        return f"{c['name']} makes no attack with {label}: its values give none ({_title(data, act['rule'])})"
    taken = record["actions"].get(kind, 0)
    if act["limit"] is not None and taken >= act["limit"]:
        return f"{c['name']} has taken {label} this turn: {act['limit']} a turn ({_title(data, act['cites'])})"
    rounds = _round_pools(data, c, spec)
    left = _left(spec, record, rounds)
    for pool in spec["pools"]:
        cost = act["cost"].get(pool["id"], 0)
        if cost > left[pool["id"]]:
            have = "no" if left[pool["id"]] <= 0 else f"only {left[pool['id']]}"
            made = record["attacks"].get(kind, 0)
            done = f"has made the {made} attack{'s' * (made != 1)} of its {label} and " if made else ""
            when = "this turn"
            if pool["id"] in rounds:  # the round's: say what was spent of it out of the turn, and by which rule
                when = "this round"
                off = rounds[pool["id"]][1] - _spent_here(spec, record, pool["id"])
                if off > 0 and pool.get("off_turn"):
                    when += f", {off} spent out of its turn ({_title(data, pool['off_turn'])})"
            return (
                f"{c['name']} {done}has {have} {pool['label']} left {when}: {label} costs {cost} "
                f"({_title(data, pool['rule'])})"
            )
    return None


def _named(spec: dict, kind: Any) -> dict[str, Any]:
    if not isinstance(kind, str) or kind not in spec["by_kind"]:
        kinds = ", ".join(spec["by_kind"])
        raise InputError("action.kind", f"must be one of the turn's actions: {kinds} (got {declared.shown(kind)})")
    return spec["by_kind"][kind]


def entered(data: SystemData, kind: Any) -> str | None:
    """The state taking the action `kind` puts its taker in (`enters`: segments' Flee → fled), if any."""
    spec = declaration(data)
    act = (spec or {}).get("by_kind", {}).get(kind) if isinstance(kind, str) else None
    return (act or {}).get("enters")


def _taken(
    fight: dict, record: dict, act: Mapping[str, Any], data: SystemData, face: int | None = None
) -> dict[str, Any]:
    """The fight with `act` taken once more (and held past the turn when it lasts, with the face of
    its roll, `face`; what it costs of a round pool counted on its combatant by its fight rules,
    `round_spend`)."""
    actions = {**record["actions"], act["kind"]: record["actions"].get(act["kind"], 0) + 1}
    out = {**fight, "spent": {**record, "actions": actions}}
    spec = declaration(data) or {"pools": []}
    for pool in spec["pools"]:
        n = act["cost"].get(pool["id"], 0)
        if pool.get("per") == "round" and n:
            rules = systems.engine(data.id).FIGHT
            out["combatants"] = [
                rules.round_spend(x, pool, n, data) if x["id"] == record["id"] else x for x in out["combatants"]
            ]
    if act.get("lasts") == "next-turn":
        mine = dict((fight.get("held") or {}).get(record["id"], {}))
        mine[act["kind"]] = _one_more(mine.get(act["kind"]), face)
        out["held"] = {**(fight.get("held") or {}), record["id"]: mine}
    return out


def _one_more(before: int | list[int] | None, face: int | None) -> int | list[int]:
    """A held action taken once more: the faces of its rolls while every taking carried one (`die`:
    action-points' defense roll), else only the count."""
    if face is not None and (before is None or isinstance(before, list)):
        return [*(before or []), face]
    return times(before) + 1


def times(held: int | list[int] | None) -> int:
    """How many times a held action was taken (a list: the face of each taking's roll)."""
    return len(held) if isinstance(held, list) else int(held or 0)


def _face(a: Mapping[str, Any], sent: Any) -> int | None:
    """The face of the roll the action carries (`die`: action-points' defense roll), checked as
    every face is; None: it declares none, or none was sent (then only its taking is held)."""
    typed = sent.strip() if isinstance(sent, str) else sent
    if typed in (None, ""):
        return None
    if a.get("die") is None:
        raise InputError("action.roll", f"{a['label']} rolls no die")
    if isinstance(typed, str) and typed.isdigit() and typed.isascii():
        typed = int(typed)
    if isinstance(typed, bool) or not isinstance(typed, int) or not 1 <= typed <= a["die"]:
        raise InputError(
            "action.roll", f"must be a face of the d{a['die']}, 1 to {a['die']} (got {declared.shown(sent)})"
        )
    return typed


def _own_turn(fight: Mapping[str, Any], who: str, c: Mapping[str, Any], data: SystemData) -> None:
    ident = acting(fight)
    if ident != who:
        spec = declaration(data) or {}
        now = next((x["name"] for x in fight["combatants"] if x["id"] == ident), None)
        when = f"it is {now}'s turn" if now else "no turn is running"
        raise InputError("action.id", f"{when}: {c['name']} acts on its own turn ({_title(data, spec['rule'])})")


def act(fight: dict, c: Mapping[str, Any], kind: Any, data: SystemData, roll: Any = None) -> tuple[dict, list[dict]]:
    """`c` takes a non-attack action of its turn (a move, a defense, a spell's progress); `roll`: the
    face of the die the action rolls (`die`: action-points' defense roll), held with it."""
    spec = declaration(data)
    if spec is None:
        raise InputError("action.type", f"{data.name}'s tracker declares no turn actions")
    _own_turn(fight, c["id"], c, data)
    c = as_turn(fight, c)
    a = _named(spec, kind)
    if a.get("attacks"):
        raise InputError("action.kind", f"{a['label']} is an attack: resolve it with an attack ({a['kind']})")
    if a.get("by"):
        raise InputError("action.kind", f"{a['label']} is taken with the {a['by']} action, on the one it is for")
    return _pay(fight, data, spec, c, a, roll)


def charged(fight: dict, kind: str, data: SystemData) -> tuple[dict, list[dict]]:
    """The fight with the acting combatant paying for the tracker's `kind` action (a turn action
    declared `by: kind`: action-points' stabilize, a slow action), and what it says; unchanged when
    no turn runs or none is declared. Refused, naming the rule, when its turn cannot pay."""
    spec = declaration(data)
    ident = acting(fight)
    a = next((x for x in (spec or {}).get("actions", []) if x.get("by") == kind), None)
    if spec is None or ident is None or a is None:
        return fight, []
    c = as_turn(fight, next(x for x in fight["combatants"] if x["id"] == ident))
    return _pay(fight, data, spec, c, a)


def _pay(
    fight: dict, data: SystemData, spec: dict, c: Mapping[str, Any], a: Mapping[str, Any], roll: Any = None
) -> tuple[dict, list[dict]]:
    """`c` takes the non-attack action `a` on its turn (its `die`'s face `roll`, if sent): refused
    naming the rule when its turn cannot pay (before the roll is read), else the fight with it paid
    and the step saying so."""
    record = current(fight)
    assert record is not None
    phase = phase_of(fight)
    why = refusal(data, c, spec, record, a["kind"], phase)
    if why:
        raise InputError("action.kind", why)
    face = _face(a, roll)
    out = _taken(fight, record, a, data, face)
    rule = data.rule(a["rule"])
    left = left_text(data, c, out["spent"], phase)
    rolled = "" if face is None else f", rolling {face} on the d{a['die']}"
    said = f"{c['name']} takes {a['label']}{_cost_text(spec, a)}{rolled}{': ' + left if left else ''}."
    return out, [{"rule": a["rule"], "title": rule["title"], "url": rule.get("url", ""), "text": said}]


def _cost_text(spec: dict, a: Mapping[str, Any]) -> str:
    labels = {p["id"]: p["label"] for p in spec["pools"]}
    parts = [f"{n} {labels[p]}" for p, n in a["cost"].items() if n]
    return f" ({', '.join(parts)})" if parts else ""


def for_attack(fight: dict, c: Mapping[str, Any], kind: Any, data: SystemData) -> tuple[dict, dict, int] | None:
    """The action `c`'s next attack is made under and its place: (the fight with that action taken
    if a new one is needed, the action's declaration, how many attacks of it were made before this
    turn) — or None when no economy counts (no round running, or none declared). Refused, naming
    the rule, when the turn allows no such attack."""
    spec = declaration(data)
    if spec is None or acting(fight) is None:
        return None
    _own_turn(fight, c["id"], c, data)
    c = as_turn(fight, c)
    record = current(fight)
    assert record is not None
    phase = phase_of(fight)
    if kind in (None, ""):
        a = _next_kind(data, c, spec, record, phase)
    else:
        a = _named(spec, kind)
        if not a.get("attacks"):
            raise InputError("action.kind", f"{a['label']} makes no attack: take it with the act action")
    n = record["attacks"].get(a["kind"], 0)
    out = fight
    if _open(data, c, spec, record, a["kind"]) <= 0:
        why = refusal(data, c, spec, record, a["kind"], phase)
        if why:
            raise InputError("action.kind", why)
        if not gives(data, c, a):
            raise InputError("action.kind", f"{c['name']} makes no attack with {a['label']} (its values give none)")
        out = _taken(fight, record, a, data)
    return out, a, n


def _next_kind(
    data: SystemData, c: Mapping[str, Any], spec: dict, record: Mapping[str, Any], phase: str | None = None
) -> dict[str, Any]:
    """With no kind named: an attack still open from an action taken, else the next attack the
    fighter values plan that is not made yet (of those the turn's `phase` allows); past the plan,
    the refusal names what is left."""
    for kind in record["actions"]:
        if spec["by_kind"][kind].get("attacks") and _open(data, c, spec, record, kind) > 0:
            return spec["by_kind"][kind]
    if not any(a.get("attacks") and _here(a, phase) for a in spec["actions"]):
        where = dict.fromkeys(p for a in spec["actions"] if a.get("attacks") for p in a.get("phases") or ())
        named = " or ".join(_phase_name(data, p) for p in where)
        raise InputError(
            "action.kind",
            f"{c['name']}'s turn in {_phase_name(data, phase)} gives no attack: attacks are made in {named} "
            f"({_title(data, spec['rule'])})",
        )
    made = dict(record["attacks"])
    planned = [k for k in plan(data, c) if _here(spec["by_kind"][k], phase)]
    for kind in planned:
        if made.get(kind, 0) > 0:
            made[kind] -= 1
            continue
        return spec["by_kind"][kind]
    counted = {k: planned.count(k) for k in dict.fromkeys(planned)}
    shown = ", ".join(f"{n} × {spec['by_kind'][k]['label']}" for k, n in counted.items()) or "no attack"
    allowed = [
        a["kind"] for a in spec["actions"] if a.get("attacks") and not refusal(data, c, spec, record, a["kind"], phase)
    ]
    more = f"; name another attack (kind: {', '.join(allowed)})" if allowed else ""
    left = left_text(data, c, record, phase) or "nothing left"
    raise InputError(
        "action.kind",
        f"{c['name']} has made the attacks its turn plans ({shown}): {left}{more} ({_title(data, spec['rule'])})",
    )


def next_attack(fight: Mapping[str, Any], data: SystemData) -> tuple[dict[str, Any], int] | None:
    """The acting combatant's next attack as a Resolve with no kind makes it: (its turn action's
    declaration, the attacks of it made before this turn), for the odds' dice (None: no economy
    counts, or the turn allows no more)."""
    spec = declaration(data)
    record = current(fight)
    if spec is None or record is None:
        return None
    c = as_turn(fight, next(x for x in fight["combatants"] if x["id"] == record["id"]))
    try:
        a = _next_kind(data, c, spec, record, phase_of(fight))
    except InputError:
        return None
    return a, record["attacks"].get(a["kind"], 0)


def attacked(fight: dict, a: Mapping[str, Any], target: str) -> dict[str, Any]:
    """The fight with one attack of `a` made this turn on `target`."""
    record = current(fight)
    if record is None:
        return fight
    attacks = {**record["attacks"], a["kind"]: record["attacks"].get(a["kind"], 0) + 1}
    return {**fight, "spent": {**record, "attacks": attacks, "target": target}}


def left_text(data: SystemData, c: Mapping[str, Any], record: Mapping[str, Any], phase: str | None = None) -> str:
    """What the turn still holds, in words: "1 AP left", "1 attack left, 1 Secondary Action left"
    (`phase`: the turn's phase, whose actions' pools alone are named)."""
    spec = declaration(data)
    if spec is None:
        return ""
    left = _left(spec, record, _round_pools(data, c, spec))
    attacks = sum(_open(data, c, spec, record, k) for k in record["actions"] if spec["by_kind"][k].get("attacks"))
    parts = [f"{attacks} attack{'s' * (attacks != 1)} left"] if attacks else []
    parts += [f"{left[p['id']]} {p['label']} left" for p in _pools_here(spec, phase)]
    return ", ".join(parts)


def _pools_here(spec: dict, phase: str | None) -> list[dict[str, Any]]:
    """The pools a turn of `phase` spends: those its actions cost (every pool where no action is
    bound to phases)."""
    if not any(a.get("phases") for a in spec["actions"]):
        return list(spec["pools"])
    used = {pool for a in spec["actions"] if _here(a, phase) for pool, n in a["cost"].items() if n}
    return [p for p in spec["pools"] if p["id"] in used]


def view(fight: Mapping[str, Any], data: SystemData, standing: Mapping[str, bool]) -> dict[str, Any] | None:
    """The acting combatant's turn for the page (the view's `actions`), None when no turn runs or
    the system declares none: `{"id", "left": [{"pool", "label", "amount", "left"}], "text",
    "attacks_left", "next": kind | None (a Resolve with no kind), "done": nothing allowed is left
    that can change the fight (`_changes_the_fight`), "target": last target while it
    stands | None, "actions": [{"kind", "label", "cost", "attack", "taken", "allowed", "why",
    "rule", "url"}], "held": [{"id", "kind", "label"}]}`. `standing`: whether each id still acts."""
    spec = declaration(data)
    record = current(fight)
    if spec is None or record is None:
        return None
    c = as_turn(fight, next(x for x in fight["combatants"] if x["id"] == record["id"]))
    rounds = _round_pools(data, c, spec)
    left = _left(spec, record, rounds)
    phase = phase_of(fight)
    try:
        nxt: str | None = _next_kind(data, c, spec, record, phase)["kind"]
        if _open(data, c, spec, record, nxt) <= 0 and refusal(data, c, spec, record, nxt, phase):
            nxt = None
    except InputError:
        nxt = None
    rows = []
    for a in spec["actions"]:
        if not _here(a, phase):
            continue  # another phase's action: not offered in this turn
        why = (
            ""
            if a.get("attacks") and _open(data, c, spec, record, a["kind"]) > 0
            else refusal(data, c, spec, record, a["kind"], phase)
        )
        rule = data.rule(a["rule"])
        rows.append(
            {
                "kind": a["kind"],
                "label": a["label"],
                "cost": a["cost"],
                "attack": bool(a.get("attacks")),
                "taken": record["actions"].get(a["kind"], 0),
                "allowed": not why,
                "why": why or "",
                "rule": a["rule"],
                "url": rule.get("url", ""),
            }
        )
    aim = record["target"]
    held = _held_rows(fight, data, spec)
    return {
        "id": c["id"],
        "left": [
            {
                "pool": p["id"],
                "label": p["label"],
                "amount": rounds.get(p["id"], (p["amount"],))[0],
                "left": left[p["id"]],
            }
            for p in _pools_here(spec, phase)
        ],
        "text": left_text(data, c, record, phase),
        "attacks_left": sum(
            _open(data, c, spec, record, k) for k in record["actions"] if spec["by_kind"][k].get("attacks")
        ),
        "next": nxt,
        "done": not any(r["allowed"] and _changes_the_fight(spec["by_kind"][r["kind"]]) for r in rows),
        "target": aim if aim is not None and standing.get(aim) else None,
        "actions": rows,
        "held": held,
        "roll": _kept_face(fight, data, c)
        if any(a.get("attacks") and _here(a, phase) for a in spec["actions"])
        else None,
    }


def _changes_the_fight(act: Mapping[str, Any]) -> bool:
    """Whether taking `act` can change the fight: an attack, what lasts past the turn (a defense
    held), a state entered, a reserve or a spell's progress. A move or a free action does not, so a
    turn whose allowed actions are only those is done (the page moves on after its last attack)."""
    return bool(
        act.get("attacks")
        or act.get("lasts")
        or act.get("enters")
        or act.get("gives") in ("defense", "reserve", "spell")
    )


def _held_rows(fight: Mapping[str, Any], data: SystemData, spec: dict) -> list[dict[str, Any]]:
    """The actions each combatant holds until its next turn, for the page, each with what it does
    to the holder as a target under the fight's rulings (`fighter.holding`: "Standard defense held:
    AC or SR 16 until Ann's next turn")."""
    options = rulings.typed_options(data, fight.get("options") or {})
    labels = {d["name"]: d.get("label", d["name"]) for d in fighter.carried(data)}
    labels |= {d["input"]: d.get("card_label", d["label"]) for d in tracker(data).get("defenses") or []}  # the card's
    rows = []
    for ident, kinds in (fight.get("held") or {}).items():
        c = next((x for x in fight["combatants"] if x["id"] == ident), None)
        if c is None:
            continue
        after = fighter.holding(fight, c, data, options)
        changed = [f"{labels.get(k, k)} {v}" for k, v in after["values"].items() if c["values"].get(k) != v]
        for kind, taken in kinds.items():
            if kind not in spec["by_kind"]:
                continue
            a = spec["by_kind"][kind]
            what = f": {', '.join(changed)}" if changed else ""
            unrolled = " (no roll given: nothing raised)" if a.get("die") and not isinstance(taken, list) else ""
            text = f"{a['label']} held{what} until {c['name']}'s next turn{unrolled}"
            faces = taken if isinstance(taken, list) else []
            rows.append({"id": ident, "kind": kind, "label": a["label"], "rolls": faces, "text": text})
    return rows


def _kept_face(fight: Mapping[str, Any], data: SystemData, c: Mapping[str, Any]) -> int | None:
    """The face of the kept roll that is the turn's attack roll (`turn_roll`), None: none."""
    try:
        kept = turn_roll(fight, data, c, None)
    except InputError:
        return None
    return None if kept is None else kept[0]


# --- the state's fields, checked on every request -------------------------------------------------


def checked_spent(raw: Any, data: SystemData, people: list[dict[str, Any]]) -> dict | None:
    """A saved `spent`: `{round, turn, id, actions: {kind: n}, attacks: {kind: n}, target}`, every
    kind the data's, within the turn's pools and the attacks its actions give (a state no turn
    reaches is refused)."""
    if raw is None:
        return None
    spec = declaration(data)
    if spec is None:
        raise InputError("spent", f"{data.name} counts no turn actions: a fight of it spends none")
    if not isinstance(raw, Mapping):
        raise InputError("spent", "must be what the acting combatant spent this turn, or null")
    by_id = {c["id"]: c for c in people}
    ident = raw.get("id")
    if not isinstance(ident, str) or ident not in by_id:
        raise InputError("spent.id", "names no combatant of the fight")
    out: dict[str, Any] = {"id": ident}
    for key in ("round", "turn"):
        value = raw.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 10**6:
            raise InputError(f"spent.{key}", f"must be a whole number (got {declared.shown(value)})")
        out[key] = value
    for key in ("actions", "attacks"):
        out[key] = _counts(raw.get(key), f"spent.{key}", spec)
    target = raw.get("target")
    if target is not None and (not isinstance(target, str) or target not in by_id):
        raise InputError("spent.target", "names no combatant of the fight")
    out["target"] = target
    c = by_id[ident]
    for pool, n in _left(spec, out).items():
        if n < 0:
            raise InputError("spent.actions", f"spends more {pool} than a turn has")
    for kind, times in out["actions"].items():
        a = spec["by_kind"][kind]
        if a["limit"] is not None and times > a["limit"]:
            raise InputError(f"spent.actions.{kind}", f"{a['label']}: at most {a['limit']} a turn")
    for kind in out["attacks"]:
        if _open(data, c, spec, out, kind) < 0:
            raise InputError(f"spent.attacks.{kind}", "counts more attacks than the actions taken give")
    return out


def _counts(raw: Any, where: str, spec: dict) -> dict[str, int]:
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise InputError(where, "must be an object of the turn's action kinds to counts")
    out = {}
    for kind, n in raw.items():
        if kind not in spec["by_kind"]:
            raise InputError(
                where, f"{declared.shown(kind)} is none of the turn's actions ({', '.join(spec['by_kind'])})"
            )
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= TIMES_MAX:
            raise InputError(
                f"{where}.{kind}", f"must be a whole number from 0 to {TIMES_MAX} (got {declared.shown(n)})"
            )
        if n:
            out[kind] = n
    return out


def checked_held(raw: Any, data: SystemData, people: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """A saved `held`: by combatant id, the actions it holds until its next turn (kinds that last)."""
    if raw is None or raw == {}:
        return {}
    spec = declaration(data)
    if spec is None or not isinstance(raw, Mapping):
        raise InputError("held", "must be an object of combatant ids to the actions each holds")
    lasting = {k: a for k, a in spec["by_kind"].items() if a.get("lasts")}
    ids = {c["id"] for c in people}
    out = {}
    for ident, kinds in raw.items():
        if ident not in ids:
            raise InputError("held", f"{declared.shown(ident)} names no combatant of the fight")
        where = f"held.{ident}"
        rolled = {k: v for k, v in kinds.items() if isinstance(v, list)} if isinstance(kinds, Mapping) else {}
        counts: dict[str, Any] = _counts(
            {k: v for k, v in kinds.items() if k not in rolled} if rolled else kinds, where, {"by_kind": lasting}
        )
        for kind, faces in rolled.items():
            counts[kind] = _faces(faces, f"{where}.{kind}", lasting.get(kind))
        if counts:
            out[ident] = counts
    return out


def _faces(raw: list[Any], where: str, act: Mapping[str, Any] | None) -> list[int]:
    """A held action's faces of its roll, one a taking (`die`), each a face of that die."""
    if act is None or act.get("die") is None:
        raise InputError(where, "must be a count: this action holds no roll")
    if not 1 <= len(raw) <= TIMES_MAX:
        raise InputError(where, f"must hold 1 to {TIMES_MAX} faces, one a taking")
    for face in raw:
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= act["die"]:
            raise InputError(
                where, f"must be faces of the d{act['die']}, 1 to {act['die']} (got {declared.shown(face)})"
            )
    return list(raw)
