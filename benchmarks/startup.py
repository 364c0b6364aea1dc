"""Cold start: `sgprep parse` on 10 captions vs loading the spaCy model alone, per run.

Anchor: a fresh interpreter that imports spaCy and loads the same model (without torch and the
unused components, as sgprep does), the floor any spaCy-based run pays. Measured: `sgprep parse --workers 1` on
10 captions end to end (imports, planning, the parse, writing the shard and index). The two
alternate (anchor, sgprep, anchor, ...); medians of wall and CPU seconds and their ratios are
printed. Goal: at most 3 s wall on a quiet machine; the ratio is the figure that holds on a
busy one.

    python benchmarks/startup.py [--repeats 5]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout
from pipeline_core import CWD, _env, captions, cli_run, compile_package, report  # noqa: E402

LOAD_SPACY = (
    "import resource, subprocess, sys, time; t = time.perf_counter(); "
    "subprocess.run(sys.argv[1:], check=True); "
    "u = resource.getrusage(resource.RUSAGE_CHILDREN); "
    "print(time.perf_counter() - t, u.ru_utime + u.ru_stime)"
)
SPACY_ONLY = (
    "from sgprep.parse.rules import load_spacy; "
    "from sgprep.parse.base import DEFAULT_SPACY_MODEL; "
    "load_spacy(DEFAULT_SPACY_MODEL)"
)


def spacy_alone() -> tuple[float, float]:
    out = subprocess.run(
        [sys.executable, "-c", LOAD_SPACY, sys.executable, "-c", SPACY_ONLY],
        check=True,
        capture_output=True,
        text=True,
        env=_env(),
        cwd=CWD,  # the anchor imports the same sgprep as the runs, not the caller's folder's
    )
    wall, cpu = out.stdout.split()[-2:]
    return float(wall), float(cpu)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args(argv)
    compile_package()  # as an installed copy has it (PYTHONDONTWRITEBYTECODE: each run compiles)
    walls, cpus, anchor_walls, anchor_cpus = [], [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        table = Path(tmp) / "captions.txt"
        table.write_text("\n".join(captions(10)) + "\n")
        spacy_alone()  # warm the file cache for both
        for i in range(args.repeats):
            wall, cpu = spacy_alone()
            anchor_walls.append(wall)
            anchor_cpus.append(cpu)
            run = cli_run(
                "parse", "-i", str(table), "-o", str(Path(tmp) / f"o{i}"), "--workers", "1"
            )
            walls.append(run.wall)
            cpus.append(run.cpu)
    report(
        {
            "sgprep_parse_10_captions_wall_s": statistics.median(walls),
            "sgprep_parse_10_captions_cpu_s": statistics.median(cpus),
            "spacy_load_alone_wall_s": statistics.median(anchor_walls),
            "spacy_load_alone_cpu_s": statistics.median(anchor_cpus),
            "sgprep_vs_spacy_load_wall": statistics.median(
                w / a for w, a in zip(walls, anchor_walls)
            ),
            "sgprep_vs_spacy_load_cpu": statistics.median(c / a for c, a in zip(cpus, anchor_cpus)),
        }
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
