"""From a config to the list of stages that run, and pipelines described in YAML."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from sgprep.config import RunConfig
from sgprep.exec.stage import Stage


def build_stages(config: RunConfig) -> list[Stage]:
    stages: list[Stage] = []
    if config.parser:
        from sgprep.parse.stage import ParseStage

        stages.append(ParseStage(config.parse.model_copy(update={"parser": config.parser})))
    return stages


def load_pipeline(path: Path, **overrides: Any) -> RunConfig:
    """A pipeline YAML holds RunConfig fields; relative paths are relative to the YAML file.

    ``stages`` lists what runs, each with its settings, e.g.::

        input: ../data/cc12m/*.tar
        output: ../out/cc12m
        stages:
          parse: {parser: llama3, engine: vllm, batch_size: 512}
    """
    data = yaml.safe_load(path.read_text()) or {}
    if not isinstance(data, dict):
        raise ValueError("a pipeline file must be a mapping of settings")
    stages = data.pop("stages", None) or {}
    unknown = set(stages) - {"parse"}
    if unknown:
        raise ValueError(f"stages {sorted(unknown)} are not available yet (only 'parse' is)")
    base = path.parent
    for field in ("input", "output"):
        if field in data and not str(data[field]).startswith("/"):
            data[field] = str(base / str(data[field]))
    if "parse" in stages:
        parse = dict(stages["parse"] or {})
        data["parser"] = parse.pop("parser", "spacy")
        data["parse"] = parse
    data.setdefault("command", "run")
    data.update(overrides)
    return RunConfig.model_validate(data)
