"""`python -m macros.export`: write `calc/rules.json`, the data the engines read, from `rules_data/`.

Systems with data problems are left out and their problems printed; the command then exits 1, so
`make data` fails, but the valid systems are still exported for whoever is working on them.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from macros.export.rules_json import OUTPUT, write


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m macros.export", description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args(argv)
    cat, data, broken = write(args.output)
    for problem in cat.problems:
        print(problem)
    shown = ", ".join(data["systems"]) or "none"
    print(f"wrote {args.output} (systems: {shown}; version {data['version']})", file=sys.stderr)
    if cat.problems:
        print(f"left out because of data problems: {', '.join(sorted(broken)) or '—'}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
