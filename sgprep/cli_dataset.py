"""The verbs that read a finished sgprep output: ``stats``, ``filter`` and ``validate``
(registered on the app in cli.py)."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any, Optional

import typer
from pydantic import ValidationError
from rich.markup import escape

from sgprep import flags
from sgprep.cli_common import console, fail, one_path, stdout
from sgprep.stats.filter import Criteria

DATASET = typer.Argument(
    None, metavar="DIR", show_default=False, help="An sgprep output directory; or -i DIR."
)
DATASET_OPTION = typer.Option(None, "--input", "-i", help="The same, as an option.")


def stats(
    output: Optional[Path] = DATASET,
    given: Optional[Path] = DATASET_OPTION,
    threshold: float = typer.Option(
        0.25, min=0, max=1, help="Detection score at which an object counts."
    ),
    html: bool = typer.Option(True, "--html/--no-html", help="Write _meta/report.html."),
    threads: Optional[int] = typer.Option(None, min=1, help="DuckDB threads (default: all cores)."),
    as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
) -> None:
    """Data properties per sample and per dataset: _meta/stats.parquet, _meta/report.html."""
    output = one_path(output, given)
    require_sgprep_output(output)
    try:
        from sgprep.stats.report import render, run_stats
    except ImportError as exc:
        fail(
            f"`sgprep stats` needs the stats extra ({exc.name} is missing): "
            'pip install "sgprep[stats]"'
        )
    try:
        summary = run_stats(output, threshold=threshold, html=html, threads=threads)
    except OSError as exc:
        fail(f"cannot write the statistics of {output}: {exc}")
    if as_json:
        stdout.print_json(summary.model_dump_json())
        return
    stdout.print(render(summary))
    from sgprep.exec.timing import read_timing, timing_lines
    from sgprep.schema import OutputDir

    for label, text in timing_lines(read_timing(OutputDir(output).meta)):
        stdout.print(f"{label:<28}{text}", highlight=False, soft_wrap=True)
    if summary.report_path:
        stdout.print(f"report: {summary.report_path}", highlight=False, soft_wrap=True)


def require_sgprep_output(path: Path) -> None:
    """Refuse, in one line, a directory that sgprep did not write (img2dataset's shards use
    the same file names); refuse, listing the problems, an output whose finished shards are
    not the files sgprep wrote (damaged stats or index, a truncated, emptied or missing tar)."""
    from sgprep.io.safefs import LinkRefused, real_dir
    from sgprep.io.validate import check_finished
    from sgprep.schema import OutputDir, ShardStats

    out = OutputDir(path)
    try:
        real_dir(out.meta)
    except LinkRefused as exc:
        fail(str(exc))
    except OSError:
        pass
    if not out.is_output():
        fail(
            f"{path} is not an sgprep output (it has no _meta/run.json); give the directory "
            f"that `sgprep parse/run --output` wrote"
        )
    finished = out.stats_files()
    if not finished:
        fail(f"{path} has no finished shard yet (no NNNNN_stats.json)")
    try:
        ShardStats.model_validate_json(finished[0].read_bytes())
    except ValueError:
        fail(f"{path} holds stats files that are not sgprep's (or of an older version)")
    problems, unfinished = check_finished(path)
    for problem in problems[:20]:
        console.print(f"[red]✗[/] {escape(problem)}", highlight=False, soft_wrap=True)
    if problems:
        fail(
            f"{path} is damaged: {len(problems)} problem(s) above; `sgprep validate {path}` "
            f"checks every byte. Rerun the command that wrote it to redo a lost shard "
            f"(delete the shard's NNNNN_stats.json first)",
            code=1,
        )
    if unfinished:
        console.print(
            f"[bold yellow]warning:[/] {unfinished} planned shard(s) of {path} are "
            f"not finished; the figures cover the finished ones",
            highlight=False,
        )


def filter_(**values: Any) -> None:
    """A filtered or re-weighted view of a dataset: an index and a shard list, no copies."""
    dataset, output = one_path(values["dataset"], values["given"]), values["output"]
    require_sgprep_output(dataset)
    try:
        from sgprep.stats.filter import filter_view
    except ImportError as exc:
        fail(
            f"`sgprep filter` needs the stats extra ({exc.name} is missing): "
            'pip install "sgprep[stats]"'
        )
    try:
        criteria = Criteria(**flags.split_values(Criteria, values))
    except ValidationError as exc:
        fail(f"invalid filter: {flags.flag_errors(exc)}")
    except ValueError as exc:
        fail(f"invalid filter: {exc}")
    require_sgprep_output(dataset)
    try:
        view = filter_view(dataset, output, criteria)
    except OSError as exc:
        fail(f"cannot write the view {output}: {exc}")
    except ValueError as exc:
        fail(str(exc))
    console.print(
        f"kept {view.kept:,} of {view.ok:,} ok samples ({view.passed:,} meet every "
        f"criterion) in {view.shards} shards -> {output}"
    )


# the criteria's flags are the Criteria model's fields (sgprep/stats/filter.py: pydantic only)
flags.with_signature(
    filter_,
    [
        inspect.Parameter(
            "dataset",
            inspect.Parameter.KEYWORD_ONLY,
            default=DATASET,
            annotation=Optional[Path],
        ),
        inspect.Parameter(
            "given",
            inspect.Parameter.KEYWORD_ONLY,
            default=DATASET_OPTION,
            annotation=Optional[Path],
        ),
        inspect.Parameter(
            "output",
            inspect.Parameter.KEYWORD_ONLY,
            default=typer.Option(..., "--output", "-o", help="Directory for the view."),
            annotation=Path,
        ),
    ]
    + flags.field_params(Criteria, "criteria"),
)


def validate(
    output: Optional[Path] = typer.Argument(
        None,
        metavar="OUTPUT",
        show_default=False,
        help="An sgprep output directory or FILE.jsonl; or -i OUTPUT.",
    ),
    given: Optional[Path] = DATASET_OPTION,
) -> None:
    """Check shards against the schemas and the index; exit 1 and list problems if any."""
    from sgprep.io.validate import validate_output

    output = one_path(output, given)
    if not output.exists():
        fail(f"{output}: no such file or directory")

    jsonl = output.suffix.lower() == ".jsonl"
    from sgprep.schema import OutputDir

    if not jsonl and not OutputDir(output).is_output():
        fail(
            f"{output} is not an sgprep output (it has no _meta/run.json); give the directory "
            f"or FILE.jsonl that `sgprep parse/run --output` wrote"
        )
    problems, checked = validate_output(output)
    what = "record(s)" if jsonl else "shard(s)"
    for problem in problems[:200]:
        stdout.print(f"[red]✗[/] {escape(problem)}", highlight=False, soft_wrap=True)
    if len(problems) > 200:
        stdout.print(f"... and {len(problems) - 200} more")
    if problems:
        stdout.print(f"[bold red]{len(problems)} problem(s)[/] in {checked} {what}")
        raise typer.Exit(1)
    stdout.print(f"[bold green]ok[/]: {checked} {what} valid")
