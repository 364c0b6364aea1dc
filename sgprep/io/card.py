"""What makes a finished output self-describing for trainers: ``sizes.json`` and ``README.md``.

- ``sizes.json``: ``{"00000.tar": samples, ...}``, the convention of open_clip and
  img2dataset (open_clip's ``get_wds_dataset`` counts the samples from it): the samples such a
  loader yields (:func:`sizes`);
- ``README.md``: a Hugging Face dataset card whose YAML header names the data files
  (``configs``: the tars; one builder serves a whole card, so the index parquets are read with
  ``load_dataset("parquet", data_files="OUTPUT/*.parquet")``) and types every column (``dataset_info.features``), so ``datasets.load_dataset(OUTPUT)`` guesses nothing.

The features are generated from the same pydantic models as ``schemas/`` (once per schema
version, into ``card_features.json``, which a test checks against the models), so they cannot
drift from what the writer writes. Both files are recorded in ``_meta/dataset.json`` (size and SHA-256),
the record ``--overwrite`` goes by: a README.md that sgprep did not write is never replaced.
"""

from __future__ import annotations

import json
import logging
import os
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from sgprep.io.records import digest
from sgprep.schema import PRODUCTS, SCHEMA_VERSION, OutputDir, SampleInfo, ShardStats

log = logging.getLogger(__name__)

SIZES, CARD, RECORD = "sizes.json", "README.md", "dataset.json"
#: The index of an output: one parquet per shard at the top level (the flat negatives live in
#: ``negatives/``, the stats in ``_meta/``, so this glob matches the index and nothing else).
INDEX_GLOB = "*.parquet"
TAR_GLOB = "*.tar"
#: ... of an output written with ``compression: gzip``
TAR_GZ_GLOB = "*.tar.gz"
#: libyaml's emitter where PyYAML has it (the same text as ``safe_dump``'s, a test checks; 1
#: ms instead of 20 for a card)
DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
#: tar member -> the model that it holds
ANNOTATION_MODELS = {"json": SampleInfo, **{p.member: p.model for p in PRODUCTS}}


def sizes(stats: list[ShardStats], shared_images: bool = False) -> dict[str, int]:
    """``sizes.json``: per tar, the samples an image-text WebDataset loader (open_clip,
    img2dataset's readers) yields: every ok sample; with ``shared_images``, those that carry
    an image member (such loaders drop the captions that point at another sample's image,
    and an epoch counted from all of them would wrap around, repeating captions)."""
    return {
        OutputDir.tar_name(s): _with_image(s) if shared_images else s.ok
        for s in sorted(stats, key=lambda s: s.shard)
    }


def _with_image(stats: ShardStats) -> int:
    """The shard's samples with an image member (a sample has at most one); all ok samples
    of a shard without images (a captions-only output shares nothing)."""
    from sgprep.io.images import IMAGE_EXTENSIONS

    images = sum(n for ext, n in stats.members.items() if ext in IMAGE_EXTENSIONS)
    return images if images else stats.ok


def feature(schema: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """A JSON Schema (as pydantic writes it) as a Hugging Face feature, in the YAML form of a
    dataset card: ``{"dtype": "string"}``, ``{"struct": [...]}``, ``{"list": ...}``.
    A free-form mapping (source metadata) is ``json``."""
    if "$ref" in schema:
        return feature(defs[schema["$ref"].rsplit("/", 1)[-1]], defs)
    options = [s for s in schema.get("anyOf", []) if s.get("type") != "null"]
    if "anyOf" in schema:
        return feature(options[0], defs) if len(options) == 1 else {"dtype": "json"}
    kind = schema.get("type")
    if kind == "object" and "properties" in schema:
        return {
            "struct": [
                {"name": name, **feature(sub, defs)} for name, sub in schema["properties"].items()
            ]
        }
    if kind == "array":
        items = schema.get("items") or (schema.get("prefixItems") or [{}])[0]
        inner = feature(items, defs)
        return {"list": inner["dtype"] if "dtype" in inner else inner.get("struct", inner)}
    scalar = {"string": "string", "integer": "int64", "number": "float64", "boolean": "bool"}
    return {"dtype": scalar[kind]} if kind in scalar else {"dtype": "json"}


#: The annotation members' features, made from the models once per schema version
#: (``python -m sgprep.io.card`` writes them; a test checks them against the models): a
#: model's JSON Schema costs 20-80 ms to make, a fixed cost of every run that writes a card.
FEATURES_FILE = Path(__file__).with_name("card_features.json")


@cache
def annotation_features() -> dict[str, dict[str, Any]]:
    """Member -> feature of every annotation member: from ``FEATURES_FILE`` where it was made
    for this schema version and these members, else from the models now."""
    try:
        made = json.loads(FEATURES_FILE.read_bytes())
        if made["schema_version"] == SCHEMA_VERSION and set(made["features"]) == set(
            ANNOTATION_MODELS
        ):
            return made["features"]
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return model_features()


def model_features() -> dict[str, dict[str, Any]]:
    """Member -> feature, from each model's JSON Schema."""
    out = {}
    for ext, model in ANNOTATION_MODELS.items():
        schema = model.model_json_schema()
        out[ext] = feature(schema, schema.get("$defs", {}))
    return out


def member_feature(ext: str) -> dict[str, Any]:
    from sgprep.io.images import IMAGE_EXTENSIONS

    if ext in ANNOTATION_MODELS:
        return annotation_features()[ext]
    if ext in IMAGE_EXTENSIONS:
        return {"dtype": "image"}
    return {"dtype": "string"}  # txt


def features(members: set[str]) -> list[dict[str, Any]]:
    """The tar config's columns: every member extension the output holds (an image column per
    image format, each null where a sample's image has another), then the two the WebDataset
    builder adds."""
    out = [{"name": ext, **member_feature(ext)} for ext in sorted(members)]
    return out + [{"name": "__key__", "dtype": "string"}, {"name": "__url__", "dtype": "string"}]


def card(stats: list[ShardStats], version: str, shared_images: bool = False) -> str:
    members: set[str] = set()
    for s in stats:
        members.update(s.members)
    suffix = ".tar.gz" if any(OutputDir.tar_name(s).endswith(".gz") for s in stats) else ".tar"
    header = {
        "configs": [
            {
                "config_name": "default",
                "default": True,
                "data_files": [
                    {"split": "train", "path": TAR_GZ_GLOB if suffix == ".tar.gz" else TAR_GLOB}
                ],
            },
        ],
        "dataset_info": [{"config_name": "default", "features": features(members)}],
        "tags": ["webdataset", "scene-graph", "sgprep"],
    }
    ok = sum(s.ok for s in stats)
    total = sum(s.samples for s in stats)
    shards = sorted(s.shard for s in stats)
    urls = (
        f"{{{shards[0]}..{shards[-1]}}}{suffix}"
        if len(shards) > 1
        else f"{shards[0]}{suffix}"
        if shards
        else "(no shard)"
    )
    images = sorted(m for m in members if member_feature(m) == {"dtype": "image"})
    body = f"""# sgprep output

WebDataset shards written by sgprep {version}: {ok:,} samples in the tars of {len(shards)} shard(s),
{total:,} input samples in the index (failures included). Format: docs/output-format.md of sgprep.

- tars: `{urls}` ({", ".join(sorted(members)) or "no member"}); image members: {", ".join(images) or "none"};
- sample counts per tar: `sizes.json`;
- index, one row per input sample (`shard`, `offset`, `size` locate a sample in its tar): `{INDEX_GLOB}`;
- schemas of the JSON members: `schemas/` of sgprep, the features above.

```python
import datasets, sgprep.data
ds = datasets.load_dataset("OUTPUT", split="train")             # the tars, typed columns
index = datasets.load_dataset("parquet", data_files="OUTPUT/{INDEX_GLOB}")  # the index
pipeline = sgprep.data.webdataset("OUTPUT")                     # for a torch DataLoader
```

{_consumers(stats, urls) if shared_images else _open_clip(urls)}"""
    front = yaml.dump(header, Dumper=DUMPER, sort_keys=False, allow_unicode=True, width=100)
    return f"---\n{front}---\n\n{body}"


def _open_clip(urls: str) -> str:
    return (
        f"open_clip: `--train-data 'OUTPUT/{urls}' --dataset-type webdataset` "
        "(sizes.json gives the count).\n"
    )


def _consumers(stats: list[ShardStats], urls: str) -> str:
    """What each reader sees of a ``shared_images`` output, whose captions after an image's
    first point at it (``json.image_key``) instead of holding it."""
    ok = sum(s.ok for s in stats)
    seen = sum(_with_image(s) for s in stats)
    return f"""Written with `--shared-images`: {seen:,} of the {ok:,} samples hold their image; the other
{ok - seen:,} name the sample that does (`json.image_key`). What each reader sees:

- `sgprep.data.webdataset`: all {ok:,} samples, each caption with its image (joined back);
  train with it;
- open_clip and other image-text WebDataset loaders: only the {seen:,} samples with an image,
  one caption per image (`sizes.json` counts these, so an epoch does not wrap around); to train
  open_clip on every caption, write the output without `--shared-images`;
- `datasets.load_dataset`: {ok:,} rows, {ok - seen:,} of them with no image (null).
"""


def recorded(root: Path) -> dict[str, dict[str, Any]]:
    """The files of this module sgprep wrote in ``root``: name -> {size, sha256} (only the
    names this module writes, whatever the record says)."""
    from sgprep.io.safefs import read_bytes

    try:
        files = json.loads(read_bytes(OutputDir(root).meta / RECORD)).get("files", {})
    except (OSError, ValueError, AttributeError):
        return {}
    return {
        name: entry
        for name, entry in files.items()
        if name in (SIZES, CARD) and isinstance(entry, dict)
    }


def is_ours(root: Path, name: str) -> bool:
    """``root/name`` is a regular file that sgprep wrote (and nobody changed since)."""
    from sgprep.io.safefs import read_bytes

    entry = recorded(root).get(name)
    if entry is None:
        return False
    try:
        data = read_bytes(root / name)  # never through a link
    except OSError:
        return False
    return entry.get("size") == len(data) and entry.get("sha256") == digest(data)


def write_dataset_files(
    root: Path, stats: list[ShardStats], version: str, shared_images: bool = False
) -> dict[str, bytes]:
    """Write ``sizes.json`` and ``README.md`` atomically, record them, return what was written.
    A README.md that sgprep did not write is left alone, with a warning."""
    from sgprep.io.safefs import atomic_write

    counts = sizes(stats, shared_images)
    files = {
        SIZES: (json.dumps(counts, indent=1, sort_keys=True) + "\n").encode(),
        CARD: card(stats, version, shared_images).encode(),
    }
    written: dict[str, bytes] = {}
    record = {}
    for name, data in files.items():
        path = root / name
        if os.path.lexists(path) and not is_ours(root, name):
            log.warning(
                "%s exists and sgprep did not write it: left alone, so this output has "
                "no %s (move it away and rerun the same command to get one)",
                path,
                name,
            )
            continue
        atomic_write(path, data)
        written[name] = data
        record[name] = {"size": len(data), "sha256": digest(data)}
    atomic_write(
        OutputDir(root).meta / RECORD,
        (json.dumps({"files": record}, indent=2, sort_keys=True) + "\n").encode(),
    )
    return written


if __name__ == "__main__":  # python -m sgprep.io.card: make FEATURES_FILE anew
    made = {"schema_version": SCHEMA_VERSION, "features": model_features()}
    FEATURES_FILE.write_text(json.dumps(made, indent=1) + "\n")  # keys in their order
