"""`sgprep negatives` from the command line vs the negatives stage in process: graphs/s per core.

Anchor: the negatives stage alone, in a new process each time, on the same graphs (loaded
from the parsed output before its clock starts; the rate `negatives_throughput.py` reports
as its first pass). Measured:
`sgprep negatives --workers 1` on that parsed output, end to end in a subprocess (start-up,
planning, reading, writing the shards and index included), per CPU second of the run. The
two are interleaved (anchor, CLI, anchor, CLI, ... per strategy); medians are reported with
the ratio CLI/anchor, and the CLI's rate against the goal of 5,000 graphs/s per core.

    python benchmarks/negatives_cli.py [--n 5000] [--repeats 3] [--strategies swap,replace]
                                       [--source-only]

The input is made once by `sgprep parse` over generated captions (the generator of
`negatives_throughput.py`), in shards of 1,000.

Large inputs, so that start-up is amortised: ``--input`` names an sgprep output to read (a
folder of shards, or a ``FILE.jsonl`` with its ``FILE.run.json``) instead of generated
captions; ``--jsonl`` also reads the same graphs as JSON Lines (parse's ``FILE.jsonl`` output,
made once, or the ``.jsonl`` beside an ``--input`` folder). Start-up (imports, vocabulary,
planning a tiny run: ``--limit 10``) is measured apart, interleaved with the rest, and each
rate is also given without it. ``--vs CHECKOUT`` runs the same CLI commands from another
checkout too (``PYTHONPATH=CHECKOUT``; its bytecode compiled as well), interleaved with this
one's, and reports this checkout's rate over that one's, pair by pair (the before/after of a
change):

    python benchmarks/negatives_cli.py --input /tmp/parsed --jsonl --repeats 2 \
        --vs /tmp/main-checkout

sgprep's bytecode is compiled first (``compileall``, into the checkout's ``__pycache__``),
as pip does when it installs the package: where ``PYTHONDONTWRITEBYTECODE`` is set, each CLI
run of a checkout would otherwise compile every sgprep module it imports again, about 0.25
CPU-s of a run that no installed copy pays. ``--source-only`` measures that way all the same.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
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


def compile_package(root: Path | None = None) -> None:
    """sgprep's bytecode, as an installed copy has it (the CLI runs import this checkout, or
    ``root``'s)."""
    import compileall

    if root is None:
        import sgprep

        root = Path(sgprep.__file__).parent.parent
    compileall.compile_dir(root / "sgprep", quiet=1)


def cli_from(checkout: Path, *args: str) -> float:
    """CPU seconds (user + system, children included) of one ``sgprep`` CLI run importing the
    sgprep of ``checkout``."""
    code = (
        "import resource, subprocess, sys; "
        "subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL, "
        "stderr=subprocess.DEVNULL); "
        "u = resource.getrusage(resource.RUSAGE_CHILDREN); print(u.ru_utime + u.ru_stime)"
    )
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    out = subprocess.run(
        [sys.executable, "-c", code, sys.executable, "-m", "sgprep.cli", *args, "--no-progress"],
        check=True,
        capture_output=True,
        text=True,
        env=env,
        cwd=checkout.parent,  # `python -m` puts the working folder first on the path
    )
    return float(out.stdout)


def in_process(strategy: str, graphs) -> float:
    """CPU seconds of the negatives stage alone over the graphs (set-up not counted), in a
    new process: the stage memoises by words, and a pass in this process after the first
    would find its memos filled, which no CLI run does."""
    import multiprocessing

    with multiprocessing.get_context("spawn").Pool(1) as pool:
        return pool.apply(_stage_cpu, (strategy, graphs))


def _stage_cpu(strategy: str, graphs) -> float:
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
    ap.add_argument("--input", type=Path, help="an sgprep output (shards) to read instead")
    ap.add_argument("--jsonl", action="store_true", help="also read the graphs as JSON Lines")
    ap.add_argument("--vs", type=Path, help="another checkout to run the same commands from")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--strategies", default="swap,shuffle,replace,connect")
    ap.add_argument(
        "--source-only", action="store_true", help="do not compile sgprep's bytecode first"
    )
    args = ap.parse_args(argv)
    here = Path(__file__).resolve().parents[1]
    checkouts = {"cli": here, **({"vs": args.vs.resolve()} if args.vs else {})}
    if not args.source_only:
        for root in checkouts.values():
            compile_package(root)
    results: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        if args.input is None:
            table = tmp / "captions.txt"
            table.write_text("\n".join(generate_captions(args.n)) + "\n")
            parsed = tmp / "parsed"
            cli_run("parse", "-i", str(table), "-o", str(parsed), "--shard-size", "1000")
            inputs = {"shards": parsed}
            if args.jsonl:
                inputs["jsonl"] = tmp / "parsed.jsonl"
                cli_run("parse", "-i", str(table), "-o", str(inputs["jsonl"]))
        else:
            inputs = {"shards": args.input}
            if args.jsonl:
                inputs["jsonl"] = args.input.with_name(args.input.name + ".jsonl")
        graphs = load_graphs(inputs["shards"])
        for strategy in args.strategies.split(","):
            rates: dict[str, list[float]] = {"in_process": []}
            for _ in range(args.repeats):
                rates["in_process"].append(len(graphs) / in_process(strategy, graphs))
                for form, source in inputs.items():
                    for name, checkout in checkouts.items():
                        flags = ["--strategy", strategy, "--workers", "1", "--overwrite"]
                        out = str(tmp / ("neg.jsonl" if form == "jsonl" else "neg"))
                        run = ["negatives", "-i", str(source), "-o", out, *flags]
                        start = cli_from(checkout, *run, "--limit", "10")
                        cpu = cli_from(checkout, *run)
                        rates.setdefault(f"{name}_{form}", []).append(len(graphs) / cpu)
                        rates.setdefault(f"{name}_{form}_startup_cpu_s", []).append(start)
                        rates.setdefault(f"{name}_{form}_without_startup", []).append(
                            len(graphs) / max(cpu - start, 1e-9)
                        )
            for key, values in rates.items():
                unit = "" if key.endswith("_s") else "_graphs_per_cpu_s"
                results[f"{strategy}_{key}{unit}"] = statistics.median(values)
            for form in inputs:
                cli = rates[f"cli_{form}"]
                ratios = [c / a for c, a in zip(cli, rates["in_process"])]
                results[f"{strategy}_cli_{form}_vs_in_process"] = statistics.median(ratios)
                results[f"{strategy}_cli_{form}_vs_goal_5000"] = statistics.median(cli) / GOAL
                if args.vs:
                    pairs = zip(cli, rates[f"vs_{form}"])
                    results[f"{strategy}_cli_{form}_vs_other_checkout"] = statistics.median(
                        c / v for c, v in pairs
                    )
    results["graphs"] = len(graphs)
    report(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
