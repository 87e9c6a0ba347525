"""Dying: below 0 hit points a Constitution check each round (DC 15 + hit points below 0) or lose
1 more; dead at −10. Another creature stabilises you with a slow action, with no roll, so the
only chance is whether you are still alive when that action comes. An exact chain over hit
points (never simulated): P(dead within k checks), the mean checks to death without help, and
the hit points you have when help arrives."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from calc.answers import result
from calc.answers.format import number
from calc.chains.reached import ROUNDS
from calc.errors import InputError
from calc.inputs.data import SystemData
from calc.numbers.dist import Dist


def check_pass(sides: int, bonus: int, dc: int, meets: bool) -> Fraction:
    """P(1d`sides` + bonus reaches the DC): equal passes under the ruling, must exceed otherwise."""
    need = dc - bonus if meets else dc - bonus + 1
    faces = sides - min(max(need, 1), sides + 1) + 1
    return Fraction(faces, sides)


def dc_at(hp: int, data: SystemData) -> int:
    """The dying check's DC at `hp` hit points: the base + the hit points below 0."""
    return int(data.fact("dying", "check_dc_base")) + (data.fact("dying", "dying_below") - hp)


def passes(total: int, dc: int, meets: bool) -> bool:
    """Whether a check's total passes: reaching the DC under the ruling, exceeding it otherwise
    (the rolled face's side of `check_pass`)."""
    return total >= dc if meets else total > dc


def dying(inputs: dict[str, Any], data: SystemData) -> dict[str, Any]:
    below, dead = data.fact("dying", "dying_below"), data.fact("dead", "dead_at")
    hp, con = inputs["hp"], inputs["constitution"]
    if hp >= below:
        raise InputError("hp", f"a character is dying only below {number(below)} hit points")
    if hp <= dead:
        raise InputError("hp", f"at {number(dead)} hit points or fewer a character is already dead")
    base, loss = data.fact("dying", "check_dc_base"), data.fact("dying", "failed_check_damage")
    sides = data.die_sides("dying", "check_die")
    meets = inputs["dc_ties"] == "meets"

    def dc(h: int) -> int:
        return dc_at(h, data)

    def p_pass(h: int) -> Fraction:
        return check_pass(sides, con, dc(h), meets)

    steps = [
        data.step(
            "dying",
            f"At {number(hp)} HP you are unconscious and dying: each round a Constitution check, "
            f"1d{sides} {'+' if con >= 0 else '−'} {abs(con)} against DC {base} + {below - hp} = {dc(hp)}; "
            f"a failure costs {loss} HP and raises the DC.",
        ),
        data.step(
            "ruling:ability-check-dc",
            "A check equal to the DC passes (ruling)." if meets else "A check must exceed the DC (other reading).",
        ),
        data.step("dead", f"At {number(dead)} HP you are dead."),
        data.step(
            "dying",
            f"Stabilising is another creature's {data.fact('dying', 'stabilize_action_type')} action with no roll: "
            "it ends the dying at the hit points you have then.",
        ),
    ]
    # the chain over hit points, `dead` absorbing, as integer weights over sides ** checks
    passing = {}
    for h in range(hp, dead, -1):
        ok = p_pass(h)
        passing[h] = ok.numerator * (sides // ok.denominator)  # faces that pass
    weights: dict[int, int] = {hp: 1}
    within, at_help, scale = [], None, 1
    horizon = max(ROUNDS, inputs["help_after"])
    if inputs["help_after"] == 0:
        at_help = {h: Fraction(w) for h, w in weights.items()}
    for k in range(1, horizon + 1):
        nxt: dict[int, int] = {}
        for h, w in weights.items():
            if h <= dead:
                nxt[dead] = nxt.get(dead, 0) + w * sides
                continue
            ok = passing[h]
            nxt[h] = nxt.get(h, 0) + w * ok
            to = max(h - loss, dead)
            nxt[to] = nxt.get(to, 0) + w * (sides - ok)
        weights = {h: w for h, w in nxt.items() if w}
        scale *= sides
        if k <= ROUNDS:
            within.append(Fraction(weights.get(dead, 0), scale))
        if k == inputs["help_after"]:
            at_help = {h: Fraction(w, scale) for h, w in weights.items()}
    assert at_help is not None
    mean: Fraction | None = Fraction(0)
    h = hp
    while h > dead:
        fail = 1 - p_pass(h)
        if not fail:
            mean = None
            break
        mean += 1 / fail
        h -= loss
    alive = 1 - at_help.get(dead, Fraction(0))
    n = inputs["help_after"]
    rows = []
    for k, p in enumerate(within, start=1):
        before = within[k - 2] if k > 1 else Fraction(0)
        rows.append([str(k), result.percent(p - before, 2), result.percent(p, 2)])
    chances = [
        result.chance(f"Alive when stabilised after {n} check{'s' if n != 1 else ''}", alive),
        result.chance("Dead within 1 round without help", within[0]),
        result.chance("Dead within 3 rounds without help", within[2]),
        result.chance(f"Dead within {ROUNDS} rounds without help", within[-1]),
        result.chance(f"Passes the first check (DC {dc(hp)})", p_pass(hp)),
    ]
    never = "never dies without help" if mean is None else f"dies after {_dec(mean)} checks on average without help"
    summary = f"Alive when stabilised after {n} check{'s' if n != 1 else ''}: {result.percent(alive)}; {never}"
    steps.append(
        data.step(
            "dying",
            "Without help you die on average after "
            + ("no number of checks: every check passes" if mean is None else f"{_dec(mean)} checks")
            + " (the sum over each hit point of 1 ÷ the chance to fail there).",
        )
    )
    title = f"Rounds of dying without help (one check each; mean {'never' if mean is None else _dec(mean)})"
    return {
        "summary": summary,
        "chances": chances,
        "distribution": result.dist_json(
            Dist.from_probs(at_help), f"Hit points when stabilised ({number(dead)}: dead)"
        ),
        "table": result.table(title, ["Round", "Dies in this round", "Dead within k rounds"], rows),
        "steps": steps,
    }


def _dec(x: Fraction) -> str:
    return f"{float(x):.2f}".rstrip("0").rstrip(".")
