"""Command line: `python -m calc SYSTEM CALCULATOR --input value …`, and for the encounter
tracker `python -m calc SYSTEM turns …` (a round's dice and order) and `python -m calc SYSTEM
fight --action JSON [--state FILE]` (one action of a fight).

Options come from the calculators' input declarations in the data (`--help` at each level lists
them); `--json` prints exactly what `calc.evaluate` returns. Bad input prints one line and exits 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from calc import evaluate
from calc.errors import CalcError, InputError
from calc.inputs import applies, data, declared, statblock
from calc.numbers import bounds
from calc.turns import tracker as turns


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m calc",
        description="Exact hit, damage and initiative answers for the Combat Codex rule systems.",
    )
    systems = parser.add_subparsers(dest="system", metavar="SYSTEM", required=True)
    for system_id in data.system_ids():
        system = data.system(system_id)
        sp = systems.add_parser(system_id, help=system.name, description=f"{system.name}: choose a calculator.")
        calcs = sp.add_subparsers(dest="calculator", metavar="CALCULATOR", required=True)
        for name, decl in system.calculators.items():
            cp = calcs.add_parser(name, help=decl.get("summary", decl["title"]), description=decl.get("summary"))
            cp.add_argument("--json", action="store_true", help="print exactly what calc.evaluate returns")
            for item in decl["inputs"]:
                _add_option(cp, item)
        if system.raw.get("tracker") and TURNS not in system.calculators:
            _add_turns(calcs)
        if system.raw.get("statblock") and STATBLOCK not in system.calculators:
            _add_statblock(calcs)
        if system.raw.get("tracker") and FIGHT not in system.calculators:
            _add_fight(calcs)
    return parser


STATBLOCK = "statblock"
"""Pasted stat blocks (`calc.inputs.statblock`): `python -m calc SYSTEM statblock --text TEXT [--hp MODE]
[--rolls JSON]`: the fighters, each recognised field with the rule it follows, the rest as notes."""


def _add_statblock(calcs: Any) -> None:
    sp = calcs.add_parser(STATBLOCK, help="Read pasted stat blocks into fighters (fields, notes, hit points)")
    sp.add_argument("--json", action="store_true", help="print exactly what calc.inputs.statblock.parse returns")
    sp.add_argument(
        "--text", required=True, metavar="TEXT", help="one or several stat blocks ('-' reads standard input)"
    )
    sp.add_argument("--hp", default="printed", metavar="MODE", help="printed, average or rolled [default: printed]")
    sp.add_argument("--rolls", metavar="JSON", help="the die faces for rolled hit points, in order")


def _statblock(args: argparse.Namespace) -> dict[str, Any]:
    text = sys.stdin.read() if args.text == "-" else args.text
    rolls = None if args.rolls is None else bounds.loads(args.rolls, "rolls")  # nesting bounded before it is read
    return statblock.parse(args.system, text, hp=args.hp, rolls=rolls)


def _render_statblock(answer: dict[str, Any]) -> str:
    lines = []
    if answer["dice_needed"] and not any(f["hp"].get("rolls") for f in answer["fighters"]):
        dice = ", ".join(f"{d['count']}d{d['sides']}" for d in answer["dice_needed"])
        lines.append(f"To roll the hit points, give --rolls with the faces of: {dice}")
    for f in answer["fighters"]:
        hp = f["hp"]
        shown = f"{hp['value']} ({hp['from']}{', ' + hp['dice'] if hp.get('dice') else ''})" if hp.get("value") else "—"
        lines.append(f"{f['name']}: hit points {shown}")
        for field in f["fields"]:
            rule = f" [{field['rule']['id']}]" if field["rule"] else ""
            lines.append(f"  {field['title']}: {field['shown']} ← “{field['text']}”{rule}")
        lines += [f"  not taken: “{r['text']}” — {r['reason']}" for r in f["rejected"]]
        lines += [f"  note: {n['text']}" for n in f["notes"]]
    return "\n".join(lines)


TURNS = "turns"
"""The encounter tracker's round (`calc.turns.tracker`): `python -m calc SYSTEM turns --combatants JSON
[--rolls JSON] [--round N] [--options JSON]`: the dice to roll, or with --rolls the order."""


def _add_turns(calcs: Any) -> None:
    tp = calcs.add_parser(TURNS, help="The encounter tracker's round: the dice to roll, or (with --rolls) the order")
    tp.add_argument("--json", action="store_true", help="print exactly what calc.turns.tracker returns")
    tp.add_argument("--combatants", required=True, metavar="JSON", help='[{"id", "name", "side": "pc"|"foe", …}]')
    tp.add_argument("--rolls", metavar="JSON", help='{"<dice key>": face, …}; without it, the dice to roll')
    tp.add_argument("--round", default="1", metavar="N", help="the round number [default: 1]")
    tp.add_argument("--options", metavar="JSON", help="the initiative calculator's other inputs (rulings)")


def _turns(args: argparse.Namespace) -> Any:
    def parsed(name: str, text: str | None) -> Any:
        return None if text is None else bounds.loads(text, name)

    round_no = declared.value({"type": "integer", "min": 1}, args.round, "round")
    people = parsed("combatants", args.combatants)
    options = parsed("options", args.options)
    if args.rolls is None:
        return turns.dice_needed(args.system, people, round_no, options)
    return turns.turn_order(args.system, people, parsed("rolls", args.rolls), round_no, options)


FIGHT = "fight"
"""The encounter tracker's fight (`calc.fight`): `python -m calc SYSTEM fight --action JSON
[--state FILE]`: the new state and view (`--json`), or the order and the combatants as text."""


def _add_fight(calcs: Any) -> None:
    fp = calcs.add_parser(FIGHT, help="The encounter tracker's fight: one action on a saved state")
    fp.add_argument("--json", action="store_true", help="print exactly what calc.fight.act returns")
    fp.add_argument("--action", required=True, metavar="JSON", help='{"type": "damage", "id": "c1", "amount": 4}, …')
    fp.add_argument(
        "--state", metavar="FILE", help="the fight's state as JSON ('-': standard input); none: a new fight"
    )


def _fight(args: argparse.Namespace) -> dict[str, Any]:
    action = bounds.loads(args.action, "action")  # nesting and length bounded before it is read
    state = None
    if args.state:
        try:
            text = sys.stdin.read() if args.state == "-" else open(args.state, encoding="utf-8").read()  # noqa: SIM115
        except (OSError, ValueError) as err:
            raise InputError("state", f"cannot be read ({err})") from None
        state = bounds.loads(text, "state", bounds.MAX_REQUEST_TEXT)  # a whole fight, as the browser sends it
    from calc import fight  # calc-fight (calc.packages): only this command needs it

    return fight.act(args.system, state, action)


def _render_fight(answer: dict[str, Any]) -> str:
    view = answer["view"]
    lines = [f"Round {view['round']}" + (" (over)" if view["round_over"] else "")]
    for e in view["order"]:
        mark = ">" if e["current"] else " "
        skip = "" if e["acts"] else " (passed over)"
        lines.append(f"{mark} {e['position']}. {e['name']} [{e['when']}] {e['hp']}/{e['max']} {e['state']}{skip}")
    for c in view["combatants"]:
        lines.append(f"  {c['id']} {c['name']} ({c['side']}): {c['hp']}/{c['max']} HP {c['state']}".rstrip())
    if view["pending"]:
        lines.append(f"Round {view['pending']['round']}: roll")
        lines += [
            f"  {d['key']}: {d['dice']} = {d['value'] if d['value'] is not None else '?'}"
            for d in view["pending"]["dice"]
        ]
    lines += [f"  - {s['text']} [{s['rule']}]" for s in answer["steps"]]
    return "\n".join(lines)


def _render_turns(answer: Any, people: list[dict[str, Any]]) -> str:
    if isinstance(answer, list):
        return "\n".join(
            f"{d['key']}: {d['dice']}{' (optional)' if d['optional'] else ''} — {d['label']}" for d in answer
        )
    names = {p.get("id"): p.get("name", p.get("id")) for p in people}
    lines = [f"{t['rank']}. {names.get(t['id'], t['id'])} [{t['when']}]" for t in answer["turns"]]
    lines += [f"  - {n['text']} [{n['rule']}]" for n in answer["notes"]]
    lines += [f"  roll: {d['key']}: {d['dice']} — {d['label']}" for d in answer["needs"]]
    return "\n".join(lines)


def _add_option(parser: argparse.ArgumentParser, decl: dict[str, Any]) -> None:
    flag = "--" + decl["name"].replace("_", "-")
    help_text = decl["label"]
    if decl.get("help"):
        help_text = f"{help_text.rstrip('.')}. {decl['help'].rstrip('.')}"
    if decl["type"] == "integer" and ("min" in decl or "max" in decl):
        help_text += f" ({decl.get('min', '…')} to {decl.get('max', '…')})"
    if decl["type"] == "choice":
        help_text += " (" + ", ".join(str(o["value"]) for o in decl["options"]) + ")"
    if decl["type"] == "list":
        fields = ", ".join(f["name"] for f in decl["fields"])
        help_text += f". Entries as JSON or '{declared.list_example(decl)}' (fields: {fields})"
    if decl.get("when"):
        help_text += f"; applies when {applies.condition_text(decl['when'])}, which giving it chooses"
    if "default" in decl and decl["type"] != "list":
        help_text += f" [default: {decl['default']}]"
    help_text = help_text.replace("%", "%%")
    if decl["type"] == "boolean":
        parser.add_argument(flag, dest=decl["name"], action=argparse.BooleanOptionalAction, help=help_text)
    else:
        parser.add_argument(flag, dest=decl["name"], metavar=decl["type"].upper(), help=help_text)


def render(answer: dict[str, Any]) -> str:
    """A readable, plain-text answer."""
    lines = [answer["summary"]] if answer["summary"] else []
    for c in answer["chances"]:
        lines.append(f"  {c['label']}: {c['p']['float'] * 100:.2f}% ({c['p']['fraction']})")
    for r in answer.get("rounds") or []:
        mean = r["mean"]
        exact = f"{mean['float']:.3f} ({mean['fraction']})" if mean else "never"
        lines.append(f"  Mean rounds, {r['label']}: {exact}")
    if answer["roll_needed"]:
        r = answer["roll_needed"]
        lines.append(f"  Roll needed on the {r['die']}: {r['text']}")
    dist = answer["distribution"]
    if dist:
        lines.append(
            f"  {dist['label']}: mean {dist['mean']['float']:.3f} ({dist['mean']['fraction']}), "
            f"min {dist['min']}, max {dist['max']}"
        )
        lines.append(f"    {'x':>6}  {'P(= x)':>9}  {'P(≥ x)':>9}")
        for eq, ge in zip(dist["pmf"], dist["at_least"], strict=True):
            lines.append(f"    {eq['x']:>6}  {eq['float'] * 100:8.3f}%  {ge['float'] * 100:8.3f}%")
    if answer["order"]:
        lines.append("  Order:")
        for g in answer["order"]:
            tied = " (tied)" if g["tied"] else ""
            note = f" — {g['note']}" if g["note"] else ""
            lines.append(f"    {g['rank']}. {', '.join(g['names'])} [{g['score']}]{tied}{note}")
    if answer["pairwise"]:
        lines.append("  Who acts first:")
        for p in answer["pairwise"]:
            before, tied, after = p["before"], p["tied"], p["after"]
            lines.append(
                f"    {p['first']} before {p['second']}: {before['float'] * 100:.2f}% ({before['fraction']}), "
                f"tied {tied['float'] * 100:.2f}%, after {after['float'] * 100:.2f}%"
            )
    if answer["table"]:
        t = answer["table"]
        lines.append(f"  {t['title']}:")
        lines.append("    " + " | ".join(t["columns"]))
        lines.extend("    " + " | ".join(row) for row in t["rows"])
    if answer["steps"]:
        lines.append("Why:")
        lines.extend(f"  - {s['text']} [{s['rule']}: {s['title']}]" for s in answer["steps"])
    return "\n".join(lines)


_SPECIAL: dict[str, tuple[Any, Any]] = {
    STATBLOCK: (_statblock, lambda answer, args: _render_statblock(answer)),
    TURNS: (_turns, lambda answer, args: _render_turns(answer, bounds.loads(args.combatants, "combatants"))),
    FIGHT: (_fight, lambda answer, args: _render_fight(answer)),
}
"""The commands that are no calculator of the data: (answer the arguments, show the answer as text)."""


def main(argv: list[str] | None = None) -> int:
    try:
        parser = build_parser()
    except CalcError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    args = parser.parse_args(argv)
    system = data.system(args.system)
    special = _SPECIAL.get(args.calculator)
    if special is not None and args.calculator not in system.calculators:
        ask, show = special
        try:
            answer = ask(args)
            print(json.dumps(answer, indent=2, ensure_ascii=False) if args.json else show(answer, args))
        except CalcError as err:
            print(f"error: {err}", file=sys.stderr)
            return 2
        return 0
    decl = system.calculator(args.calculator)
    given = {d["name"]: getattr(args, d["name"]) for d in decl["inputs"] if getattr(args, d["name"]) is not None}
    try:
        answer = evaluate({"system": args.system, "calculator": args.calculator, "inputs": given})
    except CalcError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    try:
        print(json.dumps(answer, indent=2, ensure_ascii=False) if args.json else render(answer))
    except BrokenPipeError:  # e.g. piped into `head`: the reader has what it wanted
        sys.stderr.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
