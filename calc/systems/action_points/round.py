"""The round calculator: how a turn's AP are spent on attacks (standard, quick, power, charge;
each priced by its action type), each attack's whole damage (misses as 0, criticals, miss chance,
weakness and resistance) from the damage calculator, summed into the turn; then rounds until the
target falls below 0 hit points (unconscious, dying) and until it reaches the dead threshold. A
dying target's own failed Constitution checks count towards death under the ruling (a chain over
the damage taken, each round the attacks then the check); the other reading counts only the
attacks."""

from __future__ import annotations

from typing import Any

from calc.answers import first_attack, round_answer
from calc.chains import rounds
from calc.chains.reached import Reached
from calc.chains.state_chain import StateChain
from calc.chains.track import Threshold, track
from calc.errors import InputError
from calc.inputs import declared
from calc.inputs.data import SystemData
from calc.numbers import dice
from calc.numbers.dist import Dist
from calc.systems.action_points.attack import attack_dist, attack_summary, damage_parts
from calc.systems.action_points.round_wounds import AttackAt, wounded_round
from calc.turns import party

STYLES = {"standard": "standard-attack", "quick": "quick-attack", "power": "power-attack", "charge": "charge"}


def turn_plan(inputs: dict[str, Any], data: SystemData, at: int) -> tuple[list[tuple[str, str, str, int, int]], int]:
    """One attacker's turn: [(style, rule, action type, AP each, how many)] and the AP spent,
    within the turn's AP (an error names the attacker's input at fault)."""
    budget = data.fact("action-points-per-turn", "ap_gained")
    plan, spent = [], 0
    for style, rule in STYLES.items():
        kind = data.fact(rule, "action_type")
        cost = data.fact("action-types", f"{kind}_ap")
        plan.append((style, rule, kind, cost, inputs[style]))
        spent += cost * inputs[style]
    if spent > budget:
        worst = max((s for s in plan if s[4]), key=lambda s: s[3])
        shown = ", ".join(f"{n} {style} ({cost} AP)" for style, _, _, cost, n in plan if n)
        raise InputError(party.where(inputs, at, worst[0]), f"{shown} cost {spent} AP: a turn has only {budget} AP")
    if not spent:
        raise InputError(party.where(inputs, at, "standard"), "choose at least one attack for the turn")
    return plan, spent


def whole_round(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    budget = data.fact("action-points-per-turn", "ap_gained")
    decl = data.calculator("damage")["inputs"]
    own = {d["name"] for d in decl}
    attacks: list[AttackAt] = []  # every attack of the round, in order: its damage against the target's wounds
    made: dict[tuple, tuple[Any, AttackAt]] = {}
    steps = []
    for at, attacker in enumerate(party.each(inputs), start=1):
        plan, spent = turn_plan(attacker, data, at)
        who = party.who(inputs, at)
        steps.append(
            data.step("action-points-per-turn", f"{who}A turn has {budget} AP; the attacks chosen spend {spent}.")
        )
        for style, rule, kind, cost, n in plan:
            if not n:
                continue
            asked = {k: attacker[k] for k in own & set(attacker)} | {"attack": style, "outcome": "attack"}
            key = tuple(sorted(asked.items()))
            if key not in made:  # attackers alike (four orcs) share their attacks' work
                typed = declared.validate(decl, asked)
                attack, regular, critical, _, _ = damage_parts(typed, data)  # the damage calculator's pieces
                made[key] = (attack, AttackAt(typed, attack_dist(attack, regular, critical), data, (regular, critical)))
            attack, at = made[key]
            one = at.base
            attacks += [at] * n
            steps.append(data.step("action-types", f"{who}{n} × {style} attack: a {kind} action, {cost} AP each."))
            summary = attack_summary(one, attack.outcomes.hit)
            steps.append(data.step(rule, f"{who}{style.capitalize()} attack: {summary}."))
    label = "Damage per round" if inputs["attackers"] else "Damage per turn"
    hp = inputs["target_hp"]
    below = data.fact("dying", "dying_below")
    dead = data.fact("dead", "dead_at")
    out_at, dead_at = hp - below + 1, hp - dead  # damage taken to fall below 0, to reach the dead threshold
    steps.append(data.step("dying", f"Below {below} hit points the target is unconscious and dying."))
    counted = inputs["dying_checks"] == "counted"
    if not counted:
        steps.append(
            data.step(
                "ruling:round-dying-checks",
                f"Other reading: dead at {dead} counting only these attacks, not the target's failed dying checks.",
            )
        )
    if inputs["wounds_rule"]:
        per_round, reached = wounded_round(attacks, out_at, dead_at, inputs, data, steps)
    else:
        most = sum(a.base.max for a in attacks)
        party.track_bounded(len(attacks), most, dead_at, party.whole(inputs, "target_hp"))
        per_round = rounds.round_total(a.base for a in attacks)
        if counted:
            reached = _with_checks(per_round, out_at, dead_at, inputs, data, steps)
        else:
            thresholds = [Threshold("Unconscious", out_at), Threshold("Dead", dead_at)]
            reached = track(per_round, thresholds)
    return round_answer.answer(per_round, reached, f"knock out a {hp}-HP foe", steps, label)


def _with_checks(
    per_round: Dist, out_at: int, dead_at: int, inputs: dict[str, Any], data: SystemData, steps: list
) -> list[Reached]:
    """The chain over damage taken (capped at death): each round the turn's attacks, then, if the
    target is below 0, its Constitution check: d20 + Constitution against 15 + its negative hit
    points, a failure costing 1 more."""
    die = dice.parse(data.fact("dying", "check_die")).dist()
    base = data.fact("dying", "check_dc_base")
    loss = data.fact("dying", "failed_check_damage")
    con = inputs["target_con"]
    hp = inputs["target_hp"]
    below = data.fact("dying", "dying_below")
    steps.append(
        data.step(
            "ruling:round-dying-checks",
            f"Each round, after the attacks, a dying target makes a Constitution check "
            f"({data.fact('dying', 'check_die')} {con:+d} against {base} + its negative hit points); "
            f"a failure costs {loss} more, until it reaches the dead threshold.",
        )
    )
    attack = list(per_round.weights())
    faces = die.total
    check = list(die.weights())
    # the check die's faces that fail at each damage taken below 0 (integer weights over `faces`)
    failing = {
        taken: sum(w for face, w in check if face + con < base + (below - (hp - taken)))  # DC: 15 + negative HP
        for taken in range(out_at, dead_at)
    }

    def step(taken: int) -> list[tuple[int, int]]:
        out: dict[int, int] = {}  # merged by next state: the chain's fast path
        for x, w in attack:
            now = min(dead_at, taken + x)
            if out_at <= now < dead_at:
                f = failing[now]
                after = min(dead_at, now + loss)
                out[after] = out.get(after, 0) + w * f
                out[now] = out.get(now, 0) + w * (faces - f)
            else:
                out[now] = out.get(now, 0) + w * faces
        return [(w, t) for t, w in out.items()]

    chain = StateChain(0, step, total=per_round.total * faces)
    return chain.reach_all([("Unconscious", lambda t: t >= out_at), ("Dead", lambda t: t >= dead_at)])


def _first_style(attacker: dict[str, Any]) -> str:
    return next((s for s in STYLES if attacker[s]), "standard")


def one_attack(attacker: dict[str, Any]) -> dict[str, Any]:
    """The attacker's turn cut to its first attack (the first style it makes: standard, quick,
    power, charge)."""
    return attack_as(attacker, _first_style(attacker))


def attack_as(attacker: dict[str, Any], style: str) -> dict[str, Any]:
    """The attacker's turn cut to one attack of `style` (the tracker's n-th attack of a turn)."""
    return attacker | {s: int(s == style) for s in STYLES}


def hit_extra(attacker: dict[str, Any]) -> dict[str, Any]:
    """The hit calculator's attack style is that first attack's."""
    return {"attack": _first_style(attacker)}


round_ = first_attack.calculator(whole_round, one_attack, hit_extra)
"""The whole round's answer with the attack at hand (`first_attack`: calc/answers/first_attack.py)."""
