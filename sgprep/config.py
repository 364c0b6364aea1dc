"""Run configuration: validated at start-up, saved with every output, one field per CLI flag.

A run is a list of stages (``parse``, ``detect``, ``negatives``), each with its own settings,
over one input and into one output. ``sgprep parse`` is the one-stage pipeline ``[parse]``;
``sgprep run PIPELINE.yaml`` chains any of them in one pass per shard.

This module is the bottom of the package: it imports nothing of sgprep but the version, so
everything above may import it. Stage settings are validated against each stage's ``Settings``
model by :func:`sgprep.pipeline.resolve`, which knows the stages; run-level values (the seed,
the intake limits) reach the stages through one :class:`RunContext`.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic.fields import FieldInfo

from sgprep import __version__

#: The largest image accepted unless --max-image-pixels says otherwise (PIL's own bomb limit).
DEFAULT_MAX_PIXELS = 89_478_485
#: The longest caption accepted unless --max-caption-chars says otherwise.
DEFAULT_MAX_CAPTION_CHARS = 2000

#: Fields that do not change what a run writes; they are left out of the fingerprint, so a
#: rerun with other values resumes the same output.
NOT_IN_FINGERPRINT = {
    "after",  # corpus steps write beside the shards, never into them
    "command",
    "overwrite",
    "progress",
    "progress_interval",
    "executor",
    "workers",
    "ray_address",
    "sample_timeout",
    "max_timeout_share",
    "max_failed_share",
}
#: Run settings added after outputs were made: left out of the fingerprint at their default,
#: so that those outputs still resume.
ADDED_LATER = ("image_root", "allow_outside_paths")
#: Stage settings that change speed, or what a run checks or redoes, never bytes.
SPEED_ONLY_SETTINGS = {
    "batch_size",
    "max_concurrency",
    "num_engines",
    "decode_workers",
    "endpoint_wait",
    "max_fallback_share",
    "redo_fallbacks",
}
DEFAULT_SHARD_SIZE = 1000
#: Seconds one sample may take in one stage unless --sample-timeout says otherwise: a hundred
#: times what the slowest CPU stage takes on an ordinary sample (a T5 parse with 5 beams).
DEFAULT_SAMPLE_TIMEOUT = 60.0


@dataclass(frozen=True)
class Flag:
    """Command-line metadata of a settings field, for ``Annotated[type, Flag(...)]``:

    - ``names``: more names for its flag (``"-p"``, ``"--strategy"``);
    - ``panel``: the help panel it shows in (e.g. one per parser engine);
    - ``hidden``: a field that is no flag (set another way);
    - ``path``: a file path; in a pipeline YAML a relative one follows the YAML file;
    - ``applies``: ``settings -> bool``; where it says no (a t5 setting in a spaCy run) the
      field is left out of ``run.json`` and of the fingerprint.

    Help, bounds and defaults come from the field itself (``Field(description=, ge=)``)."""

    names: tuple[str, ...] = ()
    panel: str | None = None
    hidden: bool = False
    path: bool = False
    applies: Callable[[Any], bool] | None = None

    def __init__(
        self,
        *names: str,
        panel: str | None = None,
        hidden: bool = False,
        path: bool = False,
        applies: Callable[[Any], bool] | None = None,
    ):
        for key, value in (
            ("names", names),
            ("panel", panel),
            ("hidden", hidden),
            ("path", path),
            ("applies", applies),
        ):
            object.__setattr__(self, key, value)


def flag_of(field: FieldInfo) -> Flag:
    """A field's :class:`Flag` (an empty one when it has none)."""
    return next((m for m in field.metadata if isinstance(m, Flag)), Flag())


class RunContext(BaseModel):
    """The run-level values every stage may read (``stage.context``): set once per run, so a
    stage never keeps its own copy of the seed or of a limit."""

    model_config = ConfigDict(frozen=True)

    seed: int = 0
    max_caption_chars: int = DEFAULT_MAX_CAPTION_CHARS
    max_image_pixels: int = DEFAULT_MAX_PIXELS


class StageSpec(BaseModel):
    """One stage of a pipeline: its registry name and its settings (validated against the
    stage's own ``Settings`` model by ``pipeline.resolve``, then stored in full, with the
    settings that do not apply to the chosen backend left out, so the fingerprint and
    ``run.json`` see what the run used)."""

    model_config = ConfigDict(extra="forbid")

    name: str
    settings: dict[str, Any] = Field(default_factory=dict)
    optional: bool = Field(
        default=False,
        description="The run may go on without this stage "
        "when it cannot run here (e.g. detect without weights).",
    )


class RunConfig(BaseModel):
    """One run. Each field is a flag of every verb that writes shards (``--shard-size``), a key
    of a pipeline YAML, and, but for those in NOT_IN_FINGERPRINT, part of the fingerprint."""

    model_config = ConfigDict(extra="forbid")

    command: Annotated[str, Flag(hidden=True)] = Field(
        default="run", description="parse, detect, negatives or run"
    )
    input: Annotated[str, Flag("-i")] = Field(
        description="A file, a directory, or a glob (quote it)."
    )
    input_format: str | None = Field(
        default=None,
        description="table | wds (img2dataset, "
        "webdataset) | coco | images. Detected when left out.",
    )
    columns: Annotated[dict[str, str], Flag(hidden=True)] = Field(
        default_factory=dict,
        description="Tables: the caption, key, image and url columns (a "
        "name, or a 1-based position).",
    )
    image_root: str | None = Field(
        default=None,
        description="The folder that holds the images, where the input does not say it: COCO "
        "captions outside COCO's own layout, or a table whose image column holds file names "
        "(relative to this folder, not to the table's).",
    )
    allow_outside_paths: bool = Field(
        default=False,
        description="Read image and caption files that an input names outside its own folder "
        "(a link out of an image folder, a COCO file_name with '..', a table's absolute image "
        "path). Off: each fails as read/outside_input, so an untrusted input cannot carry a "
        "file of this machine into a dataset.",
    )
    output: Annotated[Path, Flag("-o")] = Field(
        description="A directory for shards, or FILE.jsonl."
    )
    stages: Annotated[list[StageSpec], Flag(hidden=True)] = Field(min_length=1)
    after: Annotated[list[StageSpec], Flag(hidden=True)] = Field(
        default_factory=list,
        description="Corpus steps (pipeline.AFTER, e.g. mine-images) run over the whole "
        "output once its shards are done; they write beside the shards, never into them.",
    )
    shard_size: int = Field(
        default=DEFAULT_SHARD_SIZE, gt=0, description="Input samples per output shard."
    )
    overwrite: bool = Field(default=False, description="Replace the output of another run.")
    seed: int = Field(
        default=0, description="Seed for anything random; same input + seed = same bytes."
    )
    limit: int | None = Field(default=None, gt=0, description="Stop after this many input samples.")
    max_caption_chars: int = Field(
        default=DEFAULT_MAX_CAPTION_CHARS,
        gt=0,
        description="Longer captions fail with caption_too_long.",
    )
    max_image_pixels: int = Field(
        default=DEFAULT_MAX_PIXELS, gt=0, description="Larger images fail with image_too_large."
    )
    check_images: bool = Field(
        default=True,
        description="Open each image's header at intake (bad images fail as read/bad_image).",
    )
    image_format: Literal["keep", "jpg"] = Field(
        default="keep",
        description="keep: image bytes as the source has them, but images with an EXIF "
        "orientation stored upright (re-encoded in their format, PNG for non-JPEGs); jpg: also "
        "re-encode formats other than jpg, png and webp (gif, bmp, tiff, ...) as JPEGs, which "
        "every trainer's decoder reads.",
    )
    shared_images: bool = Field(
        default=False,
        description="Store an image once when consecutive samples share it (COCO's "
        "captions of one image): the others get no image member and json.image_key names the "
        "sample that has it. sgprep.data joins it back; open_clip and datasets see no image "
        "there, so leave it off for them.",
    )
    compression: Literal["none", "gzip"] = Field(
        default="none",
        description="gzip: write NNNNN.tar.gz, each sample a deflate block of its "
        "own (the index's offset and size point at it). For text-only outputs (about a fifth "
        "of the plain size); images do not shrink.",
    )
    progress: bool = Field(default=True, description="Show a progress bar.")
    progress_interval: float = Field(
        default=30.0,
        gt=0,
        description="Seconds between progress "
        "lines when stderr is not a terminal (logs, Slurm, CI).",
    )
    executor: str = Field(default="local", description="local (processes on this machine) | ray.")
    workers: int | None = Field(
        default=None,
        gt=0,
        description="Worker processes (local) or actors (ray); default: one per core.",
    )
    sample_timeout: float = Field(
        default=DEFAULT_SAMPLE_TIMEOUT,
        ge=0,
        description="Seconds one sample may take in one stage; one that runs over fails "
        "with reason timeout and the run goes on (docs/timeouts.md). 0: no budget.",
    )
    max_timeout_share: float = Field(
        default=0.01,
        ge=0,
        le=1,
        description="The largest share of the samples that may time out; above it the "
        "run warns as it goes and ends with an error (exit 1). 1 allows any share.",
    )
    max_failed_share: float | None = Field(
        default=None,
        ge=0,
        le=1,
        description="The largest share of the samples that may fail (any stage, any "
        "reason); above it the run ends with an error (exit 1). Default: only a run where "
        "every sample failed is an error; 1 allows even that.",
    )
    ray_address: str | None = Field(
        default=None,
        description="ray: a cluster to join ('auto', "
        "or ray://HOST:PORT); default: a local Ray instance.",
    )

    @model_validator(mode="after")
    def _columns_valid(self) -> RunConfig:
        unknown = sorted(set(self.columns) - {"caption", "key", "image", "url"})
        if unknown:
            raise ValueError(f"columns {unknown} are not known (caption, key, image, url)")
        self.columns = {k: v for k, v in self.columns.items() if v}
        return self

    @model_validator(mode="after")
    def _after_needs_shards(self) -> RunConfig:
        if self.after and Path(self.output).suffix.lower() == ".jsonl":
            names = ", ".join(spec.name for spec in self.after)
            raise ValueError(f"{names} reads a shard directory's index: name a directory output")
        return self

    @model_validator(mode="after")
    def _stages_once(self) -> RunConfig:
        names = [spec.name for spec in self.stages]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ValueError(
                f"stage(s) {', '.join(twice)} given more than once; a pipeline runs each stage once"
            )
        return self

    def context(self) -> RunContext:
        return RunContext(
            seed=self.seed,
            max_caption_chars=self.max_caption_chars,
            max_image_pixels=self.max_image_pixels,
        )

    def negatives_table(self) -> bool:
        """The negatives stage asks for the flat negatives/NNNNN.parquet tables."""
        return any(spec.name == "negatives" and spec.settings.get("table") for spec in self.stages)

    def writer_options(self) -> dict[str, Any]:
        """What the shard writer is asked for (io/writers.py ``make_writer``)."""
        return {
            "negatives_table": self.negatives_table(),
            "shared_images": self.shared_images,
            "compression": self.compression,
        }

    def resolved(self) -> dict[str, Any]:
        # no corpus step: run.json as it was before there were any
        return json.loads(self.model_dump_json(exclude=None if self.after else {"after"}))

    def fingerprinted(self) -> dict[str, Any]:
        """The settings that decide the output's bytes: paths made absolute, and without
        what only changes speed (workers, executor, batch sizes: a test shows they do not
        change the bytes)."""
        data = {k: v for k, v in self.resolved().items() if k not in NOT_IN_FINGERPRINT}
        data["input"] = os.path.abspath(self.input)
        data["output"] = os.path.abspath(self.output)
        for name in ADDED_LATER:  # at its default: the fingerprints of older outputs stay
            if data.get(name) == type(self).model_fields[name].default:
                data.pop(name, None)
        if "image_root" in data:
            data["image_root"] = os.path.abspath(data["image_root"])
        for stage in data["stages"]:
            stage.pop("optional", None)
            stage["settings"] = {
                k: v for k, v in stage["settings"].items() if k not in SPEED_ONLY_SETTINGS
            }
        return data

    def fingerprint(self) -> str:
        blob = json.dumps(self.fingerprinted(), sort_keys=True).encode()
        return hashlib.sha256(blob).hexdigest()[:16]

    def run_meta(self) -> dict[str, Any]:
        return {
            "sgprep_version": __version__,
            "config": self.resolved(),
            "settings": self.fingerprinted(),
        }
