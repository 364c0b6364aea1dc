"""The detect stage on real photographs with real trained weights (CPU, offline)."""

from __future__ import annotations

import io

import numpy as np
import pytest
from detect_helpers import iou, jpeg, make_stage, sample
from PIL import Image

from sgprep.detect.pairs import union_box
from sgprep.detect.weights import sha256_file
from sgprep.io.records import dumps
from sgprep.schema import Sample

# People in ultralytics' assets, boxes [x1, y1, x2, y2] in pixels MARKED BY HAND: read off the
# photos with a 50-pixel grid drawn over them (whole visible body, feet and pointing arm included).
PEOPLE_MARKED_BY_HAND = {
    "bus": [  # 810 x 1080
        (52, 400, 243, 900),  # man in the beige coat
        (225, 407, 345, 858),  # man in the black coat and red shirt
        (669, 400, 810, 877),  # person cut by the right edge, walking out
    ],
    "zidane": [  # 1280 x 720
        (125, 200, 1150, 720),  # the shouting man, his arm pointing right
        (748, 42, 1138, 720),  # the grey-haired man behind the arm
    ],
}
SIZES = {"bus": (810, 1080), "zidane": (1280, 720)}


def _people_found(det, marked, scale: float = 1.0):
    people = [o.xyxy for o in det.objects if o.label in ("Normal", "Fall")]
    return [
        max((iou([v * scale for v in box], found) for found in people), default=0.0)
        for box in marked
    ]


@pytest.mark.parametrize("backend", ["onnx", "torch"])
def test_people_are_found_where_marked_by_hand(backend, request, asset_bytes):
    stage = request.getfixturevalue(f"{backend}_stage")
    samples = [sample(name, data) for name, data in asset_bytes.items()]
    stage.run(samples)
    for s in samples:
        assert s.ok, s.failure
        assert (s.det.width, s.det.height) == SIZES[s.key]
        assert s.det.backend == backend and s.det.detector == "fall_detector"
        ious = _people_found(s.det, PEOPLE_MARKED_BY_HAND[s.key])
        assert min(ious) >= 0.5, (s.key, ious, s.det.objects)


def test_torch_and_onnx_agree(onnx_stage, torch_stage, asset_bytes, photos):
    """Tolerance: every box one backend keeps with a score at least 0.05 above the threshold
    has a box of the same class in the other at IoU >= 0.9, scores within 0.05."""
    images = {**asset_bytes, **photos}
    results = {}
    for stage in (onnx_stage, torch_stage):
        samples = [sample(k, v) for k, v in images.items()]
        stage.run(samples)
        results[stage.detector.name] = {s.key: s.det for s in samples}
    compared = 0
    for key in images:
        a, b = results["onnx"][key], results["torch"][key]
        assert (a.width, a.height, a.weights_sha256) == (b.width, b.height, b.weights_sha256)
        for first, second in ((a, b), (b, a)):
            for obj in first.objects:
                if obj.score < 0.25 + 0.05:
                    continue
                same = [o for o in second.objects if o.cls == obj.cls]
                best = max(same, key=lambda o: iou(o.xyxy, obj.xyxy), default=None)
                assert best is not None and iou(best.xyxy, obj.xyxy) >= 0.9, (key, obj, second)
                assert abs(best.score - obj.score) <= 0.05, (key, obj, best)
                compared += 1
    assert compared >= 10  # the comparison covered real detections


def test_pairs_in_det_are_exact_unions_and_products(onnx_stage, asset_bytes):
    samples = [sample(k, v) for k, v in asset_bytes.items()]
    onnx_stage.run(samples)
    n_pairs = 0
    for s in samples:
        objs = s.det.objects
        assert [o.score for o in objs] == sorted((o.score for o in objs), reverse=True)
        expected = sorted(
            (
                (objs[i].score * objs[j].score, i, j)
                for i in range(len(objs))
                for j in range(i + 1, len(objs))
            ),
            key=lambda t: (-t[0], t[1], t[2]),
        )
        assert [(p.i, p.j) for p in s.det.pairs] == [(i, j) for _, i, j in expected][:10]
        for p in s.det.pairs:
            assert p.score == objs[p.i].score * objs[p.j].score
            assert p.xyxy == union_box(objs[p.i].xyxy, objs[p.j].xyxy)
            n_pairs += 1
    assert n_pairs >= 4


def test_top_n_and_top_m_limit_what_is_kept(fall_weights, asset_bytes):
    stage = make_stage(fall_weights, "onnx", top_objects=2, top_pairs=0, conf=0.05)
    try:
        s = stage.run([sample("bus", asset_bytes["bus"])])[0]
    finally:
        stage.teardown()
    assert len(s.det.objects) == 2 and s.det.pairs == []


def test_yolov9_from_its_yaml_runs_through_the_same_stage(yolov9t_weights, asset_bytes):
    for backend in ("onnx", "torch"):
        stage = make_stage(yolov9t_weights, backend, device="cpu", conf=0.0)
        try:
            s = stage.run([sample("bus", asset_bytes["bus"])])[0]
        finally:
            stage.teardown()
        assert s.ok, s.failure
        det = s.det
        assert det.detector == "yolov9t" and det.backend == backend
        assert det.weights_sha256 == sha256_file(yolov9t_weights)
        # random weights: meaningless boxes, but with conf 0 the top 10 and all 10 pairs exist
        assert len(det.objects) == 10 and len(det.pairs) == 10
        assert all(0 <= o.cls < 80 for o in det.objects)
        for o in det.objects:
            x1, y1, x2, y2 = o.xyxy
            assert 0 <= x1 <= x2 <= 810 and 0 <= y1 <= y2 <= 1080


def test_output_bytes_do_not_depend_on_batching(fall_weights, asset_bytes, photos):
    images = {**asset_bytes, **photos}
    outputs = []
    for batch_size in (1, 3, 16):
        stage = make_stage(fall_weights, "onnx", batch_size=batch_size)
        try:
            samples = stage.run([sample(k, v) for k, v in images.items()])
        finally:
            stage.teardown()
        outputs.append([dumps(s.det.model_dump(mode="json")) for s in samples])
    assert outputs[0] == outputs[1] == outputs[2]


def test_exif_rotated_photo_is_detected_upright(onnx_stage, asset_bytes):
    """bus.jpg stored turned a quarter (1080 wide, 810 high) with an EXIF tag saying so: the
    detector sees it upright, det reports 810 x 1080, and the people are where marked."""
    upright = Image.open(io.BytesIO(asset_bytes["bus"]))
    stored = upright.transpose(Image.Transpose.ROTATE_90)
    exif = Image.Exif()
    exif[0x0112] = 6  # rotate 90 degrees clockwise to view
    assert stored.size == (1080, 810)
    s = onnx_stage.run([sample("turned", jpeg(stored, exif=exif))])[0]
    assert (s.det.width, s.det.height) == (810, 1080)
    assert min(_people_found(s.det, PEOPLE_MARKED_BY_HAND["bus"])) >= 0.5


def test_large_photo_boxes_come_back_in_full_pixels(onnx_stage, asset_bytes):
    """A photo 3x the size of bus.jpg is decoded at a reduced scale; the boxes must still be
    in the big image's pixels."""
    big = Image.open(io.BytesIO(asset_bytes["bus"])).resize((2430, 3240), Image.Resampling.BICUBIC)
    s = onnx_stage.run([sample("big", jpeg(big))])[0]
    assert (s.det.width, s.det.height) == (2430, 3240)
    assert min(_people_found(s.det, PEOPLE_MARKED_BY_HAND["bus"], scale=3.0)) >= 0.5


def test_bad_images_fail_with_reasons_and_are_counted(fall_weights, asset_bytes):
    from test_decode import png_claiming_size, png_with_garbled_data

    rgb = np.asarray(Image.open(io.BytesIO(asset_bytes["zidane"])).convert("RGB"))
    buf = io.BytesIO()
    Image.fromarray(rgb).convert("LA").save(buf, format="PNG")  # grey + alpha: converted
    stage = make_stage(fall_weights, "onnx", batch_size=3)
    try:
        samples = [
            sample("good", asset_bytes["bus"]),
            sample("empty", b""),
            sample("none", None),
            sample("corrupt", png_with_garbled_data()),
            sample("truncated", asset_bytes["zidane"][:20000]),
            sample("bomb", png_claiming_size(30_000, 30_000)),
            sample("grey_alpha", buf.getvalue()),
        ]
        stage.run(samples)
        stats = stage.take_stats()
    finally:
        stage.teardown()
    reasons = {s.key: s.failure and s.failure.reason for s in samples}
    assert reasons == {
        "good": None,
        "empty": "image_empty",
        "none": "no_image",
        "corrupt": "image_corrupt",
        "truncated": "image_truncated",
        "bomb": "image_too_large",
        "grey_alpha": None,
    }
    assert all(s.failure.stage == "detect" for s in samples if s.failure)
    good = [s for s in samples if s.ok]
    assert all(s.det is not None for s in good)
    assert stats == {
        "images": 2,
        "objects": sum(len(s.det.objects) for s in good),
        "pairs": sum(len(s.det.pairs) for s in good),
        "failed/image_corrupt": 1,
        "failed/image_empty": 1,
        "failed/image_too_large": 1,
        "failed/image_truncated": 1,
        "failed/no_image": 1,
    }
    assert stats["objects"] >= 5  # 3 people on the bus, 2 in the grey copy of zidane


def test_parse_then_detect_annotate_the_same_samples(onnx_stage, asset_bytes):
    """Chaining at the stage level (the pipeline wires the same two stages): one image read,
    a scene graph and detections on each sample."""
    from sgprep.parse.stage import ParseStage

    captions = {"bus": "two men walk past a blue bus", "zidane": "a man points at another man"}
    samples = [
        Sample(key=k, source=k, caption=captions[k], image=v) for k, v in asset_bytes.items()
    ]
    parse = ParseStage()
    parse.setup()
    parse.run(samples)
    onnx_stage.run(samples)
    for s in samples:
        assert s.ok, s.failure
        assert s.sg is not None and any(e.head == "man" for e in s.sg.entities)
        assert s.det is not None and len(s.det.objects) >= 2


@pytest.mark.parametrize("backend", ["onnx", "torch"])
def test_the_cores_granted_by_the_executor_bound_the_detector_threads(
    backend, request, fall_weights, asset_bytes
):
    """A worker granted one core runs the model on one stream of one thread and the decoder
    on one thread (N workers side by side do not each start a thread per core); granted three,
    three single-threaded streams run images side by side. Both find the same boxes to the
    byte as the detector on every core (so output bytes do not depend on --workers, nor on
    which stream ran an image)."""
    from sgprep.detect.base import DetectSettings
    from sgprep.detect.stage import DetectStage

    shared = request.getfixturevalue(f"{backend}_stage")
    keys = ("bus", "zidane", "bus", "zidane")
    outputs = []
    for cores in (1, 3):
        stage = DetectStage(
            DetectSettings(
                weights=str(fall_weights),
                backend=backend,
                batch_size=4,
                device="cpu" if backend == "torch" else None,
            )
        )
        stage.place(0, cores)
        stage.setup()
        try:
            assert stage.detector.streams == cores
            assert (stage.detector._streams is None) == (cores == 1)
            assert stage._decoder._pool._max_workers == min(cores, stage.settings.decode_workers)
            if backend == "onnx":
                options = stage.detector.session.get_session_options()
                assert options.intra_op_num_threads == options.inter_op_num_threads == 1
            else:
                import torch

                assert torch.get_num_threads() == 1
            got = stage.run([sample(f"{k}{n}", asset_bytes[k]) for n, k in enumerate(keys)])
        finally:
            stage.teardown()
        outputs.append([s.det.model_dump_json() for s in got])
        assert all(s.det.objects for s in got)
    every = shared.run([sample(f"{k}{n}", asset_bytes[k]) for n, k in enumerate(keys)])
    assert outputs[0] == outputs[1] == [s.det.model_dump_json() for s in every]
    assert outputs[0][0] == outputs[0][2] and outputs[0][1] == outputs[0][3]


def test_a_user_set_decode_workers_is_kept(fall_weights):
    from sgprep.detect.base import DetectSettings
    from sgprep.detect.stage import DetectStage

    # a --decode-workers the user set is kept
    stage = DetectStage(DetectSettings(weights=str(fall_weights), backend="onnx", decode_workers=3))
    stage.place(0, 1)
    stage.setup()
    try:
        assert stage._decoder._pool._max_workers == 3
    finally:
        stage.teardown()


def test_an_image_shared_by_captions_is_decoded_and_detected_once_per_shard(
    fall_weights, asset_bytes
):
    """COCO: five captions per image. The detector sees each distinct image once per shard,
    across batches; every caption's sample still gets its own det (with its own entity links),
    byte for byte what it gets alone, and a bad shared image fails every sample that holds it."""
    from sgprep.detect.link import entity_boxes
    from sgprep.exec.totals import warnings
    from sgprep.schema import Entity, SceneGraph

    def graph(*heads):
        return SceneGraph(entities=[Entity(text=h, head=h) for h in heads], parser="hand")

    stage = make_stage(fall_weights, "onnx", batch_size=2)
    seen: list[int] = []
    infer = stage.detector.infer
    stage.detector.infer = lambda inputs: (seen.append(len(inputs)), infer(inputs))[1]
    bus, zidane, broken = asset_bytes["bus"], asset_bytes["zidane"], asset_bytes["zidane"][:20000]
    try:
        samples = [sample(f"bus{k}", bus) for k in range(3)]
        samples += [
            sample("zidane", zidane),
            sample("broken0", broken),
            sample("bus3", bus),
            sample("broken1", broken),
            sample("none", None),
        ]
        samples[0].sg, samples[1].sg = graph("person"), graph("bus", "person")
        stage.run(samples)
        stats = stage.take_stats()  # the shard ends: its images are forgotten
        again = stage.run([sample("bus_next_shard", bus)])
    finally:
        stage.teardown()
    assert sum(seen) == 2 + 1  # bus and zidane in the shard, bus once more in the next
    by_key = {s.key: s for s in samples}
    assert {k for k, s in by_key.items() if not s.ok} == {"broken0", "broken1", "none"}
    assert by_key["broken0"].failure.reason == by_key["broken1"].failure.reason == "image_truncated"
    alone = dumps(again[0].det.model_dump(mode="json"))
    for key in ("bus2", "bus3"):
        assert dumps(by_key[key].det.model_dump(mode="json")) == alone
    for key in ("bus0", "bus1"):  # linked to its own graph
        s = by_key[key]
        assert s.det.entity_boxes == entity_boxes(s.sg, again[0].det.objects)
        assert len(s.det.entity_boxes) == len(s.sg.entities)
    assert by_key["bus2"].det.entity_boxes is None
    assert len({id(by_key[f"bus{k}"].det) for k in range(4)}) == 4  # copies, not one object
    assert stats["images"] == 5 and stats["images_reused"] == 4  # bus x3 and broken x1
    linked = sum(b is not None for k in ("bus0", "bus1") for b in by_key[k].det.entity_boxes)
    assert stats["entities"] == 3 and stats.get("entities_linked", 0) == linked
    # this detector's labels ("Normal", "Fall") name no caption object: the summaries say so
    (warning,) = warnings({"detect": stats})
    assert "linked none of 3 caption entities" in warning
