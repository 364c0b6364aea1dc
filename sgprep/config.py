"""Run configuration: validated at start-up, saved with every output, one field per CLI flag."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from sgprep import __version__
from sgprep.io.images import DEFAULT_MAX_PIXELS
from sgprep.parse.base import ParserSettings

#: Fields that do not change what a run writes; they are left out of the fingerprint.
NOT_IN_FINGERPRINT = {"overwrite", "progress", "executor"}


class RunConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    command: str = Field(description="parse, detect, negatives or run")
    input: str
    input_format: str | None = None
    output: Path
    shard_size: int = Field(default=1000, gt=0)
    overwrite: bool = False
    seed: int = 0
    limit: int | None = Field(default=None, gt=0)
    max_caption_chars: int = Field(default=2000, gt=0)
    max_image_pixels: int = Field(default=DEFAULT_MAX_PIXELS, gt=0)
    check_images: bool = True
    progress: bool = True
    executor: str = "local"
    parser: str | None = None
    parse: ParserSettings = Field(default_factory=ParserSettings)

    def resolved(self) -> dict[str, Any]:
        return json.loads(self.model_dump_json())

    def fingerprint(self) -> str:
        data = {k: v for k, v in self.resolved().items() if k not in NOT_IN_FINGERPRINT}
        blob = json.dumps(data, sort_keys=True).encode()
        return hashlib.sha256(blob).hexdigest()[:16]

    def run_meta(self) -> dict[str, Any]:
        return {"sgprep_version": __version__, "config": self.resolved()}
