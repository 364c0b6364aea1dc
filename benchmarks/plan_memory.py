"""Planning memory at CC12M scale: peak RSS of planning N captions (keys and offsets, the
on-disk duplicate check) against the old approach, a Python set of every key, same run.

    python benchmarks/plan_memory.py [--n 2000000]

Each measurement runs in a fresh interpreter so its peak RSS is its own. The anchor holds the
same keys in a set, as the executor did before planning existed (~95 bytes a key).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from pipeline_core import report  # noqa: E402

PLAN = """
import resource, sys, time
sys.path.insert(0, {root!r})
from pathlib import Path
from sgprep.exec.plan import make_plan
from sgprep.io.writers import ShardWriter
writer = ShardWriter(Path({out!r})); (writer.root / "_meta").mkdir(parents=True)
start = time.perf_counter()
plan = make_plan({table!r}, None, 1000, None, writer)
print(time.perf_counter() - start, plan.samples, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""

SET = """
import resource, time
start = time.perf_counter()
seen = set()
with open({table!r}, "rb") as fh:
    for n, line in enumerate(fh):
        seen.add(f"{{n:09d}}")
print(time.perf_counter() - start, len(seen), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""

BASE = "import resource; print(0, 0, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"


def measure(code: str) -> tuple[float, int, int]:
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    seconds, count, rss = out.stdout.split()
    return float(seconds), int(count), int(rss)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=2_000_000)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        table = Path(tmp) / "captions.txt"
        with open(table, "w") as fh:
            for i in range(args.n):
                fh.write(f"a red cube number {i} next to a blue sphere\n")
        _, _, python_rss = measure(BASE)
        plan_s, planned, plan_rss = measure(
            PLAN.format(root=str(ROOT), out=str(Path(tmp) / "out"), table=str(table))
        )
        set_s, kept, set_rss = measure(SET.format(table=str(table)))
    assert planned == kept == args.n
    results = {
        "captions": args.n,
        "plan_seconds": plan_s,
        "plan_peak_rss_mb": plan_rss / 1024,
        "key_set_peak_rss_mb": set_rss / 1024,
        "bare_python_rss_mb": python_rss / 1024,
        "plan_bytes_per_key": (plan_rss - python_rss) * 1024 / args.n,
        "key_set_bytes_per_key": (set_rss - python_rss) * 1024 / args.n,
    }
    report(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
