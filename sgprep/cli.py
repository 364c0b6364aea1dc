"""The ``sgprep`` command line: flags -> config -> run. Nothing else lives here (the verbs
that read a finished output are in cli_dataset.py, what every verb shares in cli_common.py)."""

from __future__ import annotations

import functools
import inspect
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

import click
import typer
from pydantic import ValidationError
from rich.logging import RichHandler
from rich.table import Table
from typer.core import TyperGroup

from sgprep import __version__, flags
from sgprep.cli_common import console, fail, missing_module, one_path, stdout
from sgprep.cli_dataset import filter_, stats, validate
from sgprep.parse.base import ParserSettings

app = typer.Typer(
    help="Compositional training data for vision-language models: scene graphs, boxes and "
    "hard negatives, written as WebDataset shards.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)  # plain help: it wraps in narrow terminals instead of cutting flags


def _print_version(value: bool) -> None:
    if value:
        typer.echo(__version__)
        raise typer.Exit()


#: How much a run's summary shows (``sgprep --counters``).
SUMMARY = {"counters": False}


@app.callback()
def main(
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Log debug messages."),
    version: bool = typer.Option(
        False,
        "--version",
        help="Print the version and exit.",
        callback=_print_version,
        is_eager=True,
    ),
    counters: bool = typer.Option(
        False,
        "--counters",
        help="End a run's summary with every stage counter (refusals by reason, repairs, "
        "...), not only what a user acts on; all of them are in the shards' stats either way.",
    ),
) -> None:
    SUMMARY["counters"] = counters
    logging.basicConfig(
        level=logging.DEBUG if verbose else logging.INFO,
        format="%(message)s",
        handlers=[RichHandler(console=console, show_path=False)],
    )


def _execute(config) -> None:
    import sqlite3

    from sgprep.errors import ModelUnavailable, PipelineError
    from sgprep.exec import make_executor
    from sgprep.exec.ledger import ShardsFailed
    from sgprep.io.readers import InputError
    from sgprep.io.safefs import LinkRefused
    from sgprep.io.writer_base import OutputConflict

    suffix = config.output.suffix.lower()
    if suffix and suffix != ".jsonl" and not config.output.is_dir():
        fail(
            f"--output {config.output}: name a directory for shards, or FILE.jsonl "
            f"({suffix} is not an output format sgprep writes)"
        )
    try:
        executor = make_executor(config, console)
    except ValueError as exc:
        fail(f"--executor: {exc}")
    previous = _stop_on_sigterm()
    try:
        summary = executor.run()
    except KeyboardInterrupt:
        console.print(
            "[bold yellow]interrupted[/]; finished shards are kept: rerun the same "
            "command to resume"
        )
        raise typer.Exit(130) from None
    except ModuleNotFoundError as exc:
        missing_module(exc)
    except (
        InputError,
        OutputConflict,
        ModelUnavailable,
        PipelineError,
        ValueError,
        LinkRefused,
    ) as exc:
        fail(str(exc))
    except ShardsFailed as exc:  # shards that failed every try; the rest is done
        fail(str(exc), code=1)
    except OSError as exc:  # an output that cannot be written: not writable, a full disk
        fail(
            f"cannot write the output {config.output}: {exc.strerror or exc} "
            f"({getattr(exc, 'filename', '') or config.output})"
        )
    except sqlite3.Error as exc:  # the plan's key table: a path SQLite cannot open
        fail(f"cannot write the output {config.output}: {exc}")
    finally:
        _restore_sigterm(previous)
    _print_summary(config, summary)
    if summary.problems:
        fail("\n".join(summary.problems), code=1)


def _stop_on_sigterm():
    """SIGTERM (``kill``, a scheduler's stop) stops a run as Ctrl-C does: its workers end, the
    output's lock is released, finished shards are kept and a rerun resumes."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return None

    def stop(signum, frame):
        raise KeyboardInterrupt

    return signal.signal(signal.SIGTERM, stop)


def _restore_sigterm(previous) -> None:
    import signal

    if previous is not None:
        signal.signal(signal.SIGTERM, previous)


def _print_summary(config, summary) -> None:
    totals, output = summary.totals, summary.output
    jsonl = config.output.suffix.lower() == ".jsonl"
    table = Table(title=f"sgprep {config.command} -> {config.output}", show_header=False)
    # labels never wrap into a row that says only "negatives:" (80 columns)
    table.add_column(no_wrap=True, overflow="ellipsis")
    table.add_column(overflow="fold")
    unit = "parts" if jsonl else "shards"
    table.add_row(f"{unit} written now", f"{summary.shards_written:,}")
    table.add_row(f"{unit} already done", f"{summary.shards_skipped:,}")
    if summary.shards_redone:
        table.add_row(f"{unit} done again", f"{summary.shards_redone:,}")
    if summary.shards_retried:
        table.add_row(f"{unit} retried", f"{summary.shards_retried:,}")
    if summary.shards_written:
        rate = totals.samples / summary.seconds if summary.seconds else 0.0
        table.add_row(
            "this run",
            f"{totals.samples:,} samples in {summary.seconds:,.1f} s ({rate:,.0f} samples/s)",
        )
        table.add_row("workers", f"{summary.workers}")
    table.add_row("output: samples", f"{output.samples:,}")
    table.add_row("output: ok", f"{output.ok:,}")
    table.add_row("output: failed", f"{output.failed:,}")
    for reason, count in output.failures.items():
        table.add_row(f"  {reason}", f"{count:,}")
    from sgprep.exec.totals import shown_counters

    for stage, counters in output.stages.items():
        for name, _, text in shown_counters(counters, SUMMARY["counters"]):
            table.add_row(f"{stage}: {name}", text)
    from sgprep.exec.timing import timing_lines

    for label, text in timing_lines(summary.timing):  # this run's shards: where the time went
        table.add_row(label, text)
    for step, counters in summary.after.items():  # corpus steps, over the whole output
        for name, value in counters.items():
            table.add_row(f"{step}: {name}", f"{value:,}")
    console.print(table)
    from sgprep.exec.totals import warnings

    for warning in warnings(output.stages):
        console.print(f"[bold yellow]warning:[/] {warning}", highlight=False)
    if not jsonl and summary.planned_shards:
        last = summary.planned_shards - 1
        tar = ".tar.gz" if config.compression == "gzip" else ".tar"
        urls = (
            f"{config.output}/{{00000..{last:05d}}}{tar}" if last else f"{config.output}/00000{tar}"
        )
        console.print(f"WebDataset urls: {urls}", highlight=False, soft_wrap=True)


def _config(command: str, stage: str, values: dict[str, Any]):
    """The config of a one-stage verb: its flags split into run-level fields and settings,
    each checked by its model (a problem is named by its flag)."""
    from sgprep.config import RunConfig
    from sgprep.errors import PipelineError
    from sgprep.pipeline import make_config, stage_class

    model = stage_class(stage).Settings
    settings = flags.split_values(model, values)
    data = {
        **flags.run_values(values),
        "command": command,
        "stages": [{"name": stage, "settings": settings}],
    }
    try:
        model.model_validate(settings)
        RunConfig.model_validate(data)
    except ValidationError as exc:
        fail(f"invalid settings: {flags.flag_errors(exc)}")
    try:
        return make_config(data)
    except PipelineError as exc:
        fail(str(exc))


def _input_of(values: dict[str, Any]) -> str:
    """The input, given as the positional INPUT or as -i (either, not two different ones)."""
    positional, option = values.pop("source", None), values.get("input")
    if positional and option and positional != option:
        fail(f"two inputs given ({positional!r} and -i {option!r}); give one")
    found = positional or option
    if not found:
        fail("give an input: a file, a directory, or a glob (INPUT or -i INPUT)")
    if values.get("output") is None:
        fail("give an output: -o DIR for shards, or -o FILE.jsonl")
    return found


SOURCE = inspect.Parameter(
    "source",
    inspect.Parameter.POSITIONAL_OR_KEYWORD,
    annotation=Optional[str],
    default=typer.Argument(
        None,
        metavar="INPUT",
        show_default=False,
        help="A file, a directory, or a glob (quote it); or -i INPUT.",
    ),
)


@dataclass(frozen=True)
class StageVerb:
    """``sgprep COMMAND``: the one-stage pipeline [stage], with a flag for every run-level
    field and every field of the stage's Settings (see sgprep.flags). ``before(values)`` may
    handle the call itself (return True), with ``extra`` flags that are no setting of the
    stage (listed in VERB_ONLY_FLAGS)."""

    stage: str
    doc: str
    more_names: dict[str, tuple[str, ...]] = field(default_factory=dict)
    before: Callable[[dict[str, Any]], bool] | None = None
    extra: tuple[inspect.Parameter, ...] = ()


#: The verbs made from a stage's Settings. Each is built when it is called (VerbGroup), so
#: that `sgprep --help` or `sgprep stats` import no stage (numpy, word lists, ...).
STAGE_VERBS: dict[str, StageVerb] = {}


@functools.cache
def stage_command(command: str) -> click.Command:
    from sgprep.pipeline import stage_class

    spec = STAGE_VERBS[command]

    def verb(**values: Any) -> None:
        values["input"] = _input_of(values)
        if spec.before is not None and spec.before(values):
            return
        _execute(_config(command, spec.stage, values))

    verb.__name__, verb.__doc__ = command, spec.doc
    params = (
        [SOURCE]
        + flags.run_params(more_names=spec.more_names)
        + flags.field_params(stage_class(spec.stage).Settings, f"{spec.stage} settings")
        + list(spec.extra)
    )
    alone = typer.Typer(rich_markup_mode=None, pretty_exceptions_enable=False, add_completion=False)
    alone.command(name=command, cls=flags.PanelCommand)(flags.with_signature(verb, params))
    return typer.main.get_command(alone)


class VerbGroup(TyperGroup):
    """The command group, with the stage verbs first and built only when called."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [*STAGE_VERBS, *super().list_commands(ctx)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in STAGE_VERBS:
            return stage_command(cmd_name)
        return super().get_command(ctx, cmd_name)

    def resolve_command(self, ctx: click.Context, args: list[str]):
        name = args[0] if args else ""
        if name and not name.startswith("-") and self.get_command(ctx, name) is None:
            from sgprep.registry import did_you_mean

            ctx.fail(f"No such command {name!r}{did_you_mean(name, self.list_commands(ctx))}")
        return super().resolve_command(ctx, args)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            if name in STAGE_VERBS:
                rows.append((name, STAGE_VERBS[name].doc))
            else:
                rows.append((name, super().get_command(ctx, name).get_short_help_str(80)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


app.info.cls = VerbGroup  # typer builds the group when the app runs


def _mine_images_instead(values: dict[str, Any]) -> bool:
    """``--strategy mine-images`` is no stage: it reads a whole corpus and writes one table."""
    strategies = [s.strip() for s in (values.get("strategies") or "").split(",") if s.strip()]
    if "mine-images" not in strategies:
        return False
    if strategies != ["mine-images"]:
        fail("--strategy mine-images works over a whole corpus: run it alone")
    _mine_images(values["input"], Path(values["output"]), values["max_per_query"])
    return True


STAGE_VERBS["parse"] = StageVerb(
    "parse", "Parse captions into scene graphs (entities with attributes, directed relations)."
)
STAGE_VERBS["detect"] = StageVerb(
    "detect",
    "Object and pair (union) boxes with YOLO (v9 by default): top-N objects, top-M pairs.",
    more_names={"input": ("--images",)},
)
STAGE_VERBS["negatives"] = StageVerb(
    "negatives",
    "Hard negatives from scene graphs: minimal, really false, fluent perturbations.",
    before=_mine_images_instead,
    extra=(
        inspect.Parameter(
            "max_per_query",
            inspect.Parameter.KEYWORD_ONLY,
            annotation=int,
            default=typer.Option(
                5,
                min=1,
                rich_help_panel="mine-images",
                help="--strategy mine-images: distractor images per image.",
            ),
        ),
    ),
)

#: Flags of a verb that set no RunConfig field and no stage setting.
VERB_ONLY_FLAGS = {"negatives": {"max_per_query"}}


def _print_counts(counts: dict[str, int], output: Path) -> None:
    stdout.print(
        ", ".join(f"{k} {v:,}" for k, v in counts.items()) + f" -> {output}", highlight=False
    )


def _mine_images(input: str, output: Path, max_per_query: int) -> None:
    from sgprep.io.readers import InputError, resolve_inputs
    from sgprep.negatives.mine import mine_images

    if output.suffix.lower() not in (".parquet", ".jsonl"):
        fail(
            f"--strategy mine-images writes a table: give --output FILE.parquet or FILE.jsonl "
            f"(e.g. {output / 'mined_images.parquet'})"
        )
    try:
        counts = mine_images(resolve_inputs(input), output, max_per_query=max_per_query)
    except InputError as exc:
        fail(str(exc))
    _print_counts(counts, output)


@app.command()
def vocab(
    input: list[Path] = typer.Option(
        ...,
        "--input",
        "-i",
        exists=True,
        help="Parsed outputs (directories, index parquets, JSONL); repeat for several.",
    ),
    output: Path = typer.Option(..., "--output", "-o", help="The vocabulary JSON to write."),
    min_count: int = typer.Option(1, min=1, help="Keep words seen at least this often."),
    max_entries: int = typer.Option(
        1_000_000,
        min=1000,
        help="Keys kept per table (memory bound; past it the rarest go first, and the "
        "output counts what was pruned).",
    ),
    workers: int = typer.Option(
        1,
        min=1,
        help="Input files counted at once (processes, or Ray tasks); the output is the same "
        "bytes whatever the number.",
    ),
    executor: str = typer.Option(
        "local", help="local (processes on this machine) | ray (Ray tasks)."
    ),
    ray_address: Optional[str] = typer.Option(
        None,
        help="ray: a cluster to join ('auto', or ray://HOST:PORT); default: a local Ray "
        "instance of --workers CPUs.",
    ),
    with_default: bool = typer.Option(
        False,
        help="Add the bundled co-occurrence counts to your corpus's (a small corpus keeps "
        "what they know and adds its own words).",
    ),
) -> None:
    """Build the vocabulary and co-occurrence statistics that `negatives` draws from and
    judges plausibility by, in one pass (each input file counted on its own, then merged)."""
    from sgprep.negatives.vocab import EXECUTORS, write_vocab

    if executor not in EXECUTORS:
        fail(f"--executor {executor!r}: one of {', '.join(EXECUTORS)}")
    try:
        counts = write_vocab(
            input,
            output,
            min_count=min_count,
            max_entries=max_entries,
            workers=workers,
            executor=executor,
            ray_address=ray_address,
            with_default=with_default,
        )
    except ModuleNotFoundError as exc:
        missing_module(exc)
    _print_counts(counts, output)


def run(
    pipeline: Path = typer.Argument(
        ...,
        exists=True,
        dir_okay=False,
        metavar="PIPELINE",
        help="A pipeline YAML, e.g. pipelines/cc12m.yaml.",
    ),
    sets: Optional[list[str]] = typer.Option(
        None,
        "--set",
        metavar="STAGE.SETTING=VALUE",
        rich_help_panel="Stage settings",
        help="Override a stage setting of the YAML, e.g. --set parse.parser=sng "
        "(repeat for several).",
    ),
    **values: Any,
) -> None:
    """Run a whole pipeline described in a YAML file; flags override the file's values."""
    from sgprep.errors import PipelineError
    from sgprep.pipeline import load_pipeline

    try:
        config = load_pipeline(pipeline, sets or (), **flags.run_values(values))
    except PipelineError as exc:
        fail(f"{pipeline}: {exc}")
    _execute(config)


_RUN_SIGNATURE = inspect.signature(run)
app.command(name="run", cls=flags.PanelCommand)(
    flags.with_signature(
        run,
        [p for p in _RUN_SIGNATURE.parameters.values() if p.kind != p.VAR_KEYWORD]
        + flags.run_params(skip=frozenset({"command"})),
    )
)

# the verbs that read a finished output (cli_dataset.py), in their place in `sgprep --help`
app.command()(stats)
app.command(name="filter", cls=flags.PanelCommand)(filter_)


def eval_(**values: Any) -> None:
    """Score a parser against gold scene graphs (SPICE-style tuple P/R/F1)."""
    from sgprep.errors import ModelUnavailable
    from sgprep.eval import EvalRefused, render, run_eval

    gold = one_path(values["gold_file"], values["gold"], "a gold file")
    if not gold.is_file():
        fail(f"--gold {gold}: no such file")
    try:
        settings = ParserSettings(**flags.split_values(ParserSettings, values))
    except ValidationError as exc:
        fail(flags.flag_errors(exc))
    try:
        report = run_eval(gold, settings.parser, settings, values["output"], values["limit"])
    except EvalRefused as exc:
        fail(str(exc))
    except ModuleNotFoundError as exc:
        missing_module(exc)
    except (ModelUnavailable, ValueError, KeyError) as exc:
        fail(f"--gold {gold}: {exc}" if isinstance(exc, (ValueError, KeyError)) else str(exc))
    stdout.print(render(report))


# the parser's flags are the parse stage's settings (ParserSettings), as `sgprep parse` has them
app.command(name="eval", cls=flags.PanelCommand)(
    flags.with_signature(
        eval_,
        [
            inspect.Parameter(
                "gold_file",
                inspect.Parameter.KEYWORD_ONLY,
                default=typer.Argument(
                    None,
                    metavar="GOLD",
                    show_default=False,
                    help="FACTUAL CSV or gold JSONL; or -i GOLD.",
                ),
                annotation=Optional[Path],
            ),
            inspect.Parameter(
                "gold",
                inspect.Parameter.KEYWORD_ONLY,
                default=typer.Option(
                    None, "--gold", "--input", "-i", help="The gold file, as an option."
                ),
                annotation=Optional[Path],
            ),
            inspect.Parameter(
                "output",
                inspect.Parameter.KEYWORD_ONLY,
                default=typer.Option(None, "--output", "-o", help="Write the report as JSON here."),
                annotation=Optional[Path],
            ),
            inspect.Parameter(
                "limit",
                inspect.Parameter.KEYWORD_ONLY,
                default=typer.Option(None, min=1, help="Score the first N captions only."),
                annotation=Optional[int],
            ),
        ]
        + flags.field_params(ParserSettings, "parse settings"),
    )
)
app.command()(validate)  # cli_dataset.py


def entry() -> None:
    """The console script: global flags (-v) work before or after the command."""
    import gc
    import sys

    # What is alive now (the modules, the settings models, typer's app) lives as long as the
    # process: the collector's full passes need not walk it again (one costs 20-40 ms once
    # the stage's vocabularies and pyarrow are loaded too)
    gc.freeze()
    args = sys.argv[1:]
    hoisted = [a for a in args if a in ("-v", "--verbose")]
    try:
        app(args=hoisted + [a for a in args if a not in ("-v", "--verbose")], prog_name="sgprep")
    except SystemExit as done:
        _exit(done)
    finally:
        gc.unfreeze()  # where Python exits its own way, its teardown sees every object


def _exit(done: SystemExit) -> None:
    """End the process as Python would, without its teardown: the exit handlers run
    (``atexit``: logging's, multiprocessing's), the standard streams are flushed, and the
    process ends with the command's status, without freeing every object one by one first
    (0.15 CPU-s for the modules alone, 0.45 s after 50,000 graphs of ``negatives``, whose
    caches grew). Every file sgprep writes is closed (and synced) before the command
    returns. Where the teardown could still matter (a thread other than the daemons is alive,
    a status that is not a number, a stream that cannot be flushed), Python exits its way."""
    import atexit
    import os
    import sys
    import threading

    code = done.code
    main = threading.main_thread()
    if not (code is None or type(code) is int) or any(
        t is not main and not t.daemon for t in threading.enumerate()
    ):
        raise done
    atexit._run_exitfuncs()
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):  # a closed pipe: Python's own exit reports it
        raise done from None
    os._exit(code or 0)


if __name__ == "__main__":
    entry()
