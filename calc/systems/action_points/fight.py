"""Action Points' fight: below 0 hit points a combatant is unconscious and dying, and at −10
dead (the data's `tracker.states`). Each round while dying it makes a Constitution check (1d20 +
Constitution, a ruling: the text names no die) against DC 15 + the hit points below 0; a failure
costs 1 more hit point. Another creature's slow action stabilizes it: the checks stop, it stays
unconscious ("Stable") until healed to 0 or more. Damage to a stable combatant starts the dying
again (a ruling of the tracker: the text is silent). Nobody dying, stable or dead acts.
A standard or quick defense held until the holder's next turn raises its AC and SR as a target by
the defense calculator's own code (`holding`)."""

from __future__ import annotations

from typing import Any

from calc.answers.format import signed
from calc.errors import InputError
from calc.fight.hit_points import HitPointRules
from calc.inputs import declared
from calc.inputs.data import SystemData
from calc.systems.action_points.attack import resolve_attack
from calc.systems.action_points.defense import raised
from calc.systems.action_points.dying import dc_at, passes
from calc.turns.helpers import die, tracker

DYING = "Dying"
STABLE = "Stable"


class DyingRules(HitPointRules):
    def check_extra(self, raw: Any, where: str, data: SystemData) -> dict[str, Any]:
        stable = raw.get("stable", False)
        if not isinstance(stable, bool):
            raise InputError(f"{where}.stable", "must be true or false")
        return {"stable": stable}

    def fresh(self, c: dict[str, Any]) -> dict[str, Any]:
        return {**super().fresh(c), "stable": False}

    def shown_extra(self, c: dict[str, Any], data: SystemData, options: dict[str, Any]) -> dict[str, Any]:
        dying = self._dying(c, data, options)
        return {"stable": c["stable"], "dying_dc": dc_at(c["hp"], data) if dying and not c["stable"] else None}

    def _dying(self, c: dict[str, Any], data: SystemData, options: dict[str, Any]) -> bool:
        return super().health(c, data, options)["state"] == DYING

    def health(self, c: dict[str, Any], data: SystemData, options: dict[str, Any]) -> dict[str, Any]:
        h = super().health(c, data, options)
        if h["state"] == DYING and c["stable"]:
            return {**h, "state": STABLE}
        return h

    def damage(
        self, c: dict[str, Any], amount: int, data: SystemData, options: dict[str, Any], critical: bool, round_no: int
    ) -> tuple[dict[str, Any], list[dict]]:
        after, steps = super().damage(c, amount, data, options, critical, round_no)
        return {**after, "stable": False}, steps

    def heal(
        self, c: dict[str, Any], amount: int, data: SystemData, options: dict[str, Any]
    ) -> tuple[dict[str, Any], list[dict]]:
        after, steps = super().heal(c, amount, data, options)
        return {**after, "stable": after["stable"] and self._dying(after, data, options)}, steps

    def round_dice(self, c: dict[str, Any], data: SystemData, options: dict[str, Any]) -> list[dict]:
        if c["stable"] or not self._dying(c, data, options):
            return []
        sides = data.die_sides("dying", "check_die")
        con = c["values"]["constitution"]
        label = f"{c['name']}: dying check, d{sides} {signed(con)} against DC {dc_at(c['hp'], data)}"
        return [die(data, f"dying:{c['id']}", sides, label, "dying")]

    def start_round(
        self, c: dict[str, Any], rolls: dict[str, int], round_no: int, data: SystemData, options: dict[str, Any]
    ) -> tuple[dict[str, Any], list[dict]]:
        key = f"dying:{c['id']}"
        if c["stable"] or not self._dying(c, data, options) or key not in rolls:
            return c, []
        face, con, dc = rolls[key], c["values"]["constitution"], dc_at(c["hp"], data)
        meets = options["dc_ties"] == "meets"
        if passes(face + con, dc, meets):
            text = f"{c['name']}'s dying check: {face} {signed(con)} = {face + con} against DC {dc}: passed."
            return c, [data.step("dying", text)]
        loss = data.fact("dying", "failed_check_damage")
        after = {**c, "hp": max(self.floor(c, data, options), c["hp"] - loss)}
        text = f"{c['name']}'s dying check: {face} {signed(con)} = {face + con} against DC {dc}: failed, {loss} damage."
        steps = [data.step("dying", text)]
        if face + con == dc:
            steps.append(data.step("ruling:ability-check-dc", "A check equal to the DC fails (other reading)."))
        now = self.health(after, data, options)
        if now["state"] != DYING:
            steps.append(data.step(now["rule"], f"{c['name']} is {now['state'].lower()} at {after['hp']} hit points."))
        return after, steps

    def holding(
        self, c: dict[str, Any], held: dict[str, Any], data: SystemData, options: dict[str, Any]
    ) -> dict[str, Any]:
        """`c`'s AC or SR (`defense`) while it holds a standard or quick defense: each raise (+4, +2)
        capped by its defense roll (the face held + its attack roll bonus: the text's attack roll
        with its melee weapon) under the fight's ruling (`cap_reading`), by the defense calculator's
        `raised`. A quick defense counts once (it stacks with standard, not with itself: its best
        roll); a defense held without its roll raises nothing (its cap is unknown)."""
        acts = {a["kind"]: a for a in tracker(data)["turn"]["actions"]}
        best: dict[str, int] = {}
        for kind, faces in held.items():
            if isinstance(faces, list) and acts.get(kind, {}).get("gives") == "defense":
                rule = str(acts[kind]["rule"])
                best[rule] = max(best.get(rule, 0), *faces)
        if not best:
            return c
        decls = {d["name"]: d for d in data.calculator("defense")["inputs"]}
        reading = options.get("cap_reading", declared.value(decls["cap_reading"], None, "cap_reading"))
        ac = int(c["values"].get("defense", declared.value(decls["defense"], None, "defense")))
        bonus = _roll_bonus(c, data)
        rules = sorted(best)
        now = raised(
            ac,
            tuple(best[r] + bonus for r in rules),
            tuple(int(data.fact(r, "defense_bonus")) for r in rules),
            reading == "own_roll",
        )
        return {**c, "values": {**c["values"], "defense": now}}

    def special(self, action: dict[str, Any], c: dict[str, Any], data: SystemData, options: dict) -> dict[str, Any]:
        if action.get("type") != "stabilize":
            return super().special(action, c, data, options)
        if not self._dying(c, data, options):
            raise InputError("action.id", f"{c['name']} is not dying: only the dying are stabilized")
        return {**c, "stable": True}


def _roll_bonus(c: dict[str, Any], data: SystemData) -> int:
    """What the holder adds to its defense roll: its attack roll's bonus with its own values (the
    hit calculator's engine; a Strength it does not give is the fighter's neutral 0)."""
    decls = data.calculator("hit")["inputs"]
    neutral = (tracker(data).get("fighter") or {}).get("neutral") or {}
    given = {d["name"]: c["values"].get(d["name"], neutral.get(d["name"])) for d in decls}
    typed = declared.validate(decls, {k: v for k, v in given.items() if v is not None})
    return resolve_attack(typed, data).bonus


FIGHT = DyingRules()
