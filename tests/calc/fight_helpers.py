"""Building fights for the tests of calc.fight: a roster added through the engine's own `add`,
then actions applied one by one, as the tracker page sends them."""

from __future__ import annotations

from typing import Any

from calc import fight


class Fight:
    """A fight of one system driven by actions; `.state` and `.view` are the last answer's."""

    def __init__(self, system: str, options: dict[str, Any] | None = None) -> None:
        self.system = system
        self.state: Any = None
        self.view: dict[str, Any] = {}
        self.steps: list[dict] = []
        for name, value in (options or {}).items():
            self.do("option", name=name, value=value)

    def do(self, kind: str, **fields: Any) -> Fight:
        answer = fight.act(self.system, self.state, {"type": kind, **fields})
        self.state, self.view, self.steps = answer["state"], answer["view"], answer["steps"]
        return self

    def add(self, name: str, side: str = "foe", hp: int = 10, **values: Any) -> str:
        self.do("add", combatant={"name": name, "side": side, "max": hp, "values": values})
        return self.state["combatants"][-1]["id"]

    def who(self, name: str) -> dict[str, Any]:
        return next(c for c in self.view["combatants"] if c["name"] == name)

    def ident(self, name: str) -> str:
        return self.who(name)["id"]

    def damage(self, name: str, amount: int, critical: bool = False) -> Fight:
        return self.do("damage", id=self.ident(name), amount=amount, critical=critical)

    def heal(self, name: str, amount: int) -> Fight:
        return self.do("heal", id=self.ident(name), amount=amount)

    def round(self, faces: dict[str, int] | None = None, default: int = 10) -> Fight:
        """Start the next round with `faces` by key, every other die showing `default` (clamped
        to what it can show)."""
        self.do("next_round")
        pending = self.view["pending"]
        if pending is None:
            return self
        rolls = {}
        for entry in pending["dice"]:
            if entry["optional"] and entry["key"] not in (faces or {}):
                continue
            count, sides = (int(x) for x in entry["dice"].split("d"))
            rolls[entry["key"]] = (faces or {}).get(entry["key"], max(count, min(default, count * sides)))
        self.do("start_round", rolls=rolls)
        while self.state["pending"] is not None:  # ties to re-roll: distinct faces, so they break
            new = [e for e in self.view["pending"]["dice"] if e["value"] is None and not e["optional"]]
            self.do("start_round", rolls={e["key"]: e["max"] - i % e["max"] for i, e in enumerate(new)})
        return self

    def order(self) -> list[str]:
        return [e["name"] for e in self.view["order"]]

    def current(self) -> str | None:
        cur = self.view["current"]
        return None if cur is None else next(c["name"] for c in self.view["combatants"] if c["id"] == cur)

    def turns_taken(self) -> list[str]:
        """Who acts, from the current turn to the end of the round, by next_turn."""
        out = []
        while self.view["current"] is not None:
            out.append(self.current())
            self.do("next_turn")
        return out
