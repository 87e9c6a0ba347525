"""Taps per round in the encounter tracker: a scripted nine-combatant fight (4 PCs against 5 foes,
issue #35) in each system, on a 390×844 phone, counted the way a GM at a table spends them.

`python -m bench.tracker_taps BASE_URL [--rounds N] [--shots DIR]` drives a built site (served at
BASE_URL, e.g. http://127.0.0.1:8000/sub/) in headless Chromium: adds nine combatants (not
counted), then plays N rounds (default 2) through the page's own controls, counting

  taps  — every button pressed (the round button, Start round, each Next turn, each declaration,
          each target picked, each Roll and Resolve; a choice from a list counts one tap, as the
          issue counts them);
  dice  — every die typed from the table (one entry per die the round asks for; rolling them all
          in the page instead costs one tap, "Roll the empty ones here").

On each turn the acting combatant attacks, the GM's script being focus fire: the enemy it last
attacked while that one stands, else the standing enemy with the fewest hit points (ties: the
first card). The attack is made the shortest way the page offers: its target picked if the page
has not picked it (a tap on its chip), the page's "Roll all" where the page has one and Resolve
does not roll the empty dice by itself (its `data-cc-rolls`), then Resolve; again while the panel says attacks are left
(`data-cc-attacks-left`), then Next turn unless the page has moved on. "Taps per attack" counts
the taps of the turns (target, roll, Resolve, Next turn) over the attacks made.

Where the rules ask each combatant to declare its action (segments, phases), one combatant (Bob)
changes his each round — the others' stand — by the shortest way the page offers: the control on
the card, or inside the opened card, or else the card's Edit form (open, Edit, Action, Save).

A round ends when the page shows the round over (no current combatant). It also reports the
page's height and the collapsed cards' heights with six combatants, and, with --shots, takes a
screenshot of the tracker mid-round in the light and dark schemes.

It uses only the hooks the issue keeps for outside tests (`.cc-tracker[data-cc-round]`,
`data-cc-turn`, the buttons' names, the dice form's `input[data-cc-key]`), so the same script
measures the page before and after a change."""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from urllib.parse import urljoin

from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
SYSTEMS = ["countup", "segments", "action-points", "phases", "active-defense"]
PEOPLE = [
    ("Ann", "pc", 20),
    ("Bob", "pc", 14),
    ("Cy", "pc", 11),
    ("Dee", "pc", 16),
    ("Orc", "foe", 15),
    ("Gob", "foe", 7),
    ("Ogre", "foe", 30),
    ("Rat", "foe", 5),
    ("Wolf", "foe", 12),
]
PHONE = {"width": 390, "height": 844}
CHANGES = {"segments": ["missile", "melee"], "phases": ["ranged", "melee"]}
"""Bob's declared action, round by round, where the rules ask for one (the values of the data's
`action` choice)."""
TIMEOUT_MS = 120_000


class Counter:
    def __init__(self) -> None:
        self.taps = 0
        self.dice = 0
        self.attacks = 0
        self.turn_taps = 0  # taps spent on the turns (target, roll, Resolve, Next turn)
        self.last: dict[str, str] = {}  # attacker name → the name it last attacked (the GM's script)

    def fresh(self) -> Counter:
        """A new round's counter that remembers the script's last targets."""
        out = Counter()
        out.last = self.last
        return out

    def tap(self, locator) -> None:
        self.taps += 1
        locator.click()
        settle(locator.page)


def settle(page) -> None:
    """Wait until the page has its answer (a tracker that asks an engine marks itself busy)."""
    page.locator(".cc-tracker:not([data-cc-busy])").wait_for(state="attached")


def answered_ms(page) -> float | None:
    """How long the worker took over the last action (the page's data-cc-answered-ms), if it says."""
    ms = page.locator(".cc-tracker").get_attribute("data-cc-answered-ms")
    return float(ms) if ms not in (None, "", "-1") else None


def action_times(browser, base: str, system: str, n: int = 40) -> dict:
    """Each kind of action with `n` combatants, as the worker timed it (ms)."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(urljoin(base, f"{system}/tracker/"))
    page.wait_for_selector(".cc-tracker[data-cc-bound]")
    times: dict[str, list[float]] = {}

    def timed(kind: str, locator) -> None:
        locator.click()
        settle(page)
        ms = answered_ms(page)
        if ms is not None:
            times.setdefault(kind, []).append(ms)

    for i in range(n):
        if not page.locator(".cc-tk-add[open]").count():
            page.locator(".cc-tk-add > summary").click()
        page.get_by_label("Name", exact=True).fill(f"Foe {i + 1}")
        page.locator(".cc-tk-form input[data-cc-health]").first.fill("20")
        timed("add", page.get_by_role("button", name="Add", exact=True))
    timed("next_round", page.locator(".cc-tk-roundbtn"))
    for _ in range(5):  # again while a tie asks for more dice
        if not page.locator(".cc-tk-diceform").count():
            break
        page.get_by_role("button", name="Roll the empty ones here").click()
        timed("start_round", page.get_by_role("button", name="Start round 1"))
    if page.locator(".cc-tracker").get_attribute("data-cc-round") != "1":
        raise AssertionError(f"{system}: round 1 did not start: {page.locator('.cc-tk-status').inner_text()}")
    for i in (1, 2, 3):
        page.get_by_label(f"Amount of damage or healing for Foe {i}", exact=True).fill("5")
        timed("damage", page.get_by_role("button", name=f"Damage Foe {i}", exact=True))
    for _ in range(5):
        timed("next_turn", page.locator(".cc-tk-bar").get_by_role("button", name="Next turn"))
    timed("undo", page.locator(".cc-tk-bar").get_by_role("button", name="Undo"))
    context.close()
    # the median and the slowest of each kind (the first request also imports the fight's modules)
    return {k: (round(statistics.median(v), 1), round(max(v), 1)) for k, v in times.items()}


def add_people(page) -> None:
    for name, side, hp in PEOPLE:
        if not page.locator(".cc-tk-add[open]").count():
            page.locator(".cc-tk-add > summary").click()
        page.get_by_label("Name", exact=True).fill(name)
        page.locator(".cc-tk-form select").filter(has=page.locator("option[value=foe]")).first.select_option(side)
        page.locator(".cc-tk-form label:has-text('(full)') + input, .cc-tk-form input[data-cc-health]").first.fill(
            str(hp)
        )
        page.get_by_role("button", name="Add", exact=True).click()
        page.locator(f".cc-tk-card[data-cc-id]:has-text('{name}')").first.wait_for()


def declare(page, name: str, value: str, count: Counter) -> None:
    """Change `name`'s declared action to `value` the shortest way the page offers, counting taps."""
    card = page.locator(f".cc-tk-card:has(h3:has-text('{name}'))")
    on_card = card.get_by_label(f"Action of {name} this round")
    if not on_card.count():  # inside the opened card, if anywhere on it
        toggle = card.locator(".cc-tk-toggle")
        if toggle.get_attribute("aria-expanded") != "true":
            count.tap(toggle)
    if on_card.count():
        count.taps += 1
        on_card.select_option(value)
        settle(page)
        return
    count.tap(card.get_by_role("button", name=f"Edit {name}"))
    form = page.locator(".cc-tk-form")
    count.taps += 1
    form.get_by_label("Action", exact=True).select_option(value)
    count.tap(form.get_by_role("button", name="Save changes"))
    card.locator(".cc-tk-toggle").wait_for()


def round_over(page, round_no: int) -> bool:
    root = page.locator(".cc-tracker")
    return root.get_attribute("data-cc-round") == str(round_no) and not root.get_attribute("data-cc-turn")


def play_round(page, round_no: int, count: Counter) -> None:
    """One round through the page's buttons: the round button, the dice typed, Start, Next turn
    until the round is over. Dice are typed as the table rolled them (face 1 + i mod sides)."""
    root = page.locator(".cc-tracker")
    started = f".cc-tracker[data-cc-round='{round_no}']"
    count.tap(
        root.get_by_role("button", name="Roll initiative").or_(root.get_by_role("button", name="Next round")).first
    )
    page.locator(f"{started}, .cc-tk-diceform").first.wait_for()
    while not page.locator(started).count():
        form = root.locator(".cc-tk-diceform")
        inputs = form.locator("input[data-cc-key]")
        for i in range(inputs.count()):
            field = inputs.nth(i)
            if not field.input_value():
                dice = field.evaluate("(e) => e.labels[0].querySelector('.cc-tk-dicetext').textContent")
                n, sides = (int(x or 1) for x in dice.lower().split("d"))
                field.fill(str(n + (i * 7 + round_no * 3) % (n * sides - n + 1)))
                count.dice += 1
        form.evaluate("(f) => f.setAttribute('data-bench-old', '')")
        count.tap(form.get_by_role("button", name=f"Start round {round_no}"))
        page.locator(f"{started}, .cc-tk-diceform:not([data-bench-old])").first.wait_for()
    guard = 0
    while not round_over(page, round_no):
        before = count.taps
        play_turn(page, count)
        count.turn_taps += count.taps - before
        guard += 1
        assert guard < 200, "the round never ends"


def turn_key(page) -> tuple:
    root = page.locator(".cc-tracker")
    slot = page.locator(".cc-tk-slot[aria-current]")
    position = slot.first.locator(".cc-tk-pos").inner_text() if slot.count() else ""
    return root.get_attribute("data-cc-round"), root.get_attribute("data-cc-turn"), position


def cards(page) -> list[dict]:
    """Every card as the page shows it: name, side, hit points, whether it still stands."""
    return page.evaluate(
        """() => [...document.querySelectorAll('.cc-tk-card')].map((c) => ({
            name: c.querySelector('h3 .cc-tk-toggle')?.firstChild?.textContent?.trim() ?? '',
            side: c.classList.contains('cc-tk-pc') ? 'pc' : 'foe',
            hp: Number(c.querySelector('.cc-tk-left')?.textContent ?? 0),
            stands: !c.classList.contains('cc-tk-down'),
        }))"""
    )


def wanted(page, attacker: str, count: Counter) -> str | None:
    """The GM's script: the last target while it stands, else the standing enemy with the fewest hit points."""
    shown = cards(page)
    me = next(c for c in shown if c["name"] == attacker)
    foes = [c for c in shown if c["side"] != me["side"] and c["stands"]]
    last = count.last.get(attacker)
    if any(c["name"] == last for c in foes):
        return last
    return min(foes, key=lambda c: c["hp"])["name"] if foes else None


def play_turn(page, count: Counter) -> None:
    """The acting combatant's attacks (while the page says some are left), then Next turn unless the page moved on."""
    try:  # the acting card with its odds panel drawn (the page draws it as the view arrives)
        page.wait_for_function(
            """() => { const t = document.querySelector('.cc-tracker').dataset.ccTurn;
                       const c = document.querySelector('.cc-tk-card[aria-current]');
                       return c && c.dataset.ccId === t && c.querySelector('.cc-tk-odds button'); }""",
            timeout=3000,
        )
    except PlaywrightTimeout:
        pass  # a turn with no odds (nobody to attack): Next turn only
    key = turn_key(page)
    card = page.locator(".cc-tk-card[aria-current]")
    for _ in range(6):
        panel = card.locator(".cc-tk-odds")
        if turn_key(page) != key or not panel.count():
            break
        attacker = card.locator("h3 .cc-tk-toggle").evaluate("(b) => b.firstChild.textContent.trim()")
        aim = wanted(page, attacker, count)
        if aim is None:
            break
        chip = panel.get_by_role("button", name=f"Target {aim}", exact=True)
        if chip.count() and chip.get_attribute("aria-pressed") != "true":
            count.tap(chip)
        panel = card.locator(".cc-tk-odds")
        if not panel.get_by_role("button", name="Resolve", exact=False).count():
            break
        roll_all = panel.get_by_role("button", name="Roll all", exact=False)
        rolls_itself = panel.locator("button[data-cc-rolls]").count()
        if roll_all.count() and not rolls_itself:
            count.tap(roll_all)
        count.tap(card.locator(".cc-tk-odds").get_by_role("button", name="Resolve", exact=False))
        count.attacks += 1
        count.last[attacker] = aim
        status = page.locator(".cc-tk-status")
        if "cc-tk-problem" in (status.get_attribute("class") or ""):
            raise AssertionError(f"Resolve refused: {status.inner_text()}")
        left = card.locator(".cc-tk-odds").get_attribute("data-cc-attacks-left") if turn_key(page) == key else None
        if not left or left == "0":
            break
    if turn_key(page) == key and not round_over(page, int(key[0])):
        count.tap(page.locator(".cc-tk-bar").get_by_role("button", name="Next turn"))


def heights(page) -> dict:
    return page.evaluate(
        """() => ({
            // the tracker page scrolls in Material's .md-container, above the turn bar
            page: Math.max(document.documentElement.scrollHeight,
                           document.querySelector('.md-container')?.scrollHeight ?? 0),
            cards: [...document.querySelectorAll('.cc-tk-card')]
                .map((c) => Math.round(c.getBoundingClientRect().height)),
        })"""
    )


def measure(browser, base: str, system: str, rounds: int, shots: Path | None) -> dict:
    out: dict = {"system": system, "rounds": []}
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport=PHONE, color_scheme=scheme, has_touch=True, is_mobile=True)
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(urljoin(base, f"{system}/tracker/"))
        page.wait_for_selector(".cc-tracker[data-cc-bound]")
        add_people(page)
        if scheme == "light":
            count = Counter()
            for round_no in range(1, rounds + 1):
                count = count.fresh()
                t0 = time.perf_counter()
                changes = CHANGES.get(system)
                if changes:
                    declare(page, "Bob", changes[(round_no - 1) % len(changes)], count)
                declared = count.taps
                play_round(page, round_no, count)
                out["rounds"].append(
                    {
                        "round": round_no,
                        "taps": count.taps,
                        "declare_taps": declared,
                        "attacks": count.attacks,
                        "taps_per_attack": round(count.turn_taps / count.attacks, 2) if count.attacks else None,
                        "dice": count.dice,
                        "seconds": round(time.perf_counter() - t0, 1),
                    }
                )
            out.update(heights(page))
        if shots:
            # mid-round: the next round asked for, then its first turn
            page.evaluate("() => { window.scrollTo(0, 0); document.querySelector('.md-container')?.scrollTo(0, 0); }")
            page.screenshot(path=str(shots / f"{system}-{scheme}-top.png"))
            now = page.locator(".cc-tk-card[aria-current]")
            if now.count():
                now.scroll_into_view_if_needed()
            page.screenshot(path=str(shots / f"{system}-{scheme}-cards.png"))
        context.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base", help="the built site's URL, e.g. http://127.0.0.1:8000/sub/")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--shots", type=Path, default=None, help="a folder for screenshots")
    parser.add_argument("--systems", default=",".join(SYSTEMS))
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    parser.add_argument("--times", action="store_true", help="also time each action with 40 combatants")
    args = parser.parse_args()
    if args.shots:
        args.shots.mkdir(parents=True, exist_ok=True)
    results = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--disable-gpu", "--no-first-run"])
        for system in args.systems.split(","):
            r = measure(browser, args.base, system, args.rounds, args.shots)
            results.append(r)
            per = " · ".join(
                f"round {x['round']}: {x['taps']} taps ({x['declare_taps']} to declare; {x['attacks']} attacks, "
                f"{x['taps_per_attack']} taps each) + {x['dice']} dice typed"
                for x in r["rounds"]
            )
            lo, hi = min(r.get("cards", [0])), max(r.get("cards", [0]))
            print(f"{system:15} {per} | page {r.get('page')} px, cards {lo}–{hi} px", flush=True)
            if args.times:
                r["ms_40"] = action_times(browser, args.base, system)
                print(f"{'':15} ms in the worker, 40 combatants (median, slowest): {r['ms_40']}", flush=True)
        browser.close()
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
