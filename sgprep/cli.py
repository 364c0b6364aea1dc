"""The ``sgprep`` command line: flags -> config -> run. Nothing else lives here."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Optional

import typer
from pydantic import ValidationError
from rich.console import Console
from rich.logging import RichHandler
from rich.table import Table

from sgprep import __version__
from sgprep.io.images import DEFAULT_MAX_PIXELS
from sgprep.io.intake import DEFAULT_MAX_CAPTION_CHARS
from sgprep.parse.base import DEFAULT_SPACY_MODEL

app = typer.Typer(
    help="Compositional training data for vision-language models: scene graphs, boxes and "
    "hard negatives, written as WebDataset shards.",
    no_args_is_help=True, pretty_exceptions_enable=False,
    rich_markup_mode=None)  # plain help: it wraps in narrow terminals instead of cutting flags
console = Console(stderr=True)  # logs, progress, errors
stdout = Console()  # results a user may redirect: stats, validate

# Options shared by every command that reads samples and writes shards.
INPUT = typer.Option(..., "--input", "-i", help="A file, a directory, or a glob (quote it).")
INPUT_FORMAT = typer.Option(None, help="table | wds (img2dataset, webdataset) | coco | images. "
                            "Detected when left out.")
OUTPUT = typer.Option(..., "--output", "-o", help="A directory for shards, or FILE.jsonl.")
SHARD_SIZE = typer.Option(1000, help="Input samples per output shard.", min=1)
OVERWRITE = typer.Option(False, help="Replace the output of another run.")
SEED = typer.Option(0, help="Seed for anything random; same input + seed = same bytes.")
LIMIT = typer.Option(None, help="Stop after this many input samples.", min=1)
MAX_CAPTION = typer.Option(DEFAULT_MAX_CAPTION_CHARS, help="Longer captions fail with caption_too_long.", min=1)
MAX_PIXELS = typer.Option(DEFAULT_MAX_PIXELS, help="Larger images fail with image_too_large.", min=1)
PROGRESS = typer.Option(True, help="Show a progress bar.")
EXECUTOR = typer.Option("local", help="local (processes on this machine) | ray.")
WORKERS = typer.Option(None, min=1, help="Worker processes (local) or actors (ray); default: "
                       "one per core.")
CAPTION_COLUMN = typer.Option(None, help="Tables: the caption column (a name, or a 1-based "
                              "position; default: caption, text, ...).")
KEY_COLUMN = typer.Option(None, help="Tables: the key column (default: key, id, ...).")
IMAGE_COLUMN = typer.Option(None, help="Tables: the column with image paths (default: image, "
                            "file_name, ...).")
URL_COLUMN = typer.Option(None, help="Tables: the url column, kept as meta.url (default: url).")
RAY_ADDRESS = typer.Option(None, help="ray: a cluster to join ('auto', or ray://HOST:PORT); "
                           "default: a local Ray instance.")


def _fail(message: str, code: int = 2) -> None:
    console.print(f"[bold red]error:[/] {message}", soft_wrap=True, highlight=False)
    raise typer.Exit(code)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(__version__)
        raise typer.Exit()


@app.callback()
def main(
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Log debug messages."),
    version: bool = typer.Option(False, "--version", help="Print the version and exit.",
                                 callback=_print_version, is_eager=True),
) -> None:
    logging.basicConfig(level=logging.DEBUG if verbose else logging.INFO, format="%(message)s",
                        handlers=[RichHandler(console=console, show_path=False)])


EXECUTORS = {"local": "sgprep.exec.local:LocalExecutor",
             "ray": "sgprep.exec.ray_executor:RayExecutor"}

#: module -> the extra that installs it, for "pip install" hints.
EXTRAS = {"ray": "llm", "vllm": "llm", "httpx": "openai", "transformers": "t5", "torch": "t5",
          "sentencepiece": "t5", "ultralytics": "detect", "onnxruntime": "detect",
          "duckdb": "stats", "matplotlib": "stats", "sng_parser": "sng", "webdataset": "stats"}


def _missing_module(exc: ModuleNotFoundError) -> None:
    top = (exc.name or "").split(".")[0]
    extra = EXTRAS.get(top)
    hint = f': pip install "sgprep[{extra}]"' if extra else ""
    _fail(f"this needs the Python package {top!r}, which is not installed{hint}")


def _execute(config) -> None:
    import importlib
    import sqlite3

    from sgprep.io.readers import InputError
    from sgprep.io.safefs import LinkRefused
    from sgprep.io.writers import OutputConflict
    from sgprep.parse.base import ModelUnavailable

    if config.executor not in EXECUTORS:
        _fail(f"--executor {config.executor!r} is not known; choose one of {', '.join(EXECUTORS)}")
    suffix = config.output.suffix.lower()
    if suffix and suffix != ".jsonl" and not config.output.is_dir():
        _fail(f"--output {config.output}: name a directory for shards, or FILE.jsonl "
              f"({suffix} is not an output format sgprep writes)")
    module, _, name = EXECUTORS[config.executor].partition(":")
    executor = getattr(importlib.import_module(module), name)(config, console)
    try:
        summary = executor.run()
    except KeyboardInterrupt:
        console.print("[bold yellow]interrupted[/]; finished shards are kept: rerun the same "
                      "command to resume")
        raise typer.Exit(130) from None
    except ModuleNotFoundError as exc:
        _missing_module(exc)
    except (InputError, OutputConflict, ModelUnavailable, ValueError, LinkRefused) as exc:
        _fail(str(exc))
    except RuntimeError as exc:  # shards that failed for good (Ray); the rest is done
        _fail(str(exc), code=1)
    except OSError as exc:  # an output that cannot be written: not writable, a full disk
        _fail(f"cannot write the output {config.output}: {exc.strerror or exc} "
              f"({getattr(exc, 'filename', '') or config.output})")
    except sqlite3.Error as exc:  # the plan's key table: a path SQLite cannot open
        _fail(f"cannot write the output {config.output}: {exc}")
    _print_summary(config, summary)
    if summary.problems:
        _fail("\n".join(summary.problems), code=1)


def _print_summary(config, summary) -> None:
    totals, output = summary.totals, summary.output
    jsonl = config.output.suffix.lower() == ".jsonl"
    table = Table(title=f"sgprep {config.command} -> {config.output}", show_header=False)
    unit = "parts" if jsonl else "shards"
    table.add_row(f"{unit} written now", f"{summary.shards_written:,}")
    table.add_row(f"{unit} already done", f"{summary.shards_skipped:,}")
    if summary.shards_redone:
        table.add_row(f"{unit} done again", f"{summary.shards_redone:,}")
    if summary.shards_written:
        rate = totals.samples / summary.seconds if summary.seconds else 0.0
        table.add_row("this run", f"{totals.samples:,} samples in {summary.seconds:,.1f} s "
                      f"({rate:,.0f} samples/s, {summary.workers} worker(s))")
    table.add_row("output: samples", f"{output.samples:,}")
    table.add_row("output: ok", f"{output.ok:,}")
    table.add_row("output: failed", f"{output.failed:,}")
    for reason, count in output.failures.items():
        table.add_row(f"  {reason}", f"{count:,}")
    for stage, counters in output.stages.items():
        for name, value in counters.items():
            table.add_row(f"{stage}: {name}", f"{value:,}")
    console.print(table)
    if not jsonl and summary.planned_shards:
        last = summary.planned_shards - 1
        urls = (f"{config.output}/{{00000..{last:05d}}}.tar" if last else
                f"{config.output}/00000.tar")
        console.print(f"WebDataset urls: {urls}", highlight=False, soft_wrap=True)


def _columns(caption, key, image, url) -> dict[str, str]:
    named = {"caption": caption, "key": key, "image": image, "url": url}
    return {role: value for role, value in named.items() if value}


def _settings_errors(exc: ValidationError) -> str:
    """pydantic's errors as 'where: what' lines, without its links."""
    lines = []
    for error in exc.errors():
        where = ".".join(str(p) for p in error["loc"] if p != "settings") or "settings"
        lines.append(f"  {where}: {error['msg'].removeprefix('Value error, ')}")
    return "\n".join(lines)


def _config(command: str, stages: list[dict], **fields):
    from sgprep.config import RunConfig

    try:
        return RunConfig(command=command, stages=stages, **fields)
    except ValidationError as exc:
        _fail(f"invalid settings:\n{_settings_errors(exc)}")


@app.command()
def parse(
    input: str = INPUT,
    output: Path = OUTPUT,
    parser: str = typer.Option("spacy", help="spacy | sng | t5 | llama3 (alias llm)."),
    model: Optional[str] = typer.Option(None, help="Model hub id or local path (llama3, t5)."),
    engine: str = typer.Option("vllm", help="llama3: vllm (in-process, Ray actors) | openai."),
    endpoint: Optional[str] = typer.Option(None, help="openai engine: base URL, e.g. "
                                           "http://127.0.0.1:8000/v1 (key from SGPREP_API_KEY)."),
    fallback: Optional[str] = typer.Option("spacy", help="Parser used when the main one fails; "
                                           "'none' to record a failure instead."),
    spacy_model: str = typer.Option(DEFAULT_SPACY_MODEL, help="spaCy pipeline name."),
    predicate_form: str = typer.Option("lemma", help="spacy: lemma ('lie on') or surface ('lying on')."),
    batch_size: int = typer.Option(256, min=1, help="Captions per parser call."),
    tensor_parallel_size: int = typer.Option(1, min=1, help="vllm: GPUs per engine."),
    num_engines: Optional[int] = typer.Option(None, min=1, help="vllm: engines (default: one per GPU the executor grants / tensor-parallel-size)."),
    max_concurrency: int = typer.Option(32, min=1, help="openai: requests in flight."),
    timeout: float = typer.Option(60.0, min=0.1, help="openai: seconds a request may take in "
                                  "all (a trickling answer is cut off)."),
    max_retries: int = typer.Option(3, min=0, help="openai: retries per request."),
    breaker_failures: int = typer.Option(
        32, min=1, help="openai: consecutive connection failures after which the endpoint is "
                        "left alone for --breaker-cooldown seconds (captions go to --fallback)."),
    breaker_cooldown: float = typer.Option(30.0, min=0, help="openai: seconds before the "
                                           "endpoint is probed again."),
    endpoint_wait: float = typer.Option(
        600.0, min=0, help="openai with --fallback none: seconds the run waits for an endpoint "
                           "that answered before and went down, then it stops (0: at once)."),
    max_response_bytes: int = typer.Option(
        1 << 20, min=1024, help="openai: the largest answer body, as sent and inflated; a "
                                "larger one goes to --fallback."),
    max_fallback_share: float = typer.Option(
        0.5, min=0, max=1, help="llama3: above this share of graphs from --fallback the run "
                                "ends with an error (exit 1)."),
    redo_fallbacks: bool = typer.Option(
        False, help="llama3: on a rerun, parse again the samples whose graph came from "
                    "--fallback (e.g. once the endpoint is back)."),
    max_model_len: Optional[int] = typer.Option(None, min=64, help="vllm: context length."),
    prompt: Optional[Path] = typer.Option(None, exists=True, dir_okay=False,
                                          help="llama3: a prompt file in the prompts/ format."),
    num_beams: int = typer.Option(5, min=1, help="t5: beam search width."),
    device: Optional[str] = typer.Option(None, help="t5: cuda, cpu, ... (default: cuda if available)."),
    input_format: Optional[str] = INPUT_FORMAT,
    shard_size: int = SHARD_SIZE,
    overwrite: bool = OVERWRITE,
    seed: int = SEED,
    limit: Optional[int] = LIMIT,
    max_caption_chars: int = MAX_CAPTION,
    max_image_pixels: int = MAX_PIXELS,
    progress: bool = PROGRESS,
    executor: str = EXECUTOR,
    workers: Optional[int] = WORKERS,
    ray_address: Optional[str] = RAY_ADDRESS,
    caption_column: Optional[str] = CAPTION_COLUMN,
    key_column: Optional[str] = KEY_COLUMN,
    image_column: Optional[str] = IMAGE_COLUMN,
    url_column: Optional[str] = URL_COLUMN,
) -> None:
    """Parse captions into scene graphs (entities with attributes, directed relations)."""
    from sgprep.parse.base import PARSERS, ParserSettings

    if parser not in PARSERS:
        _fail(f"--parser {parser!r} is not known; choose one of {', '.join(PARSERS)}")
    if fallback is not None and fallback.lower() == "none":
        fallback = None
    if fallback is not None and fallback not in PARSERS:
        _fail(f"--fallback {fallback!r} is not known; choose one of {', '.join(PARSERS)} or none")
    if predicate_form not in ("lemma", "surface"):
        _fail(f"--predicate-form must be lemma or surface, not {predicate_form!r}")
    settings = ParserSettings(
        parser=parser, spacy_model=spacy_model, predicate_form=predicate_form, model=model,
        engine=engine, endpoint=endpoint, fallback=fallback, batch_size=batch_size,
        tensor_parallel_size=tensor_parallel_size, num_engines=num_engines,
        max_concurrency=max_concurrency, timeout=timeout, max_retries=max_retries, seed=seed,
        breaker_failures=breaker_failures, breaker_cooldown=breaker_cooldown,
        endpoint_wait=endpoint_wait, max_response_bytes=max_response_bytes,
        max_fallback_share=max_fallback_share, redo_fallbacks=redo_fallbacks,
        num_beams=num_beams, device=device, max_model_len=max_model_len,
        max_chars=max_caption_chars, prompt=str(prompt) if prompt else None)
    config = _config(
        "parse", [{"name": "parse", "settings": settings.model_dump()}], input=input,
        input_format=input_format, output=output, shard_size=shard_size, overwrite=overwrite,
        seed=seed, limit=limit, max_caption_chars=max_caption_chars,
        max_image_pixels=max_image_pixels, progress=progress, executor=executor, workers=workers,
        ray_address=ray_address, require=["parse"],
        columns=_columns(caption_column, key_column, image_column, url_column))
    _execute(config)


@app.command()
def detect(
    images: str = typer.Option(..., "--images", "--input", "-i",
                               help="Images: a folder, WebDataset/img2dataset shards, a COCO "
                                    "directory, a table with an image column, or sgprep's output."),
    output: Path = OUTPUT,
    weights: str = typer.Option("yolov9c.pt", help="Weights file (.pt); a bare name is looked up "
                                "in ~/.cache/sgprep/weights, else downloaded when online."),
    backend: str = typer.Option("auto", help="auto (onnx without CUDA, else torch) | torch | onnx."),
    device: Optional[str] = typer.Option(None, help="torch: cpu, cuda, cuda:1 (default: CUDA "
                                         "when present)."),
    batch_size: int = typer.Option(16, min=1, help="Images per detector call."),
    conf: float = typer.Option(0.25, min=0, max=1, help="Minimum confidence of a kept box."),
    iou: float = typer.Option(0.45, min=0.01, max=1, help="NMS overlap threshold."),
    imgsz: int = typer.Option(640, min=32, help="Letterbox long side (a multiple of 32)."),
    top_objects: int = typer.Option(10, min=0, help="N: objects kept per image, best first."),
    top_pairs: int = typer.Option(10, min=0, help="M: pair (union) boxes kept per image."),
    decode_workers: Optional[int] = typer.Option(None, min=1, help="Decoding threads "
                                                 "(default: min(8, cores))."),
    rect: Optional[bool] = typer.Option(None, "--rect/--no-rect", help="Pad to multiples of 32 "
                                        "instead of squares (default: on CPU yes, on CUDA no)."),
    input_format: Optional[str] = INPUT_FORMAT,
    shard_size: int = SHARD_SIZE,
    overwrite: bool = OVERWRITE,
    seed: int = SEED,
    limit: Optional[int] = LIMIT,
    max_image_pixels: int = MAX_PIXELS,
    progress: bool = PROGRESS,
    executor: str = EXECUTOR,
    workers: Optional[int] = WORKERS,
    ray_address: Optional[str] = RAY_ADDRESS,
    image_column: Optional[str] = IMAGE_COLUMN,
    key_column: Optional[str] = KEY_COLUMN,
) -> None:
    """Object and pair (union) boxes with YOLO (v9 by default): top-N objects, top-M pairs."""
    settings = {"weights": weights, "backend": backend, "device": device,
                "batch_size": batch_size, "conf": conf, "iou": iou, "imgsz": imgsz,
                "top_objects": top_objects, "top_pairs": top_pairs, "rect": rect,
                "max_image_pixels": max_image_pixels}
    if decode_workers:
        settings["decode_workers"] = decode_workers
    config = _config(
        "detect", [{"name": "detect", "settings": settings}], input=images,
        input_format=input_format, output=output, shard_size=shard_size, overwrite=overwrite,
        seed=seed, limit=limit, max_image_pixels=max_image_pixels, progress=progress,
        executor=executor, workers=workers, ray_address=ray_address, require=["detect"],
        columns=_columns(None, key_column, image_column, None))
    _execute(config)


@app.command()
def negatives(
    input: str = INPUT,
    output: Path = OUTPUT,
    strategy: str = typer.Option(
        "swap,shuffle,connect",
        help="Comma list of swap, shuffle, replace, connect, subgraph; or mine-images alone "
             "(corpus-wide image negatives, written as a table)."),
    per_sample: int = typer.Option(4, min=0, help="Negatives per caption."),
    per_subgraph: int = typer.Option(1, min=0, help="Negatives per sub-graph positive."),
    max_subgraphs: int = typer.Option(6, min=0, help="Sub-graph positives per sample."),
    vocab: Optional[Path] = typer.Option(None, exists=True, dir_okay=False,
                                         help="Vocabulary JSON from `sgprep vocab` "
                                              "(default: the one shipped with sgprep)."),
    family_weights: Optional[str] = typer.Option(
        None, help="Sampling weight per family, e.g. 'replace_attribute=0.15,swap_object=0.2'."),
    max_per_query: int = typer.Option(5, min=1, help="mine-images: distractors per sample."),
    batch_size: int = typer.Option(256, min=1, help="Samples per batch."),
    input_format: Optional[str] = INPUT_FORMAT,
    shard_size: int = SHARD_SIZE,
    overwrite: bool = OVERWRITE,
    seed: int = SEED,
    limit: Optional[int] = LIMIT,
    progress: bool = PROGRESS,
    executor: str = EXECUTOR,
    workers: Optional[int] = WORKERS,
    ray_address: Optional[str] = RAY_ADDRESS,
    caption_column: Optional[str] = CAPTION_COLUMN,
    key_column: Optional[str] = KEY_COLUMN,
) -> None:
    """Hard negatives from scene graphs: minimal, really false, fluent perturbations."""
    strategies = [s.strip() for s in strategy.split(",") if s.strip()]
    if "mine-images" in strategies:
        if strategies != ["mine-images"]:
            _fail("--strategy mine-images works over a whole corpus: run it alone")
        _mine_images(input, output, max_per_query)
        return
    settings: dict = {"strategies": strategies, "per_sample": per_sample,
                      "per_subgraph": per_subgraph, "max_subgraphs": max_subgraphs,
                      "seed": seed, "vocab": str(vocab) if vocab else None,
                      "batch_size": batch_size}
    if family_weights:
        try:
            settings["family_weights"] = {k.strip(): float(v) for k, v in
                                          (item.split("=") for item in family_weights.split(","))}
        except ValueError:
            _fail(f"--family-weights {family_weights!r}: write FAMILY=WEIGHT,FAMILY=WEIGHT")
    config = _config(
        "negatives", [{"name": "negatives", "settings": settings}], input=input,
        input_format=input_format, output=output, shard_size=shard_size, overwrite=overwrite,
        seed=seed, limit=limit, progress=progress, executor=executor, workers=workers,
        ray_address=ray_address, columns=_columns(caption_column, key_column, None, None))
    _execute(config)


def _print_counts(counts: dict[str, int], output: Path) -> None:
    stdout.print(", ".join(f"{k} {v:,}" for k, v in counts.items()) + f" -> {output}",
                 highlight=False)


def _mine_images(input: str, output: Path, max_per_query: int) -> None:
    from sgprep.io.readers import InputError, resolve_inputs
    from sgprep.negatives.mine import mine_images

    if output.suffix.lower() not in (".parquet", ".jsonl"):
        _fail(f"--strategy mine-images writes a table: give --output FILE.parquet or FILE.jsonl "
              f"(e.g. {output / 'mined_images.parquet'})")
    try:
        counts = mine_images(resolve_inputs(input), output, max_per_query=max_per_query)
    except InputError as exc:
        _fail(str(exc))
    _print_counts(counts, output)


@app.command()
def vocab(
    input: list[Path] = typer.Option(..., "--input", "-i", exists=True,
                                     help="Parsed outputs (directories, index parquets, JSONL); "
                                          "repeat for several."),
    output: Path = typer.Option(..., "--output", "-o", help="The vocabulary JSON to write."),
    min_count: int = typer.Option(1, min=1, help="Keep words seen at least this often."),
) -> None:
    """Build the vocabulary that `negatives --strategy replace,connect` draws from, with counts."""
    from sgprep.negatives.vocab import write_vocab

    counts = write_vocab(input, output, min_count=min_count)
    _print_counts(counts, output)


@app.command()
def run(pipeline: Path = typer.Argument(..., exists=True, dir_okay=False,
                                        help="A pipeline YAML, e.g. pipelines/cc12m.yaml."),
        input: Optional[str] = typer.Option(None, "--input", "-i", help="Overrides the YAML's input."),
        output: Optional[Path] = typer.Option(None, "--output", "-o", help="Overrides the YAML's output."),
        input_format: Optional[str] = INPUT_FORMAT,
        shard_size: Optional[int] = typer.Option(None, min=1, help="Input samples per output shard."),
        overwrite: Optional[bool] = typer.Option(None, "--overwrite/--no-overwrite",
                                                 help="Replace the output of another run."),
        seed: Optional[int] = typer.Option(None, help="Seed for anything random."),
        limit: Optional[int] = LIMIT,
        progress: Optional[bool] = typer.Option(None, "--progress/--no-progress",
                                                help="Show a progress bar."),
        executor: Optional[str] = typer.Option(None, help="local | ray."),
        workers: Optional[int] = WORKERS,
        ray_address: Optional[str] = RAY_ADDRESS,
        caption_column: Optional[str] = CAPTION_COLUMN,
        key_column: Optional[str] = KEY_COLUMN,
        image_column: Optional[str] = IMAGE_COLUMN,
        url_column: Optional[str] = URL_COLUMN,
        require: Optional[str] = typer.Option(
            None, help="Comma list of stages that must run: a stage that cannot (e.g. detect "
                       "without weights) stops the run instead of being left out.")) -> None:
    """Run a whole pipeline described in a YAML file; flags override the file's values."""
    from sgprep.pipeline import PipelineError, load_pipeline

    try:
        config = load_pipeline(
            pipeline, input=input, output=output, input_format=input_format,
            shard_size=shard_size, overwrite=overwrite, seed=seed, limit=limit,
            progress=progress, executor=executor, workers=workers, ray_address=ray_address,
            columns=_columns(caption_column, key_column, image_column, url_column) or None,
            require=[r.strip() for r in require.split(",") if r.strip()] if require else None)
    except ValidationError as exc:
        _fail(f"{pipeline}: invalid settings:\n{_settings_errors(exc)}")
    except PipelineError as exc:
        _fail(f"{pipeline}: {exc}")
    _execute(config)


@app.command()
def stats(
    output: Path = typer.Argument(..., exists=True, file_okay=False,
                                  help="An sgprep output directory."),
    threshold: float = typer.Option(0.25, min=0, max=1,
                                    help="Detection score at which an object counts."),
    html: bool = typer.Option(True, "--html/--no-html", help="Write _meta/report.html."),
    threads: Optional[int] = typer.Option(None, min=1, help="DuckDB threads (default: all cores)."),
    as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
) -> None:
    """Data properties per sample and per dataset: _meta/stats.parquet, _meta/report.html."""
    _require_sgprep_output(output)
    try:
        from sgprep.stats.report import render, run_stats
    except ImportError as exc:
        _fail(f"`sgprep stats` needs the stats extra ({exc.name} is missing): "
              'pip install "sgprep[stats]"')
    try:
        summary = run_stats(output, threshold=threshold, html=html, threads=threads)
    except OSError as exc:
        _fail(f"cannot write the statistics of {output}: {exc}")
    if as_json:
        stdout.print_json(summary.model_dump_json())
        return
    stdout.print(render(summary))
    if summary.report_path:
        stdout.print(f"report: {summary.report_path}", highlight=False, soft_wrap=True)


def _require_sgprep_output(path: Path) -> None:
    """Refuse, in one line, a directory that sgprep did not write (img2dataset's shards use
    the same file names); refuse, listing the problems, an output whose finished shards are
    not the files sgprep wrote (damaged stats or index, a truncated, emptied or missing tar)."""
    from sgprep.io.safefs import LinkRefused, real_dir
    from sgprep.io.validate import check_finished
    from sgprep.schema import ShardStats

    try:
        real_dir(path / "_meta")
    except LinkRefused as exc:
        _fail(str(exc))
    except OSError:
        pass
    if not (path / "_meta" / "run.json").is_file():
        _fail(f"{path} is not an sgprep output (it has no _meta/run.json); give the directory "
              f"that `sgprep parse/run --output` wrote")
    if not any(path.glob("[0-9]*_stats.json")):
        _fail(f"{path} has no finished shard yet (no NNNNN_stats.json)")
    try:
        ShardStats.model_validate_json(next(path.glob("[0-9]*_stats.json")).read_bytes())
    except ValueError:
        _fail(f"{path} holds stats files that are not sgprep's (or of an older version)")
    problems, unfinished = check_finished(path)
    for problem in problems[:20]:
        console.print(f"[red]✗[/] {problem}", highlight=False, soft_wrap=True)
    if problems:
        _fail(f"{path} is damaged: {len(problems)} problem(s) above; `sgprep validate {path}` "
              f"checks every byte. Rerun the command that wrote it to redo a lost shard "
              f"(delete the shard's NNNNN_stats.json first)", code=1)
    if unfinished:
        console.print(f"[bold yellow]warning:[/] {unfinished} planned shard(s) of {path} are "
                      f"not finished; the figures cover the finished ones", highlight=False)


@app.command(name="filter")
def filter_(
    dataset: Path = typer.Argument(..., exists=True, file_okay=False,
                                   help="An sgprep output directory."),
    output: Path = typer.Option(..., "--output", "-o", help="Directory for the view."),
    min_caption_objects: Optional[int] = typer.Option(
        None, min=0, help="Caption names at least N entities."),
    attributes_per_object: Optional[str] = typer.Option(
        None, help="LO:HI - mean attributes per caption entity in [LO, HI]; a side may be empty."),
    min_coverage: Optional[float] = typer.Option(
        None, min=0, max=1, help="Caption names at least this share of detected categories."),
    min_image_objects: Optional[int] = typer.Option(None, min=0,
                                                    help="At least N detected objects."),
    weights_column: Optional[str] = typer.Option(
        None, help="Re-weight instead of dropping: every ok sample stays, with its weight here."),
    reject_weight: float = typer.Option(0.1, min=0,
                                        help="Weight of a sample that misses a criterion."),
    threshold: float = typer.Option(0.25, min=0, max=1,
                                    help="Detection score at which an object counts."),
) -> None:
    """A filtered or re-weighted view of a dataset: an index and a shard list, no copies."""
    try:
        from sgprep.stats.filter import Criteria, filter_view
    except ImportError as exc:
        _fail(f"`sgprep filter` needs the stats extra ({exc.name} is missing): "
              'pip install "sgprep[stats]"')
    try:
        criteria = Criteria(min_caption_objects=min_caption_objects,
                            attributes_per_object=attributes_per_object,
                            min_coverage=min_coverage, min_image_objects=min_image_objects,
                            weights_column=weights_column, reject_weight=reject_weight,
                            threshold=threshold)
    except (ValidationError, ValueError) as exc:
        _fail(f"invalid filter: {exc}")
    _require_sgprep_output(dataset)
    try:
        view = filter_view(dataset, output, criteria)
    except OSError as exc:
        _fail(f"cannot write the view {output}: {exc}")
    except ValueError as exc:
        _fail(str(exc))
    console.print(f"kept {view.kept:,} of {view.ok:,} ok samples ({view.passed:,} meet every "
                  f"criterion) in {view.shards} shards -> {output}")


@app.command(name="eval")
def eval_(
    gold: Path = typer.Option(..., exists=True, dir_okay=False, help="FACTUAL CSV or gold JSONL."),
    parser: str = typer.Option("spacy", help="Parser to score."),
    spacy_model: str = typer.Option(DEFAULT_SPACY_MODEL, help="spaCy pipeline name."),
    model: Optional[str] = typer.Option(None, help="Model hub id or local path (llama3, t5)."),
    engine: str = typer.Option("vllm", help="llama3: vllm | openai."),
    endpoint: Optional[str] = typer.Option(None, help="openai engine: base URL."),
    output: Optional[Path] = typer.Option(None, help="Write the report as JSON here."),
    limit: Optional[int] = typer.Option(None, min=1, help="Score the first N captions only."),
) -> None:
    """Score a parser against gold scene graphs (SPICE-style tuple P/R/F1)."""
    from sgprep.eval import render, run_eval
    from sgprep.parse.base import ParserSettings

    from sgprep.eval import EvalRefused
    from sgprep.parse.base import ModelUnavailable

    settings = ParserSettings(parser=parser, spacy_model=spacy_model, model=model, engine=engine,
                              endpoint=endpoint)
    try:
        report = run_eval(gold, parser, settings, output, limit)
    except EvalRefused as exc:
        _fail(str(exc))
    except ModuleNotFoundError as exc:
        _missing_module(exc)
    except (ModelUnavailable, ValueError, KeyError) as exc:
        _fail(f"--gold {gold}: {exc}" if isinstance(exc, (ValueError, KeyError)) else str(exc))
    stdout.print(render(report))


@app.command()
def validate(output: Path = typer.Argument(..., exists=True, help="An sgprep output directory.")) -> None:
    """Check shards against the schemas and the index; exit 1 and list problems if any."""
    from sgprep.io.validate import validate_output

    jsonl = output.suffix.lower() == ".jsonl"
    if not jsonl and not (output / "_meta" / "run.json").is_file():
        _fail(f"{output} is not an sgprep output (it has no _meta/run.json); give the directory "
              f"or FILE.jsonl that `sgprep parse/run --output` wrote")
    problems, checked = validate_output(output)
    what = "record(s)" if jsonl else "shard(s)"
    for problem in problems[:200]:
        stdout.print(f"[red]✗[/] {problem}", highlight=False, soft_wrap=True)
    if len(problems) > 200:
        stdout.print(f"... and {len(problems) - 200} more")
    if problems:
        stdout.print(f"[bold red]{len(problems)} problem(s)[/] in {checked} {what}")
        raise typer.Exit(1)
    stdout.print(f"[bold green]ok[/]: {checked} {what} valid")


def entry() -> None:
    """The console script: global flags (-v) work before or after the command."""
    import sys

    args = sys.argv[1:]
    hoisted = [a for a in args if a in ("-v", "--verbose")]
    app(args=hoisted + [a for a in args if a not in ("-v", "--verbose")], prog_name="sgprep")


if __name__ == "__main__":
    entry()
