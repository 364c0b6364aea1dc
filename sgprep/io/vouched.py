"""Members that sgprep's own index vouches for: read without parsing their headers.

A shard that sgprep wrote, of this schema version (its stats file vouches for the tar's size
and the index's SHA-256), records in its index the size and checksum of every member
(``members``: ``{ext: {"xxh3_64": hex, "size": n}}``). A member whose bytes still have that
checksum is the very member sgprep validated and encoded when it wrote it, so:

- its tar headers are compared, whole, with the headers sgprep writes for those names and
  sizes, instead of being parsed field by field (:func:`sample_members`);
- a sample of the kind sgprep's text stages write (``json``, ``txt``, annotations, no image)
  is built at once, without pydantic's per-field assignments (:func:`sample`). Its
  annotations are still validated: a scene graph built in Python without validation
  (``object.__new__``, its fields set directly) measured no faster than pydantic-core's
  validation of the JSON, and pydantic-core reuses each nested model's own validator, so a
  validator-free schema would skip only the outer model's.

Anything else (a foreign shard, an older schema, a member whose bytes or header differ from
what the index records, an invalid annotation) is not vouched for: these answer None and the
caller reads it the full way, so a bad member becomes the failure it always was.
"""

from __future__ import annotations

import re
from typing import Any

import orjson

from sgprep.io.records import MEMBER_HASH, _member_hexdigest
from sgprep.io.tar import BLOCK, FIXED_MTIME, _header, fixed_fields, member_suffix
from sgprep.schema import PRODUCTS, Sample

_FIXED = fixed_fields(FIXED_MTIME)
#: 19 digits in a row: an integer orjson may read unlike json (``readers.json_loads``).
_LONG_NUMBER = re.compile(rb"\d{19}")


def sample_members(block: bytes, key: str, recorded: str | None) -> dict[str, bytes] | None:
    """ext -> bytes of one sample's members when ``block`` (its bytes in the tar, headers
    included) holds exactly the members the index row records, in the order sgprep writes
    them (by name), each with the header sgprep writes for it and the recorded size and
    checksum; else None."""
    if recorded is None or "." in key or "/" in key or "\\" in key:
        return None  # a name the header reader splits otherwise
    try:
        entries = orjson.loads(recorded)
        stem = f"{key}.".encode("ascii")
    except (orjson.JSONDecodeError, UnicodeEncodeError):
        return None
    if type(entries) is not dict or not entries:
        return None
    stem_sum, fixed = sum(stem), _FIXED
    members: dict[str, bytes] = {}
    at = 0
    try:
        for ext, entry in entries.items():
            size, checksum = entry["size"], entry[MEMBER_HASH]
            if type(size) is not int or size < 0 or ext != ext.lower():
                return None
            suffix, suffix_sum = member_suffix(ext)
            header = b"".join(_header(stem + suffix, stem_sum + suffix_sum, size, fixed))
            if not block.startswith(header, at):
                return None
            data = block[at + BLOCK : at + BLOCK + size]
            if len(data) != size or _member_hexdigest(data) != checksum:
                return None
            members[ext] = data
            at += BLOCK + -(-size // BLOCK) * BLOCK
    except (KeyError, TypeError, AttributeError, UnicodeEncodeError, ValueError):
        return None  # another checksum algorithm, an odd row: not vouched for
    return members if at == len(block) else None


_new = object.__new__
_set = object.__setattr__


def _instance(cls: type, data: dict[str, Any], given: set[str]) -> Any:
    """An instance of the pydantic model ``cls`` whose fields are ``data`` (every field, in
    field order), ``given`` the fields set, as validation would leave it."""
    obj = _new(cls)
    _set(obj, "__dict__", data)
    _set(obj, "__pydantic_fields_set__", given)
    _set(obj, "__pydantic_extra__", None)
    _set(obj, "__pydantic_private__", None)
    return obj


_PRODUCTS = tuple((p.member, p.field, p.model) for p in PRODUCTS)
#: The members of the samples :func:`sample` builds: metadata, caption, annotations.
_PLAIN = frozenset({"json", "txt", *(p.member for p in PRODUCTS)})
#: The keys of the ``json`` member sgprep writes (``SampleInfo``).
_INFO = frozenset({"image", "image_key", "key", "meta", "source"})
_SAMPLE = tuple(Sample.model_fields)


def keyed(key: str, source: str) -> Sample:
    """A sample of its key and source only, as ``Sample(key=key, source=source)`` makes it
    (both strings: the index's key), without pydantic: planning makes one per sample."""
    if type(key) is not str:
        return Sample(key=key, source=source)  # what validation makes of it, or refuses
    data = dict.fromkeys(_SAMPLE)
    data.update(key=key, source=source, meta={})
    return _instance(Sample, data, {"key", "source"})


def sample(key: str, source: str, members: dict[str, bytes]) -> Sample | None:
    """The sample of vouched-for ``members`` (:func:`sample_members`) as the tar reader's
    ``_assemble`` makes it (its ``canonical`` annotations' bytes kept in ``read_as``), built
    at once without pydantic, for the samples sgprep's text stages write: the ``json``
    member sgprep writes, its caption in ``txt``, annotations; no image. None for any other
    (an image member, a pointer to a shared image, what does not decode): ``_assemble``
    reads those."""
    if not members.keys() <= _PLAIN or "json" not in members:
        return None
    try:
        info = orjson.loads(members["json"])
        caption = members["txt"].decode("utf-8") if "txt" in members else None
    except (orjson.JSONDecodeError, UnicodeDecodeError):
        return None
    if type(info) is not dict or info.keys() != _INFO or info["image_key"] is not None:
        return None
    if caption is not None and caption.startswith("\ufeff"):
        return None  # a byte-order mark, which the reader takes off
    meta = info["meta"]
    if type(meta) is not dict or _LONG_NUMBER.search(members["json"]) is not None:
        return None  # metadata that json reads otherwise than orjson: _assemble reads it
    if caption is None and isinstance(meta.get("caption"), str):
        caption = meta["caption"]
    data = dict.fromkeys(_SAMPLE)
    data.update(key=key, source=source, caption=caption, meta=meta)
    given = {"key", "source", "meta"}
    if caption is not None:
        given.add("caption")
    read_as = {}
    for member, field, model in _PRODUCTS:
        raw = members.get(member)
        if raw is None:
            continue
        try:  # validated: building it in Python measured no faster than pydantic-core
            value = model.model_validate_json(raw)
        except ValueError:  # invalid: _assemble words the failure
            return None
        data[field] = value
        read_as[field] = (value, raw)
        given.add(field)
    if read_as:
        data["read_as"] = read_as
        given.add("read_as")
    return _instance(Sample, data, given)
