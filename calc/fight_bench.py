"""The encounter tracker's fight, timed and counted (`calc.benchmark` reports it; the same code
runs under Pyodide): a scripted fight of the most combatants a fight holds (`max_combatants`, 40) in each system,
every action sent as the worker receives it (`calc.browser.evaluate_json`, JSON text in and out),
each action type timed; and, for a six-combatant fight, what a round costs the GM: the actions
(taps) and dice of one round, declarations and dice included."""

from __future__ import annotations

import json
import time
from typing import Any

from calc.browser import evaluate_json
from calc.inputs import data
from calc.turns.helpers import max_combatants

TARGET_MS = 50
DECLARATIONS = {
    "phases": lambda r: {"move": r % 2 == 0, "action": ["ranged", "spell", "melee"][r % 3]},
    "segments": lambda r: {"action": ["spell", "missile", "fast"][r % 3], "casting_time": 3},
}
"""A changed declaration in round r (systems that declare): the rest stand from round to round."""


def _send(system_id: str, state: Any, action: dict[str, Any], tries: int = 1) -> tuple[dict[str, Any], float]:
    """The answer, and the least of `tries` timings of the same request (an action is a pure
    function of its request, so the least is its cost without the machine's other work)."""
    text = json.dumps({"kind": "fight", "system": system_id, "state": state, "action": action})
    took = float("inf")
    for _ in range(max(1, tries)):
        start = time.perf_counter()
        out = evaluate_json(text)
        took = min(took, (time.perf_counter() - start) * 1000)
    answer = json.loads(out)
    if "error" in answer:
        raise RuntimeError(f"{system_id} {action['type']}: {answer['error']}")
    return answer["result"], took


def _faces(pending: dict[str, Any], salt: int) -> dict[str, int]:
    """Varied faces for the dice still to roll (the optional ones left out)."""
    out = {}
    for i, entry in enumerate(pending["dice"]):
        if entry["optional"] or entry["value"] is not None:
            continue
        count, sides = (int(x) for x in entry["dice"].split("d"))
        out[entry["key"]] = count + (i * 7 + salt) % (count * (sides - 1) + 1)
    return out


class Script:
    """A fight driven action by action, each answer's time kept by action type."""

    def __init__(self, system_id: str, tries: int = 1) -> None:
        self.system = system_id
        self.tries = tries
        self.state: Any = None
        self.view: dict[str, Any] = {}
        self.times: dict[str, list[float]] = {}
        self.actions = 0

    def do(self, kind: str, **fields: Any) -> None:
        answer, took = _send(self.system, self.state, {"type": kind, **fields}, self.tries)
        self.state, self.view = answer["state"], answer["view"]
        self.times.setdefault(kind, []).append(took)
        self.actions += 1

    def round(self, salt: int) -> int:
        """One round: next_round, the dice (one roll action, as "Roll the empty ones"), start,
        re-rolls while the procedure asks, then every turn. The number of dice rolled."""
        self.do("next_round")
        rolled = 0
        while self.state["pending"] is not None:
            faces = _faces(self.view["pending"], salt)
            rolled += len(faces)
            self.do("roll", rolls=faces)
            self.do("start_round")
        while self.view["current"] is not None:
            self.time_odds()
            self.time_resolve()
            self.do("next_turn")
        return rolled

    def time_odds(self) -> None:
        """The acting combatant's odds, as the card asks them: the default target's request
        (built by the view, calc/fight/fighter.py) sent as the page sends it; timed as "odds"."""
        odds = self.view.get("odds")
        target = next((t for t in (odds or {}).get("targets", []) if t["id"] == odds["target"]), None)
        if target is None or "request" not in target:
            return
        text = json.dumps(target["request"])
        took = float("inf")
        for _ in range(max(1, self.tries)):
            start = time.perf_counter()
            out = evaluate_json(text)
            took = min(took, (time.perf_counter() - start) * 1000)
        if "error" in json.loads(out):
            raise RuntimeError(f"{self.system} odds: {out[:200]}")
        self.times.setdefault("odds", []).append(took)

    def time_resolve(self) -> None:
        """The acting combatant's Resolve on the default target, every die rolled (the attack's
        top face, each damage die's 1 and the defender's 1), timed as "attack" and not kept
        (the scripted fight goes on as before)."""
        odds = self.view.get("odds")
        target = next((t for t in (odds or {}).get("targets", []) if t["id"] == odds["target"]), None)
        plan = (target or {}).get("resolve") or {}
        if not plan.get("die"):
            return
        action = {"type": "attack", "id": odds["attacker"], "target": target["id"], "roll": plan["die"][1:]}
        action["faces"] = [1] * sum(d["count"] for d in plan["roll"])
        if plan["defense"]:
            action["defense_roll"] = 1
        _, took = _send(self.system, self.state, action, self.tries)
        self.times.setdefault("attack", []).append(took)


def before_times(system_id: str, rounds: int = 2, tries: int = 3) -> list[float]:
    """The odds card's "drops before it acts again" (`{"kind": "before"}`, calc/fight/before_turn.py)
    in a six-combatant fight: every target at every turn of `rounds` rounds, each the least of
    `tries` runs; a request refused for its size (a typed error) is left out."""
    s = Script(system_id)
    _roster(s, 6)
    times: list[float] = []
    for r in range(rounds):
        s.do("next_round")
        while s.state["pending"] is not None:
            s.do("roll", rolls=_faces(s.view["pending"], r))
            s.do("start_round")
        while s.view["current"] is not None:
            for c in s.view["combatants"]:
                if c["id"] == s.view["current"]:
                    continue
                request = {"kind": "before", "system": system_id, "state": s.state,
                           "attacker": s.view["current"], "target": c["id"]}  # fmt: skip
                text, took = json.dumps(request), float("inf")
                for _ in range(max(1, tries)):
                    start = time.perf_counter()
                    out = evaluate_json(text)
                    took = min(took, (time.perf_counter() - start) * 1000)
                if "result" in json.loads(out):
                    times.append(took)
            s.do("next_turn")
    return times


def _roster(script: Script, count: int) -> None:
    for i in range(count):
        side = "pc" if i % 2 else "foe"
        script.do("add", combatant={"name": f"C{i + 1}", "side": side, "max": 8 + i % 5})


def timed(system_id: str, rounds: int = 3, tries: int = 3) -> dict[str, list[float]]:
    """Milliseconds of each action in a 40-combatant fight of `rounds` rounds, with damage (some
    drop), healing, declarations (phases, segments) and a reload of the saved state: each the least of
    `tries` runs of the same request."""
    s = Script(system_id, tries)
    _roster(s, max_combatants(data.system(system_id)))
    for r in range(rounds):
        s.round(r)
        for c in s.view["combatants"][::4]:
            if c["hp"] > c["floor"] and c["state"] != "Dead":
                s.do("damage", id=c["id"], amount=3 + (len(c["name"]) + r) % 9)
        alive = next(c for c in s.view["combatants"] if c["state"] != "Dead")  # death is final: the dead heal not
        s.do("heal", id=alive["id"], amount=2)
        if system_id in DECLARATIONS:
            s.do("declare", id="c2", declaration=DECLARATIONS[system_id](r))
    s.do("load", state=s.state)
    return s.times


def per_round(system_id: str, rounds: int = 3) -> dict[str, Any]:
    """What a round of a six-combatant fight costs: actions (each a tap in the tracker) and dice,
    averaged over `rounds` rounds after the roster is in; one combatant drops in round 1."""
    s = Script(system_id)
    _roster(s, 6)
    start, dice = s.actions, 0
    for r in range(rounds):
        dice += s.round(r)
        if r == 0:
            s.do("damage", id="c1", amount=100)
    return {"system": system_id, "actions": (s.actions - start - 1) / rounds, "dice": dice / rounds}


def run(tries: int = 3, only: str = "") -> list[dict[str, Any]]:
    """Per system and action type, over the scripted fight's actions (each the least of `tries`
    runs): the median, least and worst milliseconds. The worst is the figure: every action
    must answer within TARGET_MS."""
    rows = []
    for system_id in data.system_ids():
        if only not in f"{system_id}/fight" or not data.system(system_id).raw.get("tracker"):
            continue
        every = timed(system_id, tries=tries)
        every["before(6)"] = before_times(system_id, tries=tries)
        for kind, times in every.items():
            if not times:
                continue
            ordered = sorted(times)
            rows.append(
                {
                    "system": system_id,
                    "calculator": f"fight:{kind}",
                    "case": "limit",
                    "median_ms": round(ordered[len(ordered) // 2], 3),
                    "min_ms": round(ordered[0], 3),
                    "max_ms": round(ordered[-1], 3),
                    "page_median_ms": round(ordered[len(ordered) // 2], 3),
                    # what bench/pyodide_compute.mjs judges as a case's least: here the worst
                    # action's (each action is already the least of its tries)
                    "page_min_ms": round(ordered[-1], 3),
                    "combatants": max_combatants(data.system(system_id)),
                }
            )
    return rows


def table(rows: list[dict[str, Any]], where: str) -> str:
    """The fight's rows of `run` (or of `calc.benchmark.run`) as one line per system, one column
    per action: the worst time of that action in the scripted fight at the cap (ms, each the least
    of its tries), "—" where the system has no such action; `where` names the interpreter."""
    fights = [r for r in rows if r["calculator"].startswith("fight:")]
    if not fights:
        return ""
    kinds = list(dict.fromkeys(r["calculator"].removeprefix("fight:") for r in fights))
    cell = {(r["system"], r["calculator"].removeprefix("fight:")): r["max_ms"] for r in fights}
    systems = list(dict.fromkeys(r["system"] for r in fights))
    most = max(r.get("combatants", 0) for r in fights)
    worst = max(cell.values())
    lines = [
        f"Tracker actions in {where}, {most} combatants: worst ms of each action in a scripted fight "
        f"(target < {TARGET_MS} ms)",
        f"{'system':<16}" + "".join(f"{k:>12}" for k in kinds),
    ]
    for system_id in systems:
        cells = (cell.get((system_id, k)) for k in kinds)
        lines.append(f"{system_id:<16}" + "".join(f"{c:>12.1f}" if c is not None else f"{'—':>12}" for c in cells))
    verdict = "every action under target" if worst < TARGET_MS else "OVER target"
    lines.append(f"slowest: {worst:.1f} ms — {verdict}")
    return "\n".join(lines)
