"""Time and peak memory of `python -m macros.check` on each hostile rules-data case
(tests/data/hostile.py): `python -m bench.hostile_data [--cap-mb N] [--timeout S]`.

Each case runs in its own process under an address-space cap (default 4 GB) and a time limit
(default 60 s), so a regression is reported as "over the cap" instead of swapping the machine.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "data"))

from hostile import CASES, make  # noqa: E402

CHILD = """
import resource, runpy, sys
cap = int(sys.argv.pop(1))
resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
sys.argv = ["macros.check", *sys.argv[1:]]
try:
    runpy.run_module("macros.check", run_name="__main__")
finally:
    print(f"PEAK_RSS_KB {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}", file=sys.stderr)
"""


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.hostile_data", description=__doc__.split("\n\n")[0])
    parser.add_argument("--cap-mb", type=int, default=4096, help="address-space cap per case (MB)")
    parser.add_argument("--timeout", type=float, default=60, help="seconds before a case is stopped")
    parser.add_argument("cases", nargs="*", help="only these cases (default: all)")
    args = parser.parse_args()
    print(f"{'case':32} {'seconds':>8} {'peak RSS MB':>12}  first line of the report")
    for case in args.cases or CASES:
        with tempfile.TemporaryDirectory() as tmp:
            root = make(Path(tmp), case)
            command = [sys.executable, "-c", CHILD, str(args.cap_mb << 20), "--partial", "--no-coverage"]
            start = time.perf_counter()
            try:
                done = subprocess.run(
                    [*command, "--root", str(root)], capture_output=True, text=True, cwd=ROOT, timeout=args.timeout
                )
            except subprocess.TimeoutExpired:
                print(f"{case:32} {'>' + str(args.timeout):>8} {'?':>12}  stopped after the time limit")
                continue
            seconds = time.perf_counter() - start
        peak = next((int(x.split()[1]) for x in done.stderr.splitlines() if x.startswith("PEAK_RSS_KB")), 0)
        lines = done.stdout.splitlines()
        first = lines[0] if lines else (done.stderr.strip().splitlines() or ["(nothing)"])[-2][:80]
        more = f" (+{len(lines) - 1} more)" if len(lines) > 1 else ""
        print(f"{case:32} {seconds:8.2f} {peak / 1024:12.0f}  {first[:90]}{more}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
