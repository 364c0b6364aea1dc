"""A small Python API for notebooks and trainer scripts, thin over what the CLI calls.

from sgprep import api

graphs = api.parse_captions(["a red apple to the left of a blue car"])
negatives = api.make_negatives(["a red apple to the left of a blue car"])
summary = api.run("pipelines/example.yaml", workers=1, progress=False)
index = api.read_index("examples/out/pipeline")   # a pyarrow Table, one row per sample
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sgprep.schema import SceneGraph


def parse_captions(captions: list[str], parser: str = "spacy", **settings: Any) -> list[SceneGraph]:
    """Scene graphs for captions, in order. ``settings`` are the parse stage's settings
    (``spacy_model``, ``model``, ``engine``, ``endpoint``, ``fallback``, ...). A caption the
    parser cannot handle raises :class:`ValueError` naming it; use the pipeline (``run``) to
    keep going past bad input and record failures instead."""
    from sgprep.parse.base import ParseError, ParserSettings, make_parser

    instance = make_parser(parser, ParserSettings(parser=parser, **settings))  # checked there
    instance.setup()
    try:
        results = instance.parse_batch(list(captions))
    finally:
        instance.teardown()
    for caption, result in zip(captions, results):
        if isinstance(result, ParseError):
            raise ValueError(
                f"{parser} could not parse {caption!r}: {result.reason}: {result.message}"
            )
    return results


def make_negatives(
    captions: list[str],
    graphs: list[SceneGraph] | None = None,
    strategies: tuple[str, ...] = ("swap", "shuffle", "replace", "connect"),
    seed: int = 0,
    **settings: Any,
) -> list[list[Any]]:
    """Hard negatives of captions, in order: for each caption, its
    :class:`sgprep.schema.Negative` list (``text``, ``kind``, ...), as ``sgprep negatives``
    makes them (the same seed, the same negatives; a caption is seeded by its position).
    ``graphs``: the captions' scene graphs, else :func:`parse_captions` makes them.
    ``settings`` are the negatives stage's (``per_sample``, ``vocab``, ...)."""
    from sgprep.config import RunContext
    from sgprep.negatives.stage import NegativesSettings, NegativesStage

    captions = list(captions)
    graphs = parse_captions(captions) if graphs is None else list(graphs)
    if len(graphs) != len(captions):
        raise ValueError(f"{len(captions)} captions but {len(graphs)} graphs")
    stage = NegativesStage(
        NegativesSettings(strategies=list(strategies), **settings), RunContext(seed=seed)
    )
    return [
        stage.negatives(f"{i:09d}", caption, graph).negatives
        for i, (caption, graph) in enumerate(zip(captions, graphs))
    ]


def run(pipeline: str | Path | dict[str, Any], **overrides: Any):
    """Run a pipeline: a YAML path, or a mapping of RunConfig fields (``input``, ``output``,
    ``stages``: ``[{"name": "parse", "settings": {...}}]``, ...). ``overrides`` replace fields
    as the CLI flags do; ``executor`` (``local``, ``ray``) picks the executor, as on the command
    line. Returns the run summary (``totals``, ``output``, ``seconds``, ...). A run that did
    less than asked raises :class:`sgprep.errors.RunIncomplete` (its ``summary`` is still
    there), as the command line exits 1: raise the stage's limit (e.g.
    ``max_fallback_share``) to accept such a run."""
    from sgprep.errors import RunIncomplete
    from sgprep.exec import make_executor
    from sgprep.pipeline import load_pipeline, make_config

    if isinstance(pipeline, dict):
        config = make_config({**pipeline, **overrides})
    else:
        config = load_pipeline(Path(pipeline), **overrides)
    summary = make_executor(config).run()
    if summary.problems:
        raise RunIncomplete(summary.problems, summary)
    return summary


def read_index(output: str | Path):
    """Every input sample of an output, ok and failed, as one pyarrow Table."""
    import pyarrow.parquet as pq

    files = sorted(Path(output).glob("[0-9]*.parquet"))
    if not files:
        raise FileNotFoundError(f"{output} holds no sgprep index (NNNNN.parquet)")
    return pq.ParquetDataset(files).read()
