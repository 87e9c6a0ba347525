"""The fight forecast in Phases: each fighter makes one attack a round (one action), in the phase of
its kind (ranged, spells, melee), its outcomes (damage and natural-20 criticals) the round
calculator's against each foe's Defense, parry and cover; what a blow does (Wounds past 0 HP read
on the wound table less the armour, a knock-out, a monster's Wound limit or a character's slots,
instant death, the critical Wound lasting to the end of the next round) is the round calculator's
`target_rules`; a first Wound calls for the morale roll (`round-morale`: in the next round's
morale phase, or at once). Inside a phase everyone rolls a d20, high first; equal results act
simultaneously (ruling) or roll again, which makes every order of the phase's fighters equally
likely. The chain itself is `calc.forecast`."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import partial
from itertools import permutations, product
from typing import Any

from calc.errors import InputError
from calc.forecast import answer, chain, rest_of_round
from calc.forecast.between_rounds import BetweenRounds
from calc.forecast.fighters import FOES, Fighter, Health, policies, targets_step
from calc.forecast.inputs import each
from calc.forecast.round import Fight
from calc.forecast.scripted_round import Script, ScriptedFight
from calc.inputs import applies
from calc.inputs.data import SystemData
from calc.systems.phases import round as phases_round
from calc.systems.phases import round_morale
from calc.systems.phases.attack_roll import phase_die, row_by
from calc.systems.phases.round import MAX_DICE, MAX_SIDES, attack_outcomes, target_rules

RULINGS = (
    "natural_rolls", "advantage_reading", "melee_modifiers", "finesse_reading", "count_reading", "wound_damage",
    "instant_death", "critical_wound", "morale_reading", "morale_when",
)  # fmt: skip
"""Inputs of the whole forecast that the round calculator reads for every fighter."""
PHASE_OF = {"melee": "melee", "ranged": "ranged", "spell": "spells"}
NOT_YET, PENDING, HELD = round_morale.NOT_YET, round_morale.PENDING, round_morale.HELD
DOWN, DEAD, FLED = "down", "dead", "fled"
InFight = tuple[int, int, int, int, bool, int]
"""(HP, Wounds or slots filled, last round's critical Wound, this round's, wounded, morale: not yet
wounded, roll pending, held)."""


def fighter(side: str, index: int, item: dict[str, Any], inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    merged = {**item, **{k: inputs[k] for k in RULINGS}, "feinted": False, "phase_roll": 0}
    if item["mode"] == "monster":
        expr = item["damage_dice"]
        if sum(t.count for t in expr.terms) > MAX_DICE or any(t.sides > MAX_SIDES for t in expr.terms):
            raise InputError("damage_dice", f"at most {MAX_DICE} dice of up to {MAX_SIDES} sides in the forecast")
    rules, dies_at = target_rules(merged, data, [])
    phase = row_by(data, "phases", "id", PHASE_OF[item["attack_type"]])
    return {"side": side, "inputs": merged, "rules": rules, "dies_at": dies_at, "phase": phase["n"]}


class Blows:
    """One fighter's attack against each foe and what it does to that foe, as integer weights over
    one `scale` (the attack's d20 and damage, times the morale dice when the roll comes at once)."""

    def __init__(self, spec: dict[str, Any], enemies: list[tuple[int, dict[str, Any]]], data: SystemData) -> None:
        self.by_target: dict[int, tuple[Callable[[int], list[Any]], int]] = {}
        self.mean: dict[int, Fraction] = {}
        totals = []
        for j, e in enemies:
            target = {k: e["inputs"][k] for k in ("defense", "parry_weapon", "cover")}
            outcomes, total = attack_outcomes({**spec["inputs"], **target}, data, [])
            self.by_target[j] = (e["rules"](outcomes), total)
            self.mean[j] = Fraction(sum(x * w for (x, _), w in outcomes.items()), total)
            totals.append(total)
        self.fled, faces = round_morale.flee_weight(spec["inputs"], data)
        self.faces = faces if spec["inputs"]["morale_when"] == "at-once" else 1
        self.held = self.faces - self.fled
        self.scale = math.lcm(*totals) * self.faces if totals else 1

    def added(self, j: int, hp: int) -> set[int]:
        """What one blow of this attack can add to foe j's Wounds, at any of its hit points
        (`round.wounds_added`), a miss's 0 too."""
        blows_at, _ = self.by_target[j]
        return {0}.union(*(phases_round.wounds_added(blows_at, left) for left in range(hp + 1)))

    def strike(
        self,
        morale: dict[int, tuple[int, int]],
        dies: dict[int, int],
        own: Any,
        first: bool,
        target: Fighter,
        health: Any,
    ) -> list[tuple[int, Health]]:
        j = target.defense
        blows_at, total = self.by_target[j]
        factor = self.scale // total // self.faces
        left, count, last, now, wounded, m = health
        out: dict[Health, int] = {}

        def add(h: Health, w: int) -> None:
            out[h] = out.get(h, 0) + w

        for w, after, plus, wounds, knocks, extra in blows_at(left):
            w *= factor
            if after is None:
                add(health, w * self.faces)
            elif plus < 0 or count + plus + last + now + extra >= dies[j]:
                add(DEAD, w * self.faces)
            elif knocks:
                add(DOWN, w * self.faces)
            else:
                hurt = wounded or wounds or extra > 0
                new = (after, count + plus, last, now + extra, hurt and j in morale, m)
                if j in morale and m == NOT_YET and hurt:
                    if self.faces > 1:  # the roll comes at once
                        fled, held = morale[j]
                        add(FLED, w * fled)
                        add((*new[:5], HELD), w * held)
                    else:
                        add((*new[:5], PENDING), w)
                else:
                    add(new, w * self.faces)
        return list((w, h) for h, w in out.items() if w)


def build(inputs: dict[str, Any], data: SystemData) -> BetweenRounds:
    specs = each(inputs, lambda side, i, item: fighter(side, i, item, inputs, data))
    at_once = inputs["morale_when"] == "at-once"
    morale: dict[int, tuple[int, int]] = {}
    faces = 1
    score = next(d for d in data.calculator("round")["inputs"] if d["name"] == "morale")
    for j, s in enumerate(specs):
        # a form row sends every field: a character's Morale score (`when`: monsters and NPCs) is left unused
        if s["inputs"]["morale"] > 0 and applies.holds(score, s["inputs"]):
            fled, faces = round_morale.flee_weight(s["inputs"], data)
            morale[j] = (fled, faces - fled)
    dies = {j: s["dies_at"] for j, s in enumerate(specs)}
    die = phase_die(data)
    fighters, strikes = [], []
    reach = [{0} for _ in specs]  # the Wounds (with critical ones) a fighter can take in one round
    for i, spec in enumerate(specs):
        enemies = [(j, s) for j, s in enumerate(specs) if s["side"] != spec["side"]]
        blows = Blows(spec, enemies, data)
        for j, e in enemies:
            reach[j] = {a + b for a in reach[j] for b in blows.added(j, e["inputs"]["target_hp"])}
        strike = partial(blows.strike, morale, dies)
        hp = spec["inputs"]["target_hp"]
        crit = 2 if inputs["critical_wound"] == "counts" and inputs["natural_rolls"] else 1
        marks: list[tuple[str, Callable[[Health], bool]]] = [
            ("goes down", partial(_is, (DOWN, DEAD))),
            ("dies", partial(_is, (DEAD,))),
        ]
        if i in morale:
            marks.append(("flees", partial(_is, (FLED,))))
        fighters.append(
            Fighter(
                name=spec["inputs"]["name"],
                side=spec["side"],
                start=(hp, 0, 0, 0, False, NOT_YET if i in morale else HELD),
                hp=hp,
                initiative=die - 1000 * spec["phase"],
                tie=(),
                danger=sum(blows.mean.values(), Fraction(0)) / max(len(enemies), 1),
                states=(hp + 1 + spec["dies_at"] * (2 if i in morale else 1)) * crit,
                scale=blows.scale,
                most=1,
                attacks=_one,
                strike=lambda own, t, h, s=strike: s(own, False, t, h),
                out=_out,
                marks=tuple(marks),
                defense=i,
            )  # fmt: skip
        )
        strikes.append(strike)
    inner: Any
    if inputs["ties"] == "simultaneous":
        inner = Fight(fighters, policies(inputs), high_first=True)
    else:
        inner = ScriptedFight(fighters, policies(inputs), _shuffled(specs), strikes, [3] * len(fighters), False)
    waits = {j: m for j, m in morale.items()} if not at_once else {}
    lasting = Lasting(dies, reach, phases_round.LUMP_CRITICALS)
    return BetweenRounds(
        inner,
        partial(_opens, waits, faces),
        lasting.closes,
        [faces if j in waits else 1 for j in range(len(fighters))],
    )


MAX_LISTED = 800_000
"""The most turns (orders × fighters) of the re-rolled ties' orders listed as a round's scripts,
checked before they are listed (8 fighters in one phase, 8! × 8 = 322,560, are listed; 9, about
3.3 million, refused at once); the walk of the scripts is bounded apart, by the chain
(`calc.forecast.chain.MAX_WORK`, `MAX_STEPS`)."""


def _shuffled(specs: list[dict[str, Any]]) -> list[Script]:
    """Ties rolled again: with everyone rolling the same d20, every order of a phase's fighters is
    equally likely; the phases come in their order. Counted before they are listed: past
    `MAX_LISTED` the answer is a refusal, never a long wait."""
    phases = sorted({s["phase"] for s in specs})
    orders = math.prod(math.factorial(sum(s["phase"] == n for s in specs)) for n in phases)
    if orders * len(specs) > MAX_LISTED:
        raise InputError(
            "ties",
            f"with equal rolls rolled again, a round can take {orders:,} orders of who acts when, "
            f"{orders * len(specs):,} turns to list: more than the {MAX_LISTED:,} listed; try fewer "
            "fighters in one phase, or equal rolls acting simultaneously",
        )
    each_phase = [list(permutations([i for i, s in enumerate(specs) if s["phase"] == n])) for n in phases]
    return [Script(1, tuple(((i, 1),) for order in orders for i in order)) for orders in product(*each_phase)]


def _one(own: Any, first: bool) -> int:
    return 1


def _out(h: Any) -> bool:
    return isinstance(h, str)


def _is(which: tuple[str, ...], h: Any) -> bool:
    return h in which


def _opens(waits: dict[int, tuple[int, int]], faces: int, i: int, h: Any) -> list[tuple[int, Any]]:
    """The morale phase opens the round: a roll due since last round's first Wound."""
    if i not in waits:
        return [(1, h)]
    if isinstance(h, str) or h[5] != PENDING:
        return [(faces, h)]
    fled, held = waits[i]
    return [(w, s) for w, s in ((fled, FLED), (held, (*h[:5], HELD))) if w]


class Lasting:
    """The round's end: this round's critical Wound becomes last round's, last round's ends. The
    Wound is kept only when it can decide a death next round: when some Wounds the fighter can take
    in a round (`reach[i]`, partial sums included) kill with it and not without. Otherwise the
    states with and without it move alike, so they are one (exact, as the round calculator's
    `LUMP_CRITICALS`; `lump` False keeps every one, to compare)."""

    def __init__(self, dies: dict[int, int], reach: list[set[int]], lump: bool) -> None:
        self.dies = dies
        self.reach = reach
        self.lump = lump
        self._counts: dict[tuple[int, int, int], bool] = {}

    def counts(self, i: int, wounds: int, last: int) -> bool:
        key = (i, wounds, last)
        got = self._counts.get(key)
        if got is None:
            got = self._counts[key] = not self.lump or phases_round.critical_decides(
                self.dies[i], wounds, last, self.reach[i]
            )
        return got

    def closes(self, i: int, h: Any) -> Any:
        if isinstance(h, str):
            return h
        last = h[3] if h[3] and self.counts(i, h[1], h[3]) else 0
        return (h[0], h[1], last, 0, h[4], h[5])


def _foes_broke(foes: tuple[int, ...], healths: tuple[Any, ...]) -> bool:
    return all(isinstance(healths[j], str) for j in foes) and any(healths[j] == FLED for j in foes)


def forecast(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    fight = build(inputs, data)
    foes = tuple(i for i, f in enumerate(fight.fighters) if f.side == FOES)
    broke = any(len(fight.fighters[j].marks) > 2 for j in foes)  # some foe has a Morale score
    extra = [("Foes break by morale", partial(_foes_broke, foes))] if broke else []
    result = chain.forecast(rest_of_round.mid_round(fight, inputs), inputs["rounds"], extra=extra)  # type: ignore[arg-type]  # the round's interface
    return answer.answer(
        result, fight.fighters, steps(inputs, data) + rest_of_round.step(inputs, data, "combat-round"), data, inputs
    )


def steps(inputs: dict[str, Any], data: SystemData) -> list[dict[str, str]]:
    """Every assumption of the forecast, each with the rule (or ruling) behind it."""
    die = data.fact("simultaneous-actions", "phase_die")
    return [
        data.step("combat-round", "One action a round: each fighter makes one attack, in the phase of its kind."),
        data.step("phase-order", "The phases come in order: morale, movement, declared spells, ranged, spells, melee."),
        data.step("simultaneous-actions", f"Inside a phase each rolls a {die}; actions resolve from the highest down; "
                  "a fighter down, dead or fled before its turn does not act."),
        targets_step(data, inputs),
        data.step("wounds", "Damage past 0 HP gives a Wound (the wound table less the armour's protection); a Wound of "
                  "the knock-out row takes the fighter out of the fight (down)."),
        data.step("killing-monsters", "A monster dies from one Wound more than half its Hit Dice (at least the "
                  "minimum); a character when its Wounds fill its free inventory slots."),
        data.step("morale", f"A fighter with a Morale score rolls {data.fact('morale', 'morale_dice')} on its first "
                  "Wound; a failed roll makes it flee, out of the fight. The foes break by morale when every foe is "
                  "out of the fight and at least one of them fled."),
    ]  # fmt: skip


__all__: Sequence[str] = ("forecast",)
