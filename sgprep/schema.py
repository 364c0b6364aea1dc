"""The data model: one pydantic model per thing sgprep reads, makes or writes.

The JSON Schemas in ``schemas/`` are generated from these models
(``python -m sgprep.schemas_gen``); a test fails when they drift.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

SCHEMA_VERSION = 6


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Entity(_Model):
    """A visual thing named in the caption, with the modifiers that belong to it."""

    text: str = Field(min_length=1, description="The entity as written, e.g. 'red apple'.")
    head: str = Field(min_length=1, description="The head noun, lemmatised, e.g. 'apple'.")
    attributes: list[str] = Field(default_factory=list, description="Attributes bound to it.")
    count: int | None = Field(default=None, ge=0, description="Number of instances when stated.")
    span: tuple[int, int] | None = Field(
        default=None,
        description="Character span [start, end) of `text` in the caption, when known.",
    )

    @field_validator("text", "head")
    @classmethod
    def _strip(cls, value: str) -> str:
        value = value.strip()
        if not value:
            raise ValueError("must not be blank")
        return value

    @field_validator("span")
    @classmethod
    def _span_order(cls, value: tuple[int, int] | None) -> tuple[int, int] | None:
        if value is not None and not 0 <= value[0] <= value[1]:
            raise ValueError(f"span {value} is not 0 <= start <= end")
        return value


class Relation(_Model):
    """A directed edge ``subject --predicate--> object`` between two different entities."""

    subject: int = Field(ge=0, description="Index of the subject in `entities`.")
    predicate: str = Field(min_length=1, description="e.g. 'to the left of', 'holding'.")
    object: int = Field(ge=0, description="Index of the object in `entities`.")
    predicate_lemma: str | None = Field(
        default=None,
        description="The predicate with its verb lemmatised ('hold', 'sit on'), "
        "whatever form `predicate` has; null when the parser does not know it.",
    )
    predicate_surface: str | None = Field(
        default=None,
        description="The predicate as written ('holding', 'sitting on'), whatever "
        "form `predicate` has; null when the parser does not know it or when the written form "
        "reads the other way (a passive 'covered by' whose lemma form is the active 'cover').",
    )
    span: tuple[int, int] | None = Field(
        default=None,
        description="Character span [start, end) of the caption from the first "
        "to the last character of the subject's and object's spans (so it holds the words that "
        "state the relation), when both entity spans are known.",
    )

    @field_validator("predicate")
    @classmethod
    def _predicate(cls, value: str) -> str:
        value = " ".join(value.split())
        if not value:
            raise ValueError("predicate must not be empty")
        return value

    @field_validator("predicate_lemma", "predicate_surface")
    @classmethod
    def _form(cls, value: str | None) -> str | None:
        if value is None:
            return None
        value = " ".join(value.split())
        if not value:
            raise ValueError("a predicate form must not be blank (null when unknown)")
        return value

    @field_validator("span")
    @classmethod
    def _span_order(cls, value: tuple[int, int] | None) -> tuple[int, int] | None:
        if value is not None and not 0 <= value[0] <= value[1]:
            raise ValueError(f"span {value} is not 0 <= start <= end")
        return value


class SceneGraph(_Model):
    """Entities and directed relations parsed from one caption."""

    entities: list[Entity] = Field(default_factory=list)
    relations: list[Relation] = Field(default_factory=list)
    parser: str = Field(description="The parser that made this graph, e.g. 'spacy', 'llama3'.")
    retries: int = Field(default=0, ge=0, description="Invalid outputs retried before this one.")
    fallback_from: str | None = Field(
        default=None, description="The parser that failed before this one took over, if any."
    )
    fallback_reason: str | None = Field(
        default=None, description="Why that parser gave no graph, e.g. 'endpoint_unreachable: ...'."
    )

    @model_validator(mode="after")
    def _relations_valid(self) -> SceneGraph:
        n = len(self.entities)
        for i, rel in enumerate(self.relations):
            if rel.subject >= n or rel.object >= n:
                raise ValueError(
                    f"relation {i} ({rel.subject}, {rel.predicate!r}, {rel.object}) "
                    f"refers to an entity out of range (there are {n})"
                )
            if rel.subject == rel.object:
                raise ValueError(f"relation {i} joins entity {rel.subject} to itself")
        return self


def relation_span(entities: list[Entity], subject: int, obj: int) -> tuple[int, int] | None:
    """The caption span of relation ``subject -> obj``: from the first to the last character of
    the two entities' spans; None when either span is unknown."""
    try:
        a, b = entities[subject].span, entities[obj].span
    except (IndexError, TypeError):  # an out-of-range relation: the graph's validator says so
        return None
    if a is None or b is None:
        return None
    return (min(a[0], b[0]), max(a[1], b[1]))


class Box(_Model):
    """A detected object: pixel box [x1, y1, x2, y2] clipped to the image."""

    xyxy: tuple[float, float, float, float] = Field(
        description="Pixel corners [x1, y1, x2, y2] in the upright image, clipped to it."
    )
    score: float = Field(ge=0.0, le=1.0, description="The detector's confidence p_i.")
    label: str = Field(description="The class name, e.g. 'person'.")
    cls: int = Field(ge=0, description="The class id in the detector's label set.")

    @field_validator("xyxy")
    @classmethod
    def _ordered(
        cls, value: tuple[float, float, float, float]
    ) -> tuple[float, float, float, float]:
        if not (value[0] <= value[2] and value[1] <= value[3]):
            raise ValueError(f"box {value} is not x1 <= x2, y1 <= y2")
        return value


class PairBox(_Model):
    """The smallest box enclosing objects ``i`` and ``j``, scored ``p_i * p_j``."""

    xyxy: tuple[float, float, float, float] = Field(description="Union of the two objects' boxes.")
    score: float = Field(ge=0.0, le=1.0, description="p_i * p_j.")
    i: int = Field(ge=0, description="Index of the first object in `objects` (i < j).")
    j: int = Field(ge=0, description="Index of the second object in `objects`.")


class Detections(_Model):
    """Object boxes and pair (relation) boxes for one image: ``det.json``."""

    width: int = Field(gt=0, description="Width of the upright image (EXIF orientation applied).")
    height: int = Field(gt=0, description="Height of the upright image.")
    detector: str = Field(description="The model's name, from its weights file, e.g. 'yolov9c'.")
    weights_sha256: str = Field(
        pattern=r"^[0-9a-f]{64}$", description="SHA-256 of the weights file the boxes came from."
    )
    backend: str = Field(description="What ran it: 'torch' or 'onnx'.")
    objects: list[Box] = Field(
        default_factory=list, description="Kept objects, best score first (top-N)."
    )
    pairs: list[PairBox] = Field(
        default_factory=list, description="Kept pairs, best score first, ties by (i, j) (top-M)."
    )
    entity_boxes: list[int | None] | None = Field(
        default=None,
        description="Per entity of the sample's scene graph (sg.json), the index "
        "in `objects` of the detected box it names (the match of sgprep stats), else null; "
        "null as a whole when the sample had no scene graph when detect ran.",
    )

    @model_validator(mode="after")
    def _consistent(self) -> Detections:
        for k, box in enumerate(self.objects):
            x1, y1, x2, y2 = box.xyxy
            if x1 < 0 or y1 < 0 or x2 > self.width or y2 > self.height:
                raise ValueError(
                    f"object {k} box {box.xyxy} is outside the {self.width}x{self.height} image"
                )
        n = len(self.objects)
        for k, pair in enumerate(self.pairs):
            if not pair.i < pair.j < n:
                raise ValueError(f"pair {k} ({pair.i}, {pair.j}) is not 0 <= i < j < {n}")
        for k, box in enumerate(self.entity_boxes or []):
            if box is not None and not 0 <= box < n:
                raise ValueError(f"entity {k} links to box {box}; there are {n}")
        return self


NegativeKind = Literal[
    "swap_attribute",
    "swap_object",
    "shuffle_relation",
    "redraw_relation",
    "replace_object",
    "replace_attribute",
    "replace_relation",
    "connect",
    "mined_image",
]


class Positive(_Model):
    """A true description of the image: the caption itself or one of its sub-graphs."""

    text: str
    kind: Literal["caption", "subgraph"] = Field(description="The whole caption or a sub-graph.")
    graph: SceneGraph | None = None
    realisation: Literal["caption", "span_extract", "template"] = Field(
        default="caption",
        description="caption: the caption as is; span_extract: a stretch of the caption; "
        "template: written from the graph.",
    )


class Negative(_Model):
    """A minimally perturbed, false description of the image. For ``mined_image`` it is true
    for another image, ``image_key``, for which the positive is false."""

    text: str
    strategy: str = Field(description="swap, shuffle, replace, connect, mine-images")
    kind: NegativeKind = Field(description="The perturbation, e.g. swap_attribute.")
    positive: str = Field(description="The true text it was perturbed from.")
    positive_index: int | None = Field(
        default=None,
        ge=0,
        description="Index in `positives` of that text (0: the caption); "
        "null for mined_image, which is corpus-level.",
    )
    level: Literal["caption", "subgraph", "corpus"] = Field(
        default="caption",
        description="caption: a negative of the caption itself (what a "
        "NegCLIP-style loss contrasts with it); subgraph: of a sub-graph positive; corpus: a "
        "mined image negative.",
    )
    realisation: Literal["span_edit", "template"] = Field(
        description="span_edit: the positive edited in place; template: written from the graph."
    )
    graph: SceneGraph | None = Field(
        default=None,
        description="The perturbed graph, with the negatives stage's `graphs` "
        "setting (off by default: the text is what trainers use).",
    )
    image_key: str | None = Field(
        default=None,
        description="mined_image: the key of the image this text is true for "
        "(and the positive false).",
    )


class Negatives(_Model):
    positives: list[Positive] = Field(
        default_factory=list, description="True texts: the caption and its sub-graphs."
    )
    negatives: list[Negative] = Field(default_factory=list)


class Failure(_Model):
    """Why a sample did not make it into the shards. Every dropped sample has one."""

    stage: str = Field(description="The stage that failed: read, parse, detect, negatives, write.")
    reason: str = Field(description="A short machine-readable key, e.g. 'image_corrupt'.")
    message: str = Field(description="What went wrong, for a person.")


class ImageInfo(_Model):
    """The image as stored: its bytes are written unchanged."""

    width: int = Field(description="Width of the stored pixels (before EXIF orientation).")
    height: int = Field(description="Height of the stored pixels.")
    mode: str = Field(description="Pillow's mode, e.g. 'RGB', 'L', 'CMYK'.")
    format: str | None = Field(default=None, description="Pillow's format, e.g. 'JPEG'.")
    orientation: int | None = Field(
        default=None,
        ge=2,
        le=8,
        description="The EXIF orientation tag when the stored pixels are not upright (2-8), "
        "else null. det.json's boxes are in the upright image: apply it before using them "
        "(PIL.ImageOps.exif_transpose; sgprep.data does).",
    )


class SampleInfo(_Model):
    """The ``json`` member of a tar sample."""

    key: str
    source: str = Field(description="Where it came from: file, or shard and member.")
    image: ImageInfo | None = None
    meta: dict[str, Any] = Field(
        default_factory=dict, description="The source's metadata, e.g. img2dataset's url."
    )
    image_key: str | None = Field(
        default=None,
        description="With `shared_images`: the sample has no image member because its "
        "image is the one of the sample just before it that carries one, this key (COCO's other "
        "captions of an image); sgprep.data joins it back. Else null.",
    )


class Sample(BaseModel):
    """One input sample on its way through the pipeline (not written as-is)."""

    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)

    key: str
    source: str = Field(description="Where it came from: file, or shard and member.")
    caption: str | None = None
    image: bytes | None = Field(default=None, repr=False)
    image_ext: str | None = None
    image_info: ImageInfo | None = None
    meta: dict[str, Any] = Field(default_factory=dict, description="Source metadata, JSON-able.")
    sg: SceneGraph | None = None
    det: Detections | None = None
    neg: Negatives | None = None
    failure: Failure | None = None
    #: field -> (the annotation read, the member bytes it was read from), for annotations whose
    #: bytes are what sgprep writes for them (its own shards of this schema version, vouched for
    #: by their index): while the field still holds that very object, the writer writes these
    #: bytes again instead of encoding it (``sgprep.io.records``). A field, not a private
    #: attribute: pydantic reads those through ``__getattr__``, 40 times slower.
    read_as: dict[str, tuple[Any, bytes]] | None = Field(default=None, exclude=True, repr=False)

    @property
    def ok(self) -> bool:
        return self.failure is None

    def fail(self, stage: str, reason: str, message: str) -> Sample:
        if self.failure is None:  # the first failure is the one that counts
            self.failure = Failure(stage=stage, reason=reason, message=message)
        return self


class Record(_Model):
    """One line of ``--output FILE.jsonl``: one per input sample, failures included."""

    key: str
    caption: str | None
    source: str
    status: Literal["ok", "failed"]
    stage: str | None = None
    reason: str | None = None
    error: str | None = None
    image: ImageInfo | None = None
    meta: dict[str, Any] = Field(default_factory=dict)
    sg: SceneGraph | None = None
    det: Detections | None = None
    neg: Negatives | None = None


class FileInfo(_Model):
    """A shard file as it was written: its size, and for the index its checksum."""

    size: int = Field(ge=0)
    sha256: str | None = None


class ShardStats(_Model):
    """``NNNNN_stats.json``: written last; its presence marks the shard done."""

    schema_version: int = SCHEMA_VERSION
    shard: str
    samples: int
    ok: int
    failed: int
    failures: dict[str, int] = Field(default_factory=dict, description="'stage/reason' -> count")
    stages: dict[str, dict[str, int]] = Field(
        default_factory=dict,
        description="Per stage, its counters for this shard, e.g. parse: {fallbacks: 3}.",
    )
    files: dict[str, FileInfo] = Field(
        default_factory=dict, description="The shard's data files (tar, index) as written."
    )
    members: dict[str, int] = Field(
        default_factory=dict,
        description="Tar samples carrying each member, by extension "
        "(jpg: 12, png: 3, txt: 15, det.json: 15): what a reader of the shard can ask for.",
    )


#: Every model that has a checked-in JSON Schema, by file stem.
SCHEMA_MODELS: dict[str, type[BaseModel]] = {
    "scene_graph": SceneGraph,
    "detections": Detections,
    "negatives": Negatives,
    "failure": Failure,
    "record": Record,
    "sample": SampleInfo,
    "shard_stats": ShardStats,
}


class Product(NamedTuple):
    """What a stage adds to a sample: its ``Sample`` field, its tar member, its model."""

    field: str
    member: str
    model: type[BaseModel]


#: The products a stage ``provides``, in the order they are written.
PRODUCTS = (
    Product("sg", "sg.json", SceneGraph),
    Product("det", "det.json", Detections),
    Product("neg", "neg.json", Negatives),
)


class OutputDir:
    """Where each file of an sgprep output lies, in one place: ``NNNNN.tar``,
    ``NNNNN.parquet`` (the index), ``NNNNN_stats.json`` (written last: the shard is done),
    and sgprep's records in ``_meta/``. ``root`` is the output folder (for a JSONL output
    being written, its ``FILE.jsonl.parts`` folder)."""

    META = "_meta"
    #: Names in ``_meta``.
    RUN, PLAN, FAILED, TIMING = "run.json", "plan.json", "failed_shards.json", "timing"
    #: ``_meta/.keys.sqlite``: the plan's scan of sample keys (exec/plan.py);
    #: ``_meta/stats.parquet`` and ``_meta/report.html``: what ``sgprep stats`` writes
    KEYS, DATA_STATS, REPORT = ".keys.sqlite", "stats.parquet", "report.html"
    #: ``_meta/mined_images.parquet``: the mine-images step's table (negatives/mine.py)
    MINED = "mined_images.parquet"
    #: ``_meta/lock``: held (flock) by the run writing the output, with its pid and token;
    #: ``_meta/publish.lock``: held by workers while they write a shard (io/writers.py).
    LOCK, PUBLISH_LOCK = "lock", "publish.lock"
    #: A shard's files: its name (``shard_name``) and one of these suffixes.
    SHARD_SUFFIXES = (".tar", ".tar.gz", ".parquet", ".jsonl", "_stats.json")
    SHARD_FILE = re.compile(r"^\d{5,}(\.tar|\.tar\.gz|\.parquet|\.jsonl|_stats\.json)$")
    #: A shard's tar: plain, or gzip with ``compression: gzip``.
    TAR_SUFFIXES = (".tar", ".tar.gz")
    STATS_GLOB = "[0-9]*_stats.json"

    def __init__(self, root: Path | str):
        self.root = Path(root)

    @staticmethod
    def shard_name(index: int) -> str:
        return f"{index:05d}"

    @property
    def meta(self) -> Path:
        return self.root / self.META

    @property
    def run_file(self) -> Path:
        """``_meta/run.json``: the run's settings and fingerprint; what makes it an output."""
        return self.meta / self.RUN

    @property
    def plan_file(self) -> Path:
        return self.meta / self.PLAN

    @property
    def failed_file(self) -> Path:
        """``_meta/failed_shards.json``: the shards that failed every try (exec/ledger.py)."""
        return self.meta / self.FAILED

    @property
    def keys_file(self) -> Path:
        return self.meta / self.KEYS

    @property
    def data_stats_file(self) -> Path:
        """``_meta/stats.parquet``: ``sgprep stats``' per-sample data properties."""
        return self.meta / self.DATA_STATS

    @property
    def report_file(self) -> Path:
        """``_meta/report.html``: ``sgprep stats``' page."""
        return self.meta / self.REPORT

    @property
    def mined_file(self) -> Path:
        """``_meta/mined_images.parquet``: the mine-images step's table."""
        return self.meta / self.MINED

    @property
    def timing_dir(self) -> Path:
        """``_meta/timing/NNNNN.json``: each shard's time per stage (exec/timing.py)."""
        return self.meta / self.TIMING

    def stats_file(self, index: int) -> Path:
        return self.root / f"{self.shard_name(index)}_stats.json"

    def shard_file(self, index: int, suffix: str) -> Path:
        return self.root / f"{self.shard_name(index)}{suffix}"

    @classmethod
    def tar_name(cls, stats: ShardStats) -> str:
        """The file name of a finished shard's tar, as its stats record it."""
        names = [n for n in stats.files if n.endswith(cls.TAR_SUFFIXES) and "/" not in n]
        return names[0] if names else f"{stats.shard}.tar"

    def tar_file(self, shard: str) -> Path:
        """A shard's tar (``shard``: ``00000``, the index's ``shard`` column): ``.tar.gz``
        where the output was written with ``compression: gzip``, else ``.tar``."""
        gz = self.root / f"{shard}.tar.gz"
        return gz if os.path.lexists(gz) else self.root / f"{shard}.tar"

    def stats_files(self) -> list[Path]:
        """The finished shards' stats files, in shard order."""
        return sorted(p for p in self.root.glob(self.STATS_GLOB) if self.SHARD_FILE.match(p.name))

    def is_output(self) -> bool:
        """Whether sgprep wrote this folder (it has ``_meta/run.json``)."""
        return self.run_file.is_file()
