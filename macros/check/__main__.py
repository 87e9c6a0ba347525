"""`python -m macros.check`: validate all of `rules_data/` and print every problem as
`file:LINE: field.path: message`; exit 1 when there is any (never a traceback).

`--partial` skips the checks of a finished site (at least one system, every calculator and table
generator found in its engine in calc/) and `--no-coverage` the source-coverage check, for work in
progress.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from macros.check import coverage, loader
from macros.load import catalog


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m macros.check", description=__doc__.split("\n\n")[0])
    parser.add_argument("--partial", action="store_true", help="work in progress: skip completeness checks")
    parser.add_argument("--no-coverage", action="store_true", help="skip the source-coverage check")
    parser.add_argument("--root", type=Path, default=catalog.ROOT, help="checkout holding rules_data/")
    parser.add_argument("systems", nargs="*", help="only report problems of these systems")
    args = parser.parse_args(argv)
    cat = loader.load(args.root, complete=not args.partial)
    problems = list(cat.problems)
    if not args.no_coverage:
        for system in cat.systems.values():
            if system.schema_ok:
                problems.extend(coverage.check(system, catalog.sources_dir(cat.root)))
    if args.systems:
        problems = [p for p in problems if any(p.file.startswith(f"rules_data/{s}/") for s in args.systems)]
    problems = sorted(set(problems))
    for problem in problems:
        print(problem)
    count = len(problems)
    print(
        f"{count} problem{'s' if count != 1 else ''} in rules_data/" if count else "rules_data/ is valid",
        file=sys.stderr,
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
