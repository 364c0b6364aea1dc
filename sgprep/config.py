"""Run configuration: validated at start-up, saved with every output, one field per CLI flag.

A run is a list of stages (``parse``, ``detect``, ``negatives``), each with its own settings,
over one input and into one output. ``sgprep parse`` is the one-stage pipeline ``[parse]``;
``sgprep run PIPELINE.yaml`` chains any of them in one pass per shard.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from sgprep import __version__
from sgprep.io.images import DEFAULT_MAX_PIXELS
from sgprep.io.intake import DEFAULT_MAX_CAPTION_CHARS

#: Fields that do not change what a run writes; they are left out of the fingerprint, so a
#: rerun with other values resumes the same output.
NOT_IN_FINGERPRINT = {"command", "overwrite", "progress", "progress_interval", "executor",
                      "workers", "ray_address", "require"}
#: Stage settings that change speed, or what a run checks or redoes, never bytes.
SPEED_ONLY_SETTINGS = {"batch_size", "max_concurrency", "num_engines", "decode_workers",
                       "endpoint_wait", "max_fallback_share", "redo_fallbacks"}
DEFAULT_SHARD_SIZE = 1000


class StageSpec(BaseModel):
    """One stage of a pipeline: its registry name and its settings (validated against the
    stage's own ``Settings`` model, then stored in full so the fingerprint sees defaults)."""

    model_config = ConfigDict(extra="forbid")

    name: str
    settings: dict[str, Any] = Field(default_factory=dict)


class RunConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    command: str = Field(default="run", description="parse, detect, negatives or run")
    input: str
    input_format: str | None = None
    columns: dict[str, str] = Field(default_factory=dict, description="Tables: the caption, key, "
                                    "image and url columns (a name, or a 1-based position).")
    output: Path
    stages: list[StageSpec] = Field(min_length=1)
    shard_size: int = Field(default=DEFAULT_SHARD_SIZE, gt=0)
    overwrite: bool = False
    seed: int = 0
    limit: int | None = Field(default=None, gt=0)
    max_caption_chars: int = Field(default=DEFAULT_MAX_CAPTION_CHARS, gt=0)
    max_image_pixels: int = Field(default=DEFAULT_MAX_PIXELS, gt=0)
    check_images: bool = True
    require: list[str] = Field(default_factory=list, description="Stages that must run: when "
                               "one cannot (e.g. missing weights) the run stops instead of going "
                               "on without it.")
    progress: bool = True
    progress_interval: float = Field(default=30.0, gt=0, description="Seconds between progress "
                                     "lines when stderr is not a terminal (logs, Slurm, CI).")
    executor: str = "local"
    workers: int | None = Field(default=None, gt=0, description="Local worker processes "
                                "(default: the machine's cores).")
    ray_address: str | None = None

    @model_validator(mode="after")
    def _columns_valid(self) -> RunConfig:
        unknown = sorted(set(self.columns) - {"caption", "key", "image", "url"})
        if unknown:
            raise ValueError(f"columns {unknown} are not known (caption, key, image, url)")
        self.columns = {k: v for k, v in self.columns.items() if v}
        return self

    @model_validator(mode="after")
    def _stages_valid(self) -> RunConfig:
        from sgprep.pipeline import stage_class

        for spec in self.stages:
            cls = stage_class(spec.name)
            try:
                settings = cls.Settings.model_validate(spec.settings)
            except ValidationError as exc:
                problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'settings'}: {e['msg']}"
                                     for e in exc.errors())
                raise ValueError(f"stage {spec.name!r}: {problems}") from None
            spec.settings = settings.model_dump(mode="json")
        return self

    def resolved(self) -> dict[str, Any]:
        return json.loads(self.model_dump_json())

    def fingerprinted(self) -> dict[str, Any]:
        """The settings that decide the output's bytes: paths made absolute, and without
        what only changes speed (workers, executor, batch sizes: a test shows they do not
        change the bytes)."""
        data = {k: v for k, v in self.resolved().items() if k not in NOT_IN_FINGERPRINT}
        data["input"] = os.path.abspath(self.input)
        data["output"] = os.path.abspath(self.output)
        for stage in data["stages"]:
            stage["settings"] = {k: v for k, v in stage["settings"].items()
                                 if k not in SPEED_ONLY_SETTINGS}
        return data

    def fingerprint(self) -> str:
        blob = json.dumps(self.fingerprinted(), sort_keys=True).encode()
        return hashlib.sha256(blob).hexdigest()[:16]

    def run_meta(self) -> dict[str, Any]:
        return {"sgprep_version": __version__, "config": self.resolved(),
                "settings": self.fingerprinted()}
