"""Time the fight forecast: `python -m calc.forecast.bench [--only TEXT] [--repeat N]` prints, per
case, the number of states the chain followed, the wall time (median) and the least CPU time (the
honest figure on a shared, loaded machine); the issue's target: 4 against 4, typical fighters,
focus fire, within 250 ms in CPython. A fight past the bound is shown as refused, with the reason.
`--lifted` adds 2 against 2 cases with the forecast's bounds raised for the run (measuring only,
the product's limits unchanged): Action Points', refused today (what a state costs past the
bound), and Active Defense's and Phases' under both readings of its phase-ties ruling, answered
today near the bounds."""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from typing import Any

from calc import evaluate
from calc.errors import CalcError
from calc.forecast import chain, fixed_fight, fixed_order, half_rounds

TARGET_MS = 250

# Typical fighters per system: a party of characters and a band of ordinary foes.
TYPICAL: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "countup": (
        {"target": "character", "to_hit": 3, "ability_bonus": 1, "ac": 14, "target_hp": 10, "dice": "1d8"},
        {"target": "npc", "to_hit": 1, "ability_bonus": 1, "ac": 13, "target_hp": 6, "dice": "1d6"},
    ),
    "segments": (
        {
            "level": 3,
            "weapon": "long sword",
            "ac": 4,
            "target_hp": 16,
            "routine": [{"name": "Long sword", "dice": "1d8", "modifier": 1, "to_hit": 0}],
        },
        {
            "attacker": "monster",
            "hd": 1,
            "weapon": "battle axe",
            "ac": 6,
            "target_hp": 6,
            "routine": [{"name": "Battle axe", "dice": "1d8", "modifier": 0, "to_hit": 0}],
        },
    ),
    "phases": (
        {
            "target_source": "direct",
            "attack_target": 8,
            "defense": 2,
            "armour": "leather",
            "target_kind": "character",
            "free_slots": 8,
            "target_hp": 6,
        },
        {
            "mode": "monster",
            "damage_dice": "1d6",
            "target_source": "direct",
            "attack_target": 10,
            "defense": 1,
            "target_kind": "monster",
            "hd": 1,
            "target_hp": 4,
            "morale": 7,
        },
    ),
    "action-points": (
        {"ability": 3, "damage_bonus": 3, "defense": 15, "target_hp": 12, "target_con": 1},
        {"standard": 1, "quick": 0, "ability": 2, "damage_bonus": 2, "defense": 13, "target_hp": 8},
    ),
    "active-defense": (
        {"attack_skill": 4, "damage_dice": "1d8", "defense": "block", "block_skill": 3, "target_hp": 12},
        {"attack_skill": 2, "damage_dice": "1d6", "target_hp": 8},
    ),
}

VARIED = {"countup": "modifier", "action-points": "initiative", "active-defense": "defender_dex"}
"""The input varied from one fighter to the next (0, 1, 2, …), where a system's fighters have one
(the one each system adds to its initiative roll)."""


def cases() -> list[tuple[str, str, dict[str, Any]]]:
    """(system, "n against n", inputs) for n = 1…4 of each system's typical fighters."""
    out = []
    for system_id, (hero, foe) in TYPICAL.items():
        for n in range(1, 5):
            varied = VARIED.get(system_id)
            party = [{**hero, "name": f"Hero {i + 1}"} | ({varied: i % 3} if varied else {}) for i in range(n)]
            foes = [{**foe, "name": f"Foe {i + 1}"} | ({varied: (i + 1) % 3} if varied else {}) for i in range(n)]
            out.append((system_id, f"{n} against {n}", {"party": party, "foes": foes}))
    return out


LIFTED = ("action-points", "active-defense", "phases")
"""The systems whose 2 against 2 `--lifted` times with the bounds raised: Action Points' is refused
today (its dying fighters' hit points multiply the states); Active Defense's and Phases' answer
near the bounds."""

LIFTED_LABEL = "2 against 2 (bound lifted{})"
"""A lifted case's label, with the reading it runs under where one matters."""

LIFTED_READINGS = {"phases": ("ties", ("simultaneous", "reroll"))}
"""A ruling whose readings change the round's orders: each lifted case runs under every reading
(Phases' ties in a phase: acting at once, or rolled again, every order equally likely)."""


def lifted_cases() -> list[tuple[str, str, dict[str, Any]]]:
    """The `LIFTED` 2 against 2 cases, run under `lifted()`, once per reading where one matters."""
    out = []
    for system_id, label, inputs in cases():
        if system_id not in LIFTED or label != "2 against 2":
            continue
        name, readings = LIFTED_READINGS.get(system_id, ("", ("",)))
        for reading in readings:
            shown = LIFTED_LABEL.format(f", {name} {reading}" if name else "")
            out.append((system_id, shown, {**inputs, name: reading} if name else inputs))
    return out


@contextmanager
def lifted() -> Iterator[None]:
    """The fixed-order forecast's bounds (and the chain's work and steps bounds it meets) raised
    while a lifted case runs, put back after: a measurement, never the product's limits."""
    raised = [
        (fixed_order, "MAX_WORK"), (fixed_fight, "MAX_FOLLOWED"), (chain, "MAX_WORK"), (chain, "MAX_STEPS"),
        (half_rounds, "MAX_MOVES"), (fixed_fight, "MAX_STEPS"), (chain, "MAX_MOVE_BITS"),
    ]  # fmt: skip
    saved = [getattr(module, name) for module, name in raised]
    for module, name in raised:
        setattr(module, name, 10**12)
    try:
        yield
    finally:
        for (module, name), value in zip(raised, saved, strict=True):
            setattr(module, name, value)


def run(repeat: int = 3, only: str = "", lift: bool = False) -> list[dict[str, Any]]:
    rows = []
    extra = lifted_cases() if lift else []
    lifted_labels = {label for _, label, _ in extra}
    for system_id, label, inputs in cases() + extra:
        if only not in f"{system_id}/{label}":
            continue
        request = {"system": system_id, "calculator": "forecast", "inputs": inputs}
        times, cpu, states, error = [], [], "", ""
        for _ in range(repeat):
            start, start_cpu = time.perf_counter(), time.process_time()
            try:
                with lifted() if label in lifted_labels else nullcontext():
                    answer = evaluate(request)
            except CalcError as e:
                error = f"{e.reason} (refused in {(time.process_time() - start_cpu) * 1000:.0f} ms CPU)"
                break
            times.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - start_cpu) * 1000)
            states = answer["table"]["title"].rsplit("; ", 1)[1].split(" states")[0]
        rows.append({"system": system_id, "case": label, "states": states,
                     "median_ms": round(statistics.median(times), 1) if times else None,
                     "cpu_ms": round(min(cpu), 1) if cpu else None, "error": error})  # fmt: skip
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m calc.forecast.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per case (default 3)")
    parser.add_argument("--only", default="", help='just the cases whose "system/case" contains this')
    parser.add_argument("--lifted", action="store_true", help="add the LIFTED 2 against 2 cases, bounds raised")
    args = parser.parse_args(argv)
    evaluate({"system": "countup", "calculator": "forecast", "inputs": {}})  # warm-up: imports, data
    print(f"{'system':<16}{'case':<46}{'states':>8}{'median ms':>12}{'least CPU ms':>14}{'µs/state':>10}  target")
    for r in run(args.repeat, args.only, args.lifted):
        if r["error"]:
            print(f"{r['system']:<16}{r['case']:<46}{'—':>8}{'—':>12}{'—':>14}{'—':>10}  refused: {r['error']}")
            continue
        verdict = "ok" if r["cpu_ms"] <= TARGET_MS else "SLOW"
        per = r["cpu_ms"] * 1000 / int(r["states"].replace(",", ""))
        print(
            f"{r['system']:<16}{r['case']:<46}{r['states']:>8}{r['median_ms']:>12.1f}{r['cpu_ms']:>14.1f}{per:>10.0f}"
            f"  ≤ {TARGET_MS} ms {verdict}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
