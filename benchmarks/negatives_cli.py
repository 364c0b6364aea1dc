"""`sgprep negatives` from the command line vs the negatives stage in process: graphs/s per core.

Anchor: the negatives stage alone, in this process, on the same graphs (loaded from the
parsed output before its clock starts; the rate `negatives_throughput.py` reports). Measured:
`sgprep negatives --workers 1` on that parsed output, end to end in a subprocess (start-up,
planning, reading, writing the shards and index included), per CPU second of the run. The
two are interleaved (anchor, CLI, anchor, CLI, ... per strategy); medians are reported with
the ratio CLI/anchor, and the CLI's rate against the goal of 5,000 graphs/s per core.

    python benchmarks/negatives_cli.py [--n 5000] [--repeats 3] [--strategies swap,replace]
                                       [--source-only]

The input is made once by `sgprep parse` over generated captions (the generator of
`negatives_throughput.py`), in shards of 1,000.

sgprep's bytecode is compiled first (``compileall``, into the checkout's ``__pycache__``),
as pip does when it installs the package: where ``PYTHONDONTWRITEBYTECODE`` is set, each CLI
run of a checkout would otherwise compile every sgprep module it imports again, about 0.25
CPU-s of a run that no installed copy pays. ``--source-only`` measures that way all the same.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout
from negatives_throughput import generate_captions  # noqa: E402
from pipeline_core import cli_run, report  # noqa: E402

GOAL = 5000.0


def load_graphs(output: Path) -> list[tuple[str, str, object]]:
    import pyarrow.parquet as pq

    from sgprep.schema import SceneGraph

    rows = []
    for path in sorted(output.glob("[0-9]*.parquet")):
        for row in pq.read_table(path, columns=["key", "caption", "sg", "status"]).to_pylist():
            if row["status"] == "ok":
                rows.append((row["key"], row["caption"], SceneGraph.model_validate_json(row["sg"])))
    return rows


def compile_package() -> None:
    """sgprep's bytecode, as an installed copy has it (the CLI runs import this checkout)."""
    import compileall

    import sgprep

    compileall.compile_dir(Path(sgprep.__file__).parent, quiet=1)


def in_process(strategy: str, graphs) -> float:
    """CPU seconds of the negatives stage alone over the graphs (set-up not counted)."""
    from sgprep.negatives.stage import NegativesSettings, NegativesStage
    from sgprep.schema import Sample

    stage = NegativesStage(NegativesSettings(strategies=[strategy]))
    stage.setup()
    samples = [Sample(key=k, source="bench", caption=c, sg=g) for k, c, g in graphs]
    start = time.process_time()
    for i in range(0, len(samples), 256):
        stage.run(samples[i : i + 256])
    return time.process_time() - start


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=5000, help="generated captions")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--strategies", default="swap,shuffle,replace,connect")
    ap.add_argument(
        "--source-only", action="store_true", help="do not compile sgprep's bytecode first"
    )
    args = ap.parse_args(argv)
    if not args.source_only:
        compile_package()
    results: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        table = tmp / "captions.txt"
        table.write_text("\n".join(generate_captions(args.n)) + "\n")
        parsed = tmp / "parsed"
        cli_run("parse", "-i", str(table), "-o", str(parsed), "--shard-size", "1000")
        graphs = load_graphs(parsed)
        for strategy in args.strategies.split(","):
            anchor, cli = [], []
            for _ in range(args.repeats):
                anchor.append(len(graphs) / in_process(strategy, graphs))
                run = cli_run(
                    "negatives",
                    "-i",
                    str(parsed),
                    "-o",
                    str(tmp / "neg"),
                    "--strategy",
                    strategy,
                    "--workers",
                    "1",
                    "--overwrite",
                )
                cli.append(len(graphs) / run.cpu)
            ratios = [c / a for c, a in zip(cli, anchor)]
            results[f"{strategy}_in_process_graphs_per_cpu_s"] = statistics.median(anchor)
            results[f"{strategy}_cli_graphs_per_cpu_s"] = statistics.median(cli)
            results[f"{strategy}_cli_vs_in_process"] = statistics.median(ratios)
            results[f"{strategy}_cli_vs_goal_5000"] = statistics.median(cli) / GOAL
    results["graphs"] = len(graphs)
    report(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
