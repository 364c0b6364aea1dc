"""Cola's mined distractor images in sgprep.data: each caption gets images of the other
binding, read by random access from the output, upright and distinct, drawn again each epoch;
and the loud errors when the table or the pipeline option is missing."""

from __future__ import annotations

import io

import pytest

from tests.train_helpers import BLUE_BOX, RED_BOX, to_tensor, write_cola_output

torch = pytest.importorskip("torch")
pytest.importorskip("webdataset")

import sgprep.data as sd  # noqa: E402


@pytest.fixture(scope="module")
def output(tmp_path_factory):
    return write_cola_output(tmp_path_factory.mktemp("cola") / "out", images=6, captions=2)


def _centre(box):
    return int((box[0] + box[2]) / 2), int((box[1] + box[3]) / 2)


def _colours(image):
    """(block colour, ball colour) of a test image, read from its pixels."""
    names = {(230, 10, 10): "red", (10, 10, 230): "blue"}
    return names[image.getpixel(_centre(RED_BOX))], names[image.getpixel(_centre(BLUE_BOX))]


def _samples(output, **kwargs):
    return list(sd.webdataset(output, shuffle=0, spread=0, **kwargs))


def test_each_caption_gets_distinct_images_of_the_other_binding(output):
    samples = _samples(output, distractors=3)
    assert len(samples) == 12
    for s in samples:
        block, ball = _colours(s["image"])
        assert s["caption"].startswith(f"a {block} block left of a {ball} ball")
        found = s["distractors"]
        assert len(found) == 3  # three images of the other binding exist for each image
        assert len({d["key"] for d in found}) == 3
        for d in found:
            assert _colours(d["image"]) == (ball, block)  # the binding swapped, on pixels
            assert d["query"] == f"a {ball} ball and a {block} block"
            assert d["text"] == f"a {block} ball and a {ball} block"
            assert d["key"].endswith("_cap0")  # the sample holding its image
            image = int(d["key"][3])
            assert image % 2 != int(s["key"][3]) % 2


def test_captions_of_one_image_share_its_distractors(output):
    by_image: dict[str, set[str]] = {}
    for s in _samples(output, distractors=3):
        by_image.setdefault(s["key"].split("_")[0], set()).add(
            tuple(sorted(d["key"] for d in s["distractors"]))
        )
    assert all(len(sets) == 1 for sets in by_image.values())


def test_fewer_than_there_are_are_drawn_again_each_epoch(output):
    pipeline = sd.webdataset(output, shuffle=0, spread=0, distractors=1, seed=5)
    epochs = []
    for epoch in range(6):
        pipeline.set_epoch(epoch)
        epochs.append({s["key"]: s["distractors"][0]["key"] for s in pipeline})
    again = sd.webdataset(output, shuffle=0, spread=0, distractors=1, seed=5)
    again.set_epoch(0)
    assert {s["key"]: s["distractors"][0]["key"] for s in again} == epochs[0]  # same seed, epoch
    drawn = {key: {e[key] for e in epochs} for key in epochs[0]}
    assert all(len(keys) >= 2 for keys in drawn.values())  # each caption saw another one


def test_the_batch_stacks_transformed_distractors_with_a_mask(output):
    samples = _samples(output, distractors=2, transform=to_tensor)
    samples[1] = {**samples[1], "distractors": samples[1]["distractors"][:1]}
    batch = sd.Collate(extras=["distractors"])(samples[:3])
    assert batch["distractor_images"].shape == (3, 2, 3, 60, 40)
    assert batch["distractor_mask"].tolist() == [[True, True], [True, False], [True, True]]
    assert torch.equal(batch["distractor_images"][1, 1], torch.zeros(3, 60, 40))
    assert torch.equal(batch["distractor_images"][0, 0], samples[0]["distractors"][0]["image"])
    assert batch["distractor_query"][1][1] == "" and batch["distractor_key"][1][1] == ""


def test_without_decoding_the_distractors_are_the_stored_bytes(output):
    from PIL import Image

    for s in _samples(output, distractors=2, decode=False):
        for d in s["distractors"]:
            assert isinstance(d["image"], bytes)
            assert Image.open(io.BytesIO(d["image"])).format == "PNG"


def test_loud_without_the_table_or_the_pipeline_option(tmp_path, output):
    bare = write_cola_output(tmp_path / "bare", images=2, captions=1, mine=False)
    with pytest.raises(FileNotFoundError, match="mine-images"):
        sd.webdataset(bare, distractors=2)
    with pytest.raises(ValueError, match="distractors=-1: at least 1"):
        sd.webdataset(output, distractors=-1)
    samples = _samples(output)
    with pytest.raises(ValueError, match=r"sd.webdataset\(OUT, distractors=K\)"):
        sd.Collate(extras=["distractors"])(samples[:2])
