"""How a sample is written: tar members, an index row, a JSONL record, shard stats.

One place decides the encoding, so every writer and ``sgprep validate`` agree on it.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from types import UnionType
from typing import Any, Literal, Union, get_args, get_origin

import orjson
from pydantic import BaseModel

from sgprep.schema import PRODUCTS, Record, Sample, SampleInfo

ANNOTATION_MEMBERS = {p.field: p.member for p in PRODUCTS}

INDEX_COLUMNS = [
    "key",
    "caption",
    "source",
    "status",
    "stage",
    "reason",
    "error",
    "image_width",
    "image_height",
    "image_mode",
    "meta",
    "sg",
    "det",
    "neg",
    "members",
    "shard",
    "offset",
    "size",
    "image_key",
]


def dumps(obj: Any) -> str:
    """Canonical JSON: sorted keys, no spaces, UTF-8 kept as is."""
    return dumps_bytes(obj).decode("utf-8")


def dumps_bytes(obj: Any) -> bytes:
    """:func:`dumps` as UTF-8 bytes. orjson writes the same bytes as ``json.dumps(obj,
    sort_keys=True, ensure_ascii=False, separators=(",", ":"))`` 5-10x faster, except where
    the two differ, which send the object to ``json`` instead: floats from 1e-10 to 1e-4
    (orjson: ``0.00001``, ``9.7e-8``; json: ``1e-05``, ``9.7e-08``; found by
    :data:`_TINY_FLOAT`), NaN and infinities (orjson: ``null``; looked for only when a ``null``
    is there), and what orjson refuses (keys that are not strings, integers beyond 64 bits,
    lone surrogates)."""
    try:
        out = orjson.dumps(obj, option=orjson.OPT_SORT_KEYS)
    except TypeError:
        return _json_dumps(obj)
    if _tiny_float(out) or (b"null" in out and _has_nonfinite(obj)):
        return _json_dumps(obj)
    return out


def _finite_dumps(obj: Any, floats: bool = True) -> bytes:
    """:func:`dumps_bytes` of an object known to hold no NaN or infinity (:func:`_plain`
    said so): the walk that looks for them is skipped (every ``json`` member holds a
    ``null``, which sent it there); with ``floats=False`` (it holds no float at all) the
    search for tiny floats too."""
    try:
        out = orjson.dumps(obj, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # what orjson refuses (an integer beyond 64 bits, a lone surrogate)
        return _json_dumps(obj)
    return _json_dumps(obj) if floats and _tiny_float(out) else out


#: orjson's forms of the floats it writes unlike json (a string holding them costs a detour
#: through json, never a wrong byte).
_TINY_FLOAT = re.compile(rb"0\.0000|\de-\d(?!\d)")


def _tiny_float(out: bytes) -> bool:
    """Whether :data:`_TINY_FLOAT` is in ``out``. The regex alone costs about 10 us on a 400-byte
    graph (it tries its alternation at every byte); both its branches hold a fixed string that
    ``in`` finds at memchr speed first, so most outputs are cleared without it."""
    return (b"e-" in out or b"0.0000" in out) and _TINY_FLOAT.search(out) is not None


def _json_dumps(obj: Any) -> bytes:
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode(
        "utf-8"
    )


def _has_nonfinite(obj: Any) -> bool:
    if isinstance(obj, str):  # the common case first
        return False
    if isinstance(obj, float):
        return not math.isfinite(obj)
    if isinstance(obj, dict):
        obj = obj.values()
    elif not isinstance(obj, (list, tuple)):
        return False
    return any(map(_has_nonfinite, obj))


#: A failed sample's caption is stored up to this many characters (a 200 MB "caption" must not
#: be copied whole into the index); ok captions are already bounded by --max-caption-chars.
STORED_FAILED_CAPTION = 1000


def stored_caption(sample: Sample) -> str | None:
    caption = sample.caption
    if sample.failure is None or caption is None or len(caption) <= STORED_FAILED_CAPTION:
        return caption
    return (
        caption[:STORED_FAILED_CAPTION]
        + f" [... truncated by sgprep: {len(caption):,} characters in all]"
    )


def to_record(sample: Sample) -> Record:
    failure = sample.failure
    return Record(
        key=sample.key,
        caption=stored_caption(sample),
        source=sample.source,
        status="ok" if failure is None else "failed",
        stage=failure and failure.stage,
        reason=failure and failure.reason,
        error=failure and failure.message,
        image=sample.image_info,
        meta=sample.meta,
        sg=sample.sg,
        det=sample.det,
        neg=sample.neg,
    )


def _annotation_json(sample: Sample, field: str) -> bytes | None:
    """A pydantic model's JSON mode has no NaN (written as null), so orjson is exact here
    but for tiny floats (see :func:`dumps_bytes`). An annotation read from sgprep's own
    shards of this schema version, and not replaced since, is written as the bytes it was
    read from: they are what this encoding gives for it (``Sample.read_as``)."""
    value = getattr(sample, field)
    if value is None:
        return None
    read = sample.read_as
    if read is not None and field in read and read[field][0] is value:
        return read[field][1]
    out = None
    if type(value) in _NATIVE_MODELS:
        try:  # the models' own fields, read where they lie: no copy of the annotation
            out = orjson.dumps(value, default=_fields_of, option=orjson.OPT_SORT_KEYS)
        except TypeError:  # a value orjson refuses (an integer beyond 64 bits)
            out = None
    if out is None:
        out = orjson.dumps(value.model_dump(mode="json"), option=orjson.OPT_SORT_KEYS)
    if field not in FLOAT_FREE and _tiny_float(out):
        return _json_dumps(value.model_dump(mode="json"))
    return out


def _fields_of(obj: Any) -> dict[str, Any]:
    """orjson's ``default``: a model of :data:`_NATIVE_MODELS` as its fields (``__dict__``),
    which its JSON mode dumps unchanged."""
    if type(obj) in _NATIVE_MODELS:
        return obj.__dict__
    raise TypeError(f"{type(obj).__name__} is not JSON-native")


def _native(annotation: Any) -> bool:
    """Whether ``model_dump(mode="json")`` gives back a value of this type unchanged, but for
    tuples as lists and NaN as null (which orjson writes alike): strings, numbers, booleans,
    None, literals, lists, tuples and unions of them, and models whose fields are all such,
    with no extra fields, aliases, exclusions, computed fields or serializers."""
    if annotation in (str, int, float, bool, type(None)):
        return True
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        decorators = annotation.__pydantic_decorators__
        return (
            annotation.model_config.get("extra") == "forbid"
            and not annotation.model_computed_fields
            and not decorators.field_serializers
            and not decorators.model_serializers
            and all(
                f.alias is None and f.serialization_alias is None and not f.exclude
                for f in annotation.model_fields.values()
            )
            and all(_native(f.annotation) for f in annotation.model_fields.values())
        )
    args, origin = get_args(annotation), get_origin(annotation)
    if origin is Literal:
        return all(type(a) in (str, int, bool) for a in args)
    if origin in (list, tuple, Union, UnionType):
        return all(a is Ellipsis or _native(a) for a in args)
    return False  # Any, dicts, bytes, dates...


def _native_models(model: type[BaseModel], found: set[type]) -> set[type]:
    """``model`` and the models inside its fields, when :func:`_native` says so."""
    if not _native(model):
        return found
    found.add(model)
    stack = [f.annotation for f in model.model_fields.values()]
    while stack:
        annotation = stack.pop()
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            if annotation not in found:
                found.add(annotation)
                stack.extend(f.annotation for f in annotation.model_fields.values())
        else:
            stack.extend(a for a in get_args(annotation) if a is not Ellipsis)
    return found


#: The annotation models (and the models inside them) whose fields orjson writes as they lie
#: (``_annotation_json``): exactly the bytes of their JSON mode, without the copy it makes.
_NATIVE_MODELS = frozenset().union(*(_native_models(p.model, set()) for p in PRODUCTS))


def _float_free(annotation: Any) -> bool:
    """Whether a value of this type can hold no float anywhere: strings, integers, booleans,
    None, literals of those, and lists, tuples, unions and models made of them only (a
    pydantic model's int field holds an int, even if it was given 2.0)."""
    if annotation in (str, int, bool, type(None)):
        return True
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return all(_float_free(f.annotation) for f in annotation.model_fields.values())
    args = get_args(annotation)
    origin = get_origin(annotation)
    if origin is Literal:
        return not any(isinstance(a, float) for a in args)
    if origin in (list, tuple, Union, UnionType):
        return all(a is Ellipsis or _float_free(a) for a in args)
    return False  # a float, Any, a dict of anything...


#: Products whose JSON holds no float (the scene graph): their encoding skips the search for
#: the tiny floats orjson writes unlike json.
FLOAT_FREE = frozenset(p.field for p in PRODUCTS if _float_free(p.model))


def tar_members(sample: Sample, image_key: str | None = None) -> dict[str, bytes | str]:
    """The WebDataset sample dict of an ok sample: image bytes unchanged, text as UTF-8.
    ``image_key``: the sample whose image member this one shares (``shared_images``): no image
    member here."""
    members: dict[str, bytes | str] = {"__key__": sample.key}
    if sample.image is not None and image_key is None:
        members[sample.image_ext or "jpg"] = sample.image
    if sample.caption is not None:
        members["txt"] = sample.caption.encode("utf-8")
    members["json"] = _info_json(sample, image_key)
    for field, ext in ANNOTATION_MEMBERS.items():
        data = _annotation_json(sample, field)
        if data is not None:
            members[ext] = data
    return members


def _info_json(sample: Sample, image_key: str | None) -> bytes:
    """The ``json`` member (:class:`SampleInfo`). Metadata of plain JSON values (what every
    reader gives) is what ``model_dump(mode="json")`` gives back, so the dict is built here,
    without the model (a third of the cost); anything else goes through the model."""
    meta, image = sample.meta, sample.image_info
    if type(sample.key) is str and type(sample.source) is str and _plain(meta):
        info = {
            "image": None if image is None else image.model_dump(mode="json"),
            "image_key": image_key,
            "key": sample.key,
            "meta": meta,
            "source": sample.source,
        }
        # without metadata no float at all (an image's info is integers and strings)
        return _finite_dumps(info, floats=bool(meta))
    info = SampleInfo(
        key=sample.key, source=sample.source, image=image, meta=meta, image_key=image_key
    )
    return dumps_bytes(info.model_dump(mode="json"))


_SCALARS = frozenset({str, int, bool, type(None)})


def _plain(value: Any, depth: int = 0) -> bool:
    """Whether ``value`` is made of dicts with string keys, lists, strings, integers, booleans,
    None and finite floats only (exact types; a few levels deep)."""
    kind = type(value)
    if kind in _SCALARS:
        return True
    if kind is float:
        return math.isfinite(value)
    if depth > 16:
        return False
    if kind is dict:
        if not value:  # most captions' metadata: no generator to start
            return True
        return all(type(k) is str for k in value) and all(
            _plain(v, depth + 1) for v in value.values()
        )
    if kind is list:
        return all(_plain(v, depth + 1) for v in value)
    return False


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
    parts = [
        f'"{ext}":{{"{MEMBER_HASH}":"{_member_hexdigest(members[ext])}",'
        f'"size":{len(members[ext])}}}'
        for ext in sorted(members)
        if ext != "__key__"
    ]
    return "{" + ",".join(parts) + "}"


def index_row(*args: Any, **kwargs: Any) -> dict[str, Any]:
    """:func:`index_values` by column name."""
    return dict(zip(INDEX_COLUMNS, index_values(*args, **kwargs)))


def index_values(
    sample: Sample,
    members: str | None = None,
    shard: str | None = None,
    offset: int | None = None,
    size: int | None = None,
    written: dict[str, bytes | str] | None = None,
    image_key: str | None = None,
) -> tuple[Any, ...]:
    """One index row, its values in the order of :data:`INDEX_COLUMNS` (the writer turns a
    shard's rows into columns at once; a dict a row cost more to make and to take apart).
    ``shard``, ``offset`` and ``size`` place an ok sample in its tar: its
    members are the ``size`` bytes from byte ``offset`` of ``SHARD.tar`` (headers included;
    in a ``SHARD.tar.gz``, a deflate block of its own: ``sgprep.io.tar.read_block``), so a
    reader can seek to one sample. ``written``: the sample's tar members, whose annotation
    bytes are reused as they are. ``image_key``: the sample whose image it shares."""
    failure, info = sample.failure, sample.image_info
    annotations = []
    for field, ext in ANNOTATION_MEMBERS.items():
        data = written.get(ext) if written is not None else _annotation_json(sample, field)
        annotations.append(None if data is None else data.decode("utf-8"))
    return (
        sample.key,
        stored_caption(sample),
        sample.source,
        "ok" if failure is None else "failed",
        failure and failure.stage,
        failure and failure.reason,
        failure and failure.message,
        info and info.width,
        info and info.height,
        info and info.mode,
        _meta_json(sample.meta),
        *annotations,
        members,
        shard,
        offset,
        size,
        image_key,
    )


def _meta_json(meta: Any) -> str:
    """The index's ``meta``: :func:`dumps`, with no walk for NaN where :func:`_plain` clears
    the metadata (most often ``{}``)."""
    if type(meta) is dict and not meta:
        return "{}"
    return (_finite_dumps(meta) if _plain(meta) else dumps_bytes(meta)).decode("utf-8")


def failure_key(sample: Sample) -> str | None:
    """'stage/reason' of a failed sample, the key failures are counted under."""
    failure = sample.failure
    return None if failure is None else f"{failure.stage}/{failure.reason}"
