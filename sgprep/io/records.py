"""How a sample is written: tar members, an index row, a JSONL record, shard stats.

One place decides the encoding, so every writer and ``sgprep validate`` agree on it.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from sgprep.schema import Record, Sample, SampleInfo

ANNOTATION_MEMBERS = {"sg": "sg.json", "det": "det.json", "neg": "neg.json"}

INDEX_COLUMNS = ["key", "caption", "source", "status", "stage", "reason", "error",
                 "image_width", "image_height", "image_mode", "meta", "sg", "det", "neg",
                 "members", "shard", "offset", "size"]


def dumps(obj: Any) -> str:
    """Canonical JSON: sorted keys, no spaces, UTF-8 kept as is."""
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


#: A failed sample's caption is stored up to this many characters (a 200 MB "caption" must not
#: be copied whole into the index); ok captions are already bounded by --max-caption-chars.
STORED_FAILED_CAPTION = 1000


def stored_caption(sample: Sample) -> str | None:
    caption = sample.caption
    if sample.failure is None or caption is None or len(caption) <= STORED_FAILED_CAPTION:
        return caption
    return (caption[:STORED_FAILED_CAPTION]
            + f" [... truncated by sgprep: {len(caption):,} characters in all]")


def to_record(sample: Sample) -> Record:
    failure = sample.failure
    return Record(
        key=sample.key, caption=stored_caption(sample), source=sample.source,
        status="ok" if failure is None else "failed",
        stage=failure and failure.stage, reason=failure and failure.reason,
        error=failure and failure.message, image=sample.image_info, meta=sample.meta,
        sg=sample.sg, det=sample.det, neg=sample.neg,
    )


def _annotation_json(sample: Sample, field: str) -> str | None:
    value = getattr(sample, field)
    return None if value is None else dumps(value.model_dump(mode="json"))


def tar_members(sample: Sample) -> dict[str, bytes | str]:
    """The WebDataset sample dict of an ok sample: image bytes unchanged, text as UTF-8."""
    members: dict[str, bytes | str] = {"__key__": sample.key}
    if sample.image is not None:
        members[sample.image_ext or "jpg"] = sample.image
    if sample.caption is not None:
        members["txt"] = sample.caption.encode("utf-8")
    info = SampleInfo(key=sample.key, source=sample.source, image=sample.image_info,
                      meta=sample.meta)
    members["json"] = dumps(info.model_dump(mode="json")).encode("utf-8")
    for field, ext in ANNOTATION_MEMBERS.items():
        text = _annotation_json(sample, field)
        if text is not None:
            members[ext] = text.encode("utf-8")
    return members


def _member_hash():
    """xxh3-64 (~2 us for a 22 KB image) when xxhash is installed, else SHA-256 (~23 us: 12 %
    of the shard writer's time per sample). The name is stored with each checksum."""
    try:
        import xxhash
    except ImportError:
        return "sha256", lambda data: hashlib.sha256(data).hexdigest()
    return "xxh3_64", xxhash.xxh3_64_hexdigest


#: The checksum of every tar member, recorded in the index column ``members``.
MEMBER_HASH, _member_hexdigest = _member_hash()


def digest(data: bytes) -> str:
    """SHA-256 of a whole file (the index: small, so the strong hash costs nothing)."""
    return hashlib.sha256(data).hexdigest()


def member_digest(name: str, data: bytes) -> str | None:
    """A member's checksum by the algorithm ``name`` (None when it is not available here)."""
    if name == MEMBER_HASH:
        return _member_hexdigest(data)
    if name == "sha256":
        return digest(data)
    try:
        import xxhash

        return getattr(xxhash, f"{name}_hexdigest")(data)
    except (ImportError, AttributeError):
        return None


def member_checksums(members: dict[str, bytes | str]) -> str:
    """The index's ``members`` column: ``{ext: {"size": n, HASH: hex}}`` of the exact bytes
    written to the tar, so ``sgprep validate`` finds a flipped byte and names the member.
    Canonical JSON (as :func:`dumps`), built directly: json.dumps cost 18 us a sample."""
    parts = [f'"{ext}":{{"{MEMBER_HASH}":"{_member_hexdigest(members[ext])}",'
             f'"size":{len(members[ext])}}}'
             for ext in sorted(members) if ext != "__key__"]
    return "{" + ",".join(parts) + "}"


def index_row(sample: Sample, members: str | None = None, shard: str | None = None,
              offset: int | None = None, size: int | None = None) -> dict[str, Any]:
    """One index row. ``shard``, ``offset`` and ``size`` place an ok sample in its tar: its
    members are the ``size`` bytes from byte ``offset`` of ``SHARD.tar`` (headers included),
    so a reader can seek to one sample."""
    failure, info = sample.failure, sample.image_info
    return {
        "key": sample.key, "caption": stored_caption(sample), "source": sample.source,
        "status": "ok" if failure is None else "failed",
        "stage": failure and failure.stage, "reason": failure and failure.reason,
        "error": failure and failure.message,
        "image_width": info and info.width, "image_height": info and info.height,
        "image_mode": info and info.mode, "meta": dumps(sample.meta),
        "sg": _annotation_json(sample, "sg"), "det": _annotation_json(sample, "det"),
        "neg": _annotation_json(sample, "neg"), "members": members,
        "shard": shard, "offset": offset, "size": size,
    }


def failure_key(sample: Sample) -> str | None:
    """'stage/reason' of a failed sample, the key failures are counted under."""
    failure = sample.failure
    return None if failure is None else f"{failure.stage}/{failure.reason}"
