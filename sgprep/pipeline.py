"""The stage registry, and pipelines: from a config to the stages that run, from YAML to a config.

A stage is one module and one line in :data:`STAGES`; modules are imported only when used.
"""

from __future__ import annotations

import difflib
import importlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

if TYPE_CHECKING:
    from sgprep.config import RunConfig
    from sgprep.exec.stage import Stage

STAGES: dict[str, str] = {
    "parse": "sgprep.parse.stage:ParseStage",
    "detect": "sgprep.detect.stage:DetectStage",
    "negatives": "sgprep.negatives.stage:NegativesStage",
}


class PipelineError(ValueError):
    """A pipeline that cannot run as described; the message says why and what to change."""


def stage_class(name: str) -> type[Stage]:
    if name not in STAGES:
        near = difflib.get_close_matches(name, STAGES, n=1)
        hint = f"; did you mean {near[0]!r}?" if near else ""
        raise PipelineError(f"unknown stage {name!r}{hint} Stages: {', '.join(STAGES)}")
    module, _, attr = STAGES[name].partition(":")
    try:
        return getattr(importlib.import_module(module), attr)
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith("sgprep"):
            raise PipelineError(f"stage {name!r} is not part of this version of sgprep") from None
        raise


def build_stages(config: RunConfig) -> list[Stage]:
    """The stage objects, in order (cheap: models load in each stage's setup())."""
    stages = []
    for spec in config.stages:
        cls = stage_class(spec.name)
        stages.append(cls(cls.Settings.model_validate(spec.settings)))
    return stages


def drop_unavailable(config: RunConfig) -> RunConfig:
    """Stages that cannot run here (``Stage.check`` fails) are left out with one clear
    warning, unless ``config.require`` names them: then the run stops with the reason."""
    import logging

    from sgprep.parse.base import ModelUnavailable

    kept = []
    for spec, stage in zip(config.stages, build_stages(config)):
        try:
            stage.check()
        except ModelUnavailable as exc:
            if spec.name in config.require:
                raise
            logging.getLogger(__name__).warning(
                "stage %r cannot run here and is left out of this run (pass --require %s to "
                "make that an error): %s", spec.name, spec.name, exc)
            continue
        kept.append(spec)
    if not kept:
        raise PipelineError("no stage of the pipeline can run here (see the warnings above)")
    if len(kept) == len(config.stages):
        return config
    return config.model_copy(update={"stages": kept})


def check_requires(config: RunConfig) -> None:
    """Refuse a pipeline in which a stage needs what neither the input nor an earlier stage
    provides (e.g. ``negatives`` without ``parse`` on raw captions)."""
    have = input_products(config.input)
    for spec in config.stages:
        cls = stage_class(spec.name)
        missing = sorted(cls.requires - have)
        if missing:
            givers = [n for n in STAGES if n != spec.name and set(missing) <= _provides(n)]
            raise PipelineError(
                f"stage {spec.name!r} needs {', '.join(missing)}, which no earlier stage provides "
                f"and the input {config.input!r} does not carry (it is not an sgprep output with "
                f"it); put {' or '.join(repr(g) for g in givers) or 'a stage that provides it'} "
                f"before {spec.name!r}, or read an output that has it")
        have |= cls.provides


def _provides(name: str) -> set[str]:
    try:
        return set(stage_class(name).provides)
    except PipelineError:
        return set()


def input_products(spec: str) -> set[str]:
    """What an earlier sgprep run wrote into this input (``sg``, ``det``, ``neg``), read from
    its saved config: ``DIR/_meta/run.json``, or ``FILE.run.json`` beside a JSONL output."""
    path = Path(spec.split("*")[0] or ".")
    candidates = [path / "_meta" / "run.json", path.parent / "_meta" / "run.json",
                  path.with_name(path.stem + ".run.json")]
    for meta in candidates:
        try:
            config = json.loads(meta.read_text())["config"]
        except (OSError, ValueError, KeyError, TypeError):
            continue
        products: set[str] = set()
        for stage in config.get("stages") or []:
            products |= _provides(stage.get("name", ""))
        return products
    return set()


def load_pipeline(path: Path, **overrides: Any) -> RunConfig:
    """A pipeline YAML holds RunConfig fields; relative paths are relative to the YAML file.

    ``stages`` maps each stage to its settings, in the order they run, e.g.::

        input: ../data/cc12m/*.tar
        output: ../out/cc12m
        stages:
          parse: {parser: llama3, engine: vllm, batch_size: 512}
          negatives: {strategies: [swap, shuffle]}

    ``overrides`` (the command line's flags) replace the file's values; ``None`` means unset.
    """
    from sgprep.config import RunConfig

    try:
        data = yaml.safe_load(path.read_text())
    except yaml.YAMLError as exc:
        raise PipelineError(f"not valid YAML: {exc}") from None
    data = data or {}
    if not isinstance(data, dict):
        raise PipelineError("a pipeline file must be a mapping of settings")
    stages = data.pop("stages", None) or {}
    if isinstance(stages, list):  # also accepted: a list of one-key mappings
        stages = {k: v for item in stages for k, v in (item or {}).items()}
    if not isinstance(stages, dict) or not stages:
        raise PipelineError("a pipeline needs `stages:`, e.g. `stages: {parse: {parser: spacy}}`")
    for name in stages:
        stage_class(name)  # unknown names fail here, with a suggestion
    base = path.parent
    for field in ("input", "output"):
        if field in data and not str(data[field]).startswith("/"):
            data[field] = str(base / str(data[field]))
    data["stages"] = [{"name": name, "settings": dict(settings or {})}
                      for name, settings in stages.items()]
    data.setdefault("command", "run")
    data.update({k: v for k, v in overrides.items() if v is not None})
    return RunConfig.model_validate(data)
