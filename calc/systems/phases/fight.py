"""Phases' fight: Hit Points down to 0, then Wounds. Damage that takes a combatant below 0 Hit
Points leaves it at 0 and gives a Wound read on the wound table (`wounds.wound_row`: the damage
below 0 less the armour's wound protection under the ruling, the whole blow under the other
reading); a character whom such a blow hits for (at least, by the ruling) its maximum Hit Points
dies instead. A monster or NPC carries half its Hit Dice in Wounds (at least one, each Wound
counting one by the ruling, its Severity by the other reading) and dies at the next; a
character dies when its Wounds' Severity fills its free inventory slots. A Wound of the table's
knock-out row leaves it Unconscious. A natural 20 adds a Wound that lasts until the end of the
next round (counted while it lasts by the ruling, not at all by the other reading).

A monster's first Wound calls for a morale roll at the start of the next round: the optional
morale die becomes due then. The roll, once for all, puts every combatant with a Morale score it
beats (`ruling:morale-above`) in the declared Fled state (`tracker.fled`): out of the round's
order and the targets until the GM brings it back (`return`).

A round runs in phases: each combatant declares whether it moves and which one action it takes
(melee or other, ranged, spell, none), kept from round to round (a melee attack, no move, in the
first), and rolls only in the phases it acts in."""

from __future__ import annotations

from typing import Any

from calc.errors import InputError
from calc.fight import economy
from calc.fight.hit_points import HitPointRules, fled_state
from calc.inputs.data import SystemData
from calc.systems.phases.attack_roll import row_by
from calc.systems.phases.monster_wounds import wound_capacity
from calc.systems.phases.order import flees
from calc.systems.phases.wounds import wound_row

ACTIONS = {
    "melee": ("melee",),
    "ranged": ("ranged",),
    "spell": ("declare-spells", "spells"),
    "none": (),
}
"""A declared action → the phases (ids of the data's `phases` table) it acts in: a spell is
declared in its phase and cast in the spells phase; melee covers everything else."""
ACTION_LABELS = {"melee": "Melee attack", "ranged": "Missile attack", "spell": "Spell", "none": "No action"}
"""How the card names each declared action."""
MOVE_PHASE = "movement"
FIRST_DECLARATION = {"move": False, "action": "melee"}
"""Round 1's declaration (the issue's default: a melee attack, or the attack the fighter's values
name: `first_declaration`); later rounds keep the last one."""
KIND_BY_SIDE = {"pc": "character", "foe": "monster"}
"""What `target_kind` a combatant is when it is not given: a PC is a character, a foe a monster."""
DEAD, UNCONSCIOUS, WOUNDED = "Dead", "Unconscious", "Wounded"


class WoundRules(HitPointRules):
    def check_extra(self, raw: Any, where: str, data: SystemData) -> dict[str, Any]:
        wounds = raw.get("wounds") or []
        if not isinstance(wounds, list) or len(wounds) > 40:
            raise InputError(f"{where}.wounds", "must be a list of at most 40 Wounds")
        dead = raw.get("dead", False)
        if not isinstance(dead, bool):
            raise InputError(f"{where}.dead", "must be true or false")
        out: dict[str, Any] = {
            "wounds": [_wound(w, f"{where}.wounds[{i + 1}]", data) for i, w in enumerate(wounds)],
            "dead": dead,
            "declared": _declaration(raw.get("declared"), f"{where}.declared", raw.get("values"), data),
            "first_wound": _round_or_none(raw.get("first_wound"), f"{where}.first_wound"),
            **self.fled_extra(raw, where, data),
        }
        return out

    def side_values(self, side: str) -> dict[str, Any]:
        return {"target_kind": KIND_BY_SIDE[side]}

    def fresh(self, c: dict[str, Any]) -> dict[str, Any]:
        first = {**FIRST_DECLARATION, "action": c.get("declared", FIRST_DECLARATION)["action"]}
        fresh = {"wounds": [], "dead": False, "declared": first, "first_wound": None}
        return {**super().fresh(c), **fresh}

    def standing(self, c: dict[str, Any], data: SystemData) -> dict[str, Any]:
        """The declared action is the attack's type (a declared Missile attack is ranged): the
        inputs of the turn's attack made in that action's phase (`tracker: turn:`)."""
        given = _attack_inputs(data, c["declared"]["action"])
        if all(c["values"].get(k) == v for k, v in given.items()):
            return c
        return {**c, "values": {**c["values"], **given}}

    def _kind(self, c: dict[str, Any]) -> str:
        return str(c["values"]["target_kind"])

    def _counted(self, c: dict[str, Any], options: dict[str, Any]) -> list[dict[str, Any]]:
        return [w for w in c["wounds"] if not w["critical"] or options["critical_wound"] == "counts"]

    def _limit(self, c: dict[str, Any], data: SystemData, options: dict[str, Any]) -> tuple[int, int, str]:
        """(what counts so far, the most that is survived, the rule): a monster survives `limit`
        Wounds (or Severity), a character up to its free slots less one."""
        counted = self._counted(c, options)
        if self._kind(c) == "monster":
            by_severity = options["count_reading"] == "severity"
            used = sum(w["severity"] for w in counted) if by_severity else len(counted)
            return used, wound_capacity(c["values"]["hd"], data), "killing-monsters"
        return sum(w["severity"] for w in counted), c["values"]["free_slots"] - 1, "wounds"

    def health(self, c: dict[str, Any], data: SystemData, options: dict[str, Any]) -> dict[str, Any]:
        counted = self._counted(c, options)
        used, limit, rule = self._limit(c, data, options)
        knockout = data.fact("wounds", "knockout_wound")
        effects = [f"{w['name']} (Severity {w['severity']}{', critical' if w['critical'] else ''})" for w in counted]
        dead = c["dead"] or used > limit
        if not dead:
            fled = self.fled_health(c, data)
            if fled:
                return fled
        if c["dead"]:
            label, rule, acts = DEAD, "instant-death", False
        elif used > limit:
            label, acts = DEAD, False
        elif any(w["name"] == knockout for w in counted):
            label, rule, acts = UNCONSCIOUS, "wounds", False
        elif counted:
            label, rule, acts = WOUNDED, "wounds", True
        else:
            return {"state": "", "rule": "", "title": "", "url": "", "acts": True, "effects": []}
        cited = data.rule(rule)
        return {
            "state": label,
            "rule": rule,
            "title": cited["title"],
            "url": cited["url"],
            "acts": acts,
            "effects": effects,
            **({"final": True} if label == DEAD else {}),  # dead by Wounds or at once: no text brings it back
        }

    def shown_extra(self, c: dict[str, Any], data: SystemData, options: dict[str, Any]) -> dict[str, Any]:
        used, limit, _ = self._limit(c, data, options)
        monster = self._kind(c) == "monster"
        return {
            "kind": self._kind(c),
            "wounds": c["wounds"],
            "dead": c["dead"],
            "declared": c["declared"],
            "wound_limit": limit if monster else None,
            "slots": None if monster else {"used": used, "of": c["values"]["free_slots"]},
            **({"fled": c["fled"]} if "fled" in c else {}),
        }

    def damage(
        self, c: dict[str, Any], amount: int, data: SystemData, options: dict[str, Any], critical: bool, round_no: int
    ) -> tuple[dict[str, Any], list[dict]]:
        if self.health(c, data, options)["state"] == DEAD:
            raise InputError("action.id", f"{c['name']} is dead")
        name, hp = c["name"], c["hp"]
        if amount <= hp and not critical:
            return {**c, "hp": hp - amount}, [data.step("hit-points", f"{name}: {hp} − {amount} = {hp - amount} HP.")]
        armour = row_by(data, "armour-wound-protection", "id", c["values"]["armour"])
        reading = options["wound_damage"]
        row = wound_row(amount, hp, armour["protection"], reading, data)
        steps = []
        wounds = list(c["wounds"])
        after = {**c, "hp": max(0, hp - amount)}
        gains = row is not None or critical
        if gains and self._kind(c) == "character" and _kills(amount, c["max"], options["instant_death"]):
            word = "at least" if options["instant_death"] == "at-least" else "exactly"
            text = f"{name} would take a Wound from {amount} damage, {word} the maximum {c['max']} HP: dies instantly."
            return {**after, "dead": True}, [data.step("instant-death", text)]
        if amount > hp:
            read = amount - hp if reading == "overflow" else amount
            said = f"{name}: {amount} damage at {hp} HP, {amount - hp} below 0; the wound table reads {read}"
            said += f" less {armour['protection']} ({armour['name']})"
            said += f": {row['name']}, Severity {row['severity']}." if row else ": no Wound."
            steps.append(data.step("wounds", said))
            steps.append(
                data.step(
                    "ruling:wound-overflow",
                    "Only the damage below 0 HP is read." if reading == "overflow" else "The whole blow is read.",
                )
            )
            if row:
                wounds.append(_as_wound(row, False, None))
        if critical:
            crit = row_by(data, "wound-severity", "name", data.fact("critical-hits", "critical_wound"))
            until = max(round_no, 1) + 1
            wounds.append(_as_wound(crit, True, until))
            steps.append(
                data.step("critical-hits", f"A natural 20: a {crit['name']} that lasts until the end of round {until}.")
            )
        after = {**after, "wounds": wounds}
        if wounds and not c["wounds"] and c["first_wound"] is None:
            after["first_wound"] = round_no  # a monster's first Wound calls for a morale roll
        now = self.health(after, data, options)
        if now["state"] in (DEAD, UNCONSCIOUS) and now["state"] != self.health(c, data, options)["state"]:
            steps.append(data.step(now["rule"], f"{name} is {now['state'].lower()}."))
        return after, steps

    def start_round(
        self, c: dict[str, Any], rolls: dict[str, int], round_no: int, data: SystemData, options: dict[str, Any]
    ) -> tuple[dict[str, Any], list[dict]]:
        c, steps = self._morale(c, rolls, data, options)
        ended = [w for w in c["wounds"] if w["until"] is not None and w["until"] < round_no]
        if not ended:
            return c, steps
        kept = [w for w in c["wounds"] if w not in ended]
        text = f"{c['name']}'s critical Wound from a natural 20 has ended."
        return {**c, "wounds": kept}, [*steps, data.step("critical-hits", text)]

    def _morale(
        self, c: dict[str, Any], rolls: dict[str, int], data: SystemData, options: dict[str, Any]
    ) -> tuple[dict[str, Any], list[dict]]:
        """The round's morale roll, when rolled (one for all, `morale`): `c` flees when it has a
        Morale score the roll beats (above it by the ruling, equal too by the other reading) and
        is still in the fight (not already fled, down or dead)."""
        spec, score = fled_state(data), c["values"].get("morale", 0)
        if "morale" not in rolls or not spec or not score or c.get("fled"):
            return c, []
        if not self.health(c, data, options)["acts"]:
            return c, []  # the unconscious and the dead do not run
        total, reading = rolls["morale"], options["morale_reading"]
        if not flees(total, score, reading):
            return c, []
        word = "above" if reading == "above" else "equal to or above"
        expr = data.fact("morale", "morale_dice")
        text = f"{c['name']} flees: the morale {expr} shows {total}, {word} its Morale {score} ({spec['label']})."
        return {**c, "fled": True}, [data.step(spec["rule"], text)]

    def due_dice(self, people: list[dict[str, Any]], round_no: int, data: SystemData, options: dict) -> dict:
        """The morale roll is due in round `round_no` when a monster took its first Wound in the
        round before (as the monster_wounds calculator reads the rule: each monster's first).
        The text's other trigger, half the monsters Wounded or incapacitated, adds nothing here:
        a monster is incapacitated only by a Wound, and the Wound that makes it half was a first."""
        firsts = [
            c["name"]
            for c in people
            if c["side"] == "foe" and self._kind(c) == "monster" and c["first_wound"] == round_no - 1
        ]
        if not firsts:
            return {}
        return {"morale": data.step("morale", f"{', '.join(firsts)} took a first Wound: morale is rolled.")}

    def acts_in(self, c: dict[str, Any], data: SystemData) -> list[str] | None:
        known = {row["id"] for row in data.table("phases")}
        d = c["declared"]
        phases = [MOVE_PHASE] if d["move"] else []
        phases += ACTIONS[d["action"]]
        return [p for p in phases if p in known]

    def declaration(self, c: dict[str, Any], data: SystemData) -> list[dict[str, Any]]:
        d = c["declared"]
        options = [{"value": a, "label": ACTION_LABELS[a]} for a in ACTIONS]
        return [
            {"name": "move", "label": "Moves", "type": "boolean", "value": d["move"]},
            {"name": "action", "label": "Action", "type": "choice", "options": options, "value": d["action"]},
        ]

    def declare(self, c: dict[str, Any], raw: Any, data: SystemData) -> dict[str, Any]:
        if not isinstance(raw, dict):
            raise InputError("action.declaration", "must be an object: move (true/false), action")
        return {**c, "declared": _declaration({**c["declared"], **raw}, "action.declaration")}

    def special(self, action: dict[str, Any], c: dict[str, Any], data: SystemData, options: dict) -> dict[str, Any]:
        if action.get("type") != "remove_wound":
            return super().special(action, c, data, options)
        index = action.get("index")
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(c["wounds"]):
            raise InputError("action.index", f"must be the index of one of {c['name']}'s {len(c['wounds'])} Wounds")
        return {**c, "wounds": [w for i, w in enumerate(c["wounds"]) if i != index], "dead": False}

    def floor(self, c: dict[str, Any], data: SystemData, options: dict[str, Any]) -> int:
        return 0


def _kills(amount: int, top: int, reading: str) -> bool:
    return amount >= top if reading == "at-least" else amount == top


def _as_wound(row: dict[str, Any], critical: bool, until: int | None) -> dict[str, Any]:
    return {"name": row["name"], "severity": row["severity"], "critical": critical, "until": until}


def _wound(raw: Any, where: str, data: SystemData) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise InputError(where, "must be a Wound: {name, critical, until}")
    rows = {row["name"]: row for row in data.table("wound-severity")}
    if not isinstance(raw.get("name"), str) or raw["name"] not in rows:
        raise InputError(f"{where}.name", f"must be a row of the wound table ({', '.join(rows)})")
    critical = raw.get("critical", False)
    until = raw.get("until")
    if not isinstance(critical, bool) or not (
        until is None or (isinstance(until, int) and not isinstance(until, bool))
    ):
        raise InputError(where, "critical must be true or false, until a round number or null")
    return _as_wound(rows[raw["name"]], critical, until)


def _round_or_none(raw: Any, where: str) -> int | None:
    if raw is None or (isinstance(raw, int) and not isinstance(raw, bool) and 0 <= raw <= 100000):
        return raw
    raise InputError(where, "must be a round number or null")


def _attack_inputs(data: SystemData, action: str) -> dict[str, Any]:
    """The round calculator's inputs of the attack a declared action makes (its phase's attack in
    the turn's declaration: Missile → ranged); {} when it makes none."""
    spec = economy.declaration(data) or {"actions": []}
    for a in spec["actions"]:
        if a.get("attacks") and set(a.get("phases") or ()) & set(ACTIONS[action]):
            return dict(a["inputs"])
    return {}


def first_declaration(values: Any, data: SystemData) -> dict[str, Any]:
    """Round 1's declaration: the action whose attack the fighter's values name (an archer's
    attack_type ranged declares a Missile attack), else a melee attack."""
    if isinstance(values, dict):
        for action in ACTIONS:
            given = _attack_inputs(data, action)
            if given and all(values.get(k) == v for k, v in given.items()):
                return {**FIRST_DECLARATION, "action": action}
    return dict(FIRST_DECLARATION)


def _declaration(raw: Any, where: str, values: Any = None, data: SystemData | None = None) -> dict[str, Any]:
    if raw is None:
        return first_declaration(values, data) if data is not None else dict(FIRST_DECLARATION)
    if not isinstance(raw, dict):
        raise InputError(where, "must be an object: move (true/false), action")
    move, action = raw.get("move", False), raw.get("action", "melee")
    if not isinstance(move, bool):
        raise InputError(f"{where}.move", "must be true or false")
    if not isinstance(action, str) or action not in ACTIONS:
        raise InputError(f"{where}.action", f"must be one of {', '.join(ACTIONS)} (got {action!r})")
    return {"move": move, "action": action}


FIGHT = WoundRules()
