"""The ``json`` member of a tar sample: built without the SampleInfo model where the metadata
is plain JSON, with the same bytes as the model gives; anything else goes through the model."""

from __future__ import annotations

import math

import pytest

from sgprep.io.records import dumps_bytes, tar_members
from sgprep.schema import ImageInfo, Sample, SampleInfo

DEEP: list = ["x"]
for _ in range(20):
    DEEP = [DEEP]

METAS = [
    {},
    {"url": "http://x/1.jpg", "width": 640, "score": 0.25, "ok": True, "none": None},
    {"nested": {"a": [1, 2.5, {"b": None}], "é": "ünïcode \u2028"}, "big": 2**70},
    {"tiny": 1e-7, "neg": -0.0, "huge": 1.5e300},
    {"nan": math.nan, "inf": [math.inf]},  # not plain: the model's way
    {"tuple": (1, 2), "bytes": b"ab"},  # not plain: the model's way
    {"deep": DEEP},  # past the depth checked: the model's way
]


def _model_bytes(sample, image_key):
    info = SampleInfo(
        key=sample.key,
        source=sample.source,
        image=sample.image_info,
        meta=sample.meta,
        image_key=image_key,
    )
    return dumps_bytes(info.model_dump(mode="json"))


@pytest.mark.parametrize("meta", METAS)
@pytest.mark.parametrize("image_key", [None, "k0"])
def test_json_member_bytes_are_the_models(meta, image_key):
    image = ImageInfo(width=4, height=3, mode="RGB", format="JPEG")
    for info in (None, image):
        sample = Sample(key="k1", source="s.txt:1", caption="a cat", meta=meta, image_info=info)
        assert tar_members(sample, image_key)["json"] == _model_bytes(sample, image_key)


@pytest.mark.parametrize("meta", METAS)
def test_index_meta_column_is_the_canonical_json(meta):
    from sgprep.io.records import dumps, index_row

    sample = Sample(key="k1", source="s.txt:1", caption="a cat", meta=meta)
    try:
        expected = dumps(meta)
    except TypeError:  # not JSON (bytes): the row is refused all the same
        with pytest.raises(TypeError):
            index_row(sample)
        return
    assert index_row(sample)["meta"] == expected


@pytest.mark.parametrize("key", ["k1", "1e-05", "0.00001 é\u2028"])  # text like tiny floats
def test_json_member_without_metadata_is_the_models(key):
    """No metadata: no float to look for, orjson's bytes as they are."""
    sample = Sample(key=key, source="0.00001.txt:1", caption="a cat")
    assert tar_members(sample)["json"] == _model_bytes(sample, None)
