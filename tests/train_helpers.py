"""A small sgprep output that has what trips trainers up: ragged boxes, no boxes (detect not
run on a sample), samples without negatives, a photo stored sideways with an EXIF orientation
tag, and jpg, png, gif and bmp images. Written by the real ShardWriter."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from sgprep.io.images import inspect_image
from sgprep.io.writers import ShardWriter
from sgprep.schema import (
    Box,
    Detections,
    Entity,
    Negative,
    Negatives,
    Positive,
    Relation,
    Sample,
    SceneGraph,
)

#: the upright size of every test image, and the red box drawn on it
WIDTH, HEIGHT = 40, 60
RED_BOX = (4.0, 6.0, 16.0, 30.0)
FORMATS = {"jpg": "JPEG", "png": "PNG", "gif": "GIF", "bmp": "BMP"}


def to_tensor(image):
    """A PIL image -> a (3, H, W) float tensor in [0, 1]: the tests' ``transform``."""
    import numpy
    import torch

    return torch.from_numpy(numpy.asarray(image, dtype="float32") / 255).permute(2, 0, 1)


def upright() -> Image.Image:
    image = Image.new("RGB", (WIDTH, HEIGHT), (20, 120, 220))
    image.paste((230, 10, 10), tuple(int(v) for v in RED_BOX))
    return image


def image_bytes(ext: str, sideways: bool = False) -> bytes:
    """The upright image in ``ext``; ``sideways``: stored turned, with the EXIF orientation 6
    ("rotate 90 clockwise to view") that a phone writes."""
    buf = io.BytesIO()
    if sideways:
        exif = Image.Exif()
        exif[0x0112] = 6
        upright().transpose(Image.Transpose.ROTATE_90).save(
            buf, format="JPEG", quality=95, exif=exif
        )
    else:
        upright().save(buf, format=FORMATS[ext])
    return buf.getvalue()


def graph(*heads: str) -> SceneGraph:
    return SceneGraph(entities=[Entity(text=h, head=h) for h in heads], parser="hand")


def detections(n: int) -> Detections:
    boxes = [Box(xyxy=RED_BOX, score=0.9, label="block", cls=0)]
    boxes += [
        Box(
            xyxy=(0.0, 0.0, WIDTH / (i + 2), HEIGHT / (i + 2)),
            score=0.5 - i / 10,
            label="thing",
            cls=1,
        )
        for i in range(n - 1)
    ]
    return Detections(
        width=WIDTH,
        height=HEIGHT,
        detector="hand",
        weights_sha256="0" * 64,
        backend="onnx",
        objects=boxes[:n],
    )


def negatives(caption: str, n_caption: int, n_sub: int) -> Negatives:
    positives = [Positive(text=caption, kind="caption")]
    out = [
        Negative(
            text=f"not {caption} {i}",
            strategy="swap",
            kind="swap_object",
            positive=caption,
            positive_index=0,
            level="caption",
            realisation="span_edit",
        )
        for i in range(n_caption)
    ]
    if n_sub:
        positives.append(Positive(text="a block", kind="subgraph", realisation="span_extract"))
        out += [
            Negative(
                text=f"a ball {i}",
                strategy="replace",
                kind="replace_object",
                positive="a block",
                positive_index=1,
                level="subgraph",
                realisation="span_edit",
            )
            for i in range(n_sub)
        ]
    return Negatives(positives=positives, negatives=out)


#: key -> (image ext, sideways, boxes or None for no det.json, caption negatives, sub-graph ones)
SAMPLES = {
    "s0": ("jpg", True, 1, 2, 1),
    "s1": ("png", False, 3, 0, 0),  # no negative at all
    "s2": ("gif", False, None, 1, 0),  # detect did not run on it
    "s3": ("bmp", False, 0, 0, 2),  # only sub-graph negatives: none of the caption's own
    "s4": ("jpg", False, 2, 3, 0),
    "s5": ("png", False, None, 1, 1),
}


def make_sample(key: str) -> Sample:
    ext, sideways, boxes, n_caption, n_sub = SAMPLES[key]
    data = image_bytes(ext, sideways)
    caption = f"a red block number {key[1:]}"
    return Sample(
        key=key,
        source="hand",
        caption=caption,
        image=data,
        image_ext=ext,
        image_info=inspect_image(data),
        sg=graph("block"),
        det=None if boxes is None else detections(boxes),
        neg=negatives(caption, n_caption, n_sub),
    )


def write_output(root: Path, per_shard: int = 2) -> Path:
    """Three shards of two samples (one shard more than a two-worker DataLoader needs)."""
    writer = ShardWriter(root)
    writer.prepare({"command": "test"}, "fingerprint", overwrite=False)
    keys = sorted(SAMPLES)
    for n in range(0, len(keys), per_shard):
        sink = writer.open_shard(n // per_shard)
        sink.add([make_sample(k) for k in keys[n : n + per_shard]])
        sink.close(stages={})
    writer.finish()
    writer.release()
    return root


def coco_style_sample(image: int, n: int) -> Sample:
    """Caption ``n`` of image ``image``: a small PNG of its own colour, four caption negatives."""
    buf = io.BytesIO()
    Image.new("RGB", (8, 8), (image % 256, image // 256, 99)).save(buf, format="PNG")
    caption = f"photo {image} caption {n}"
    return Sample(
        key=f"{image}_{n}",
        source="coco-style",
        caption=caption,
        image=buf.getvalue(),
        image_ext="png",
        meta={"image_id": image},
        sg=graph("photo"),
        neg=negatives(caption, 4, 0),
    )


def write_coco_style(root: Path, images: int = 200, captions: int = 5, per_shard: int = 250):
    """A COCO-style output: ``captions`` captions per image, written one after another (as
    sgprep's COCO reader keeps them), ``per_shard`` samples a shard."""
    writer = ShardWriter(root)
    writer.prepare({"command": "test"}, "fingerprint", overwrite=False)
    samples = [coco_style_sample(i, n) for i in range(images) for n in range(captions)]
    for start in range(0, len(samples), per_shard):
        sink = writer.open_shard(start // per_shard)
        sink.add(samples[start : start + per_shard])
        sink.close(stages={})
    writer.finish()
    writer.release()
    return root


#: the blue ball drawn right of the red block on the seed methods' images
BLUE_BOX = (22.0, 30.0, 36.0, 50.0)


def seed_sample(n: int) -> Sample:
    """What the seed methods read: "a red block left of a blue ball" with its graph (two
    entities, one relation), det.json linking both entities to their boxes (only the block in
    odd samples), and the caption's and a sub-graph's negatives."""
    image = upright()
    image.paste((10, 10, 230), tuple(int(v) for v in BLUE_BOX))
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    caption = f"a red block left of a blue ball {n}"
    sg = SceneGraph(
        entities=[
            Entity(text="a red block", head="block", attributes=["red"]),
            Entity(text="a blue ball", head="ball", attributes=["blue"]),
        ],
        relations=[Relation(subject=0, predicate="left of", object=1)],
        parser="hand",
    )
    det = detections(1).model_copy(
        update={
            "objects": [
                Box(xyxy=RED_BOX, score=0.9, label="block", cls=0),
                Box(xyxy=BLUE_BOX, score=0.8, label="ball", cls=1),
            ],
            "entity_boxes": [0, 1] if n % 2 == 0 else [0, None],
        }
    )
    return Sample(
        key=f"seed{n}",
        source="hand",
        caption=caption,
        image=buf.getvalue(),
        image_ext="png",
        image_info=inspect_image(buf.getvalue()),
        sg=sg,
        det=Detections.model_validate(det.model_dump()),
        neg=negatives(caption, 2, 2),
    )


def write_seed_output(root: Path, samples: int = 8, per_shard: int = 4) -> Path:
    writer = ShardWriter(root)
    writer.prepare({"command": "test"}, "fingerprint", overwrite=False)
    for start in range(0, samples, per_shard):
        sink = writer.open_shard(start // per_shard)
        sink.add([seed_sample(n) for n in range(start, min(samples, start + per_shard))])
        sink.close(stages={})
    writer.finish()
    writer.release()
    return root


def cola_sample(image: int, caption: int) -> Sample:
    """Caption ``caption`` of image ``image``: even images hold a red block left of a blue
    ball, odd ones a blue block left of a red ball (the other binding). A dot at (image, 0)
    makes each image's bytes its own."""
    block, ball = ("red", "blue") if image % 2 == 0 else ("blue", "red")
    colours = {"red": (230, 10, 10), "blue": (10, 10, 230)}
    picture = Image.new("RGB", (WIDTH, HEIGHT), (240, 240, 240))
    picture.paste(colours[block], tuple(int(v) for v in RED_BOX))
    picture.paste(colours[ball], tuple(int(v) for v in BLUE_BOX))
    picture.putpixel((image, 0), (0, 0, 0))
    buf = io.BytesIO()
    picture.save(buf, format="PNG")
    sg = SceneGraph(
        entities=[
            Entity(text=f"a {block} block", head="block", attributes=[block]),
            Entity(text=f"a {ball} ball", head="ball", attributes=[ball]),
        ],
        relations=[Relation(subject=0, predicate="left of", object=1)],
        parser="hand",
    )
    return Sample(
        key=f"img{image}_cap{caption}",
        source="hand",
        caption=f"a {block} block left of a {ball} ball, caption {caption}",
        image=buf.getvalue(),
        image_ext="png",
        image_info=inspect_image(buf.getvalue()),
        sg=sg,
    )


def write_cola_output(root: Path, images: int = 6, captions: int = 2, mine: bool = True):
    """Images with both bindings, ``captions`` captions each (written image by image, as
    COCO is), in shards of 4 samples; ``mine``: with the real mine-images step's table."""
    from sgprep.negatives.mine import MineImagesStep

    samples = [cola_sample(i, c) for i in range(images) for c in range(captions)]
    writer = ShardWriter(root)
    writer.prepare({"command": "test"}, "fingerprint", overwrite=False)
    for start in range(0, len(samples), 4):
        sink = writer.open_shard(start // 4)
        sink.add(samples[start : start + 4])
        sink.close(stages={})
    writer.finish()
    writer.release()
    if mine:
        MineImagesStep().run(root)
    return root
